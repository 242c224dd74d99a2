"""The win, loss and redeal condition kinds: their fields (read by the loader) and, once per game,
their compiled tests (``compile``, owned by the engine side)."""

from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import ConditionKind, Field

CONDITION_KINDS = {
    "allCardsIn": ConditionKind({"depots": Field("pattern", required=True)}),
    "allCardsFaceUp": ConditionKind({}),
    "depotsEmpty": ConditionKind({"depots": Field("pattern", required=True)}),
    "depotsNonEmpty": ConditionKind({"depots": Field("pattern", required=True)}),
    "allOf": ConditionKind({"of": Field("conditions", required=True)}),
    "anyOf": ConditionKind({"of": Field("conditions", required=True)}),
    "expr": ConditionKind({"when": Field("expr", required=True)}),
    "noLegalMoves": ConditionKind({}, uses=frozenset({"loss"}), needs_depot_only=True),
}


@hookimpl
def cardz_conditions(register):
    for name, kind in CONDITION_KINDS.items():
        register(name, kind)
