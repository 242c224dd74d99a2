"""``expectimax``: expectimax over views, with the player's choices between two chance events
searched as one max node (docs/planners.md).

Until a move turns up an unknown card, everything the player does leads to views known in full.
So a max node is the set of views reachable from it without turning up an unknown card (its
*closure*), searched best-first with a transposition table; a move the solver's analysis proves
safe (a card no other pile could use, onto its foundation) is played there without branching, and
a stock that only draws is searched as tap runs (each card playable after some taps is one
successor). Every move from a view of the closure that turns up unknown cards is a chance node:
its outcomes by the deck model's counts (all of them when it turns up one card from a pool of at
most ``samples`` different cards, otherwise ``samples`` draws), each valued by the leaf
evaluation, or in a deeper pass (iterative deepening, ``depth`` chance layers, inside the per-move
budget) by the closure of the outcome for the ``width`` best chance nodes of each closure.

The answer is a line of moves: a win; else the best line to a chance node, each move of it costing
``STEP_COST`` (the nearest way to turn a card up is preferred); else, with no chance node in reach,
the best line to a known view better than the current one. A closure's value follows the same
order. Nothing unknown turns up before the line's last move, so the planner plays the line out
move by move without searching again, then searches anew. Each line turns up a card or raises the
leaf value, so play cannot go round in circles. When nothing is worth doing it gives up if it
searched the whole closure (it proved there is nothing to find), and otherwise asks ``usual``.

Before it searches, it plays ``usual``'s looks and guesses (option ``solve``, as ``usual``'s): a
line the solver found, on the view's true position where the view knows every card in play, else
on a deal drawn from the view up to the first card the line turns up. It searches where they
find nothing.

Leaves are valued by the game's ``planner.value`` when it has one; otherwise by measures any game
has (``measures.default_value``): cards on foundation-role depots, face-down cards of the play
area still to turn up, cards still waiting in the stock, waste or reserves, empty tableau piles
and cells, and mobility (the number of legal moves).
"""

from __future__ import annotations

import functools
import heapq
import random
from typing import TYPE_CHECKING, Any, Hashable

from cardz_core.engine.moves import Move
from cardz_core.engine.state import PLAYING
from cardz_core.limits import (EXPECTIMAX_MAX_DEPTH, EXPECTIMAX_MAX_SAMPLES, EXPECTIMAX_MAX_WIDTH,
                               PLANNER_DEFAULT_NODES, USUAL_SOLVE_STATES)
from cardz_core.planners.base import (Budget, Clock, Piles, Unknown, children, faces, goes_on,
                                     refuse_reveal)
from cardz_core.planners.measures import WIN_VALUE, roles, terminal_value
from cardz_core.planners.usual import UsualPlanner
from cardz_core.planners.value import value_function
from cardz_core.problems import CardzError, is_whole
from cardz_core.solver.analysis import Analysis, analysis_of
from cardz_core.solver.problem import tap_run
from cardz_core.view import View

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

Line = tuple[Move, ...]  # moves played one after the other from a view
Table = dict[tuple[Hashable, int], "_Closure"]  # a search's closures by (view key, depth)

KNOWLEDGE_WEIGHT = 1.0  # per unknown card a chance node turns up: seeing a card is progress
CHANCE_SAMPLES = 3  # outcomes drawn for a chance node with more different outcomes than this
WIDTH = 3  # chance nodes per closure searched on in a deeper pass
MAX_DEPTH = 2  # chance layers
STEP_COST = 30.0  # per move, in the search order and a chance line's value: the nearest way
# to turn a card up is preferred, and the search meets near chance nodes before long detours
TIE_STEP_COST = 0.01  # per move of a line ending in a known view: the same gain sooner
INNER_SHARE = 8  # an inner closure may generate at most budget / INNER_SHARE positions


def analysis(game: Game) -> Analysis:
    """The solver's analysis of the game (safe moves, tap runs, what a position's key needs),
    made once per game and held by it."""
    return analysis_of(game)


class _OutOfBudget(Exception):
    pass


class _Closure:
    """What one closure search found: the best line (moves from the root) and the best line
    ending in a chance node (its last move turns up unknown cards), with their values, and
    whether every view reachable without turning up an unknown card was searched."""

    __slots__ = ("here", "line", "line_value", "chance_line", "chance_value", "complete")

    def __init__(self, here: float) -> None:
        self.here = here  # the root's own leaf value
        self.line: Line = ()
        self.line_value = float("-inf")
        self.chance_line: Line = ()
        self.chance_value = float("-inf")
        self.complete = True

    def offer(self, value: float, line: Line, chance: bool) -> None:
        if value > self.line_value:
            self.line_value, self.line = value, line
        if chance and value > self.chance_value:
            self.chance_line, self.chance_value = line, value

    @property
    def _to_chance(self) -> bool:
        """Whether play goes on by turning a card up: a chance node is in reach and no win."""
        return bool(self.chance_line) and self.line_value < WIN_VALUE / 2

    def choice(self) -> Line:
        """The line to play: a win; else the best way to turn a card up (the nearest, as each
        move costs ``STEP_COST``); else, with nothing left to turn up, the best line when it
        improves on the root. Empty: nothing to do."""
        if self._to_chance:
            return self.chance_line
        return self.line if self.line_value > self.here else ()

    @property
    def value(self) -> float:
        """The closure's value, in the order ``choice`` plays (the root itself counts as a line
        to a known view)."""
        return self.chance_value if self._to_chance else max(self.here, self.line_value)


class ExpectimaxPlanner:
    name = "expectimax"

    def __init__(self, game: Game, nodes: int | None = None, seconds: float | None = None,
                 depth: int = MAX_DEPTH, samples: int = CHANCE_SAMPLES, width: int = WIDTH,
                 solve: int = USUAL_SOLVE_STATES, **_options: Any) -> None:
        if nodes is None and seconds is None:
            nodes = PLANNER_DEFAULT_NODES
        self.budget = Budget(nodes, seconds)
        for value, high, what in ((depth, EXPECTIMAX_MAX_DEPTH, "depth (chance layers)"),
                                  (samples, EXPECTIMAX_MAX_SAMPLES, "samples (outcomes a chance "
                                                                    "node draws)"),
                                  (width, EXPECTIMAX_MAX_WIDTH, "width (chance nodes searched on)")):
            if not is_whole(value, 1, high):  # a fraction or a text was a TypeError deep in play
                raise CardzError(f"expectimax's {what} is 1 to {high:,}, not {value!r}")
        self.max_depth, self.samples, self.width = int(depth), int(samples), int(width)
        self.inner_nodes = max(10, (nodes or PLANNER_DEFAULT_NODES) // INNER_SHARE)
        self.usual = UsualPlanner(game, solve=0)  # its scores only: the fallback it always had
        self.looks = UsualPlanner(game, solve=solve)  # its looks and guesses only
        self.plan: list[tuple[Piles, Move]] = []  # (piles the move is played from, move)
        an = analysis(game)
        self.safe = an.safe
        self.tap = an.tap  # (stock, its draw target) when taps only draw: searched as runs
        self.an = an
        self.leaf = value_function(game)

    # ---- the planner interface ---------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The options this planner plays with, defaults filled in (a run's record of them)."""
        return {**self.budget.settings(), "depth": self.max_depth, "samples": self.samples,
                "width": self.width, **self.looks.settings()}

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None:
        self.usual.visited.note(view)
        if goes_on(game, self.plan, view):
            return self.plan.pop(0)[1]
        self.plan = []
        if view.status != PLAYING or not game.legal_moves(view):
            return None
        # usual's looks and guesses first: the solver's line, where one is found
        looked = self.looks.planned(game, view) or self.looks.solved(game, view, rng)
        if looked is not None:
            return looked
        clock = Clock(self.budget)
        table: Table = {}
        best = self._closure(game, view, 1, clock, rng, table, None)
        for depth in range(2, self.max_depth + 1):
            if clock.spent() or not best.chance_line:
                break  # no chance node: a deeper pass would search the same closure
            try:
                best = self._closure(game, view, depth, clock, rng, table, None)
            except _OutOfBudget:
                break
        line = best.choice()
        if not line:
            if best.complete:
                return None  # nothing reachable turns a card up or improves the board
            return self.usual.choose(game, view, rng)
        self.plan = self._replay(game, view, line)
        return self.plan.pop(0)[1]

    # ---- the search ----------------------------------------------------------------------------
    def _leaf(self, v: View) -> float:
        end = terminal_value(v.status)
        return end if end is not None else self.leaf(v)

    def _key(self, v: View) -> Hashable:
        an = self.an
        return (v.piles, v.declared, v.recycles if an.key_recycles else None,
                v.redeals if an.key_redeals else None,
                v.came_from if an.key_came_from else None)

    def _closure(self, game: Game, root: View, depth: int, clock: Clock, rng: random.Random,
                 table: Table, cap: int | None) -> _Closure:
        """The best line from ``root`` with ``depth`` chance layers left (the root's own value
        included as the empty line), searched best-first by the leaf value."""
        key = (self._key(root), depth)
        hit = table.get(key)
        if hit is not None:
            return hit
        best = _Closure(self._leaf(root))
        if root.status != PLAYING:
            table[key] = best
            return best
        r = roles(game)
        seen = {self._key(root)}
        heap: list[tuple[float, int, View, Line, list[Move]]] = [
            (-best.here, 0, root, (), game.legal_moves(root))]
        chances: list[tuple[float, int, Line, View, Move]] = []
        generated = 0
        while heap:
            _, _, v, line, moves = heapq.heappop(heap)
            safe = self.safe.find(v, moves) if self.safe is not None else None
            for steps, u in ((((safe,), v),) if safe is not None
                             else self._successors(game, v, moves)):
                move = steps[-1]
                if len(steps) == 1 and r.pointless(v, move):
                    continue
                spent = clock.spent()
                if spent and depth > 1:
                    raise _OutOfBudget  # a deeper pass that cannot finish is dropped
                if spent or cap is not None and generated >= cap:
                    heap.clear()
                    best.complete = False
                    break
                clock.nodes += 1
                generated += 1
                to = line + steps
                try:
                    after = game.apply(u, move, reveal=refuse_reveal)
                except Unknown:
                    value = self._chance(game, u, move, 1, clock, rng, table)
                    chances.append((value - STEP_COST * len(to), generated, to, u, move))
                    continue
                k = self._key(after)
                if k in seen:
                    continue
                seen.add(k)
                value = self._leaf(after)
                best.offer(value - TIE_STEP_COST * len(to), to, False)
                if after.status == PLAYING:
                    # listed now, while the engine still remembers them from the leaf value
                    heapq.heappush(heap, (STEP_COST * len(to) - value, generated, after, to,
                                          game.legal_moves(after)))
        if depth > 1:
            # search on below the most promising chance nodes
            chances.sort(key=lambda c: (-c[0], c[1]))
            chances[:self.width] = [
                (self._chance(game, u, move, depth, clock, rng, table) - STEP_COST * len(to), o,
                 to, u, move)
                for _, o, to, u, move in chances[:self.width]]
        for value, _, to, _, _ in chances:
            best.offer(value, to, True)
        table[key] = best
        return best

    def _successors(self, game: Game, v: View, moves: list[Move]) -> list[tuple[Line, View]]:
        """Each move as a one-move step with the view it is played from; with a stock that only
        draws, its taps are searched as runs instead: every card move from the stock or its
        target after one or more taps, and the tap that turns up unknown cards (a chance node),
        each with the taps before it and the view after them."""
        if self.tap is None:
            return [((m,), v) for m in moves]
        k = self.tap[0]
        out: list[tuple[Line, View]] = [((m,), v) for m in moves
                                        if not (m.src == k and m.index == -1)]
        taps: Line = ()
        apply = functools.partial(game.apply, reveal=refuse_reveal)
        try:
            for taps, _, v, after in tap_run(game, v, self.tap, moves, apply):
                out.extend((taps + (m,), v) for m in after if m.index != -1)
        except Unknown:
            out.append((taps + (Move(k, -1, -1),), v))  # the chance node, after known taps
        return out

    def _chance(self, game: Game, v: View, move: Move, depth: int, clock: Clock,
                rng: random.Random, table: Table) -> float:
        """The expected value of a move that turns up unknown cards."""
        kids = children(game, v, move, rng, self.samples)
        clock.nodes += len(kids)
        total = 0.0
        for weight, child in kids:
            if depth <= 1:
                value = self._leaf(child)
            else:
                value = self._closure(game, child, depth - 1, clock, rng, table,
                                      self.inner_nodes).value
            total += weight * value
        end = terminal_value(kids[0][1].status)
        return total if end is not None else total + KNOWLEDGE_WEIGHT * _turned_up(v, kids[0][1])

    @staticmethod
    def _replay(game: Game, view: View, line: Line) -> list[tuple[Piles, Move]]:
        """The line as (piles before, as ``faces``, move) pairs; the last move may turn up
        unknown cards, and nothing is played past it."""
        plan: list[tuple[Piles, Move]] = []
        v = view
        for i, move in enumerate(line):
            plan.append((faces(game, v.piles), move))
            if i + 1 < len(line):
                v = game.apply(v, move, reveal=refuse_reveal)
        return plan

def _turned_up(before: View, after: View) -> int:
    """How many unknown cards a chance node's outcome turned up (the pools' totals fell)."""
    if before.pools is None or after.pools is None:
        return 0
    return sum(map(sum, before.pools)) - sum(map(sum, after.pools))
