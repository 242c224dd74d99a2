"""What every planner shares: the interface, budgets, and how a move on a view may turn out.
The measures of a view any game has are in ``cardz_core.planners.measures``.

A planner is made per game by a factory registered through the ``cardz_planners`` hook,
``factory(game, **options) -> Planner``, and asked ``choose(game, view, rng) -> Move | None`` once
per move (None: no legal move). A planner may also report the options it plays with, defaults
filled in, as ``settings() -> dict`` (None for one unset); a run records them. Fair planners are
given views only (``cardz_core.view.View``, made by ``Game.view``); a view holds no face-down
card's identity that the player has not seen, so nothing a planner does with it can read one.
Planners know the game by the ``Game`` only: its moves, ``apply``, ``view``, ``outcomes`` and the
facts it exposes, never its spec or registry.
"""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Iterator, Protocol

import attrs

from cardz_core.engine.moves import IllegalMove, Move
from cardz_core.engine.state import PLAYING
from cardz_core.engine.documents import shown
from cardz_core.limits import PLANNER_MAX_NODES, PLANNER_MAX_SECONDS
from cardz_core.problems import CardzError, is_whole
from cardz_core.view import View, deck_info, pool_counts

if TYPE_CHECKING:
    from cardz_core.engine.game import Game
    from cardz_core.planners.solver import SolveResult

NO_TIME_LIMIT = 3600.0  # seconds a solve may take when only positions bound it

Piles = tuple[tuple[int, ...], ...]


class Planner(Protocol):
    name: str

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None: ...


@attrs.frozen
class Budget:
    """How much thinking one move may take: positions expanded and/or seconds. Node budgets give
    the same choice on every machine; a time budget does not, so prefer nodes for experiments."""

    nodes: int | None = None
    seconds: float | None = None

    def __attrs_post_init__(self) -> None:
        nodes, seconds = self.nodes, self.seconds
        if nodes is not None and not is_whole(nodes, 1, PLANNER_MAX_NODES):
            raise CardzError(f"a planner's node budget is a whole number from 1 to "
                             f"{PLANNER_MAX_NODES}, not {shown(nodes)}", "/nodes")
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                    or not 0 < seconds <= PLANNER_MAX_SECONDS):
            raise CardzError(f"a planner's time budget is more than 0 seconds, at most "
                             f"{PLANNER_MAX_SECONDS:,g}, not {shown(seconds)}", "/seconds")

    def settings(self) -> dict[str, int | float | None]:
        """The budget as a planner's ``settings()`` reports it."""
        return {"nodes": self.nodes, "seconds": self.seconds}


class Clock:
    """Counts a move's expanded positions against its budget."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.deadline: float | None = (None if budget.seconds is None
                                       else time.perf_counter() + budget.seconds)

    def spent(self) -> bool:
        b = self.budget
        if b.nodes is not None and self.nodes >= b.nodes:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline


class Unknown(Exception):
    """Raised by ``refuse_reveal``: the move would turn up a card the view does not know."""


def refuse_reveal(pool: int) -> int:
    """A ``reveal`` callback for moves played on a view that must not turn up unknown cards."""
    raise Unknown


def planner_allowed(game: Game) -> bool:
    """Whether the game lets Cardz's own player play it: ``planner: true/false``, or by default
    only a game written without expressions, triggers or actions."""
    enabled = game.planner_enabled
    if enabled is not None:
        return bool(enabled)
    return not game.uses_expressions


def children(game: Game, view: View, move: Move, rng: random.Random, samples: int
             ) -> list[tuple[float, View]]:
    """The views ``move`` may lead to, weighted (weights sum to 1): the one view of a move that
    turns up nothing; every outcome of a move that turns up one card when no pool holds more than
    ``samples`` different cards; otherwise ``samples`` outcomes drawn by the counts, with equal
    weights, identical views merged."""
    first = game.sample_outcome(view, move, rng)
    if not first.revealed:
        return [(1.0, first.view)]
    if len(first.revealed) == 1 and _widest_pool(game, view) <= samples:
        return [(o.probability, o.view) for o in game.outcomes(view, move)]
    merged: dict[View, float] = {first.view: 1.0}
    for _ in range(samples - 1):
        v = game.sample_outcome(view, move, rng).view
        merged[v] = merged.get(v, 0.0) + 1.0
    return [(w / samples, v) for v, w in merged.items()]


def _widest_pool(game: Game, view: View) -> int:
    """The most different printed cards one pool of the view holds."""
    rows = pool_counts(deck_info(game), view.pools or ())
    return max((sum(1 for n in row if n) for row in rows), default=0)


def faces(game: Game, piles: Piles) -> Piles:
    """``piles`` with each card as its printed face: with two decks, a view played forward and
    the view of the true game may hold a card's two copies the other way round."""
    info = deck_info(game)
    if not info.multi:
        return piles
    face = info.face_of
    return tuple(tuple(c if c < 0 else face[c >> 1] << 1 | c & 1 for c in p) for p in piles)


def goes_on(game: Game, plan: list[tuple[Piles, Move]], view: View) -> bool:
    """Whether ``plan``'s next move is to be played from ``view``: its board (as ``faces``) is
    the view's."""
    return bool(plan) and plan[0][0] == faces(game, view.piles)


def follow(game: Game, view: View, line: list[Move], through_reveal: bool
           ) -> list[tuple[Piles, Move]]:
    """A solved line as (piles before, as ``faces``, move) pairs, played from ``view`` for as
    long as the view knows every card it uses: up to its first move that turns up an unknown
    card, that move included when ``through_reveal`` or when it is the first (past it the view
    knows what the sample made up). A move legal only with the sample's cards ends the plan."""
    plan: list[tuple[Piles, Move]] = []
    v = view
    for move in line:
        try:
            after = game.apply(v, move, reveal=refuse_reveal)
        except Unknown:
            if through_reveal or not plan:
                plan.append((faces(game, v.piles), move))
            break
        except IllegalMove:  # legal only with the sample's cards: think again there
            break
        plan.append((faces(game, v.piles), move))
        v = after
        if v.status != PLAYING:
            break
    return plan


def ballot(moves: list[Move], results: Iterator[SolveResult], n: int) -> list[Move]:
    """The line to play after ``n`` deals drawn from one view were solved (``results``): the
    first moves of the wins found are votes, and the line is the first win of the move with the
    most votes (ties to the move listed first in ``moves``); empty when nothing won. Once the
    leader's lead cannot be overturned by the deals left, the rest are not solved."""
    votes: dict[Move, int] = {}
    lines: dict[Move, list[Move]] = {}
    for i, found in enumerate(results):
        if found.result == "won" and found.line and found.line[0] in moves:
            first = found.line[0]
            votes[first] = votes.get(first, 0) + 1
            lines.setdefault(first, found.line)
            if _settled(votes, n - 1 - i):
                break  # the samples left cannot change the vote: solving them is waste
    if not votes:
        return []
    return lines[max(moves, key=lambda m: votes.get(m, 0))]  # max keeps the first of equals


def _settled(votes: dict[Move, int], left: int) -> bool:
    """Whether the leading move keeps the most votes whatever the ``left`` samples still to be
    solved vote for (a tie could go to a move listed earlier, so the lead must exceed them)."""
    top = sorted(votes.values(), reverse=True)
    return top[0] - (top[1] if len(top) > 1 else 0) > left
