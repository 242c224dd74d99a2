"""How one card relates to the card beneath it: ``build`` and ``suit`` of accept rules and of
eject ``Run`` units, on printed identities (``Card``). Jokers have no rank or suit, so any
comparison that reads one fails; a relation that reads nothing (no build, suit ``Any``) holds."""

from __future__ import annotations

from typing import Callable

from cardz_core.cards import SUIT_COLOR, Card
from cardz_core.compiled.records import BuildRule

Relation = Callable[[Card, Card], bool]  # (below, card) -> fits


def build_test(build: BuildRule | None) -> Callable[[int, int], bool] | None:
    """``(below_rank, rank) -> bool`` for a build rule, ranks 1..13; None when there is none."""
    if build is None:
        return None
    step, wrap, direction = build.step, build.wrap, build.direction

    def up(b: int, r: int) -> bool:
        return r == ((b - 1 + step) % 13) + 1 if wrap else r == b + step

    def down(b: int, r: int) -> bool:
        return r == ((b - 1 - step) % 13) + 1 if wrap else r == b - step

    if direction == "Up":
        return up
    if direction == "Down":
        return down
    return lambda b, r: up(b, r) or down(b, r)


def suit_test(kind: str) -> Callable[[int, int], bool] | None:
    """``(below_suit, suit) -> bool`` for a suit rule, suits 0..3; None for ``Any``."""
    if kind == "Same":
        return lambda b, s: b == s
    if kind == "AlternateColor":
        return lambda b, s: SUIT_COLOR[b] != SUIT_COLOR[s]
    if kind == "SameColor":
        return lambda b, s: SUIT_COLOR[b] == SUIT_COLOR[s]
    return None


def relation(build: BuildRule | None, suit: str, follow: bool = False) -> Relation | None:
    """The combined pairwise test, or None when it reads nothing about the cards."""
    b_test, s_test = build_test(build), suit_test(suit)
    if b_test is None and s_test is None and not follow:
        return None

    def fits(below: Card, card: Card) -> bool:
        if below.joker or card.joker:
            return False
        if follow and below.rank != card.rank and below.suit != card.suit:
            return False
        if b_test is not None and not b_test(below.rank, card.rank):
            return False
        return s_test is None or s_test(below.suit, card.suit)

    return fits
