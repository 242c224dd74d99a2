"""The summary as text on the terminal."""

from __future__ import annotations

import shlex
import sys
from typing import Any, TextIO

from cardz_core.sim.notable import option_args
from cardz_core.sim.play import ENDS

DEAD_CARDS_SHOWN = 5
METRIC_TITLES = {"never_moved": "never moved", "never_foundation": "never reached a foundation",
                 "left": "left over in lost games"}
END_TITLES = {"won": "won", "lost": "lost by the rules", "stuck": "stuck (no legal move)",
              "resigned": "resigned (moves left)", "unfinished": "unfinished (move cap)"}
HASH_SHOWN = 12  # hex digits of a game file's sha256 in the text summary


def fmt(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def interval_text(interval: list[float] | None, show: Any = pct) -> str:
    return "-" if interval is None else f"{show(interval[0])} .. {show(interval[1])}"


def dead_cards(summary: dict[str, Any], label: str, metric: str,
               count: int = DEAD_CARDS_SHOWN) -> list[tuple[str, float]]:
    """The cards with the highest rate of ``metric`` for the arm ``label`` (ties in deck
    order)."""
    arm = summary["planners"][label]
    rated = [(c["card"], c[metric][arm["planner"]]) for c in summary["cards"][arm["variant"]]
             if c[metric][arm["planner"]] is not None]
    rated = [r for r in rated if r[1] > 0]
    return sorted(rated, key=lambda r: -r[1])[:count]


def planner_text(entry: dict[str, Any]) -> str:
    """A planner with its options: ``expectimax (nodes 500)``."""
    opts = ", ".join(f"{k} {v}" for k, v in entry["options"].items())
    return f"{entry['name']} ({opts})" if opts else entry["name"]


def made_lines(made: dict[str, Any]) -> list[str]:
    """How the run was made, a line per variant and one for the rest."""
    lines = [f"{v['name']}: {v['file']} sha256 {v['sha256'][:HASH_SHOWN]}, "
             f"{v['engine']} engine" for v in made["variants"]]
    given = shlex.join(option_args(made["options"]))
    count = made["workers"]
    workers = "all CPUs" if count is None else f"{count} worker{'s' if count != 1 else ''}"
    lines.append(f"made by cardz {made['cardz']}: planners "
                 f"{', '.join(planner_text(p) for p in made['planners'])}"
                 f"{f' (given {given})' if given else ''}, master seed {made['seed']}, "
                 f"move cap {made['max_moves']}, {made['backend']} backend, {workers}"
                 f"{', --force' if made['force'] else ''}")
    return lines


def _columns(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [head, *rows]) for i in range(len(head))]
    return ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                      enumerate(zip(r, widths))).rstrip() for r in [head, *rows]]


def deals_text(summary: dict[str, Any]) -> str:
    """``deal 12`` for a run of one deal (``--deal``), else ``40 of 50 deals``."""
    made = summary["made"]
    if made["games"] == 1:
        return f"deal {made['first_deal']}"
    return f"{summary['deals_done']} of {summary['games']} deals"


def games_text(summary: dict[str, Any]) -> str:
    """The names of the games played, each once."""
    return ", ".join(dict.fromkeys(v["game"] for v in summary["made"]["variants"]))


def summary_lines(summary: dict[str, Any]) -> list[str]:
    """The summary as lines of plain text: how it was made, a table of planners, why games
    ended, the paired comparisons, the notable deals, and the cards most often dead."""
    state = "" if summary["complete"] else " (partial)"
    lines = [f"{games_text(summary)}: {deals_text(summary)}, seed {summary['seed']}, move cap "
             f"{summary['max_moves']}{state}", *made_lines(summary["made"]), ""]
    head = ["planner", "games", "won", "win rate", "95% interval", *ENDS[1:],
            "moves mean", "median", "max", "score mean", "s/game"]
    rows = []
    for name, p in summary["planners"].items():
        score = p["score"]
        rows.append([name, str(p["games"]), str(p["won"]), pct(p["win_rate"]),
                     interval_text(p["win_interval"]), *(str(p["ends"][e]) for e in ENDS[1:]),
                     fmt(p["moves"]["mean"]), fmt(p["moves"]["median"]),
                     "-" if p["moves"]["max"] is None else str(p["moves"]["max"]),
                     fmt(score["mean"]) if score else "-", fmt(p["seconds"]["mean"], 4)])
    lines += _columns(head, rows)
    lines.append("why games ended: " + ", ".join(END_TITLES[e] for e in ENDS[1:]))
    if summary["paired"] or summary["unpaired"]:
        lines.append("")
    for pair in summary["paired"]:
        lines.append(f"{pair['a']} vs {pair['b']} on {pair['deals']} shared deals: "
                     f"{pair['note']}")
        for key, who in (("a_only_deals", pair["a"]), ("b_only_deals", pair["b"])):
            if pair[key]:
                lines.append(f"  won by {who} only: deals "
                             f"{', '.join(str(d['deal']) for d in pair[key])}")
        if pair["reason"]:
            lines.append(f"  (only the deals that open alike: {pair['reason']})")
    for pair in summary["unpaired"]:
        lines.append(f"{pair['a']} vs {pair['b']}: {pair['note']} ({pair['reason']})")
    notable = []
    for name, p in summary["planners"].items():
        for key, words in (("shortest_win", "shortest win"), ("longest_loss", "longest loss")):
            found = p[key]
            if found is not None:
                notable.append(f"{name}: {words}: deal {found['deal']} (seed {found['seed']}), "
                               f"{found['moves']} moves: {found['replay']}")
    if notable:
        lines += ["", *notable]
    dead = []
    for name in summary["planners"]:
        for metric, title in METRIC_TITLES.items():
            worst = dead_cards(summary, name, metric)
            if worst:
                cards = ", ".join(f"{card} {pct(rate)}" for card, rate in worst)
                dead.append(f"{name}: most often {title}: {cards}")
    lines += [""] + dead if dead else []
    written = [f"{what} written to {summary[key]}" for key, what in
               (("rows", "rows"), ("report", "report")) if summary.get(key)]
    return lines + ([""] + written if written else [])


def print_summary(summary: dict[str, Any], file: TextIO | None = None) -> None:
    print("\n".join(summary_lines(summary)), file=file or sys.stdout)
