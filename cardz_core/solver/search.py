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

PLAYING, WON, LOST = 0, 1, 2  # the engine's status numbers (cardz_core.engine.state)

RESULT_WON, RESULT_LOST, RESULT_UNKNOWN = "won", "lost", "unknown"


class Problem(Protocol[S, M]):
    def successors(self, state: S) -> Iterable[tuple[Sequence[M], S]]:
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
           clock: Callable[[], float] = time.perf_counter) -> SearchResult[M]:
    """Search from ``root`` until a won position, exhaustion, or a budget runs out.

    ``max_states`` bounds the positions recorded (never exceeded: a position that would be one
    too many makes the answer ``unknown``); ``timeout`` bounds the seconds, checked before each
    child is made, so the overrun is at most one successor computation.
    """
    if max_states < 1:
        raise ValueError("max_states must be at least 1")
    start = clock()
    deadline = start + timeout
    seen: set[Hashable] = {problem.key(root)}

    def done(result: str, line: list[M], stopped_by: str | None = None) -> SearchResult[M]:
        return SearchResult(result, line, len(seen), clock() - start, stopped_by)

    status = problem.status(root)
    if status == WON:
        return done(RESULT_WON, [])
    if status == LOST:
        return done(RESULT_LOST, [])
    # Each frame: the moves that reached the position, and its unexpanded children, best last.
    path: list[Sequence[M]] = []
    frames: list[list[tuple[Sequence[M], S]] | None] = [None]
    nodes: list[S] = [root]
    while frames:
        if clock() > deadline:
            return done(RESULT_UNKNOWN, [], "seconds")
        children = frames[-1]
        if children is None:
            children = []
            ranked: list[tuple[float, int, Sequence[M], S]] = []
            for moves, child in problem.successors(nodes[-1]):
                if clock() > deadline:
                    return done(RESULT_UNKNOWN, [], "seconds")
                k = problem.key(child)
                if k in seen:
                    continue
                if len(seen) >= max_states:
                    return done(RESULT_UNKNOWN, [], "states")
                seen.add(k)
                status = problem.status(child)
                if status == WON:
                    return done(RESULT_WON, _flatten(path) + list(moves))
                if status == LOST:
                    continue
                ranked.append((problem.priority(child), -len(ranked), moves, child))
            ranked.sort(key=lambda r: (r[0], r[1]))  # best last; ties keep the successor order
            children = [(r[2], r[3]) for r in ranked]
            frames[-1] = children
        if not children:
            frames.pop()
            nodes.pop()
            if path:
                path.pop()
            continue
        moves, child = children.pop()
        path.append(moves)
        nodes.append(child)
        frames.append(None)
    return done(RESULT_LOST, [])


def _flatten(path: list[Sequence[M]]) -> list[M]:
    return [m for moves in path for m in moves]
