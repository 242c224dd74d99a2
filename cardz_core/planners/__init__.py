"""Planners: Cardz's own players. Each is registered by name through the ``cardz_planners`` hook
as a factory ``(game, **options) -> Planner`` (``cardz_core.planners.base``); the builtins are
registered by ``cardz_deck``, third parties add theirs the same way."""

from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING, Any, Callable, Mapping

from cardz_core.planners.base import Budget, Planner, planner_allowed
from cardz_core.problems import CardzError

if TYPE_CHECKING:
    from cardz_core.engine.game import Game


def _on_demand(module: str, cls: str) -> Callable[..., Planner]:
    """The factory of planner class ``cls`` of ``cardz_core.planners.<module>``, imported when
    first used: every registry lists the planners, and a command that plays none (``cardz
    moves``) should not import the search behind them."""
    def make(game: Game, **options: Any) -> Planner:
        planner: Planner = getattr(importlib.import_module(f"cardz_core.planners.{module}"), cls)(
            game, **options)
        return planner
    make.__name__ = make.__qualname__ = cls
    _ON_DEMAND[make] = (module, cls)
    return make


_ON_DEMAND: dict[Callable[..., Planner], tuple[str, str]] = {}  # factory: (module, class)


BUILTIN_PLANNERS: dict[str, Callable[..., Planner]] = {
    "random": _on_demand("uniform", "RandomPlanner"),
    "usual": _on_demand("usual", "UsualPlanner"),
    "value": _on_demand("value", "ValuePlanner"),
    "expectimax": _on_demand("expectimax", "ExpectimaxPlanner"),
    "sampling": _on_demand("sampling", "SamplingPlanner"),
    "bandit": _on_demand("bandit", "BanditPlanner"),
    "klondike": _on_demand("klondike", "KlondikePlanner"),
}
UNGATED = frozenset({"random"})  # knows nothing of the game, so `planner: false` does not stop it
DEFAULT_PLANNER = "usual"


def make_planner(game: Game, name: str = DEFAULT_PLANNER, *, force: bool = False,
                 **options: Any) -> Planner:
    """The planner registered as ``name`` (case-insensitive), made for ``game``. Refuses with a
    CardzError when the game keeps Cardz's own player out (``planner: false``, or expressions,
    triggers or actions without ``planner: true``) unless ``force``."""
    factory = game.registry.lookup("planners", name)
    if factory is None:
        from cardz_core.nearest import did_you_mean  # a mistyped name only

        known = sorted(game.registry.planners)
        raise CardzError(f"no planner named {name!r}{did_you_mean(name, known)} "
                         f"(registered: {', '.join(known)})")
    canonical = game.registry.canonical("planners", name)
    if not force and canonical not in UNGATED and not planner_allowed(game):
        why = ("it sets planner: false" if game.planner_enabled is False else
               "it is written with expressions, triggers or actions and does not set planner: true")
        raise CardzError(f"{game.spec.name!r} offers no planner: {why}", "/planner")
    return factory(game, **options)


def option_names(factory: Callable[..., Planner]) -> frozenset[str] | None:
    """The options ``factory`` takes by name (its parameters after the game), or None when it
    reads any it is given (a ``**options``). A ``**_options`` only lets pass unread the options
    every planner of a run is given, such as ``nodes``."""
    target: Callable[..., Any] = factory
    if factory in _ON_DEMAND:
        module, cls = _ON_DEMAND[factory]
        target = getattr(importlib.import_module(f"cardz_core.planners.{module}"), cls)
    try:
        params = list(inspect.signature(target).parameters.values())[1:]
    except (TypeError, ValueError):  # a factory Python cannot read: take its word
        return None
    if any(p.kind is p.VAR_KEYWORD and not p.name.startswith("_") for p in params):
        return None
    return frozenset(p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))


def check_option_names(game: Game, name: str, options: Mapping[str, Any]) -> None:
    """Refuse with a CardzError an option planner ``name`` does not take (it would pass unread)."""
    factory = game.registry.lookup("planners", name)
    takes = None if factory is None else option_names(factory)
    if takes is None:
        return  # an unknown name is make_planner's to refuse
    for key in options:
        if key not in takes:
            listed = ", ".join(sorted(takes)) or "none"
            raise CardzError(f"planner {game.registry.canonical('planners', name)!r} takes no "
                             f"option {key!r} (it takes: {listed})")


__all__ = ["BUILTIN_PLANNERS", "Budget", "Planner", "check_option_names", "make_planner",
           "option_names", "planner_allowed", "DEFAULT_PLANNER"]
