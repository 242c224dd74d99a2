"""Cards of one rank as one card where no rule reads a suit, and the symmetry and sinks of games
whose expressions tell no depots apart (docs/solver.md, sections 1 to 3): the analysis decides
them from the rules, both searches prune with them, and the answers are those of a search with
nothing pruned."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_solver_analysis import full
from test_solver_games import make, plain_answer

from cardz_core.cli.common import open_game
from cardz_core.engine import compile
from cardz_core.native import _as_tuple
from cardz_core.planners.solver import _native_solver, solve
from cardz_core.solver.analysis import Analysis

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"
SIX = ["Ace", "Two", "Three", "Four", "Five", "Six"]
SUITS = ["Clubs", "Diamonds", "Hearts", "Spades"]
THREE = ["Clubs", "Diamonds", "Hearts"]


def doc_of(name: str) -> dict:
    return json.loads((RULESETS / f"{name}.cardz").read_text())


def mini(name: str, ranks: list[str], suits: list[str] = SUITS) -> dict:
    """A bundled game on a deck of these ranks and suits (the Aces of the others placed nowhere)."""
    doc = doc_of(name)
    doc["decks"] = [{"ranks": ranks, "suits": suits}]
    doc["dealRules"] = [s for s in doc.get("dealRules", []) if s.get("suit", suits[0]) in suits]
    return doc


def unpruned(an: Analysis) -> Analysis:
    """``an`` without the reductions of this change: every card its own, no classes, no sinks."""
    an.code_map, an.classes, an.sinks = None, (), ()
    return an


@pytest.mark.parametrize("name", ["auld_lang_syne", "tam_o_shanter", "climb_to_ten", "sir_tommy",
                                  "calculation"])
def test_games_whose_rules_read_no_suit(name):
    an = Analysis(open_game(str(RULESETS / f"{name}.cardz")).spec)
    assert an.suit_blind and an.code_map is not None


@pytest.mark.parametrize("name", ["freecell", "klondike", "klondike_draw3", "spider", "scorpion"])
def test_games_whose_rules_read_suits_keep_every_card(name):
    an = Analysis(open_game(str(RULESETS / f"{name}.cardz")).spec)
    assert not an.suit_blind
    assert an.code_map is None or name == "spider"  # two packs: identical cards only


@pytest.mark.parametrize("change", [
    lambda d: d["depots"][1]["acceptRule"].update(suit="Same"),  # a foundation in suit
    lambda d: d["depots"][1]["acceptRule"].update(when="card.color != top.color"),
    lambda d: d["depots"][2].update(ejectRule={"unit": {"kind": "Run", "suit": "Same",
                                                         "build": {"direction": "Down", "step": 1}}}),
    lambda d: d["redealRules"].append({"kind": "place", "rank": "King", "suit": "Spades", "to": "column-1"}),
])
def test_one_rule_that_reads_a_suit_keeps_every_card(change):
    doc = doc_of("auld_lang_syne")
    change(doc)
    assert not Analysis(make(doc).spec).suit_blind


def test_cards_of_one_rank_share_a_key_only_where_no_rule_reads_a_suit():
    def keys(doc):
        g = make(doc)
        an = Analysis(g.spec)
        homes = {"foundation_1": "AC", "foundation_2": "AD", "foundation_3": "AH", "foundation_4": "AS"}
        return [an.key(full(g, column_1=one, column_2=two, **homes))
                for one, two in (("5S 2H", "5H 2D"), ("5H 2D", "5S 2H"), ("5S 2H", "2D 5H"))]

    a, b, c = keys(mini("auld_lang_syne", SIX))
    assert a == b != c  # the Fives and Twos swapped suits; then the second column's order
    doc = mini("auld_lang_syne", SIX)
    doc["depots"][1]["acceptRule"]["suit"] = "Same"
    a, b, c = keys(doc)
    assert len({a, b, c}) == 3


def test_the_towers_of_climb_to_ten_are_interchangeable_sinks():
    g = open_game(str(RULESETS / "climb_to_ten.cardz"))
    an = Analysis(g.spec)
    towers = tuple(g.depot_index[f"tower-{i}"] for i in (1, 2, 3))
    assert towers in an.classes
    assert set(towers) | {g.depot_index["discard"]} == set(an.sinks)
    # the win and the loss count the discard and name the stock and hand: never in a class
    assert not any(g.depot_index[n] in c for c in an.classes for n in ("stock", "hand", "discard"))


# Small decks so that a search with nothing pruned decides every deal.
FOUR = ["Ace", "Two", "Three", "Four"]
PLAIN = {"auld_lang_syne": mini("auld_lang_syne", FOUR, THREE),
         "tam_o_shanter": mini("tam_o_shanter", FOUR, THREE)}
# Larger ones for the search with and without the reductions of this change.
MINIS = {"auld_lang_syne": mini("auld_lang_syne", SIX + ["Seven"]),
         "tam_o_shanter": mini("tam_o_shanter", FOUR + ["Five"]),
         "climb_to_ten": mini("climb_to_ten", SIX, THREE),
         "sir_tommy": mini("sir_tommy", FOUR + ["Five"], THREE)}


@pytest.mark.engines_chosen
@pytest.mark.parametrize("name", sorted(PLAIN))
def test_wins_are_those_of_a_search_with_nothing_pruned(name):
    spec = make(PLAIN[name]).spec
    python, native = compile(spec, engine="python"), compile(spec, engine="native")
    for seed in range(3):
        got = solve(native, native.deal(seed), max_states=100_000, timeout=60)
        assert got.result == plain_answer(python, python.deal(seed), limit=400_000), seed
        # solve replays a won line on the engine before it answers


@pytest.mark.engines_chosen
@pytest.mark.parametrize("name", sorted(MINIS))
def test_the_reductions_search_fewer_positions_for_the_same_answers(name):
    """Every deal the search without them decides gets the same answer with them, in no more
    positions, and mostly far fewer (the deals it leaves undecided they decide too)."""
    native = compile(make(MINIS[name]).spec, engine="native")
    on, off = _native_solver(native, Analysis(native)), _native_solver(native, unpruned(Analysis(native)))
    decided = fewer = 0
    for seed in range(16):
        start = _as_tuple(native.deal(seed))
        with_them = on.solve(start, 400_000, 60)
        without = off.solve(start, 400_000, 60)
        assert with_them[0] != "unknown", seed
        if without[0] != "unknown":
            decided += 1
            assert with_them[0] == without[0], seed
            assert with_them[2] <= without[2], seed
            fewer += with_them[2] < without[2]
    assert decided >= 9 and fewer >= 9
