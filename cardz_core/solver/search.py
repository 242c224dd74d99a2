"""Depth-first search with a transposition table, generic over a small problem interface.

The search knows nothing of cards: a ``Problem`` gives a position's successors (each reached by
one or more moves), its status, its transposition key and a priority used only to order the
children. Whatever the order, every reachable position is recorded at most once and expanded at
most once, so when the search runs out of positions without meeting a won one, no won position is
reachable: ``lost`` is a proof, given that the problem's keys and successors are exact (see
docs/solver.md). Budgets are counted in positions recorded and in seconds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Generic, Hashable, Iterable, Protocol, Sequence, TypeVar

S = TypeVar("S")
M = TypeVar("M")
M_co = TypeVar("M_co", covariant=True)

PLAYING, WON, LOST = 0, 1, 2  # the engine's status numbers (cardz_core.engine.state)

RESULT_WON, RESULT_LOST, RESULT_UNKNOWN = "won", "lost", "unknown"


class Problem(Protocol[S, M_co]):
    def successors(self, state: S) -> Iterable[tuple[Sequence[M_co], S]]:
        """Each child with the moves (one or more, applied in order) that reach it."""

    def status(self, state: S) -> int:
        """PLAYING, WON or LOST."""

    def key(self, state: S) -> Hashable:
        """Equal keys only for positions with the same answer (transpositions, symmetry)."""

    def priority(self, state: S) -> float:
        """Higher is searched first among siblings; affects speed only, never the answer."""


@dataclass
class SearchResult(Generic[M]):
    result: str  # won | lost | unknown
    line: list[M] = field(default_factory=list)  # the winning moves from the root, when won
    states: int = 0  # positions recorded in the transposition table, the root included
    seconds: float = 0.0
    stopped_by: str | None = None  # "states" or "seconds" when the result is unknown


def search(problem: Problem[S, M], root: S, *, max_states: int, timeout: float,
           clock: Callable[[], float] = time.perf_counter, lost: set[Hashable] | None = None,
           record: bool = True) -> SearchResult[M]:
    """Search from ``root`` until a won position, exhaustion, or a budget runs out.

    ``max_states`` bounds the positions recorded (never exceeded: a position that would be one
    too many makes the answer ``unknown``); ``timeout`` bounds the seconds, checked before each
    child is made, so the overrun is at most one successor computation.

    ``lost`` holds keys of positions proved lost, by earlier searches of the same problem: they
    are skipped. The search adds each position it proves lost (``record``), so that a search cut
    short by a budget still leaves its proofs to the next (docs/solver.md, section 7). A
    position is proved lost when the strongly connected component of the move graph it lies in
    (Tarjan's algorithm) has been searched to the end: then every position reachable from it
    has been searched without meeting a won one.
    """
    if max_states < 1:
        raise ValueError("max_states must be at least 1")
    start = clock()
    deadline = start + timeout
    if lost is None:
        lost = set()
    closed = lost if record else set(lost)  # positions proved lost, those known before included
    root_key = problem.key(root)
    # positions recorded by this search (its budget), with their priorities
    seen: dict[Hashable, float] = {root_key: 0.0}

    def done(result: str, line: list[M], stopped_by: str | None = None) -> SearchResult[M]:
        return SearchResult(result, line, len(seen), clock() - start, stopped_by)

    if root_key in closed:
        return done(RESULT_LOST, [])
    status = problem.status(root)
    if status == WON:
        return done(RESULT_WON, [])
    if status == LOST:
        closed.add(root_key)
        return done(RESULT_LOST, [])
    # Tarjan's bookkeeping: the order in which positions were expanded, for those whose component
    # is not finished yet, and those positions in that order.
    order: dict[Hashable, int] = {}
    open_keys: list[Hashable] = []
    # The path: each position with its key, the lowest order it reaches, its moves from its
    # parent and its children not yet expanded, best last (None until it is expanded).
    path: list[Sequence[M]] = []
    nodes: list[S] = [root]
    keys: list[Hashable] = [root_key]
    lows: list[int] = [0]
    frames: list[list[tuple[Sequence[M], S, Hashable]] | None] = [None]
    while frames:
        if clock() > deadline:
            return done(RESULT_UNKNOWN, [], "seconds")
        children = frames[-1]
        if children is None:
            here = len(order)
            order[keys[-1]] = lows[-1] = here
            open_keys.append(keys[-1])
            low = here
            ranked: list[tuple[float, int, Sequence[M], S, Hashable]] = []
            for moves, child in problem.successors(nodes[-1]):
                if clock() > deadline:
                    return done(RESULT_UNKNOWN, [], "seconds")
                k = problem.key(child)
                if k in closed:
                    continue
                at = order.get(k)
                if at is not None:  # expanded, its component still open: this one reaches it
                    if at < low:
                        low = at
                    continue
                rank = seen.get(k)
                if rank is None:  # new; else met as a child elsewhere and not yet expanded
                    if len(seen) >= max_states:
                        return done(RESULT_UNKNOWN, [], "states")
                    status = problem.status(child)
                    if status == WON:
                        return done(RESULT_WON, _flatten(path) + list(moves))
                    if status == LOST:
                        seen[k] = 0.0
                        closed.add(k)
                        continue
                    rank = seen[k] = problem.priority(child)
                ranked.append((rank, -len(ranked), moves, child, k))
            ranked.sort(key=lambda r: (r[0], r[1]))  # best last; ties keep the successor order
            children = [(r[2], r[3], r[4]) for r in ranked]
            frames[-1] = children
            lows[-1] = low
        # the next child not expanded meanwhile below a sibling
        while children:
            moves, child, k = children.pop()
            if k in closed:
                continue
            at = order.get(k)
            if at is None:
                break
            if at < lows[-1]:
                lows[-1] = at
        else:
            key, low = keys.pop(), lows.pop()
            if low == order[key]:  # the root of a component searched to the end: all lost
                while True:
                    k = open_keys.pop()
                    del order[k]
                    closed.add(k)
                    if k == key:
                        break
            elif lows and low < lows[-1]:
                lows[-1] = low
            frames.pop()
            nodes.pop()
            if path:
                path.pop()
            continue
        path.append(moves)
        nodes.append(child)
        keys.append(k)
        lows.append(0)
        frames.append(None)
    return done(RESULT_LOST, [])


def _flatten(path: list[Sequence[M]]) -> list[M]:
    return [m for moves in path for m in moves]
