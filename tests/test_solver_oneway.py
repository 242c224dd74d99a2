"""The one-way model (Golf, Black Hole...): which rule sets it takes, agreement with a plain
exhaustive search even when every try is cut short (20 late positions per real game, 200 with
CARDZ_LONG=1), budgets, and positions it leaves to the general search."""

from __future__ import annotations

import copy
import functools
import itertools
import random

import pytest
from test_solver_games import VARIANTS, board, make, plain_answer

from cardz_core.cli.common import open_game
from cardz_core.engine import WON
from cardz_core.planners.solver import replay, solve
from cardz_core.solver import oneway
from cardz_core.solver.analysis import Analysis
from cardz_core.solver.oneway import OneWay, search_oneway
from conftest import LONG

CARDS_LEFT = 18  # real deals are played down to this many cards outside the foundation
POSITIONS = 200 if LONG else 20  # positions per real game (CARDZ_LONG=1 for the long run)


def one_way(game):
    return OneWay(Analysis(game.spec))


@functools.lru_cache(maxsize=None)
def midgames(name):
    g = open_game(f"rulesets/{name}.cardz")
    return g, [s for s in (midgame(g, seed) for seed in range(POSITIONS)) if g.status(s) == 0]


def midgame(game, seed):
    """A position of a real deal with at most CARDS_LEFT cards in play, reached along a winning
    line where the deal has one (else at random), then up to three random moves."""
    rng = random.Random(seed)
    s = game.deal(seed)
    ow = one_way(game)
    line = iter(search_oneway(ow, s, max_states=50_000, timeout=60).line)

    def in_play(s):
        return sum(len(p) for p in s.piles) - len(s.piles[ow.home])

    while in_play(s) > CARDS_LEFT and game.legal_moves(s):
        s = game.apply(s, next(line, None) or rng.choice(game.legal_moves(s)))
    for _ in range(rng.randint(0, 3)):
        moves = game.legal_moves(s)
        if moves:
            s = game.apply(s, rng.choice(moves))
    return s


TRIES = [(oneway.FIRST_TRY_STATES, oneway.TRY_GROWTH), (1, 1.2), (3, 2)]


def agree(game, positions):
    """The one-way search and a plain exhaustive search give the same answers; won lines win."""
    ow = one_way(game)
    assert ow.reason is None
    answers = []
    for i, s in enumerate(positions):
        assert ow.fits(s) is None
        r = search_oneway(ow, s, max_states=1_000_000, timeout=60)
        assert r.result == plain_answer(game, s, limit=2_000_000), f"position {i}"
        if r.result == "won":
            assert game.status(replay(game, s, r.line)) == WON
        answers.append(r.result)
    assert "won" in answers and "lost" in answers


@pytest.mark.parametrize("first, growth", TRIES)
def test_agrees_with_plain_exhaustive_search_on_tiny_golf(first, growth, monkeypatch):
    """Tiny first tries force many restarts, each keeping what earlier ones proved lost."""
    monkeypatch.setattr(oneway, "FIRST_TRY_STATES", first)
    monkeypatch.setattr(oneway, "TRY_GROWTH", growth)
    g = make(VARIANTS["golf-like"])
    agree(g, [g.deal(seed) for seed in range(30)])


@pytest.mark.parametrize("first, growth", TRIES)
@pytest.mark.parametrize("name", ["black_hole", "golf", "relaxed_golf"])
def test_agrees_with_plain_exhaustive_search_late_in_real_deals(name, first, growth, monkeypatch):
    monkeypatch.setattr(oneway, "FIRST_TRY_STATES", first)
    monkeypatch.setattr(oneway, "TRY_GROWTH", growth)
    agree(*midgames(name))


def test_solve_takes_the_one_way_search_and_says_so():
    g = open_game("rulesets/golf.cardz")
    an = Analysis(g.spec)
    s = g.deal(0)
    r = solve(g, s, max_states=100_000, timeout=60, analysis=an)
    assert r.result == "won" and g.status(replay(g, s, r.line)) == WON
    assert len(r.notes) == 1 and r.notes[0].startswith("one-way game")
    r = solve(open_game("rulesets/klondike.cardz"), open_game("rulesets/klondike.cardz").deal(0),
              max_states=200, timeout=60)
    assert any(n.startswith("not a one-way game") for n in r.notes)


def test_state_budget_is_exact_across_restarts(monkeypatch):
    monkeypatch.setattr(oneway, "FIRST_TRY_STATES", 2)
    g = open_game("rulesets/golf.cardz")
    ow = one_way(g)
    for seed in range(60):
        s = midgame(g, seed)
        full = search_oneway(ow, s, max_states=1_000_000, timeout=60)
        if full.result == "lost" and full.states > 10:
            break
    else:
        pytest.fail("no lost position with a search of some size among the seeds")
    assert search_oneway(ow, s, max_states=full.states, timeout=60).result == "lost"
    cut = search_oneway(ow, s, max_states=full.states - 1, timeout=60)
    assert (cut.result, cut.stopped_by, cut.states) == ("unknown", "states", full.states - 1)
    one = search_oneway(ow, s, max_states=1, timeout=60)
    assert (one.result, one.states) == ("unknown", 1)


def test_time_budget_stops_the_search():
    g = open_game("rulesets/black_hole.cardz")
    ticks = itertools.count()
    r = search_oneway(one_way(g), g.deal(2), max_states=1_000_000, timeout=50,
                      clock=lambda: next(ticks))
    assert r.result == "unknown" and r.stopped_by == "seconds" and r.states < 60


def test_positions_outside_the_model_go_to_the_general_search():
    g = make(VARIANTS["golf-like"])
    ow = one_way(g)
    s = board(g, stock="~AS ~2S", foundation="3S", column_1="~4S 5S", column_2="AH 2H 3H 4H",
              column_3="5H 6H 6S")
    assert ow.fits(s) == "a pile holds a face-down card"
    r = solve(g, s, max_states=10_000, timeout=60)
    assert r.result == plain_answer(g, s)
    assert ow.fits(g.set_rules(g.deal(0), False)) == "the rules are off"


def test_changed_rules_leave_the_model():
    cases = {
        "a second depot takes cards": ("depots", 2, "acceptRule", {"build": {"direction": "Down"}}),
        "the foundation gives cards back": ("depots", 1, "ejectRule", "topOnly"),
        "a pile gives groups": ("depots", 2, "ejectRule", "any"),
    }
    for what, (_, i, field, value) in cases.items():
        doc = copy.deepcopy(VARIANTS["golf-like"])
        doc["depots"][i][field] = value
        assert one_way(make(doc)).reason is not None, what
    doc = copy.deepcopy(VARIANTS["golf-like"])
    doc["depots"][0]["draw"]["recycle"] = True
    assert "once through" in one_way(make(doc)).reason
