"""Card identities and the card notation of the public contract.

Inside the engine a card on a pile is one small int, its *code*: ``card_id << 1 | face_up``.
``card_id`` indexes the game's card table (see ``CardTable``). In a player's view a face-down
card whose identity is unknown has a negative code: ``UNKNOWN_BASE - 2 * pool`` (always even,
so its face bit reads 0), where ``pool`` says which pool of unseen cards it was dealt from.
"""

from __future__ import annotations

import attrs

JOKER_RANK = 0
NO_SUIT = -1
RANK_LETTERS = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS = ("Joker", "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
              "Ten", "Jack", "Queen", "King")
SUIT_LETTERS = ("C", "D", "H", "S")
SUIT_WORDS = ("Clubs", "Diamonds", "Hearts", "Spades")
COLOR_WORDS = ("Black", "Red")
RED = 1
BLACK = 0
SUIT_COLOR = (BLACK, RED, RED, BLACK)
UNKNOWN_BASE = -2  # code of an unknown face-down card from pool 0

_RANK_BY_TEXT: dict[str, int] = {}
for _r in range(1, 14):
    _RANK_BY_TEXT[RANK_LETTERS[_r].lower()] = _r
    _RANK_BY_TEXT[RANK_WORDS[_r].lower()] = _r
_RANK_BY_TEXT["t"] = 10
_RANK_BY_TEXT["1"] = 1
_SUIT_BY_TEXT: dict[str, int] = {}
for _s in range(4):
    _SUIT_BY_TEXT[SUIT_LETTERS[_s].lower()] = _s
    _SUIT_BY_TEXT[SUIT_WORDS[_s].lower()] = _s
    _SUIT_BY_TEXT[SUIT_WORDS[_s][:-1].lower()] = _s  # "Heart"


def parse_rank(text: object) -> int | None:
    """A rank word or letter (``Ace``, ``A``, ``10``, ``T``, ``King``) to 1..13; None if not a rank."""
    if isinstance(text, bool):
        return None
    if isinstance(text, int):
        return text if 1 <= text <= 13 else None
    if not isinstance(text, str):
        return None
    return _RANK_BY_TEXT.get(text.strip().lower())


def parse_suit(text: object) -> int | None:
    """A suit word or letter to 0..3 (C D H S); None if not a suit."""
    if not isinstance(text, str):
        return None
    return _SUIT_BY_TEXT.get(text.strip().lower())


@attrs.frozen
class Card:
    """A card's printed identity: rank 1..13 and suit 0..3, or a joker (rank 0, suit -1)."""

    rank: int
    suit: int

    @property
    def joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def color(self) -> int | None:
        return None if self.joker else SUIT_COLOR[self.suit]

    def __str__(self) -> str:
        return "JK" if self.joker else RANK_LETTERS[self.rank] + SUIT_LETTERS[self.suit]


JOKER = Card(JOKER_RANK, NO_SUIT)


def parse_card(text: str) -> tuple[Card | None, bool]:
    """Parse ``AS``, ``10H``, ``TD``, ``JK``, ``Joker``, ``~QS`` or ``~?``.

    Returns ``(card, face_up)``; ``card`` is None for ``~?``. Raises ValueError naming the text.
    """
    if not isinstance(text, str):
        raise ValueError(f"a card is written as text like 'AS' or '~QS', not {text!r}")
    t = text.strip()
    face_up = True
    if t.startswith("~"):
        face_up = False
        t = t[1:].strip()
        if t == "?":
            return None, False
    low = t.lower()
    if low in ("jk", "joker"):
        return JOKER, face_up
    if len(t) >= 2:
        rank = _RANK_BY_TEXT.get(low[:-1])
        suit = _SUIT_BY_TEXT.get(low[-1])
        if rank is not None and suit is not None:
            return Card(rank, suit), face_up
    raise ValueError(f"{text!r} is not a card: write rank then suit letter, like 'AS', '10H' or 'JK'")


def format_card(card: Card | None, face_up: bool) -> str:
    """The contract's notation: ``AS``, ``~QS``, or ``~?`` for an unknown face-down card."""
    if card is None:
        return "~?"
    return str(card) if face_up else "~" + str(card)


def code(card_id: int, face_up: bool) -> int:
    return card_id << 1 | int(face_up)


def card_id_of(c: int) -> int:
    return c >> 1


def is_face_up(c: int) -> bool:
    return bool(c & 1)


def unknown_code(pool: int) -> int:
    return UNKNOWN_BASE - 2 * pool


def unknown_pool(c: int) -> int:
    return (UNKNOWN_BASE - c) // 2
