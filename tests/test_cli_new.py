"""`cardz new`: a starter file that checks clean, plays and explains itself in its description."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardz_core.rulesets import ruleset_paths
from cardz_core.spec import load
from conftest import run_cli

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"


def test_the_starter_checks_clean_and_explains_its_parts(capsys: pytest.CaptureFixture[str],
                                                         tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "new", "My First Game")
    assert code == 0 and "wrote my_first_game.cardz" in err
    doc = json.loads((tmp_path / "my_first_game.cardz").read_text(encoding="utf-8"))
    assert doc["name"] == "My First Game"
    for part in ("stock", "waste", "foundation", "column", "dealRules", "winCondition"):
        assert f"`{part}`" in doc["description"]  # the commentary names every part
    assert run_cli(capsys, "check", "my_first_game.cardz")[0] == 0
    code, out, _ = run_cli(capsys, "deal", "my_first_game.cardz", "--seed", "1")
    assert code == 0 and len(json.loads(out)["depots"]["column-4"]) == 3
    code, _, err = run_cli(capsys, "new", "My First Game")  # never overwritten unasked
    assert code == 1 and "exists already" in err
    assert run_cli(capsys, "new", "My First Game", "--force")[0] == 0


def test_an_accented_name_keeps_its_letters_in_the_file_name(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(capsys, "new", "Über Spiel à Deux")
    assert code == 0 and "wrote uber_spiel_a_deux.cardz" in err
    assert json.loads((tmp_path / "uber_spiel_a_deux.cardz").read_text())["name"] == \
        "Über Spiel à Deux"


def test_like_starts_from_another_game(capsys: pytest.CaptureFixture[str],
                                       tmp_path: Path) -> None:
    out = tmp_path / "spin.cardz"
    code, printed, _ = run_cli(capsys, "new", "Spin", "--like", "spider", "-o", str(out), "--json")
    assert code == 0 and json.loads(printed) == {"file": str(out), "name": "Spin",
                                                 "like": "spider"}
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["name"] == "Spin" and "Started from 'Spider'" in doc["description"]
    assert "aliases" not in doc  # Spider's other names are not this game's
    spec, problems = load(out)
    assert spec is not None and problems == []
    code, _, err = run_cli(capsys, "new", "X", "--like", "spidr", "-o", str(tmp_path / "x.cardz"))
    assert code == 1 and "did you mean spider" in err


def test_like_reads_a_file_as_check_does_and_names_its_own_problems(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Before stop 69 it refused a byte-order mark and property names in another case (which
    check accepts), and put a source file's problems at the copy not yet written."""
    klondike = json.loads((RULESETS / "klondike.cardz").read_text(encoding="utf-8"))
    cased = {k.capitalize() if k in ("name", "description", "aliases") else k: v
             for k, v in klondike.items()}
    (tmp_path / "cased.cardz").write_text(json.dumps(cased), encoding="utf-8")
    (tmp_path / "bom.cardz").write_text("\ufeff" + json.dumps(klondike), encoding="utf-8")
    for source in ("cased", "bom"):
        out = tmp_path / f"new-{source}.cardz"
        code, _, err = run_cli(capsys, "new", "Mine", "--like", str(tmp_path / f"{source}.cardz"),
                               "-o", str(out))
        assert code == 0, err
        doc = json.loads(out.read_text(encoding="utf-8"))
        assert doc["name"] == "Mine" and "Started from 'Klondike'" in doc["description"]
        assert not {"Name", "Description", "Aliases", "aliases"} & set(doc)
        assert run_cli(capsys, "check", str(out))[0] == 0
    klondike["depots"][3]["type"] = "Tablo"
    bad = tmp_path / "bad.cardz"
    bad.write_text(json.dumps(klondike), encoding="utf-8")
    (tmp_path / "half.cardz").write_text('{"name": ', encoding="utf-8")
    for source, words in ((bad, "/depots/3/type: unknown depot type 'Tablo'"),
                          (tmp_path / "half.cardz", "not valid JSON: line 1 column 10")):
        code, _, err = run_cli(capsys, "new", "X", "--like", str(source), "-o",
                               str(tmp_path / "x.cardz"))
        assert code == 1 and err.startswith(f"cardz new: {source}: ") and words in err, err
        assert not (tmp_path / "x.cardz").exists()


@pytest.mark.parametrize("game", ruleset_paths(), ids=lambda p: p.stem)
def test_like_any_bundled_game_checks_clean(game: Path, capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    out = tmp_path / "new.cardz"
    code, _, err = run_cli(capsys, "new", "New Game", "--like", game.stem, "-o", str(out))
    assert code == 0, err
    assert run_cli(capsys, "check", str(out)) == (0, "", "1 file(s) checked, 0 with errors\n")


def test_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_cli(capsys, "new", "Piped", "-o", "-")
    assert code == 0 and json.loads(out)["name"] == "Piped"
    assert run_cli(capsys, "new", "Piped", "-o", "-", "--json")[0] == 2


def test_the_tutorials_variant_checks_clean() -> None:
    import re

    from cardz_core.cli.cmd_new import starter

    text = (Path(__file__).resolve().parents[1] / "docs" / "tutorial.md").read_text("utf-8")
    blocks = re.findall(r"^```json\n(.*?)^```$", text, flags=re.S | re.M)
    assert len(blocks) == 1
    doc = starter("Four Columns")
    doc["depots"].append(json.loads(blocks[0]))
    spec, problems = load(doc)
    assert spec is not None and problems == []


def test_an_unwritable_path_is_named_by_where_it_came_from(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken.cardz").mkdir()  # a directory where the file would go
    code, _, err = run_cli(capsys, "new", "Taken")  # the path came from NAME, not from -o
    assert code == 1 and "file taken.cardz: cannot write: it is a directory" in err
    assert "-o " not in err
    code, _, err = run_cli(capsys, "new", "Other", "-o", "taken.cardz")
    assert code == 1 and "-o taken.cardz: cannot write: it is a directory" in err
