"""What a player does: a ``Move``, and the error an illegal one raises."""

from __future__ import annotations

from typing import NamedTuple

from cardz_core.cards import SUIT_LETTERS
from cardz_core.problems import CardzError, is_whole


class Move(NamedTuple):
    """A move, hashable. A tap has ``index == -1`` and ``dst == -1``. A reorder (a drag along
    a ``looseOrder`` fan) has ``dst == src``, and its fourth field is the picked card's new
    position (``at``), since nothing is declared on the card's own depot: moves stay four
    ints in both engines.

    ``repr`` is the move's text form (``docs/contract.md``) with depot indices where the text
    form has depot names, since a move alone does not know them: ``Move(8@4>2)`` picks the card
    at position 4 of depot 8 and puts it on depot 2, ``Move(8@4>2=H)`` also calls Hearts,
    ``Move(5@3>5@0)`` moves the card at position 3 of depot 5 to its bottom, ``Move(tap 0)``
    taps depot 0. ``Game.move_text`` gives the named form.
    """

    src: int  # depot index picked from, or tapped
    # the name of the documents' field; it hides tuple.index, which no caller uses on a Move
    index: int  # type: ignore[assignment]  # position of the picked card, bottom = 0
    dst: int  # target depot index
    declare: int = -1  # suit called for wildDeclares "suit"; a reorder's new position; else -1

    @property
    def at(self) -> int:
        """A reorder's new position for the card (bottom = 0); -1 for any other move."""
        return self.declare if self.src == self.dst >= 0 else -1

    def __repr__(self) -> str:
        if self.dst < 0:
            return f"Move(tap {self.src})"
        if self.at >= 0:
            return f"Move({self.src}@{self.index}>{self.dst}@{self.declare})"
        # a suit past the four is shown as its number: a repr never raises
        called = "" if self.declare < 0 else "=" + (SUIT_LETTERS[self.declare] if
                                                    self.declare < len(SUIT_LETTERS) else
                                                    str(self.declare))
        return f"Move({self.src}@{self.index}>{self.dst}{called})"


def as_move(value: object) -> Move:
    """``value`` as a ``Move``: a Move as it is, or a tuple of 3 or 4 whole numbers (the fields
    in order, as the native engine reads a move); a CardzError for anything else, so that a
    list, a text or None is named rather than failing inside the engine."""
    if type(value) is Move:
        return value
    if isinstance(value, tuple) and len(value) in (3, 4) and all(map(is_whole, value)):
        return Move(*(int(v) for v in value))
    shown = repr(value)
    raise CardzError(f"a move is a Move (src, index, dst, declare), not "
                     f"{shown if len(shown) <= 60 else shown[:57] + '...'}")


class IllegalMove(CardzError):
    """A move the rules do not allow here; the message says why."""
