"""The position: small, hashable, cheap to copy.

``piles[d]`` is depot ``d``'s cards bottom first, each a card code (``cardz_core.cards``).
Everything else a position needs to continue exactly is a field here too, so that a board
document can hold it and load -> save -> load is the identity. Copies share every tuple they
did not change. A ``View`` (player's view) uses the same class with unknown face-down codes
(negative) and ``pools`` holding the unseen-card counts.

``repr`` prints the position in card notation (``cardz_core.cards``): the status, the counters
that are not at their start, then the piles in depot order, bottom first, separated by ``|``
(``-`` for an empty pile), e.g. ``State(playing, moves=3, piles=[~KC 7D | AS | -])``. A code
names its card through ``cards``, the game's card table, which ``copy`` passes on; a state made
without it shows card ids (``#12``, ``~#12``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Sequence

from cardz_core.cards import Card, format_card


class Status(IntEnum):
    """How a deal stands. An int, so comparisons with 0, 1 and 2 and stored numbers still hold;
    documents write the lower-case name (``STATUS_NAMES``)."""

    PLAYING = 0
    WON = 1
    LOST = 2


PLAYING, WON, LOST = Status.PLAYING, Status.WON, Status.LOST
STATUS_NAMES = tuple(s.name.lower() for s in Status)


class State:
    __slots__ = ("piles", "came_from", "recycles", "redeals", "moves", "undos", "recycles_total",
                 "seed_rank", "declared", "rules_off", "auto_moved", "status", "rng", "pools",
                 "cards", "_hash")

    def __init__(self, piles: tuple[tuple[int, ...], ...], came_from: tuple[int, ...],
                 recycles: tuple[int, ...], redeals: int = 0, moves: int = 0, undos: int = 0,
                 recycles_total: int = 0, seed_rank: int = 0, declared: tuple[int, ...] = (),
                 rules_off: bool = False, auto_moved: bool = False, status: int = PLAYING,
                 rng: int = 0, pools: tuple[tuple[int, ...], ...] | None = None,
                 cards: tuple[Card, ...] | None = None) -> None:
        self.piles = piles  # per depot: tuple of card codes, bottom first
        self.came_from = came_from  # per depot: depot index its top card last came from, -1 none
        self.recycles = recycles  # per depot: recycles used by that stock
        self.redeals = redeals  # redeals used (shared by all stocks)
        self.moves = moves
        self.undos = undos
        self.recycles_total = recycles_total
        self.seed_rank = seed_rank  # rank set by seedFromDeal, 0 none
        self.declared = declared  # per depot: suit called for a wild top card, -1 none
        self.rules_off = rules_off
        self.auto_moved = auto_moved
        self.status: Status = Status(status)  # the engine stores Status members only
        self.rng = rng  # deterministic generator state for shuffles during play
        self.pools = pools  # only in a view: unseen-card counts per pool
        # the game's card table, only for printing: not part of the position (not in key())
        self.cards = cards
        self._hash: int | None = None

    def key(self) -> tuple:
        """Everything that identifies the position (for equality, hashing and transpositions)."""
        return (self.piles, self.came_from, self.recycles, self.redeals, self.moves, self.undos,
                self.recycles_total, self.seed_rank, self.declared, self.rules_off,
                self.auto_moved, self.status, self.rng, self.pools)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.key() == other.key()

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash(self.key())
        return h

    def copy(self) -> "State":
        # every field spelled out (a new field goes here too): a setattr/getattr loop costs
        # about five times more
        s = _new(State)
        s.piles = self.piles
        s.came_from = self.came_from
        s.recycles = self.recycles
        s.redeals = self.redeals
        s.moves = self.moves
        s.undos = self.undos
        s.recycles_total = self.recycles_total
        s.seed_rank = self.seed_rank
        s.declared = self.declared
        s.rules_off = self.rules_off
        s.auto_moved = self.auto_moved
        s.status = self.status
        s.rng = self.rng
        s.pools = self.pools
        s.cards = self.cards
        s._hash = None
        return s

    def __repr__(self) -> str:
        parts = [Status(self.status).name.lower()]
        for name in ("moves", "undos", "redeals", "recycles_total", "seed_rank"):
            value = getattr(self, name)
            if value:
                parts.append(f"{name}={value}")
        for name in ("rules_off", "auto_moved"):
            if getattr(self, name):
                parts.append(f"{name}=True")
        piles = " | ".join(" ".join(_card_text(c, self.cards) for c in pile) or "-"
                           for pile in self.piles)
        parts.append(f"piles=[{piles}]")
        return f"State({', '.join(parts)})"


_new = object.__new__


def _card_text(code: int, cards: Sequence[Card] | None) -> str:
    """One card code in card notation; an unknown face-down card (negative code) is ``~?``."""
    if code < 0:
        return format_card(None, False)
    if cards is None:
        return ("#" if code & 1 else "~#") + str(code >> 1)
    return format_card(cards[code >> 1], bool(code & 1))
