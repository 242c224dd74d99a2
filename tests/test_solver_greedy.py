"""The greedy try (``Weights.greedy``, docs/solver.md, "A greedy try"): a try that searches
only moves that make progress and counts only a win, so a ``lost`` still comes from an exact
search alone and a ``won`` is still a line of the game."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardz_core.engine import WON, compile
from cardz_core.planners.solver import replay, solve
from cardz_core.rulesets import open_game
from cardz_core.solver.analysis import analysis_of
from cardz_core.solver.problem import GameProblem, Weights
from cardz_core.solver.search import search

MINI_SIMON = Path(__file__).resolve().parent / "data" / "games" / "mini_simon.cardz"
GREEDY = Weights(100, 20, 30, 0, 20, 0, 20, 1)
EXACT = GREEDY._replace(greedy=0)


def problem(name: str | Path, weights: Weights) -> GameProblem:
    game = open_game(str(name))
    return GameProblem(game, analysis_of(game), weights)


def test_an_order_writes_greedy_as_an_eighth_number():
    assert GREEDY.numbers() == [100, 20, 30, 0, 20, 0, 20, 1]
    assert Weights(100, 20, 30, 0, 20, 0, 0, 1).numbers() == [100, 20, 30, 0, 20, 0, 0, 1]
    assert EXACT.numbers() == [100, 20, 30, 0, 20, 0, 20]


def test_a_greedy_try_plays_a_card_home_at_once():
    greedy, exact = problem("forty_thieves", GREEDY), problem("forty_thieves", EXACT)
    game = greedy.game
    start = game.deal(0)  # an Ace lies on top of a column
    children = greedy.successors(start)
    assert len(children) == 1 and len(exact.successors(start)) > 1
    (move,), _ = children[0]
    assert move.dst in greedy.win_set and move.src not in greedy.win_set


def test_a_greedy_try_keeps_only_children_that_make_progress():
    greedy, exact = problem("spider_two_suits", GREEDY), problem("spider_two_suits", EXACT)
    state = greedy.game.deal(0)
    dropped = 0
    for _ in range(12):  # along the first children of the exact search
        kept = {line for line, _ in greedy.successors(state)}
        every = exact.successors(state)
        assert kept <= {line for line, _ in every}
        for line, child in every:
            assert (line in kept) == greedy.progress(state, line, child)
            dropped += line not in kept
        state = every[0][1]
    assert dropped > 0
    # a card turned up is progress; the same counts are not
    a, b = greedy.successors(greedy.game.deal(0))[0]
    assert greedy.progress(greedy.game.deal(0), a, b)


def test_a_greedy_try_taps_past_no_card_it_could_play():
    greedy, exact = problem("forty_thieves", GREEDY), problem("forty_thieves", EXACT)
    state = greedy.game.deal(1)
    taps = [line.count(line[0]) for line, _ in greedy.successors(state) if line[0].index == -1]
    every = [line.count(line[0]) for line, _ in exact.successors(state) if line[0].index == -1]
    assert taps and len(set(taps)) == 1  # one run of taps, to the first card it plays
    assert max(every) > max(taps)


@pytest.mark.engines_chosen
@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_greedy_graph_searched_to_the_end_is_no_proof_and_the_tries_go_on_exactly(engine):
    game = compile(open_game(str(MINI_SIMON)).spec, engine=engine)
    an = analysis_of(game)
    # deal 13: the greedy moves lead nowhere (their graph searched to the end in a few
    # positions), yet the deal is won; deal 0 is lost, proved by the exact tries
    graph = search(GameProblem(game, an, GREEDY), game.deal(13), max_states=10_000, timeout=60,
                   lost=set(), record=False)
    assert graph.result == "lost" and graph.states < 50
    won = solve(game, game.deal(13), max_states=20_000, timeout=60, orders=(GREEDY,))
    assert won.result == "won"
    assert game.status(replay(game, game.deal(13), won.line)) == WON
    assert solve(game, game.deal(0), max_states=100_000, timeout=60,
                 orders=(GREEDY,)).result == "lost"


@pytest.mark.engines_chosen
@pytest.mark.parametrize("engine", ["native", "python"])
def test_a_greedy_order_wins_where_the_same_order_searching_exactly_does_not(engine):
    game = compile(open_game(str(MINI_SIMON)).spec, engine=engine)
    for seed in (2, 4, 7, 10):
        got = solve(game, game.deal(seed), max_states=140, timeout=60, orders=(GREEDY,))
        assert got.result == "won", f"deal {seed}"
        assert game.status(replay(game, game.deal(seed), got.line)) == WON
        assert solve(game, game.deal(seed), max_states=140, timeout=60,
                     orders=(EXACT,)).result == "unknown", f"deal {seed}"
