"""Documents checked against the game, not taken as they claim: move indices, a board's status
and score, a log's game name and score; every refusal at its pointer."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardz_core.engine import compile
from cardz_core.engine.documents import board_document, load_board
from cardz_core.engine.logs import LogRecorder, replay
from cardz_core.engine.movetext import parse_move
from cardz_core.limits import MAX_CARDS, MAX_EXPR_INT, MAX_SEED
from cardz_core.problems import CardzError
from cardz_core.spec import load_game
from tests.conftest import LONG
from tests.test_cli_play import BOARD, TINY
from tests.test_documents import small_game

GAME = compile(load_game(json.dumps(TINY)))
SCORED = compile(load_game(json.dumps({**TINY, "scoring": {"value": "count(Foundation) * 10"}})))
WON = {**BOARD, "depots": {"stock": [], "waste": [], "foundation-1": ["AH", "2H", "3H"],
                           "foundation-2": ["AS", "2S", "3S"], "column-1": [], "column-2": []}}


def refusal(fn, *args) -> tuple[str, str]:
    with pytest.raises(CardzError) as err:
        fn(*args)
    [problem] = err.value.problems
    return problem.path, problem.message


# --- move indices ---------------------------------------------------------------------------

@pytest.mark.parametrize("index", ["0", "1", "007", str(MAX_CARDS - 1)])
def test_indices_in_ascii_digits_below_the_card_limit(index):
    assert parse_move(small_game(), f"column-1@{index}>column-2").index == int(index)
    doc = {"from": "column-1", "index": int(index), "to": "column-2"}
    assert parse_move(small_game(), doc).index == int(index)


@pytest.mark.parametrize("index", [str(MAX_CARDS), "9" * 300, "²", "٣", "१", "1²", ""])
def test_other_indices_are_refused_at_the_move(index):
    path, message = refusal(parse_move, small_game(), f"column-1@{index}>column-2")
    assert path == "" and "digits 0-9" in message


@pytest.mark.parametrize("index", [MAX_CARDS, 10 ** 300, 2 ** 63])
def test_document_indices_past_the_card_limit_are_refused(index):
    doc = {"from": "column-1", "index": index, "to": "column-2"}
    path, message = refusal(parse_move, small_game(), doc)
    assert path == "/index" and f"below {MAX_CARDS}" in message and len(message) < 200


@pytest.mark.parametrize("doc,path", [
    ({"declare": []}, "/from"), ({"from": "column-1", "declare": "H"}, "/index"),
    ({"from": "column-1", "index": 0}, "/to"),
    ({"from": "column-1", "index": 0, "to": "column-2", "declare": []}, "/declare"),
])
def test_move_documents_are_refused_at_the_field(doc, path):
    assert refusal(parse_move, small_game(), doc)[0] == path


def test_a_move_in_a_log_is_refused_at_its_pointer():
    log = LogRecorder(GAME, seed=1).document(GAME.deal(1))
    log["steps"] = [{"move": {"declare": []}, "revealed": []}]
    path, message = refusal(replay, GAME, log)
    assert path == "/steps/0/move" and "'from' is missing" in message


# --- boards -----------------------------------------------------------------------------------

def test_a_board_in_the_status_its_rules_give_loads():
    assert load_board(GAME, {**WON, "status": "won"}).status == 1
    assert load_board(GAME, {**BOARD, "status": "playing"}).status == 0
    assert load_board(GAME, BOARD).status == 0  # left out: playing, and it is


@pytest.mark.parametrize("doc,claimed,judged", [
    ({**BOARD, "status": "won"}, "won", "playing"), ({**BOARD, "status": "lost"}, "lost", "playing"),
    (WON, "playing", "won"), ({**WON, "status": "lost"}, "lost", "won"),
])
def test_a_board_claiming_another_status_is_refused(doc, claimed, judged):
    assert refusal(load_board, GAME, doc) == (
        "/status", f"the board says {claimed}, but by the rules it is {judged}")


def test_with_the_rules_off_a_board_is_playing():
    assert load_board(GAME, {**WON, "rulesOff": True}).status == 0
    assert refusal(load_board, GAME, {**WON, "rulesOff": True, "status": "won"})[0] == "/status"


def test_a_board_claiming_another_score_is_refused():
    state = load_board(SCORED, BOARD)
    doc = board_document(SCORED, state)
    assert doc["score"] == 10 and load_board(SCORED, doc) == state  # AH on a foundation
    for wrong in (11, "10", True, None, 10 ** 400):
        path, message = refusal(load_board, SCORED, {**doc, "score": wrong})
        assert path == "/score" and message.endswith("but by the rules it is 10")
    # a game without a score: only null, what cardz writes, is the score the rules give
    assert load_board(GAME, {**BOARD, "score": None}).status == 0
    assert refusal(load_board, GAME, {**BOARD, "score": 0})[0] == "/score"


@pytest.mark.parametrize("field,value,ok", [
    ("moves", MAX_EXPR_INT, True), ("moves", MAX_EXPR_INT + 1, False),
    ("undos", 10 ** 5000, False), ("redeals", -1, False),
], ids=["moves-at", "moves-past", "undos-5001-digits", "redeals-negative"])
def test_counters_at_and_past_their_limit(field, value, ok):
    doc = {**BOARD, "counters": {field: value}}
    if ok:
        assert getattr(load_board(GAME, doc), field) == value
    else:
        path, message = refusal(load_board, GAME, doc)
        assert path == f"/counters/{field}" and len(message) < 200


@pytest.mark.parametrize("fields,path", [
    ({"counters": {"moves": 3, "recycles": 1}}, "/counters/recycles"),  # no stock used one
    ({"counters": {"moves": 3, "recycles": 1}, "recyclesUsed": {"waste": 1}}, "/recyclesUsed/waste"),
    ({"counters": {"moves": 3, "redeals": 1}}, "/counters/redeals"),  # the game has no redeals
    ({"counters": {"moves": 2, "undos": 3}}, "/counters/undos"),
    ({"counters": {"moves": 0, "recycles": 1}, "recyclesUsed": {"stock": 1}}, "/counters/recycles"),
    ({"seedRank": "K"}, "/seedRank"),
    ({"declared": {"column-2": "H"}}, "/declared/column-2"),
], ids=["recycles-unused", "recycles-on-the-waste", "redeals-without-rules", "undos-past-moves",
        "recycles-past-moves", "seed-rank", "declared"])
def test_counters_and_memory_the_rules_cannot_give_are_refused_at_the_field(fields, path):
    assert refusal(load_board, GAME, {**BOARD, **fields})[0] == path


def test_counters_the_rules_can_give_load():
    doc = {**BOARD, "counters": {"moves": 5, "undos": 2, "recycles": 2},
           "recyclesUsed": {"stock": 2}}
    state = load_board(GAME, doc)
    assert (state.recycles_total, state.undos, load_board(GAME, board_document(GAME, state))) == \
        (2, 2, state)
    capped = compile(load_game(json.dumps({**TINY, "maxRedeals": 1, "depots": [
        {**TINY["depots"][0], "draw": {"to": "waste", "recycle": True, "maxRecycles": 1}},
        *TINY["depots"][1:]], "redealRules": [{"kind": "flipTop", "depot": "stock"}]})))
    assert load_board(capped, {**doc, "counters": {"moves": 5, "recycles": 1, "redeals": 1},
                               "recyclesUsed": {"stock": 1}}).redeals == 1
    assert refusal(load_board, capped, {**doc, "counters": {"moves": 5, "recycles": 2},
                                        "recyclesUsed": {"stock": 2}})[0] == "/recyclesUsed/stock"
    assert refusal(load_board, capped, {**doc, "counters": {"moves": 5, "redeals": 2},
                                        "recyclesUsed": {}})[0] == "/counters/redeals"


@pytest.mark.parametrize("rng,ok", [(MAX_SEED, True), (MAX_SEED + 1, False), (-1, False)])
def test_rng_at_and_past_the_64_bit_state(rng, ok):
    doc = {**BOARD, "rng": rng}
    if ok:
        assert load_board(GAME, doc).rng == rng
    else:
        assert refusal(load_board, GAME, doc)[0] == "/rng"


# --- logs -------------------------------------------------------------------------------------

def played(game):
    state = game.deal(4)
    rec = LogRecorder(game, seed=4)
    for _ in range(5):
        moves = game.legal_moves(state)
        if not moves:
            break
        after = game.apply(state, moves[0])
        rec.record(state, moves[0], after)
        state = after
    return rec.document(state)


@pytest.mark.parametrize("name", [None, 3, "Klondike", "tiny klondike", ["Tiny Klondike"]])
def test_a_log_for_another_game_name_is_refused(name):
    log = {**played(GAME), "game": name}
    path, message = refusal(replay, GAME, log)
    assert path == "/game" and message.endswith("not 'Tiny Klondike'")


def test_a_log_without_a_game_name_replays_by_its_hash():
    log = played(GAME)
    del log["game"]
    assert replay(GAME, log)


def test_a_log_claiming_another_score_is_refused():
    log = played(SCORED)
    assert replay(SCORED, log) and isinstance(log["score"], int)
    for wrong in (log["score"] + 1, None, True, "x" * 500):
        path, message = refusal(replay, SCORED, {**log, "score": wrong})
        assert path == "/score" and len(message) < 200
    unscored = played(GAME)
    assert refusal(replay, GAME, {**unscored, "score": 0})[0] == "/score"


@pytest.mark.parametrize("seed,ok", [(MAX_SEED, True), (MAX_SEED + 1, False), (10 ** 400, False)])
def test_log_seeds_at_and_past_the_limit(seed, ok):
    log = copy.deepcopy(played(GAME))
    log.update(seed=seed, steps=[], status="playing")
    if ok:
        assert replay(GAME, log)
    else:
        path, message = refusal(replay, GAME, log)
        assert path == "/seed" and len(message) < 200


# --- random documents: a refusal or a value, never a Python exception ---------------------------

JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
              st.text(max_size=12), st.sampled_from(["column-1", "stock", "H", "won", "Tiny Klondike"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(["from", "index", "to", "declare", "tap",
                                                             "text", "x"]), inner, max_size=4)),
    max_leaves=12)
MOVE_TEXT = st.builds(lambda a, b, c: f"{a}@{b}>{c}", st.sampled_from(["column-1", "waste", "x"]),
                      st.text(alphabet="0123456789²٣-+ x", max_size=5),
                      st.sampled_from(["column-2", "column-2=H", "column-2=", "nowhere"]))


@settings(max_examples=400 if LONG else 80, deadline=None)
@given(st.one_of(JSONISH, MOVE_TEXT, st.text(max_size=30)))
def test_any_move_parses_or_is_refused(value):
    try:
        move = parse_move(GAME, value)
    except CardzError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        return
    assert 0 <= move.index < MAX_CARDS or move.dst < 0


@settings(max_examples=300 if LONG else 60, deadline=None)
@given(st.dictionaries(st.sampled_from(["status", "score", "counters", "rng", "game", "rulesOff",
                                        "seedRank", "declared", "cameFrom"]), JSONISH, max_size=4))
def test_any_board_fields_load_or_are_refused_at_a_pointer(fields):
    try:
        load_board(SCORED, {**BOARD, **fields})
    except CardzError as exc:
        assert all(p.path.startswith("/") for p in exc.problems)
