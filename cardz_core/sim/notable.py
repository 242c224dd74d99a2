"""The commands that replay a run's notable deals: the same deal seed and planner seed, so the
game is played again move for move (``--deal`` plays one deal of the run, ``--log`` writes it)."""

from __future__ import annotations

import shlex
from typing import Any

from cardz_core.limits import SIM_MAX_MOVES


def option_args(options: dict[str, Any]) -> list[str]:
    """The command-line arguments that give a run's planner ``options``: ``--nodes`` has its
    flag, the rest are ``--option NAME=VALUE``."""
    argv: list[str] = []
    for key, value in options.items():
        text = str(value).lower() if value is None or isinstance(value, bool) else str(value)
        argv += [f"--{key}", text] if key == "nodes" else ["--option", f"{key}={text}"]
    return argv


def replay_command(made: dict[str, Any], variants: list[str], planners: list[str], deal: int,
                   log: bool = True) -> str:
    """``cardz simulate`` playing ``deal`` of the run ``made`` describes on ``variants`` with
    ``planners``; with ``log`` (one variant, one planner) it also writes the game's log."""
    files = {v["name"]: v["file"] for v in made["variants"]}
    argv = ["cardz", "simulate", *(files[v] for v in variants), "--seed", str(made["seed"]),
            "--deal", str(deal), "--planner", ",".join(planners)]
    argv += option_args(made["options"])
    if made["max_moves"] != SIM_MAX_MOVES:
        argv += ["--max-moves", str(made["max_moves"])]
    if made["force"]:
        argv.append("--force")
    if log and len(variants) == 1 and len(planners) == 1:
        argv += ["--log", f"deal-{deal}.log"]
    return shlex.join(argv)


def add_replays(summary: dict[str, Any]) -> None:
    """Give every notable deal of ``summary`` (shortest win, longest loss, deals won by one side
    of a pair only) the command that replays it, as ``replay``."""
    made = summary["made"]
    for arm in summary["planners"].values():
        for key in ("shortest_win", "longest_loss"):
            if arm[key] is not None:
                arm[key]["replay"] = replay_command(made, [arm["variant"]], [arm["planner"]],
                                                    arm[key]["deal"])
    arms = summary["planners"]
    for pair in summary["paired"]:
        a, b = arms[pair["a"]], arms[pair["b"]]
        variants = list(dict.fromkeys([a["variant"], b["variant"]]))
        planners = list(dict.fromkeys([a["planner"], b["planner"]]))
        for key in ("a_only_deals", "b_only_deals"):
            for found in pair[key]:
                found["replay"] = replay_command(made, variants, planners, found["deal"],
                                                 log=False)
