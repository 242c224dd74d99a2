"""Deals sampled from a view, and the ``sampling`` planner that solves them."""

from __future__ import annotations

import random
from typing import Any
from collections import Counter

import pytest

from cardz_core.cli.common import open_game
from cardz_core.engine import WON, compile
from cardz_core.limits import PLANNER_DEFAULT_NODES, PLANNER_MAX_DEALS, SAMPLING_ONE_WAY_NODES
from cardz_core.msdeal import ms_board_document
from cardz_core.planners import make_planner
from cardz_core.planners import sampling
from cardz_core.planners.base import Unknown, ballot, refuse_reveal
from cardz_core.planners.sampling import SamplingPlanner
from cardz_core.planners.solver import SolveResult
from cardz_core.problems import CardzError
from cardz_core.view import Seat, sample_deal
from test_solver_games import board, game_doc, make


def test_a_sampled_deal_is_a_full_board_the_view_stands_for():
    game = open_game("rulesets/spider.cardz")  # two packs: copies renumbered in views
    true = game.deal(4)
    v = game.view(true)
    rng = random.Random(1)
    for _ in range(5):
        deal = sample_deal(game, v, rng)
        assert deal.pools is None and all(c >= 0 for pile in deal.piles for c in pile)
        doc = game.board_document(deal)
        assert game.board_document(game.load_board(doc)) == doc  # a full deck: every card once
        again = game.view(deal)
        assert again.piles == v.piles and again.pools == v.pools
    assert sample_deal(game, true, rng) is true


def test_unknown_cards_come_in_every_order_equally_often():
    game = make(game_doc(suits=("Spades",), ranks=("Ace", "Two", "Three"), cells=0, columns=1,
                         face_down=3, face_up=0))
    v = game.view(game.deal(0))
    rng = random.Random(7)
    orders = Counter(sample_deal(game, v, rng).piles for _ in range(1200))
    assert len(orders) == 6 and all(150 <= n <= 250 for n in orders.values())


def test_a_view_with_too_few_unseen_cards_is_refused():
    game = open_game("rulesets/klondike.cardz")
    v = game.view(game.deal(0))
    short = v.copy()
    short.pools = tuple(tuple(0 for _ in pool) for pool in v.pools)
    with pytest.raises(CardzError, match="more unknown cards of pool 0"):
        sample_deal(game, short, random.Random(0))


@pytest.mark.parametrize("deals,ok", [(1, True), (PLANNER_MAX_DEALS, True),
                                      (PLANNER_MAX_DEALS + 1, False), (0, False),
                                      (2.5, False), ("3", False), (True, False)])
def test_deals_per_decision_are_limited(deals, ok):
    game = open_game("rulesets/klondike.cardz")
    if ok:
        assert make_planner(game, "sampling", deals=deals).deals == deals
    else:
        with pytest.raises(CardzError, match="1 to 1000 deals"):
            make_planner(game, "sampling", deals=deals)


@pytest.mark.parametrize("name, nodes", [("klondike", PLANNER_DEFAULT_NODES),
                                         ("golf", SAMPLING_ONE_WAY_NODES),
                                         ("dead_king_golf", SAMPLING_ONE_WAY_NODES)])
def test_the_default_budget_fits_the_solvers_model(name, nodes):
    """A one-way game's drawn deal needs tens of thousands of positions to be decided, so there
    the default budget is larger; a budget given is kept, and so is its fallback's."""
    game = open_game(f"rulesets/{name}.cardz")
    assert make_planner(game, "sampling").settings()["nodes"] == nodes
    given = make_planner(game, "sampling", nodes=500)
    assert given.settings()["nodes"] == 500 and given.fallback.settings()["nodes"] == 500


def test_with_every_card_known_it_solves_once_and_plays_the_win_out(monkeypatch):
    game = open_game("rulesets/freecell.cardz")
    seat = Seat(game, game.load_board(ms_board_document(game, 1)))
    planner = SamplingPlanner(game, nodes=20_000)
    calls = []
    real = sampling.solve
    monkeypatch.setattr(sampling, "solve", lambda *a, **k: calls.append(1) or real(*a, **k))
    rng = random.Random(0)
    while seat.state.status == 0:
        seat.play(planner.choose(game, seat.view, rng))
    assert seat.state.status == WON and len(calls) == 1


def test_with_every_card_known_a_proved_loss_gives_up(monkeypatch):
    game = make(game_doc(suits=("Spades", "Hearts"), ranks=("Ace", "Two"), cells=1, columns=1))
    lost = board(game, column_1="AS AH 2S 2H")  # moves left, but one cell cannot free the Aces
    planner = SamplingPlanner(game, nodes=100)
    monkeypatch.setattr(planner.fallback, "choose", lambda *a: pytest.fail("no need to ask"))
    assert game.legal_moves(game.view(lost))
    assert planner.choose(game, game.view(lost), random.Random(0)) is None


def test_the_move_most_samples_win_with_is_played(monkeypatch):
    game = open_game("rulesets/klondike.cardz")
    v = game.view(game.deal(7))
    legal = game.legal_moves(v)
    firsts = iter([legal[1], legal[2], legal[2], "lost"])

    def fake(game, deal, **budget):
        first = next(firsts)
        return SolveResult("lost") if first == "lost" else SolveResult("won", [first])

    monkeypatch.setattr(sampling, "solve", fake)
    assert SamplingPlanner(game, deals=4).choose(game, v, random.Random(0)) == legal[2]


@pytest.mark.engines_chosen
def test_votes_pick_a_winning_first_move_and_the_line_stops_at_a_reveal(monkeypatch):
    # on the native engine whatever the run's default: the votes are the same on both engines,
    # and the Python search takes 15 s for these solves
    game = compile(open_game("rulesets/klondike.cardz").spec, engine="native")
    v = game.view(game.deal(7))
    firsts = []
    real = sampling.solve

    def spy(*a, **k):
        found = real(*a, **k)
        if found.result == "won":
            firsts.append(found.line[0])
        return found

    monkeypatch.setattr(sampling, "solve", spy)
    planner = SamplingPlanner(game, nodes=40_000, deals=4)
    move = planner.choose(game, v, random.Random(3))
    legal = game.legal_moves(v)
    counts = Counter(firsts)
    assert counts and move == max(legal, key=lambda m: counts.get(m, 0))
    # the plan goes on from the view while nothing unknown turns up, and stops at the first reveal
    line, w = [move] + [m for _, m in planner.plan], v
    for i, m in enumerate(line):
        if i:
            assert planner.plan[i - 1][0] == w.piles
        try:
            w = game.apply(w, m, reveal=refuse_reveal)
        except Unknown:
            assert i == len(line) - 1
    again = SamplingPlanner(game, nodes=40_000, deals=4)
    assert again.choose(game, v, random.Random(3)) == move  # the same seed, the same choice


def test_without_a_win_in_any_sample_it_asks_expectimax(monkeypatch):
    game = open_game("rulesets/klondike.cardz")
    v = game.view(game.deal(7))
    planner = SamplingPlanner(game, nodes=16, deals=2)  # far too few positions for any win
    asked = []
    real = planner.fallback.choose
    monkeypatch.setattr(planner.fallback, "choose", lambda *a: asked.append(1) or real(*a))
    move = planner.choose(game, v, random.Random(0))
    assert asked == [1] and move in game.legal_moves(v)


def test_deals_that_cannot_change_the_vote_are_not_solved(monkeypatch):
    game = open_game("rulesets/klondike.cardz")
    v = game.view(game.deal(7))
    legal = game.legal_moves(v)
    calls = []
    monkeypatch.setattr(sampling, "solve", lambda *a, **k: calls.append(1) or SolveResult(
        "won", [legal[1]]))
    assert SamplingPlanner(game, deals=8).choose(game, v, random.Random(0)) == legal[1]
    assert len(calls) == 5  # 5 votes to none: the 3 deals left cannot catch up


def _won(*line: str) -> SolveResult:
    return SolveResult("won", line=list(line))


def test_the_ballot_plays_the_first_win_of_the_move_most_deals_won() -> None:
    moves = ["a", "b", "c"]
    results = [_won("b", "x"), SolveResult("lost"), _won("c", "y"), _won("c", "z"),
               SolveResult("unknown"), _won("b", "w")]
    # c and b tie at two each: the move listed first; a line whose first move is not legal here
    # (drawn from another deal) is no vote
    assert ballot(moves, iter(results), len(results)) == ["b", "x"]
    assert ballot(moves, iter(results[:4]), 4) == ["c", "y"]
    assert ballot(moves, iter([_won("d"), SolveResult("lost")]), 2) == []


def test_the_ballot_stops_solving_once_the_deals_left_cannot_change_it() -> None:
    solved: list[int] = []

    def results() -> Any:
        for i in range(5):
            solved.append(i)
            yield _won("a")

    assert ballot(["a", "b"], results(), 5) == ["a"]
    assert solved == [0, 1, 2]  # 3 votes to none, 2 deals left


def test_a_deal_drawn_from_a_view_draws_the_shuffles_of_its_redeals_too() -> None:
    """La Belle Lucie's every card is face up, so a drawn deal is the board; its redeal shuffles
    with the deal's generator, which the view cannot know (its own is 0): each drawn deal draws
    one, so a search through the redeal meets a layout of its own on each, not one made up."""
    game = open_game("rulesets/la_belle_lucie.cardz")
    v = game.view(game.deal(1))
    redeal = next(m for m in game.legal_moves(v) if m.index < 0)
    deals = [sample_deal(game, v, random.Random(seed)) for seed in (1, 1, 2)]
    assert all(d.piles == v.piles for d in deals) and v.rng == 0
    after = [game.apply(d, redeal).piles for d in deals]
    assert after[0] == after[1] != after[2]
    # no shuffle after the deal in Klondike: the generator is left as the view's
    klondike = open_game("rulesets/klondike.cardz")
    assert sample_deal(klondike, klondike.view(klondike.deal(1)), random.Random(1)).rng == 0
