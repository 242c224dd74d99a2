"""benchmarks/compare_rows.py: two runs' rows paired deal by deal, planner rows by their wins and
solver rows by their verdicts and positions; a contradiction fails; rows that cannot be compared
are refused by name; the shipped baselines are rows it reads."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import compare_rows  # noqa: E402
from compare_rows import RowsError, compare, main  # noqa: E402

BASELINES = ROOT / "benchmarks" / "baselines"


def write(path: Path, rows: list[dict[str, Any]]) -> Path:
    text = "".join(json.dumps(r) + "\n" for r in rows)
    if path.suffix == ".gz":
        path.write_bytes(gzip.compress(text.encode("utf-8")))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def games(planner: str, ends: list[str], moves: int = 100) -> list[dict[str, Any]]:
    return [{"game": "klondike", "planner": planner, "seed": s, "end": e, "moves": moves,
             "seconds": 0.5, "options": {}, "max_moves": 1000} for s, e in enumerate(ends, 1)]


def header(game: str = "Klondike (draw 3)", hash_: str = "sha256:aa") -> dict[str, Any]:
    return {"format": compare_rows.WINNABILITY_FORMAT, "game": game, "hash": hash_,
            "deals": "seeds", "budget": {"states": 1000, "seconds": 5.0}}


def verdicts(results: list[tuple[str, int, float]]) -> list[dict[str, Any]]:
    return [{"deal": d, "result": r, "states": s, "cpu": c}
            for d, (r, s, c) in enumerate(results, 1)]


def test_planner_rows_are_paired_on_the_deals_both_hold(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", games("klondike", ["won", "won", "resigned", "won", "lost"]))
    # B plays one deal more (seed 6), which A has not: it is left out
    b = write(tmp_path / "b.jsonl.gz",
              games("klondike", ["won", "resigned", "won", "won", "won", "won"], moves=90))
    c = compare(a, b)
    assert (c["deals"], c["won_a"], c["won_b"], c["only_a"], c["only_b"]) == (5, 3, 4, 1, 2)
    assert c["p"] == pytest.approx(1.0)  # 1 against 2: McNemar's exact p is 1
    assert c["same_games"] == 0  # every game took other moves
    assert c["seconds_a"] == c["seconds_b"] == 0.5


def test_one_planner_is_picked_from_a_paired_run(tmp_path: Path) -> None:
    pair = write(tmp_path / "pair.jsonl",
                 games("random", ["lost"] * 8) + games("usual", ["won"] * 7 + ["lost"]))
    with pytest.raises(RowsError, match="holds the rows of random, usual; name one"):
        compare(pair, pair)
    with pytest.raises(RowsError, match="no rows of planner 'value'"):
        compare(pair, pair, "random", "value")
    # a run with --winnable holds the solver's verdicts beside the games
    solver = [{"game": "klondike", "planner": "solver", "seed": 1, "states": 100, "result": "won"}]
    pair = write(tmp_path / "pair.jsonl", solver + games("random", ["lost"] * 8)
                 + games("usual", ["won"] * 7 + ["lost"]))
    c = compare(pair, pair, "random", "usual")
    assert (c["only_a"], c["only_b"]) == (0, 7)
    assert c["p"] == pytest.approx(2 / 2 ** 7)


def test_solver_rows_count_verdicts_positions_and_changes(tmp_path: Path) -> None:
    a = write(tmp_path / "a.jsonl", [header()] + verdicts(
        [("won", 100, 0.1), ("lost", 300, 0.2), ("unknown", 5000, 5.0), ("won", 50, 0.1)]))
    b = write(tmp_path / "b.jsonl", [header()] + verdicts(
        [("won", 80, 0.1), ("lost", 300, 0.1), ("won", 4000, 4.0), ("won", 70, 0.1)]))
    c = compare(a, b)
    assert c["a"] == {"won": 2, "lost": 1, "unknown": 1}
    assert c["b"] == {"won": 3, "lost": 1, "unknown": 0}
    assert c["both_won"] == {"deals": 2, "positions_a": 150, "positions_b": 150}
    assert c["both_lost"] == {"deals": 1, "positions_a": 300, "positions_b": 300}
    assert [x["deal"] for x in c["changed"]] == [3]
    assert c["contradictions"] == []
    assert c["positions_a_second"] == pytest.approx(5450 / 5.4)
    assert main([str(a), str(b)]) == 0


def test_a_deal_won_on_one_side_and_lost_on_the_other_fails(tmp_path: Path, capsys) -> None:
    a = write(tmp_path / "a.jsonl", [header()] + verdicts([("won", 10, 0.1), ("lost", 9, 0.1)]))
    b = write(tmp_path / "b.jsonl", [header()] + verdicts([("won", 10, 0.1), ("won", 9, 0.1)]))
    assert compare(a, b)["contradictions"] == [2]
    assert main([str(a), str(b)]) == 1
    assert "CONTRADICTION" in capsys.readouterr().out


@pytest.mark.parametrize("b_rows, message", [
    ([header(hash_="sha256:bb")] + verdicts([("won", 1, 0.1)]), "rows of different game files"),
    (games("usual", ["won"]), "holds solver rows and the other planner rows"),
    ([header()] + verdicts([]) + [{"deal": 7}], r"row 2: not a bench_winnability.py row"),
    ([header()] + [{"deal": 9, "result": "won", "states": 1, "cpu": 0.1}], "share no deal"),
])
def test_rows_that_cannot_be_compared_are_refused_by_name(tmp_path: Path, b_rows, message) -> None:
    a = write(tmp_path / "a.jsonl", [header()] + verdicts([("won", 1, 0.1)]))
    b = write(tmp_path / "b.jsonl", b_rows)
    with pytest.raises(RowsError, match=message):
        compare(a, b)
    assert main([str(a), str(b)]) == 2


def test_a_broken_line_is_named_but_a_last_line_cut_short_is_left_out(tmp_path: Path) -> None:
    good = "".join(json.dumps(r) + "\n" for r in games("usual", ["won", "lost"]))
    cut = tmp_path / "cut.jsonl"
    cut.write_text(good + '{"game": "klon', encoding="utf-8")
    assert compare(cut, cut)["deals"] == 2
    broken = tmp_path / "broken.jsonl"
    broken.write_text('{"game"\n' + good, encoding="utf-8")
    with pytest.raises(RowsError, match=r"broken.jsonl, line 1: not a JSON row"):
        compare(broken, cut)
    with pytest.raises(RowsError, match="cannot be read"):
        compare(tmp_path / "missing.jsonl", cut)


def test_the_shipped_baselines_are_rows_it_compares() -> None:
    files = sorted(BASELINES.glob("*.jsonl.gz"))
    assert files, "benchmarks/baselines holds the goal runs' rows"
    readme = (BASELINES / "README.md").read_text(encoding="utf-8")
    for f in files:
        assert f.name in readme, f"{f.name} is described in the baselines' README"
        c = compare(f, f, *(["klondike"] * 2 if "planner" in f.name else []))
        assert c["deals"] >= 1000
        assert c.get("contradictions", []) == [] and c.get("only_a", 0) == 0
