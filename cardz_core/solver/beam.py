"""A stock-layered beam try: a search that counts only a win (docs/solver.md, "A beam try").

Games whose stock is dealt in steps (Spider's deals, a stock turned one card at a time) drown
a depth-first search between two stock moves: it searches every way to play the cards it has
before it deals again, and a wrong early deal is paid for with all of them. This try sorts the
positions by how often the stock has been tapped since the deal (their *layer*). It searches one
layer at a time, best first by the order's priority, without tapping, for at most
``width * spread`` positions; every position a tap reaches goes to a later layer, and of those
only the ``width`` best are searched further; a position whose foundations are ``starved`` is
dropped at once. So it trades completeness for reach: it never
proves a deal lost (the positions it drops may hold the only wins), and a win it meets is a line
of legal moves from the start, replayed to a won board by the caller like every other.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass
from typing import Any, Hashable, Sequence

from cardz_core.problems import CardzError, is_whole
from cardz_core.solver.search import LOST, RESULT_UNKNOWN, RESULT_WON, WON, SearchResult

BEAM_MAX_WIDTH = 100_000  # positions kept per layer: wider is a plain search with more memory
BEAM_MAX_SPREAD = 1_000  # positions searched in a layer per position kept
BEAM_MAX_BURIED = 10_000  # the largest weight per buried card (a hundred cards home)


@dataclass(frozen=True)
class Beam:
    """A beam try's limits: the positions kept at each layer (``width``), the positions
    searched within a layer per position kept (``spread``), and ``buried``, a weight the
    try's ranking subtracts per buried card (``buried_count``), 0 to leave it out."""

    width: int
    spread: int
    buried: int = 0

    def __post_init__(self) -> None:
        for name, value, most in (("width", self.width, BEAM_MAX_WIDTH),
                                  ("spread", self.spread, BEAM_MAX_SPREAD),
                                  ("buried", self.buried, BEAM_MAX_BURIED)):
            low = 0 if name == "buried" else 1
            if not is_whole(value, low, most):
                raise CardzError(f"a beam's {name} is a whole number from {low} to {most}, "
                                 f"not {value!r}")

    def numbers(self) -> list[int]:
        """The beam as a settings file writes it."""
        return [self.width, self.spread, self.buried]


def beam_of(numbers: Any) -> Beam | None:
    """A beam from a settings file's list of two or three numbers, or None for None."""
    if numbers is None:
        return None
    if not isinstance(numbers, list) or not 2 <= len(numbers) <= 3:
        raise CardzError(f"a beam is a list of two or three numbers, not {numbers!r}")
    return Beam(*numbers)


def home_plan(problem: Any) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """What ``buried_count`` reads of a game: for each card, its place in the order the
    foundations take ranks (when they all start at one rank and build one way by one), and
    the depots outside the foundations with no building rule that no depot but a foundation
    takes cards from. None when the foundations do not share one order of ranks."""
    an, c = problem.an, problem.an.compiled
    rules = {(r.seed, r.build.direction) for i in problem.win for r in [c.accepts[i]]
             if r.build is not None and r.build.step == 1 and not r.build.wrap}
    if not problem.win or len(rules) != 1 or len({c.accepts[i] for i in problem.win}) != 1:
        return None
    seed, direction = next(iter(rules))
    if seed is None or direction not in ("Up", "Down"):
        return None
    sign = 1 if direction == "Up" else -1
    order = tuple(sign * (rank - seed) for rank in an.ranks)

    def home_only(i: int) -> bool:
        return all(c.accepts[j].rejects_all or (c.accepts[j].accept_from is not None
                                                and i not in c.accepts[j].accept_from)
                   for j in range(an.n) if j != i and j not in problem.win_set)

    depots = tuple(i for i in problem.others if i not in problem.fits and home_only(i))
    return (order, depots) if depots else None


def buried_count(plan: tuple[tuple[int, ...], tuple[int, ...]], piles: Any) -> int:
    """Cards lying on a card that the foundations take before them, in the depots whose cards
    can go nowhere but home (``home_plan``): each must leave first, and only home."""
    order, depots = plan
    count = 0
    for i in depots:
        low = None
        for c in piles[i]:
            o = order[c >> 1]
            if low is None or o < low:
                low = o
            elif o > low:
                count += 1
    return count


def needs_plan(problem: Any) -> tuple[tuple[int, int, bool], ...] | None:
    """What ``starved`` reads of a game: each foundation as (depot, +1 up or -1 down, whether
    it builds in one suit), when the game is won with every card home and every foundation
    builds by one rank without wrapping; else None."""
    an, c = problem.an, problem.an.compiled
    if not problem.win or problem.to_empty or set(an.win_set or ()) != set(problem.win):
        return None
    plan = []
    for i in problem.win:
        r = c.accepts[i]
        if r.build is None or r.build.step != 1 or r.build.wrap or \
                r.build.direction not in ("Up", "Down") or r.suit not in ("Same", "Any"):
            return None
        plan.append((i, 1 if r.build.direction == "Up" else -1, r.suit == "Same"))
    return tuple(plan)


def starved(problem: Any, plan: tuple[tuple[int, int, bool], ...], piles: Any) -> bool:
    """Whether the foundations started so far need more cards of some rank (and suit, for one
    that builds in one suit) than are left outside them: then not every card can go home. The
    beam drops such a position (speed only: it never proves anything)."""
    an = problem.an
    ranks, suits = an.ranks, an.suits
    low, high = min(ranks), max(ranks)
    need: dict[tuple[int, int], int] = {}
    for i, sign, same in plan:
        pile = piles[i]
        if not pile:
            continue
        top = pile[-1] >> 1
        suit = suits[top] if same else -1
        for rank in range(ranks[top] + sign, (high if sign > 0 else low) + sign, sign):
            need[rank, suit] = need.get((rank, suit), 0) + 1
    if not need:
        return False
    left: dict[tuple[int, int], int] = {}
    home = problem.win_set
    for i, pile in enumerate(piles):
        if i not in home:
            for code in pile:
                card = code >> 1
                for key in ((ranks[card], suits[card]), (ranks[card], -1)):
                    left[key] = left.get(key, 0) + 1
    return any(n > left.get(key, 0) for key, n in need.items())


def search_beam(problem: Any, root: Any, beam: Beam, *, max_states: int,
                timeout: float) -> SearchResult[Any]:
    """The beam try from ``root``: ``won`` with a line of moves, else ``unknown`` (never
    ``lost``), with the positions recorded (never more than ``max_states``)."""
    start = time.perf_counter()
    deadline = start + timeout
    stocks = problem.draws
    root_key = problem.key(root)
    # each position recorded: the key it was reached from and the moves that reached it
    came: dict[Hashable, tuple[Hashable, Sequence[Any]] | None] = {root_key: None}

    def done(result: str, key: Hashable | None = None, stopped: str | None = None
             ) -> SearchResult[Any]:
        line: list[Any] = []
        while key is not None and came[key] is not None:
            key, moves = came[key]  # type: ignore[misc]
            line[:0] = moves
        return SearchResult(result, line, len(came), time.perf_counter() - start, stopped)

    # the game's own status: a dead end must not take a place in the beam
    status = problem.game.status(root)
    if status == WON:
        return done(RESULT_WON)
    if status == LOST:
        return done(RESULT_UNKNOWN)

    plan = home_plan(problem) if beam.buried else None
    needs = needs_plan(problem)

    def rank(state: Any) -> float:
        value = float(problem.priority(state))
        return value - beam.buried * buried_count(plan, state.piles) if plan else value

    # the layers not searched yet: per layer, each position met with its rank and the order it
    # was met in (ties go to the first met, so the try is the same on every machine)
    layers: dict[int, dict[Hashable, tuple[float, int, Any]]] = {0: {root_key: (0.0, 0, root)}}
    met = 0
    while layers:
        layer = min(layers)
        pool = layers.pop(layer)
        kept = heapq.nlargest(beam.width, pool.items(), key=lambda kv: (kv[1][0], -kv[1][1]))
        del pool
        heap = [(-r, n, k, s) for k, (r, n, s) in kept]
        heapq.heapify(heap)
        for _ in range(beam.width * beam.spread):
            if not heap:
                break
            _, _, key, state = heapq.heappop(heap)
            for moves, child in problem.successors(state):
                if time.perf_counter() > deadline:
                    return done(RESULT_UNKNOWN, None, "seconds")
                k = problem.key(child)
                if k in came:
                    continue
                if len(came) >= max_states:
                    return done(RESULT_UNKNOWN, None, "states")
                came[k] = (key, moves)
                status = problem.game.status(child)
                if status == WON:
                    return done(RESULT_WON, k)
                if status == LOST or (needs and starved(problem, needs, child.piles)):
                    continue
                met += 1
                taps = sum(1 for m in moves if m.index == -1 and m.src in stocks)
                if taps:
                    layers.setdefault(layer + taps, {})[k] = (rank(child), met, child)
                else:
                    heapq.heappush(heap, (-rank(child), met, k, child))
    return done(RESULT_UNKNOWN)
