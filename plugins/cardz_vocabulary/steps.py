"""The deal step kinds of the format: their fields (read by the loader) and, once per game,
their compiled executors (``compile``, owned by the engine side)."""

from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import Field, StepKind
from cardz_vocabulary import step_impl

STEP_KINDS = {
    "dealGroup": StepKind({
        "to": Field("depots", required=True),
        "faceDown": Field("int", default=0, minimum=0),
        "faceUp": Field("int", default=1, minimum=0),
        "roundRobin": Field("bool", default=False),
        "from": Field("depot"),  # None: the first stock
        "when": Field("expr"),
    }, compile=step_impl.deal_group, takes_from=("from",), lands_on=("to",),
        stock_default=("from",), reads=frozenset({"expressions"}), turns_cards=True,
        native="deal"),
    "move": StepKind({
        "from": Field("depot", required=True),
        "to": Field("depot", required=True),
        "count": Field("numexpr", default=1, minimum=0),
        "under": Field("bool", default=False),
    }, compile=step_impl.move, takes_from=("from",), lands_on=("to",), reads=frozenset({"expressions"}),
        native="move_top"),
    "flipTop": StepKind({"depot": Field("depot", required=True)}, compile=step_impl.flip_top,
                        reads=frozenset({"expressions"}), moves_cards=False, turns_cards=True,
                        native="turn_top_up"),
    "place": StepKind({
        "rank": Field("rank"),
        "suit": Field("suit"),
        "joker": Field("bool", default=False),
        "to": Field("depot", required=True),
    }, compile=step_impl.place, needs=(("rank", "suit"), ("joker",)), lands_on=("to",),
        from_stock=True, reads=frozenset({"expressions"}), turns_cards=True,
        native="place_from_stock"),
    "gather": StepKind({
        "from": Field("depots", required=True),
        "to": Field("depot", required=True),
        "when": Field("expr"),
    }, compile=step_impl.gather, takes_from=("from",), lands_on=("to",), reads=frozenset({"expressions"}),
        native="turn_over_onto"),
    "shuffle": StepKind({"depot": Field("depot", required=True)}, compile=step_impl.shuffle,
                        reads=frozenset({"rng", "expressions"}), moves_cards=False,
                        native="shuffle_pile"),
    "compact": StepKind({
        "group": Field("group", required=True),
        "from": Field("depot"),
    }, compile=step_impl.compact, triggers_only=True, takes_from=("group", "from"),
        lands_on=("group",), reads=frozenset({"expressions"}), turns_cards=True,
        native="close_gaps"),
}


@hookimpl
def cardz_deal_steps(register):
    for name, kind in STEP_KINDS.items():
        register(name, kind)
