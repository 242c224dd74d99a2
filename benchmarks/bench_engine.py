"""Engine throughput: random play on Klondike draw 3, Python and native engines, beside OpenSpiel's
`solitaire` when present.

    python3 benchmarks/bench_engine.py [--games 50] [--max-moves 1000] [--seed 1] [--repeat 3]
                                       [--profile]

Each game: deal, then repeat (list the legal moves, pick one uniformly with a seeded
``random.Random``, apply it) until the game ends, no move is left, or ``--max-moves`` moves.
A *step* is one move applied; dealing and listing moves count in the time. OpenSpiel's game is
run the same way (``legal_actions`` + ``apply_action``; chance outcomes sampled by their
probabilities with the same generator) with its ``depth_limit`` raised to ``--max-moves`` so both
sides stop at the same cap. The two sides run in turn ``--repeat`` times and each keeps its best
run, so a busy machine slows both alike. Prints steps per second for each and the ratio
ours / theirs.
The native engine (``cardz_core.native``, when its extension is built) runs twice: driven step
by step from the same Python loop (``NativeGame.legal_moves`` + ``apply``), and as one batch call
(``NativeGame.playouts``: deals in Python, then every game played inside Rust with its own
generator; the deals count in the time). Every side's ratio to OpenSpiel is printed.
``--profile`` runs our side under cProfile and prints where the time goes.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.engine import compile  # noqa: E402
from cardz_core.engine.state import PLAYING  # noqa: E402
from cardz_core.native import NativeGame, supports  # noqa: E402
from cardz_core.spec import load_game  # noqa: E402

RULESET = ROOT / "rulesets" / "klondike_draw3.cardz"

def our_game():
    return compile(load_game(RULESET, file=str(RULESET))), str(RULESET.relative_to(ROOT))


def run_ours(game, games: int, max_moves: int, seed: int) -> tuple[int, float]:
    rng = random.Random(seed)
    steps = 0
    legal_moves, apply = game.legal_moves, game.apply
    start = time.perf_counter()
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
    return steps, time.perf_counter() - start


def run_native_batch(native, game, games: int, max_moves: int, seed: int) -> tuple[int, float]:
    start = time.perf_counter()
    states = [game.deal(seed * 100_003 + g) for g in range(games)]
    results = native.playouts(states, seed, max_moves)
    return sum(moves for moves, _status in results), time.perf_counter() - start


def run_openspiel(games: int, max_moves: int, seed: int) -> tuple[int, float]:
    import pyspiel

    game = pyspiel.load_game("solitaire", {"depth_limit": max_moves})
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
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
    return steps, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--max-moves", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per side; the best counts")
    parser.add_argument("--profile", action="store_true", help="profile our side with cProfile")
    args = parser.parse_args(argv)

    game, source = our_game()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run_ours(game, args.games, args.max_moves, args.seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        pyspiel = None
    why = supports(game)
    native = NativeGame(game) if why is None else None
    # side -> (best steps/s, steps of a run)
    best: dict[str, tuple[float, int]] = {}

    def keep(side: str, steps: int, seconds: float) -> None:
        rate = steps / seconds
        if rate > best.get(side, (0.0, 0))[0]:
            best[side] = (rate, steps)

    for _ in range(args.repeat):
        keep("python", *run_ours(game, args.games, args.max_moves, args.seed))
        if native is not None:
            keep("native, step by step", *run_ours(NativeDriver(native, game), args.games,
                                                   args.max_moves, args.seed))
            keep("native, batch playouts", *run_native_batch(native, game, args.games,
                                                             args.max_moves, args.seed))
        if pyspiel is not None:
            keep("OpenSpiel solitaire", *run_openspiel(args.games, args.max_moves, args.seed))
    print(f"{source}: {args.games} games, at most {args.max_moves} moves; best of {args.repeat}")
    if native is None:
        print(f"native engine: not run ({why})")
    theirs = best.get("OpenSpiel solitaire", (0.0, 0))[0]
    for side, (rate, steps) in best.items():
        ratio = f"  {rate / theirs:6.2f}x OpenSpiel" if theirs else ""
        print(f"  {side:24} {steps:8} steps {rate:12,.0f} steps/s{ratio}")
    if "native, step by step" in best:
        py = best["python"][0]
        print(f"native / python: step by step {best['native, step by step'][0] / py:.1f}x, "
              f"batch {best['native, batch playouts'][0] / py:.1f}x")
    if pyspiel is None:
        print("open_spiel is not installed (pip install '.[bench]'): no comparison")
    return 0


class NativeDriver:
    """The native engine behind the ``deal`` / ``legal_moves`` / ``apply`` that ``run_ours``
    drives (deals from the Python game)."""

    def __init__(self, native: NativeGame, game) -> None:
        self.deal = game.deal
        self.legal_moves = native.legal_moves
        self.apply = native.apply


if __name__ == "__main__":
    sys.exit(main())
