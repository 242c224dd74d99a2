"""What planners measure on a view of any game: what each depot is for (its type's role), the
cards on foundations, the face-down cards still to turn up, the empty spaces, the value of an
ended game, and the default leaf value made of them. Every planner reads these from here.

The roles come from ``Game.roles`` (each depot type declares its role), never from type names,
so a plugin depot type with a builtin role is measured like the builtin one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Hashable

from cardz_core.engine.moves import Move
from cardz_core.engine.state import LOST, WON, State
from cardz_core.solver.analysis import analysis_of
from cardz_core.solver.programs import RuleReads

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

WIN_VALUE = 1_000_000.0
LOSS_VALUE = -1_000_000.0

# the default leaf value's weights
HOME_WEIGHT = 40.0
HIDDEN_WEIGHT = 30.0
EMPTY_WEIGHT = 10.0
MOBILITY_WEIGHT = 1.0
FEED_WEIGHT = 4.0  # per card still in the stock, waste or a reserve


class Roles:
    """Per depot, what its type is for (``DepotType.role``), and the facts measures use."""

    def __init__(self, game: Game) -> None:
        self.role = game.roles
        self.home = tuple(r == "foundation" for r in self.role)
        # depots whose face-down cards are "to be revealed": not the stock/waste a player draws from
        self.hidden = tuple(r not in ("stock", "waste") and draw is None
                            for r, draw in zip(self.role, game.draws))
        self.tableau = tuple(r == "tableau" for r in self.role)
        self.cells = tuple(r == "cell" for r in self.role)
        # depots a card leaves to come into play: the stock's draw target, waste, reserves
        self.feeds = tuple(r in ("stock", "waste", "reserve") for r in self.role)
        # Copies of a repeated tableau or cell depot are interchangeable (moving a whole pile
        # from one to an empty other changes nothing) in a game written in fixed fields, and,
        # as a planner's guess (not the solver's proof), in one whose expressions neither name
        # the copy nor belong to it (Penguin's cells, beside its foundations' expression).
        # Other depots are where the solver's analysis proves them so (its symmetry classes:
        # Four Seasons' cross, Indian's columns with their own expression).
        group_of: dict[int, Hashable] = {d: k for k, cl in enumerate(analysis_of(game).classes)
                                         for d in cl}
        told_apart: set[int] = set()
        if game.uses_expressions:
            reads = RuleReads(game.compiled)
            told_apart = reads.named | {ref.self_depot for ref in reads.refs}
        group_of.update({d: g for g, ds in game.groups.items() for d in ds if d not in told_apart})
        self.swap_group: tuple[Hashable, ...] = tuple(
            group_of.get(d) if r in ("tableau", "cell") else None for d, r in enumerate(self.role))

    def pointless(self, state: State, move: Move) -> bool:
        """A whole pile moved to an empty interchangeable depot: the same board, relabelled."""
        g = self.swap_group[move.src] if move.index == 0 else None
        return g is not None and g == self.swap_group[move.dst] and not state.piles[move.dst]


def roles(game: Game) -> Roles:
    """The game's ``Roles``, made once per game (``Game.derive``)."""
    return game.derive(Roles)


def home_cards(r: Roles, v: State) -> int:
    """Cards on foundation-role depots."""
    return sum(len(p) for p, h in zip(v.piles, r.home) if h)


def hidden_cards(r: Roles, v: State) -> int:
    """Face-down cards still to be turned up in the play area."""
    return sum(1 for p, h in zip(v.piles, r.hidden) if h for c in p if not c & 1)


def empty_spaces(r: Roles, v: State) -> int:
    """Empty tableau piles and cells."""
    return sum(1 for p, t, c in zip(v.piles, r.tableau, r.cells) if (t or c) and not p)


def terminal_value(status: int) -> float | None:
    """The value of an ended game (won or lost); None while it is being played."""
    if status == WON:
        return WIN_VALUE
    if status == LOST:
        return LOSS_VALUE
    return None


def default_value(game: Game, v: State) -> float:
    """The leaf value of a view for any game, higher is closer to a win: cards home, face-down
    cards of the play area still to turn up, cards still waiting in the stock, waste or
    reserves, empty spaces, and mobility (the number of legal moves)."""
    r = roles(game)
    waiting = sum(len(p) for p, f in zip(v.piles, r.feeds) if f)
    return (HOME_WEIGHT * home_cards(r, v) - HIDDEN_WEIGHT * hidden_cards(r, v)
            + EMPTY_WEIGHT * empty_spaces(r, v) - FEED_WEIGHT * waiting
            + MOBILITY_WEIGHT * len(game.legal_moves(v)))
