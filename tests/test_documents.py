"""Board documents: notation, every stored field, refusals with pointers, load -> save -> load."""

from __future__ import annotations

import copy
import json
from types import SimpleNamespace

import pytest

from cardz_core.cards import Card, code, unknown_code
from cardz_core.engine.documents import board_document, load_board
from cardz_core.engine.moves import Move
from cardz_core.engine.movetext import move_document, move_text, parse_move
from cardz_core.engine.state import State
from cardz_core.problems import CardzError
from cardz_core.spec.model import DeckCard, Depot, GameSpec, Pack, Scoring, Expr

NAMES = ("stock", "waste", "column-1", "column-2")


def small_game(copies: int = 1, scoring: bool = False) -> SimpleNamespace:
    """A game of A-3 of hearts and spades (``copies`` packs) with four depots. Board documents
    read only the spec, the depot names and the score, so this stands in for a compiled game."""
    depots = (Depot("stock", "Stock", None, 0), Depot("waste", "Waste", None, 0),
              Depot("column-1", "Tableau", "column", 1), Depot("column-2", "Tableau", "column", 2))
    pack = Pack(suits=(2, 3), ranks=(1, 2, 3), count=copies)
    cards = tuple(DeckCard(Card(r, s), 0, c, 1 + c % 2)
                  for c in range(copies) for s in (2, 3) for r in (1, 2, 3))
    spec = GameSpec("Tiny", depots, (pack,), cards,
                    scoring=Scoring(Expr("moves", "/scoring/value")) if scoring else None)
    return SimpleNamespace(spec=spec, depot_names=NAMES, identity=tuple(c.card for c in cards),
                           depot_index={n: i for i, n in enumerate(NAMES)},
                           score=lambda state: 100 - state.moves)


def board(**depots: list[str]) -> dict:
    doc = {"format": "cardz-board/1", "game": "Tiny",
           "depots": {n: [] for n in NAMES}}
    doc["depots"].update({k.replace("_", "-"): v for k, v in depots.items()})
    return doc


FULL = board(stock=["~AH", "~2H", "~3H"], waste=["AS"], column_1=["~2S", "3S"], column_2=[])


def test_cards_become_codes_in_deck_order():
    state = load_board(small_game(), FULL)
    # card ids: AH 0, 2H 1, 3H 2, AS 3, 2S 4, 3S 5
    assert state.piles == ((0, 2, 4), (7,), (8, 11), ())
    assert state.status == 0 and state.pools is None and state.moves == 0


def test_save_writes_notation_and_contract_fields():
    game = small_game()
    doc = board_document(game, load_board(game, FULL))
    assert doc == {**FULL, "counters": {"moves": 0, "undos": 0, "recycles": 0, "redeals": 0},
                   "status": "playing"}


def test_every_extra_field_round_trips():
    game = small_game(scoring=True)
    doc = {**FULL, "counters": {"moves": 7, "undos": 2, "recycles": 1, "redeals": 1},
           "status": "won", "cameFrom": {"waste": "stock", "column-1": "waste"},
           "recyclesUsed": {"stock": 1}, "seedRank": "Q", "declared": {"column-2": "H"},
           "rulesOff": True, "autoMoved": True, "rng": 123456789012}
    state = load_board(game, doc)
    assert state.came_from == (-1, 0, 1, -1) and state.recycles == (1, 0, 0, 0)
    assert (state.seed_rank, state.declared, state.rules_off, state.auto_moved) == \
        (12, (-1, -1, -1, 2), True, True)
    assert (state.moves, state.undos, state.recycles_total, state.redeals, state.status,
            state.rng) == (7, 2, 1, 1, 1, 123456789012)
    saved = board_document(game, state)
    assert saved == {**doc, "score": 93}
    assert load_board(game, saved) == state


def test_input_is_read_case_insensitively_and_written_canonically():
    game = small_game()
    doc = board(stock=["~ah", "~2h", "~3h"], waste=["as"], column_1=["~2s", "3S"])
    doc["seedRank"] = "queen"
    doc["declared"] = {"column-2": "Hearts"}
    saved = board_document(game, load_board(game, doc))
    assert saved["depots"] == FULL["depots"]
    assert saved["seedRank"] == "Q" and saved["declared"] == {"column-2": "H"}


def test_identical_copies_take_the_lowest_unused_id():
    game = small_game(copies=2)
    doc = board(stock=["~AH", "~2H", "~3H", "AS", "2S", "3S"],
                waste=["AS", "AH"], column_1=["2H", "3H", "2S"], column_2=["3S"])
    state = load_board(game, doc)
    # copy 0 ids 0..5 (AH 2H 3H AS 2S 3S), copy 1 ids 6..11
    assert state.piles[0] == (0, 2, 4, 7, 9, 11)
    assert state.piles[1] == (code(9, True), code(6, True))
    assert board_document(game, state)["depots"] == doc["depots"]


def errors(game, doc) -> list[tuple[str, str]]:
    with pytest.raises(CardzError) as err:
        load_board(game, doc)
    return [(p.path, p.message) for p in err.value.problems]


def test_missing_card_is_named():
    doc = board(stock=["~AH", "~2H"], waste=["AS"], column_1=["~2S", "3S"])
    assert errors(small_game(), doc) == [("/depots", "card 3H is missing from the board")]


def test_card_too_many_names_depot_and_card():
    doc = copy.deepcopy(FULL)
    doc["depots"]["column-2"] = ["3S"]
    [(path, message)] = errors(small_game(), doc)
    assert path == "/depots/column-2/0" and "column-2" in message and "3S too many" in message


def test_card_the_decks_do_not_hold_names_depot_and_card():
    doc = copy.deepcopy(FULL)
    doc["depots"]["column-2"] = ["KC"]
    [(path, message)] = errors(small_game(), doc)
    assert path == "/depots/column-2/0" and message == "column-2: the game's decks hold no KC"


def test_bad_notation_points_at_the_card():
    doc = copy.deepcopy(FULL)
    doc["depots"]["waste"] = ["A♠"]
    found = errors(small_game(), doc)
    assert found[0][0] == "/depots/waste/0" and "not a card" in found[0][1]


def test_every_problem_is_reported_at_once():
    doc = {**FULL, "colour": 1, "status": "paused", "counters": {"moves": -1, "turns": 3},
           "cameFrom": {"nowhere": "stock", "waste": "void"}, "rulesOff": "yes", "rng": "x"}
    paths = [p for p, _ in errors(small_game(), doc)]
    assert paths == ["/colour", "/counters/moves", "/counters/turns", "/status",
                     "/cameFrom/nowhere", "/cameFrom/waste", "/rulesOff", "/rng"]


@pytest.mark.parametrize("change,path,words", [
    ({"format": "cardz-board/2"}, "/format", "cardz-board/1"),
    ({"game": "Klondike"}, "/game", "for 'Klondike', not 'Tiny'"),
    ({"depots": []}, "/depots", "object"),
    ({"seedRank": "Z"}, "/seedRank", "not a rank"),
    ({"declared": {"waste": "X"}}, "/declared/waste", "not a suit"),
    ({"recyclesUsed": {"stock": 1.5}}, "/recyclesUsed/stock", "whole number"),
])
def test_wrong_fields_are_refused_with_pointer(change, path, words):
    found = errors(small_game(), {**FULL, **change})
    assert found[0][0] == path and words in found[0][1]


def test_missing_and_unknown_depots():
    doc = copy.deepcopy(FULL)
    del doc["depots"]["column-2"]
    doc["depots"]["zz"] = []
    found = errors(small_game(), doc)
    assert ("/depots", "depot 'column-2' is missing (list it with [] if it is empty)") in found
    assert ("/depots/zz", "'zz' is not a depot of 'Tiny'") in found


def test_a_misspelt_depot_is_one_problem_with_the_name_it_is_near():
    doc = copy.deepcopy(FULL)
    doc["depots"]["stok"] = doc["depots"].pop("stock")  # its cards with it
    assert doc["depots"]["stok"]
    # not also 'stock' missing, nor each of its cards missing from the board
    assert errors(small_game(), doc) == [
        ("/depots/stok", "'stok' is not a depot of 'Tiny' (did you mean 'stock'?)")]


def test_not_an_object():
    assert errors(small_game(), [1, 2]) == [("", "a board document is a JSON object")]


VIEW = {**board(stock=["~?", "~?", "~?"], waste=["AS"], column_1=["~?", "3S"]),
        "unseen": [{"AH": 1, "2H": 1, "3H": 1}, {"2S": 1}],
        "unknownPool": {"column-1": [1]}}


def test_view_round_trips_with_pools():
    game = small_game()
    state = load_board(game, VIEW)
    assert state.piles[0] == (unknown_code(0),) * 3
    assert state.piles[2] == (unknown_code(1), 11)
    assert state.pools == ((1, 1, 1, 0, 0, 0), (0, 0, 0, 0, 1, 0))
    saved = board_document(game, state)
    assert saved == {**VIEW, "counters": saved["counters"], "status": "playing"}
    assert load_board(game, saved) == state


def test_view_counts_must_match_the_unknown_cards():
    doc = copy.deepcopy(VIEW)
    doc["unseen"] = [{"AH": 1, "2H": 1, "3H": 1, "2S": 1}, {}]
    doc["depots"]["column-1"] = ["3S"]
    del doc["unknownPool"]
    found = errors(small_game(), doc)
    assert found == [("/unseen", "the pools hold 4 unseen cards, the board shows 3 unknown (~?)")]


def test_view_refusals():
    doc = copy.deepcopy(VIEW)
    doc["unseen"] = [{"AH": 1, "2H": 1, "3H": 2}, {"2S": 1}]
    doc["unknownPool"] = {"column-1": [5]}
    found = errors(small_game(), doc)
    assert ("/unseen/0/3H", "2 x 3H unseen, but only 1 are not on the board") in found
    assert ("/unknownPool/column-1", "give one pool number (0 to 1) per unknown card of "
            "column-1: it holds 1") in found
    plain = copy.deepcopy(VIEW)
    del plain["unseen"]
    assert any("needs 'unseen'" in m for _, m in errors(small_game(), plain))


def test_state_fields_all_reach_the_document():
    """Guards against a State field being added without a place in the board document
    (``cards``, the game's card table kept for printing, is the game's, not the position's)."""
    assert set(State.__slots__) == {
        "piles", "came_from", "recycles", "redeals", "moves", "undos", "recycles_total",
        "seed_rank", "declared", "rules_off", "auto_moved", "status", "rng", "pools", "cards",
        "_hash"}


# --- move documents and the text form -------------------------------------------------------


@pytest.mark.parametrize("move,text,doc", [
    (Move(2, 4, 3), "column-1@4>column-2", {"from": "column-1", "index": 4, "to": "column-2"}),
    (Move(1, 0, 2, 2), "waste@0>column-1=H",
     {"from": "waste", "index": 0, "to": "column-1", "declare": "H"}),
    (Move(0, -1, -1), "tap stock", {"tap": "stock"}),
])
def test_move_text_and_document_round_trip(move, text, doc):
    game = small_game()
    assert move_text(game, move) == text and move_document(game, move) == doc
    assert parse_move(game, text) == move and parse_move(game, doc) == move
    assert parse_move(game, {**doc, "text": text}) == move
    assert parse_move(game, json.dumps(doc)) == move


def test_text_form_reads_names_holding_the_separators():
    names = ("a@b", "x>y", "p=q", "h=H")
    game = SimpleNamespace(spec=SimpleNamespace(name="Odd"), depot_names=names,
                           depot_index={n: i for i, n in enumerate(names)})
    for move in (Move(0, 3, 1), Move(1, 0, 2), Move(2, 1, 3), Move(0, 0, 2, 3), Move(3, -1, -1)):
        assert parse_move(game, move_text(game, move)) == move
    assert parse_move(game, "  tap p=q ") == Move(2, -1, -1)


@pytest.mark.parametrize("value,path,words", [
    ("column-1>column-2", "", "FROM@INDEX>TO"),
    ("column-1@x>column-2", "", "whole number"),
    ("column-1@2>nowhere", "", "'nowhere' is not a depot of 'Tiny'"),
    ("column-1@2>column-2=Z", "", "'column-1@2>column-2=Z': declare 'Z' is not a suit"),
    ("waste@0>column-1=", "", "'waste@0>column-1=': declare '' is not a suit"),
    ("tap shelf", "", "'shelf' is not a depot"),
    ({"from": "column-1", "to": "column-2"}, "/index", "'index' is missing"),
    ({"from": "column-1", "index": -1, "to": "column-2"}, "/index", "whole number from 0"),
    ({"from": "column-1", "index": True, "to": "column-2"}, "/index", "whole number from 0"),
    ({"from": "column-1", "index": 0, "to": "column-2", "declare": "X"}, "/declare", "not a suit"),
    ({"from": "column-1", "index": 0, "to": "column-2", "via": 1}, "/via", "unknown field"),
    ({"tap": "stock", "index": 0}, "/index", "unknown field"),
    ({"from": "attic", "index": 0, "to": "column-2"}, "/from", "'attic' is not a depot"),
    ({"tap": "stock", "text": "tap waste"}, "/text", "not describe the same move"),
    ("{not json", "", "not valid JSON"),
    (7, "", "not 7"),
])
def test_bad_moves_name_what_is_wrong(value, path, words):
    with pytest.raises(CardzError) as err:
        parse_move(small_game(), value)
    [problem] = err.value.problems
    assert problem.path == path and words in problem.message


# --- views made by cardz_core.view, with two pools ---------------------------------------------

TWO_POOLS = {
    "name": "Two Pools",
    "decks": [{"suits": ["Hearts"], "ranks": ["Jack", "Queen", "King"], "to": "monsters"},
              {"suits": ["Hearts", "Spades"], "ranks": ["Ace", "Two", "Three"]}],
    "depots": [{"name": "stock", "type": "Stock", "draw": {"to": "waste"}},
               {"name": "waste", "type": "Waste"},
               {"name": "monsters", "type": "Reserve"},
               {"name": "column", "type": "Tableau", "repeat": 2}],
    "dealRules": [{"kind": "dealGroup", "to": "column", "faceDown": 1, "faceUp": 1}],
}


@pytest.mark.parametrize("seed", range(4))
def test_views_round_trip_with_their_pools(seed):
    from cardz_core.engine import compile
    from cardz_core.spec import load_game

    game = compile(load_game(json.dumps(TWO_POOLS)))
    state = game.deal(seed)
    for _ in range(3):
        v = game.view(state)
        doc = board_document(game, v)
        assert all(c == "~?" for c in doc["depots"]["monsters"])
        assert sum(doc["unseen"][0].values()) == 3
        assert doc.get("unknownPool", {}).get("stock", []) == [1] * len(doc["depots"]["stock"])
        assert load_board(game, doc) == v
        assert board_document(game, load_board(game, doc)) == doc
        state = game.apply(state, game.legal_moves(state)[-1])  # the tap: one card turns up
