"""Planner strength: win rate (95% Wilson interval) of each planner over a fixed set of deals.

    python benchmarks/bench_planners.py --games 500 --planners usual,expectimax --workers 2

Every planner plays the same deals (seeds 1..N) of the game (default: Klondike draw 3, unlimited
passes), seeing only the player's view with memory (``cardz_core.view.Seat``); a game is won,
lost (the planner gives up or the game says so) or unfinished at the move cap. Prints one line per
planner: wins, win rate with its interval, mean moves, seconds per game; ``--json`` adds them as
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
    started = time.perf_counter()
    seat = Seat(game, game.deal(seed))
    chooser = make_planner(game, planner, force=True, **options.get(planner, {}))
    rng = random.Random(seed * 7919 + len(planner))
    while seat.state.status == PLAYING and seat.state.moves < max_moves:
        move = chooser.choose(game, seat.view, rng)
        if move is None:
            break
        seat.play(move)
    return planner, seed, int(seat.state.status == WON), seat.state.moves, time.perf_counter() - started


def _batch(args: tuple) -> list[tuple]:
    path, planner, seeds, max_moves, options = args
    return [play_one(path, planner, s, max_moves, options) for s in seeds]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--file", default=str(DEFAULT_FILE), help="game file (default Klondike draw 3)")
    p.add_argument("--games", type=int, default=500, help="deals, seeds 1..N (default 500)")
    p.add_argument("--planners", default="random,usual,expectimax")
    p.add_argument("--nodes", type=int, default=None,
                   help="node budget per move of expectimax and sampling")
    p.add_argument("--depth", type=int, default=None, help="expectimax depth limit")
    p.add_argument("--samples", type=int, default=None, help="expectimax samples per chance node")
    p.add_argument("--deals", type=int, default=None, help="deals sampling solves per decision")
    p.add_argument("--max-moves", type=int, default=1000, help="move cap per game")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", metavar="OUT", help="also write the summary as JSON to OUT")
    p.add_argument("--rows", metavar="ROWS", help="append each deal's row to ROWS (JSON lines) as "
                                                   "it finishes, so a cut-short run keeps them")
    args = p.parse_args(argv)
    given = {"nodes": args.nodes, "depth": args.depth, "samples": args.samples, "deals": args.deals}
    takes = {"expectimax": ("nodes", "depth", "samples"), "sampling": ("nodes", "deals")}
    options = {name: {k: given[k] for k in keys if given[k] is not None}
               for name, keys in takes.items()}
    seeds = list(range(1, args.games + 1))
    chunk = 5
    jobs = [(args.file, name, seeds[i:i + chunk], args.max_moves, options)
            for name in args.planners.split(",") for i in range(0, len(seeds), chunk)]
    rows: list[tuple] = []

    def keep(part: list[tuple]) -> None:
        rows.extend(part)
        if args.rows:
            with open(args.rows, "a", encoding="utf-8") as out:
                for r in part:
                    out.write(json.dumps(dict(zip(("planner", "seed", "won", "moves", "seconds"),
                                                  r))) + "\n")

    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for part in pool.map(_batch, jobs):
                keep(part)
    else:
        for job in jobs:
            keep(_batch(job))
    summary = []
    for name in args.planners.split(","):
        mine = [r for r in rows if r[0] == name]
        wins = sum(r[2] for r in mine)
        lo, hi = wilson_interval(wins, len(mine)) or (0.0, 0.0)
        line = {"planner": name, "games": len(mine), "wins": wins, "rate": wins / len(mine),
                "low": lo, "high": hi, "moves": sum(r[3] for r in mine) / len(mine),
                "seconds_per_game": sum(r[4] for r in mine) / len(mine), "options":
                options if name == "expectimax" else {}}
        summary.append(line)
        print(f"{name:11} {wins:4}/{len(mine)} won  {100 * line['rate']:5.1f}% "
              f"[{100 * lo:5.1f}%, {100 * hi:5.1f}%]  {line['moves']:6.1f} moves  "
              f"{line['seconds_per_game']:7.2f} s/game", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps({"file": args.file, "deals": len(seeds),
                                               "max_moves": args.max_moves,
                                               "planners": summary}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
