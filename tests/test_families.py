"""One scripted test per game family: a hand-made board showing the family's signature rule.

Boards are board documents (``Game.load_board``): the cards a test names are placed where it
says, and every other card of the game's decks goes face-down onto one out-of-the-way depot.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from cardz_core.engine import Game, State, compile
from cardz_core.engine.moves import IllegalMove
from cardz_core.spec import load_game

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


@lru_cache(maxsize=None)
def game(stem: str) -> Game:
    return compile(load_game(RULESETS / f"{stem}.cardz"))


def board(g: Game, placed: dict[str, list[str]], dump: str, **extra) -> State:
    """A position with ``placed`` piles (bottom first); the rest of the deck face-down on ``dump``,
    under anything placed there."""
    left = Counter(str(dc.card) for dc in g.spec.cards)
    for cards in placed.values():
        for c in cards:
            left[c.lstrip("~")] -= 1
    assert all(n >= 0 for n in left.values()), "a test board names a card the decks lack"
    rest = ["~" + str(dc.card) for dc in g.spec.cards]
    spare = []
    for c in rest:
        if left[c[1:]] > 0:
            left[c[1:]] -= 1
            spare.append(c)
    depots = {name: [] for name in g.depot_names}
    depots.update(placed)
    depots[dump] = spare + depots[dump]
    return g.load_board({"format": "cardz-board/1", "game": g.spec.name, "depots": depots, **extra})


def piles(g: Game, state: State) -> dict[str, list[str]]:
    return g.board_document(state)["depots"]


def legal(g: Game, state: State, text: str) -> bool:
    return g.illegal_reason(state, g.parse_move(text)) is None


def play(g: Game, state: State, *texts: str) -> State:
    for text in texts:
        state = g.apply(state, g.parse_move(text))
    return state


def test_klondike_kings_fill_spaces_and_columns_alternate_colours():
    g = game("klondike")
    s = board(g, {"column-2": ["~3C", "KS"], "column-3": ["10S"], "column-4": ["9H"], "column-5": ["9C"],
                  "column-6": ["QD"]}, dump="stock")
    assert not legal(g, s, "column-6@0>column-1"), "only a King fills an empty column"
    assert legal(g, s, "column-4@0>column-3"), "a red 9 goes on a black 10"
    assert not legal(g, s, "column-5@0>column-3"), "a black 9 does not"
    after = play(g, s, "column-2@1>column-1")
    assert piles(g, after)["column-1"] == ["KS"]
    assert piles(g, after)["column-2"] == ["3C"], "the uncovered card turns face-up"


def test_freecell_refuses_a_run_longer_than_the_staged_limit():
    g = game("freecell")
    placed = {"column-1": ["10S", "9H", "8C"], "column-2": ["JD"], "column-3": ["10C"],
              "column-4": ["5C"], "column-5": ["6C"], "column-6": ["7C"], "column-7": ["2D"],
              "column-8": ["3D"], "cell-1": ["2C"], "cell-2": ["3C"], "cell-3": ["4C"]}
    s = board(g, placed, dump="stock")
    # one free cell, no empty column: (1 + 1) * 2^0 = 2 cards at most
    assert legal(g, s, "column-1@1>column-3")
    assert not legal(g, s, "column-1@0>column-2")
    with pytest.raises(IllegalMove):
        g.apply(s, g.parse_move("column-1@0>column-2"))
    roomier = board(g, {k: v for k, v in placed.items() if k != "cell-3"}, dump="stock")
    after = play(g, roomier, "column-1@0>column-2")  # two free cells: 3 cards
    assert piles(g, after)["column-2"] == ["JD", "10S", "9H", "8C"]


def test_spider_sends_a_completed_run_to_a_foundation_by_itself():
    g = game("spider")
    hearts = ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H", "3H", "2H"]
    spades = ["KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"]
    s = board(g, {"column-1": ["~9C"] + hearts, "column-2": ["AH"], "column-3": spades, "column-4": ["AD"]},
              dump="stock")
    after = play(g, s, "column-2@0>column-1")
    found = [name for name, cards in piles(g, after).items() if name.startswith("foundation") and cards]
    assert len(found) == 1
    assert piles(g, after)[found[0]] == hearts + ["AH"]
    assert piles(g, after)["column-1"] == ["9C"], "the run left, and the card under it turned up"
    mixed = play(g, after, "column-4@0>column-3")
    assert piles(g, mixed)["column-3"] == spades + ["AD"], "a mixed-suit run stays in the column"
    full = {f"column-{i}": [c] for i, c in enumerate(["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"], 1)}
    assert not legal(g, board(g, full, dump="stock"), "tap stock"), "column-10 is empty: no deal"
    dealt = piles(g, play(g, board(g, {**full, "column-10": ["10H"]}, dump="stock"), "tap stock"))
    assert all(len(dealt[f"column-{i}"]) == 2 for i in range(1, 11)), "one card onto every column"


def test_golf_plays_one_rank_up_or_down_without_turning_the_corner():
    g = game("golf")
    s = board(g, {"foundation": ["7H"], "column-1": ["8S"], "column-2": ["6D"], "column-3": ["9C"],
                  "column-4": ["AS"], "column-5": ["QS"]}, dump="stock")
    assert legal(g, s, "column-1@0>foundation")
    assert legal(g, s, "column-2@0>foundation")
    assert not legal(g, s, "column-3@0>foundation")
    assert not legal(g, s, "column-1@0>column-2"), "nothing is built on the columns"
    on_king = board(g, {"foundation": ["KD"], "column-4": ["AS"], "column-5": ["QS"]}, dump="stock")
    assert legal(g, on_king, "column-5@0>foundation")
    assert not legal(g, on_king, "column-4@0>foundation"), "an Ace does not follow a King"


def test_pyramid_pairs_only_uncovered_cards():
    g = game("pyramid")
    s = board(g, {"a1": ["6H"], "b1": ["2C"], "b2": ["3C"], "g1": ["7C"], "g2": ["6D"]}, dump="discard")
    assert not legal(g, s, "g1@0>a1"), "the apex is still covered by b1 and b2"
    after = play(g, s, "g1@0>g2")
    p = piles(g, after)
    assert p["g1"] == [] and p["g2"] == []
    assert p["discard"][-2:] == ["6D", "7C"], "the pair goes to the discard together"
    assert not legal(g, s, "b1@0>b2"), "2 and 3 do not make 13"
    aside = board(g, {"g1": ["7C"], "waste": ["~2H", "6D"], "stock": ["~3D", "AH"]}, dump="discard")
    p = piles(g, play(g, aside, "g1@0>waste"))
    assert p["waste"] == ["~2H"] and p["discard"][-2:] == ["6D", "7C"], "a pyramid card pairs with the waste"
    p = piles(g, play(g, aside, "stock@1>waste"))
    assert p["waste"] == ["~2H", "6D", "AH"] and p["stock"] == ["3D"], "a stock card is set aside, not paired"


def test_canfield_refills_an_empty_column_from_the_reserve():
    g = game("canfield")
    s = board(g, {"foundation-1": ["4H"], "column-1": ["5H"], "column-2": ["8C"], "column-3": ["QD"],
                  "column-4": ["3S"], "reserve": ["~9C", "~2D", "JS"]}, dump="stock", seedRank="4")
    after = play(g, s, "column-1@0>foundation-1")
    p = piles(g, after)
    assert p["foundation-1"] == ["4H", "5H"]
    assert p["column-1"] == ["JS"], "the reserve's top card fills the space at once"
    assert p["reserve"] == ["~9C", "2D"], "and the next reserve card turns up"


def test_clock_puts_a_card_under_its_hour_and_turns_up_the_next():
    g = game("clock")
    s = board(g, {"kings": ["~KC", "~2D", "~3S", "5H"], "hour5": ["~9C", "~JD", "~4S", "~7H"],
                  "hour7": ["~8C", "~9D", "~10C", "~7S"]}, dump="stock")
    after = play(g, s, "kings@3>hour5")
    assert piles(g, after)["hour5"] == ["5H", "~9C", "~JD", "~4S", "7H"]
    assert piles(g, after)["kings"] == ["~KC", "~2D", "~3S"]
    # 7H goes under hour 7; the 7S turned up there is its own, so it goes under too
    later = play(g, after, "hour5@4>hour7")
    assert piles(g, later)["hour7"] == ["7S", "7H", "~8C", "~9D", "10C"]


def test_gaps_fills_a_gap_with_the_successor_of_its_left_card():
    g = game("gaps")
    s = board(g, {"cell-1": ["2H"], "cell-2": ["3H"], "cell-5": ["4H"], "cell-6": ["4S"], "cell-7": ["KD"],
                  "cell-9": ["QD"], "cell-20": ["2S"], "cell-21": ["3S"]}, dump="aces")
    assert legal(g, s, "cell-5@0>cell-3")
    assert not legal(g, s, "cell-6@0>cell-3"), "same rank, wrong suit"
    assert not legal(g, s, "cell-21@0>cell-3")
    assert legal(g, s, "cell-20@0>cell-14"), "a Two starts a row"
    assert not legal(g, s, "cell-21@0>cell-14")
    assert not any(m.dst == g.depot_index["cell-8"] for m in g.legal_moves(s)), "nothing follows a King"
    after = play(g, s, "cell-5@0>cell-3")
    assert piles(g, after)["cell-3"] == ["4H"] and piles(g, after)["cell-5"] == []


def test_accordion_moves_a_pile_one_or_three_back_when_the_tops_match():
    g = game("accordion")
    s = board(g, {"heap-1": ["5H"], "heap-2": ["9D"], "heap-3": ["7S"], "heap-4": ["5D"], "heap-5": ["KD"]},
              dump="stock")
    assert not legal(g, s, "heap-4@0>heap-3"), "5D and 7S match in nothing"
    assert not legal(g, s, "heap-4@0>heap-2"), "two back is not allowed, even in suit"
    assert legal(g, s, "heap-5@0>heap-4"), "one back, same suit"
    after = play(g, s, "heap-4@0>heap-1")
    p = piles(g, after)
    assert p["heap-1"] == ["5H", "5D"]
    assert p["heap-4"] == ["KD"] and p["heap-5"] == [], "the line closes up"
    pile = board(g, {"heap-1": ["QC"], "heap-2": ["3H", "8C"]}, dump="stock")
    moved = play(g, pile, "heap-2@0>heap-1")  # the tops 8C and QC share a suit; the whole pile moves
    assert piles(g, moved)["heap-1"] == ["QC", "3H", "8C"] and piles(g, moved)["heap-2"] == []


def test_monte_carlo_removes_touching_pairs_and_closes_up_from_the_stock():
    g = game("monte_carlo")
    s = board(g, {"cell-1": ["7H"], "cell-2": ["7S"], "cell-3": ["7C"], "cell-4": ["9D"], "cell-7": ["7D"]},
              dump="stock")
    assert not legal(g, s, "cell-3@0>cell-1"), "cell-1 and cell-3 do not touch"
    assert legal(g, s, "cell-7@0>cell-1"), "diagonal neighbours touch"
    assert not legal(g, s, "cell-4@0>cell-3"), "9D and 7C are not a pair"
    after = play(g, s, "cell-2@0>cell-1")
    p = piles(g, after)
    assert p["cell-1"] == [] and p["cell-2"] == [] and p["discard"] == ["7H", "7S"]
    stock_before = len(p["stock"])
    closed = piles(g, play(g, after, "tap stock"))
    assert [closed[f"cell-{i}"] for i in (1, 2, 3)] == [["7C"], ["9D"], ["7D"]], "cards slide up in order"
    assert all(closed[f"cell-{i}"] for i in range(1, 26)), "the spaces at the end are dealt from the stock"
    assert len(closed["stock"]) == stock_before - 22
