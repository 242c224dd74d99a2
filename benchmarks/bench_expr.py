"""Rule-expression throughput: evaluations per second of compiled accept rules, and of the
expression-heavy bundled games' rules in the Python engine and natively.

    python3 benchmarks/bench_expr.py [--seconds 0.5] [--repeat 3]

Each rule below is compiled once (parse, type check, closures) for the accept context of one
depot, then evaluated over and over on a fixed set of drops (card, pile, target, source). Every
rule runs ``--repeat`` times for about ``--seconds`` each; the best run counts. Prints
evaluations per second for each rule and their geometric mean, plus the compile time.

Then, for Accordion, Gaps, Giza and Monte Carlo: every expression of the game on positions of
seeded random play, each with the bindings its context gives (an accept rule once per source
depot's top card, the others with their own depot), evaluated by the Python engine's closures
and by the native interpreter (src/expr.rs, through ``ExprProbe.eval_many``, which loops
inside Rust so that no evaluation crosses the boundary). Prints evaluations per second of each
and the ratio, when the extension is built.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.cards import Card, code  # noqa: E402
from cardz_core.engine.state import State  # noqa: E402
from cardz_core.expr import Env, compile_expr  # noqa: E402
from cardz_core.compiled.serial import encode  # noqa: E402
from cardz_core.engine import Game  # noqa: E402
from cardz_core.native import _as_tuple, extension  # noqa: E402
from cardz_core.native_expr import expr_plan  # noqa: E402
from cardz_core.registry import build_registry  # noqa: E402
from cardz_core.rulesets import open_game  # noqa: E402
from cardz_core.spec.model import DeckCard, Depot, GameSpec, Pack  # noqa: E402

RULES = {
    "climb to ten": "empty(depot) || card.value > top.value || card.value + top.value == 10",
    "under twenty-one": "sum(depot) + card.value <= 21",
    "pyramid pair": "card.value + top.value == 13 && all(c in coveredBy(depot), c != source && empty(c))",
    "klondike-like": "empty(depot) && card.rank == King || card.rank == top.rank - 1 && card.color != top.color",
    "round the corner": "(top.value - card.value) % 13 == 1 && card.suit == top.suit",
    "let and count": "let t = top(depot); count(pile) <= 1 + count(cell, empty(it)) && t.faceUp",
}


def board() -> tuple[GameSpec, State, list[tuple[int, int, int]]]:
    """Seven tableau columns, four cells, a waste; columns hold a few cards each."""
    depots = [Depot("waste", "Waste", None, 0, col=0.0, row=0.0)]
    depots += [Depot(f"cell-{k}", "Cell", "cell", k, col=float(k), row=0.0) for k in range(1, 5)]
    depots += [Depot(f"column-{k}", "Tableau", "column", k, col=float(k - 1), row=1.0,
                     uncovered_by=(f"column-{k % 7 + 1}",)) for k in range(1, 8)]
    cards = tuple(DeckCard(Card(r, s), 0, 0, 1) for s in range(4) for r in range(1, 14))
    spec = GameSpec("bench", tuple(depots), (Pack(),), cards,
                    groups={"cell": tuple(f"cell-{k}" for k in range(1, 5)),
                            "column": tuple(f"column-{k}" for k in range(1, 8))})
    piles: list[tuple[int, ...]] = [() for _ in depots]
    cid = 0
    for k in range(7):
        piles[5 + k] = tuple(code(cid + i, i >= k // 2) for i in range(k + 1))
        cid += k + 1
    piles[0] = tuple(code(cid + i, True) for i in range(5))
    state = State(tuple(piles), (-1,) * len(depots), (0,) * len(depots))
    drops = [(src, 1, dst) for src in [0] + list(range(5, 12)) for dst in range(5, 12) if src != dst]
    return spec, state, drops


def run(seconds: float, repeat: int) -> None:
    registry = build_registry(entry_points=False)
    spec, state, drops = board()
    envs = []
    for src, n, dst in drops:
        pile = state.piles[src][-n:]
        target = state.piles[dst]
        envs.append(Env(state, card=pile[0], pile=pile, depot=dst, source=src,
                        top=target[-1] if target else None))
    rates = []
    for name, text in RULES.items():
        t0 = time.process_time()
        fn = compile_expr(text, "accept", spec, registry)
        compile_ms = (time.process_time() - t0) * 1000
        best = 0.0
        for _ in range(repeat):
            count, start = 0, time.process_time()
            while time.process_time() - start < seconds:
                for e in envs:
                    fn(e)
                count += len(envs)
            best = max(best, count / (time.process_time() - start))
        rates.append(best)
        print(f"{name:18} {best:12,.0f} evaluations/s   (compiled in {compile_ms:.2f} ms)")
    mean = math.exp(sum(math.log(r) for r in rates) / len(rates))
    print(f"{'geometric mean':18} {mean:12,.0f} evaluations/s")


GAMES = ("accordion", "gaps", "giza", "monte_carlo")
Case = tuple[int, int | None, int | None, list[int], int, int]  # id, card, top, pile, depot, source


def game_positions(game: Game, n: int = 6, steps: int = 25) -> list[State]:
    """The positions ``steps`` random moves into ``n`` seeded deals (or where each ends)."""
    out = []
    for seed in range(n):
        state, rng = game.deal(seed), random.Random(seed)
        for _ in range(steps):
            moves = game.legal_moves(state)
            if not moves:
                break
            state = game.apply(state, rng.choice(moves))
        out.append(state)
    return out


def cases(game: Game, state: State, ids: list[int]) -> list[Case]:
    """Each expression with the bindings its context gives on ``state``."""
    out: list[Case] = []
    for id_, ref in zip(ids, game.compiled.expressions()):
        me = ref.self_depot
        if ref.context != "accept":
            out.append((id_, None, None, [], me, -1))
            continue
        target = state.piles[me]
        top = target[-1] if target else None
        for src, cards in enumerate(state.piles):
            if cards and src != me:
                out.append((id_, cards[-1], top, [cards[-1]], me, src))
    return out


def python_rate(fns: list[Any], envs: list[tuple[int, Env]], seconds: float) -> float:
    count, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        for i, env in envs:
            fns[i](env)
        count += len(envs)
    return count / (time.process_time() - start)


def native_rate(probe: Any, state: Any, batch: list[Case], seconds: float) -> float:
    rounds, elapsed = 1, 0.0
    while elapsed < seconds:
        rounds *= 2
        start = time.process_time()
        probe.eval_many(state, batch, rounds)
        elapsed = time.process_time() - start
    return rounds * len(batch) / elapsed


def run_games(seconds: float, repeat: int) -> None:
    native = extension()
    if native is None:
        print("(the native extension is not built: no native figures)")
    print(f"{'game':14} {'expressions':>11} {'Python':>14} {'native':>14} {'ratio':>7}")
    for name in GAMES:
        game = open_game(name)
        refs = list(game.compiled.expressions())
        fns = [game.expr(ref) for ref in refs]
        probe = None if native is None else native.ExprProbe(json.dumps(expr_plan(game)))
        ids = [probe.add(json.dumps(encode(ref))) if probe else i for i, ref in enumerate(refs)]
        py_total = rs_total = 0.0
        states = game_positions(game)
        for state in states:
            batch = cases(game, state, ids)
            envs = [(i, Env(state, card=c, top=t, pile=tuple(p), depot=d, source=s))
                    for i, c, t, p, d, s in batch]
            share = seconds / len(states)
            py_total += max(python_rate(fns, envs, share) for _ in range(repeat))
            if probe is not None:
                st = _as_tuple(state)
                rs_total += max(native_rate(probe, st, batch, share) for _ in range(repeat))
        py, rs = py_total / len(states), rs_total / len(states)
        ratio = f"{rs / py:6.0f}x" if probe is not None else "   -"
        print(f"{name:14} {len(refs):11} {py:12,.0f}/s {rs:12,.0f}/s {ratio}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="time per run of one rule")
    parser.add_argument("--repeat", type=int, default=3, help="runs per rule; the best counts")
    args = parser.parse_args()
    run(args.seconds, args.repeat)
    print()
    run_games(args.seconds, args.repeat)


if __name__ == "__main__":
    main()
