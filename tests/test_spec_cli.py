"""`cardz check` and `cardz schema` through the CLI entry point."""

import json
from pathlib import Path

import pytest
from spec_helpers import game

from cardz_core.cli.main import main

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
    assert out[0].startswith(f"{tmp_path / 'nope.cardz'}: /: cannot read the file")
    assert out[1].startswith(f"{broken}: /: not valid JSON: line 2 column 13")


def test_check_without_files_is_a_usage_error():
    with pytest.raises(SystemExit) as exit_:
        main(["check"])
    assert exit_.value.code == 2


def test_schema_prints_the_schema(capsys):
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert {"game", "depot", "step", "condition"} <= set(schema["$defs"])
