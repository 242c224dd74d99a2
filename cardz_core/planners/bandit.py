"""``bandit``: determinized solving of each candidate move, with samples shared out among the
moves by successive halving (docs/planners.md).

Each time it must choose, the planner looks at the distinct legal moves of the view (moves that
lead to the same view up to the solver's symmetry count once, as do moves that turn a card up by
taking the same cards to interchangeable depots holding the same pile; a whole pile moved to an
empty copy of its depot is left out, and so is a move back to a board this game has been on, so
that play cannot circle). Each round deals a few true positions the view may stand for
(``cardz_core.view.sample_deal``), plays every move still in the running on each of them, and
asks the solver (docs/solver.md) whether the child position is won, lost or unknown within a
small share of the node budget. The same deals serve every move of a round, so the moves are
compared on equal luck. After each round the better half of the moves (by their estimated win
share so far) goes on to the next, so the promising moves get most of the samples: successive
halving, a fixed-budget best-arm rule (Karnin, Koren and Somekh, 2013), chosen over UCB1
because the number of solves it makes is known before it starts, so each solve's share of the
node budget is too. A move's estimated win share counts an unknown answer as ``unknown`` of a win.

The move with the best estimate is played; then (``lines``, the default) the rest of the
winning line that one of its samples found, for as long as the line turns up no unknown card
(until then the view knows every card the line uses), and not the next move that does: every
move that turns a card up is chosen by a new round of samples. Such a line was chosen knowing
the sample's hidden cards, and on Klondike draw 3 deal 6 a move of it lost a won deal;
``lines=False`` chooses every move by samples instead, a decision (and its solves) per move. The solver's analysis proves some moves safe (a card no
other pile could use, onto its foundation); those are played without sampling.

The planner gives up (None) only when every candidate has been proved lost on ``resign`` deals
(8 by default): successive halving gives the moves it drops early few samples, so when every
sample was lost each move is tried on new deals until it has that many, and the first one not
proved lost on one of them is played. A "lost" answer is a proof on its deal, so the rule gives
up on a board only when the deals it stands for are lost with every move, which is rare for a
board that is still won. Where no sample of any move was won (early in a deal, when the share of
the budget is too small for the solver), the move proved lost least often is played when that
is one move; when the samples do not tell the best moves apart, ``expectimax`` breaks the tie
for this one move (its line is not followed: the next move is sampled again), and where it gives
up the planner still plays the best-ranked move. A view with nothing hidden is solved once with
the whole budget, as ``sampling`` does.

Why the children and not the root: a solver that sees every card chooses its own first move
knowing what it will turn up. Solving the position after each candidate move makes the move
itself a choice made without that knowledge, so a move that only wins for some of the deals the
view stands for is valued by how many. Past that first move every sampled solve still plays as
if it could see all the cards (strategy fusion), which the planner limits by thinking again at
every move that turns a card up (or at every move, ``lines=False``).

Everything is reproducible from the ``rng`` given to ``choose`` and the node budgets; ``seconds``
is an optional cap (not reproducible across machines).
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, Hashable

import attrs

from cardz_core.engine.moves import Move
from cardz_core.engine.state import PLAYING, WON, State
from cardz_core.limits import BANDIT_MAX_SAMPLES, SOLVE_DEFAULT_STATES
from cardz_core.planners.base import (NO_TIME_LIMIT, Budget, Piles, Unknown, follow, goes_on,
                                     refuse_reveal)
from cardz_core.planners.measures import roles
from cardz_core.planners.sampling import SamplingPlanner
from cardz_core.planners.solver import solve
from cardz_core.planners.usual import Visited
from cardz_core.problems import CardzError, is_whole
from cardz_core.view import View, holds_unknown, sample_deal

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

SAMPLES = 64  # child solves per decision, all moves together
NODES = 16_000  # positions per decision, shared equally among the solves
UNKNOWN_SHARE = 0.5  # what an unknown answer counts for in a move's estimated win share
RESIGN_SAMPLES = 8  # deals on which every move must be proved lost before the planner gives up


@attrs.define
class Arm:
    """One candidate move and what its sampled children gave."""

    move: Move
    order: int  # its place among the legal moves (ties go to the first)
    won: int = 0
    lost: int = 0
    unknown: int = 0
    line: list[Move] | None = None  # the move and a winning line after it, from its first win

    @property
    def tried(self) -> int:
        return self.won + self.lost + self.unknown

    def estimate(self, unknown_share: float) -> float:
        """The estimated win share of the move (0 before any sample)."""
        n = self.tried
        return (self.won + unknown_share * self.unknown) / n if n else 0.0


def schedule(arms: int, samples: int) -> list[tuple[int, int]]:
    """Successive halving's rounds for ``arms`` moves and about ``samples`` solves: (moves in
    the round, samples per move), each round keeping the better half (rounded up). Every move
    is tried at least once, so with fewer samples than moves the first round takes more."""
    rounds = max(1, math.ceil(math.log2(arms))) if arms > 1 else 1
    out = []
    alive = arms
    for _ in range(rounds):
        out.append((alive, max(1, samples // (alive * rounds))))
        alive = math.ceil(alive / 2)
    return out


class BanditPlanner:
    name = "bandit"

    def __init__(self, game: Game, nodes: int | None = None, seconds: float | None = None,
                 samples: int = SAMPLES, unknown: float = UNKNOWN_SHARE,
                 resign: int = RESIGN_SAMPLES, lines: bool = True, **_options: Any) -> None:
        if nodes is None and seconds is None:
            nodes = NODES
        self.budget = Budget(nodes, seconds)
        if not is_whole(samples, 1, BANDIT_MAX_SAMPLES):
            raise CardzError(f"the bandit planner solves 1 to {BANDIT_MAX_SAMPLES} samples per "
                             f"decision, not {samples}")
        if isinstance(unknown, bool) or not isinstance(unknown, (int, float)) or \
                not 0.0 <= unknown <= 1.0:
            raise CardzError(f"an unknown answer counts for 0 to 1 of a win, not {unknown}")
        if not is_whole(resign, 1, BANDIT_MAX_SAMPLES):
            raise CardzError(f"the bandit planner gives up after 1 to {BANDIT_MAX_SAMPLES} lost "
                             f"samples of every move, not {resign}")
        if not isinstance(lines, bool):
            raise CardzError(f"the bandit planner's lines option is true or false, not {lines!r}")
        self.samples = samples
        self.resign = resign
        self.lines = lines  # follow a sampled win's line past the move chosen
        self.unknown = float(unknown)
        # nothing hidden: one solve with the whole budget; no sample won: its expectimax
        self.whole = SamplingPlanner(game, nodes=nodes, seconds=seconds, deals=1)
        self.analysis = self.whole.analysis
        self.safe = self.analysis.safe
        self.class_of = {i: n for n, cl in enumerate(self.analysis.classes) for i in cl}
        self.plan: list[tuple[Piles, Move]] = []  # (piles the move is played from, move)
        self.visited = Visited(roles(game))  # boards of this game: play must not circle

    def settings(self) -> dict[str, Any]:
        """The options this planner plays with, defaults filled in (a run's record of them)."""
        return {**self.budget.settings(), "samples": self.samples, "unknown": self.unknown,
                "resign": self.resign, "lines": self.lines}

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None:
        self.visited.note(view)
        if goes_on(game, self.plan, view):
            return self.plan.pop(0)[1]
        self.plan = []
        hidden = holds_unknown(view)
        if self.whole.following(game, view) or not hidden or view.status != PLAYING:
            return self.whole.choose(game, view, rng)
        moves = game.legal_moves(view)
        safe = self.safe.find(view, moves) if self.safe is not None and moves else None
        if safe is not None:
            return safe  # never worse than any other move: nothing to weigh
        arms = self._arms(game, view, moves)
        if not arms:
            return None  # every move leads back to a board it has been on
        best = self._halve(game, view, arms, rng)
        if not any(a.won or a.unknown for a in arms):
            alive = self._confirm_loss(game, view, arms, rng)
            if alive is None:
                return None  # every move lost on ``resign`` deals or more: give up
            best = alive
        if not any(a.line for a in arms):
            return self._unguided(game, view, arms, best, rng)
        if best.line is None or not self.lines:
            return best.move  # the next move is chosen by samples again
        self.plan = follow(game, view, best.line, through_reveal=False)
        return self.plan.pop(0)[1]

    def _arms(self, game: Game, view: View, moves: list[Move]) -> list[Arm]:
        """The candidate moves: one per distinct view, up to the solver's symmetry, a move that
        turns up nothing leads to (unless this game has been there before: going back wins
        nothing the samples did not already count, and would let the planner circle); one per
        move that turns up a card, where moves taking the same cards to depots that play alike
        and hold the same pile count once; none that only relabels a pile."""
        r = roles(game)
        seen: set[Hashable] = set()
        arms = []
        for i, m in enumerate(moves):
            if r.pointless(view, m):
                continue
            try:
                after = game.apply(view, m, reveal=refuse_reveal)
            except Unknown:
                cls = self.class_of.get(m.dst)
                turned = (m.src, m.index, m.declare, cls, view.piles[m.dst]) if cls is not None \
                    else m
                if turned not in seen:
                    seen.add(turned)
                    arms.append(Arm(m, i))
                continue
            key = self._symmetric(after)
            if key not in seen and not self.visited.visits(after):
                seen.add(key)
                arms.append(Arm(m, i))
        return arms

    def _symmetric(self, v: View) -> Hashable:
        """What tells two views apart up to the solver's symmetry classes (depots that play
        alike, such as Klondike's empty foundations: an ace to any of them is one candidate,
        not four that split the samples)."""
        an = self.analysis
        # what else tells positions apart: only the fields the rules read (the solver's key)
        fields = (v.declared, v.recycles if an.key_recycles else None,
                  v.redeals if an.key_redeals else None,
                  v.came_from if an.key_came_from else None)
        piles = v.piles
        if any(d != -1 for d in v.declared) or an.key_came_from:
            return piles, fields  # a called suit or a pile's origin belongs to its depot
        sym = tuple(tuple(sorted(piles[i] for i in cl)) for cl in an.classes)
        return sym, tuple(p for i, p in enumerate(piles) if i not in self.class_of), fields

    def _halve(self, game: Game, view: View, arms: list[Arm], rng: random.Random) -> Arm:
        """Successive halving over ``arms``; the arm with the best estimate at the end."""
        rounds = schedule(len(arms), self.samples)
        solves = sum(alive * each for alive, each in rounds)
        b = self.budget
        share = self._share(solves)
        # with a time cap: an equal share of it per solve, and never past the cap
        each_seconds = NO_TIME_LIMIT if b.seconds is None else b.seconds / solves
        deadline = None if b.seconds is None else time.perf_counter() + b.seconds
        alive = arms
        for _, each in rounds:
            deals = []
            for _ in range(each):  # drawing many deals takes time too
                if deadline is not None and time.perf_counter() >= deadline:
                    return self._best(arms)
                deals.append(sample_deal(game, view, rng))
            for arm in alive:
                for deal in deals:
                    seconds = each_seconds
                    if deadline is not None:
                        seconds = min(seconds, deadline - time.perf_counter())
                        if seconds <= 0:
                            return self._best(arms)
                    self._try(game, arm, deal, share, seconds)
                    if len(arms) == 1 and arm.tried > arm.lost:
                        return arm  # no choice to make: enough that some deal is not lost
            alive = sorted(alive, key=self._rank)[:math.ceil(len(alive) / 2)]
        return self._best(alive)

    def _unguided(self, game: Game, view: View, arms: list[Arm], best: Arm,
                  rng: random.Random) -> Move:
        """No sample won, so no line guides play. The move proved lost least often where the
        samples tell the moves apart; where they do not, ``expectimax``'s choice for this one
        move (its line is not followed: the next move is sampled again), or ``best`` where it
        gives up (never resign while a move may still win)."""
        top = self._rank(best)[0]
        if sum(1 for a in arms if a.tried and self._rank(a)[0] == top) == 1:
            return best.move
        fallback = self.whole.fallback
        move = fallback.choose(game, view, rng)
        fallback.plan = []
        return move if move is not None else best.move

    def _confirm_loss(self, game: Game, view: View, arms: list[Arm], rng: random.Random
                      ) -> Arm | None:
        """Every sample of every move was lost. Successive halving gave the moves it dropped
        early only a few, so each move is tried on new deals until it has ``resign`` of them:
        the first move with a deal not proved lost is returned, None when there is none. With a
        time cap this takes at most as long again, and out of time the best move is played."""
        share = self._share()
        seconds = self.budget.seconds  # a time cap: as long again as the halving had
        deadline = None if seconds is None else time.perf_counter() + seconds
        deals = [sample_deal(game, view, rng) for _ in range(self.resign)]
        for arm in arms:
            for deal in deals[:max(0, self.resign - arm.tried)]:
                left = NO_TIME_LIMIT if deadline is None else deadline - time.perf_counter()
                if left <= 0:  # out of time with no loss proved: play on, never resign
                    return self._best(arms)
                self._try(game, arm, deal, share, left)
                if arm.tried > arm.lost:
                    return arm
        return None

    def _share(self, solves: int | None = None) -> int:
        """One solve's positions: an equal share of the budget over the solves planned."""
        b = self.budget
        if b.nodes is None:
            return SOLVE_DEFAULT_STATES
        return max(1, b.nodes // (solves or self.samples))

    def _try(self, game: Game, arm: Arm, deal: State, states: int, seconds: float) -> None:
        """Play the arm's move on a sampled deal and solve the child."""
        child = game.apply(deal, arm.move)
        line: list[Move] = []
        if child.status == WON:
            result = "won"
        elif child.status != PLAYING:
            result = "lost"
        else:
            found = solve(game, child, max_states=states, timeout=seconds,
                          analysis=self.analysis, klondike_model=False)
            result, line = found.result, found.line
        if result == "won":
            arm.won += 1
            if arm.line is None:
                arm.line = [arm.move, *line]
        elif result == "lost":
            arm.lost += 1
        else:
            arm.unknown += 1

    def _rank(self, arm: Arm) -> tuple[float, int]:
        """Sort key: the best estimate first, then the move listed first."""
        return -arm.estimate(self.unknown), arm.order

    def _best(self, arms: list[Arm]) -> Arm:
        tried = [a for a in arms if a.tried] or arms
        return min(tried, key=self._rank)
