"""Every CLI command gives the same answer on the Python and the native engine (issue 17): the
same seed deals the same board, lists the same moves and outcomes, hints and solves alike, and
`cardz simulate` writes the same rows and summary; only the engine named and the times differ."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli

ENGINES = ("python", "native")
# what may differ between the engines: which one ran, and how long it took
RUN_ONLY = frozenset({"engine", "engine_reason", "seconds", "rows"})


def _both(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
          *argv: str) -> list[str]:
    """Standard output of ``cardz ARGV`` on each engine in turn (each must succeed)."""
    outs = []
    for engine in ENGINES:
        monkeypatch.setenv("CARDZ_ENGINE", engine)
        code, out, err = run_cli(capsys, *argv)
        assert code == 0, (engine, err)
        outs.append(out)
    return outs


def _without_run(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_run(v) for k, v in value.items() if k not in RUN_ONLY}
    if isinstance(value, list):
        return [_without_run(v) for v in value]
    return value


@pytest.fixture()
def board(tmp_path: Path, capsys: pytest.CaptureFixture[str],
          monkeypatch: pytest.MonkeyPatch) -> str:
    python, native = _both(capsys, monkeypatch, "deal", "klondike", "--seed", "5")
    assert python == native
    path = tmp_path / "b.json"
    path.write_text(python, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("argv", [
    ["moves", "klondike", "--json"],
    ["view", "klondike"],
    ["apply", "klondike", "--move", "tap stock", "--move", "tap stock"],
    ["outcomes", "klondike", "--move", "tap stock", "--limit", "5", "--json"],
    ["hint", "klondike", "--planner", "expectimax", "--nodes", "50", "--json"],
    ["eval", "klondike", "count(Tableau) * 100 + count(stock)"],
    ["render", "klondike", "-o", "-"]])
def test_board_commands_answer_alike(argv: list[str], board: str,
                                     capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    python, native = _both(capsys, monkeypatch, *argv[:2], "--board", board, *argv[2:])
    assert python == native and python.strip()


def test_solve_finds_the_same_answer_and_line(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    python, native = (json.loads(out) for out in _both(
        capsys, monkeypatch, "solve", "golf", "--seed", "3", "--max-states", "3000", "--json"))
    assert _without_run(python) == _without_run(native) and python["result"]


def test_simulate_writes_the_same_rows_and_summary(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    summaries, rows = [], []
    for engine in ENGINES:
        monkeypatch.setenv("CARDZ_ENGINE", engine)
        out = tmp_path / f"{engine}.jsonl"
        # usual with a small look (its default look on the Python engine took 50 s of CI)
        code, printed, err = run_cli(capsys, "simulate", "klondike", "--games", "4", "--planner",
                                     "usual", "--option", "solve=2000", "--max-moves", "300",
                                     "--workers", "1", "--out", str(out), "--json")
        assert code == 0, err
        summary = json.loads(printed)
        # the engine named is the one asked for: the two runs really ran on different engines
        assert {v["engine"] for v in summary["made"]["variants"]} == {engine}
        summaries.append(_without_run(summary))
        rows.append([_without_run(json.loads(line))
                     for line in out.read_text(encoding="utf-8").splitlines()])
    assert summaries[0] == summaries[1]
    assert rows[0] == rows[1] and len(rows[0]) == 1 + 4  # the "made" line, then each game
