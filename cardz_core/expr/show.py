"""Showing an expression's value to a person or a script (``cardz eval``): cards in the contract's
notation, depots by name, ranks, suits and colours as words; no card and no depot as null."""

from __future__ import annotations

from typing import Any

from cardz_core.cards import COLOR_WORDS, RANK_WORDS, SUIT_WORDS, format_card


def to_json(kind: str, value: Any, spec: Any) -> Any:
    """The value as JSON data."""
    if kind == "card":
        return _card(value, spec)
    if kind == "cards":
        return [_card(c, spec) for c in value]
    if kind == "depot":
        return spec.depots[value].name if value >= 0 else None
    if kind == "depots":
        return [spec.depots[d].name for d in value]
    words = {"rank": RANK_WORDS, "suit": SUIT_WORDS, "colour": COLOR_WORDS}.get(kind)
    if words is not None:
        return None if value is None else words[value]
    return value


def to_text(kind: str, value: Any, spec: Any) -> str:
    """The value as one line of text."""
    data = to_json(kind, value, spec)
    if data is None:
        return {"card": "no card", "depot": "no depot"}.get(kind, "missing")
    if isinstance(data, bool):
        return "true" if data else "false"
    if isinstance(data, list):
        return " ".join(data) if data else {"cards": "no cards", "depots": "no depots"}[kind]
    return str(data)


def _card(c: int | None, spec: Any) -> str | None:
    if c is None:
        return None
    if c < 0:
        return format_card(None, False)
    return format_card(spec.cards[c >> 1].card, bool(c & 1))
