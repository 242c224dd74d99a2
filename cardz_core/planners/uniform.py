"""``random``: a legal move chosen uniformly. A baseline, and a test of legality."""

from __future__ import annotations

import random
from typing import Any

from cardz_core.engine.state import State


class RandomPlanner:
    name = "random"

    def __init__(self, game: Any, **_options: Any) -> None:
        pass

    def choose(self, game: Any, view: State, rng: random.Random) -> Any:
        moves = game.legal_moves(view)
        return rng.choice(moves) if moves else None
