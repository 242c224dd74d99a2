"""How an expression function declares itself: the kinds it takes and gives, and its code.

The core evaluator knows no function by name. Every function, builtin or third-party, is a
``Function`` registered through the ``cardz_functions`` hook; the type checker resolves a call
against its ``Signature`` overloads and the compiler turns it into a closure.

Kinds (``KINDS``) and how run-time values look (docs/design.md):

- ``number`` int; ``bool`` (a condition) bool
- ``card`` a card code, None for no card; ``cards`` a tuple of codes, bottom first
- ``depot`` a depot index, -1 for no depot; ``depots`` a tuple of depot indices
- ``rank`` 1..13, ``suit`` 0..3, ``colour`` 0 black / 1 red; None where missing
- ``text`` a string literal (only as an argument, e.g. ``depot("tower-2")``)

Parameter kinds add ``items``: a list to go through, either cards (a depot given here stands
for its cards) or depots (a list of depots stays a list of depots, and its items are depots);
and ``Each(of, result)``: an expression worked out once per item of argument ``of``, which the
implementation receives as a callable ``f(item) -> value``.

Where a parameter wants ``cards``, a depot or a list of depots is accepted and stands for the
cards on it (bottom first, depot after depot). Where it wants ``number``, a rank is accepted
(as 1..13, 0 when missing).

``native`` names the native primitive (docs/expressions.md, "Native primitives") that computes
exactly what the overload's implementation does; the native engine runs a call through it, and
calls back the Python implementation for an overload that names none (docs/expressions.md).

A ``STATE`` function declares in ``reads`` the ``State`` fields it reads (``STATE_READS``), so
that what a game's rules can tell apart is known without running them (the solver's position
key); one that declares nothing is taken to read every field.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from cardz_core.problems import is_whole

# the expression language's own words, which no function may be named (the grammar's NAME)
RESERVED_WORDS = ("and", "or", "not", "let", "in", "it", "true", "false")

KINDS = ("number", "bool", "card", "cards", "depot", "depots", "rank", "suit", "colour", "text")
ITEM_OF = {"cards": "card", "depots": "depot"}
LISTS = ("cards", "depots", "items")  # parameter kinds an ``Each`` may go through

# Who the implementation needs besides its arguments.
PURE = "pure"  # fn(*args); constant arguments are folded at compile time
GAME = "game"  # fn(game, *args): game is the compiled ``Tables``; also folded when constant
STATE = "state"  # fn(game, state, *args): reads the position, never folded
NEEDS = (PURE, GAME, STATE)

# The ``State`` fields an expression or a STATE function may read (docs/expressions.md).
STATE_READS = frozenset({"piles", "came_from", "recycles", "redeals", "moves", "undos",
                         "recycles_total", "seed_rank", "declared", "rng", "rules_off", "status"})


def fits(kind: str, value: Any) -> bool:
    """Whether ``value`` is a run-time value of ``kind`` as the module docstring gives them (a
    list for a tuple too): what a plugin's implementation must return, since the two engines
    would read anything else differently."""
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "text":
        return isinstance(value, str)
    if kind in ("cards", "depots"):
        return isinstance(value, (tuple, list)) and all(map(is_whole, value))
    if kind in ("card", "rank", "suit", "colour") and value is None:
        return True
    return is_whole(value)  # number, depot, and a card, rank, suit or colour that is there


class FunctionError(Exception):
    """Raised by an implementation for arguments it refuses (e.g. ``depot("nope")``). When the
    call is worked out at compile time (constant arguments) it becomes a reported problem."""


@attrs.frozen
class Each:
    """A parameter worked out once per item of the list given as argument ``of``.
    ``result`` is the kind it must give (``bool`` or ``number``)."""

    of: int
    result: str


Param = str | Each


def _reads(value: Any) -> frozenset[str] | None:
    return None if value is None else frozenset(value)


@attrs.frozen
class Signature:
    """One overload: parameter kinds, result kind, implementation, what it needs, for a
    ``STATE`` function the ``State`` fields it reads (None: undeclared, taken as all of them),
    and ``native``: the name of the native primitive the native engine implements with exactly
    this meaning (None: the overload runs only in Python)."""

    params: tuple[Param, ...]
    result: str
    fn: Callable[..., Any]
    needs: str = PURE
    reads: frozenset[str] | None = attrs.field(default=None, converter=_reads)
    native: str | None = None

    def __attrs_post_init__(self) -> None:
        for i, p in enumerate(self.params):
            if isinstance(p, Each):
                if not (0 <= p.of < i) or self.params[p.of] not in LISTS:
                    raise ValueError(f"Each({p.of}) must point at an earlier list parameter "
                                     f"({', '.join(LISTS)})")
                if p.result not in KINDS:
                    raise ValueError(f"unknown kind {p.result!r}")
            elif p not in KINDS and p != "items":
                raise ValueError(f"unknown parameter kind {p!r}")
        if self.result not in KINDS:
            raise ValueError(f"unknown result kind {self.result!r}")
        if self.needs not in NEEDS:
            raise ValueError(f"needs must be one of {NEEDS}")
        if self.reads:
            if self.needs != STATE:
                raise ValueError("only a STATE function reads the state, so only it declares reads")
            unknown = sorted(self.reads - STATE_READS)
            if unknown:
                raise ValueError(f"unknown state field(s) in reads: {', '.join(unknown)}; "
                                 f"one of {', '.join(sorted(STATE_READS))}")

    @property
    def state_reads(self) -> frozenset[str]:
        """What a call of this overload reads of the position."""
        if self.needs != STATE:
            return frozenset()
        return STATE_READS if self.reads is None else self.reads

    def describe(self, name: str) -> str:
        parts = [f"{p.result} for each item" if isinstance(p, Each) else p for p in self.params]
        return f"{name}({', '.join(parts)}) -> {self.result}"


@attrs.frozen
class Function:
    """An expression function: one or more overloads, tried in order, and a line of help."""

    overloads: tuple[Signature, ...]
    doc: str = ""

    @classmethod
    def of(cls, params: tuple[Param, ...], result: str, fn: Callable[..., Any],
           needs: str = PURE, doc: str = "", reads: frozenset[str] | None = None,
           native: str | None = None) -> "Function":
        """A function with a single overload."""
        return cls((Signature(tuple(params), result, fn, needs, reads, native),), doc)
