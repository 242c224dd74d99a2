"""Every builtin expression function, and a third-party function registered the same way."""

import pytest

from cardz_core.expr import GAME, STATE, Each, Function, FunctionError, Signature, check_expr
from cardz_core.expr import compile_expr, Env
from cardz_core.hookspecs import hookimpl
from cardz_core.registry import build_registry
from cardz_vocabulary.functions import FUNCTIONS
from test_expr_fixtures import BOARD_DEPOTS, evaluate, make_spec, make_state, registry

SPEC = make_spec(BOARD_DEPOTS)
PILES = {
    "stock": ["~2C", "~3C"],
    "hand": ["4H"],
    "tower-1": ["AS", "2S"],
    "tower-2": ["KD"],
    "discard": ["~9H", "~8H", "7C", "6C", "5C"],
    "cell-2": ["QH"],
    "cell-4": ["JC"],
    "column-1": ["~10D", "~9D", "8S", "7H"],
}


def ev(text: str, context: str = "scoring", **bind):
    return evaluate(text, context, piles=PILES, **bind)


def test_every_documented_function_is_registered_by_the_vocabulary_plugin():
    documented = {"count", "all", "any", "min", "max", "empty", "sum", "value", "top", "bottom",
                  "base", "above", "faceUp", "faceDown", "depot", "first", "index", "neighbour",
                  "adjacent", "coveredBy", "cameFrom"}
    assert set(FUNCTIONS) == documented
    reg = registry()
    for name in documented:
        assert reg.functions[name] is FUNCTIONS[name]
        assert reg.owner("functions", name) == "cardz_vocabulary"


@pytest.mark.parametrize("text,value", [
    ("count(discard)", 5), ("count(stock)", 2), ("count(cell)", 2), ("count(Foundation)", 3),
    ("count(Cell, true)", 4), ("count(coveredBy(hand))", 0),
    ("count(faceUp(discard))", 3),
    ("count(tower, !empty(it))", 2), ("count(discard, it.faceUp)", 3), ("count(cell, true)", 4),
    ("min(3, 9)", 3), ("max(3, 9)", 9), ("min(-2, Ace)", -2), ("max(King, 2)", 13),
    ("min(tower, count(it))", 0), ("max(tower, count(it))", 2), ("min(faceUp(discard), it.value)", 5),
    ("max(discard, it.value)", 7), ("min(first(cell, false), 1)", 0), ("max(hand, it.rank)", 4),
    ("min(coveredBy(hand), 1)", 0),
    ("sum(discard)", 18), ("sum(tower)", 16), ("sum(cell, count(it))", 2), ("sum(tower, top(it).value)", 15),
    ("sum(Stock)", 0), ("sum(coveredBy(hand), 5)", 0),
    ("value(top(hand))", 4), ("value(top(stock))", 0), ("value(top(cell))", 11),
    ("index(depot(\"cell-3\"))", 3), ("index(hand)", 0), ("index(neighbour(hand, 1))", 0),
])
def test_numbers(text, value):
    assert ev(text) == value


@pytest.mark.parametrize("text,value", [
    ("all(tower, count(it) < 3)", True), ("all(tower, !empty(it))", False), ("all(coveredBy(hand), false)", True),
    ("any(cell, top(it).rank == Queen)", True), ("any(cell, top(it).rank == King)", False),
    ("any(coveredBy(hand), true)", False),
    ("empty(hand)", False), ("empty(depot(\"cell-1\"))", True), ("empty(cell)", False),
    ("empty(faceDown(hand))", True), ("empty(above(discard, top(discard)))", True),
    ("top(discard).rank == Five && bottom(depot(\"tower-1\")).rank == Ace", True),
    ("top(stock).rank == Three", False),
    ("base(depot(\"column-1\")).rank == Eight && base(discard).rank == Seven", True),
    ("empty(base(stock)) && empty(base(depot(\"cell-1\"))) && !empty(base(hand))", True),
    ("count(above(discard, base(discard))) == 2", True),
    ("count(above(depot(\"column-1\"), bottom(depot(\"column-1\")))) == 3", True),
    ("empty(above(discard, top(hand)))", True),
    ("count(faceUp(column)) == 2 && count(faceDown(column)) == 2", True),
    ("top(faceDown(discard)) == top(faceDown(discard))", False),
    ("depot(\"tower-2\") == neighbour(depot(\"tower-1\"), 1)", True),
    ("neighbour(depot(\"tower-2\"), -1) == depot(\"tower-1\")", True),
    ("empty(neighbour(depot(\"tower-1\"), -1)) && index(neighbour(depot(\"tower-3\"), 1)) == 0", True),
    ("first(cell, !empty(it)) == depot(\"cell-2\")", True),
    ("first(discard, it.faceUp).rank == Seven", True),
    ("first(discard, it.rank == King).value == 0", True),
    ("adjacent(depot(\"cell-1\"), depot(\"cell-2\"))", True),
    ("adjacent(depot(\"cell-1\"), depot(\"cell-3\"))", False),
    ("adjacent(depot(\"cell-1\"), depot(\"column-2\"))", True),  # diagonal: rows 4 and 5
    ("adjacent(depot(\"cell-1\"), depot(\"cell-1\"))", False),
    ("adjacent(hand, first(cell, false))", False),
])
def test_conditions_and_values(text, value):
    assert ev(text, "condition") is value


def test_depot_with_unknown_name_is_refused_when_checked():
    problems = check_expr("empty(depot(\"tower-9\"))", "condition", SPEC, registry())
    assert problems and "column 7" in problems[0].message and "tower-9" in problems[0].message


def test_adjacent_ignores_pixel_placement():
    spec = make_spec([("a", "Cell", {"x": 10.0, "y": 0.0}), ("b", "Cell", {"col": 0.0, "row": 0.0}),
                      ("c", "Cell", {"col": 1.0, "row": 0.5})])
    state = make_state(spec, {})
    assert evaluate("adjacent(b, c) && !adjacent(a, b) && !adjacent(c, a)", spec=spec, state=state)


def test_covered_by_and_came_from():
    spec = make_spec([("slot*3", "Tableau"), ("top", "Tableau", {"uncovered_by": ("slot-1", "slot-3")})])
    state = make_state(spec, {"slot-1": ["AS"], "top": ["2S"]}, came_from=(-1, -1, -1, 0))
    assert evaluate("count(coveredBy(depot(\"top\")), true) == 2", spec=spec, state=state)
    assert evaluate("count(coveredBy(depot(\"top\"))) == 1", spec=spec, state=state)  # cards
    assert evaluate("any(coveredBy(depot(\"top\")), empty(it)) && !all(coveredBy(depot(\"top\")), empty(it))",
                    spec=spec, state=state)
    # cameFrom takes one depot; `slot` is a list of depots
    assert "cameFrom" in check_expr("empty(cameFrom(slot))", "condition", spec, registry())[0].message

def test_came_from_reads_the_position():
    spec = make_spec([("slot*3", "Tableau"), ("top", "Tableau")])
    state = make_state(spec, {"slot-1": ["AS"], "top": ["2S"]}, came_from=(-1, -1, -1, 0))
    assert evaluate("cameFrom(depot(\"top\")) == depot(\"slot-1\")", spec=spec, state=state)
    assert evaluate("empty(cameFrom(depot(\"slot-2\")))", spec=spec, state=state)


def test_overloads_are_resolved_by_argument_kinds():
    reg = registry()
    for bad in ("count()", "count(1)", "min(1)", "min(tower, 1, 2)", "sum(3)", "top(3)",
                "above(hand)", "neighbour(tower, 1)", "first(cell)", "depot(hand)", "index(\"x\")",
                "cameFrom(tower)", "adjacent(hand)", "min(Hearts, 1)", "count(tower, 1)",
                "sum(tower, empty(it))", "empty(1)", "value(hand)"):
        problems = check_expr(bad, "scoring", SPEC, reg)
        assert problems, bad
        assert problems[0].message.startswith("column "), bad


# --- a third-party function ------------------------------------------------------------------

def _pairs(game, cards, total):
    values = [game.value[c] for c in cards if c in game.value]
    return sum(1 for i, a in enumerate(values) for b in values[i + 1:] if a + b == total)


def _nth(game, state, d, k):
    pile = state.piles[d] if d >= 0 else ()
    return pile[k] if 0 <= k < len(pile) else None


def _weird(cards, pred):
    for c in cards:
        if pred(c):
            return len(cards)
    raise FunctionError("never")


class MoonPlugin:
    __name__ = "moon_test_plugin"

    @hookimpl
    def cardz_functions(self, register):
        register("pairs", Function.of(("cards", "number"), "number", _pairs, GAME,
                                      "how many pairs of cards make the total"))
        register("nth", Function.of(("depot", "number"), "card", _nth, STATE))
        register("lastIf", Function((Signature(("items", Each(0, "bool")), "number", _weird),)))


def test_third_party_function_is_checked_and_usable():
    reg = build_registry([MoonPlugin()], entry_points=False)
    assert reg.owner("functions", "pairs") == "moon_test_plugin"
    piles = {"discard": ["AS", "QH", "2S", "JD", "3C"]}
    state = make_state(SPEC, piles)
    assert compile_expr("pairs(discard, 13)", "scoring", SPEC, reg)(Env(state)) == 2
    assert compile_expr("pairs(Reserve, 13) == 2 && nth(discard, 1).rank == Queen", "condition",
                        SPEC, reg)(Env(state)) is True
    assert compile_expr("lastIf(discard, it.rank == Jack)", "scoring", SPEC, reg)(Env(state)) == 5
    for bad, where in (("pairs(discard)", 1), ("pairs(discard, Hearts)", 1),
                       ("pairs(discard, 13) && true", 1), ("nth(tower, 1) == nth(hand, 0)", 1),
                       ("lastIf(discard, it.value)", 17)):
        problems = check_expr(bad, "condition", SPEC, reg)
        assert problems and f"column {where}:" in problems[0].message, (bad, problems)
    # a call that fits no overload reads the plugin's line of help
    assert check_expr("pairs(discard) > 0", "condition", SPEC, reg)[0].message.endswith(
        "it is pairs(cards, number) -> number: how many pairs of cards make the total")
    # the builtin registry doesn't know it
    assert "unknown function `pairs`" in check_expr("pairs(discard, 13) > 0", "condition", SPEC,
                                                    registry())[0].message


def test_signatures_are_validated():
    with pytest.raises(ValueError):
        Signature(("cards", Each(5, "bool")), "number", len)
    with pytest.raises(ValueError):
        Signature(("number", Each(0, "bool")), "number", len)
    with pytest.raises(ValueError):
        Signature((Each(1, "bool"), "cards"), "number", len)
    with pytest.raises(ValueError):
        Signature(("widget",), "number", len)
    with pytest.raises(ValueError):
        Signature(("cards",), "widget", len)
    with pytest.raises(ValueError):
        Signature(("cards",), "number", len, needs="everything")


def test_the_core_knows_no_function_by_name():
    from cardz_core.registry import Registry
    reg = registry()
    tables = {name: dict(getattr(reg, name)) for name in ("depot_types", "deal_steps", "conditions",
                                                          "aids", "planners", "deck_models")}
    bare = Registry({**tables, "functions": {}}, {}, ())
    for text in ("count(hand) == 0", "empty(hand)", "top(hand).rank == Ace"):
        assert "unknown function" in check_expr(text, "condition", SPEC, bare)[0].message
    assert check_expr("top.rank == Ace && card.value > 3", "accept", SPEC, bare) == []


def test_evaluation_never_parses(monkeypatch):
    from lark import Lark
    fn = compile_expr("count(cell, !empty(it)) + sum(hand, it.value)", "scoring", SPEC, registry())

    def refuse(*args, **kw):
        raise AssertionError("parsed during evaluation")
    monkeypatch.setattr(Lark, "parse", refuse)
    assert fn(Env(make_state(SPEC, PILES))) == 2 + 4
