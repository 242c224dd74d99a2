"""The win, loss and redeal condition kinds: their fields (read by the loader) and, once per game,
their compiled tests (``compile``, owned by the engine side)."""

from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import ConditionKind, Field
from cardz_vocabulary import condition_impl as impl

CONDITION_KINDS = {
    "allCardsIn": ConditionKind({"depots": Field("pattern", required=True)},
                                compile=impl.all_cards_in, empties=impl.all_cards_in_empties,
                                native="empty"),
    "allCardsFaceUp": ConditionKind({}, compile=impl.all_cards_face_up, reads=frozenset({"faces"}),
                                    native="all_face_up"),
    "depotsEmpty": ConditionKind({"depots": Field("pattern", required=True)},
                                 compile=impl.depots_empty, empties=impl.depots_empty_empties,
                                 native="empty"),
    "depotsNonEmpty": ConditionKind({"depots": Field("pattern", required=True)},
                                    compile=impl.depots_non_empty, native="non_empty"),
    "allOf": ConditionKind({"of": Field("conditions", required=True)}, compile=impl.all_of,
                           reads=frozenset(), nested=True, native="all_of"),
    "anyOf": ConditionKind({"of": Field("conditions", required=True)}, compile=impl.any_of,
                           reads=frozenset(), nested=True, native="any_of"),
    "expr": ConditionKind({"when": Field("expr", required=True)}, compile=impl.expr,
                          reads=frozenset({"expressions"}), native="expr"),
    "noLegalMoves": ConditionKind({}, compile=impl.no_legal_moves, uses=frozenset({"loss"}),
                                  needs_depot_only=True, stalemate=True,
                                  reads=frozenset({"piles", "faces", "counters"}),
                                  native="stalemate"),
}


@hookimpl
def cardz_conditions(register):
    for name, kind in CONDITION_KINDS.items():
        register(name, kind)
