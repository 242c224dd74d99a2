"""``value``: the game's ``planner.value`` one move ahead, as the reference's planner does.

Each legal move is tried on the view; a move that turns up unknown cards is valued by the
expectation over its outcomes (exact for one card, sampled for more). A move that wins comes
first, one that loses last; otherwise the highest value wins. When no move raises the value above
the board's own, the planner falls back on ``usual`` (which, for one, taps the stock). A game
without ``planner.value`` is valued by the default measures (``measures.default_value``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Callable

from cardz_core.engine.moves import Move
from cardz_core.engine.state import State
from cardz_core.limits import VALUE_MAX_SAMPLES
from cardz_core.planners.base import children
from cardz_core.planners.measures import default_value, terminal_value
from cardz_core.planners.usual import UsualPlanner
from cardz_core.problems import CardzError, is_whole
from cardz_core.view import View

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

CHANCE_SAMPLES = 8


def value_function(game: Game) -> Callable[[State], float]:
    """The game's ``planner.value`` compiled once, read on a view; or the default measures."""
    fn = game.planner_value()
    if fn is None:
        return lambda v: default_value(game, v)
    return fn


class ValuePlanner:
    name = "value"

    def __init__(self, game: Game, samples: int = CHANCE_SAMPLES, **_options: Any) -> None:
        if not is_whole(samples, 1, VALUE_MAX_SAMPLES):  # 0 divided by zero, -1 flipped weights
            raise CardzError(f"the value planner's samples (outcomes drawn to weigh a move) is 1 "
                             f"to {VALUE_MAX_SAMPLES:,}, not {samples!r}")
        self.value = value_function(game)
        self.samples = int(samples)
        self.usual = UsualPlanner(game, solve=0)  # its scores only: the fallback it always had

    def settings(self) -> dict[str, Any]:
        """The options this planner plays with, defaults filled in (a run's record of them)."""
        return {"samples": self.samples}

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None:
        self.usual.visited.note(view)
        here = self.value(view)
        best: float | None = None
        best_move: Move | None = None
        for move in game.legal_moves(view):
            total = 0.0
            for weight, child in children(game, view, move, rng, self.samples):
                end = terminal_value(child.status)
                total += weight * (end if end is not None else self.value(child))
            if best is None or total > best:
                best, best_move = total, move
        if best is None:
            return None
        if best <= here:
            fallback = self.usual.choose(game, view, rng)
            return fallback if fallback is not None else best_move
        return best_move
