"""The five ways a played game ends (won, lost by the rules, stuck, resigned, unfinished), each
produced by a small game written for it, in ``cardz play`` (text and ``--json``), ``cardz
simulate``'s rows, summary (text and ``--json``) and report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from conftest import run_cli
from cardz_core.sim.rows import read_rows


def _game(ranks: list[str], *, loss: bool = False, columns: str = "none", repeat: bool = True
          ) -> dict[str, Any]:
    """Hearts of ``ranks`` dealt face up, one a column; an Ace-up foundation. ``columns``: what a
    column accepts. ``repeat``: the columns are copies of one depot (interchangeable), else two
    depots with rules of their own, the second taking any single card (a card may go back and
    forth between them; with one rule the solver's analysis proves them interchangeable, and
    the planners take a move between them for no move)."""
    if repeat:
        tableau = [{"name": "column", "type": "Tableau", "repeat": 2,
                    "acceptRule": columns, "ejectRule": "faceUp"}]
        deal = [{"kind": "dealGroup", "to": "column", "faceUp": 1}]
    else:
        tableau = [{"name": n, "type": "Tableau", "acceptRule": rule, "ejectRule": "faceUp"}
                   for n, rule in (("left", columns), ("right", {"single": True}))]
        deal = [{"kind": "dealGroup", "to": "left", "faceUp": 1}]
    spec: dict[str, Any] = {
        "name": "Ends", "depotOnly": True,
        "decks": [{"suits": ["Hearts"], "ranks": ranks}],
        "depots": [{"name": "stock", "type": "Stock", "offTable": True, "acceptRule": "none",
                    "ejectRule": "locked"},
                   {"name": "foundation", "type": "Foundation",
                    "acceptRule": {"seed": "Ace", "build": {"direction": "Up"}, "suit": "Same"},
                    "ejectRule": "locked"}, *tableau],
        "dealRules": deal,
        "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
    }
    if loss:
        spec["lossCondition"] = {"kind": "noLegalMoves"}
    return spec


# each end, the game that produces it when `usual` plays, the move cap, and the moves made
GAMES = {
    "won": (_game(["Ace", "Two"]), 100, 2),
    "lost": (_game(["Ace", "Three"], loss=True), 100, 1),  # the rules: no legal move left
    "stuck": (_game(["Ace", "Three"]), 100, 1),  # no move left, no loss condition
    # a Two alone, and an empty copy of its column: moving it there changes nothing, so
    # `usual` answers no move although the move is legal
    "resigned": (_game(["Two"], columns="any"), 100, 0),
    # a Two that may go back and forth between two columns of their own, cut at 2 moves
    "unfinished": (_game(["Two"], columns="any", repeat=False), 2, 2),
}


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    out = {}
    for end, (spec, _, _) in GAMES.items():
        path = tmp_path / f"{end}.cardz"
        path.write_text(json.dumps(spec), encoding="utf-8")
        out[end] = str(path)
    return out


@pytest.mark.parametrize("end", list(GAMES))
def test_cardz_play_says_how_the_game_ended(end: str, files: dict[str, str], capsys: Any) -> None:
    _, cap, moves = GAMES[end]
    args = ("play", files[end], "--planner", "usual", "--max-moves", str(cap))
    code, out, _ = run_cli(capsys, *args, "--json")
    doc = json.loads(out)
    assert code == 0
    coarse = "lost" if end in ("stuck", "resigned") else end
    assert (doc["result"], doc["end"], doc["moves"]) == (coarse, end, moves)
    code, out, _ = run_cli(capsys, *args, "--quiet")
    words = {"won": "won", "lost": "lost by the rules", "stuck": "stuck (no legal move)",
             "resigned": "resigned (moves left)", "unfinished": "unfinished"}[end]
    assert out == f"{words} after {moves} moves\n"


def test_a_person_who_stops_leaves_the_game_unfinished_or_stuck(files: dict[str, str],
                                                                  capsys: Any,
                                                                  monkeypatch: Any) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    doc = json.loads(run_cli(capsys, "play", files["unfinished"], "--json")[1])
    assert (doc["result"], doc["end"]) == ("unfinished", "unfinished")
    # one move home, then nothing is left to do: stopping there is stuck, not unfinished
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nq\n"))
    doc = json.loads(run_cli(capsys, "play", files["stuck"], "--json")[1])
    assert (doc["result"], doc["end"], doc["moves"]) == ("lost", "stuck", 1)


def test_simulate_counts_each_end_in_rows_summary_and_report(files: dict[str, str],
                                                             tmp_path: Path,
                                                             capsys: Any) -> None:
    for end, path in files.items():
        _, cap, moves = GAMES[end]
        rows, report = tmp_path / f"{end}.jsonl", tmp_path / f"{end}.html"
        common = ("simulate", path, "--games", "3", "--planner", "usual,random",
                  "--max-moves", str(cap), "--workers", "1")
        code, out, _ = run_cli(capsys, *common, "--json", "--out", str(rows))
        assert code == 0
        usual = json.loads(out)["planners"]["usual"]
        assert usual["ends"] == {e: 3 if e == end else 0 for e in GAMES}
        assert [(r["end"], r["moves"]) for r in read_rows(rows) if r["planner"] == "usual"] \
            == [(end, moves)] * 3
        code, out, _ = run_cli(capsys, *common, "--report", str(report))
        head, line = next((lines[i], lines[i + 1]) for lines in [out.splitlines()]
                          for i, text in enumerate(lines) if text.startswith("planner "))
        columns = head.split()
        assert columns[columns.index("interval") + 1:][:4] == ["lost", "stuck", "resigned",
                                                               "unfinished"]
        cells = line.split()
        counts = dict(zip(["won", "lost", "stuck", "resigned", "unfinished"],
                          [cells[2], *cells[cells.index("..") + 2:][:4]]))
        assert counts == {e: "3" if e == end else "0" for e in GAMES}
        page = report.read_text(encoding="utf-8")
        win_table = page.split('id="winrate"')[1].split("</table>")[0]
        assert all(f"<th>{w}" in win_table for w in ("lost by the rules", "stuck", "resigned"))
