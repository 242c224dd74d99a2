"""``expectimax``: depth-limited expectimax over views, with chance nodes from the deck model.

Max nodes are the player's choices (legal moves on a view); chance nodes are a move's outcomes.
At the root every move is valued over its outcomes: all of them when a move turns up one card and
no pool holds more than ``samples`` different cards, otherwise ``samples`` outcomes drawn by the
counts. Below the root each move is played in one sampled outcome, and only the ``width`` most
promising moves (by ``usual``'s score) are searched further, which keeps a small budget deep
enough to see two- and three-move combinations. Values are kept in a transposition table keyed
by (view, depth left). The search deepens iteratively (depth 1, 2, ...) until the per-move budget
(positions generated, or seconds) runs out, and plays the best move of the deepest search it
finished; depth 1 always finishes.

Leaves are valued by the game's ``planner.value`` when it has one; otherwise by measures any game
has: cards on foundation-role depots, face-down cards of the play area still to turn up, cards
still waiting in the stock, waste or reserves, empty tableau piles and cells, and mobility (the
number of legal moves). Like ``usual``, it charges a move back to a board it has been on in this
game and refuses one past ``MAX_VISITS`` visits; at the root it breaks ties by ``usual``'s score.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from cardz_core.engine.state import State
from cardz_core.limits import PLANNER_DEFAULT_NODES
from cardz_core.planners.base import (Budget, Clock, children, empty_spaces, hidden_cards,
                                      home_cards, roles, terminal_value)
from cardz_core.planners.usual import MAX_VISITS, REVISIT_COST, Visited, move_score
from cardz_core.view import sample_outcome

HOME_WEIGHT = 100.0
HIDDEN_WEIGHT = 30.0
EMPTY_WEIGHT = 10.0
MOBILITY_WEIGHT = 1.0
FEED_WEIGHT = 4.0  # per card still in the stock, waste or a reserve
CHANCE_SAMPLES = 3  # outcomes drawn for a root move that turns up unknown cards
WIDTH = 5  # moves searched below the root, the best by usual's score
MAX_DEPTH = 6
STEP_COST = 0.5  # each move costs a little: the same gain sooner is worth more


def default_value(game: Any, v: State) -> float:
    """The leaf value of a view for any game, higher is closer to a win."""
    r = roles(game)
    waiting = sum(len(p) for p, f in zip(v.piles, r.feeds) if f)
    return (HOME_WEIGHT * home_cards(r, v) - HIDDEN_WEIGHT * hidden_cards(r, v)
            + EMPTY_WEIGHT * empty_spaces(r, v) - FEED_WEIGHT * waiting
            + MOBILITY_WEIGHT * len(game.legal_moves(v)))


class _OutOfBudget(Exception):
    pass


class ExpectimaxPlanner:
    name = "expectimax"

    def __init__(self, game: Any, nodes: int | None = None, seconds: float | None = None,
                 depth: int = MAX_DEPTH, samples: int = CHANCE_SAMPLES, width: int = WIDTH,
                 **_options: Any) -> None:
        if nodes is None and seconds is None:
            nodes = PLANNER_DEFAULT_NODES
        self.budget = Budget(nodes, seconds)
        self.max_depth = depth
        self.samples = samples
        self.width = width
        self.visited = Visited()
        if game.spec.planner.value is not None:
            from cardz_core.planners.value import value_function

            self.leaf: Callable[[State], float] = value_function(game)
        else:
            self.leaf = lambda v: default_value(game, v)

    def choose(self, game: Any, view: State, rng: random.Random) -> Any:
        self.visited.note(view)
        moves = game.legal_moves(view)
        if not moves:
            return None
        clock = Clock(self.budget)
        table: dict[tuple[State, int], float] = {}
        # the root's chance children are drawn once and shared by every depth
        roots: list[tuple[Any, float, list[tuple[float, State]]]] = []
        r = roles(game)
        for move in moves:
            if r.pointless(view, move):
                continue
            kids = children(game, view, move, rng, self.samples)
            clock.nodes += len(kids)
            seen = min(self.visited.visits(v) for _, v in kids)
            if seen >= MAX_VISITS:
                continue
            tie = move_score(game, view, kids[0][1], move) * 1e-6 - REVISIT_COST * seen
            roots.append((move, tie, kids))
        if not roots:
            return None
        best = self._search(game, roots, 1, table, clock, rng)
        for depth in range(2, self.max_depth + 1):
            if clock.spent():
                break
            try:
                best = self._search(game, roots, depth, table, clock, rng)
            except _OutOfBudget:
                break
        return best

    def _search(self, game: Any, roots: list, depth: int, table: dict, clock: Clock,
                rng: random.Random) -> Any:
        best_move, best_value = None, None
        for move, tie, kids in roots:
            value = tie + sum(w * self._value(game, v, depth - 1, table, clock, rng)
                              for w, v in kids)
            if best_value is None or value > best_value:
                best_move, best_value = move, value
        return best_move

    def _value(self, game: Any, v: State, depth: int, table: dict, clock: Clock,
               rng: random.Random) -> float:
        end = terminal_value(v.status)
        if end is not None:
            return end
        key = (v, depth)
        hit = table.get(key)
        if hit is not None:
            return hit
        if depth <= 0:
            value = self.leaf(v)
        else:
            if clock.spent():
                raise _OutOfBudget
            value = None
            r = roles(game)
            # every move's outcome first (one sampled world below the root), then only the
            # ``width`` most promising by usual's score are searched deeper; a move that turns
            # up unknown cards is valued where it lands: searching on from one sampled card
            # would favour the moves whose sample happened to be lucky
            branches = []
            for move in game.legal_moves(v):
                if r.pointless(v, move):
                    continue
                o = sample_outcome(game, v, move, rng)
                clock.nodes += 1
                if o.view.piles != v.piles:  # a futile tap is not worth searching
                    branches.append((move_score(game, v, o.view, move), len(branches), o))
            branches.sort(key=lambda b: (-b[0], b[1]))
            for _, _, o in branches[:self.width]:
                if o.revealed:
                    end = terminal_value(o.view.status)
                    q = end if end is not None else self.leaf(o.view)
                else:
                    q = self._value(game, o.view, depth - 1, table, clock, rng)
                q -= STEP_COST
                if value is None or q > value:
                    value = q
            if value is None:
                value = self.leaf(v)
        table[key] = value
        return value
