"""The plan the native search reads: every pruning the analysis decided, as plain tables.

Python decides what the solver may prune (``Analysis``, ``SafeMoves``, the tables of
``GameProblem``); the Rust search (src/solver.rs) only reads the result, as depot and card
indices, so it names no word of the vocabulary and repeats none of the reasoning of
docs/solver.md. ``solver_plan(game, an)`` gives the document, JSON-able; the order and priority
constants are those of ``problem`` and ``planners.solver``, handed over so that both searches
try the same orders.
"""

from __future__ import annotations

from typing import Any

from cardz_core.solver.analysis import Analysis
from cardz_core.solver.problem import FACE_DOWN_ORDERINGS, NOISE, ORDERINGS, GameProblem


def solver_plan(game: Any, an: Analysis, *, share: int, min_states: int) -> dict[str, Any]:
    """The native search's tables for ``game`` as ``an`` analysed it; ``share`` and
    ``min_states`` are the tries' ``PROBE_SHARE`` and ``PROBE_MIN_STATES``."""
    c = an.compiled
    problem = GameProblem(game, an)
    singles = [i for i in range(an.n) if not any(i in cl for cl in an.classes)]
    return {
        "depots": an.n,
        "cards": len(an.cards),
        "stocks": [i for i, d in enumerate(c.draws) if d is not None],
        "key": {
            "singles": singles,
            "classes": [list(cl) for cl in an.classes],
            "sinks": list(an.sinks),
            "code_map": list(an.code_map) if an.code_map is not None else None,
            "cycle": list(an.cycle) if an.cycle is not None else None,
            "recycles": an.key_recycles,
            "redeals": an.key_redeals,
            "moves": an.key_moves,
            "came_from": an.key_came_from,
        },
        "tap": list(an.tap) if an.tap is not None else None,
        "untapped": list(problem.untapped),
        "safe": _safe_plan(an),
        "lazy": an.lazy_stock,
        "streamline": an.lazy_streamline,
        "win": list(problem.win),
        "priority": _priority_plan(an, problem),
        "tries": {
            "orderings": [w.numbers() for w in ORDERINGS],
            "face_down": [w.numbers() for w in FACE_DOWN_ORDERINGS],
            "noise": NOISE,
            "share": share,
            "min_states": min_states,
        },
    }


def _safe_plan(an: Analysis) -> dict[str, Any] | None:
    safe = an.safe
    if safe is None:
        return None
    return {
        "win": sorted(safe.win),
        "needs": [list(n) for n in safe.needs],
        "sources": sorted(safe.sources),
        "pile_unit": sorted(safe.pile_unit),
        "seed_rank": safe.seed_rank,
        "ranks": list(an.ranks),
        "blocked": list(safe.blocked_depots),
        "under": [sorted(u) for u in safe.under] if safe.blocked_depots else [],
    }


def _relations(by_depot: dict[int, frozenset[int]], n: int
               ) -> tuple[list[list[list[int]]], list[list[int]]]:
    """Relations of ``n`` cards given per depot as pairs ``below * n + above``: one table per
    distinct relation (for each card, the cards in the pairs above it) and [depot, table]."""
    tables: list[list[list[int]]] = []
    index: dict[frozenset[int], int] = {}
    of = []
    for depot, pairs in by_depot.items():
        if pairs not in index:
            index[pairs] = len(tables)
            tables.append([[a for a in range(n) if b * n + a in pairs] for b in range(n)])
        of.append([depot, index[pairs]])
    return tables, of


def _priority_plan(an: Analysis, problem: GameProblem) -> dict[str, Any]:
    """The sibling order's tables: the depots each term counts, the building relations and the
    pairs of them that would not move together (each one table per distinct rule: for each
    card, the cards that may lie on it) and, per suit-building foundation, the card it takes
    next above each card."""
    n = problem.n_cards
    tables, fits = _relations(problem.fits, n)
    stuck_tables, stuck = _relations(problem.stuck, n)
    steps = []
    for depot, step in problem.steps.items():
        nexts = [problem.by_card.get((an.ranks[card] + step, an.suits[card]), -1) for card in range(n)]
        steps.append([depot, nexts])
    seed = an.safe.seed_rank if an.safe is not None else None
    return {
        "to_empty": list(problem.to_empty),
        "others": list(problem.others),
        "open": list(problem.open),
        "tables": tables,
        "fits": fits,
        "stuck_tables": stuck_tables,
        "stuck": stuck,
        "steps": steps,
        "seed_cards": [card for card in range(n) if an.ranks[card] == seed] if seed is not None else [],
    }
