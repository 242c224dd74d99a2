"""Views: face-down cards hidden, unseen cards as counts per pool, memory kept beside the state."""

from __future__ import annotations

import copy
import functools
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardz_core.cli.main import main
from cardz_core.engine import compile
from cardz_core.spec import load_game
from cardz_core.engine.state import State
from cardz_core.problems import CardzError
from cardz_core.view import Seat, View, as_view, deck_info, pool_counts, sample_deal

RULESETS = sorted((Path(__file__).parent.parent / "rulesets").glob("*.cardz"))

# A small Klondike: one suit pair, draw one with recycling, face-down cards in the columns.
SMALL: dict[str, Any] = {
    "name": "Small Klondike",
    "depotOnly": True,
    "decks": [{"suits": ["Hearts", "Spades"], "ranks": ["Ace", "Two", "Three", "Four", "Five"]}],
    "depots": [
        {"name": "stock", "type": "Stock", "draw": {"to": "waste", "count": 1, "recycle": True},
         "landFace": "Down", "acceptRule": "none", "ejectRule": "locked"},
        {"name": "waste", "type": "Waste", "acceptRule": "none", "ejectRule": "topOnly"},
        {"name": "foundation", "type": "Foundation", "repeat": 2,
         "acceptRule": {"seed": "Ace", "build": {"direction": "Up"}, "suit": "Same"},
         "ejectRule": "locked"},
        {"name": "column", "type": "Tableau", "repeat": 2, "autoFlipTop": True,
         "acceptRule": {"seed": "Five", "build": {"direction": "Down"}, "suit": "AlternateColor"},
         "ejectRule": "faceUp"},
    ],
    "dealRules": [{"kind": "dealGroup", "to": "column", "faceDown": 2, "faceUp": 1}],
    "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
}


def game_of(doc: dict[str, Any], **changes: Any) -> Any:
    doc = copy.deepcopy(doc)
    doc.update(changes)
    return compile(load_game(json.dumps(doc)))


@functools.lru_cache(maxsize=None)
def bundled(path: Path) -> Any:
    """A bundled game, compiled once for all the view, outcome and planner tests."""
    return compile(load_game(path, file=str(path)))


def unknown_counts(v: Any) -> dict[int, int]:
    out: dict[int, int] = {}
    for pile in v.piles:
        for c in pile:
            if c < 0:
                p = (-2 - c) // 2
                out[p] = out.get(p, 0) + 1
    return out


def check_view(game: Any, state: Any, v: Any) -> None:
    """The invariants every view keeps against its true state."""
    assert [len(p) for p in v.piles] == [len(p) for p in state.piles]
    assert v.rng == 0 and v.pools is not None
    for tp, vp in zip(state.piles, v.piles):
        for t, c in zip(tp, vp):
            assert (t & 1) == (c & 1 if c >= 0 else 0)  # faces are kept
    counts = unknown_counts(v)
    for p, pool in enumerate(v.pools):
        assert sum(pool) == counts.get(p, 0)
    ids = [c >> 1 for pile in v.piles for c in pile if c >= 0]
    ids += [i for pool in v.pools for i, bit in enumerate(pool) if bit]
    assert sorted(ids) == list(range(len(game.spec.cards)))  # every card once, seen or unseen


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_fresh_view_hides_every_face_down_card(path: Path) -> None:
    game = bundled(path)
    for seed in (1, 2):
        state = game.deal(seed)
        v = game.view(state)
        check_view(game, state, v)
        assert all(c < 0 or c & 1 for pile in v.piles for c in pile)
        assert game.legal_moves(v) == game.legal_moves(state)


def test_pools_follow_packs_sent_to_different_depots() -> None:
    doc = copy.deepcopy(SMALL)
    doc["decks"] = [{"suits": ["Hearts", "Spades"], "ranks": ["Jack", "Queen", "King"],
                     "to": "monsters"},
                    {"suits": ["Hearts", "Spades"], "ranks": ["Ace", "Two", "Three", "Four",
                                                             "Five"]}]
    doc["depots"] = doc["depots"] + [{"name": "monsters", "type": "Reserve",
                                      "acceptRule": "none", "ejectRule": "locked"}]
    game = game_of(doc)
    state = game.deal(3)
    v = game.view(state)
    check_view(game, state, v)
    assert len(v.pools) == 2
    rows = pool_counts(deck_info(game), v.pools)
    ranks = [{deck_info(game).cards[deck_info(game).ids_of_face[f][0]].rank
              for f, n in enumerate(row) if n} for row in rows]
    assert ranks[0] == {11, 12, 13} and ranks[1] <= {1, 2, 3, 4, 5}
    monsters = game.depot_index["monsters"]
    assert {(-2 - c) // 2 for c in v.piles[monsters]} == {0}


def test_copies_are_one_entry_with_a_count() -> None:
    game = game_of(SMALL, decks=[{"suits": ["Spades"], "ranks": ["Ace", "Two"], "count": 3}])
    state = game.deal(1)
    v = game.view(state)
    check_view(game, state, v)
    doc = game.board_document(v)
    unseen = doc["unseen"][0]
    assert sum(unseen.values()) == sum(1 for p in v.piles for c in p if c < 0)
    assert set(unseen) <= {"AS", "2S"}
    # copies are renumbered in board order, so which copy the deal holds does not show
    swapped = state.copy()
    info = deck_info(game)
    twin = {ids[0]: ids[1] for ids in info.ids_of_face} | {ids[1]: ids[0] for ids in info.ids_of_face}
    swapped.piles = tuple(tuple(twin.get(c >> 1, c >> 1) << 1 | (c & 1) for c in p)
                          for p in state.piles)
    assert game.view(swapped) == v


def _tap_until_recycled(game: Any, seat: Seat) -> None:
    stock = game.depot_index["stock"]
    tap = next(m for m in game.legal_moves(seat.state) if m.src == stock and m.index < 0)
    while seat.state.recycles_total == 0:
        seat.play(tap)


def test_memory_keeps_cards_turned_down_by_a_recycle() -> None:
    game = game_of(SMALL)
    seat = Seat(game, game.deal(5))
    _tap_until_recycled(game, seat)
    stock = game.depot_index["stock"]
    remembered = seat.view.piles[stock]
    assert remembered and all(c >= 0 and not c & 1 for c in remembered)
    assert remembered == seat.state.piles[stock]  # known, in place
    forgetful = Seat(game, game.deal(5), memory=False)
    _tap_until_recycled(game, forgetful)
    assert all(c < 0 for c in forgetful.view.piles[stock])
    assert forgetful.state == seat.state
    check_view(game, seat.state, seat.view)
    check_view(game, forgetful.state, forgetful.view)
    assert game.view(seat.state) == forgetful.view  # a bare state has no memory


def test_undo_restores_the_memory_too() -> None:
    game = game_of(SMALL)
    seat = Seat(game, game.deal(2))
    before = seat.view
    move = game.legal_moves(seat.state)[0]
    seat.play(move)
    assert seat.undo()
    assert seat.view.piles == before.piles and seat.view.pools == before.pools
    assert not Seat(game, game.deal(2)).undo()


def test_a_shuffle_forgets() -> None:
    doc = copy.deepcopy(SMALL)
    doc["depots"][0] = {"name": "stock", "type": "Stock", "draw": {"to": "waste", "count": 1},
                        "landFace": "Down", "acceptRule": "none", "ejectRule": "locked"}
    doc["redealRules"] = [{"kind": "gather", "from": ["waste"], "to": "stock"},
                          {"kind": "shuffle", "depot": "stock"}]
    game = game_of(doc)
    seat = Seat(game, game.deal(4))
    stock = game.depot_index["stock"]
    tap = next(m for m in game.legal_moves(seat.state) if m.src == stock)
    while seat.state.piles[stock]:
        seat.play(tap)
    seat.play(next(m for m in game.legal_moves(seat.state) if m.src == stock))  # the redeal
    assert seat.state.redeals == 1 and seat.state.piles[stock]
    assert all(c < 0 for c in seat.view.piles[stock])
    check_view(game, seat.state, seat.view)


def test_a_shuffle_of_remembered_cards_makes_an_empty_pool_theirs() -> None:
    doc = copy.deepcopy(SMALL)
    doc["decks"] = [{"suits": ["Hearts", "Spades"], "ranks": ["Ace", "Two", "Three"],
                     "to": "waste"},
                    {"suits": ["Hearts", "Spades"], "ranks": ["Four", "Five"]}]
    doc["depots"][0] = {"name": "stock", "type": "Stock", "draw": {"to": "waste", "count": 1},
                        "landFace": "Down", "acceptRule": "none", "ejectRule": "locked"}
    doc["dealRules"] = [{"kind": "dealGroup", "to": "column", "faceUp": 2},
                        {"kind": "gather", "from": ["waste"], "to": "stock"},
                        {"kind": "dealGroup", "from": "stock", "to": "waste", "faceUp": 6}]
    doc["redealRules"] = [{"kind": "gather", "from": ["waste"], "to": "stock"},
                          {"kind": "shuffle", "depot": "stock"}]
    game = game_of(doc)
    seat = Seat(game, game.deal(2))
    assert not seat.memory.unknown  # every card is face-up after this deal
    stock = game.depot_index["stock"]
    seat.play(next(m for m in game.legal_moves(seat.state) if m.src == stock))
    assert seat.state.redeals == 1
    assert len(seat.memory.unknown) == 6
    assert {seat.memory.labels[i] for i in seat.memory.unknown} == {0}  # pool 0 was empty
    check_view(game, seat.state, seat.view)


def test_views_of_states_that_differ_only_in_hidden_cards_are_equal() -> None:
    game = game_of(SMALL)
    state = game.deal(9)
    down = [(d, i) for d, p in enumerate(state.piles) for i, c in enumerate(p) if not c & 1]
    ids = [state.piles[d][i] >> 1 for d, i in down]
    random.Random(0).shuffle(ids)
    piles = [list(p) for p in state.piles]
    for (d, i), card in zip(down, ids):
        piles[d][i] = card << 1
    other = state.copy()
    other.piles = tuple(tuple(p) for p in piles)
    assert other != state
    assert game.view(other) == game.view(state)


def test_a_view_is_refused_as_a_true_state() -> None:
    game = game_of(SMALL)
    v = game.view(game.deal(1))
    with pytest.raises(CardzError, match="already a view"):
        game.view(v)


def test_cli_view(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "small.cardz"
    path.write_text(json.dumps(SMALL))
    game = game_of(SMALL)
    board = json.dumps(game.board_document(game.deal(7)))
    assert main(["view", str(path), "--board", board]) == 0
    doc = json.loads(capsys.readouterr().out)
    downs = sum(1 for pile in doc["depots"].values() for c in pile if c == "~?")
    assert downs == sum(doc["unseen"][0].values()) > 0
    # a view given back is printed as it is
    assert main(["view", str(path), "--board", json.dumps(doc)]) == 0
    assert json.loads(capsys.readouterr().out) == doc
    assert main(["view", str(path), "--board", "{\"format\": 1}"]) == 1


def test_cli_view_reads_standard_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "small.cardz"
    path.write_text(json.dumps(SMALL))
    game = game_of(SMALL)
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(game.board_document(game.deal(1)))))
    assert main(["view", str(path), "--board", "-"]) == 0
    assert "~?" in capsys.readouterr().out


def test_views_are_their_own_type_and_moves_on_them_give_views() -> None:
    game = game_of(SMALL)
    state = game.deal(2)
    v = game.view(state)
    assert type(v) is View and not isinstance(state, View)  # a State, or the native engine's
    for move in game.legal_moves(v):
        o = game.sample_outcome(v, move, random.Random(1))
        assert type(o.view) is View
        if not o.revealed:
            assert type(game.apply(v, move)) is View and game.apply(v, move) == o.view
    tap = next(m for m in game.legal_moves(v) if m.index < 0)
    assert all(type(o.view) is View for o in game.outcomes(v, tap))
    assert not isinstance(game.apply(state, tap), View)  # a true state stays one
    deal = sample_deal(game, v, random.Random(3))
    assert type(deal) is State and deal.pools is None
    doc = game.board_document(v)
    again = as_view(game.load_board(doc))
    assert type(again) is View and again == v
    with pytest.raises(CardzError, match="not a view"):
        as_view(state)


def test_deck_tables_are_held_by_each_game() -> None:
    one, two = game_of(SMALL), game_of(SMALL)
    assert deck_info(one) is deck_info(one)
    assert deck_info(one) is not deck_info(two)
