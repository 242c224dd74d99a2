"""Rule-expression throughput: evaluations per second of compiled accept rules.

    python3 benchmarks/bench_expr.py [--seconds 0.5] [--repeat 3]

Each rule below is compiled once (parse, type check, closures) for the accept context of one
depot, then evaluated over and over on a fixed set of drops (card, pile, target, source). Every
rule runs ``--repeat`` times for about ``--seconds`` each; the best run counts. Prints
evaluations per second for each rule and their geometric mean, plus the compile time.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardz_core.cards import Card, code  # noqa: E402
from cardz_core.engine.state import State  # noqa: E402
from cardz_core.expr import Env, compile_expr  # noqa: E402
from cardz_core.registry import build_registry  # noqa: E402
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
        t0 = time.perf_counter()
        fn = compile_expr(text, "accept", spec, registry)
        compile_ms = (time.perf_counter() - t0) * 1000
        best = 0.0
        for _ in range(repeat):
            count, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds:
                for e in envs:
                    fn(e)
                count += len(envs)
            best = max(best, count / (time.perf_counter() - start))
        rates.append(best)
        print(f"{name:18} {best:12,.0f} evaluations/s   (compiled in {compile_ms:.2f} ms)")
    mean = math.exp(sum(math.log(r) for r in rates) / len(rates))
    print(f"{'geometric mean':18} {mean:12,.0f} evaluations/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="time per run of one rule")
    parser.add_argument("--repeat", type=int, default=3, help="runs per rule; the best counts")
    args = parser.parse_args()
    run(args.seconds, args.repeat)


if __name__ == "__main__":
    main()
