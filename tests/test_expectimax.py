"""``expectimax``: lines to the nearest chance node, played out without searching again; tap runs
through a known stock; giving up only when nothing is left to find."""

from __future__ import annotations

import random
from typing import Any

from cardz_core.planners import make_planner
from cardz_core.view import Memory, Seat
from conftest import board
from test_view import SMALL, game_of

# Foundations hold the Aces; column-1 holds five unknown cards under 3H.
HIDDEN = ["~2H", "~3S", "~4H", "~5S", "~2S", "3H"]


def _planner(game: Any, **options: Any) -> Any:
    return make_planner(game, "expectimax", force=True, **options)


def test_it_plays_the_line_to_a_reveal_without_searching_again(monkeypatch: Any) -> None:
    g = game_of(SMALL)
    # 3H can only move once 4S is out of the waste onto 5H: a two-move line to a reveal
    st = board(g, {"waste": ["4S"], "foundation-1": ["AH"], "foundation-2": ["AS"],
                   "column-1": HIDDEN, "column-2": ["5H"]})
    seat = Seat(g, st)
    planner = _planner(g, nodes=200)
    first = planner.choose(g, seat.view, random.Random(1))
    assert g.move_text(first) == "waste@0>column-2"
    seat.play(first)

    def no_search(*_args: Any) -> Any:
        raise AssertionError("searched again inside a planned line")

    monkeypatch.setattr(planner, "_closure", no_search)
    second = planner.choose(g, seat.view, random.Random(1))
    assert g.move_text(second) == "column-1@5>column-2"
    revealed = seat.play(second)
    assert len(revealed) == 1  # the line ended on its chance node
    monkeypatch.undo()
    assert planner.choose(g, seat.view, random.Random(1)) is not None  # a new search


def test_a_line_off_its_course_is_searched_again() -> None:
    g = game_of(SMALL)
    st = board(g, {"waste": ["4S"], "foundation-1": ["AH"], "foundation-2": ["AS"],
                   "column-1": HIDDEN, "column-2": ["5H"]})
    planner = _planner(g, nodes=200)
    planner.choose(g, g.view(st), random.Random(1))
    assert planner.plan
    other = board(g, {"waste": ["4S"], "foundation-1": ["AH"], "foundation-2": ["AS", "2S"],
                      "column-1": ["~2H", "~3S", "~4H", "~5S", "3H"], "column-2": ["5H"]})
    move = planner.choose(g, g.view(other), random.Random(1))
    assert move in g.legal_moves(g.view(other))
    assert g.move_text(move) == "waste@0>column-2"


def test_a_card_deep_in_a_known_stock_is_one_tap_run_away() -> None:
    g = game_of(SMALL)
    # the stock (top last) was seen on an earlier pass; 4S is three taps down
    st = board(g, {"stock": ["~4S", "~2S", "~5S"], "foundation-1": ["AH"],
                   "foundation-2": ["AS"], "column-1": ["~2H", "~3S", "~4H", "3H"],
                   "column-2": ["5H"]})
    stock = st.piles[g.depot_index["stock"]]
    known = {c >> 1 for c in stock}
    start = Memory.initial(g, st)
    memory = Memory(start.unknown - known, start.labels)
    v = g.view(st, memory)
    assert all(c >= 0 for c in v.piles[g.depot_index["stock"]])  # remembered, not unknown
    planner = _planner(g, nodes=300)
    line = [g.move_text(planner.choose(g, v, random.Random(2)))]
    line += [g.move_text(m) for _, m in planner.plan]
    assert line == ["tap stock"] * 3 + ["waste@2>column-2", "column-1@3>column-2"]


def test_it_gives_up_only_when_nothing_is_left_to_find() -> None:
    g = game_of(SMALL)
    # 3H, 5H and the waste's 5S have nowhere to go: the only move recycles the waste, and going
    # round the stock again changes nothing
    st = board(g, {"waste": ["5S"], "foundation-1": ["AH"], "foundation-2": ["AS"],
                   "column-1": ["~2H", "~3S", "~4H", "3H"], "column-2": ["~2S", "~4S", "5H"]})
    v = g.view(st)
    assert [g.move_text(m) for m in g.legal_moves(v)] == ["tap stock"]
    assert _planner(g, nodes=500).choose(g, v, random.Random(3)) is None
