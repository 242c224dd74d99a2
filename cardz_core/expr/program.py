"""A compiled expression as data: a ``Program`` (its result kind, a tree of operations, how many
variable slots it needs, and what it reads), with a JSON form that round-trips exactly.

The compiler (``compiler.py``) type-checks an expression and writes its program: names are
resolved to depot indices or context bindings, constants are folded, overloads are chosen. Nothing
in a program is a Python object of the spec or a closure, so another engine can interpret it; the
Python engine turns it into closures once (``closure.py``). The format is described for engine
authors in docs/expressions.md ("Programs").

A node is a tuple whose first item is its operation (``OPS``); sequences inside nodes are tuples
too, so a node is hashable and its JSON form (lists) maps back one to one.
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from cardz_core.limits import MAX_EXPR_INT

FORMAT = 1

Node = tuple[Any, ...]

# operation -> what follows it in the node (docs/expressions.md)
OPS: dict[str, str] = {
    "const": "value",
    "bind": "name (card, top, pile, depot, source: the context's bindings)",
    "counter": "State field (moves, undos, recycles_total, redeals)",
    "var": "slot",
    "cards": "depot node: the cards on it, () for no depot",
    "cardsOf": "depots node: the cards on each, depot after depot",
    "depots": "depot node: as a list of one depot, () for no depot",
    "zero": "node: its value, 0 when missing",
    "prop": "property, card node",
    "not": "node",
    "neg": "node, maybe",
    "arith": "operators, operand nodes, maybe",
    "cmp": "operator, how (plain, maybe, card, depot), left node, right node",
    "and": "operand nodes",
    "or": "operand nodes",
    "let": "slot, value node, body node",
    "call": "function name, overload index, argument nodes",
    "each": "slot, body node (only as a call argument)",
}

# What a binding or an operation reads, beside the functions it calls.
BINDING_READS = frozenset({"card", "top", "pile", "depot", "source"})
_PILES = frozenset({"piles"})


class ProgramError(ValueError):
    """A serialised program that is not one (wrong format, unknown operation)."""


@attrs.frozen
class Program:
    """One compiled expression: ``kind`` (the kind it gives), ``root`` (its node), ``slots``
    (variables it needs while running: ``let`` names and items), and ``reads``: the ``State``
    fields and context bindings it reads, its functions' declared reads included."""

    kind: str
    root: Node
    slots: int
    reads: frozenset[str]

    def to_json(self) -> dict[str, Any]:
        """The program as JSON data (lists for tuples); ``Program.from_json`` reads it back."""
        return {"format": FORMAT, "kind": self.kind, "slots": self.slots,
                "reads": sorted(self.reads), "root": _to_json(self.root)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Program":
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProgramError(f"not a format {FORMAT} expression program")
        root = _from_json(data["root"])
        for node in walk(root):
            if not node or node[0] not in OPS:
                raise ProgramError(f"unknown operation in {node!r}")
            if node[0] == "const" and _past_limit(node[1]):
                # the compiler writes none, so an engine may hold every constant in 64 bits
                raise ProgramError(f"a constant past {MAX_EXPR_INT} either way")
        return cls(str(data["kind"]), root, int(data["slots"]), frozenset(data["reads"]))


def _past_limit(value: Any) -> bool:
    if isinstance(value, tuple):
        return any(_past_limit(v) for v in value)
    return isinstance(value, int) and not -MAX_EXPR_INT <= value <= MAX_EXPR_INT


def _to_json(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json(v) for v in value)
    return value


def is_data(value: Any) -> bool:
    """Whether a constant survives the JSON form unchanged (so it may be folded into a program)."""
    if value is None or isinstance(value, (bool, int, str)):
        return True
    if isinstance(value, float):
        return value == value and value not in (float("inf"), float("-inf"))
    if isinstance(value, tuple):
        return all(is_data(v) for v in value)
    return False


def children(node: Node) -> Iterator[Node]:
    """The nodes directly inside ``node``."""
    op = node[0]
    if op in ("cards", "cardsOf", "depots", "zero", "not", "neg"):
        yield node[1]
    elif op == "prop":
        yield node[2]
    elif op == "arith":
        yield from node[2]
    elif op == "cmp":
        yield node[3]
        yield node[4]
    elif op in ("and", "or"):
        yield from node[1]
    elif op == "let":
        yield node[2]
        yield node[3]
    elif op == "call":
        yield from node[3]
    elif op == "each":
        yield node[2]


def walk(root: Node) -> Iterator[Node]:
    """Every node of a tree, ``root`` first."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(children(node))


def reads_of(root: Node, functions: Any) -> frozenset[str]:
    """What a tree reads: its bindings and counters, ``piles`` for the cards of a depot, and the
    declared reads of the overloads it calls (``functions``: name -> ``Function``)."""
    out: set[str] = set()
    for node in walk(root):
        op = node[0]
        if op in ("bind", "counter"):
            out.add(node[1])
        elif op in ("cards", "cardsOf"):
            out |= _PILES
        elif op == "call":
            out |= functions[node[1]].overloads[node[2]].state_reads
    return frozenset(out)

