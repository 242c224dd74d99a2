"""The records a compiled game is made of: small frozen attrs classes holding ints, strings,
bools, None, tuples of these and other records (and, for step and condition arguments, dicts
with string keys). Nothing here refers to a spec object, a registry or a closure, so a record
compares by value and serialises to JSON (``cardz_core.compiled.serial``).

Depots are indices into ``CompiledGame.depot_names``; cards are card ids (deck order); ranks
1..13 (0 a joker), suits 0..3 (-1 a joker); -1 stands for "none" where an index is expected.
"""

from __future__ import annotations

from typing import Any

import attrs

from cardz_core.expr.program import Program


@attrs.frozen
class ExprRef:
    """A rule expression: its compiled ``program`` (``cardz_core.expr.Program``: data that says
    what it reads, docs/expressions.md), and for messages and showing its source text, the
    context it is checked in (``cardz_core.expr.CONTEXTS``), the depot ``@self``/``depot``
    means there (-1 none) and its JSON pointer in the game file."""

    text: str
    context: str
    self_depot: int
    ptr: str
    program: Program


@attrs.frozen
class BuildRule:
    """``build``: ``direction`` Up, Down or Either, by ``step`` ranks, ``wrap`` King-Ace."""

    direction: str
    step: int
    wrap: bool


@attrs.frozen
class AcceptTable:
    """A depot's ``acceptRule``, its ``acceptFrom`` pattern resolved to depot indices."""

    rejects_all: bool = False
    empty_only: bool = False
    single: bool = False
    min_count: int = 0
    accept_from: tuple[int, ...] | None = None
    seed: int | None = None
    seed_none: bool = False
    seed_from_deal: bool = False
    rank_is: int | None = None
    build: BuildRule | None = None
    suit: str = "Any"
    follow: bool = False
    wild_rank: int | None = None
    wild_joker: bool = False
    wild_declares: str = "none"
    allow_face_down: bool = False
    when: ExprRef | None = None
    reason: str | None = None


@attrs.frozen
class EjectTable:
    """A depot's ``ejectRule`` (``gate``; ``unit`` None or Single, Any, Run, Pile, with the
    run's build and suit), its ``uncoveredBy`` depots and whether any one of them uncovers it
    (``cover_any``), and ``loose_order`` (a loose fan: a pickup takes only the picked card)."""

    gate: str = "Any"
    unit: str | None = None
    unit_build: BuildRule | None = None
    unit_suit: str = "Any"
    covered_by: tuple[int, ...] = ()
    cover_any: bool = False
    loose_order: bool = False


@attrs.frozen
class DrawTable:
    """A depot's ``draw``: tapped, it turns ``count`` cards onto depot ``to``."""

    to: int
    count: int
    recycle: bool
    max_recycles: int | None
    when: ExprRef | None


@attrs.frozen
class StepData:
    """A deal, redeal, trigger or action step: its kind's registered name, its arguments with
    depots resolved (``depot`` fields an index, ``depots``, ``group`` and ``pattern`` fields
    tuples of indices, expressions ``ExprRef``, nested conditions ``ConditionData``; a field
    the kind defaults to the stock, omitted, holds the first stock), its JSON pointer and the
    depot of the trigger or action it belongs to (-1 none).

    Then the facts its kind declares (``cardz_core.kinds.StepKind``), copied at compile time so
    that no engine or solver looks the kind up: ``takes_from``, ``lands_on``, ``stock_default``
    (field names), ``from_stock``, ``reads`` (sorted), ``moves_cards``, ``turns_cards``,
    ``creates_cards``, ``native`` (the native engine's primitive for it, or None), and
    ``depot_fields``: the names of its fields that name depots (of field kind ``depot``,
    ``depots``, ``group`` or ``pattern``), in the kind's order."""

    kind: str
    args: dict[str, Any]
    ptr: str
    self_depot: int = -1
    takes_from: tuple[str, ...] = ()
    lands_on: tuple[str, ...] = ()
    stock_default: tuple[str, ...] = ()
    from_stock: bool = False
    reads: tuple[str, ...] = ()
    moves_cards: bool = True
    turns_cards: bool = False
    creates_cards: bool = False
    depot_fields: tuple[str, ...] = ()
    native: str | None = None


@attrs.frozen
class ConditionData:
    """A win, loss or redeal condition: kind name, resolved arguments (as for steps), pointer.

    Then the facts its kind declares (``cardz_core.kinds.ConditionKind``), resolved at compile
    time: ``empties``, the depots that must be empty for it to hold, exactly (sorted indices;
    None when its kind cannot say so), ``stalemate``, ``reads`` (sorted), ``nested`` (its
    ``of`` argument holds sub-conditions), the names of its fields that name depots
    (``depot_fields``, in the kind's order), of which ``pattern_fields`` are patterns (read as
    sets of depots), and ``native``, the native engine's primitive for it (None: none)."""

    kind: str
    args: dict[str, Any]
    ptr: str
    empties: tuple[int, ...] | None = None
    stalemate: bool = False
    reads: tuple[str, ...] = ("piles",)
    nested: bool = False
    depot_fields: tuple[str, ...] = ()
    pattern_fields: tuple[str, ...] = ()
    native: str | None = None


@attrs.frozen
class TriggerTable:
    """A trigger of depot ``depot``: when ``when`` holds after a move, ``do`` runs."""

    depot: int
    when: ExprRef
    do: tuple[StepData, ...]
    ptr: str


@attrs.frozen
class ActionTable:
    """An action of a depot: tapped while ``when`` holds (None: always), ``do`` runs."""

    name: str
    when: ExprRef | None
    do: tuple[StepData, ...]
    ptr: str


@attrs.frozen
class ScoringTable:
    """``scoring``: the value shown, which way is better, which deals keep their score."""

    value: ExprRef
    better: str
    keep: str
