"""The pluggy hookspecs: the whole contract a plugin sees.

Every hook hands the plugin a ``register(name, implementation)`` callable. Hooks are called once
per registry build, never per move: the registry copies what they register into plain dicts that
``compile`` turns into tables and closures. Each hook's ``register`` takes one kind of
implementation (its type below); the registry refuses anything else, naming the plugin.

What each kind of implementation is:

- depot types: ``cardz_core.kinds.DepotType``
- deal step kinds: ``cardz_core.kinds.StepKind`` (field declarations plus a compile function)
- expression functions: ``cardz_core.expr.Function`` (signature overloads plus implementations)
- win / loss / redeal condition kinds: ``cardz_core.kinds.ConditionKind``
- card aids: ``cardz_core.kinds.Aid``
- planners: ``PlannerFactory`` (a callable ``(game, **options) -> Planner``)
- deck models: ``cardz_core.view.DeckModel`` (answers what a reveal may produce)

A plugin annotates its hooks with these, e.g.
``def cardz_depot_types(register: RegisterDepotType) -> None``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

import pluggy

if TYPE_CHECKING:
    from cardz_core.signature import Function
    from cardz_core.kinds import Aid, ConditionKind, DepotType, StepKind
    from cardz_core.kinds import DeckModelLike, PlannerLike

PROJECT = "cardz"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)

PlannerFactory = Callable[..., "PlannerLike"]  # (game, **options) -> Planner

RegisterDepotType = Callable[[str, "DepotType"], None]
RegisterStepKind = Callable[[str, "StepKind"], None]
RegisterFunction = Callable[[str, "Function"], None]
RegisterConditionKind = Callable[[str, "ConditionKind"], None]
RegisterAid = Callable[[str, "Aid"], None]
RegisterPlanner = Callable[[str, PlannerFactory], None]
RegisterDeckModel = Callable[[str, "DeckModelLike"], None]


@hookspec
def cardz_depot_types(register: RegisterDepotType) -> None:
    """Register depot types: ``register("Tableau", DepotType(...))``."""


@hookspec
def cardz_deal_steps(register: RegisterStepKind) -> None:
    """Register deal step kinds: ``register("dealGroup", StepKind(...))``."""


@hookspec
def cardz_functions(register: RegisterFunction) -> None:
    """Register expression functions: ``register("count", Function(...))``."""


@hookspec
def cardz_conditions(register: RegisterConditionKind) -> None:
    """Register win, loss and redeal condition kinds: ``register("allCardsIn", ConditionKind(...))``."""


@hookspec
def cardz_aids(register: RegisterAid) -> None:
    """Register card aids: ``register("pairSum", Aid(...))``."""


@hookspec
def cardz_planners(register: RegisterPlanner) -> None:
    """Register planners by name: ``register("usual", factory)``."""


@hookspec
def cardz_deck_models(register: RegisterDeckModel) -> None:
    """Register deck models (how unseen cards are drawn): ``register("counts", DeckModel(...))``."""
