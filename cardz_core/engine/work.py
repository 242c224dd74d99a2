"""The board being changed: one move, its cascade, a deal or a redeal work on a ``Work``,
which copies a ``State`` into lists, and is frozen back into a new ``State`` at the end.

Every card that turns face-up goes through ``Work.up``: an unknown card of a view (negative
code) is identified there by the ``reveal(pool) -> card_id`` callback given to ``apply``.
Step executors (docs/plugins.md, "Step executors") change the board only through this class.
"""

from __future__ import annotations

from typing import Any, Callable

from cardz_core.cards import UNKNOWN_BASE
from cardz_core.engine import rng as _rng
from cardz_core.engine.state import State
from cardz_core.expr.env import Env
from cardz_core.problems import CardzError

Reveal = Callable[[int], int]


class Work:
    """A board being changed, as lists; ``Play._freeze`` makes the new ``State`` of it."""

    __slots__ = ("base", "piles", "came_from", "declared", "recycles", "rng", "reveal",
                 "version", "flips", "redeals", "recycles_total", "left", "_snap", "_snap_v",
                 "self_depot")

    def __init__(self, state: State, reveal: Reveal | None = None) -> None:
        n = len(state.piles)
        self.base = state
        self.piles: list[tuple[int, ...]] = list(state.piles)
        self.came_from: list[int] = list(state.came_from) if state.came_from else [-1] * n
        self.declared: list[int] = list(state.declared) if state.declared else [-1] * n
        self.recycles = state.recycles
        self.rng = state.rng
        self.reveal = reveal
        self.version = 0  # bumped by every change, so a cascade knows when the board settles
        self.flips = 0  # cards turned face-up
        self.redeals = state.redeals
        self.recycles_total = state.recycles_total
        self.left: set[int] = set()  # depots that lost cards since the last autoFlipTop pass
        self._snap: State | None = None
        self._snap_v = -1
        self.self_depot = -1  # the depot of the trigger or action whose steps are running

    # -- faces ------------------------------------------------------------------------------
    def up(self, c: int) -> int:
        """The face-up code of ``c``; the one place a card turns face-up."""
        if c & 1:
            return c
        self.flips += 1
        if c < 0:
            if self.reveal is None:
                raise CardzError("turning up an unknown card of a view needs a reveal callback "
                                 "(apply(view, move, reveal=...))")
            card_id = self.reveal((UNKNOWN_BASE - c) // 2)
            return card_id << 1 | 1
        return c | 1

    @staticmethod
    def down(c: int) -> int:
        """The face-down code of ``c`` (an unknown card of a view stays as it is)."""
        return c & ~1 if c >= 0 else c

    # -- piles ------------------------------------------------------------------------------
    def set_pile(self, d: int, pile: tuple[int, ...]) -> None:
        """Replace depot ``d``'s pile; a changed top forgets its called suit."""
        old = self.piles[d]
        if len(pile) < len(old):
            self.left.add(d)
        if not pile or not old or pile[-1] != old[-1]:
            self.declared[d] = -1
            if not pile:
                self.came_from[d] = -1
        self.piles[d] = pile
        self.version += 1

    def take_top(self, d: int, n: int) -> tuple[int, ...]:
        """Remove up to ``n`` top cards of depot ``d``; returns them bottom first."""
        pile = self.piles[d]
        if n <= 0 or not pile:
            return ()
        n = min(n, len(pile))
        self.set_pile(d, pile[:-n])
        self.came_from[d] = -1
        return pile[-n:]

    def put(self, d: int, cards: tuple[int, ...], src: int = -1, under: bool = False) -> None:
        """Put ``cards`` (bottom first, faces as given) on depot ``d``, or beneath its pile."""
        if not cards:
            return
        pile = self.piles[d]
        if under:
            self.set_pile(d, cards + pile)
            if not pile:
                self.came_from[d] = src
        else:
            self.set_pile(d, pile + cards)
            self.came_from[d] = src

    def flip_top(self, d: int) -> None:
        """Turn the top card of depot ``d`` face-up, if it is face-down."""
        pile = self.piles[d]
        if pile and not pile[-1] & 1:
            self.set_pile(d, pile[:-1] + (self.up(pile[-1]),))

    def shuffle(self, d: int) -> None:
        """Shuffle depot ``d`` with the game's own generator (a view forgets those cards)."""
        cards = list(self.piles[d])
        self.rng = _rng.shuffle(self.rng, cards)
        forget = getattr(self.reveal, "forget", None)
        if forget is not None:  # a view: the player loses track of the shuffled cards
            cards = forget(cards)
        self.set_pile(d, tuple(cards))

    # -- reading ----------------------------------------------------------------------------
    def state(self) -> State:
        """The board as it is now, for expressions and conditions (cached until it changes)."""
        if self._snap is not None and self._snap_v == self.version:
            return self._snap
        s = self.base.copy()
        s.piles = tuple(self.piles)
        s.came_from = tuple(self.came_from)
        s.declared = tuple(self.declared)
        s.recycles = self.recycles
        s.recycles_total = self.recycles_total
        s.redeals = self.redeals
        s.rng = self.rng
        self._snap, self._snap_v = s, self.version
        return s

    def env(self, **bindings: Any) -> Env:
        """An expression environment on the board as it is now."""
        return Env(self.state(), **bindings)
