"""What a player does: a ``Move``, and the error an illegal one raises."""

from __future__ import annotations

from typing import NamedTuple

from cardz_core.problems import CardzError


class Move(NamedTuple):
    """A move, hashable. A tap has ``index == -1`` and ``dst == -1``."""

    src: int  # depot index picked from, or tapped
    index: int  # position of the picked card, bottom = 0
    dst: int  # target depot index
    declare: int = -1  # suit called for wildDeclares "suit", else -1


class IllegalMove(CardzError):
    """A move the rules do not allow here; the message says why."""
