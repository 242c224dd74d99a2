"""docs/tutorial.md promises that its figures are the reader's too: each one it shows is made
here by the command it gives. The starter's solve line and opening screen in every run; the
100-deal comparison of the variant with a cell (70 CPU seconds of `usual`) under CARDZ_LONG=1."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from conftest import LONG, ROOT, run_cli

TUTORIAL = (ROOT / "docs" / "tutorial.md").read_text(encoding="utf-8")


@pytest.fixture
def starter(tmp_path: Path, capsys: pytest.CaptureFixture[str],
            monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    assert run_cli(capsys, "new", "Four Columns")[0] == 0
    return tmp_path / "four_columns.cardz"


def test_the_solve_line_is_the_tutorials(starter: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    claimed = re.search(r"cardz solve four_columns\.cardz --seed 3 +# won in (\d+) moves", TUTORIAL)
    assert claimed is not None
    code, out, _ = run_cli(capsys, "solve", starter.name, "--seed", "3")
    assert code == 0 and out.startswith(f"won in {claimed[1]} moves;")


def test_the_opening_screen_is_the_tutorials(starter: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    screen_shown = re.search(r"^```\n(Four Columns: move 0.*?)^```$", TUTORIAL, flags=re.S | re.M)
    assert screen_shown is not None
    shown = screen_shown[1]
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, _ = run_cli(capsys, "play", starter.name, "--seed", "3")
    assert code == 0
    # in order, each line shown begins a line of the screen (the prompt is followed by what was
    # typed); the tutorial leaves out foundations 2-4 and columns 1-2 as "..."
    screen = iter(out.splitlines())
    for line in shown.splitlines():
        if line.strip() != "...":
            assert any(got.startswith(line) for got in screen), (line, out)


@pytest.mark.skipif(not LONG, reason="long run (70 CPU seconds): set CARDZ_LONG=1")
def test_the_variant_comparison_is_the_tutorials(starter: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    doc = json.loads(starter.read_text(encoding="utf-8"))
    doc["name"] = "Four Columns (a cell)"
    [cell_depot] = re.findall(r"^```json\n(.*?)^```$", TUTORIAL, flags=re.S | re.M)
    doc["depots"].append(json.loads(cell_depot))
    cell = starter.with_name("four_columns_cell.cardz")
    cell.write_text(json.dumps(doc), encoding="utf-8")
    assert run_cli(capsys, "check", cell.name)[0] == 0
    code, out, _ = run_cli(capsys, "simulate", starter.name, cell.name, "--games", "100",
                           "--workers", "1")
    assert code == 0
    won = r"usual +100 +(\d+) +([\d.]+%) +([\d.]+% \.\. [\d.]+%)"  # won, rate, interval
    table = re.compile(rf"^(four_columns(?:_cell)?)/{won}", re.M)
    assert table.findall(TUTORIAL) == table.findall(out) and len(table.findall(out)) == 2
    paired = re.compile(r"(\d+) deals won by\s+four_columns/usual only, (\d+) by "
                        r"four_columns_cell/usual only; McNemar p = ([\d.e-]+)")
    claimed, got = paired.search(TUTORIAL), paired.search(out)
    assert claimed is not None and got is not None and claimed.groups() == got.groups()
    # section 5's run of the starter alone plays the same deals: its row is the first variant's
    ends = r" +(\d+) +(\d+) +(\d+) +(\d+)"  # lost, stuck, resigned, unfinished
    alone = re.compile(rf"^{won}{ends}", re.M)
    row = re.compile(rf"^four_columns/{won}{ends}", re.M)
    assert alone.findall(TUTORIAL) == row.findall(out) and len(row.findall(out)) == 1
    more = re.search(r"One cell wins (\d+) more of the same 100 deals", TUTORIAL)
    wins = [int(w) for _, w, _, _ in table.findall(out)]
    assert more is not None and int(more[1]) == wins[1] - wins[0]
