"""Logs (cardz-log/1): the recorder, revealed cards, and replay with its refusals."""

from __future__ import annotations

import hashlib

import pytest

from cardz_core.engine.documents import load_board
from cardz_core.engine.logs import LogRecorder, game_hash, replay, revealed_cards
from cardz_core.engine.moves import Move
from cardz_core.limits import MAX_LOG_STEPS
from cardz_core.problems import CardzError
from tests.test_documents import FULL, board, small_game


def test_hash_is_sha256_of_the_file_text():
    game = small_game()
    assert game_hash(game.spec) == "sha256:" + hashlib.sha256(b"").hexdigest()


def test_revealed_cards_are_those_turned_up_in_board_order():
    game = small_game()
    before = load_board(game, FULL)
    after = load_board(game, board(stock=["~AH"], waste=["AS", "3H", "2H"], column_1=["2S", "3S"]))
    assert revealed_cards(game, before, after) == ["3H", "2H", "2S"]
    assert revealed_cards(game, after, before) == []


def test_recorder_writes_the_log_document():
    game = small_game(scoring=True)
    before = load_board(game, FULL)
    after = load_board(game, {**board(stock=["~AH", "~2H"], waste=["AS", "3H"],
                                      column_1=["~2S", "3S"]),
                              "counters": {"moves": 1}})
    rec = LogRecorder(game, seed=5)
    rec.record(before, Move(0, -1, -1), after)
    rec.record_undo()
    assert rec.document(before) == {
        "format": "cardz-log/1", "game": "Tiny", "hash": game_hash(game.spec), "seed": 5,
        "steps": [{"move": "tap stock", "revealed": ["3H"]}, {"undo": True}],
        "status": "playing", "score": 100}
    from_board = LogRecorder(game, board=before).document(before)
    assert from_board["board"]["depots"] == FULL["depots"] and "seed" not in from_board


def test_recorder_needs_exactly_one_start():
    with pytest.raises(ValueError):
        LogRecorder(small_game())
    with pytest.raises(ValueError):
        LogRecorder(small_game(), seed=1, board=load_board(small_game(), FULL))


def test_recorder_stops_at_the_step_limit():
    game = small_game()
    rec = LogRecorder(game, seed=1)
    rec.steps = [{"undo": True}] * (MAX_LOG_STEPS - 1)
    rec.record_undo()  # the last one allowed
    with pytest.raises(CardzError, match="at most"):
        rec.record_undo()


def refused(game, log) -> tuple[str, str]:
    with pytest.raises(CardzError) as err:
        replay(game, log)
    [problem] = err.value.problems
    return problem.path, problem.message


def test_replay_refuses_the_wrong_format_and_game():
    game = small_game()
    good = {"format": "cardz-log/1", "hash": game_hash(game.spec), "seed": 1, "steps": []}
    assert refused(game, [])[1] == "a log is a JSON object"
    assert refused(game, {**good, "format": "cardz-log/0"})[0] == "/format"
    path, message = refused(game, {**good, "hash": "sha256:00"})
    assert path == "/hash" and "another game file" in message
    assert refused(game, {**good, "extra": 1}) == ("/extra", "unknown field 'extra' in a log")
    assert "exactly one" in refused(game, {**good, "board": FULL})[1]
    assert refused(game, {**good, "seed": -2})[0] == "/seed"
