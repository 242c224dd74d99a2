"""What a compiled expression reads at run time."""

from __future__ import annotations

from typing import Any


class Env:
    """The position and the bindings of an expression's context (docs/design.md).

    ``state`` is a ``State`` or a view; ``card``/``top`` are card codes or None, ``pile`` a tuple
    of codes, ``depot``/``source`` depot indices or -1. ``vars`` holds the values of ``let``
    names and iterated items while an expression runs; the compiled expression sets it up itself.
    One Env may be reused for many evaluations; set the fields the context needs before each.
    """

    __slots__ = ("state", "card", "pile", "depot", "source", "top", "vars")

    def __init__(self, state: Any = None, card: int | None = None, pile: tuple[int, ...] = (),
                 depot: int = -1, source: int = -1, top: int | None = None) -> None:
        self.state = state
        self.card = card
        self.pile = pile
        self.depot = depot
        self.source = source
        self.top = top
        self.vars: list[Any] = []
