"""cardz: solitaire card games written as data.

The embedding API::

    import cardz_core

    game = cardz_core.open_game("klondike_draw3")   # a bundled game by name, or a .cardz path
    state = game.deal(seed=1)
    state = game.apply(state, game.legal_moves(state)[0])

``open_game`` reads a file or a bundled game; ``load_game`` reads JSON text or a parsed dict
into a checked ``GameSpec`` and ``compile`` turns that into a ``Game``. The names below are
imported on first use, so that importing the package (as ``cardz --help`` does) stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

import cardz_core.began  # noqa: F401  (first: when this process began importing cardz)

__version__ = "0.1.0"

# public name -> the module that defines it
_EXPORTS = {
    "open_game": "cardz_core.rulesets",
    "bundled": "cardz_core.rulesets",
    "load_game": "cardz_core.spec",
    "load": "cardz_core.spec",
    "GameSpec": "cardz_core.spec",
    "compile": "cardz_core.engine",
    "Game": "cardz_core.engine",
    "State": "cardz_core.engine.state",
    "Status": "cardz_core.engine.state",
    "Move": "cardz_core.engine.moves",
    "IllegalMove": "cardz_core.engine.moves",
    "CardzError": "cardz_core.problems",
    "Problem": "cardz_core.problems",
    "Registry": "cardz_core.registry",
    "build_registry": "cardz_core.registry",
    "default_registry": "cardz_core.registry",
    "winnable_deal": "cardz_core.winnable",
    "WinnableDeal": "cardz_core.winnable",
}

__all__ = sorted(_EXPORTS)

if TYPE_CHECKING:
    from cardz_core.engine import Game, compile
    from cardz_core.engine.moves import IllegalMove, Move
    from cardz_core.engine.state import State, Status
    from cardz_core.problems import CardzError, Problem
    from cardz_core.registry import Registry, build_registry, default_registry
    from cardz_core.rulesets import bundled, open_game
    from cardz_core.spec import GameSpec, load, load_game
    from cardz_core.winnable import WinnableDeal, winnable_deal


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'cardz_core' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
