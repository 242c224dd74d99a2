"""Building positions for engine tests from card notation, and reading piles back."""

from __future__ import annotations

from cardz_core.cards import format_card, parse_card
from cardz_core.engine import State


def board(g, piles: dict, **fields) -> State:
    """A position from card notation; cards not listed are simply not on the board."""
    used: set[int] = set()
    out = [()] * g.n_depots
    for name, cards in piles.items():
        codes = []
        for text in cards:
            card, up = parse_card(text)
            cid = next(i for i, c in enumerate(g.identity) if c == card and i not in used)
            used.add(cid)
            codes.append(cid << 1 | up)
        out[g.depot_index[name]] = tuple(codes)
    n = g.n_depots
    state = State(tuple(out), (-1,) * n, (0,) * n, declared=(-1,) * n)
    for key, value in fields.items():
        setattr(state, key, value)
    return state


def pile(g, state, name) -> list[str]:
    """Depot ``name``'s cards in notation, bottom first."""
    return [format_card(g.identity[c >> 1], bool(c & 1)) for c in state.piles[g.depot_index[name]]]
