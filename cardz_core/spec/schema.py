"""The JSON Schema (draft 2020-12) of the game-file format, generated from the loader's own tables
(``cardz_core.spec.tables``) and the registry (depot types, step kinds, condition kinds, aids).

What the schema can and cannot say (see docs/format.md): property names are matched in their
canonical camelCase spelling only, while enum values match in any letter case (the loader reads
both case-insensitively); references between depots, `$rule` names, card counts and expressions
are checked by the loader alone. Every property carries a ``description``
(``cardz_core.spec.descriptions``) and every enum lists its canonical values under ``enum`` as
well as the any-case pattern, so an editor can explain and complete them.
"""

from __future__ import annotations

import re
from typing import Any

from cardz_core import cards
from cardz_core.kinds import Aid, ConditionKind, Field, StepKind
from cardz_core.limits import MAX_EXPR_CHARS, MAX_FILE_NUMBER
from cardz_core.registry import Registry, default_registry
from cardz_core.spec import tables as t
from cardz_core.spec.descriptions import AIDS, DEFINITIONS, KIND_FIELDS, KINDS, PROPERTIES
from cardz_core.spec.tables import Prop

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_ID = "https://cardz.invalid/schema/game.json"


def any_case(words: Any) -> dict[str, Any]:
    """A string matching any of ``words`` in any letter case (JSON Schema regexes have no flags),
    the words themselves listed first so that editors offer them."""
    alternatives = []
    for word in sorted(set(words), key=lambda w: (-len(w), w)):
        parts = [f"[{c.upper()}{c.lower()}]" if c.isalpha() else re.escape(c) for c in word]
        alternatives.append("".join(parts))
    listed = list(dict.fromkeys(words))
    return {"anyOf": [{"enum": listed},
                      {"type": "string", "pattern": "^(?:" + "|".join(alternatives) + ")$"}]}


def _described(schema: dict[str, Any], text: str | None) -> dict[str, Any]:
    return {**schema, "description": text} if text else schema


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/$defs/{name}"}


def _one_or_list(item: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [item, {"type": "array", "items": item}]}


def _int(minimum: int | None = None, maximum: int | None = None) -> dict[str, Any]:
    """A whole number within ``MAX_FILE_NUMBER`` either way, and the field's own range."""
    low = -MAX_FILE_NUMBER if minimum is None else max(minimum, -MAX_FILE_NUMBER)
    high = MAX_FILE_NUMBER if maximum is None else min(maximum, MAX_FILE_NUMBER)
    return {"type": "integer", "minimum": low, "maximum": high}


_NAMED = {  # property kinds that are a definition of their own
    "pattern": "pattern", "accept": "acceptRule", "eject": "ejectRule", "draw": "draw",
    "condition": "condition", "build": "build", "unit": "unit", "scoring": "scoring",
    "planner": "planner", "values": "values", "aids": "aids", "rules": "rules", "game": "game",
    "rank": "rank", "expr": "expr", "depotType": "depotType", "seed": "seed",
    "wildDeclares": "wildDeclares",
}


def _prop(prop: Prop) -> dict[str, Any]:
    kind = prop.kind
    if kind in _NAMED:
        return _ref(_NAMED[kind])
    simple: dict[str, dict[str, Any]] = {
        "bool": {"type": "boolean"},
        "number": {"type": "number", "minimum": -MAX_FILE_NUMBER, "maximum": MAX_FILE_NUMBER},
        "string": {"type": "string"},
        "depot": {"type": "string"},
        "strings": _one_or_list({"type": "string"}),
        "names": _one_or_list({"type": "string"}),
        "ranks": _one_or_list(_ref("rank")),
        "suits": _one_or_list(_ref("suit")),
        "decks": {"type": "array", "items": _ref("pack")},
        "depots": {"type": "array", "items": _ref("depot")},
        "steps": {"type": "array", "items": _ref("step")},
        "triggers": {"type": "array", "items": _ref("trigger")},
        "actions": {"type": "array", "items": _ref("action")},
    }
    if kind == "int":
        return _int(prop.minimum, prop.maximum)
    if kind == "enum":
        return any_case(prop.choices)
    return simple[kind]


def _object(table: dict[str, Prop], name: str) -> dict[str, Any]:
    said = PROPERTIES.get(name, {})
    out: dict[str, Any] = {"type": "object",
                           "properties": {k: _described(_prop(p), said.get(k))
                                          for k, p in table.items()},
                           "additionalProperties": False}
    required = [k for k, p in table.items() if p.required]
    if required:
        out["required"] = required
    return out


def _field(field: Field) -> dict[str, Any]:
    kind = field.kind
    by_kind: dict[str, dict[str, Any]] = {
        "depot": {"type": "string"},
        "depots": _one_or_list({"type": "string"}),
        "group": {"type": "string"},
        "pattern": _ref("pattern"),
        "bool": {"type": "boolean"},
        "string": {"type": "string"},
        "rank": _ref("rank"),
        "suit": _ref("suit"),
        "expr": _ref("expr"),
        "numexpr": {"anyOf": [_int(field.minimum), _ref("expr")]},
        "conditions": {"type": "array", "items": _ref("condition")},
    }
    if kind == "int":
        return _int(field.minimum)
    return by_kind.get(kind, {})


def _kinds(kinds: dict[str, Any]) -> dict[str, Any]:
    """One alternative per registered step or condition kind, told apart by ``kind``."""
    alternatives = []
    for name, kind in kinds.items():
        fields: dict[str, Field] = getattr(kind, "fields", {})
        said = KIND_FIELDS.get(name, {})
        what = KINDS.get(name) or _own_doc(kind)
        props = {"kind": _described(any_case([name]), what)}
        props.update({f: _described(_field(spec), said.get(f)) for f, spec in fields.items()})
        alternatives.append(_described(
            {"type": "object", "properties": props, "additionalProperties": False,
             "required": ["kind"] + [f for f, spec in fields.items() if spec.required]},
            f"{name}: {what}" if what else None))
    return {"anyOf": alternatives}


def _own_doc(kind: object) -> str | None:
    """A plugin kind's own description: the first line of the docstring of its class, when the
    plugin made one, else of its ``compile`` (the classes' own docstrings describe the classes,
    not the kind)."""
    doc = type(kind).__dict__.get("__doc__") if type(kind) not in (StepKind, ConditionKind, Aid) \
        else None
    doc = doc or getattr(getattr(kind, "compile", None), "__doc__", None)
    return doc.strip().splitlines()[0] if doc and doc.strip() else None


def _rank_words() -> list[str]:
    """Every way the loader reads a rank as text (``cardz_core.cards.parse_rank``)."""
    return list(cards.RANK_WORDS[1:]) + list(cards.RANK_LETTERS[1:]) + ["T", "1"]


def build_schema(registry: Registry | None = None) -> dict[str, Any]:
    registry = registry or default_registry()
    suits = list(cards.SUIT_WORDS) + [w[:-1] for w in cards.SUIT_WORDS] + list(cards.SUIT_LETTERS)
    aids = {}
    for name, aid in registry.aids.items():
        aids[name] = _described({"int": {"type": "integer"}, "bool": {"type": "boolean"},
                                 "string": {"type": "string"}}[aid.value_kind],
                                AIDS.get(name) or _own_doc(aid))
    rule_ref = {"type": "string", "pattern": "^\\$.+$"}
    defs: dict[str, Any] = {
        "game": _object(t.TOP, "game"),
        "wrapper": _object(t.WRAPPER, "wrapper"),
        "pack": _object(t.PACK, "pack"),
        "depot": _object(t.DEPOT, "depot"),
        "build": _object(t.BUILD, "build"),
        "draw": _object(t.DRAW, "draw"),
        "trigger": _object(t.TRIGGER, "trigger"),
        "action": _object(t.ACTION, "action"),
        "scoring": _object(t.SCORING, "scoring"),
        "acceptRule": {"anyOf": [any_case(t.ACCEPT_WORDS), rule_ref, _object(t.ACCEPT, "acceptRule")]},
        "ejectRule": {"anyOf": [any_case(t.GATES), rule_ref, _object(t.EJECT, "ejectRule")]},
        "unit": {"anyOf": [any_case(t.BARE_UNITS), _object(t.UNIT, "unit")]},
        "rules": {"type": "object", "additionalProperties": {
            "anyOf": [_ref("acceptRule"), _ref("ejectRule")]}},
        "pattern": {"anyOf": [
            {"type": "string"}, {"type": "array", "items": {"type": "string"}},
            {"type": "object", "properties": {
                "ofType": _described(_ref("depotType"), PROPERTIES["pattern"]["ofType"]),
                "names": _described(_prop(t.PATTERN["names"]), PROPERTIES["pattern"]["names"])},
             "additionalProperties": False, "minProperties": 1, "maxProperties": 1}]},
        "depotType": any_case(registry.depot_types),
        "rank": {"anyOf": [any_case(_rank_words()), _int(1, 13)]},
        "suit": any_case(suits),
        "seed": {"anyOf": [_ref("rank"), any_case(["none"])]},
        "wildDeclares": {"anyOf": [{"type": "boolean"}, any_case(t.WILD_DECLARES)]},
        "expr": {"type": "string", "minLength": 1, "maxLength": MAX_EXPR_CHARS},
        "values": {"type": "object", "propertyNames": any_case(_rank_words() + ["joker"]),
                   "additionalProperties": {"type": "integer"}},
        "planner": {"anyOf": [{"type": "boolean"}, _object(t.PLANNER, "planner")]},
        "aids": {"type": "object", "properties": aids, "additionalProperties": False},
        "step": _kinds(dict(registry.deal_steps)),
        "condition": _kinds(dict(registry.conditions)),
    }
    for name, text in DEFINITIONS.items():
        defs[name] = _described(defs[name], text)
    return {
        "$schema": DRAFT,
        "$id": SCHEMA_ID,
        "title": "cardz game file",
        "description": "A solitaire game written as data: the game object, or the export wrapper "
                       "{\"schemaVersion\": 1, \"setup\": {...}}.",
        "anyOf": [_ref("game"), _ref("wrapper")],
        "$defs": defs,
    }
