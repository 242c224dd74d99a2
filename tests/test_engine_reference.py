"""Where cardz once departed from the format reference (issue 22), one small game each, played
as the reference says; and the three sentences of the reference that needed a decision
(docs/engine.md, "Following the reference")."""

from __future__ import annotations

import pytest

import io
import json
from pathlib import Path

from cardz_core.engine import WON, IllegalMove, compile
from cardz_core.rulesets import Ruleset
from cardz_core.spec import load_game
from conftest import board, move_texts, mv, pile, run_cli, tap

STOCK = {"name": "stock", "type": "Stock", "acceptRule": "none", "ejectRule": "locked"}


def game(depots: list, **doc: object):
    return compile(load_game({"name": "test", **doc, "depots": depots}))


def moves(g, state) -> set[str]:
    return move_texts(g, g.legal_moves(state))


# -- 1. while a depot's action is available, pressing its cards acts -----------------------------
def acting_game():
    """``hand`` releases any card, and its action turns its top card up while that is face-down."""
    return game([STOCK,
                 {"name": "hand", "type": "Reserve", "acceptRule": "none", "ejectRule": "any",
                  "actions": [{"name": "look", "when": "!top(depot).faceUp",
                               "do": [{"kind": "flipTop", "depot": "@self"}]}]},
                 {"name": "out", "type": "Tableau", "ejectRule": "locked",
                  "acceptRule": {"allowFaceDown": True}}])


def test_a_depot_whose_action_is_available_is_tapped_not_picked_from():
    g = acting_game()
    s = board(g, {"hand": ["AS", "~2S"]})
    assert moves(g, s) == {"tap hand"}
    assert "acts" in g.illegal_reason(s, mv(g, "hand", 0, "out"))
    with pytest.raises(IllegalMove, match="acts"):
        g.apply(s, mv(g, "hand", 1, "out"))
    after = g.apply(s, tap(g, "hand"))
    assert pile(g, after, "hand") == ["AS", "2S"]
    # no action holds now: the cards are picked up again
    assert moves(g, after) == {"hand@0>out", "hand@1>out"}


def test_an_action_that_would_change_nothing_leaves_the_cards_to_pick_up():
    g = game([STOCK,
              {"name": "hand", "type": "Reserve", "acceptRule": "none", "ejectRule": "any",
               "actions": [{"name": "look", "do": [{"kind": "flipTop", "depot": "@self"}]}]},
              {"name": "out", "type": "Tableau", "ejectRule": "locked"}])
    s = board(g, {"hand": ["AS", "2S"]})  # flipping a face-up top does nothing: no action
    assert moves(g, s) == {"hand@0>out", "hand@1>out"}


def test_automatic_moves_do_not_take_from_a_depot_that_acts():
    g = game([STOCK,
              {"name": "hand", "type": "Reserve", "acceptRule": "none", "ejectRule": "topOnly",
               "autoSend": ["out"],
               "actions": [{"name": "look", "when": "count(depot) > 1",
                            "do": [{"kind": "move", "from": "@self", "to": "@self", "under": True}]}]},
              {"name": "src", "type": "Reserve", "acceptRule": "none", "ejectRule": "topOnly"},
              {"name": "spare", "type": "Reserve", "acceptRule": "any", "ejectRule": "locked"},
              {"name": "out", "type": "Foundation", "ejectRule": "locked",
               "acceptRule": {"single": True}}])
    s = board(g, {"hand": ["AS"], "src": ["2S"]})
    after = g.apply(s, mv(g, "src", 0, "spare"))
    assert pile(g, after, "out") == ["AS"]  # one card: no action, so autoSend sends it
    s = board(g, {"hand": ["AS", "3S"], "src": ["2S"]})
    after = g.apply(s, mv(g, "src", 0, "spare"))
    assert pile(g, after, "hand") == ["AS", "3S"] and pile(g, after, "out") == []


# -- 2. a Pile unit goes whole, whichever card is picked ------------------------------------------
def accordion():
    return game([STOCK, {"name": "pile", "type": "Tableau", "repeat": 2, "ejectRule": {"unit": "Pile"},
                         "acceptRule": "any"}])


def test_a_pile_unit_moves_whole_from_any_position_and_is_listed_once():
    g = accordion()
    s = board(g, {"pile-1": ["AS", "2S", "3S"], "pile-2": ["4H"]})
    assert moves(g, s) == {"pile-1@0>pile-2", "pile-2@0>pile-1"}
    for index in (0, 1, 2):  # pressing the top card, as an Accordion player does, moves it all
        after = g.apply(s, mv(g, "pile-1", index, "pile-2"))
        assert pile(g, after, "pile-1") == [] and pile(g, after, "pile-2") == ["4H", "AS", "2S", "3S"]
    assert "no card at position 3" in g.illegal_reason(s, mv(g, "pile-1", 3, "pile-2"))


def test_a_pile_unit_still_obeys_its_gate():
    g = game([STOCK, {"name": "pile", "type": "Tableau", "repeat": 2,
                      "acceptRule": {"allowFaceDown": True},
                      "ejectRule": {"gate": "FaceUp", "unit": "Pile"}}])
    s = board(g, {"pile-1": ["~AS", "2S"], "pile-2": ["4H"]})
    assert "face-up" in g.illegal_reason(s, mv(g, "pile-1", 0, "pile-2"))
    assert g.illegal_reason(s, mv(g, "pile-1", 1, "pile-2")) is None


# -- 3. drawn cards land face up -------------------------------------------------------------------
def test_drawn_cards_land_face_up_whatever_the_target_says():
    g = game([{"name": "stock", "type": "Stock", "draw": {"to": "waste", "count": 2},
               "ejectRule": "locked"},
              {"name": "waste", "type": "Waste", "landFace": "Down", "acceptRule": "any"},
              {"name": "hand", "type": "Reserve", "acceptRule": "none"}])
    s = g.apply(board(g, {"stock": ["~AS", "~2S", "~3S"]}), tap(g, "stock"))
    assert pile(g, s, "waste") == ["3S", "2S"]
    # a card dropped there by hand still lands face down
    s = g.apply(board(g, {"hand": ["4S"]}), mv(g, "hand", 0, "waste"))
    assert pile(g, s, "waste") == ["~4S"]


def test_drawn_cards_still_go_beneath_a_land_under_target():
    g = game([{"name": "stock", "type": "Stock", "draw": {"to": "waste"}, "ejectRule": "locked"},
              {"name": "waste", "type": "Waste", "landFace": "Down", "landUnder": True}])
    s = g.apply(board(g, {"stock": ["~AS"], "waste": ["KH"]}), tap(g, "stock"))
    assert pile(g, s, "waste") == ["AS", "KH"]


# -- 4. face-down drops need allowFaceDown -----------------------------------------------------------
def drop_game(accept: object, eject: object = "any"):
    return game([STOCK, {"name": "a", "type": "Tableau", "acceptRule": "none", "ejectRule": eject},
                 {"name": "b", "type": "Tableau", "ejectRule": "locked", "acceptRule": accept}])


@pytest.mark.parametrize("accept", ["any", {"single": True}, {"emptyOnly": True},
                                    {"follow": True, "wildRank": "Eight"}])
def test_a_face_down_card_lands_nowhere_without_allow_face_down(accept):
    g = drop_game(accept)
    s = board(g, {"a": ["~AS"]})
    assert moves(g, s) == set()
    assert "face-down" in g.illegal_reason(s, mv(g, "a", 0, "b"))
    assert moves(drop_game({"allowFaceDown": True} | (accept if isinstance(accept, dict) else {})),
                 s) == {"a@0>b"}


def test_a_group_with_a_face_down_card_needs_allow_face_down_even_when_vouched_for():
    s_cards = {"a": ["2S", "~3S"]}
    g = drop_game("any", eject={"unit": "any"})
    assert moves(g, board(g, s_cards)) == set()  # neither group lands: each holds ~3S
    g = drop_game({"allowFaceDown": True}, eject={"unit": "any"})
    assert moves(g, board(g, s_cards)) == {"a@0>b", "a@1>b"}


def test_allow_face_down_still_refuses_an_empty_depot_that_takes_nothing():
    g = drop_game({"allowFaceDown": True, "seedNone": True})
    s = board(g, {"a": ["~AS"]})
    assert moves(g, s) == set()
    assert "can't be started" in g.illegal_reason(s, mv(g, "a", 0, "b"))


def test_auto_refill_takes_no_face_down_card_without_allow_face_down():
    def refill(accept: object):
        return game([STOCK,
                     {"name": "src", "type": "Reserve", "acceptRule": "none", "ejectRule": "topOnly"},
                     {"name": "cell", "type": "Cell", "acceptRule": accept, "autoRefill": ["src"]},
                     {"name": "out", "type": "Foundation", "acceptRule": "any"}])
    g = refill({"single": True})
    s = g.apply(board(g, {"src": ["~AS"], "cell": ["2S"]}), mv(g, "cell", 0, "out"))
    assert pile(g, s, "cell") == [] and pile(g, s, "src") == ["~AS"]
    g = refill({"single": True, "allowFaceDown": True})
    s = g.apply(board(g, {"src": ["~AS"], "cell": ["2S"]}), mv(g, "cell", 0, "out"))
    assert pile(g, s, "cell") == ["~AS"]


# -- 8. a bare pattern string names a depot type -----------------------------------------------------
def test_a_bare_pattern_string_is_the_type_even_where_a_depot_has_that_name():
    g = game([STOCK,
              {"name": "a", "type": "Tableau", "acceptRule": "any", "autoSend": "foundation"},
              {"name": "foundation", "type": "Reserve", "acceptRule": "any"},
              {"name": "home", "type": "Foundation", "acceptRule": "any"},
              {"name": "src", "type": "Reserve", "acceptRule": "none"}])
    s = g.apply(board(g, {"src": ["AS"]}), mv(g, "src", 0, "a"))
    # "foundation" is the type Foundation (the depot `home`), not the Reserve named foundation
    assert pile(g, s, "home") == ["AS"] and pile(g, s, "foundation") == []


# -- the three decisions -------------------------------------------------------------------------------
def counting(when: str):
    return game([STOCK, {"name": "f", "type": "Foundation", "repeat": 3, "acceptRule": "any"},
                 {"name": "t", "type": "Tableau", "acceptRule": "none", "ejectRule": "locked"}],
                winCondition={"kind": "expr", "when": when})


@pytest.mark.parametrize("when,won", [
    ("count(Foundation) == 3", True),  # a list of depots: all their cards (2 + 1 + 0)
    ("count(f) == 3", True),  # a repeated depot's name is the same list
    ("count(d in Foundation, !empty(d)) == 2", True),  # how many depots: ask with a condition
    ("count(Foundation) == 2", False),
])
def test_count_of_a_list_of_depots_counts_their_cards(when, won):
    g = counting(when)
    s = board(g, {"f-1": ["AS", "2S"], "f-2": ["AH"], "t": ["KS"]})
    assert (g._judge(s) == WON) == won


def fake_games(monkeypatch: pytest.MonkeyPatch, families: list[str | None]) -> None:
    games = [Ruleset(f"game {i}", fam, (), Path(f"/x/g{i}.cardz")) for i, fam in enumerate(families)]
    monkeypatch.setattr("cardz_core.cli.cmd_games.bundled", lambda: games)


def test_family_is_its_exact_string_found_in_any_case(monkeypatch, capsys):
    fake_games(monkeypatch, ["Klondike", "klondike", "Spider", None])
    _code, out, _err = run_cli(capsys, "games", "--family", "Klondike", "--json")
    assert [g["name"] for g in json.loads(out)] == ["game 0"]
    _code, out, _err = run_cli(capsys, "games", "--family", "klondike", "--json")
    assert [g["name"] for g in json.loads(out)] == ["game 1"]
    # no family spelt exactly so: the families that differ only in case
    _code, out, _err = run_cli(capsys, "games", "--family", "KLONDIKE", "--json")
    assert [g["name"] for g in json.loads(out)] == ["game 0", "game 1"]
    _code, out, _err = run_cli(capsys, "games", "--family", "spider", "--json")
    assert [g["name"] for g in json.loads(out)] == ["game 2"]
    # a family no game has is an error, not an empty list: the families are named
    code, out, err = run_cli(capsys, "games", "--family", "Spidr", "--json")
    assert (code, out) == (1, "") and err.strip() == (
        "cardz games: --family 'Spidr': no bundled game is of that family (did you mean "
        "'Spider'?) (families: Klondike, Spider, klondike)")


# -- 6. a deal played by Cardz's own player keeps no score ------------------------------------------
def test_a_deal_a_planner_plays_keeps_no_score(capsys, monkeypatch):
    code, out, _err = run_cli(capsys, "play", "golf", "--seed", "2", "--planner", "usual", "--json")
    assert code == 0 and json.loads(out)["score"] is None
    code, out, _err = run_cli(capsys, "play", "golf", "--seed", "2", "--planner", "usual", "--quiet")
    assert code == 0 and out.rstrip().endswith("no score kept")
    # played by hand, the same deal shows its score as it goes
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, _err = run_cli(capsys, "play", "golf", "--seed", "2")
    assert code == 0 and ", score " in out
