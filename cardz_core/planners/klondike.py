"""``klondike``: Klondike-shaped games (docs/solver.md, section 8) on the native model, each
decision made by hundreds of small solves of sampled deals (docs/planners.md).

*The stock first.* A stock turned over without limit is the player's to read: dealing it through
once and turning it over brings back the same board, with every stock card seen. So at a board
whose stock holds unseen cards the planner does that first (from an empty waste; with cards on
the waste it deals on, since it cannot come back to the same board). After it the only unseen
cards are face-down column cards, and the model's children of the view depend only on cards the
view shows.

*A decision.* The native model (``src/solver/klondike/sampled.rs``) takes the view with its
unseen places; a column top that goes home without branching is played at once. Otherwise each
child is solved on deals that put the unseen cards in the unseen places in random order, within
``limit`` positions each; ``samples`` such solves are shared among the children by successive
halving (each round the same deals for every child still in the running, the better half going
on), and the child with the best share of won deals (an unknown answer counting ``unknown`` of a
win; of equal shares, the one with more deals not proved lost) is played: the taps that bring its
talon card up, then the play. Every decision is made anew, so each card turned up is chosen for
without knowing it.

*Dealt in order* (``in_order``, on by default). A sample deals the unseen cards not to the
unseen places but in the order they turn up: the first card turned up, from whichever column,
is the sample's first card, and so on. A solve still knows which card comes next, but it can no
longer choose where to dig for a card it wants, which no player can; on Klondike draw 1 this won
more deals than dealing to places (docs/planners.md).

*Turning cards up first.* The solves value a position as if every card were seen, so they never
count what turning a card up tells the player; the best child that turns a card up is played
instead of the best child when its share of won deals is within ``reveal`` of the best's and
not every deal it was tried on is lost.

*Commitments* (``commit``, off by default). The candidates are then the steps that turn a card
up, send one home or play a talon card, from the view or after quiet steps (column to column,
turning nothing up), each with the quiet steps before it.

*Not circling.* A child whose moves turn nothing up and lead back to a board a decision was made
on is passed over for the next best. When every child leads back, the best is played all the
same, up to ``MAX_RETURNS`` times a board: the next decision there draws new deals, and a
position the samples call about even is not given up for circling.

*A game's budget* (``game_nodes``, none by default). The solves of a game may record about that
many positions: a decision makes at most ``samples`` solves, and no more than one ``GAME_PACE``th
of the positions the game has left pays for (at the mean cost of this game's solves so far), but
never fewer than ``MIN_PACED_SAMPLES``. So the long games, not every game, make smaller
decisions near their end. Counted in positions, not seconds, so that a seed plays the same game
on every machine.

*Giving up.* When the model has no child (nothing that could help), when every deal the best
child was tried on is lost, or when every child leads back to a board gone back to
``MAX_RETURNS`` times. A lone child is played without sampling. A decision the game's budget
cut short (fewer than ``samples`` solves) that finds every deal lost is made again with
``samples`` before the planner gives up: a child tried on a handful of deals is too little to
resign on, and playing on costs nothing that resigning keeps.

It needs the native engine and a Klondike-shaped game, and refuses others with a CardzError.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardz_core.engine.moves import Move
from cardz_core.engine.state import PLAYING
from cardz_core.limits import KLONDIKE_MAX_SAMPLES, PLANNER_MAX_GAME_NODES, PLANNER_MAX_NODES
from cardz_core.planners.base import Budget, Unknown, refuse_reveal
from cardz_core.planners.solver import prepare
from cardz_core.problems import CardzError, is_whole
from cardz_core.solver.analysis import analysis_of
from cardz_core.solver.klondike import KlondikeShape, model_position, native_model, step_moves
from cardz_core.view import View

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

SAMPLES = 200  # child solves a decision
LIMIT = 1_000  # positions a child solve
UNKNOWN_SHARE = 0.0  # what an unknown answer counts of a win
REVEAL_MARGIN = 0.2  # how far below the best share a child turning a card up may be and go first
COMMIT = False  # the children are the commitments: quiet steps, then one that is not
IN_ORDER = True  # a sample deals the unseen cards in the order they turn up, not to places
NO_TIME_LIMIT = 3600.0  # seconds a decision may take when positions alone bound it
GAME_PACE = 8  # with a game's budget, a decision may spend an eighth of what the game has left
MIN_PACED_SAMPLES = 16  # the fewest solves a decision makes when the game's budget runs low
MAX_RETURNS = 2  # times play goes back to one board when every child leads back to a board


def _whole(value: Any, low: int, high: int, what: str) -> int:
    if not is_whole(value, low, high):
        raise CardzError(f"the klondike planner's {what} is {low} to {high}, not {value!r}")
    return int(value)


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise CardzError(f"the klondike planner's {what} is true or false, not {value!r}")
    return value


def _share(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise CardzError(f"the klondike planner's {what} is 0 to 1, not {value!r}")
    return float(value)


class KlondikePlanner:
    name = "klondike"

    def __init__(self, game: Game, samples: int = SAMPLES, limit: int = LIMIT,
                 unknown: float = UNKNOWN_SHARE, reveal: float | None = REVEAL_MARGIN,
                 nodes: int | None = None, seconds: float | None = None, commit: bool = COMMIT,
                 game_nodes: int | None = None, in_order: bool = IN_ORDER, **_options: Any) -> None:
        self.limit = _whole(limit, 1, PLANNER_MAX_NODES, "limit (positions a solve)")
        if nodes is not None:  # a budget in positions a decision: that many limit-sized solves
            samples = max(1, _whole(nodes, 1, PLANNER_MAX_NODES, "node budget") // self.limit)
        self.samples = _whole(samples, 1, KLONDIKE_MAX_SAMPLES, "samples (solves a decision)")
        self.unknown = _share(unknown, "share of a win an unknown answer counts")
        self.reveal = None if reveal is None else _share(reveal, "reveal margin")
        self.commit = _flag(commit, "commit")
        self.in_order = _flag(in_order, "in_order")
        Budget(seconds=seconds)  # a time budget checked as every planner's is
        self.timeout = NO_TIME_LIMIT if seconds is None else seconds
        self.game_nodes = None if game_nodes is None else _whole(
            game_nodes, 1, PLANNER_MAX_GAME_NODES, "game_nodes (positions a game)")
        self.spent = 0  # positions this game's solves recorded
        self.solves = 0
        an = analysis_of(game)
        if prepare(game, an) is None:
            raise CardzError("the klondike planner needs the native engine")
        shape: KlondikeShape | None = an.klondike
        assert shape is not None
        if shape.reason is not None:
            raise CardzError("the klondike planner plays Klondike-shaped games only: "
                             f"{shape.reason}")
        self.shape = shape
        self.plan: list[tuple[Any, Move]] = []  # (piles the move is played from, move)
        self.reading = False  # dealing the stock through to see it
        self.seen: set[Any] = set()  # the boards decisions were made on
        self.returns: dict[Any, int] = {}  # the times play went back to one, every child leading back

    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None:
        shape = self.shape
        tap = Move(shape.stock, -1, -1)
        stock, waste = view.piles[shape.stock], view.piles[shape.waste]
        if self.reading and (stock or waste):
            self.reading = bool(stock)  # the tap on an empty stock turns it over: done
            return tap
        self.reading = False
        if self.plan and self.plan[0][0] == view.piles:
            return self.plan.pop(0)[1]
        self.plan = []
        if view.status != PLAYING:
            return None
        if any(c < 0 for c in stock):
            self.reading = not waste  # from an empty waste the board comes back: read it all
            return tap
        columns, talon, waste_size, home = model_position(shape, view)
        unseen = [x for x in range(len(shape.suit)) if any(p[x] for p in view.pools or ())]
        samples = self.paced_samples()
        kind, tallies = self._decide(columns, talon, waste_size, home, unseen, samples, rng)
        if kind == "children" and len(tallies) > 1 and not (tallies[0][1] or tallies[0][3]):
            # every deal the best child was tried on is lost (one child: no samples); a game's
            # budget run low leaves a child a handful of deals, too few to give up on
            if samples >= self.samples:
                return None
            kind, tallies = self._decide(columns, talon, waste_size, home, unseen, self.samples, rng)
            if len(tallies) > 1 and not (tallies[0][1] or tallies[0][3]):
                return None
        self.seen.add(view.piles)
        if kind == "children":
            if self.reveal is not None:
                tallies = self._reveal_first(tallies, columns, self.reveal)
        played = []  # the children that lead back, in order, each with the board
        for steps, *_ in tallies:
            plan, back = self._played(game, view, list(talon), steps)
            if back is None:
                self.plan = plan
                return self.plan.pop(0)[1]
            played.append((plan, back))
        # every child leads back to a board a decision was made on: the best goes back again,
        # a few times a board at most (the next decision there draws new deals; a position
        # about even is not given up for circling)
        for plan, back in played:
            if self.returns.get(back, 0) < MAX_RETURNS:
                self.returns[back] = self.returns.get(back, 0) + 1
                self.plan = plan
                return self.plan.pop(0)[1]
        return None

    def _decide(self, columns: list[tuple[int, list[int]]], talon: list[int], waste_size: int,
                home: list[int], unseen: list[int], samples: int, rng: random.Random
                ) -> tuple[str, list[Any]]:
        """The model's decision on this board with ``samples`` solves: its kind and the
        children's tallies, best first; the positions and solves are counted to the game."""
        try:
            kind, tallies, positions = native_model(self.shape).decide(
                columns, talon, waste_size, home, unseen, samples, self.limit, self.unknown,
                rng.getrandbits(64), self.timeout, self.commit, self.in_order)
        except ValueError as why:
            raise CardzError(f"the klondike planner cannot take this board: {why}") from None
        self.spent += positions
        self.solves += sum(t[1] + t[2] + t[3] for t in tallies)
        return kind, tallies

    def settings(self) -> dict[str, Any]:
        """The options this planner plays with, defaults filled in (a run's record of them)."""
        return {"samples": self.samples, "limit": self.limit, "unknown": self.unknown,
                "reveal": self.reveal, "commit": self.commit, "in_order": self.in_order,
                "game_nodes": self.game_nodes,
                "seconds": None if self.timeout == NO_TIME_LIMIT else self.timeout}

    def paced_samples(self) -> int:
        """The solves the next decision may make: ``samples``, or fewer when the game's budget
        is set and one ``GAME_PACE``th of what it has left pays for fewer."""
        if self.game_nodes is None:
            return self.samples
        # a solve records its start at least, so per_solve is at least 1
        per_solve = self.spent // self.solves if self.solves else self.limit
        affordable = max(0, self.game_nodes - self.spent) // GAME_PACE // per_solve
        return min(self.samples, max(MIN_PACED_SAMPLES, affordable))

    def _reveal_first(self, tallies: list[Any], columns: list[tuple[int, list[int]]], margin: float
                      ) -> list[Any]:
        """``tallies`` (best first) with the best child that turns a card up put first when its
        share of won deals is within ``margin`` of the best's and some deal it was tried on was
        not lost: the solves value a position as if every card were seen, so they never count
        what turning a card up tells the player."""
        def worth(t: Any) -> float:
            played = t[1] + t[2] + t[3]
            return (t[1] + self.unknown * t[3]) / played if played else 0.0

        def reveals(steps: list[tuple[int, int, int]]) -> bool:
            src, at, _ = steps[-1]  # the steps before it turn nothing up
            return src >= 0 and 0 < columns[src][0] == at

        if not tallies or reveals(tallies[0][0]):
            return tallies
        top = worth(tallies[0])
        for n, t in enumerate(tallies):
            if reveals(t[0]) and (t[1] or t[3]) and worth(t) >= top - margin:
                return [t, *tallies[:n], *tallies[n + 1:]]
        return tallies

    def _played(self, game: Game, view: View, talon: list[int], steps: list[tuple[int, int, int]]
                ) -> tuple[list[tuple[Any, Move]], Any]:
        """The engine moves of ``steps`` from ``view``, each with the board it is played from,
        and the board they lead back to when a decision was made on it before (else None: a
        move that turns a card up, only a last step's may, leads somewhere new)."""
        plan = []
        v = view
        for step in steps:
            for move in step_moves(self.shape, v, talon, step):
                plan.append((v.piles, move))
                try:
                    v = game.apply(v, move, reveal=refuse_reveal)
                except Unknown:
                    return plan, None
        return plan, v.piles if v.piles in self.seen else None
