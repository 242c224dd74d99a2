"""The distribution-aware deck plugin: unseen cards are counts, a reveal is a weighted draw.

It registers the ``counts`` deck model (``cardz_deck.counts``) and the builtin planners
(``cardz_core.planners``), which play on the views this model makes chance of."""

from cardz_core.hookspecs import RegisterDeckModel, RegisterPlanner, hookimpl
from cardz_deck.counts import CountsDeck


@hookimpl
def cardz_deck_models(register: RegisterDeckModel) -> None:
    register("counts", CountsDeck())


@hookimpl
def cardz_planners(register: RegisterPlanner) -> None:
    from cardz_core.planners import BUILTIN_PLANNERS

    for name, factory in BUILTIN_PLANNERS.items():
        register(name, factory)
