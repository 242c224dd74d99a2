"""Engine throughput: random play on Klondike draw 3, beside OpenSpiel's `solitaire` when present.

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
    ours = theirs = 0.0
    for _ in range(args.repeat):
        steps, seconds = run_ours(game, args.games, args.max_moves, args.seed)
        ours = max(ours, steps / seconds)
        if pyspiel is not None:
            their_steps, their_seconds = run_openspiel(args.games, args.max_moves, args.seed)
            theirs = max(theirs, their_steps / their_seconds)
    print(f"cardz ({source}): {args.games} games, {steps} steps; best of {args.repeat}: "
          f"{ours:,.0f} steps/s")
    if pyspiel is None:
        print("open_spiel is not installed (pip install '.[bench]'): no comparison")
        return 0
    print(f"OpenSpiel solitaire: {args.games} games, {their_steps} steps; best of {args.repeat}: "
          f"{theirs:,.0f} steps/s")
    print(f"ratio ours/theirs: {ours / theirs:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
