"""`cardz deal`, `cardz moves`, `cardz apply` through the CLI entry point."""

from __future__ import annotations

import io
import json

import pytest

from conftest import run_cli

from cardz_core.limits import MAX_MS_DEAL

# Six cards, two columns of one face-down and one face-up card, a one-card stock draw.
TINY = {
    "name": "Tiny Klondike",
    "depotOnly": True,
    "decks": [{"suits": ["Hearts", "Spades"], "ranks": ["Ace", "Two", "Three"]}],
    "depots": [
        {"name": "stock", "type": "Stock", "draw": {"to": "waste", "count": 1, "recycle": True},
         "landFace": "Down", "acceptRule": "none", "ejectRule": "locked"},
        {"name": "waste", "type": "Waste", "acceptRule": "none", "ejectRule": "topOnly"},
        {"name": "foundation", "type": "Foundation", "repeat": 2,
         "acceptRule": {"seed": "Ace", "build": {"direction": "Up"}, "suit": "Same"},
         "ejectRule": "locked"},
        {"name": "column", "type": "Tableau", "repeat": 2, "autoFlipTop": True,
         "acceptRule": {"seed": "Three", "build": {"direction": "Down"}, "suit": "AlternateColor",
                        "when": "source != waste",
                        "reason": "Cards from the waste go to the foundations"},
         "ejectRule": "faceUp"},
    ],
    "dealRules": [{"kind": "dealGroup", "to": "column", "faceDown": 1, "faceUp": 1}],
    "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
}

BOARD = {
    "format": "cardz-board/1", "game": "Tiny Klondike",
    "depots": {"stock": ["~3S"], "waste": ["2S"], "foundation-1": ["AH"], "foundation-2": [],
               "column-1": ["~AS", "3H"], "column-2": ["2H"]},
}


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.cardz"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    return str(path)


def test_deal_prints_the_opening_board(tiny, capsys):
    code, out, err = run_cli(capsys, "deal", tiny, "--seed", "7")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc["format"] == "cardz-board/1" and doc["game"] == "Tiny Klondike"
    assert list(doc["depots"]) == ["stock", "waste", "foundation-1", "foundation-2",
                                   "column-1", "column-2"]
    assert [len(doc["depots"][f"column-{i}"]) for i in (1, 2)] == [2, 2]
    assert doc["depots"]["column-1"][0].startswith("~")
    assert not doc["depots"]["column-1"][1].startswith("~")
    assert doc["status"] == "playing" and doc["counters"]["moves"] == 0
    assert run_cli(capsys, "deal", tiny, "--seed", "7", "--json")[1] == out  # deterministic


def test_deal_refusals(tiny, capsys, tmp_path):
    code, _, err = run_cli(capsys, "deal", tiny, "--ms", "1")
    assert code == 1 and "--ms 1: Microsoft deals need" in err
    code, _, err = run_cli(capsys, "deal", tiny, "--seed", "-1")  # a usage error, as argparse's
    assert code == 2 and "cardz deal: error: argument --seed: must be from 0 to" in err
    code, _, err = run_cli(capsys, "deal", str(tmp_path / "none.cardz"), "--seed", "1")
    assert code == 1 and "no such game file" in err
    code, _, err = run_cli(capsys, "deal", tiny)  # no --seed, --ms or --winnable
    assert code == 2 and "one of the arguments --seed --ms --winnable is required" in err


def test_moves_lists_text_forms(tiny, capsys):
    code, out, _ = run_cli(capsys, "moves", tiny, "--board", json.dumps(BOARD))
    assert code == 0
    lines = out.splitlines()
    assert "column-2@0>foundation-1" in lines and "tap stock" in lines
    assert "column-1@1>foundation-1" not in lines  # 3H is not the 2H
    code, out, _ = run_cli(capsys, "moves", tiny, "--board", json.dumps(BOARD), "--json")
    docs = json.loads(out)
    assert [d["text"] for d in docs] == lines
    assert {"from": "column-2", "index": 0, "to": "foundation-1",
            "text": "column-2@0>foundation-1"} in docs


def test_moves_reads_the_board_from_a_file_and_stdin(tiny, capsys, tmp_path, monkeypatch):
    path = tmp_path / "board.json"
    path.write_text(json.dumps(BOARD), encoding="utf-8")
    expected = run_cli(capsys, "moves", tiny, "--board", json.dumps(BOARD))[1]
    assert run_cli(capsys, "moves", tiny, "--board", str(path))[1] == expected
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(BOARD)))
    assert run_cli(capsys, "moves", tiny, "--board", "-")[1] == expected


def test_apply_text_and_document_forms(tiny, capsys, tmp_path, monkeypatch):
    code, out, _ = run_cli(capsys, "apply", tiny, "--board", json.dumps(BOARD),
                       "--move", "column-2@0>foundation-1")
    assert code == 0
    after = json.loads(out)
    assert after["depots"]["foundation-1"] == ["AH", "2H"] and after["depots"]["column-2"] == []
    assert after["counters"]["moves"] == 1
    doc_move = json.dumps({"from": "column-2", "index": 0, "to": "foundation-1"})
    assert run_cli(capsys, "apply", tiny, "--board", json.dumps(BOARD), "--move", doc_move)[1] == out
    path = tmp_path / "move.json"
    path.write_text(doc_move, encoding="utf-8")
    assert run_cli(capsys, "apply", tiny, "--board", json.dumps(BOARD), "--move", str(path))[1] == out
    monkeypatch.setattr("sys.stdin", io.StringIO("column-2@0>foundation-1\n"))
    assert run_cli(capsys, "apply", tiny, "--board", json.dumps(BOARD), "--move", "-")[1] == out


def test_apply_several_moves_in_turn(tiny, capsys):
    code, out, _ = run_cli(capsys, "apply", tiny, "--board", json.dumps(BOARD),
                       "--move", "column-2@0>foundation-1", "--move", "tap stock")
    assert code == 0
    after = json.loads(out)
    assert after["depots"]["waste"] == ["2S", "3S"] and after["depots"]["stock"] == []


def test_apply_illegal_move_says_why(tiny, capsys):
    code, out, err = run_cli(capsys, "apply", tiny, "--board", json.dumps(BOARD),
                         "--move", "waste@0>column-1")
    assert code == 1 and out == ""
    assert "waste@0>column-1 is not legal" in err
    assert "Cards from the waste go to the foundations" in err


def test_apply_refuses_bad_moves_and_boards(tiny, capsys):
    code, _, err = run_cli(capsys, "apply", tiny, "--board", json.dumps(BOARD), "--move", "up@1>x")
    assert code == 1 and "FROM@INDEX>TO" in err
    bad = {**BOARD, "depots": {**BOARD["depots"], "column-2": ["2H", "2H"]}}
    code, _, err = run_cli(capsys, "apply", tiny, "--board", json.dumps(bad), "--move", "tap stock")
    assert code == 1 and "/depots/column-2/1" in err and "one 2H too many" in err
    code, _, err = run_cli(capsys, "apply", tiny, "--board", "{oops", "--move", "tap stock")
    assert code == 1 and "not valid JSON" in err


FREECELL_SHAPE = {
    "name": "Cells",
    "depots": [
        {"name": "stock", "type": "Stock", "offTable": True},
        {"name": "cell", "type": "Cell", "repeat": 4,
         "acceptRule": {"emptyOnly": True, "single": True}},
        {"name": "foundation", "type": "Foundation", "repeat": 4,
         "acceptRule": {"seed": "Ace", "build": {"direction": "Up"}, "suit": "Same"}},
        {"name": "column", "type": "Tableau", "repeat": 8,
         "acceptRule": {"build": {"direction": "Down"}, "suit": "AlternateColor"}},
    ],
    "dealRules": [{"kind": "dealGroup", "to": "column", "faceUp": 1, "roundRobin": True}],
    "compoundMoves": "Staged",
}


def test_deal_ms_gives_the_microsoft_deal(tmp_path, capsys):
    path = tmp_path / "cells.cardz"
    path.write_text(json.dumps(FREECELL_SHAPE), encoding="utf-8")
    code, out, _ = run_cli(capsys, "deal", str(path), "--ms", "1")
    assert code == 0
    doc = json.loads(out)
    # deal 1 begins JD 2D 9H JC 5D 7H 7C 5H across the columns, then KD KC 9S 5S ...
    assert [doc["depots"][f"column-{i}"][0] for i in range(1, 9)] == \
        ["JD", "2D", "9H", "JC", "5D", "7H", "7C", "5H"]
    assert doc["depots"]["column-1"][1] == "KD" and doc["depots"]["stock"] == []
    code, out, _ = run_cli(capsys, "deal", str(path), "--ms", str(MAX_MS_DEAL))
    assert code == 0 and json.loads(out)["depots"]["stock"] == []
    for bad in ("0", str(MAX_MS_DEAL + 1)):
        for command in ("deal", "solve"):
            code, _, err = run_cli(capsys, command, str(path), "--ms", bad)
            assert code == 2 and f"argument --ms: must be from 1 to {MAX_MS_DEAL:,}, not" in err


VIEW = {**BOARD, "depots": {**BOARD["depots"], "stock": ["~?"], "column-1": ["~?", "3H"]},
        "unseen": [{"AS": 1, "3S": 1}]}


def test_apply_on_a_view(tiny, capsys):
    code, out, _ = run_cli(capsys, "apply", tiny, "--board", json.dumps(VIEW),
                       "--move", "column-2@0>foundation-1")
    assert code == 0 and json.loads(out)["unseen"] == [{"AS": 1, "3S": 1}]
    code, out, err = run_cli(capsys, "apply", tiny, "--board", json.dumps(VIEW), "--move", "tap stock")
    assert code == 1 and out == ""
    assert "tap stock turns up a card this view does not know" in err
