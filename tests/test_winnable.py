"""Winnable deals: deterministic from the seed, won by the solver, the solution kept and
replayable; `cardz deal --winnable` and its refusals (difficulty levels: test_ratings.py)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import cardz_core
from cardz_core.engine.logs import replay
from cardz_core.engine.state import WON
from cardz_core.problems import CardzError
from cardz_core.winnable import derived_seed, winnable_deal
from conftest import run_cli

GOLF = cardz_core.open_game("golf")


def test_the_first_won_deal_in_the_seeds_order() -> None:
    found = cardz_core.winnable_deal(GOLF, 0, tries=30, max_states=3000)
    assert found.tried[-1] == (found.seed, "won")
    assert all(r != "won" for _, r in found.tried[:-1])
    assert [s for s, _ in found.tried] == [derived_seed(0, i) for i in range(len(found.tried))]
    assert found.state == GOLF.deal(found.seed)
    boards = replay(GOLF, found.log)  # the solution is a log that replays to a win
    assert boards[-1].status == WON and len(boards) == len(found.line) + 1
    again = winnable_deal(GOLF, 0, tries=30, max_states=3000)
    assert (again.seed, again.tried) == (found.seed, found.tried)  # deterministic


def test_a_won_seed_is_its_own_answer_and_derived_seeds_differ() -> None:
    found = winnable_deal(GOLF, 0, tries=30, max_states=3000)
    assert winnable_deal(GOLF, found.seed, tries=1, max_states=3000).seed == found.seed
    assert len({derived_seed(5, i) for i in range(100)}) == 100


def test_none_won_says_what_was_tried() -> None:
    with pytest.raises(CardzError, match=r"won none of 2 deal\(s\) tried from seed 0"):
        winnable_deal(GOLF, 0, tries=2, max_states=1)


def test_cli_winnable_with_its_solution(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    solution = tmp_path / "sol.json"
    code, out, err = run_cli(capsys, "deal", "golf", "--winnable", "--tries", "30",
                             "--max-states", "3000", "--solution", str(solution))
    assert code == 0
    found = winnable_deal(GOLF, 0, tries=30, max_states=3000)
    assert json.loads(out) == GOLF.board_document(found.state)
    assert f"seed {found.seed}: the solver wins it in {len(found.line)} moves" in err
    assert json.loads(solution.read_text(encoding="utf-8")) == found.log
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, _ = run_cli(capsys, "play", "golf", "--replay", str(solution))
    assert code == 0 and out.strip().endswith(f"(step {len(found.line)} of {len(found.line)})")
    assert out.strip().splitlines()[-1].startswith("won after")


@pytest.mark.parametrize("argv, code, said", [
    (["--winnable", "--ms", "3"], 2, "not allowed with argument --ms"),
    (["--seed", "3", "--solution", "x.json"], 2, "--solution: it goes with --winnable"),
    ([], 2, "one of the arguments --seed --ms --winnable is required"),
    (["--winnable", "--tries", "0"], 2, "argument --tries: must be from 1"),
    (["--winnable", "--timeout", "0"], 2, "argument --timeout: must be more than 0 seconds"),
    # a budget for the search --winnable makes is not ignored without it
    (["--seed", "3", "--tries", "5"], 2, "argument --tries: it goes with --winnable"),
    (["--seed", "3", "--max-states", "5"], 2, "argument --max-states: it goes with --winnable"),
    (["--seed", "3", "--timeout", "5"], 2, "argument --timeout: it goes with --winnable"),
])
def test_cli_refusals(argv: list[str], code: int, said: str,
                      capsys: pytest.CaptureFixture[str]) -> None:
    got, _, err = run_cli(capsys, "deal", "golf", *argv)
    assert got == code and said in err
