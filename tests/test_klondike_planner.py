"""The ``klondike`` planner: the stock read first, then each decision by the native model's
sampled children (src/solver/klondike/sampled.rs; its own tests are in that file)."""

from __future__ import annotations

import random

import pytest
from test_planners import _hidden_twin
from test_solver_klondike import native, ruleset, small

from cardz_core.engine import WON
from cardz_core.engines import compile as compile_for
from cardz_core.limits import KLONDIKE_MAX_SAMPLES, PLANNER_MAX_GAME_NODES, PLANNER_MAX_NODES
from cardz_core.planners import klondike as planner_module
from cardz_core.planners import make_planner
from cardz_core.planners.base import Unknown, refuse_reveal
from cardz_core.planners.solver import solve
from cardz_core.problems import CardzError
from cardz_core.solver import klondike
from cardz_core.spec import load_game
from cardz_core.view import Seat

pytestmark = pytest.mark.skipif(klondike.extension() is None,
                                reason="the native extension is not built")


def draw3():
    return native(ruleset("klondike_draw3"))


def play(game, seed, moves, **options):
    """Play deal ``seed`` with the planner, every move checked legal on the true state; the
    seat and the moves it chose."""
    seat = Seat(game, game.deal(seed))
    planner = make_planner(game, "klondike", **options)
    rng = random.Random(seed)
    chosen = []
    while seat.state.status == 0 and seat.state.moves < moves:
        move = planner.choose(game, seat.view, rng)
        if move is None:
            break
        assert move in game.legal_moves(seat.state), game.move_text(move)
        chosen.append(move)
        seat.play(move)
    return seat, chosen


@pytest.mark.parametrize("option,value,ok", [
    ("samples", 1, True), ("samples", KLONDIKE_MAX_SAMPLES, True),
    ("samples", KLONDIKE_MAX_SAMPLES + 1, False), ("samples", 0, False), ("samples", True, False),
    ("limit", 1, True), ("limit", PLANNER_MAX_NODES, True), ("limit", PLANNER_MAX_NODES + 1, False),
    ("limit", 0, False), ("limit", 2.5, False), ("unknown", 0.0, True), ("unknown", 1, True),
    ("unknown", 1.01, False), ("unknown", -0.5, False), ("nodes", PLANNER_MAX_NODES, True),
    ("nodes", PLANNER_MAX_NODES + 1, False), ("nodes", 0, False), ("seconds", 0.5, True),
    ("reveal", 0.0, True), ("reveal", 1, True), ("reveal", 1.5, False), ("reveal", True, False),
    ("seconds", 0, False), ("commit", True, True), ("commit", 1, False), ("game_nodes", 1, True),
    ("game_nodes", PLANNER_MAX_GAME_NODES, True), ("game_nodes", PLANNER_MAX_GAME_NODES + 1, False),
    ("game_nodes", 0, False), ("game_nodes", 1e6, False), ("in_order", False, True),
    ("in_order", 1, False)])
def test_options_are_bounded(option, value, ok):
    game = draw3()
    if ok:
        make_planner(game, "klondike", **{option: value})
    else:
        with pytest.raises(CardzError, match="klondike planner|time budget"):
            make_planner(game, "klondike", **{option: value})


def test_a_node_budget_is_that_many_positions_in_solves_of_the_limit():
    game = draw3()
    assert make_planner(game, "klondike", nodes=50_000, limit=2_000).samples == 25
    assert make_planner(game, "klondike", nodes=10, limit=2_000).samples == 1


def test_a_games_budget_shrinks_a_decision_to_what_an_eighth_of_the_rest_pays_for():
    planner = make_planner(draw3(), "klondike", samples=400, limit=2_000, game_nodes=8_000_000)
    assert planner_module.GAME_PACE == 8 and planner_module.MIN_PACED_SAMPLES == 16
    assert planner.paced_samples() == 400  # an eighth of 8M pays for 500 solves of the limit
    planner.spent, planner.solves = 6_400_000, 12_800  # 500 positions a solve so far
    assert planner.paced_samples() == 400  # 1.6M left: an eighth pays for 400
    planner.spent, planner.solves = 7_200_000, 14_400
    assert planner.paced_samples() == 200
    planner.solves = 7_200
    assert planner.paced_samples() == 100  # a solve has cost 1,000 positions
    planner.spent, planner.solves = 7_990_000, 15_980
    assert planner.paced_samples() == planner_module.MIN_PACED_SAMPLES  # 10k left: never fewer
    planner.spent = 9_000_000
    assert planner.paced_samples() == planner_module.MIN_PACED_SAMPLES
    assert make_planner(draw3(), "klondike", samples=400).paced_samples() == 400  # no budget


def watch_decisions(monkeypatch, alter=None):
    """Every decision the planner asks the model for, as (solves asked for, kind, children,
    positions recorded); ``alter(solves, kind, tallies)`` may change the tallies it is given."""
    made = []
    model = klondike.native_model

    class Watched:
        def __init__(self, shape):
            self.model = model(shape)

        def decide(self, *args):
            kind, tallies, positions = self.model.decide(*args)
            made.append((args[5], kind, len(tallies), positions))
            return kind, alter(args[5], kind, tallies) if alter else tallies, positions

    monkeypatch.setattr("cardz_core.planners.klondike.native_model", Watched)
    return made


def test_a_games_budget_bounds_the_positions_its_solves_record(monkeypatch):
    game = draw3()
    made = watch_decisions(monkeypatch)
    free = play(game, 2, 1000, samples=100, limit=1_000)[1]
    spent = sum(d[3] for d in made)
    made.clear()
    budget = spent // 4
    paced = play(game, 2, 1000, samples=100, limit=1_000, game_nodes=budget)[1]
    assert paced != free
    # the first decision prices a solve at the limit
    assert made[0][0] == min(100, max(planner_module.MIN_PACED_SAMPLES, budget // 8 // 1_000))
    assert min(d[0] for d in made) == planner_module.MIN_PACED_SAMPLES
    # past the budget only the fewest solves, each within the limit
    total, over = 0, 0
    for n, _, _, positions in made:
        if total >= budget:
            assert n == planner_module.MIN_PACED_SAMPLES
            over += positions
        total += positions
    assert total < spent and over <= 1_000 * planner_module.MIN_PACED_SAMPLES * len(made)
    assert play(game, 2, 1000, samples=100, limit=1_000, game_nodes=budget)[1] == paced


@pytest.mark.parametrize("full_says_lost", [False, True])
def test_a_paced_decision_that_finds_every_deal_lost_is_made_again_in_full(
        monkeypatch, full_says_lost):
    """A game's budget run low leaves a decision a few solves, too few to give up on: before
    resigning the planner decides again with its whole ``samples``."""
    def lost_when_paced(solves, kind, tallies):
        if kind == "children" and len(tallies) > 1 and (solves < 100 or full_says_lost):
            return [(steps, 0, won + lost + unknown, 0) for steps, won, lost, unknown in tallies]
        return tallies

    game = draw3()
    made = watch_decisions(monkeypatch, lost_when_paced)
    seat, chosen = play(game, 2, 60, samples=100, limit=1_000, game_nodes=1)  # always paced
    # each decision: the solves asked for, and whether it chose among children
    asked = [(n, kind == "children" and children > 1) for n, kind, children, _ in made]
    first = [among for _, among in asked].index(True)
    assert [n for n, _ in asked[first:first + 2]] == [planner_module.MIN_PACED_SAMPLES, 100]
    if full_says_lost:  # confirmed in full: it resigns at its first decision among children
        assert len(asked) == first + 2 and seat.state.status == 0 and len(chosen) < 60
    else:  # the full decision found won deals: it plays on, each such decision made twice
        assert len(chosen) == 60
        assert all(asked[i + 1][0] == 100 for i, (n, among) in enumerate(asked) if among and n < 100)
    made.clear()
    play(game, 2, 60, samples=100, limit=1_000)  # no budget: a full decision, no second one
    assert {d[0] for d in made} == {100}


def test_when_every_child_leads_back_the_best_goes_back_a_few_times(monkeypatch):
    """A board where each child leads back to one a decision was made on is not given up at
    once: the best child is played again, up to ``MAX_RETURNS`` times a board."""
    game = draw3()
    seat, _ = play(game, 2, 12, samples=50, limit=500)
    planner = make_planner(game, "klondike", samples=50, limit=500)
    real = planner._played
    monkeypatch.setattr(planner, "_played", lambda *args: (real(*args)[0], "decided on"))
    chosen = []
    for _ in range(planner_module.MAX_RETURNS + 1):
        planner.plan = []  # each time a new decision on the same board
        chosen.append(planner.choose(game, seat.view, random.Random(5)))
    assert planner_module.MAX_RETURNS == 2
    assert all(m in game.legal_moves(seat.state) for m in chosen[:-1]) and chosen[-1] is None
    assert planner.returns == {"decided on": planner_module.MAX_RETURNS}


def test_it_needs_the_native_engine_and_a_klondike_shaped_game():
    with pytest.raises(CardzError, match="native engine"):
        make_planner(compile_for(load_game(ruleset("klondike_draw3")), engine="python"), "klondike")
    with pytest.raises(CardzError, match="Klondike-shaped"):
        make_planner(native(ruleset("freecell")), "klondike")


@pytest.mark.parametrize("name, taps", [("klondike", 25), ("klondike_draw3", 9)])
def test_it_reads_the_stock_first_and_comes_back_to_the_same_board(name, taps):
    game = native(ruleset(name))
    seat = Seat(game, game.deal(3))
    planner = make_planner(game, "klondike", samples=20)
    stock = planner.shape.stock
    tap = None
    for _ in range(taps):  # deal the stock out, then turn it over
        tap = planner.choose(game, seat.view, random.Random(1))
        assert tap is not None and tap.src == stock and tap.index == -1
        seat.play(tap)
    assert not planner.reading
    assert seat.state.piles == game.deal(3).piles
    assert seat.view.piles[stock] and all(c >= 0 for c in seat.view.piles[stock])


def test_it_cannot_read_hidden_cards():
    game = draw3()
    for seed in (1, 2, 3):
        state = game.deal(seed)
        twin = _hidden_twin(game, state, seed)
        v, w = game.view(state), game.view(twin)
        assert v == w
        a = make_planner(game, "klondike", samples=40).choose(game, v, random.Random(5))
        b = make_planner(game, "klondike", samples=40).choose(game, w, random.Random(5))
        assert a == b


@pytest.mark.parametrize("commit,in_order", [(False, True), (True, True), (False, False)])
def test_a_seed_plays_the_same_game(commit, in_order):
    game = draw3()
    first = play(game, 8, 60, samples=40, commit=commit, in_order=in_order)[1]
    again = play(game, 8, 60, samples=40, commit=commit, in_order=in_order)[1]
    assert again == first and len(first) > 40  # a game, not a resignation at once


@pytest.mark.parametrize("commit,in_order", [(False, True), (True, True), (False, False)])
def test_it_wins_small_klondikes_whose_deals_are_won(commit, in_order):
    for name in ("klondike-draw-1", "klondike-draw-3"):
        game = native(small(name))
        won = [s for s in range(1, 40) if solve(game, game.deal(s)).result == "won"][:5]
        assert len(won) == 5
        for seed in won:
            seat, _ = play(game, seed, 300, samples=64, limit=5_000, commit=commit,
                           in_order=in_order)
            assert seat.state.status == WON, (name, seed)


def test_dealt_in_order_or_to_places_the_samples_differ():
    # the same seed and budget choose differently somewhere when the unseen cards are dealt in
    # the order they turn up: the option reaches the model
    game = draw3()
    moves = {o: play(game, 8, 60, samples=40, in_order=o)[1] for o in (False, True)}
    assert moves[False] != moves[True]


def test_a_board_the_model_refuses_is_a_clear_error():
    game = draw3()
    planner = make_planner(game, "klondike", samples=4)
    shape = planner.shape
    piles = [list(p) for p in game.deal(1).piles]
    # the stock dealt face up to the waste (nothing left to read), and a column whose two
    # face-up cards are no run: the top card of the last column laid on the first
    piles[shape.waste] = [c | 1 for c in reversed(piles[shape.stock])]
    piles[shape.stock] = []
    piles[shape.columns[0]].append(piles[shape.columns[-1]].pop())
    piles[shape.columns[-1]][-1] |= 1
    odd = game.deal(1).copy()
    odd.piles = tuple(tuple(p) for p in piles)
    with pytest.raises(CardzError, match="cannot take this board"):
        planner.choose(game, game.view(odd), random.Random(1))


def read(game, seed):
    """The view of deal ``seed`` once the planner has read its stock (Klondike draw 3)."""
    seat = Seat(game, game.deal(seed))
    planner = make_planner(game, "klondike")
    for _ in range(9):
        seat.play(planner.choose(game, seat.view, random.Random(1)))
    assert not planner.reading
    return seat.view


def test_a_child_that_leads_back_to_a_board_it_decided_on_is_passed_over(monkeypatch):
    game = draw3()
    planner = make_planner(game, "klondike", samples=40)
    for seed in range(1, 30):  # a deal with a child that turns nothing up, and another child
        view = read(game, seed)
        position = klondike.model_position(planner.shape, view)
        unseen = [x for x in range(52) if any(p[x] for p in view.pools)]
        kind, tallies, _ = klondike.native_model(planner.shape).decide(
            *position, unseen, 40, 1000, 0.0, 1, 60.0)
        quiet = []  # children whose moves turn nothing up, with the board they lead to
        for t in tallies:
            plan = planner._played(game, view, list(position[1]), t[0])[0]
            v = view
            try:
                for _, move in plan:
                    v = game.apply(v, move, reveal=refuse_reveal)
            except Unknown:
                continue
            quiet.append((t[0], plan, v.piles))
        if kind == "children" and quiet and len(tallies) > 1:
            break
    step, plan, end = quiet[0]
    fake = [(step, 9, 0, 0), *[(t[0], 1, 0, 0) for t in tallies if t[0] != step]]

    class Model:
        def decide(self, *args):
            return "children", fake, 0

    monkeypatch.setattr("cardz_core.planners.klondike.native_model", lambda shape: Model())
    first = make_planner(game, "klondike", samples=40)
    first.choose(game, view, random.Random(1))
    assert first.plan == plan[1:]  # the best is played
    again = make_planner(game, "klondike", samples=40)
    again.seen.add(end)
    again.choose(game, view, random.Random(1))
    assert again.plan != plan[1:]  # it leads back: the next best is played


def test_a_child_that_turns_a_card_up_goes_first_within_the_reveal_margin():
    planner = make_planner(draw3(), "klondike")
    columns = [(0, [5]), (2, [1, 2, 40])]  # column 1 turns a card up when its card 40 leaves
    talon_play, reveal, quiet = [(-1, 3, 0)], [(0, 0, 1), (1, 2, 0)], [(0, 0, 1)]
    tallies = [(talon_play, 50, 50, 0), (quiet, 49, 51, 0), (reveal, 47, 53, 0)]
    assert planner._reveal_first(tallies, columns, 0.05)[0][0] == reveal
    assert planner._reveal_first(tallies, columns, 0.01) == tallies
    first = [(reveal, 40, 60, 0), *tallies[:2]]
    assert planner._reveal_first(first, columns, 0.5) == first  # already first
    hopeless = [(talon_play, 5, 95, 0), (reveal, 0, 100, 0)]  # within 0.2, but never won
    assert planner._reveal_first(hopeless, columns, 0.2) == hopeless
    assert planner._reveal_first([hopeless[0], (reveal, 0, 99, 1)], columns, 0.2)[0][0] == reveal


def test_it_gives_up_only_when_the_best_child_lost_every_deal(monkeypatch):
    game = draw3()
    planner = make_planner(game, "klondike")
    for seed in range(1, 30):  # a deal with a child that turns a card up, and another child
        view = read(game, seed)
        position = klondike.model_position(planner.shape, view)
        unseen = [x for x in range(52) if any(p[x] for p in view.pools)]
        kind, tallies, _ = klondike.native_model(planner.shape).decide(
            *position, unseen, 40, 1000, 0.0, 1, 60.0)
        columns = position[0]
        reveals = [t[0] for t in tallies
                   if t[0][-1][0] >= 0 and 0 < columns[t[0][-1][0]][0] == t[0][-1][1]]
        others = [t[0] for t in tallies if t[0] not in reveals]
        if kind == "children" and reveals and others:
            break
    for best, then, gives_up in [((others[0], 3, 97, 0), (reveals[0], 0, 100, 0), False),
                                 ((others[0], 0, 100, 0), (reveals[0], 0, 100, 0), True)]:
        class Model:
            def decide(self, *args, fake=[best, then]):
                return "children", fake, 0

        monkeypatch.setattr("cardz_core.planners.klondike.native_model", lambda shape: Model())
        move = make_planner(game, "klondike").choose(game, view, random.Random(1))
        assert (move is None) == gives_up


def test_a_time_budget_cuts_a_decision_short():
    """After its deadline a decision still made every planned solve (before stop 69): with
    200,000 solves of 100,000 positions a `seconds` of 0.1 took minutes. Now the children are
    ranked on the deals solved by then."""
    import time

    game = draw3()
    seat = Seat(game, game.deal(2))
    planner = make_planner(game, "klondike", samples=200_000, limit=100_000, seconds=0.1)
    started = time.process_time()
    move = planner.choose(game, seat.view, random.Random(2))
    assert move in game.legal_moves(seat.view)
    assert time.process_time() - started < 10  # minutes without the cut
