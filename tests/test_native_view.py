"""Views and chance on the native engine against the Python engine, the reference, on chosen
positions: a full outcome listing and a limited one, a view loaded from a board document, an
illegal move's reason. Random play's views and outcomes are compared by the differential harness
(tests/test_differential.py)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from cardz_core.engine import Game, Move, compile
from cardz_core.native import extension
from cardz_core.problems import CardzError
from cardz_core.rulesets import bundled
from cardz_core.spec import load_game
from cardz_core.view import as_view

pytestmark = pytest.mark.skipif(extension() is None, reason="the native extension is not built")

GAMES = {r.path.stem: r.path for r in bundled()}


def _pair(path: Path) -> tuple[Game, Game]:
    spec = load_game(path, file=str(path))
    return compile(spec, engine="python"), compile(spec, engine="native")


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
