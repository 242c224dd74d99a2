"""Planner strength: win rate (95% Wilson interval) of each planner over a fixed set of deals.

    python benchmarks/bench_planners.py --games 500 --planners usual,expectimax --workers 2
    python benchmarks/bench_planners.py --deals 50 --planner bandit --set bandit.samples=16 \
        --winnable 20000

``--winnable STATES`` also asks the solver, with every card known and STATES positions, which
true deals are winnable, and adds the share of those each planner won (deals the solver left
unknown count in neither part). ``--set PLANNER.OPTION=VALUE`` passes any option to a planner.

Every planner plays the same deals (seeds 1..N) of the game (default: Klondike draw 3, unlimited
passes), seeing only the player's view with memory (``cardz_core.view.Seat``); a game is won,
lost (the planner gives up or the game says so) or unfinished at the move cap. Prints one line per
planner: wins, win rate with its interval, mean moves, CPU seconds per game; ``--json`` adds them as
JSON. Deals are split over worker processes; results do not depend on the number of workers.
Published reference points for Klondike draw 3 with hidden cards: a greedy player wins about 13%,
the best search-based players 37-48%.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.engine import compile  # noqa: E402
from cardz_core.engine.state import PLAYING, WON  # noqa: E402
from cardz_core.planners import make_planner  # noqa: E402
from cardz_core.planners.solver import solve  # noqa: E402
from cardz_core.sim.stats import wilson_interval  # noqa: E402
from cardz_core.spec import load_game  # noqa: E402
from cardz_core.view import Seat  # noqa: E402

DEFAULT_FILE = ROOT / "rulesets" / "klondike_draw3.cardz"
_GAME: dict[str, Any] = {}


def _game(path: str) -> Any:
    if path not in _GAME:
        _GAME[path] = compile(load_game(Path(path), file=path))
    return _GAME[path]


def play_one(path: str, planner: str, seed: int, max_moves: int, options: dict[str, Any]
             ) -> tuple[str, int, int, int, float]:
    """(planner, seed, 1 if won else 0, moves, seconds) for one deal."""
    game = _game(path)
    started = time.process_time()  # CPU time: the machine is shared
    seat = Seat(game, game.deal(seed))
    chooser = make_planner(game, planner, force=True, **options.get(planner, {}))
    rng = random.Random(seed * 7919 + len(planner))
    while seat.state.status == PLAYING and seat.state.moves < max_moves:
        move = chooser.choose(game, seat.view, rng)
        if move is None:
            break
        seat.play(move)
    spent = time.process_time() - started
    return planner, seed, int(seat.state.status == WON), seat.state.moves, spent


def winnable(path: str, seed: int, states: int) -> tuple[str, int, str]:
    """("solver", seed, won | lost | unknown): the true deal solved with every card known."""
    game = _game(path)
    return "solver", seed, solve(game, game.deal(seed), max_states=states, timeout=3600.0).result


def _batch(args: tuple) -> list[tuple]:
    path, planner, seeds, max_moves, options = args
    if planner == "solver":
        return [winnable(path, s, max_moves) for s in seeds]
    return [play_one(path, planner, s, max_moves, options) for s in seeds]


def _setting(text: str) -> tuple[str, str, Any]:
    """``PLANNER.OPTION=VALUE`` as (planner, option, value), the value a number where it reads
    as one."""
    name, _, rest = text.partition(".")
    key, eq, raw = rest.partition("=")
    if not (name and key and eq):
        raise argparse.ArgumentTypeError(f"--set wants PLANNER.OPTION=VALUE, not {text!r}")
    value: Any = raw
    for kind in (int, float):
        try:
            value = kind(raw)
            break
        except ValueError:
            pass
    return name, key, value


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--file", default=str(DEFAULT_FILE), help="game file (default Klondike draw 3)")
    p.add_argument("--games", "--deals", dest="games", type=int, default=500,
                   help="deals, seeds 1..N (default 500)")
    p.add_argument("--planners", "--planner", dest="planners", default="random,usual,expectimax")
    p.add_argument("--nodes", type=int, default=None,
                   help="node budget per move of expectimax, sampling and bandit")
    p.add_argument("--depth", type=int, default=None, help="expectimax depth limit")
    p.add_argument("--samples", type=int, default=None, help="expectimax samples per chance node")
    p.add_argument("--sampling-deals", type=int, default=None,
                   help="deals sampling solves per decision")
    p.add_argument("--set", dest="settings", type=_setting, action="append", default=[],
                   metavar="PLANNER.OPTION=VALUE", help="an option for one planner (repeatable)")
    p.add_argument("--winnable", type=int, metavar="STATES", default=None,
                   help="also solve each true deal with STATES positions and report the share "
                        "of the winnable deals each planner won")
    p.add_argument("--max-moves", type=int, default=1000, help="move cap per game")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", metavar="OUT", help="also write the summary as JSON to OUT")
    p.add_argument("--rows", metavar="ROWS", help="append each deal's row to ROWS (JSON lines) as "
                                                   "it finishes, so a cut-short run keeps them")
    args = p.parse_args(argv)
    given = {"nodes": args.nodes, "depth": args.depth, "samples": args.samples,
             "deals": args.sampling_deals}
    takes = {"expectimax": ("nodes", "depth", "samples"), "sampling": ("nodes", "deals"),
             "bandit": ("nodes",)}
    options = {name: {k: given[k] for k in keys if given[k] is not None}
               for name, keys in takes.items()}
    for name, key, value in args.settings:
        options.setdefault(name, {})[key] = value
    seeds = list(range(1, args.games + 1))
    chunk = 5
    names = args.planners.split(",")
    # chunk by chunk, every planner (and the solver) in turn: a run cut short keeps paired rows
    budgets = [(name, args.max_moves) for name in names]
    if args.winnable is not None:
        budgets.append(("solver", args.winnable))
    jobs = [(args.file, name, seeds[i:i + chunk], cap, options)
            for i in range(0, len(seeds), chunk) for name, cap in budgets]
    rows: list[tuple] = []

    def keep(part: list[tuple]) -> None:
        rows.extend(part)
        if args.rows:
            with open(args.rows, "a", encoding="utf-8") as out:
                for r in part:
                    fields = ("planner", "seed", "result") if r[0] == "solver" else \
                        ("planner", "seed", "won", "moves", "seconds")
                    out.write(json.dumps(dict(zip(fields, r))) + "\n")

    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for part in pool.map(_batch, jobs):
                keep(part)
    else:
        for job in jobs:
            keep(_batch(job))
    verdicts = {r[1]: r[2] for r in rows if r[0] == "solver"}
    if verdicts:
        told = {k: sum(1 for v in verdicts.values() if v == k) for k in ("won", "lost", "unknown")}
        print(f"solver      {told['won']} winnable, {told['lost']} not, {told['unknown']} unknown "
              f"({args.winnable} positions each)", flush=True)
    summary = []
    for name in names:
        mine = [r for r in rows if r[0] == name]
        wins = sum(r[2] for r in mine)
        lo, hi = wilson_interval(wins, len(mine)) or (0.0, 0.0)
        line = {"planner": name, "games": len(mine), "wins": wins, "rate": wins / len(mine),
                "low": lo, "high": hi, "moves": sum(r[3] for r in mine) / len(mine),
                "seconds_per_game": sum(r[4] for r in mine) / len(mine),
                "options": options.get(name, {})}
        extra = ""
        if verdicts:
            able = [r for r in mine if verdicts.get(r[1]) == "won"]
            line["winnable"] = len(able)
            line["winnable_won"] = sum(r[2] for r in able)
            share = line["winnable_won"] / len(able) if able else 0.0
            extra = f"  {line['winnable_won']}/{len(able)} winnable won ({100 * share:.1f}%)"
        summary.append(line)
        print(f"{name:11} {wins:4}/{len(mine)} won  {100 * line['rate']:5.1f}% "
              f"[{100 * lo:5.1f}%, {100 * hi:5.1f}%]  {line['moves']:6.1f} moves  "
              f"{line['seconds_per_game']:7.2f} s/game{extra}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"file": args.file, "deals": len(seeds),
                                               "max_moves": args.max_moves,
                                               "winnable_states": args.winnable,
                                               "solver": verdicts, "planners": summary},
                                              indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
