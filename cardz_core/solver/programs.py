"""What a game's rule expressions read, as the reductions need it (docs/solver.md, "What the
solver reads of a game's expressions").

The programs' own ``reads`` say which fields of the position they read (``piles``, counters);
the reductions need finer facts: which depots a program names (rather than reaching them
through its rule's own depot), whether it reads more of a pile than its size and top card,
whether it tells depots apart other than by what they hold, and whether it reads a card's suit
or colour. They are read from the program trees and from the native primitive each called
function's overload has (``CompiledGame.primitives``; an overload with none is the function's
own code, of which nothing is known, so it is taken to read everything).
"""

from __future__ import annotations

from typing import Any, Iterable

from cardz_core.compiled import CompiledGame
from cardz_core.compiled.records import ExprRef
from cardz_core.expr.api import RULE_CONTEXTS
from cardz_core.expr.program import Node, children

# Primitives that read of the one pile they are given only its size or its top card.
SIZE_OR_TOP = frozenset({"count_cards", "no_cards", "top_card"})
# Primitives that read neither where a depot lies nor which depot it is (no copy numbers,
# neighbours, grid, `uncoveredBy`, `cameFrom`, names or first depot of a list): given the same
# cards, numbers and depots, they give the same answer whatever the depots' places.
PLACE_BLIND = frozenset({
    "count_cards", "count_each", "all_each", "any_each", "min_two", "min_each", "max_two",
    "max_each", "no_cards", "no_card", "sum_values", "sum_each", "card_value", "top_card",
    "bottom_card", "run_base", "cards_above", "face_up_cards", "face_down_cards", "first_card"})
# Card properties that read the suit (the colour is the suit's).
# Primitives that go through a list of items and answer the same for every order of it: a
# constant list of depots given to one is read as a set.
ORDERLESS = frozenset({"count_each", "all_each", "any_each", "min_each", "max_each", "sum_each"})
SUIT_PROPS = frozenset({"suit", "colour"})
SELF = ("self",)  # a rule's own depot, in a program written relative to it (``RuleReads.shape``)


class RuleReads:
    """The facts of every rule expression of ``c`` (not ``scoring`` or the planner's value,
    which decide no move)."""

    def __init__(self, c: CompiledGame) -> None:
        self.primitives = c.primitives
        self.refs = tuple(ref for ref in c.expressions() if ref.context in RULE_CONTEXTS)
        self.named: set[int] = set()  # depots a program names other than its rule's own
        self.sets: list[frozenset[int]] = []  # constant lists of depots read as sets
        self.whole: set[int] | None = set()  # depots read beyond size and top; None: any may be
        self.place_blind = True  # no program tells depots apart but by what they hold
        self.suit_blind = True  # no program reads a card's suit or colour
        for ref in self.refs:
            self._read(ref.program.root, ref.self_depot, None)

    def _primitive(self, node: Node) -> str | None:
        overloads = self.primitives.get(node[1], ())
        return overloads[node[2]] if node[2] < len(overloads) else None

    def _read(self, node: Node, own: int, parent: str | None) -> None:
        """Record what ``node`` reads; ``parent`` is the primitive of the call it is an argument
        of (None: not an argument of a call)."""
        op = node[0]
        if op in ("cards", "cardsOf", "depots"):
            where = node[1]
            if where[0] == "const":  # depots named: the rule's own, or others
                named = set(_ints(where[1]))
                self.named |= named - {own}
                if op != "depots" and (op == "cardsOf" or parent not in SIZE_OR_TOP):
                    self._whole(named)
                return
            if where == ("bind", "source"):
                return  # the moved cards' source: it gives cards up, so it is never a sink
            self._whole(None)  # a depot worked out on the board
        elif op == "bind" and node[1] in ("depot", "source"):
            self.place_blind = False  # a depot as a value, not as what it holds
        elif op == "prop" and node[1] in SUIT_PROPS:
            self.suit_blind = False
        elif op == "const" and isinstance(node[1], tuple):
            self.named |= set(_ints(node[1]))  # a list of depots, read in its order
        elif op == "cmp" and node[2] == "depot":
            self.place_blind = False  # which depot it is
        elif op == "call":
            primitive = self._primitive(node)
            if primitive is None:
                self.suit_blind = self.place_blind = False
                self._whole(None)
            elif primitive not in PLACE_BLIND:
                self.place_blind = False
            args = node[3]
            if primitive in ORDERLESS and args[0][0] == "const" and isinstance(args[0][1], tuple):
                self.sets.append(frozenset(_ints(args[0][1])))
                args = args[1:]
            for arg in args:
                self._read(arg, own, primitive)
            return
        for child in children(node):
            self._read(child, own, None)

    def _whole(self, depots: set[int] | None) -> None:
        """Mark ``depots`` (None: every depot) read beyond their size and top card."""
        if depots is None or self.whole is None:
            self.whole = None
        else:
            self.whole |= depots

    @staticmethod
    def shape(ref: ExprRef | None) -> Any:
        """``ref``'s program with its own depot written as ``SELF``: equal for the copies of a
        repeated depot, whose programs differ only in the depot ``depot`` names."""
        if ref is None:
            return None
        return ref.context, _relative(ref.program.root, ref.self_depot)


def _ints(value: Any) -> Iterable[int]:
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, tuple):
        return (v for v in value if isinstance(v, int) and not isinstance(v, bool))
    return ()


def _relative(node: Any, own: int) -> Any:
    """``node`` with the constant ``own`` in every place that names a depot written as SELF."""
    if not isinstance(node, tuple) or not node or not isinstance(node[0], str):
        return tuple(_relative(x, own) for x in node) if isinstance(node, tuple) else node
    if node[0] in ("cards", "cardsOf", "depots") and node[1] == ("const", own):
        return (node[0], SELF)
    return tuple(_relative(x, own) if isinstance(x, tuple) else x for x in node)
