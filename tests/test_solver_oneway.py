"""The one-way model (Golf, Black Hole...): which rule sets it takes, agreement with a plain
exhaustive search even when every try is cut short (20 late positions per real game, 200 with
CARDZ_LONG=1), budgets, and positions it leaves to the general search."""

from __future__ import annotations

import copy
import functools
import random

import pytest
from test_solver_games import VARIANTS, make, plain_answer

from cardz_core import _native
from cardz_core.cli.common import open_game
from cardz_core.engine import WON, compile
from cardz_core.planners.solver import replay, solve
from cardz_core.solver import oneway
from cardz_core.solver.analysis import Analysis
from cardz_core.solver.oneway import OneWay, search_oneway
from conftest import LONG

CODE_BITS = 128  # src/solver/oneway.rs: the native model's positions fit this many bits
DEALS = 12 if LONG else 4  # whole deals per game compared between the two searches
DEAL_STATES = 100_000  # their budget: past the first tries on most deals
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
    """The one-way search and a plain exhaustive search give the same answers; won lines win;
    the native search gives the Python one's answer, positions and line."""
    ow = one_way(game)
    assert ow.reason is None
    answers = []
    for i, s in enumerate(positions):
        assert ow.fits(s) is None
        r = search_oneway(ow, s, max_states=1_000_000, timeout=60)
        assert r.result == plain_answer(game, s, limit=2_000_000), f"position {i}"
        fast = search_oneway(ow, s, max_states=1_000_000, timeout=60, native=True)
        assert (fast.result, fast.states, fast.line) == (r.result, r.states, r.line), f"position {i}"
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
@pytest.mark.parametrize("name", ["black_hole", "golf", "relaxed_golf", "dead_king_golf"])
def test_agrees_with_plain_exhaustive_search_late_in_real_deals(name, first, growth, monkeypatch):
    monkeypatch.setattr(oneway, "FIRST_TRY_STATES", first)
    monkeypatch.setattr(oneway, "TRY_GROWTH", growth)
    agree(*midgames(name))


def tiny_golf(when):
    """Tiny Golf whose foundation asks ``when`` of a card played on it."""
    doc = copy.deepcopy(VARIANTS["golf-like"])
    doc["depots"][1]["acceptRule"]["when"] = when
    return make(doc)


@pytest.mark.parametrize("first, growth", TRIES)
def test_a_foundation_when_on_the_two_cards_is_a_table_of_the_model(first, growth, monkeypatch):
    """Dead King Golf's kind of rule (nothing on a Six here): the model reads it off its table of
    which card may lie on which, and agrees with the plain search, restarts and all."""
    monkeypatch.setattr(oneway, "FIRST_TRY_STATES", first)
    monkeypatch.setattr(oneway, "TRY_GROWTH", growth)
    g = tiny_golf("top.rank != Six")
    ow = one_way(g)
    six = [i for i, c in enumerate(ow.takes) if not c]
    assert len(six) == 2 and ow.top_class[six[0]] == ow.top_class[six[1]]
    agree(g, [g.deal(seed) for seed in range(30)])


@pytest.mark.parametrize("when, reason", [
    ("count(source) > 1", "`when` reads more than the card and the top it lands on: piles, source"),
    ("count(Tableau) > 3", "`when` reads more than the card and the top it lands on: piles"),
])
def test_a_foundation_when_that_reads_the_board_leaves_the_model(when, reason):
    ow = one_way(tiny_golf(when))
    assert ow.reason is not None and reason in ow.reason


def test_an_expression_outside_the_foundation_leaves_the_model():
    doc = copy.deepcopy(VARIANTS["golf-like"])
    doc["depots"][0]["draw"]["when"] = "count(Tableau) > 0"
    ow = one_way(make(doc))
    assert ow.reason == "a rule expression other than the foundation's `when`"


def test_solve_takes_the_one_way_search_and_says_so():
    g = open_game("rulesets/golf.cardz")
    an = Analysis(g.spec)
    s = g.deal(0)
    r = solve(g, s, max_states=100_000, timeout=60, analysis=an)
    assert r.result == "won" and g.status(replay(g, s, r.line)) == WON
    assert len(r.notes) == 1 and r.notes[0].startswith("one-way game")
    r = solve(open_game("rulesets/klondike.cardz"), open_game("rulesets/klondike.cardz").deal(0),
              max_states=200, timeout=60, klondike_model=False)
    assert any(n.startswith("not a one-way game") for n in r.notes)


@pytest.mark.parametrize("native", [False, True], ids=["python", "native"])
def test_state_budget_is_exact_across_restarts(native, monkeypatch):
    monkeypatch.setattr(oneway, "FIRST_TRY_STATES", 2)
    g = open_game("rulesets/golf.cardz")
    ow = one_way(g)
    for seed in range(60):
        s = midgame(g, seed)
        full = search_oneway(ow, s, max_states=1_000_000, timeout=60, native=native)
        if full.result == "lost" and full.states > 10:
            break
    else:
        pytest.fail("no lost position with a search of some size among the seeds")
    assert search_oneway(ow, s, max_states=full.states, timeout=60, native=native).result == "lost"
    cut = search_oneway(ow, s, max_states=full.states - 1, timeout=60, native=native)
    assert (cut.result, cut.stopped_by, cut.states) == ("unknown", "states", full.states - 1)
    one = search_oneway(ow, s, max_states=1, timeout=60, native=native)
    assert (one.result, one.states) == ("unknown", 1)


@pytest.mark.parametrize("name", ["black_hole", "golf", "relaxed_golf", "dead_king_golf"])
def test_the_native_search_walks_the_python_ones_positions_on_whole_deals(name):
    """Whole deals, many of them past the first tries: the same answer, positions and line."""
    g = open_game(f"rulesets/{name}.cardz")
    ow = one_way(g)
    restarted = False
    for seed in range(DEALS):
        s = g.deal(seed)
        slow = search_oneway(ow, s, max_states=DEAL_STATES, timeout=600)
        fast = search_oneway(ow, s, max_states=DEAL_STATES, timeout=600, native=True)
        assert (fast.result, fast.states, fast.line, fast.stopped_by) == \
            (slow.result, slow.states, slow.line, slow.stopped_by), f"seed {seed}"
        restarted |= fast.states > oneway.FIRST_TRY_STATES
    assert restarted


def test_solve_on_the_native_engine_takes_the_native_one_way_search():
    native = compile(open_game("rulesets/golf.cardz").spec, engine="native")
    python = compile(native.spec, engine="python")
    for game, built in ((native, True), (python, False)):
        an = Analysis(game.spec)
        r = solve(game, game.deal(1), max_states=300_000, timeout=60, analysis=an)
        assert r.result == "won" and game.status(replay(game, game.deal(1), r.line)) == WON
        assert (an.oneway.native is not None) == built


def test_the_native_search_stops_on_its_clock():
    g = open_game("rulesets/black_hole.cardz")
    r = search_oneway(one_way(g), g.deal(2), max_states=1_000_000, timeout=0.0, native=True)
    assert (r.result, r.stopped_by) == ("unknown", "seconds") and r.states <= 17


def one_card_rules():
    """One card, which the foundation takes on itself: every pile of it can go home."""
    return _native.OneWaySearch([0], [[0]])


def search_piles(rules, piles, **kw):
    args = dict(stock=[], must=list(range(len(piles))), stuck=False, stock_must=False, top=0,
                first=10, growth=1.5, orders=oneway.ORDERS, ties=[], max_states=1_000_000,
                timeout=60.0)
    args.update(kw)
    return rules.search(piles, **args)


def test_a_model_of_code_bits_is_searched_natively_and_one_bit_more_is_left_to_python():
    # each pile holds one card (one bit a height), no stock, one top class (one bit)
    rules = one_card_rules()
    at = search_piles(rules, [[0]] * (CODE_BITS - 1), first=10_000)
    assert at is not None and at[0] == "won" and len(at[1]) == CODE_BITS - 1
    assert search_piles(rules, [[0]] * CODE_BITS) is None


def test_the_native_model_refuses_what_it_cannot_read():
    with pytest.raises(ValueError, match="out of range"):
        _native.OneWaySearch([0, 2], [[0], [1]])
    rules = one_card_rules()
    with pytest.raises(ValueError, match="out of range"):
        search_piles(rules, [[1]])
    with pytest.raises(ValueError, match="must be empty is out of range"):
        search_piles(rules, [[0]], must=[3])
    with pytest.raises(ValueError, match="below one position"):
        search_piles(rules, [[0]], max_states=0)
    # a second try with no tie-breaks: two piles of two, a first try of one position
    with pytest.raises(ValueError, match="tie-breaks"):
        search_piles(rules, [[0, 0], [0, 0]], first=1)
    assert search_piles(rules, [[0, 0], [0, 0]], first=1, ties=[[0.5, 0.25]] * 9)[0] == "won"
