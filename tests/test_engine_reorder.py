"""Departure 7 of issue 22, ``looseOrder``: a drag reorders cards along the fan. The move
``hand@3>hand@0`` (``Move(d, 3, d, 0)``) moves a card along its own depot, on both engines,
listed where the fan's order can change what the rules allow (docs/engine.md, "Reordering a
loose fan")."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cardz_core.engine import IllegalMove, Move, compile
from cardz_core.engine.documents import board_document, load_board
from cardz_core.engine.movetext import move_document, parse_move
from cardz_core.native import extension
from cardz_core.problems import CardzError
from cardz_core.rulesets import open_game
from cardz_core.spec import load_game
from conftest import board, move_texts, mv, pile, run_cli

HAND_ORDER = Path(__file__).parent / "data" / "games" / "hand_order.cardz"
native_built = pytest.mark.skipif(extension() is None, reason="the native extension is not built")


def hand_order(engine: str = "python"):
    return compile(load_game(HAND_ORDER), engine=engine)


def fan(eject: object, **extra: object):
    """A loose hand that ejects as ``eject``, and a pile that takes anything from it."""
    return compile(load_game({"name": "fan", "depots": [
        {"name": "stock", "type": "Stock", "acceptRule": "none", "ejectRule": "locked"},
        {"name": "hand", "type": "Waste", "looseOrder": True, "acceptRule": "none",
         "ejectRule": eject, **extra},
        {"name": "out", "type": "Tableau", "acceptRule": "any", "ejectRule": "locked"}]}),
        engine="python")


def test_a_card_of_a_loose_fan_moves_to_any_other_place_along_it():
    g = hand_order()
    s = board(g, {"hand": ["3H", "AS", "2H"]})
    # only the top card may be picked (topOnly), so only it moves along the fan
    assert move_texts(g, g.legal_moves(s)) == {"hand@2>hand@0", "hand@2>hand@1"}
    after = g.apply(s, parse_move(g, "hand@2>hand@0"))
    assert pile(g, after, "hand") == ["2H", "3H", "AS"]
    assert after.moves == 1
    # the Ace now on top plays home; the fan keeps its new order below it
    home = g.apply(after, mv(g, "hand", 2, "foundation-1"))
    assert pile(g, home, "foundation-1") == ["AS"] and pile(g, home, "hand") == ["2H", "3H"]


def test_a_reorder_keeps_faces_and_says_where_the_top_came_from():
    g = fan("any")
    hand = g.depot_index["hand"]
    s = board(g, {"hand": ["~AS", "2H", "3C"]})
    up = g.apply(s, Move(hand, 0, hand, 2))
    assert pile(g, up, "hand") == ["2H", "3C", "~AS"] and up.came_from[hand] == hand
    down = g.apply(s, Move(hand, 2, hand, 0))
    assert pile(g, down, "hand") == ["3C", "~AS", "2H"] and down.came_from[hand] == -1


def test_the_new_top_of_an_auto_flipping_fan_turns_up():
    g = fan("any", autoFlipTop=True)
    hand = g.depot_index["hand"]
    s = board(g, {"hand": ["~AS", "2H"]})
    assert pile(g, g.apply(s, Move(hand, 1, hand, 0)), "hand") == ["2H", "AS"]


@pytest.mark.parametrize("text,reason", [
    ("hand@1>hand@1", "at position 1 of hand already"),
    ("hand@1>hand@3", "to a position from 0 to 2, not 3"),
    ("hand@5>hand@0", "hand has no card at position 5"),
    ("hand@0>hand@1", "only the top card of hand may be picked up"),
    ("foundation-1@0>foundation-1@0", "can't move onto its own depot"),
])
def test_a_reorder_the_rules_do_not_allow_is_refused_saying_why(text, reason):
    g = hand_order()
    s = board(g, {"hand": ["3H", "AS", "2H"], "foundation-1": ["AH"]})
    move = parse_move(g, text)
    assert reason in (g.illegal_reason(s, move) or "")
    with pytest.raises(IllegalMove, match=reason.split(" ")[0]):
        g.apply(s, move)


def test_a_move_onto_its_own_depot_without_a_position_is_refused():
    g = hand_order()
    s = board(g, {"hand": ["3H", "AS"]})
    assert "already" not in (g.illegal_reason(s, parse_move(g, "hand@1>hand")) or "")
    assert g.illegal_reason(s, parse_move(g, "hand@1>hand")) is not None


def test_a_fan_whose_order_changes_nothing_lists_no_reorder_but_takes_one():
    # any card is picked alone, nothing lands on it: the order is a display matter
    g = fan({"gate": "Any", "unit": "Single"}, acceptRule="none")
    s = board(g, {"hand": ["AS", "2H"]})
    assert g.reorders == () and move_texts(g, g.legal_moves(s)) == {"hand@0>out", "hand@1>out"}
    hand = g.depot_index["hand"]
    assert pile(g, g.apply(s, Move(hand, 0, hand, 1)), "hand") == ["2H", "AS"]
    # the same fan taking drops: its top card is compared, so the order matters
    assert fan({"gate": "Any", "unit": "Single"}, acceptRule="any").reorders == (hand,)


@pytest.mark.parametrize("name", ["flower_garden", "climb_to_ten"])
def test_no_bundled_loose_fan_lists_a_reorder(name):
    g = open_game(name)
    assert g.loose and g.reorders == ()


def test_reorders_are_written_and_read_in_text_and_documents():
    g = hand_order()
    hand = g.depot_index["hand"]
    move = Move(hand, 2, hand, 0)
    assert move.at == 0 and Move(hand, 2, 3, 1).at == -1
    assert repr(move) == f"Move({hand}@2>{hand}@0)"
    assert g.move_text(move) == "hand@2>hand@0"
    doc = move_document(g, move)
    assert doc == {"from": "hand", "index": 2, "to": "hand", "at": 0}
    assert parse_move(g, doc) == move == parse_move(g, json.dumps({**doc, "text": "hand@2>hand@0"}))


@pytest.mark.parametrize("value,where,says", [
    ("hand@2>foundation-1@0", "", "only for moving a card along its own depot"),
    ({"from": "hand", "index": 2, "to": "foundation-1", "at": 0}, "/at", "'to' must be 'from'"),
    ({"from": "hand", "index": 2, "to": "hand", "at": 208}, "/at", "below 208"),
    ({"from": "hand", "index": 2, "to": "hand", "at": "0"}, "/at", "not '0'"),
    ({"from": "hand", "index": 2, "to": "hand", "at": 0, "declare": "H"}, "/at", "not both"),
])
def test_a_malformed_reorder_is_refused_at_its_pointer(value, where, says):
    with pytest.raises(CardzError) as err:
        parse_move(hand_order(), value, "/m")
    problem = err.value.problems[0]
    assert problem.path == "/m" + where and says in problem.message


def test_cardz_apply_takes_a_reorder(capsys, tmp_path):
    g = hand_order()
    state = g.deal(3)
    for _ in range(2):
        state = g.apply(state, g.legal_moves(state)[-1])  # tap stock twice: four in hand
    boardfile = tmp_path / "b.json"
    boardfile.write_text(json.dumps(board_document(g, state)))
    before = pile(g, state, "hand")
    code, out, err = run_cli(capsys, "apply", str(HAND_ORDER), "--board", str(boardfile),
                             "--move", "hand@3>hand@0")
    assert code == 0, err
    assert pile(g, load_board(g, json.loads(out)), "hand") == [before[3]] + before[:3]


@native_built
def test_both_engines_list_and_play_reorders_alike():
    py, nat = hand_order("python"), hand_order("native")
    played = 0
    for seed in range(40):
        a, b = py.deal(seed), nat.deal(seed)
        rnd = random.Random(seed)
        for _ in range(120):
            moves = py.legal_moves(a)
            assert nat.legal_moves(b) == moves
            if not moves:
                break
            move = rnd.choice(moves)
            played += move.at >= 0
            a, b = py.apply(a, move), nat.apply(b, move)
            assert a == b
    assert played > 100


@native_built
def test_the_native_engine_refuses_the_reorders_the_python_engine_refuses():
    py, nat = hand_order("python"), hand_order("native")
    s = board(py, {"hand": ["3H", "AS", "2H"], "foundation-1": ["AH"]})
    hand, home = py.depot_index["hand"], py.depot_index["foundation-1"]
    for move in (Move(hand, 1, hand, 1), Move(hand, 1, hand, 3), Move(hand, 0, hand, 2),
                 Move(hand, 5, hand, 0), Move(home, 0, home, 0), Move(hand, 2, hand, -1)):
        reason = py.illegal_reason(s, move)
        assert reason is not None
        with pytest.raises(IllegalMove) as err:
            nat.apply(s, move)
        assert str(err.value.problems[0].message) == reason
    assert nat.apply(s, Move(hand, 2, hand, 0)) == py.apply(s, Move(hand, 2, hand, 0))


@pytest.mark.parametrize("value,where", [
    ("hand@2>hand=H", ""),
    ({"from": "hand", "index": 2, "to": "hand", "declare": "H"}, "/declare"),
])
def test_a_suit_called_on_a_cards_own_depot_is_refused_not_read_as_a_place(value, where):
    with pytest.raises(CardzError) as err:
        parse_move(hand_order(), value, "/m")
    problem = err.value.problems[0]
    assert problem.path == "/m" + where and "calls no suit" in problem.message
