"""`cardz check` and `cardz schema` through the CLI entry point."""

import json
from pathlib import Path

import pytest
from spec_helpers import game

from cardz_core.cli.main import main

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"

DATA = Path(__file__).parent / "data" / "spec"


@pytest.fixture
def bad(tmp_path):
    doc = game(colour="red")
    doc["depots"][2]["type"] = "Tableaux"
    path = tmp_path / "bad.cardz"
    path.write_text(json.dumps(doc))
    return path


def test_check_valid_files_exits_0(capsys):
    assert main(["check", *map(str, sorted(DATA.glob("*.cardz")))]) == 0
    assert capsys.readouterr().out == ""


def test_check_prints_file_pointer_message_and_exits_1(capsys, bad):
    assert main(["check", str(bad)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"{bad}: /colour: unknown property 'colour' in the game",
                     f"{bad}: /depots/2/type: unknown depot type 'Tableaux'; the types are Stock, "
                     "Waste, Foundation, Tableau, Cell, Reserve, Layout (did you mean 'Tableau'?)"]


def test_check_json(capsys, bad):
    good = DATA / "pocket_patience.cardz"
    assert main(["check", "--json", str(good), str(bad)]) == 1
    rows = json.loads(capsys.readouterr().out)
    # the file without errors has an info row: the engine it runs on
    assert [(r["file"], r["path"], r["severity"]) for r in rows] == [
        (str(good), "", "info"), (str(bad), "/colour", "error"), (str(bad), "/depots/2/type", "error")]
    assert rows[0]["message"].startswith("runs on the ")
    assert set(rows[1]) == {"file", "path", "message", "severity"}


def test_check_lenient_marks_warnings_and_exits_0(capsys, tmp_path):
    path = tmp_path / "w.cardz"
    path.write_text(json.dumps(game(colour="red")))
    assert main(["check", "--lenient", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: /colour: warning: unknown property 'colour' in the game\n"
    assert main(["check", str(path)]) == 1


def test_check_missing_file_and_bad_json(capsys, tmp_path):
    broken = tmp_path / "broken.cardz"
    broken.write_text('{"name": "x",\n "depots": [}')
    assert main(["check", str(tmp_path / "nope.cardz"), str(broken)]) == 1
    out = capsys.readouterr().out.splitlines()
    # worded as every other command words a game that is not there
    assert out[0] == f"{tmp_path / 'nope.cardz'}: no such game file, and no bundled game of " \
        "that name ('cardz games' lists them)"
    assert out[1].startswith(f"{broken}: /: not valid JSON: line 2 column 13")


def test_check_json_names_a_whole_file_problem_at_the_whole_documents_pointer(capsys, tmp_path):
    files = {"empty": "", "array": "[]", "number": "13", "cut": '{"name": "x",'}
    for name, text in files.items():
        (tmp_path / f"{name}.cardz").write_text(text)
    assert main(["check", "--json", *(str(tmp_path / f"{n}.cardz") for n in files)]) == 1
    # RFC 6901: "" is the whole document; "/" would be a property named ""
    assert [p["path"] for p in json.loads(capsys.readouterr().out)] == ["", "", "", ""]


def test_check_without_files_is_a_usage_error(capsys):
    assert main(["check"]) == 2
    assert "error: the following arguments are required: FILE" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    # the usage says FILE is required, as the error does
    assert capsys.readouterr().out.startswith(
        "usage: cardz check [-h] [--json] [--lenient] [--play [N]] FILE [FILE ...]\n")


def test_schema_prints_the_schema(capsys):
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"game", "depot", "step", "condition"} <= set(schema["$defs"])


DEAD = {"name": "Dead", "depotOnly": True,
        "decks": [{"suits": ["Spades"], "ranks": ["Ace", "Two", "Three"]}],
        "depots": [{"name": "stock", "type": "Stock", "acceptRule": "none", "ejectRule": "locked"},
                   {"name": "foundation", "type": "Foundation", "acceptRule": {"seed": "King"},
                    "ejectRule": "locked"},
                   {"name": "column", "type": "Tableau", "repeat": 3, "acceptRule": "none",
                    "ejectRule": "topOnly"}],
        "dealRules": [{"kind": "dealGroup", "to": "column", "faceUp": 1}],
        "winCondition": {"kind": "allCardsIn", "depots": "Foundation"}}


def test_check_play_warns_about_a_game_that_cannot_be_played(capsys, tmp_path):
    path = tmp_path / "dead.cardz"
    path.write_text(json.dumps(DEAD))
    assert main(["check", str(path)]) == 0  # the file itself is fine
    assert capsys.readouterr().out == ""
    assert main(["check", "--play", "3", str(path), "--json"]) == 0  # warnings do not fail
    rows = json.loads(capsys.readouterr().out)
    found = {p["path"]: p for p in rows if p["severity"] != "info"}  # info: the engine it runs on
    assert {p["severity"] for p in found.values()} == {"warning"}
    assert "no legal move in 3 of 3 deals (seeds 0-2)" in found["/dealRules"]["message"]
    assert "solver won none of 3 deals (seeds 0-2: 3 proved lost" in \
        found["/winCondition"]["message"]
    assert "every planner the game allows (usual, value, expectimax) resigns" in \
        found["/planner"]["message"]


def test_check_play_names_the_deal_steps_the_deck_runs_out_before(capsys, tmp_path):
    game = json.loads((RULESETS / "klondike.cardz").read_text())
    game["dealRules"] = [{"kind": "dealGroup", "to": "column", "faceDown": 5, "faceUp": 1},
                         {"kind": "dealGroup", "to": "waste", "faceUp": 1}]
    path = tmp_path / "short.cardz"
    for columns, short in ((8, []), (9, []), (10, ["'column-10'"]), (11, ["'column-10'", "'column-11'"])):
        game["depots"][3]["repeat"] = columns  # six cards each: 48, 54, 60, 66 of the 52
        path.write_text(json.dumps(game))
        assert main(["check", "--play", "2", str(path), "--json"]) == 0
        found = {p["path"]: p["message"] for p in json.loads(capsys.readouterr().out)}
        idle = "this step changes no card in any of 2 deals (seeds 0-1)"
        assert (idle in found.get("/dealRules/1", "")) == (columns > 8)  # the waste's card
        if short:
            assert found["/dealRules/0/to"].startswith(
                f"play: this step deals no card to {', '.join(short)} in any of 2 deals")
        else:  # running out after every column has a card is the usual way to deal the rest
            assert "/dealRules/0/to" not in found


def test_check_play_is_quiet_on_a_good_game(capsys):
    assert main(["check", "--play", "2", "golf"]) == 0
    assert capsys.readouterr().out == ""
    assert main(["check", "--play", "0", "golf"]) == 2


def test_check_play_counts_only_in_ascii_digits(capsys):
    # '²' is a digit to str.isdigit but not to int(): it is the first FILE, which does not exist
    for word in ("²", "٣"):
        assert main(["check", "--play", word, "golf"]) == 1  # a file with an error
        said = capsys.readouterr()
        assert f"{word}: no such game file" in said.out + said.err


def test_check_play_counts_of_any_length(capsys):
    # int() refuses 4,300 digits and more, leading zeros counted: past the limit is a usage error
    for word, why in (("9" * 5000, "a 5,000-digit number is past every limit"),
                      ("-" + "9" * 5000, "a 5,000-digit number is past every limit"),
                      ("0" * 5000 + "1001", "must be from 1 to 1,000, not 1,001")):
        code: int | str | None
        try:
            code = main(["check", "--play", word, "golf"])
        except SystemExit as stop:  # the parser's own usage error
            code = stop.code
        assert code == 2
        assert f"argument --play: {why}" in capsys.readouterr().err
    assert main(["check", "--play", "0" * 5000 + "2", "golf"]) == 0  # two deals


def test_check_play_takes_the_file_right_after_it(capsys, tmp_path):
    path = tmp_path / "dead.cardz"
    path.write_text(json.dumps(DEAD))
    assert main(["check", "--play", str(path), "--json"]) == 0  # ten deals of the file
    said = json.loads(capsys.readouterr().out)
    assert any("in 10 of 10 deals" in p["message"] for p in said)
