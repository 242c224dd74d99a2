"""The play engine: ``compile(spec, registry, engine=None) -> Game`` (the engine choice is
``cardz_core.engines``); see docs/design.md ("Engine")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardz_core.engine.moves import IllegalMove, Move
from cardz_core.engine.state import LOST, PLAYING, WON, State

if TYPE_CHECKING:
    from cardz_core.engine.game import Game
    from cardz_core.registry import Registry
    from cardz_core.spec.model import GameSpec


def __getattr__(name: str) -> Any:
    """``Game``, imported when first asked for: a module that reads only positions or moves
    (``engine.state``, ``engine.moves``) does not import the whole engine (start time,
    docs/benchmarks.md)."""
    if name == "Game":
        from cardz_core.engine.game import Game

        return Game
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["compile", "Game", "Move", "IllegalMove", "State", "PLAYING", "WON", "LOST"]


def compile(spec: GameSpec, registry: Registry | None = None,  # noqa: A001
            engine: str | None = None) -> Game:
    """``cardz_core.engines.compile``: imported when first called, since the native engine it
    may choose is itself built on this package's ``Game``."""
    from cardz_core.engines import compile as compile_for

    return compile_for(spec, registry, engine)
