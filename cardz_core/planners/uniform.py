"""``random``: a legal move chosen uniformly. A baseline, and a test of legality."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardz_core.engine.moves import Move
from cardz_core.view import View

if TYPE_CHECKING:
    from cardz_core.engine.game import Game


class RandomPlanner:
    name = "random"

    def __init__(self, game: Game, **_options: Any) -> None:
        pass

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None:
        moves = game.legal_moves(view)
        return rng.choice(moves) if moves else None
