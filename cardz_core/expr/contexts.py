"""Where an expression appears decides the names it can see and the kind it must give."""

from __future__ import annotations

import attrs

# Names a context may provide, with their kinds.
CONTEXT_NAMES = {
    "card": "card", "pile": "cards", "depot": "depot", "source": "depot", "top": "card",
    "moves": "number", "undos": "number", "recycles": "number", "redeals": "number",
}
FACTS = frozenset({"moves", "undos", "recycles", "redeals"})
ANY = "any"


@attrs.frozen
class Context:
    where: str  # for messages: "an acceptRule's when"
    names: frozenset[str]
    result: str  # a kind, or ANY (cardz eval)
    # with ``self_depot`` given, `depot` is that depot, fixed at compile time: the depot an accept
    # rule belongs to, or the one a trigger or action is on (not so for a step's `when`, where
    # `depot` is each depot the step tests)
    self_is_depot: bool = False


CONTEXTS: dict[str, Context] = {
    "accept": Context("an acceptRule's when", frozenset({"card", "pile", "depot", "source", "top"}),
                      "bool", True),
    "draw": Context("a draw's when", frozenset(), "bool"),
    "step": Context("a deal step's when", frozenset({"depot"}), "bool"),
    "condition": Context("a win, loss or redeal condition", frozenset(), "bool"),
    "scoring": Context("a scoring value", FACTS, "number"),
    "planner": Context("a planner value", frozenset(), "number"),
    "trigger": Context("a trigger's when", frozenset({"depot"}), "bool", True),
    "action": Context("an action's when", frozenset({"depot"}), "bool", True),
    "count": Context("a step's count", frozenset({"depot"}), "number", True),
    "depotField": Context("a step's depot", frozenset({"depot"}), "depot", True),
    "depotsField": Context("a step's depots", frozenset({"depot"}), "depots", True),
    "eval": Context("cardz eval", FACTS, ANY),
    "evalDepot": Context("cardz eval --depot", FACTS | {"depot"}, ANY, True),
}
