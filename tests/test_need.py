"""When each card can go home (``planners.need``), and where ``usual`` lays a card on piles that
take any card: on a top needed later, the tightest such; a block only as the last resort."""

from __future__ import annotations

import random
from typing import Any

from cardz_core.planners import make_planner
from cardz_core.planners.need import BLOCK_COST, FIT_COST, need_order
from cardz_core.cards import parse_card
from conftest import board, mv
from test_view import RULESETS, bundled


def _game(stem: str) -> Any:
    return bundled(next(p for p in RULESETS if p.stem == stem))


def _code(game: Any, text: str) -> int:
    """The face-up code of the one card ``text`` of a one-deck game."""
    return game.identity.index(parse_card(text)[0]) << 1 | 1


def _calculation(piles: dict[str, list[str]]) -> tuple[Any, Any]:
    game = _game("calculation")
    # the four foundations as dealt: by ones from the Ace, by twos from the Two, and so on
    dealt = {"ones": ["AS"], "twos": ["2S"], "threes": ["3S"], "fours": ["4S"]}
    return game, board(game, {**dealt, **piles})


def test_a_cards_need_is_the_fewest_cards_a_foundation_takes_before_it() -> None:
    game, state = _calculation({"pile-1": ["2H", "3H", "KH", "QH"]})
    needs = need_order(game).needs(state)
    code = {t: _code(game, t) for t in ("2H", "3H", "KH", "QH")}
    # by ones 2 comes next; 3 after one card (by twos 3 comes 7th); Q after 8 by fours (4 8 Q);
    # K is the last card of every foundation: 11 by ones, the fewest
    assert [needs[code[t]] for t in ("2H", "3H", "QH", "KH")] == [0, 1, 1, 11]
    assert need_order(game).dumps == {game.depot_index[f"pile-{i}"] for i in range(1, 5)}
    # Klondike's columns build: no pile takes any card, so nothing here changes its play
    assert need_order(_game("klondike")).dumps == frozenset()


def test_laying_a_card_costs_least_on_the_tightest_top_needed_later_and_most_on_a_block() -> None:
    # hand: a Five (needed after 3 cards, by ones: 2 3 4 5); tops: a King (needed last), an
    # Eight (next, by fours), a Seven (as soon as the Five: fourth by fours), a Two (next)
    game, state = _calculation({"hand": ["5H"], "pile-1": ["KC"], "pile-2": ["8C"],
                                "pile-3": ["7C"], "pile-4": ["2C"]})
    order = need_order(game)
    needs = order.needs(state)
    cost = {i: order.cost(state, mv(game, "hand", 0, f"pile-{i}"), needs) for i in range(1, 5)}
    assert -FIT_COST <= cost[1] < cost[3] <= 0  # both fits; the Seven is the tighter
    assert cost[4] <= -BLOCK_COST < -FIT_COST  # the Two would be buried
    assert order.cost(state, mv(game, "pile-4", 0, "ones"), needs) == 0.0  # not onto a dump


def test_usual_lays_the_card_on_the_tightest_fit_and_blocks_only_where_it_must() -> None:
    planner = make_planner(_game("calculation"), "usual", solve=0)  # the scores alone
    # no card can go home; the Five fits on the King and the Seven, and would bury the Nine and
    # the Three (each needed after one card)
    game, state = _calculation({"hand": ["5H"], "pile-1": ["KC"], "pile-2": ["9C"],
                                "pile-3": ["7C"], "pile-4": ["3C"]})
    view = game.view(state)
    assert planner.choose(game, view, random.Random(1)) == mv(game, "hand", 0, "pile-3")
    # every top needed before a King: on the one needed latest (the Jack, fifth by fours)
    game, state = _calculation({"hand": ["KH"], "pile-1": ["9C"], "pile-2": ["JC"],
                                "pile-3": ["3C"], "pile-4": ["7C"]})
    planner = make_planner(game, "usual", solve=0)
    choice = planner.choose(game, game.view(state), random.Random(1))
    assert choice == mv(game, "hand", 0, "pile-2")
