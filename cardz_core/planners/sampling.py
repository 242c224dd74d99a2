"""``sampling``: the perfect-information solver playing on views (docs/planners.md).

Each time it must think, the planner deals ``deals`` true positions the view may stand for
(``cardz_core.view.sample_deal``: the unknown cards in a random order of their pools) and asks
the solver (docs/solver.md) for a win in each, with an equal share of the node budget. The first
moves of the wins found are votes; the move with most votes is played, and after it the rest of
the winning line of the first sample that chose it, for as long as its moves turn up no unknown
card (until then the view holds nothing the line did not know). Ties go to the move listed first.
Once the leading move is ahead of the next by more votes than there are deals left, the rest are
not solved: they could not change what is played.
With no win found (early in a deal the share of the budget is often too small for a proof)
it asks ``expectimax``, with the same budget, and follows that planner's line while it lasts.
The budget unless told otherwise is ``PLANNER_DEFAULT_NODES``, or in a game the solver searches
on the one-way model (Golf) ``SAMPLING_ONE_WAY_NODES``: there a drawn deal is solved at millions
of positions a second but needs tens of thousands, and a smaller share proves nothing.
A view with no unknown cards is one deal, solved with the whole budget: a win is played out to
the end, and a proved loss gives up (None).

The solver reads only the sampled deal, never the true one, so the planner is fair; it is the
classic "perfect-information Monte Carlo" player, which overrates moves that only win when the
player can see every card (it never chooses to turn a card up to learn it).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Iterator

from cardz_core.engine.moves import Move
from cardz_core.engine.state import PLAYING
from cardz_core.limits import (PLANNER_DEFAULT_NODES, PLANNER_MAX_DEALS, SAMPLING_ONE_WAY_NODES,
                               SOLVE_DEFAULT_STATES)
from cardz_core.planners.base import NO_TIME_LIMIT, Budget, Piles, ballot, follow, goes_on
from cardz_core.planners.expectimax import ExpectimaxPlanner
from cardz_core.planners.solver import SolveResult, one_way_game, solve
from cardz_core.problems import CardzError, is_whole
from cardz_core.view import View, holds_unknown, sample_deal

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

DEALS = 8  # deals sampled and solved per decision


class SamplingPlanner:
    name = "sampling"

    def __init__(self, game: Game, nodes: int | None = None, seconds: float | None = None,
                 deals: int = DEALS, **_options: Any) -> None:
        if nodes is None and seconds is None:
            nodes = SAMPLING_ONE_WAY_NODES if one_way_game(game) else PLANNER_DEFAULT_NODES
        self.budget = Budget(nodes, seconds)
        if not is_whole(deals, 1, PLANNER_MAX_DEALS):
            raise CardzError(f"the sampling planner solves 1 to {PLANNER_MAX_DEALS} deals per "
                             f"decision, not {deals}")
        self.deals = deals
        self.fallback = ExpectimaxPlanner(game, nodes=nodes, seconds=seconds)
        self.analysis = self.fallback.an  # the solver's per-game tables, made once per game
        self.plan: list[tuple[Piles, Move]] = []  # (piles the move is played from, move)

    def settings(self) -> dict[str, Any]:
        """The options this planner plays with, defaults filled in (a run's record of them)."""
        return {**self.budget.settings(), "deals": self.deals}

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None:
        if goes_on(game, self.plan, view):
            return self.plan.pop(0)[1]
        self.plan = []
        if goes_on(game, self.fallback.plan, view):
            return self.fallback.choose(game, view, rng)  # a line it chose is still being played
        if view.status != PLAYING:
            return None
        moves = game.legal_moves(view)
        if not moves:
            return None
        hidden = holds_unknown(view)
        n = self.deals if hidden else 1
        ended: list[str] = []

        def solved() -> Iterator[SolveResult]:
            for _ in range(n):
                # with nothing hidden, the view as a true position
                found = solve(game, sample_deal(game, view, rng), analysis=self.analysis,
                              klondike_model=False, **self._share(n))
                ended.append(found.result)
                yield found

        line = ballot(moves, solved(), n)
        if not hidden and ended == ["lost"]:
            return None  # every card is known and no line wins
        if not line:
            return self.fallback.choose(game, view, rng)
        self.plan = follow(game, view, line, through_reveal=True)
        return self.plan.pop(0)[1]

    def following(self, game: Game, view: View) -> bool:
        """Whether a line this planner (or its fallback) chose goes on from ``view``."""
        return any(goes_on(game, p.plan, view) for p in (self, self.fallback))

    def _share(self, n: int) -> dict[str, Any]:
        """One sample's solver budget: an equal share of the nodes and of the seconds."""
        b = self.budget
        return {"max_states": max(1, b.nodes // n) if b.nodes is not None else SOLVE_DEFAULT_STATES,
                "timeout": b.seconds / n if b.seconds is not None else NO_TIME_LIMIT}
