"""Shared helpers for the loader tests: a small valid game and problem lookups."""

from __future__ import annotations

import copy
from typing import Any

from cardz_core.spec import load

BASE: dict[str, Any] = {
    "name": "Test",
    "depotOnly": True,
    "depots": [
        {"name": "stock", "type": "Stock", "draw": {"to": "waste"}, "ejectRule": "locked"},
        {"name": "waste", "type": "Waste", "col": 1, "acceptRule": "none", "ejectRule": "topOnly"},
        {"name": "column", "type": "Tableau", "row": 1, "repeat": 3,
         "acceptRule": {"build": {"direction": "Down"}}},
        {"name": "foundation", "type": "Foundation", "col": 3, "repeat": 4,
         "acceptRule": {"seed": "Ace", "build": {"direction": "Up"}, "suit": "Same"}},
    ],
    "dealRules": [{"kind": "dealGroup", "to": "column", "faceDown": 1}],
    "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
}


def game(**top: Any) -> dict[str, Any]:
    """A deep copy of BASE with top-level properties replaced (None removes one)."""
    doc = copy.deepcopy(BASE)
    for key, value in top.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


def with_depot(index: int, **fields: Any) -> dict[str, Any]:
    """BASE with fields of one depot replaced (None removes one)."""
    doc = game()
    for key, value in fields.items():
        if value is None:
            doc["depots"][index].pop(key, None)
        else:
            doc["depots"][index][key] = value
    return doc


def errors(doc: Any, **kw: Any) -> dict[str, str]:
    """Pointer -> message of every error (a test asserts the exact pointer)."""
    spec, problems = load(doc, **kw)
    found = {p.path: p.message for p in problems if p.severity == "error"}
    assert (spec is None) == bool(found)
    return found


def only_error(doc: Any, **kw: Any) -> tuple[str, str]:
    found = errors(doc, **kw)
    assert len(found) == 1, found
    return next(iter(found.items()))
