"""The generic search on small explicit graphs whose answers are known by hand or by BFS."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given, settings, strategies as st

from cardz_core.solver.search import LOST, PLAYING, WON, search


class Graph:
    """Positions are ints; ``edges[n]`` lists (move, child); statuses default to PLAYING."""

    def __init__(self, edges: dict[int, list[tuple[str, int]]], won=(), lost=(), key=None) -> None:
        self.edges = edges
        self.won = set(won)
        self.lost = set(lost)
        self._key = key or (lambda n: n)
        self.expanded: list[int] = []

    def successors(self, n):
        self.expanded.append(n)
        return [((m,), c) for m, c in self.edges.get(n, [])]

    def status(self, n):
        return WON if n in self.won else LOST if n in self.lost else PLAYING

    def key(self, n):
        return self._key(n)

    def priority(self, n):
        return -n


def walk(g: Graph, start: int, line: list[str]) -> int:
    for move in line:
        start = dict(g.edges[start])[move]
    return start


def reachable(g: Graph, start: int) -> set[int]:
    seen, todo = {start}, deque([start])
    while todo:
        n = todo.popleft()
        if n in g.won or n in g.lost:
            continue
        for _, c in g.edges.get(n, []):
            if c not in seen:
                seen.add(c)
                todo.append(c)
    return seen


def test_won_line_walks_to_the_win():
    g = Graph({0: [("a", 1), ("b", 2)], 1: [("c", 0)], 2: [("d", 3)], 3: [("e", 4)]}, won=[4])
    r = search(g, 0, max_states=100, timeout=10)
    assert r.result == "won"
    assert walk(g, 0, r.line) == 4


def test_cycles_without_a_win_are_lost_and_each_position_expanded_once():
    g = Graph({0: [("a", 1)], 1: [("b", 2), ("x", 0)], 2: [("c", 0), ("d", 1)]})
    r = search(g, 0, max_states=100, timeout=10)
    assert r.result == "lost" and r.states == 3
    assert sorted(g.expanded) == [0, 1, 2]


def test_a_lost_position_is_not_expanded():
    g = Graph({0: [("a", 1)], 1: [("b", 2)]}, won=[2], lost=[1])
    assert search(g, 0, max_states=100, timeout=10).result == "lost"
    assert g.expanded == [0]


def test_root_already_won_or_lost():
    assert search(Graph({}, won=[0]), 0, max_states=1, timeout=1).result == "won"
    assert search(Graph({}, lost=[0]), 0, max_states=1, timeout=1).result == "lost"


def chain(n: int) -> Graph:
    return Graph({i: [("next", i + 1)] for i in range(n - 1)})


def test_state_budget_is_exact():
    g = chain(10)
    assert search(g, 0, max_states=10, timeout=10).result == "lost"
    r = search(chain(10), 0, max_states=9, timeout=10)
    assert r.result == "unknown" and r.stopped_by == "states" and r.states == 9
    with pytest.raises(ValueError):
        search(chain(3), 0, max_states=0, timeout=10)


def test_time_budget_stops_the_search():
    ticks = iter(range(1_000_000))
    r = search(chain(1000), 0, max_states=10_000, timeout=50, clock=lambda: float(next(ticks)))
    assert r.result == "unknown" and r.stopped_by == "seconds"
    assert r.states < 1000


def test_equal_keys_are_one_position():
    # 1 and 2 share a key: only one of them is searched, and both lead to the same dead end.
    g = Graph({0: [("a", 1), ("b", 2)], 1: [("c", 3)], 2: [("d", 3)]}, key=lambda n: min(n, 1) if n < 3 else n)
    r = search(g, 0, max_states=100, timeout=10)
    assert r.result == "lost" and r.states == 3


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n),
    st.sets(st.integers(1, n - 1), max_size=2),
    st.sets(st.integers(1, n - 1), max_size=2))))
def test_agrees_with_breadth_first_reachability(case):
    n, pairs, won, lost = case
    edges: dict[int, list[tuple[str, int]]] = {}
    for a, b in pairs:
        edges.setdefault(a, []).append((f"{a}>{b}#{len(edges.get(a, []))}", b))
    g = Graph(edges, won=won, lost=lost - won)
    r = search(g, 0, max_states=1000, timeout=60)
    winnable = bool(reachable(g, 0) & g.won)
    assert r.result == ("won" if winnable else "lost")
    if winnable:
        assert walk(g, 0, r.line) in g.won
    else:
        assert r.states == len(reachable(g, 0))


@settings(max_examples=600, deadline=None)
@given(st.integers(2, 12).flatmap(lambda n: st.tuples(
    st.just(n),
    st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n),
    st.sets(st.integers(1, n - 1), max_size=2),
    st.integers(1, 4))))
def test_searches_cut_short_leave_only_true_proofs_of_loss(case):
    """Searches of a few positions each, sharing what they proved lost, in varying sibling
    orders: every position they record as lost can reach no win, and the series ends with the
    right answer (cycles and children met twice included). As in ``solve``, a search that
    proved less than half its positions lost is followed by one with twice the budget."""
    n, pairs, won, budget = case
    edges: dict[int, list[tuple[str, int]]] = {}
    for a, b in pairs:
        edges.setdefault(a, []).append((f"{a}>{b}#{len(edges.get(a, []))}", b))
    g = Graph(edges, won=won)
    lost: set = set()
    for attempt in range(100):
        g.priority = lambda m, attempt=attempt: (m * 7 + attempt * 3) % 5  # type: ignore[method-assign]
        before = len(lost)
        r = search(g, 0, max_states=budget, timeout=60, lost=lost)
        if 2 * (len(lost) - before) < r.states:
            budget *= 2
        for k in lost:
            assert not reachable(g, k) & g.won
        if r.result != "unknown":
            break
    winnable = bool(reachable(g, 0) & g.won)
    assert r.result == ("won" if winnable else "lost")
    if not winnable:
        assert 0 in lost


def test_a_position_that_returns_to_an_open_one_is_not_proved_lost():
    # 0 -> 1 -> 0 is searched first; 1 is finished before 0's other child 3 leads to the win 4,
    # so 1 must not be recorded lost: it reaches the win through 0
    g = Graph({0: [("a", 1), ("m", 3)], 1: [("b", 0)], 3: [("c", 4)]}, won=[4])
    lost: set = set()
    assert search(g, 0, max_states=100, timeout=10, lost=lost).result == "won"
    assert g.expanded[:2] == [0, 1] and lost == set()


def test_a_search_that_does_not_record_leaves_the_proofs_alone():
    g = Graph({0: [("a", 1)], 1: [("b", 2)]})
    lost = {5}
    assert search(g, 0, max_states=10, timeout=10, lost=lost, record=False).result == "lost"
    assert lost == {5}
    assert search(g, 0, max_states=10, timeout=10, lost=lost).result == "lost"
    assert lost == {0, 1, 2, 5}


def test_positions_known_lost_are_not_searched_again():
    # 0 -> 1 -> 2 -> 1 (a cycle) and 0 -> 3; with 1 known lost only 0 and 3 are searched
    g = Graph({0: [("a", 1), ("b", 3)], 1: [("c", 2)], 2: [("d", 1)]})
    r = search(g, 0, max_states=10, timeout=10, lost={1})
    assert r.result == "lost" and r.states == 2 and g.expanded == [0, 3]
