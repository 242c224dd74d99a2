"""`cardz eval FILE --board B EXPR`."""

import json

import pytest

from cardz_core.cli.main import main
from test_expr_examples import CLIMB_TO_TEN

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10"]
PLACED = {"hand": ["4H", "~5H"], "tower-1": ["AS", "2S"], "tower-2": ["10D"], "tower-3": [], "discard": []}


@pytest.fixture
def files(tmp_path):
    game = tmp_path / "climb.cardz"
    game.write_text(json.dumps(CLIMB_TO_TEN))
    used = {c.lstrip("~") for pile in PLACED.values() for c in pile}
    stock = ["~" + r + s for s in "CDHS" for r in RANKS if r + s not in used]
    board = tmp_path / "board.json"
    board.write_text(json.dumps({"format": "cardz-board/1", "depots": {"stock": stock, **PLACED}}))
    return str(game), str(board)


@pytest.mark.parametrize("expr,text,data", [
    ("sum(tower)", "13", 13),
    ("count(discard) < 5", "true", True),
    ("top(tower)", "10D", "10D"),
    ("faceDown(hand)", "~5H", ["~5H"]),
    ("hand", "hand", "hand"),
    ("tower", "tower-1 tower-2 tower-3", ["tower-1", "tower-2", "tower-3"]),
    ("first(tower, empty(it))", "tower-3", "tower-3"),
    ("first(tower, true) == neighbour(depot(\"tower-2\"), -1)", "true", True),
    ("top(discard)", "no card", None),
    ("neighbour(depot(\"tower-3\"), 1)", "no depot", None),
    ("faceUp(discard)", "no cards", []),
    ("top(tower).suit", "Diamonds", "Diamonds"),
    ("bottom(hand).rank", "Four", "Four"),
    ("top(hand).rank", "missing", None),
    ("top(hand).color", "missing", None),
    ("bottom(hand).color", "Red", "Red"),
    ("moves + 1", "1", 1),
])
def test_eval_prints_the_value(files, capsys, expr, text, data):
    game, board = files
    assert main(["eval", game, "--board", board, expr]) == 0
    assert capsys.readouterr().out.strip() == text
    assert main(["eval", game, "--board", board, expr, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == data


def test_eval_with_a_depot(files, capsys):
    game, board = files
    assert main(["eval", game, "--board", board, "--depot", "tower-1", "top(depot).value + index(depot)"]) == 0
    assert capsys.readouterr().out.strip() == "3"
    assert main(["eval", game, "--board", board, "--depot", "nowhere", "depot"]) == 1
    assert capsys.readouterr().err.strip() == "cardz eval: --depot: the game has no depot named 'nowhere'"
    assert main(["eval", game, "--board", board, "--depot", "towr-1", "depot"]) == 1
    assert capsys.readouterr().err.strip().endswith("no depot named 'towr-1' (did you mean 'tower-1'?)")


def test_eval_refuses_a_broken_expression(files, capsys):
    game, board = files
    assert main(["eval", game, "--board", board, "card.rank == Ace"]) == 1
    err = capsys.readouterr().err
    assert "column 1" in err and "`card` can't be seen" in err
    assert main(["eval", game, "--board", board, "count(hand) = 2"]) == 1
    assert "column 13" in capsys.readouterr().err


def test_eval_usage(files):
    game, board = files
    with pytest.raises(SystemExit) as exc:
        main(["eval", game, "count(hand)"])
    assert exc.value.code == 2


def test_check_reports_expression_problems_at_their_pointer(tmp_path, capsys):
    doc = json.loads(json.dumps(CLIMB_TO_TEN))
    doc["depots"][2]["acceptRule"]["when"] = "card.value > top.vlaue"
    doc["lossCondition"]["when"] = "count(discard) >= 5 && Hearts"
    game = tmp_path / "broken.cardz"
    game.write_text(json.dumps(doc))
    assert main(["check", str(game)]) == 1
    out = capsys.readouterr()
    lines = (out.out + out.err).splitlines()
    assert any(f"{game}: /depots/2/acceptRule/when: column 18: a card has no property `vlaue`" in line
               for line in lines), lines
    assert any(f"{game}: /lossCondition/when: column 24: `&&` needs a condition, but this is a suit" in line
               for line in lines), lines
