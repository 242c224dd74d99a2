"""The native search (src/solver.rs) against the Python one (cardz_core/solver/search.py).

Both searches walk the same positions in the same order, the tries with noise included (both
draw it from splitmix64 and round it to single precision): the same answer, the same count of
positions and the same line. Every native win replays on the Python engine."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardz_core.cli.common import open_game
from cardz_core.engine import WON, compile
from cardz_core.msdeal import deal_ms
from cardz_core.native import NativeEngineGame
from cardz_core.planners.solver import (NATIVE_NOTE, PROBE_MIN_STATES, PYTHON_NOTE, _native_solver,
                                        prepare, replay, solve)
from cardz_core.solver.analysis import analysis_of
from cardz_core.solver.problem import FACE_DOWN_ORDERINGS, ORDERINGS, Weights
from conftest import LONG

BUNDLED = sorted(Path(__file__).resolve().parent.parent.joinpath("rulesets").glob("*.cardz"))
SMALL = 200  # positions: one try, no noise (below PROBE_MIN_STATES)
# Simple Simon on 18 cards of three suits: columns build down in any suit, runs in one suit move
MINI_SIMON = Path(__file__).resolve().parent / "data" / "games" / "mini_simon.cardz"


def engines(path: Path | str) -> tuple[object, object]:
    spec = open_game(str(path)).spec  # both compiled here: CARDZ_ENGINE does not choose
    return compile(spec, engine="native"), compile(spec, engine="python")


def replays_on_python(python_game: object, start: object, line: list) -> bool:
    """Whether ``line`` wins from the position ``start`` on the Python engine."""
    plain = python_game.deal(0)  # a plain State of the Python engine, filled from ``start``
    for name in ("piles", "came_from", "recycles", "redeals", "moves", "undos", "recycles_total",
                 "seed_rank", "declared", "auto_moved", "status", "rng"):
        setattr(plain, name, getattr(start, name))
    return python_game.status(replay(python_game, plain, line)) == WON


@pytest.mark.parametrize("path", BUNDLED, ids=lambda p: p.stem)
def test_both_searches_walk_the_same_positions_on_every_bundled_game(path):
    assert SMALL < PROBE_MIN_STATES
    native, python = engines(path)
    if _native_solver(native, analysis_of(native)) is None:
        pytest.skip("the Python search: a condition or step the analysis does not know")
    start = native.deal(0)
    got = solve(native, start, max_states=SMALL, timeout=60)
    if NATIVE_NOTE not in got.notes:
        pytest.skip("the one-way model (cardz_core/solver/oneway.py)")
    assert isinstance(native, NativeEngineGame)
    want = solve(python, python.deal(0), max_states=SMALL, timeout=60)
    assert PYTHON_NOTE in want.notes
    assert (got.result, got.states, got.line) == (want.result, want.states, want.line)
    assert got.states <= SMALL
    if got.result == "won":
        assert replays_on_python(python, start, got.line)


def test_both_searches_weigh_stuck_cards_alike():
    """An order that weighs ``stuck`` steers both searches the same way: the same positions
    and line, a path of its own (the same order without it does not win these deals within
    the positions)."""
    native, python = engines(MINI_SIMON)
    budget = PROBE_MIN_STATES - 50  # one try, no noise
    stuck, plain = (Weights(100, 20, 30, 0, 20, 0, 50),), (Weights(100, 20, 30, 0, 20, 0),)
    for seed in (2, 4, 7, 10):
        got = solve(native, native.deal(seed), max_states=budget, timeout=60, orders=stuck)
        want = solve(python, python.deal(seed), max_states=budget, timeout=60, orders=stuck)
        assert NATIVE_NOTE in got.notes and PYTHON_NOTE in want.notes
        assert got.result == "won", f"deal {seed}"
        assert (got.states, got.line) == (want.states, want.line), f"deal {seed}"
        assert replays_on_python(python, native.deal(seed), got.line)
        assert solve(native, native.deal(seed), max_states=budget, timeout=60,
                     orders=plain).result == "unknown", f"deal {seed}"


@pytest.mark.parametrize("path, deals", [
    ("rulesets/spider_two_suits.cardz", (0, 2, 4)),
    ("rulesets/gargantua.cardz", (1, 4, 5)),
])
def test_both_searches_make_the_same_greedy_try(path, deals):
    """A greedy order (``Weights.greedy``) prunes both searches alike: the same positions and
    line (Spider's stock deals, Gargantua's tap runs and moves home); the same order searching
    exactly does not win these deals within the positions."""
    native, python = engines(path)
    budget = 4_000  # one try (a twentieth of it is below PROBE_MIN_STATES)
    greedy = Weights(100, 20, 30, 0, 20, 0, 20, 1)
    for seed in deals:
        got = solve(native, native.deal(seed), max_states=budget, timeout=60, orders=(greedy,))
        want = solve(python, python.deal(seed), max_states=budget, timeout=120, orders=(greedy,))
        assert NATIVE_NOTE in got.notes and PYTHON_NOTE in want.notes
        assert got.result == "won", f"deal {seed}"
        assert (got.states, got.line) == (want.states, want.line), f"deal {seed}"
        assert replays_on_python(python, native.deal(seed), got.line)
        assert solve(native, native.deal(seed), max_states=budget, timeout=60,
                     orders=(greedy._replace(greedy=0),)).result == "unknown", f"deal {seed}"


@pytest.mark.parametrize("path, deals, budget", [
    ("rulesets/freecell.cardz", (2, 3, 5), 6_000),
    ("rulesets/klondike.cardz", (1, 7, 26), 20_000),  # 26: won by the sixth try, with noise
    ("rulesets/klondike_draw3.cardz", (1, 2), 3_000),
    ("rulesets/canfield.cardz", (2,), 10_000),
    # a loss by "no legal move": a dead end ranked in one try, proved lost only in a later one
    ("rulesets/yukon.cardz", (6,), 20_000),
    # with CARDZ_LONG=1, more deals, and games whose loss is "no legal move" (dead ends)
    *([("rulesets/klondike.cardz", range(30, 60), 20_000),
       ("rulesets/alaska.cardz", range(0, 30), 20_000),
       ("rulesets/yukon.cardz", range(0, 20), 20_000),
       ("rulesets/canfield.cardz", range(3, 23), 20_000)] if LONG else []),
], ids=lambda v: Path(v).stem if isinstance(v, str) else None)
def test_both_searches_walk_the_same_positions_through_tries_with_noise(path, deals, budget):
    native, python = engines(path)
    for n in deals:
        start = deal_ms(native, n) if "freecell" in path else native.deal(n)
        got = solve(native, start, max_states=budget, timeout=60, klondike_model=False)
        assert NATIVE_NOTE in got.notes and got.states <= budget
        want = solve(python, deal_ms(python, n) if "freecell" in path else python.deal(n),
                     max_states=budget, timeout=600)
        assert (got.result, got.states, got.line) == (want.result, want.states, want.line), n
        if got.result == "won":
            assert replays_on_python(python, start, got.line), f"deal {n}"


def test_the_native_search_is_deterministic():
    native, _ = engines("rulesets/klondike.cardz")
    s = native.deal(26)  # won by a try with noise (the sixth) with tries of 1,000 positions
    first = solve(native, s, max_states=20_000, timeout=60, klondike_model=False)
    assert first.result == "won" and native.status(replay(native, s, first.line)) == WON
    again = solve(native, s, max_states=20_000, timeout=60, klondike_model=False)
    assert (again.line, again.states) == (first.line, first.states)


def test_the_state_budget_at_and_past_what_a_proof_needs():
    native, _ = engines("rulesets/klondike.cardz")
    s = native.deal(7)  # lost: proved in 235 positions by one try
    proof = solve(native, s, max_states=PROBE_MIN_STATES - 1, timeout=60, klondike_model=False)
    assert (proof.result, proof.states) == ("lost", 235)
    assert solve(native, s, max_states=235, timeout=60, klondike_model=False).result == "lost"
    short = solve(native, s, max_states=234, timeout=60, klondike_model=False)
    assert (short.result, short.states, short.stopped_by) == ("unknown", 234, "states")
    one = solve(native, s, max_states=1, timeout=60, klondike_model=False)
    assert (one.result, one.states, one.stopped_by) == ("unknown", 1, "states")


def test_the_time_budget():
    native, _ = engines("rulesets/freecell.cardz")
    r = solve(native, deal_ms(native, 11982), max_states=1_000_000, timeout=0.05)
    assert (r.result, r.stopped_by) == ("unknown", "seconds") and r.seconds < 1.0
    endless = solve(native, deal_ms(native, 2), max_states=20_000, timeout=float("inf"))
    assert endless.result == "won" and NATIVE_NOTE in endless.notes
    # a budget spent before the search begins (the time left goes below zero) is none at all:
    # it was read as no limit (before stop 69), and the search ran to its positions
    for tiny in (1e-9, 1e-6):
        spent = solve(native, deal_ms(native, 11982), max_states=1_000_000, timeout=tiny)
        assert (spent.result, spent.stopped_by) == ("unknown", "seconds") and spent.states < 1_000


def test_games_on_the_python_engine_keep_the_python_search():
    _, python = engines("rulesets/freecell.cardz")
    r = solve(python, deal_ms(python, 2), max_states=20_000, timeout=60)
    assert r.result == "won" and PYTHON_NOTE in r.notes and NATIVE_NOTE not in r.notes


def test_prepare_builds_the_native_search_once_for_every_deal():
    native, python = engines("rulesets/freecell.cardz")
    an = analysis_of(native)
    search = prepare(native, an)
    assert search is not None and an.native is search and an.oneway is not None
    r = solve(native, deal_ms(native, 2), max_states=20_000, timeout=60, analysis=an)
    assert r.result == "won" and NATIVE_NOTE in r.notes and an.native is search
    assert prepare(python, analysis_of(python)) is None  # the Python engine: the Python search


def test_a_solve_with_orders_of_its_own_builds_only_that_native_search(monkeypatch):
    import cardz_core.planners.solver as solver_module

    native, _ = engines("rulesets/freecell.cardz")
    an = analysis_of(native)
    plans: list[object] = []  # one per native search built
    real = solver_module.solver_plan

    def counted(*args, **kw):
        plans.append(real(*args, **kw))
        return plans[-1]

    monkeypatch.setattr(solver_module, "solver_plan", counted)
    orders = (ORDERINGS[-1],)
    for _ in range(2):
        r = solve(native, deal_ms(native, 2), max_states=20_000, timeout=60, analysis=an,
                  orders=orders)
        assert r.result == "won" and NATIVE_NOTE in r.notes
    # one search, for those orders; the default one is built only when a solve asks for it
    assert len(plans) == 1 and an.native is None
    assert prepare(native, an, orders) is prepare(native, an, orders) and len(plans) == 1
    assert solve(native, deal_ms(native, 2), max_states=20_000, timeout=60,
                 analysis=an).result == "won"
    assert len(plans) == 2 and an.native is not None


def test_both_searches_streamline_with_the_first_of_the_orders_given():
    """Klondike draw 3, deal 167, with orders of its own: the first round and the streamlined try
    after it (lazy stock, with the first of the orders given) are the same in both searches, and
    the streamlined try wins the deal there, within 20,000 positions."""
    native, python = engines("rulesets/klondike_draw3.cardz")
    orders = (ORDERINGS[0]._replace(depth=10), *ORDERINGS[1:], *FACE_DOWN_ORDERINGS)
    got = solve(native, native.deal(167), max_states=20_000, timeout=60, orders=orders,
                klondike_model=False)
    want = solve(python, python.deal(167), max_states=20_000, timeout=600, orders=orders)
    assert got.result == "won" and (got.states, got.line) == (want.states, want.line)
    assert replays_on_python(python, native.deal(167), got.line)


@pytest.mark.parametrize("path, deals", [("rulesets/fan.cardz", (1, 3, 8)),
                                         ("rulesets/king_albert.cardz", (2, 3, 4))])
def test_one_try_walks_the_same_positions_on_both_engines_past_the_least_cut(path, deals):
    # 20,000 positions would be cut into tries, with noise after the first round; one try is not
    budget = 40 * PROBE_MIN_STATES
    native, python = engines(path)
    for n in deals:
        got = solve(native, native.deal(n), max_states=budget, timeout=600, one_try=True)
        assert NATIVE_NOTE in got.notes, f"deal {n}"
        want = solve(python, python.deal(n), max_states=budget, timeout=600, one_try=True)
        assert PYTHON_NOTE in want.notes
        assert (got.result, got.states, got.line) == (want.result, want.states, want.line), n
        assert got.states <= budget
