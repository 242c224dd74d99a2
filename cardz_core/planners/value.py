"""``value``: the game's ``planner.value`` one move ahead, as the reference's planner does.

Each legal move is tried on the view; a move that turns up unknown cards is valued by the
expectation over its outcomes (exact for one card, sampled for more). A move that wins comes
first, one that loses last; otherwise the highest value wins. When no move raises the value above
the board's own, the planner falls back on ``usual`` (which, for one, taps the stock). A game
without ``planner.value`` is valued by the default measures of ``expectimax``'s leaves.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from cardz_core.engine.state import State
from cardz_core.planners.base import children, terminal_value
from cardz_core.planners.usual import UsualPlanner

CHANCE_SAMPLES = 8


def value_function(game: Any) -> Callable[[State], float]:
    """The game's ``planner.value`` compiled once, read on a view; or the default measures."""
    expr = game.spec.planner.value
    if expr is None:
        from cardz_core.planners.expectimax import default_value

        return lambda v: default_value(game, v)
    from cardz_core.expr import Env, compile_expr

    fn = compile_expr(expr, "planner", game.spec, game.registry)
    env = Env()

    def value(v: State) -> float:
        env.state = v
        return float(fn(env))

    return value


class ValuePlanner:
    name = "value"

    def __init__(self, game: Any, samples: int = CHANCE_SAMPLES, **_options: Any) -> None:
        self.value = value_function(game)
        self.samples = samples
        self.usual = UsualPlanner(game)

    def choose(self, game: Any, view: State, rng: random.Random) -> Any:
        self.usual.visited.note(view)
        here = self.value(view)
        best, best_move = None, None
        for move in game.legal_moves(view):
            total = 0.0
            for weight, child in children(game, view, move, rng, self.samples):
                end = terminal_value(child.status)
                total += weight * (end if end is not None else self.value(child))
            if best is None or total > best:
                best, best_move = total, move
        if best_move is None:
            return None
        if best <= here:
            fallback = self.usual.choose(game, view, rng)
            return fallback if fallback is not None else best_move
        return best_move
