"""benchmarks/bench_planners.py: the games a paired run plays are the ones named, or it stops;
a run resumes from its rows; winnable deals can come from a winnability run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_planners  # noqa: E402
from bench_planners import playable_games  # noqa: E402
from cardz_core.engine.logs import game_hash  # noqa: E402
from cardz_core.engines import engine_of  # noqa: E402
from cardz_core.rulesets import open_game  # noqa: E402


def test_named_games_come_in_the_order_named() -> None:
    files = playable_games(["canfield", "bakers_game"])
    assert [Path(f).stem for f in files] == ["canfield", "bakers_game"]


def test_a_misspelt_game_stops_the_run_with_a_suggestion() -> None:
    with pytest.raises(SystemExit, match=r"no bundled game 'vegas_klondike' \(did you mean "
                                         r"klondike_vegas\?\)"):
        playable_games(["canfield", "vegas_klondike"])


def test_a_game_no_planner_may_play_is_refused_by_name() -> None:
    # Under Twenty-One is written with expressions and does not say planners may play it
    with pytest.raises(SystemExit, match="planners may not play 'under_twenty_one'"):
        playable_games(["canfield", "under_twenty_one"])


KLONDIKE = str(ROOT / "rulesets" / "klondike.cardz")


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_run_again_with_the_same_rows_file_plays_only_the_deals_not_in_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    rows = tmp_path / "rows.jsonl"
    argv = ["--file", KLONDIKE, "--planner", "random", "--max-moves", "30", "--rows", str(rows)]
    assert bench_planners.main(argv + ["--deals", "3", "--json", str(tmp_path / "a.json")]) == 0
    first = _rows(rows)
    assert [(r["seed"], r["options"], r["max_moves"]) for r in first] == \
        [(1, {}, 30), (2, {}, 30), (3, {}, 30)]
    played: list[int] = []
    real = bench_planners.play_one

    def counting(path: str, planner: str, seed: int, *rest: object) -> dict:
        played.append(seed)
        return real(path, planner, seed, *rest)  # type: ignore[arg-type]

    monkeypatch.setattr(bench_planners, "play_one", counting)
    assert bench_planners.main(argv + ["--deals", "5", "--json", str(tmp_path / "b.json")]) == 0
    assert played == [4, 5]
    assert [r["seed"] for r in _rows(rows)] == [1, 2, 3, 4, 5]
    again = json.loads((tmp_path / "b.json").read_text())["planners"][0]
    assert again["games"] == 5
    # another move cap is another game: every deal is played again
    played.clear()
    assert bench_planners.main(argv[:-4] + ["--max-moves", "31", "--rows", str(rows),
                                            "--deals", "2"]) == 0
    assert played == [1, 2]


def test_first_starts_the_deals_at_a_later_seed(tmp_path: Path) -> None:
    rows = tmp_path / "rows.jsonl"
    argv = ["--file", KLONDIKE, "--planner", "random", "--max-moves", "30", "--rows", str(rows)]
    assert bench_planners.main(argv + ["--deals", "2", "--first", "7"]) == 0
    assert [r["seed"] for r in _rows(rows)] == [7, 8]
    for bad in (["--deals", "0"], ["--first", "0"]):
        with pytest.raises(SystemExit, match="at least 1"):
            bench_planners.main(argv + bad)


def test_verdicts_come_from_winnability_rows_of_the_same_game_file(tmp_path: Path) -> None:
    game = open_game(KLONDIKE)
    head = {"format": "cardz-winnability-rows/1", "game": game.spec.name,
            "hash": game_hash(game.spec), "deals": "seeds", "budget": {"states": 10}}
    made = tmp_path / "winn.jsonl"
    made.write_text("\n".join(json.dumps(r) for r in [
        head, {"deal": 1, "result": "won"}, {"deal": 2, "result": "lost"},
        {"deal": 3, "result": "unknown"}]) + "\n")
    out = tmp_path / "s.json"
    argv = ["--file", KLONDIKE, "--planner", "random", "--max-moves", "30", "--deals", "3",
            "--json", str(out)]
    assert bench_planners.main(argv + ["--verdicts", str(made)]) == 0
    summary = json.loads(out.read_text())
    assert summary["solver"] == {"1": "won", "2": "lost", "3": "unknown"}
    assert summary["planners"][0]["winnable"] == 1
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({**head, "hash": "sha256:0"}) + "\n")
    with pytest.raises(SystemExit, match="were not made over seeds of this game file"):
        bench_planners.main(argv + ["--verdicts", str(other)])
    with pytest.raises(SystemExit, match="give one"):
        bench_planners.main(argv + ["--verdicts", str(made), "--winnable", "10"])


def test_a_row_counts_the_positions_of_a_planner_that_counts_them() -> None:
    draw3 = str(ROOT / "rulesets" / "klondike_draw3.cardz")
    if engine_of(open_game(draw3))[0] != "native":
        pytest.skip("the klondike planner needs the native engine")
    row = bench_planners.play_one(draw3, "klondike", 2, 40, {"klondike": {"samples": 8, "limit": 50}})
    assert row["positions"] > 0
    assert "positions" not in bench_planners.play_one(draw3, "random", 2, 40, {})


def test_resigned_solves_the_true_position_a_resigned_game_ended_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = open_game(KLONDIKE)

    class ThreeMovesThenResign:
        def choose(self, game_: object, view: object, rng: object) -> object:
            moves = game.legal_moves(view)  # type: ignore[arg-type]
            return moves[0] if view.moves < 3 else None  # type: ignore[attr-defined]

    monkeypatch.setattr(bench_planners, "make_planner", lambda *a, **k: ThreeMovesThenResign())
    asked: list[object] = []
    real = bench_planners.solve

    def solving(game_: object, state: object, **budget: object) -> object:
        asked.append(state)
        return real(game_, state, **budget)  # type: ignore[arg-type]

    monkeypatch.setattr(bench_planners, "solve", solving)
    row = bench_planners.play_one(KLONDIKE, "usual", 4, 100, {}, resigned_states=20_000)
    # the true deal played through the same three moves, each the first the view lists
    seat = bench_planners.Seat(game, game.deal(4))
    for _ in range(3):
        seat.play(game.legal_moves(seat.view)[0])
    assert (row["end"], row["moves"]) == ("resigned", 3)
    assert [s.piles for s in asked] == [seat.state.piles]  # type: ignore[attr-defined]
    assert row["resigned_left"] == real(game, seat.state, max_states=20_000).result
    assert "resigned_left" not in bench_planners.play_one(KLONDIKE, "usual", 4, 100, {})


def test_resigned_counts_each_planners_resignations_by_what_they_left(tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    chameleon = str(ROOT / "rulesets" / "chameleon.cardz")
    # usual resigns most Chameleon games once the single pass of the stock is done
    argv = ["--file", chameleon, "--planner", "usual", "--max-moves", "300", "--deals", "4",
            "--resigned", "50000", "--json", str(out)]
    assert bench_planners.main(argv) == 0
    line = json.loads(out.read_text())["planners"][0]
    assert line["ends"]["resigned"] > 0
    assert sum(line["resigned_left"].values()) == line["ends"]["resigned"]
    assert line["resigned_left"]["unchecked"] == 0
    with pytest.raises(SystemExit, match="without --pair"):
        bench_planners.main(["--pair", "random", "usual", "--deals", "2", "--resigned", "10"])
