"""Native views: CPU time per game of the planners that play on views (``expectimax``,
``sampling``), on three engines side by side in one run: the Python engine, the native engine
with its views played in Python (as before views were native), and the native engine.

    python benchmarks/bench_views.py --games 4 --nodes 500

Every engine plays the same deals (seeds 1..N) with the same planner generator, so the games are
the same (the moves and wins columns agree); the ratios are of CPU time (``time.process_time``),
which the machine's other load does not change much. Prints one line per planner and engine and
the ratios; ``--json`` prints them as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.engine import Game, compile  # noqa: E402
from cardz_core.engine.moves import Move  # noqa: E402
from cardz_core.engine.state import PLAYING, WON, Status  # noqa: E402
from cardz_core.native import (CallBacks, NativeEngineGame, NativeState, extension,  # noqa: E402
                               plan_document)
from cardz_core.planners import make_planner  # noqa: E402
from cardz_core.spec import load_game  # noqa: E402
from cardz_core.view import Seat  # noqa: E402

DEFAULT_FILE = ROOT / "rulesets" / "klondike_draw3.cardz"
MAX_MOVES = 300


def views_in_python(game: NativeEngineGame) -> NativeEngineGame:
    """``game`` with an engine given no deck tables: its views are played in Python."""
    native = extension()
    assert native is not None
    game.native.engine = native.Engine(json.dumps(plan_document(game)), Move, NativeState,
                                       tuple(Status), game.identity, None, CallBacks(game, []))
    game._attach(game.native)
    return game


def engines(path: Path) -> dict[str, Game]:
    spec = load_game(path, file=str(path))
    before = compile(spec, engine="native")
    assert isinstance(before, NativeEngineGame)
    return {"python": compile(spec, engine="python"),
            "native, views in Python": views_in_python(before),
            "native views": compile(spec, engine="native")}


def play(game: Game, planner: str, seed: int, nodes: int) -> tuple[float, int, bool]:
    """(CPU seconds, moves, won) of one deal played by ``planner`` on the player's view."""
    seat = Seat(game, game.deal(seed))
    chooser = make_planner(game, planner, force=True, nodes=nodes)
    rng = random.Random(seed * 7919 + len(planner))
    started = time.process_time()
    while seat.state.status == PLAYING and seat.state.moves < MAX_MOVES:
        move = chooser.choose(game, seat.view, rng)
        if move is None:
            break
        seat.play(move)
    return time.process_time() - started, seat.state.moves, seat.state.status == WON


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("file", nargs="?", type=Path, default=DEFAULT_FILE)
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--nodes", type=int, default=500, help="node budget per move")
    p.add_argument("--planners", default="expectimax,sampling")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    games = engines(args.file)
    out: dict[str, Any] = {}
    for planner in args.planners.split(","):
        rows = {}
        for name, game in games.items():
            played = [play(game, planner, seed, args.nodes) for seed in range(1, args.games + 1)]
            cpu = sum(c for c, _, _ in played) / len(played)
            rows[name] = {"cpu_per_game": cpu, "moves": sum(m for _, m, _ in played),
                          "wins": sum(w for _, _, w in played)}
            if not args.json:
                print(f"{planner:10} {name:24} {cpu:7.2f} CPU s/game  moves {rows[name]['moves']}"
                      f"  wins {rows[name]['wins']}", flush=True)
        now = rows["native views"]["cpu_per_game"]
        ratios = {"vs_views_in_python": rows["native, views in Python"]["cpu_per_game"] / now,
                  "vs_python": rows["python"]["cpu_per_game"] / now}
        out[planner] = {"engines": rows, "ratios": ratios}
        if not args.json:
            print(f"{planner:10} native views: {ratios['vs_views_in_python']:.2f}x the native "
                  f"engine with views in Python, {ratios['vs_python']:.2f}x the Python engine")
    if args.json:
        print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
