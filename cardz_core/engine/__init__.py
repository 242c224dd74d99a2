"""The play engine: ``compile(spec, registry, engine=None) -> Game`` (the engine choice is
``cardz_core.engines``); see docs/design.md ("Engine")."""

from cardz_core.engine.game import Game
from cardz_core.engine.moves import IllegalMove, Move
from cardz_core.engine.state import LOST, PLAYING, WON, State
from cardz_core.engines import compile

__all__ = ["compile", "Game", "Move", "IllegalMove", "State", "PLAYING", "WON", "LOST"]
