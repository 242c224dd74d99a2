"""Engine throughput: random play on Klondike draw 3 on both engines, beside OpenSpiel's
`solitaire` when present; with ``--all``, a table over every bundled game.

    python3 benchmarks/bench_engine.py [--games 20] [--max-moves 1000] [--seed 1] [--repeat 3]
    python3 benchmarks/bench_engine.py --profile [--native]   # cProfile of one side
    python3 benchmarks/bench_engine.py --all [--budget 0.3]   # every bundled game (markdown)
    python3 benchmarks/bench_engine.py --startup              # `cardz --help`, `cardz moves`

Each game: deal, then repeat (list the legal moves, pick one uniformly with a seeded
``random.Random``, apply it) until the game ends, no move is left, or ``--max-moves`` moves.
A *step* is one move applied; dealing and listing moves count in the time, which is CPU time
(``time.process_time``), so that other work on the machine disturbs the figures less.
OpenSpiel's game runs the same loop (``legal_actions`` + ``apply_action``; chance outcomes
sampled by their probabilities with the same generator) with its ``depth_limit`` raised to
``--max-moves``, so both sides stop at the same cap.

Sides: the Python engine (``compile(..., engine="python")``); the native engine driven step by
step from the same Python loop (``engine="native"``: the same moves, since both engines list
the same moves in the same order); native batch playouts (``NativeGame.playouts``: the deals in
Python, counted in the time, then every game played inside Rust with its own generator);
OpenSpiel. The sides run in turn ``--repeat`` times and each keeps its best run; each prints
its ratio to OpenSpiel.

``--all``: per bundled game, steps per CPU second of random play on each engine (deals from
seed 0 on, until ``--budget`` CPU seconds are spent), the compile time, and the time to open
and list the first moves (compile, deal, ``legal_moves``), as a markdown table.
``--startup``: CPU time of the ``cardz`` command's start (``cardz --help``, ``cardz moves`` of
a dealt board), best of five runs.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.engine import compile  # noqa: E402
from cardz_core.engine.state import PLAYING  # noqa: E402
from cardz_core.engines import engine_of  # noqa: E402
from cardz_core.native import NativeEngineGame  # noqa: E402
from cardz_core.rulesets import bundled  # noqa: E402
from cardz_core.spec import load_game  # noqa: E402

RULESET = ROOT / "rulesets" / "klondike_draw3.cardz"
clock = time.process_time


def open_engine(path: Path, engine: str) -> Any:
    return compile(load_game(path, file=str(path)), engine=engine)


def run_ours(game: Any, games: int, max_moves: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    steps = 0
    legal_moves, apply = game.legal_moves, game.apply
    start = clock()
    for g in range(games):
        state = game.deal(seed * 100_003 + g)
        for _ in range(max_moves):
            if state.status != PLAYING:
                break
            moves = legal_moves(state)
            if not moves:
                break
            state = apply(state, moves[rng.randrange(len(moves))])
            steps += 1
    return steps, clock() - start


def run_native_batch(game: NativeEngineGame, games: int, max_moves: int,
                     seed: int) -> tuple[int, float]:
    start = clock()
    states = [game.deal(seed * 100_003 + g) for g in range(games)]
    results = game.native.playouts(states, seed, max_moves)
    return sum(moves for moves, _status in results), clock() - start


def run_openspiel(games: int, max_moves: int, seed: int) -> tuple[int, float]:
    import pyspiel

    game = pyspiel.load_game("solitaire", {"depth_limit": max_moves})
    rng = random.Random(seed)
    steps = 0
    start = clock()
    for _ in range(games):
        state = game.new_initial_state()
        moves = 0
        while not state.is_terminal() and moves < max_moves:
            if state.is_chance_node():
                r = rng.random()
                outcomes = state.chance_outcomes()
                action = outcomes[-1][0]
                for a, p in outcomes:
                    r -= p
                    if r < 0:
                        action = a
                        break
                state.apply_action(action)
                continue
            actions = state.legal_actions()
            if not actions:
                break
            state.apply_action(actions[rng.randrange(len(actions))])
            moves += 1
            steps += 1
    return steps, clock() - start


def klondike(args: argparse.Namespace) -> int:
    python = open_engine(RULESET, "python")
    native = open_engine(RULESET, "auto")
    is_native = isinstance(native, NativeEngineGame)
    try:
        import pyspiel  # noqa: F401
        have_openspiel = True
    except ImportError:
        have_openspiel = False
    best: dict[str, tuple[float, int]] = {}  # side -> (best steps/s, steps of a run)

    def keep(side: str, steps: int, seconds: float) -> None:
        rate = steps / max(seconds, 1e-9)
        if rate > best.get(side, (0.0, 0))[0]:
            best[side] = (rate, steps)

    for _ in range(args.repeat):
        keep("python", *run_ours(python, args.games, args.max_moves, args.seed))
        if is_native:
            keep("native, step by step", *run_ours(native, args.games, args.max_moves, args.seed))
            keep("native, batch playouts", *run_native_batch(native, args.games, args.max_moves,
                                                             args.seed))
        if have_openspiel:
            keep("OpenSpiel solitaire", *run_openspiel(args.games, args.max_moves, args.seed))
    print(f"{RULESET.relative_to(ROOT)}: {args.games} games, at most {args.max_moves} moves; "
          f"steps per CPU second, best of {args.repeat}")
    if not is_native:
        print(f"native engine: not run ({engine_of(native)[1]})")
    theirs = best.get("OpenSpiel solitaire", (0.0, 0))[0]
    for side, (rate, steps) in best.items():
        ratio = f"  {rate / theirs:6.2f}x OpenSpiel" if theirs else ""
        print(f"  {side:24} {steps:8} steps {rate:12,.0f} steps/s{ratio}")
    if is_native:
        py = best["python"][0]
        print(f"native / python: step by step {best['native, step by step'][0] / py:.1f}x, "
              f"batch {best['native, batch playouts'][0] / py:.1f}x")
    if not have_openspiel:
        print("open_spiel is not installed (pip install '.[bench]'): no comparison")
    return 0


def profile(args: argparse.Namespace) -> int:
    game = open_engine(RULESET, "native" if args.native else "python")
    profiler = cProfile.Profile(clock)
    profiler.enable()
    run_ours(game, args.games, args.max_moves, args.seed)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
    return 0


def rate(game: Any, budget: float, max_moves: int) -> float:
    """Steps per CPU second of random play from deal 0 on, until ``budget`` seconds are spent."""
    steps, spent, seed = 0, 0.0, 0
    while spent < budget:
        made, seconds = run_ours(game, 1, max_moves, seed)
        steps, spent, seed = steps + made, spent + seconds, seed + 1
        if seed >= 1000:
            break
    return steps / max(spent, 1e-9)


def timed(fn: Callable[[], Any], runs: int = 3) -> tuple[Any, float]:
    """(the last result, the best CPU milliseconds of ``runs`` calls)."""
    best, out = float("inf"), None
    for _ in range(runs):
        start = clock()
        out = fn()
        best = min(best, clock() - start)
    return out, best * 1000


def first_moves(path: Path) -> Any:
    """What opening a game costs before play: load, compile, deal, list the moves."""
    game = compile(load_game(path, file=str(path)))
    return game.legal_moves(game.deal(0))


def every_game(args: argparse.Namespace) -> int:
    print("| game | engine | python steps/s | native steps/s | native / python | compile ms "
          "| open + first moves ms |")
    print("|---|---|---|---|---|---|---|")
    native_rates: list[float] = []
    for rs in bundled():
        spec = load_game(rs.path, file=str(rs.path))
        game, compile_ms = timed(lambda: compile(spec))
        engine, why = engine_of(game)
        _, first_ms = timed(lambda: first_moves(rs.path))
        py = rate(compile(spec, engine="python"), args.budget, args.max_moves)
        nat = rate(game, args.budget, args.max_moves) if why is None else None
        if nat is not None:
            native_rates.append(nat)
        shown = f"{nat:,.0f}" if nat is not None else "-"
        ratio = f"{nat / py:.1f}x" if nat is not None else "-"
        print(f"| {rs.path.stem} | {engine} | {py:,.0f} | {shown} | {ratio} | {compile_ms:.1f} "
              f"| {first_ms:.1f} |", flush=True)
    if native_rates:
        print(f"\nnative: {len(native_rates)} games, median {statistics.median(native_rates):,.0f}"
              f" steps/s, slowest {min(native_rates):,.0f}")
    return 0


def child_cpu_ms(argv: list[str]) -> float:
    """CPU time (user + system) of one run of ``argv``, in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1000 * ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))


def startup(args: argparse.Namespace) -> int:
    cardz = [sys.executable, "-m", "cardz_core.cli.main"]
    with tempfile.TemporaryDirectory() as tmp:
        board = Path(tmp) / "board.json"
        state = open_engine(RULESET, "auto").deal(1)
        board.write_text(json.dumps(open_engine(RULESET, "python").board_document(state)))
        runs = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "cardz --help": cardz + ["--help"],
            "cardz moves": cardz + ["moves", str(RULESET), "--board", str(board)],
        }
        for name, argv in runs.items():
            best = min(child_cpu_ms(argv) for _ in range(5))
            print(f"  {name:16} {best:7.0f} ms CPU")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--max-moves", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the best counts")
    parser.add_argument("--profile", action="store_true", help="profile one side with cProfile")
    parser.add_argument("--native", action="store_true", help="--profile the native side")
    parser.add_argument("--all", action="store_true", help="a table over every bundled game")
    parser.add_argument("--budget", type=float, default=0.3,
                        help="--all: CPU seconds of play per game and engine")
    parser.add_argument("--startup", action="store_true", help="the cardz command's start time")
    args = parser.parse_args(argv)
    if args.profile:
        return profile(args)
    if args.all:
        return every_game(args)
    if args.startup:
        return startup(args)
    return klondike(args)


if __name__ == "__main__":
    sys.exit(main())
