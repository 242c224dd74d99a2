"""What a player does: a ``Move``, and the error an illegal one raises."""

from __future__ import annotations

from typing import NamedTuple

from cardz_core.cards import SUIT_LETTERS
from cardz_core.problems import CardzError


class Move(NamedTuple):
    """A move, hashable. A tap has ``index == -1`` and ``dst == -1``.

    ``repr`` is the move's text form (``docs/contract.md``) with depot indices where the text
    form has depot names, since a move alone does not know them: ``Move(8@4>2)`` picks the card
    at position 4 of depot 8 and puts it on depot 2, ``Move(8@4>2=H)`` also calls Hearts,
    ``Move(tap 0)`` taps depot 0. ``Game.move_text`` gives the named form.
    """

    src: int  # depot index picked from, or tapped
    # the name of the documents' field; it hides tuple.index, which no caller uses on a Move
    index: int  # type: ignore[assignment]  # position of the picked card, bottom = 0
    dst: int  # target depot index
    declare: int = -1  # suit called for wildDeclares "suit", else -1

    def __repr__(self) -> str:
        if self.dst < 0:
            return f"Move(tap {self.src})"
        called = "=" + SUIT_LETTERS[self.declare] if self.declare >= 0 else ""
        return f"Move({self.src}@{self.index}>{self.dst}{called})"


class IllegalMove(CardzError):
    """A move the rules do not allow here; the message says why."""
