"""Winnability runs: benchmarks/bench_winnability.py keeps its rows and resumes them, refuses rows
of another budget, ships a compact summary, and `cardz games --json` reports the summary for the
version of the game file it was made for."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cardz_core import winnability
from cardz_core.limits import SOLVE_MAX_STATES
from cardz_core.cli.common import open_game
from cardz_core.planners.solver import solve
from cardz_core.ratings import file_hash
from cardz_core.rulesets import RULESETS_DIR
from conftest import benchmark, run_cli
from test_solver_games import game_doc

ROOT = Path(__file__).resolve().parent.parent
STATES = "2000"  # the small game's deals are decided in a few dozen positions


def _bench() -> Any:
    return benchmark("bench_winnability")


@pytest.fixture
def small(tmp_path: Path) -> Path:
    """A small Klondike-like game whose deals are some won, some lost."""
    doc = game_doc(ranks=("Ace", "Two", "Three", "Four", "Five", "Six"), cells=0, columns=3,
                   stock={"to": "waste", "count": 1, "recycle": True}, face_down=1, face_up=1)
    path = tmp_path / "small.cardz"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_rows_are_resumed_not_solved_again(small: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "rows.jsonl"
    bench = _bench()
    assert bench.main([str(small), "--seeds", "0-5", "--max-states", STATES, "--out", str(out)]) == 0
    first = _rows(out)
    capsys.readouterr()
    # a run stopped while writing leaves a cut line: it is dropped and its deal solved again
    out.write_text(out.read_text(encoding="utf-8") + '{"deal": 6, "res', encoding="utf-8")
    assert bench.main([str(small), "--seeds", "0-9", "--max-states", STATES, "--out", str(out),
                       "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    rows = _rows(out)
    assert rows[:6] == first and [r["deal"] for r in rows] == list(range(10))
    game = open_game(str(small))
    assert [r["result"] for r in rows] == [solve(game, game.deal(n), max_states=2000).result
                                           for n in range(10)]
    assert summary["deals"] == 10 and summary["won"] == sum(r["result"] == "won" for r in rows)
    assert {r["result"] for r in rows} == {"won", "lost"}  # the small game has both


def test_rows_of_another_budget_are_refused(small: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    bench = _bench()
    bench.main([str(small), "--seeds", "0-1", "--max-states", STATES, "--out", str(out)])
    with pytest.raises(SystemExit, match="another game file or budget"):
        bench.main([str(small), "--seeds", "0-3", "--max-states", "999", "--out", str(out)])
    assert len(_rows(out)) == 2
    bench.main([str(small), "--seeds", "0", "--max-states", "999", "--out", str(out), "--fresh"])
    assert [r["deal"] for r in _rows(out)] == [0]


def test_a_budget_the_solver_refuses_stops_the_run_with_one_line(small: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    bench = _bench()
    past = str(SOLVE_MAX_STATES + 1)
    with pytest.raises(SystemExit, match=f"1 to {SOLVE_MAX_STATES}, not {past}"):
        bench.main([str(small), "--seeds", "0", "--max-states", past, "--out", str(out)])
    assert not out.exists()


def test_ship_writes_the_summary_that_games_reports(small: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "winnability_data.json"
    monkeypatch.setattr(winnability, "DATA_FILE", data)
    out = tmp_path / "rows.jsonl"
    _bench().main([str(small), "--seeds", "0-7", "--max-states", STATES, "--out", str(out), "--ship"])
    capsys.readouterr()
    entry = winnability.shipped()["small"]
    rows = _rows(out)
    assert {k: entry[k] for k in ("deals", "won", "lost", "unknown")} == {
        "deals": 8, "won": sum(r["result"] == "won" for r in rows),
        "lost": sum(r["result"] == "lost" for r in rows), "unknown": 0}
    assert entry["hash"] == file_hash(small) and entry["budget"]["states"] == 2000
    assert entry["command"] == ("python3 benchmarks/bench_winnability.py "
                                f"{small} --seeds 0-7 --timeout 10 --max-states 2000 --out {out}")
    assert entry["game"] == open_game(str(small)).spec.name
    assert winnability.measured_for("small", "sha256:" + "0" * 64) is None  # another version
    # a shipped entry for the bundled FreeCell file is what `cardz games --json` reports
    freecell = RULESETS_DIR / "freecell.cardz"
    winnability.ship("freecell", {**entry, "hash": file_hash(freecell)})
    code, text, _ = run_cli(capsys, "games", "--json", "--family", "FreeCell")
    games = {g["name"]: g for g in json.loads(text)}
    assert code == 0 and games["FreeCell"]["measured"]["deals"] == 8
    assert games["FreeCell"]["winnability"]["deals"] != 8  # the rated table's figures stay
    assert games["Baker's Game"]["measured"] is None


def test_spans_are_read_back_as_the_same_deals() -> None:
    bench = _bench()
    deals = [0, 1, 2, 5, 7, 8, 20]
    assert bench.spans(deals) == "0-2,5,7-8,20" and bench.span(bench.spans(deals)) == deals
    assert bench.spans([]) == ""


def test_counts_bound_the_rate_both_ways() -> None:
    rows = [{"deal": n, "result": r} for n, r in enumerate(["won"] * 6 + ["lost"] * 2 + ["unknown"] * 2)]
    c = winnability.counts(rows)
    assert (c["deals"], c["won"], c["lost"], c["unknown"], c["rate"]) == (10, 6, 2, 2, 0.6)
    assert c["low"][0] < 0.6 < c["low"][1] and c["high"][0] < 0.8 < c["high"][1]
    assert c["high"][0] > c["low"][0] and (c["first"], c["last"]) == (0, 9)


def test_every_shipped_figure_stands_in_the_docs() -> None:
    """docs/winnability.md's first table gives each shipped entry's counts, and the entry was
    made for the bundled file as it is now (else `cardz games` would report none)."""
    text = (ROOT / "docs" / "winnability.md").read_text(encoding="utf-8")
    entries = winnability.shipped()
    for stem, e in entries.items():
        assert e["hash"] == file_hash(RULESETS_DIR / f"{stem}.cardz"), stem
        row = (f"| {e['game']} | {e['deals']:,} ({e['first']}–{e['last']}) | {e['won']:,} | "
               f"{e['lost']:,} | {e['unknown']:,} |")
        assert row in text, row
