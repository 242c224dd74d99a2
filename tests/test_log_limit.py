"""`limits.MAX_LOG_STEPS`, at and past, where a game is recorded as it is played: the recorder,
the server's sessions and `cardz play`. A step the log cannot hold is refused before it is made
(before stop 69 an undo refused there had already taken the move back: the board and the log
then disagreed, and the server refused its own log)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cardz_core.engine import logs
from cardz_core.engine.logs import LogRecorder, replay
from cardz_core.problems import CardzError
from cardz_core.rulesets import open_game
from cardz_core.serve.session import Opening, Playing
from conftest import run_cli

LIMIT = 3  # steps, set in place of the real limit so that a test can reach it
KLONDIKE = open_game("klondike")


@pytest.fixture(autouse=True)
def small_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(logs, "MAX_LOG_STEPS", LIMIT)


def test_the_recorder_holds_the_limit_and_refuses_a_step_past_it() -> None:
    recorder = LogRecorder(KLONDIKE, seed=4)
    state = KLONDIKE.deal(4)
    for _ in range(LIMIT - 1):
        after = KLONDIKE.apply(state, KLONDIKE.legal_moves(state)[0])
        recorder.record(state, KLONDIKE.legal_moves(state)[0], after)
        state = after
    recorder.record_undo()  # the step at the limit
    assert len(recorder.steps) == LIMIT
    with pytest.raises(CardzError, match=f"at most {LIMIT} steps"):
        recorder.check_room()
    with pytest.raises(CardzError, match=f"at most {LIMIT} steps"):
        recorder.record_undo()
    assert len(recorder.steps) == LIMIT


def test_a_session_refuses_a_move_or_an_undo_past_the_limit_and_changes_nothing() -> None:
    playing = Playing(KLONDIKE, Opening(KLONDIKE.deal(4), seed=4))
    for _ in range(LIMIT):
        playing.play(KLONDIKE.legal_moves(playing.seat.view)[0])
    board, steps, played = playing.seat.state, list(playing.log.steps), list(playing.played)
    for refused in (playing.undo, lambda: playing.play(KLONDIKE.legal_moves(board)[0])):
        with pytest.raises(CardzError, match=f"at most {LIMIT} steps"):
            refused()
        assert playing.seat.state == board
        assert (playing.log.steps, playing.played, playing.redo) == (steps, played, [])
    assert replay(KLONDIKE, playing.document())[-1] == board  # the log still replays to the board


def test_play_says_a_step_past_the_limit_is_not_made_and_saves_the_game(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("t\nt\nt\nu\nt\nq\n"))
    code, out, err = run_cli(capsys, "play", "klondike", "--seed", "4", "--save", str(save))
    assert code == 0, err
    assert out.count(f"not undone: a log holds at most {LIMIT} steps") == 1
    assert out.count(f"not played: a log holds at most {LIMIT} steps") == 1
    log = json.loads(save.read_text(encoding="utf-8"))
    assert [s["move"] for s in log["steps"]] == ["tap stock"] * LIMIT
    assert len(replay(KLONDIKE, log)) == LIMIT + 1
