"""The pluggy hookspecs: the whole contract a plugin sees.

Every hook hands the plugin a ``register(name, implementation)`` callable. Hooks are called once
per registry build, never per move: the registry copies what they register into plain dicts that
``compile`` turns into tables and closures.

What each kind of implementation is:

- depot types: ``cardz_core.kinds.DepotType``
- deal step kinds: ``cardz_core.kinds.StepKind`` (field declarations plus a compile function)
- expression functions: ``cardz_core.expr.Function`` (signature overloads plus implementations)
- win / loss / redeal condition kinds: ``cardz_core.kinds.ConditionKind``
- card aids: ``cardz_core.kinds.Aid``
- planners: ``PlannerFactory`` (a callable ``(game, **options) -> Planner``)
- deck models: ``DeckModel`` (answers what a reveal may produce)
"""

from __future__ import annotations

from typing import Callable

import pluggy

PROJECT = "cardz"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

Register = Callable[[str, object], None]


@hookspec
def cardz_depot_types(register: Register) -> None:
    """Register depot types: ``register("Tableau", DepotType(...))``."""


@hookspec
def cardz_deal_steps(register: Register) -> None:
    """Register deal step kinds: ``register("dealGroup", StepKind(...))``."""


@hookspec
def cardz_functions(register: Register) -> None:
    """Register expression functions: ``register("count", Function(...))``."""


@hookspec
def cardz_conditions(register: Register) -> None:
    """Register win, loss and redeal condition kinds: ``register("allCardsIn", ConditionKind(...))``."""


@hookspec
def cardz_aids(register: Register) -> None:
    """Register card aids: ``register("pairSum", Aid(...))``."""


@hookspec
def cardz_planners(register: Register) -> None:
    """Register planners by name: ``register("usual", factory)``."""


@hookspec
def cardz_deck_models(register: Register) -> None:
    """Register deck models (how unseen cards are drawn): ``register("counts", DeckModel(...))``."""
