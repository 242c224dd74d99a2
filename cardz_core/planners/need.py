"""When each card can go home, and where a card dropped on a pile that takes any card blocks it.

In games with waste piles that take any card and give back only their top (Calculation, Sir
Tommy), the whole game is where each card is put: a card laid on one that a foundation needs
sooner buries it until the later card has gone home. A card's *need* is how many cards some
foundation must take before it could take this one, read off the foundations' accept tables
(their build and seed) from the tops they have now. Laying a card on a top that is needed later
is sound; of those, the top needed soonest after it keeps the pile in the order it will unwind
(the players' rule for Calculation); a block is the last resort, on the top needed latest.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cardz_core.engine.moves import Move
from cardz_core.engine.state import State

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

FIT_COST = 0.1  # at most, for a fit with the widest gap (or an empty pile)
BLOCK_COST = 0.2  # every block, below every fit
BLOCK_DEPTH_COST = 0.1  # at most, for a block of the card needed next


class NeedOrder:
    """A game's foundations and its piles that take any card on any top (the dumps)."""

    def __init__(self, game: Game) -> None:
        roles = game.roles
        self.game = game
        self.homes = tuple(d for d, r in enumerate(roles) if r == "foundation")
        self.dumps = frozenset(
            d for d, (r, acc) in enumerate(zip(roles, game.accepts))
            if r != "foundation" and not acc.none and not acc.empty_only and acc.rel is None
            and acc.rank_is is None and acc.when is None and game.draws[d] is None
        ) if self.homes else frozenset()
        self.levels = 2 * len(game.identity)  # past any need a chain can have

    def needs(self, state: State) -> dict[int, int]:
        """For each face-up card code some foundation could take, the fewest cards any
        foundation must take first (0: it could go home now)."""
        out: dict[int, int] = {}
        accepts = self.game.accepts
        for f in self.homes:
            acc, pile = accepts[f], state.piles[f]
            if pile and not pile[-1] & 1:
                continue  # a face-down top: nothing to follow from
            front = acc.on_top.get(pile[-1], frozenset()) if pile else acc.on_empty(state.seed_rank)
            seen: set[int] = set()
            level = 0
            while front:
                for code in front:
                    if out.get(code, self.levels) > level:
                        out[code] = level
                seen |= front
                level += 1
                front = frozenset().union(*(acc.on_top.get(c, frozenset()) for c in front)) - seen
        return out

    def cost(self, state: State, move: Move, needs: dict[int, int]) -> float:
        """What laying ``move``'s cards on a dump costs, in (-0.3, 0]: 0 off a dump."""
        if move.dst not in self.dumps or move.index < 0:
            return 0.0
        card = state.piles[move.src][move.index]
        pile = state.piles[move.dst]
        levels = self.levels
        if not pile or not pile[-1] & 1:
            return -FIT_COST
        mine, under = needs.get(card, levels), needs.get(pile[-1], levels)
        if mine <= under:
            return -FIT_COST * (under - mine) / levels
        return -BLOCK_COST - BLOCK_DEPTH_COST * (1 - under / levels)


def need_order(game: Game) -> NeedOrder:
    """The game's ``NeedOrder``, made once per game."""
    return game.derive(NeedOrder)
