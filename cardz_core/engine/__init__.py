"""The play engine: ``compile(spec, registry) -> Game``; see docs/design.md ("Engine")."""

from cardz_core.engine.game import Game, compile
from cardz_core.engine.moves import IllegalMove, Move
from cardz_core.engine.state import LOST, PLAYING, WON, State

__all__ = ["compile", "Game", "Move", "IllegalMove", "State", "PLAYING", "WON", "LOST"]
