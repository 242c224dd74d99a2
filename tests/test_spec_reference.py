"""The four complete games of the reference load and check clean, into the expected model."""

from pathlib import Path

import pytest

from cardz_core.spec import load, load_game
from cardz_core.spec.model import Expr, Pattern

DATA = Path(__file__).parent / "data" / "spec"
GAMES = sorted(DATA.glob("*.cardz"))


def test_the_four_reference_games_are_there():
    assert {p.stem for p in GAMES} >= {"pocket_patience", "climb_to_ten", "under_twenty_one",
                                       "round_the_loop"}


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_reference_game_checks_clean(path):
    spec, problems = load(path)
    assert problems == []
    assert spec is not None and spec.text == path.read_text()


def test_pocket_patience_model():
    spec = load_game(DATA / "pocket_patience.cardz")
    assert [d.name for d in spec.depots] == [
        "stock", "waste", "foundation-1", "foundation-2", "foundation-3", "foundation-4",
        "column-1", "column-2", "column-3", "column-4"]
    assert spec.groups["column"] == ("column-1", "column-2", "column-3", "column-4")
    assert len(spec.cards) == 52 and spec.depot_only
    f3 = spec.depot("foundation-3")
    assert (f3.group, f3.index, f3.col, f3.row) == ("foundation", 3, 5.0, 0.0)
    assert f3.accept.seed == 1 and f3.accept.build.direction == "Up" and f3.accept.suit == "Same"
    assert f3.accept.ptr == "/rules/foundation" and f3.eject.gate == "Locked"
    col = spec.depot("column-2")
    assert col.fan_direction == "Down" and col.eject.gate == "FaceUp" and col.auto_flip_top
    assert spec.depot("waste").fan_direction == "None" and spec.depot("waste").accept.rejects_all
    stock = spec.depot("stock")
    assert stock.draw.to == "waste" and stock.draw.recycle and stock.draw.max_recycles is None
    (deal,) = spec.deal
    assert deal.kind == "dealGroup" and deal.ptr == "/dealRules/0"
    assert deal.args["to"] == spec.groups["column"]
    assert (deal.args["faceDown"], deal.args["faceUp"], deal.args["roundRobin"]) == (2, 1, False)
    assert spec.win.kind == "allCardsIn"
    assert spec.win.args["depots"] == Pattern("Foundation", None, "/winCondition/depots")
    assert spec.loss is None and not spec.uses_expressions


def test_round_the_loop_steps():
    spec = load_game(DATA / "round_the_loop.cardz")
    loop = spec.depot("loop")
    look, travel = loop.actions
    assert look.name == "look" and look.do[0].args == {"depot": "loop"}
    move = travel.do[0]
    assert move.self_depot == "loop" and move.args["from"] == "loop" and move.args["under"] is True
    assert move.args["count"] == Expr("top(depot).value", "/depots/0/actions/1/do/0/count")
    assert loop.triggers[0].do[0].args["to"] == "aces"
    assert len(spec.cards) == 20 and all(c.card.rank <= 5 for c in spec.cards)
    assert spec.uses_expressions


def test_under_twenty_one_values_and_scoring():
    spec = load_game(DATA / "under_twenty_one.cardz")
    assert spec.values == {"J": 10, "Q": 10, "K": 10}
    assert spec.scoring.value.text == "sum(column)" and spec.scoring.better == "High"
    assert spec.scoring.keep == "Won"
    hand = spec.depot("hand")
    assert hand.eject.unit.kind == "Single" and hand.eject.gate == "Any"


def test_climb_to_ten_deck():
    spec = load_game(DATA / "climb_to_ten.cardz")
    assert len(spec.cards) == 40
    assert spec.depot("hand").fan_direction == "Right" and spec.depot("hand").loose_order
