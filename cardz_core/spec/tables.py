"""The format's fixed vocabulary as data: enum spellings and the properties of each object.

The loader reads allowed property names from these tables (anything else is an unknown property)
and the JSON Schema generator (``cardz_core.spec.schema``) is built from the same tables, so the
two cannot drift apart. Vocabulary that plugins own (depot types, step kinds, condition kinds,
aids) comes from the registry instead.

A property's *kind* says how it is read:

- ``bool``, ``int``, ``number``, ``string``, ``strings`` (a list of strings, or one string),
- ``enum`` (one of ``Prop.choices``, read case-insensitively, stored canonically),
- ``rank``, ``ranks``, ``suits``, ``expr`` (a rule expression), ``pattern`` (a depot pattern),
  ``depot`` (one depot name), ``names`` (depot names; a repeated depot's name means its copies),
- anything else names a structure the loader reads in code (``accept``, ``eject``, ...).
"""

from __future__ import annotations

import attrs

from cardz_core.kinds import FANS
from cardz_core.limits import MAX_BUILD_STEP, MAX_REPEAT

DIRECTIONS = ("Up", "Down", "Either")
SUIT_RULES = ("Any", "Same", "AlternateColor", "SameColor")
GATES = ("Any", "FaceUp", "TopOnly", "Locked")
UNIT_KINDS = ("Single", "Any", "Run", "Pile")
BARE_UNITS = ("Single", "Any", "Pile")  # a Run needs its build, so it has no bare form
FAN_DIRECTIONS = FANS  # a depot type's default_fan is one of them too
FAN_ANCHORS = ("Base", "Center", "Top")
LAND_FACES = ("Up", "Down")
WILD_DECLARES = ("none", "suit", "free", "transparent")
ACCEPT_WORDS = ("any", "none", "emptyOnly")  # the string forms of acceptRule
COMPOUND_MOVES = ("Free", "Staged")
TOOLS = ("Unset", "Free", "None")
ANCHORS = ("TopCenter", "TopLeft")
BETTER = ("High", "Low")
KEEP = ("Won", "Over")
SCHEMA_VERSION = 1
SELF = "@self"  # a trigger or action step's own depot
RULE_PREFIX = "$"  # "$name" uses a rule from the top-level `rules`


@attrs.frozen
class Prop:
    kind: str
    required: bool = False
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None


def _p(kind: str, **kw: object) -> Prop:
    return Prop(kind, **kw)  # type: ignore[arg-type]


TOP = {
    "name": _p("string", required=True),
    "description": _p("string"),
    "family": _p("string"),
    "aliases": _p("strings"),
    "decks": _p("decks"),
    "depots": _p("depots", required=True),
    "rules": _p("rules"),
    "dealRules": _p("steps"),
    "redealRules": _p("steps"),
    "redealWhen": _p("condition"),
    "maxRedeals": _p("int", minimum=0),
    "winCondition": _p("condition"),
    "lossCondition": _p("condition"),
    "values": _p("values"),
    "scoring": _p("scoring"),
    "planner": _p("planner"),
    "aids": _p("aids"),
    "depotOnly": _p("bool"),
    "compoundMoves": _p("enum", choices=COMPOUND_MOVES),
    "tools": _p("enum", choices=TOOLS),
    "anchor": _p("enum", choices=ANCHORS),
    "fanOffsetFaceUp": _p("number"),
    "fanOffsetFaceDown": _p("number"),
}

WRAPPER = {
    "schemaVersion": _p("int", required=True, minimum=SCHEMA_VERSION, maximum=SCHEMA_VERSION),
    "setup": _p("game", required=True),
}

PACK = {
    "suits": _p("suits"),
    "ranks": _p("ranks"),
    "count": _p("int", minimum=0),
    "jokers": _p("int", minimum=0),
    "to": _p("depot"),
    "back": _p("int", minimum=1, maximum=2),
}

DEPOT = {
    "name": _p("string", required=True),
    "type": _p("depotType", required=True),
    "col": _p("number"),
    "row": _p("number"),
    "x": _p("number"),
    "y": _p("number"),
    "angle": _p("number"),
    "repeat": _p("int", minimum=1, maximum=MAX_REPEAT),
    "perRow": _p("int", minimum=1),
    "offTable": _p("bool"),
    "fanDirection": _p("enum", choices=FAN_DIRECTIONS),
    "fanWindow": _p("int", minimum=0),
    "fanAnchor": _p("enum", choices=FAN_ANCHORS),
    "fanOffsetFaceUp": _p("number"),
    "fanOffsetFaceDown": _p("number"),
    "looseOrder": _p("bool"),
    "landFace": _p("enum", choices=LAND_FACES),
    "landUnder": _p("bool"),
    "autoFlipTop": _p("bool"),
    "uncoveredBy": _p("names"),
    "uncoveredByAny": _p("bool"),
    "autoFlipUncovered": _p("bool"),
    "acceptRule": _p("accept"),
    "ejectRule": _p("eject"),
    "draw": _p("draw"),
    "autoSend": _p("pattern"),
    "autoRefill": _p("pattern"),
    "triggers": _p("triggers"),
    "actions": _p("actions"),
}

ACCEPT = {
    "rejectsAll": _p("bool"),
    "emptyOnly": _p("bool"),
    "single": _p("bool"),
    "minCount": _p("int", minimum=0),
    "acceptFrom": _p("pattern"),
    "seed": _p("seed"),
    "seedNone": _p("bool"),
    "seedFromDeal": _p("bool"),
    "rankIs": _p("rank"),
    "build": _p("build"),
    "suit": _p("enum", choices=SUIT_RULES),
    "follow": _p("bool"),
    "wildRank": _p("rank"),
    "wildJoker": _p("bool"),
    "wildDeclares": _p("wildDeclares"),
    "allowFaceDown": _p("bool"),
    "when": _p("expr"),
    "reason": _p("string"),
}

BUILD = {
    "direction": _p("enum", required=True, choices=DIRECTIONS),
    "step": _p("int", minimum=0, maximum=MAX_BUILD_STEP),
    "wrap": _p("bool"),
}

EJECT = {
    "gate": _p("enum", choices=GATES),
    "unit": _p("unit"),
}

UNIT = {
    "kind": _p("enum", choices=UNIT_KINDS),
    "build": _p("build"),
    "suit": _p("enum", choices=SUIT_RULES),
}

DRAW = {
    "to": _p("depot", required=True),
    "count": _p("int", minimum=1),
    "recycle": _p("bool"),
    "maxRecycles": _p("int", minimum=0),
    "when": _p("expr"),
}

PATTERN = {
    "ofType": _p("depotType"),
    "names": _p("names"),
}

TRIGGER = {
    "when": _p("expr", required=True),
    "do": _p("steps", required=True),
}

ACTION = {
    "name": _p("string"),
    "when": _p("expr"),
    "do": _p("steps", required=True),
}

SCORING = {
    "value": _p("expr", required=True),
    "better": _p("enum", choices=BETTER),
    "keep": _p("enum", choices=KEEP),
}

PLANNER = {
    "value": _p("expr"),
}


def canonical(word: str, choices: tuple[str, ...]) -> str | None:
    """``word`` in its canonical spelling from ``choices``, matched case-insensitively."""
    low = word.lower()
    return next((c for c in choices if c.lower() == low), None)


def snake(name: str) -> str:
    """The model's attribute name for a camelCase property (``autoFlipTop`` -> ``auto_flip_top``)."""
    return "".join("_" + ch.lower() if ch.isupper() else ch for ch in name)
