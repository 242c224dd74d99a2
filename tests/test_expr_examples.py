"""The reference's example games and expressions: they load clean and their expressions give
the answers the reference describes on boards built for them."""

from __future__ import annotations

from typing import Any

import pytest

from cardz_core.expr import Env, check_expr, compile_expr
from cardz_core.spec import load
from test_expr_fixtures import env, make_state, registry

TEN = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"]
HAND = {"name": "hand", "type": "Waste", "col": 1, "row": 0, "acceptRule": "none",
        "ejectRule": {"gate": "Any", "unit": "Single"}}
DISCARD = {"name": "discard", "type": "Reserve", "col": 4, "row": 0,
           "acceptRule": {"single": True, "acceptFrom": ["hand"]}, "ejectRule": "locked"}


def stock(count: int) -> dict:
    return {"name": "stock", "type": "Stock", "col": 0, "row": 0,
            "draw": {"to": "hand", "count": count, "when": "empty(hand)"},
            "landFace": "Down", "acceptRule": "none", "ejectRule": "locked"}


CLIMB_TO_TEN = {
    "name": "Climb to Ten", "depotOnly": True, "decks": [{"ranks": TEN}],
    "depots": [stock(3), HAND,
               {"name": "tower", "type": "Foundation", "col": 0, "row": 1, "repeat": 3,
                "acceptRule": {"single": True, "acceptFrom": ["hand"],
                               "when": "empty(depot) || card.value > top.value || card.value + top.value == 10",
                               "reason": "Climb higher, or make ten"},
                "ejectRule": "locked"},
               DISCARD],
    "winCondition": {"kind": "expr", "when": "empty(stock) && empty(hand) && count(discard) < 5"},
    "lossCondition": {"kind": "expr", "when": "count(discard) >= 5"},
}

UNDER_TWENTY_ONE = {
    "name": "Under Twenty-One", "depotOnly": True,
    "depots": [stock(1), HAND,
               {"name": "column", "type": "Tableau", "col": 0, "row": 1, "repeat": 3,
                "acceptRule": {"single": True, "acceptFrom": ["hand"], "when": "sum(depot) + card.value <= 21"},
                "ejectRule": "locked"},
               DISCARD],
    "values": {"J": 10, "Q": 10, "K": 10},
    "winCondition": {"kind": "expr", "when": "empty(stock) && empty(hand)"},
    "scoring": {"value": "sum(column)"},
}

ROUND_THE_LOOP = {
    "name": "Round the Loop", "depotOnly": True,
    "decks": [{"ranks": ["Ace", "Two", "Three", "Four", "Five"], "to": "loop"}],
    "depots": [
        {"name": "loop", "type": "Reserve", "col": 0, "row": 0, "acceptRule": "none", "ejectRule": "locked",
         "actions": [
             {"name": "look", "when": "!empty(depot) && !top(depot).faceUp",
              "do": [{"kind": "flipTop", "depot": "@self"}]},
             {"name": "travel", "when": "!empty(depot) && top(depot).faceUp",
              "do": [{"kind": "move", "from": "@self", "to": "@self", "count": "top(depot).value",
                      "under": True}]}],
         "triggers": [{"when": "!empty(depot) && top(depot).faceUp && top(depot).rank == Ace",
                       "do": [{"kind": "move", "from": "@self", "to": "aces"}]}]},
        {"name": "aces", "type": "Foundation", "col": 2, "row": 0, "acceptRule": "none", "ejectRule": "locked"}],
    "winCondition": {"kind": "expr", "when": "count(aces) == 4"},
}

PAIR_WHEN = "card.value + top.value == 13 && all(c in coveredBy(depot), c != source && empty(c))"


def slot(name: str, col: float, row: float, covered: list[str]) -> dict:
    out = {"name": name, "type": "Tableau", "col": col, "row": row, "ejectRule": "faceUp",
           "acceptRule": {"single": True, "seed": "none", "when": PAIR_WHEN},
           "triggers": [{"when": "count(depot) == 2",
                         "do": [{"kind": "move", "from": "@self", "to": "discard", "count": 2}]}]}
    if covered:
        out["uncoveredBy"] = covered
    return out


# a three-row pyramid: a over b c, b over d e, c over e f
PYRAMID = {
    "name": "Small Pyramid", "depotOnly": True,
    "depots": [
        {"name": "stock", "type": "Stock", "col": 0, "row": 0, "draw": {"to": "waste"},
         "acceptRule": "none", "ejectRule": "locked"},
        {"name": "waste", "type": "Waste", "col": 1, "row": 0, "ejectRule": "topOnly",
         "acceptRule": {"single": True,
                        "when": "source == stock || (!empty(depot) && card.value + top.value == 13)"},
         "triggers": [{"when": "count(depot) >= 2 && cameFrom(depot) != stock",
                       "do": [{"kind": "move", "from": "@self", "to": "discard", "count": 2}]}]},
        {"name": "discard", "type": "Foundation", "col": 6, "row": 0, "landFace": "Down",
         "acceptRule": {"single": True, "rankIs": "K"}, "ejectRule": "locked"},
        slot("a", 3, 1, ["b", "c"]), slot("b", 2.5, 2, ["d", "e"]), slot("c", 3.5, 2, ["e", "f"]),
        slot("d", 2, 3, []), slot("e", 3, 3, []), slot("f", 4, 3, []),
    ],
    "dealRules": [{"kind": "dealGroup", "to": ["a", "b", "c", "d", "e", "f"]}],
    "redealRules": [{"kind": "gather", "from": ["waste"], "to": "stock"}, {"kind": "flipTop", "depot": "stock"}],
    "maxRedeals": 2,
    "lossCondition": {"kind": "noLegalMoves"},
    "scoring": {"value": "28 - count(d in Tableau, !empty(d))", "keep": "Over"},
}

GAPS_LIKE = {
    "name": "Gather Aces",
    "depots": [{"name": "stock", "type": "Stock", "col": 0, "row": 0},
               {"name": "cell", "type": "Cell", "col": 0, "row": 1, "repeat": 4},
               {"name": "aces", "type": "Reserve", "col": 5, "row": 0}],
    "dealRules": [{"kind": "dealGroup", "to": "cell"},
                  {"kind": "gather", "from": ["cell"], "to": "aces", "when": "top(depot).rank == Ace"}],
}

SPIDERISH = {
    "name": "Scored Spider", "decks": [{"suits": ["Spades"], "count": 8}],
    "depots": [{"name": "stock", "type": "Stock", "col": 0, "row": 0},
               {"name": "foundation", "type": "Foundation", "col": 2, "row": 0, "repeat": 8},
               {"name": "discard", "type": "Reserve", "col": 0, "row": 2}],
    "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
    "lossCondition": {"kind": "expr",
                      "when": "any(c in discard, count(d in discard, d.rank == c.rank) >= 4)"},
    "scoring": {"value": "500 - moves + 100 * count(Foundation, !empty(it))"},
}


def loaded(doc: dict) -> Any:
    spec, problems = load(doc, registry=registry())
    assert problems == [] and spec is not None, problems
    return spec


@pytest.mark.parametrize("doc", [CLIMB_TO_TEN, UNDER_TWENTY_ONE, ROUND_THE_LOOP, PYRAMID, GAPS_LIKE, SPIDERISH],
                         ids=lambda d: d["name"])
def test_examples_load_clean(doc):
    loaded(doc)


def accept(spec, depot: str, source: str, state, moving: int = 1) -> bool:
    fn = compile_expr(spec.depot(depot).accept.when, "accept", spec, registry())
    e = env(spec, state, depot=depot, source=source)
    e.pile = state.piles[e.source][-moving:]
    e.card = e.pile[0]
    target = state.piles[e.depot]
    e.top = target[-1] if target else None
    return fn(e)


def condition(spec, which: str, state) -> bool:
    cond = getattr(spec, which)
    return compile_expr(cond.args["when"], "condition", spec, registry())(Env(state))


def test_climb_to_ten():
    spec = loaded(CLIMB_TO_TEN)
    state = make_state(spec, {"hand": ["4H", "6C", "2D"], "tower-1": ["7S"], "tower-2": ["3C"]})
    assert accept(spec, "tower-3", "hand", state)  # empty tower takes anything
    assert accept(spec, "tower-1", "hand", state) is False  # 2 on 7: lower, and makes 9
    state = make_state(spec, {"hand": ["3H"], "tower-1": ["7S"], "tower-2": ["2C"]})
    assert accept(spec, "tower-1", "hand", state)  # 3 + 7 == 10
    assert accept(spec, "tower-2", "hand", state)  # 3 > 2
    state = make_state(spec, {"hand": ["AH"], "tower-1": ["AS"]})
    assert accept(spec, "tower-1", "hand", state) is False  # equal is not higher
    assert condition(spec, "loss", make_state(spec, {"discard": ["AS", "2S", "3S", "4S"]})) is False
    assert condition(spec, "loss", make_state(spec, {"discard": ["AS", "2S", "3S", "4S", "5S"]})) is True
    assert condition(spec, "win", make_state(spec, {"discard": ["AS"], "tower-1": ["2S"]})) is True
    assert condition(spec, "win", make_state(spec, {"stock": ["~AS"]})) is False
    draw = compile_expr(spec.depot("stock").draw.when, "draw", spec, registry())
    assert draw(Env(make_state(spec, {"stock": ["~AS"]}))) is True
    assert draw(Env(make_state(spec, {"stock": ["~AS"], "hand": ["2S"]}))) is False


def test_under_twenty_one():
    spec = loaded(UNDER_TWENTY_ONE)
    state = make_state(spec, {"hand": ["KH"], "column-1": ["QS", "AC"], "column-2": ["KS", "QC"],
                              "column-3": ["5D", "6D"]})
    assert accept(spec, "column-1", "hand", state)  # 10 + 1 + 10 == 21
    assert accept(spec, "column-2", "hand", state) is False  # 30
    assert accept(spec, "column-3", "hand", state)  # 21
    score = compile_expr(spec.scoring.value, "scoring", spec, registry())
    assert score(Env(state)) == 11 + 20 + 11
    assert condition(spec, "win", make_state(spec, {"column-1": ["AS"]})) is True


def test_round_the_loop():
    spec = loaded(ROUND_THE_LOOP)
    loop = spec.depot("loop")
    look, travel = (compile_expr(a.when, "action", spec, registry(), self_depot="loop") for a in loop.actions)
    trigger = compile_expr(loop.triggers[0].when, "trigger", spec, registry(), self_depot="loop")
    count = compile_expr(loop.actions[1].do[0].args["count"], "count", spec, registry(), self_depot="loop")
    down = make_state(spec, {"loop": ["~2C", "~4H"]})
    assert (look(Env(down)), travel(Env(down)), trigger(Env(down))) == (True, False, False)
    up = make_state(spec, {"loop": ["~2C", "4H"]})
    assert (look(Env(up)), travel(Env(up)), trigger(Env(up))) == (False, True, False)
    assert count(Env(up)) == 4
    ace = make_state(spec, {"loop": ["~2C", "AD"]})
    assert trigger(Env(ace)) is True and count(Env(ace)) == 1
    empty = make_state(spec, {"aces": ["AC", "AD", "AH", "AS"]})
    assert (look(Env(empty)), travel(Env(empty)), trigger(Env(empty))) == (False, False, False)
    assert condition(spec, "win", empty) is True


def test_pyramid():
    spec = loaded(PYRAMID)
    # b is covered by d and e: it pairs with f's card once both are empty, never with its coverer
    assert accept(spec, "b", "f", make_state(spec, {"b": ["8S"], "f": ["5H"]}))
    assert accept(spec, "b", "f", make_state(spec, {"b": ["8S"], "e": ["2C"], "f": ["5H"]})) is False
    assert accept(spec, "b", "d", make_state(spec, {"b": ["8S"], "d": ["5H"]})) is False
    # c is covered by e and f
    assert accept(spec, "c", "d", make_state(spec, {"c": ["2D"], "d": ["JC"], "e": ["9S"]})) is False
    assert accept(spec, "c", "d", make_state(spec, {"c": ["2D"], "d": ["JC"]}))
    assert accept(spec, "c", "d", make_state(spec, {"c": ["2D"], "d": ["QC"]})) is False  # 14
    # the waste takes any stock card, and a pyramid card that pairs with its top
    waste_state = make_state(spec, {"stock": ["4C"], "waste": ["9H"], "d": ["4S"], "e": ["5S"]})
    assert accept(spec, "waste", "stock", waste_state)
    assert accept(spec, "waste", "d", waste_state)
    assert accept(spec, "waste", "e", waste_state) is False
    trig = compile_expr(spec.depot("b").triggers[0].when, "trigger", spec, registry(), self_depot="b")
    assert trig(Env(make_state(spec, {"b": ["8S", "5H"]}))) is True
    assert trig(Env(make_state(spec, {"b": ["8S"]}))) is False
    waste_trigger = compile_expr(spec.depot("waste").triggers[0].when, "trigger", spec, registry(),
                                 self_depot="waste")
    came = [-1] * len(spec.depots)
    came[1] = 6  # the waste's top came from d
    paired = make_state(spec, {"waste": ["9H", "4S"]}, came_from=tuple(came))
    assert waste_trigger(Env(paired)) is True
    came[1] = 0
    drawn = make_state(spec, {"waste": ["9H", "4S"]}, came_from=tuple(came))
    assert waste_trigger(Env(drawn)) is False
    score = compile_expr(spec.scoring.value, "scoring", spec, registry())
    assert score(Env(make_state(spec, {"a": ["AS"], "d": ["2S"]}))) == 26


def test_gaps_gather_when():
    spec = loaded(GAPS_LIKE)
    when = compile_expr(spec.deal[1].args["when"], "step", spec, registry())
    state = make_state(spec, {"cell-1": ["AS"], "cell-2": ["KH"], "cell-4": ["~AD"]})
    picked = [d.name for i, d in enumerate(spec.depots) if d.group == "cell"
              and when(env(spec, state, depot=d.name))]
    assert picked == ["cell-1"]  # cell-3 is empty and cell-4's Ace is face-down


def test_spider_score_and_four_of_a_rank():
    spec = loaded(SPIDERISH)
    score = compile_expr(spec.scoring.value, "scoring", spec, registry())
    state = make_state(spec, {"foundation-1": ["KS"], "foundation-5": ["KS"]}, moves=37)
    assert score(Env(state)) == 500 - 37 + 200
    assert condition(spec, "loss", make_state(spec, {"discard": ["5S", "5S", "2S", "5S"]})) is False
    assert condition(spec, "loss", make_state(spec, {"discard": ["5S", "5S", "2S", "5S", "5S"]})) is True


def test_broken_game_is_refused_at_the_pointer():
    doc = {**CLIMB_TO_TEN, "depots": [dict(d) for d in CLIMB_TO_TEN["depots"]]}
    doc["depots"][2] = {**doc["depots"][2], "acceptRule": {"when": "card.vlaue > top.value"}}
    doc["winCondition"] = {"kind": "allOf", "of": [{"kind": "expr", "when": "count(discard) < Hearts"}]}
    spec, problems = load(doc, registry=registry())
    assert spec is None
    found = {p.path: p.message for p in problems}
    assert found["/depots/2/acceptRule/when"].startswith("column 6: a card has no property `vlaue`")
    assert found["/winCondition/of/0/when"].startswith("column 18: only numbers and ranks")


def test_the_examples_expressions_check_clean_in_their_contexts():
    spec = loaded(PYRAMID)
    for text, context in [(PAIR_WHEN, "accept"), ("top(depot).rank == Ace", "step"),
                          ("500 - moves + 100 * count(Foundation, !empty(it))", "scoring"),
                          ("any(c in discard, count(d in discard, d.rank == c.rank) >= 4)", "condition"),
                          ("let monster = base(depot); monster.value >= 11", "step"),
                          ("(top.value - card.value) % 13 == 1", "accept"),
                          ("sum(Tableau, top(it).value)", "planner"),
                          ("first(Tableau, empty(it))", "depotField"),
                          ("neighbour(depot, 1)", "depotField")]:
        assert check_expr(text, context, spec, registry()) == [], text
