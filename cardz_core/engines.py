"""The engine choice: ``compile(spec, registry=None, engine=None) -> Game``, the ``compile`` of
``cardz_core.engine``. ``engine`` is ``python``, ``native`` or ``auto``; by default the
``CARDZ_ENGINE`` environment variable, else ``python``. ``python`` plays the game in Python
(``cardz_core.engine.game``); ``native`` in the native engine (``cardz_core.native``), refusing
with CardzError a game it can't play, saying why; ``auto`` natively when it can."""

from __future__ import annotations

import os

from cardz_core.engine import game as python_engine
from cardz_core.native import NativeEngineGame, supports
from cardz_core.problems import CardzError
from cardz_core.registry import Registry, default_registry
from cardz_core.spec.model import GameSpec

ENGINES = ("auto", "native", "python")


def compile(spec: GameSpec, registry: Registry | None = None,  # noqa: A001
            engine: str | None = None) -> python_engine.Game:
    """Compile a loaded game once, for the engine chosen; the ``Game`` then deals and plays it."""
    choice = (engine or os.environ.get("CARDZ_ENGINE") or "python").lower()
    if choice not in ENGINES:
        raise CardzError(f"no engine {choice!r}: the engines are {', '.join(ENGINES)}")
    reg = registry or default_registry()
    game = python_engine.compile(spec, reg)
    if choice == "python":
        return game
    why = supports(game)
    if why is None:
        return NativeEngineGame(game.compiled, reg, spec)
    if choice == "native":
        raise CardzError(f"the native engine can't play {game.compiled.name}: {why}")
    return game
