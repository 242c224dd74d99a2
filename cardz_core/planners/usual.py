"""``usual``: Cardz's usual choices, as a one-move heuristic for games written in fixed fields.

Each legal move is tried once on the view (an unknown card it turns up is drawn by the counts)
and scored by what it did: cards sent to a foundation-role depot first, then face-down cards of
the play area turned up, depots emptied, and a tap on the stock when nothing else helps. A move
that plays a card from the stock, waste or a reserve into the tableau scores above a tap; one that
takes a card off a foundation, or one that only shuffles cards between piles, scores below.

The planner remembers the boards it has been on in this game: a move back to one costs more each
time and is not made at all past ``MAX_VISITS`` visits. Passing through an unchanged stock again is
allowed a few times, since in a draw-3 game a later pass can group the cards differently once the
tableau has changed; endless shuttles end. When every move is excluded it gives up (None).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardz_core.engine.moves import Move
from cardz_core.engine.state import State
from cardz_core.planners.measures import (empty_spaces, hidden_cards, home_cards, roles,
                                          terminal_value)
from cardz_core.view import View

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

HOME_WEIGHT = 100.0
REVEAL_WEIGHT = 40.0
EMPTY_WEIGHT = 12.0
TAP_SCORE = 1.0
SHUFFLE_SCORE = -1.0  # a move that changes nothing the measures see
FEED_SCORE = 5.0  # a card from the stock, waste or a reserve played into the tableau
CELL_PENALTY = 3.0  # filling a free cell or empty column without gaining anything
REVISIT_COST = 3.0  # per earlier visit of the board a move leads to
MAX_VISITS = 3  # a board visited this often is not gone back to


class Visited:
    """Boards (piles only) a planner has been on during one game, and how often."""

    def __init__(self) -> None:
        self.boards: dict[tuple[tuple[int, ...], ...], int] = {}
        self.last_moves = -1

    def note(self, view: View) -> None:
        if view.moves < self.last_moves:  # an undo or a new game: start again
            self.boards.clear()
        self.last_moves = view.moves
        self.boards[view.piles] = self.boards.get(view.piles, 0) + 1

    def visits(self, view: State) -> int:
        return self.boards.get(view.piles, 0)


def move_score(game: Game, before: State, after: State, move: Move) -> float:
    """How much one move did, by the measures any game has."""
    end = terminal_value(after.status)
    if end is not None:
        return end
    r = roles(game)
    home = home_cards(r, after) - home_cards(r, before)
    revealed = hidden_cards(r, before) - hidden_cards(r, after)
    emptied = empty_spaces(r, after) - empty_spaces(r, before)
    score = HOME_WEIGHT * home + REVEAL_WEIGHT * revealed + EMPTY_WEIGHT * emptied
    if move.index < 0:  # a tap
        return score + TAP_SCORE if score >= 0 else score
    if home == 0 and revealed == 0 and emptied <= 0:
        if r.feeds[move.src] and r.tableau[move.dst]:
            score += FEED_SCORE  # a card out of the stock's way into play
        else:
            score += SHUFFLE_SCORE
            if emptied < 0 or r.cells[move.dst]:
                score -= CELL_PENALTY
    # among equals, work on the pile with the most face-down cards under the picked card
    src = before.piles[move.src]
    score += 0.01 * sum(1 for c in src[:move.index] if not c & 1)
    return score


class UsualPlanner:
    name = "usual"

    def __init__(self, game: Game, **_options: Any) -> None:
        self.visited = Visited()

    def ranked(self, game: Game, view: View, rng: random.Random
               ) -> list[tuple[float, int, Move]]:
        """(score, order, move) for every legal move that does not lead back, best first."""
        self.visited.note(view)
        r = roles(game)
        out = []
        for i, move in enumerate(game.legal_moves(view)):
            if r.pointless(view, move):
                continue
            after = game.sample_outcome(view, move, rng).view
            seen = self.visited.visits(after)
            if seen >= MAX_VISITS:
                continue
            out.append((move_score(game, view, after, move) - REVISIT_COST * seen, i, move))
        out.sort(key=lambda t: (-t[0], t[1]))
        return out

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None:
        ranked = self.ranked(game, view, rng)
        return ranked[0][2] if ranked else None
