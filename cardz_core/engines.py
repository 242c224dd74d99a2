"""The engine choice: ``compile(spec, registry=None, engine=None) -> Game``, the ``compile`` of
``cardz_core.engine``. ``engine`` is ``python``, ``native`` or ``auto``; by default the
``CARDZ_ENGINE`` environment variable, else ``auto``. ``python`` plays the game in Python
(``cardz_core.engine.game``); ``native`` in the native engine (``cardz_core.native``), refusing
with CardzError a game it can't play, saying why; ``auto`` natively when it can.
``engine_of(game)`` says which engine a compiled game runs on and, for Python, why; for a
native game whose rules call plugin functions back in Python, which. A compiled game pickles
as its spec and engine (``reopen`` compiles it again where it is loaded)."""

from __future__ import annotations

import copyreg
import os
from typing import Any, Callable

from cardz_core.engine import game as python_engine
from cardz_core.native import NativeEngineGame, NativeGame, calls_back, supports
from cardz_core.problems import CardzError
from cardz_core.registry import Registry, default_registry
from cardz_core.spec.model import GameSpec

ENGINES = ("auto", "native", "python")


def chosen(engine: str | None = None) -> str:
    """The engine asked for: ``engine``, else ``CARDZ_ENGINE``, else ``auto``; checked."""
    choice = (engine or os.environ.get("CARDZ_ENGINE") or "auto").lower()
    if choice not in ENGINES:
        raise CardzError(f"no engine {choice!r}: the engines are {', '.join(ENGINES)}")
    return choice


def compile(spec: GameSpec, registry: Registry | None = None,  # noqa: A001
            engine: str | None = None) -> python_engine.Game:
    """Compile a loaded game once, for the engine chosen; the ``Game`` then deals and plays it."""
    choice = chosen(engine)
    reg = registry or default_registry()
    game = python_engine.compile(spec, reg)
    if choice == "python":
        return game
    try:
        native = NativeGame(game)
    except CardzError:
        if choice == "native":
            raise
        return game
    return NativeEngineGame.adopt(native)


def reopen(spec: GameSpec, engine: str) -> python_engine.Game:
    """A pickled ``Game`` loaded: ``spec`` compiled again for the same engine, with this
    process's builtin and installed plugins (a game a custom registry compiled needs those
    plugins installed here too, else the compile names what is missing)."""
    return compile(spec, default_registry(), engine)


def _reduce(game: python_engine.Game) -> tuple[Callable[..., Any], tuple[GameSpec, str]]:
    """A game pickles as its spec (which keeps its source text) and its engine: a compiled
    game's tables and rules, and the native engine's handle, do not cross processes. Every
    public way to a ``Game`` (``open_game``, ``cardz_core.engine.compile``) passes through this
    module's ``compile``, so registering here covers them all."""
    return reopen, (game.spec, "native" if isinstance(game, NativeEngineGame) else "python")


copyreg.pickle(python_engine.Game, _reduce)
copyreg.pickle(NativeEngineGame, _reduce)


def engine_of(game: python_engine.Game) -> tuple[str, str | None]:
    """(``native`` or ``python``, why ``game`` is played in Python, or for a native game the
    Python call-backs it makes, else None)."""
    if isinstance(game, NativeEngineGame):
        names = calls_back(game)
        if names:
            return "native", f"it calls back Python for {', '.join(names)} (no native primitive)"
        return "native", None
    if chosen() == "python":
        return "python", "CARDZ_ENGINE=python asks for it"
    return "python", supports(game) or "it was compiled for the Python engine"
