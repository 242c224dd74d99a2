"""Whether two variants of a game deal the same deals, so that their games can be paired.

Two variants are compared on a deal when they open it the same way: for the same deal seed, every
depot holding cards at the deal has the same name in both and holds the same cards (by name:
``AS``; the copies of a card in a several-pack game are alike), in the same order, facing the
same way. Depots empty at the deal do not count, so a variant that adds a free cell, changes
a foundation's rules or allows one more recycle still deals the same deals; one that deals
another column, removes a card or turns a card face up does not.

This is checked on every deal played, not assumed from the files: each row carries its
opening's key (``opening_key``), and the summary pairs two variants on the deals whose keys
agree. Variants whose keys agree on no deal are compared unpaired (``opening_difference`` says
why on the first deal where they differ).
"""

from __future__ import annotations

import hashlib
from typing import Any

from cardz_core.engine.state import State

KEY_HEX = 16  # the key's length in hex digits: 64 bits, so that unequal openings never agree


def opening(game: Any, state: State) -> dict[str, tuple[str, ...]]:
    """The dealt position as the comparison sees it: depot name -> its cards bottom first,
    ``~`` before a face-down one; depots without cards left out."""
    names = game.depot_names
    cards = game.identity
    return {names[d]: tuple(("" if c & 1 else "~") + str(cards[c >> 1]) for c in pile)
            for d, pile in enumerate(state.piles) if pile}


def opening_key(game: Any, state: State) -> str:
    """A short hex digest of ``opening(game, state)``, equal for openings that are the same."""
    piles = sorted(opening(game, state).items())
    text = "\n".join(f"{name}:{' '.join(pile)}" for name, pile in piles)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:KEY_HEX]


def opening_difference(a: Any, name_a: str, b: Any, name_b: str, seed: int) -> str | None:
    """Why variants ``a`` and ``b`` do not open the deal ``seed`` the same way, in words naming
    the first depot that differs, in ``a``'s order (None when they do)."""
    first, second = opening(a, a.deal(seed)), opening(b, b.deal(seed))
    for depot in [*first, *(d for d in second if d not in first)]:
        x, y = first.get(depot), second.get(depot)
        if x == y:
            continue
        if x is None or y is None:
            missing, having, pile = (name_a, name_b, y) if x is None else (name_b, name_a, x)
            assert pile is not None  # one of the two holds the depot
            return f"{having} deals {_cards(len(pile))} to {depot}, {missing} deals none there"
        if len(x) != len(y):
            return f"{name_a} deals {_cards(len(x))} to {depot}, {name_b} deals {len(y)}"
        at = next(i for i, (u, v) in enumerate(zip(x, y)) if u != v)
        return (f"{depot} card {at + 1} from the bottom is {x[at]} in {name_a}, {y[at]} in "
                f"{name_b}")
    return None


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"
