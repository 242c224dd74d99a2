"""Views and chance on the native engine against the Python engine, the reference: seeded random
play of every bundled game, comparing after every move the player's view (with memory), the
view's legal moves, a move played on the view, and for a sample of its moves the outcomes (the
same order, exactly the same probabilities, revealed cards, views, coverage) and a sampled
outcome drawn from the same generator. A few deals here, many with CARDZ_LONG=1."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import pytest
from conftest import LONG

from cardz_core.engine import Game, Move, compile
from cardz_core.native import NativeEngineGame, extension
from cardz_core.planners.base import Unknown, refuse_reveal
from cardz_core.problems import CardzError
from cardz_core.rulesets import bundled
from cardz_core.spec import load_game
from cardz_core.view import Seat, View, as_view

pytestmark = pytest.mark.skipif(extension() is None, reason="the native extension is not built")

GAMES = {r.path.stem: r.path for r in bundled()}
DEALS = 40 if LONG else 1
MAX_MOVES = 200 if LONG else 25
LIMIT = 12  # outcomes listed per move compared (a redeal's full listing is far too long)
SAMPLED = 2 if LONG else 1  # moves of each view whose outcomes are compared


def _pair(path: Path) -> tuple[Game, Game]:
    spec = load_game(path, file=str(path))
    return compile(spec, engine="python"), compile(spec, engine="native")


def _same(a: Any, b: Any) -> None:
    """Two engines' answers: equal, or the same error."""
    if isinstance(a, Exception) or isinstance(b, Exception):
        assert type(a) is type(b) and str(a) == str(b)
    else:
        assert a == b


def _outcomes(game: Game, v: View, move: Move, limit: int | None) -> Any:
    try:
        got = game.outcomes(v, move, limit)
    except CardzError as exc:
        return exc
    return [(o.probability, o.revealed, o.view, type(o.view)) for o in got], got.coverage, \
        got.stopped


def _sample(game: Game, v: View, move: Move, seed: int) -> Any:
    rng = random.Random(seed)
    try:
        o = game.sample_outcome(v, move, rng)
    except CardzError as exc:
        return exc
    return o.probability, o.revealed, o.view, rng.getstate()


def _on_view(game: Game, v: View, move: Move) -> Any:
    try:
        after = game.apply(v, move, reveal=refuse_reveal)
    except Unknown:
        return "turns up an unknown card"
    return after, type(after)


def compare_views(py: Game, nat: Game, seed: int, max_moves: int) -> int:
    """Random play of deal ``seed``; how many outcome listings were compared."""
    assert isinstance(nat, NativeEngineGame)
    seat, rng = Seat(py, py.deal(seed)), random.Random(seed)
    listed = 0
    for step in range(max_moves):
        v = seat.view
        assert nat.view(seat.state, seat.memory) == v, (seed, step)
        assert nat.view(seat.state) == py.view(seat.state), (seed, step)
        moves = py.legal_moves(v)
        assert nat.legal_moves(v) == moves, (seed, step)
        for move in rng.sample(moves, min(SAMPLED, len(moves))):
            _same(_on_view(nat, v, move), _on_view(py, v, move))
            want = _outcomes(py, v, move, LIMIT)
            _same(_outcomes(nat, v, move, LIMIT), want)
            if not isinstance(want, Exception):
                probabilities, coverage, stopped = want
                assert math.isclose(sum(p for p, *_ in probabilities), coverage)
                assert coverage == 1.0 or len(probabilities) == LIMIT or stopped
            _same(_sample(nat, v, move, step), _sample(py, v, move, step))
            listed += 1
        true_moves = py.legal_moves(seat.state)
        if not true_moves:
            break
        seat.play(rng.choice(true_moves))
    return listed


@pytest.mark.parametrize("name", sorted(GAMES))
def test_views_and_outcomes_agree_with_the_python_engine(name: str):
    py, nat = _pair(GAMES[name])
    for seed in range(DEALS):
        compare_views(py, nat, seed, MAX_MOVES)


def test_a_full_listing_sums_to_one_and_a_limit_keeps_the_likeliest():
    py, nat = _pair(GAMES["klondike"])
    v = py.view(py.deal(3))
    tap = Move(py.depot_index["stock"], -1, -1)
    full = nat.outcomes(v, tap)
    assert [o.probability for o in full] == [o.probability for o in py.outcomes(v, tap)]
    assert math.isclose(sum(o.probability for o in full), 1.0) and full.coverage == 1.0
    cut = nat.outcomes(v, tap, limit=5)
    assert [o.view for o in cut] == [o.view for o in full[:5]]
    assert cut.coverage == py.outcomes(v, tap, limit=5).coverage < 1.0


def test_a_board_document_of_a_view_plays_natively_as_a_view():
    py, nat = _pair(GAMES["klondike"])
    doc = py.board_document(py.view(py.deal(5)))
    v = as_view(nat.load_board(doc))
    tap = Move(py.depot_index["stock"], -1, -1)
    assert nat.outcomes(v, tap, limit=3) == py.outcomes(v, tap, limit=3)


def test_an_illegal_move_on_a_view_gives_the_python_engines_reason():
    py, nat = _pair(GAMES["klondike"])
    v = py.view(py.deal(1))
    bad = Move(0, 0, 0)
    with pytest.raises(CardzError) as want:
        py.outcomes(v, bad)
    with pytest.raises(CardzError) as got:
        nat.outcomes(v, bad)
    assert str(got.value) == str(want.value)
