"""Logs (cardz-log/1): the recorder, revealed cards, and replay with its refusals."""

from __future__ import annotations

import copy
import hashlib
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from cardz_core.engine import compile
from cardz_core.engine.documents import board_document, load_board
from cardz_core.engine.logs import LogRecorder, game_hash, replay, revealed_cards
from cardz_core.engine.moves import Move
from cardz_core.engine.movetext import move_document, move_text, parse_move
from cardz_core.engine.state import PLAYING
from cardz_core.limits import MAX_LOG_STEPS
from cardz_core.problems import CardzError
from cardz_core.spec import load_game
from tests.test_cli_play import TINY
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
    # a log without a hash said "its hash is None" (before stop 69)
    assert refused(game, {k: v for k, v in good.items() if k != "hash"}) == (
        "/hash", f"a log says the hash of its game file (this file's is {good['hash']!r})")
    assert refused(game, {**good, "extra": 1}) == ("/extra", "unknown field 'extra' in a log")
    assert "exactly one" in refused(game, {**good, "board": FULL})[1]
    assert refused(game, {**good, "seed": -2})[0] == "/seed"


# --- with the engine: random play recorded, replayed, and tampered with -----------------------

TINY_GAME = compile(load_game(json.dumps(TINY)))


def play(game, seed: int, moves: int, undo_every: int = 0):
    """Random play from deal ``seed``: its log and every board document along the way."""
    rng = random.Random(seed)
    state = game.deal(seed)
    rec = LogRecorder(game, seed=seed)
    history = [state]
    boards = [board_document(game, state)]
    for n in range(moves):
        if undo_every and n % undo_every == undo_every - 1 and len(history) > 1:
            after = history.pop()
            state = game.undo(history.pop(), after)
            history.append(state)
            rec.record_undo()
        else:
            legal = game.legal_moves(state)
            if state.status != PLAYING or not legal:
                break
            for m in legal:  # every listed move reads back from its text and its document
                assert parse_move(game, move_text(game, m)) == m
                assert parse_move(game, move_document(game, m)) == m
            move = rng.choice(legal)
            after = game.apply(state, move)
            rec.record(state, move, after)
            state = after
            history.append(state)
        boards.append(board_document(game, state))
    return rec.document(state), boards


@pytest.mark.parametrize("seed", range(6))
def test_replay_reproduces_every_board(seed):
    log, boards = play(TINY_GAME, seed, 40, undo_every=7)
    assert [board_document(TINY_GAME, s) for s in replay(TINY_GAME, log)] == boards
    assert json.loads(json.dumps(log)) == log  # plain JSON


def test_replay_from_a_board_and_moves_as_documents():
    game = TINY_GAME
    start = game.deal(3)
    move = game.legal_moves(start)[0]
    after = game.apply(start, move)
    rec = LogRecorder(game, board=start)
    rec.record(start, move, after)
    log = rec.document(after)
    log["steps"][0]["move"] = move_document(game, move)
    assert replay(game, log)[-1] == after


def tampered(seed: int = 2):
    log, _ = play(TINY_GAME, seed, 30)
    return log


def test_replay_refuses_an_illegal_move_naming_the_step():
    log = tampered()
    log["steps"].insert(1, {"move": "foundation-1@0>column-1", "revealed": []})
    path, message = refused(TINY_GAME, log)
    assert path == "/steps/1/move" and message.startswith("step 2: foundation-1@0>column-1 "
                                                           "is not legal here")


def test_replay_refuses_other_revealed_cards():
    log = tampered()
    i = next(i for i, s in enumerate(log["steps"]) if s["revealed"])
    log["steps"][i]["revealed"] = ["KC"]
    path, message = refused(TINY_GAME, log)
    assert path == f"/steps/{i}/revealed" and message.startswith(f"step {i + 1}: ")
    assert "the log says KC" in message


def test_replay_refuses_another_status_or_a_bad_step():
    log = tampered()
    log["status"] = "won" if log["status"] != "won" else "lost"
    assert refused(TINY_GAME, log)[0] == "/status"
    log = tampered()
    log["steps"][0] = {"move": "tap stock", "note": 1}
    assert refused(TINY_GAME, log)[0] == "/steps/0"
    log = tampered()
    log["steps"][0] = {"move": "tap cellar", "revealed": []}
    path, message = refused(TINY_GAME, log)
    assert path == "/steps/0/move" and "step 1: " in message and "cellar" in message
    log = tampered()
    log["steps"].insert(0, {"undo": True})
    assert refused(TINY_GAME, log) == ("/steps/0", "step 1: undo with no move to take back")


def test_replay_reads_the_logs_own_words_strictly():
    log = tampered()
    log["status"] = None  # null is no status: it was taken as none given
    assert refused(TINY_GAME, log)[0] == "/status"
    log = tampered()
    log["steps"].insert(1, {"undo": 1})  # 1 == True to Python: it took back step 1
    assert refused(TINY_GAME, log)[0] == "/steps/1"


def test_a_logs_board_is_refused_at_its_place_in_the_log():
    game = TINY_GAME
    start = game.deal(3)
    rec = LogRecorder(game, board=start)
    log = rec.document(start)
    log["board"]["format"] = "cardz-board/0"
    assert refused(game, log)[0] == "/board/format"
    log["board"] = 7  # not an object: at the board itself
    assert refused(game, log)[0] == "/board"


def test_replay_limit():
    log = tampered()
    log["steps"] = [{"undo": True}] * (MAX_LOG_STEPS + 1)
    assert refused(TINY_GAME, log)[0] == "/steps"


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), moves=st.integers(0, 60))
def test_random_play_boards_round_trip(seed, moves):
    """load -> save -> load is the identity on every board random play reaches, and a state
    saved and loaded again is the same state (one deck: card ids are fixed by notation)."""
    game = TINY_GAME
    _, boards = play(game, seed, moves)
    rng = random.Random(seed)
    state = game.deal(seed)
    for _ in range(moves):
        legal = game.legal_moves(state)
        if state.status != PLAYING or not legal:
            break
        state = game.apply(state, rng.choice(legal))
        assert load_board(game, board_document(game, state)) == state
    for doc in boards:
        assert board_document(game, load_board(game, copy.deepcopy(doc))) == doc


RULESETS = sorted((Path(__file__).resolve().parent.parent / "rulesets").glob("*.cardz"))


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_bundled_games_replay_and_round_trip(path):
    """On every bundled game: random play logged and replayed gives the same boards, and each
    board survives save -> load (the same state where every card is unique in the decks)."""
    game = compile(load_game(path))
    unique = len({dc.card for dc in game.spec.cards}) == len(game.spec.cards)
    for seed in range(2):
        log, boards = play(game, seed, 60, undo_every=9)
        states = replay(game, json.loads(json.dumps(log)))
        assert [board_document(game, s) for s in states] == boards
        for state, doc in zip(states, boards):
            loaded = load_board(game, doc)
            assert board_document(game, loaded) == doc
            if unique:
                assert loaded == state
