"""The expression language: operators, names, let, items, and what an expression can't see."""

import pytest

from cardz_core.cards import code, unknown_code
from cardz_core.engine.state import State
from cardz_core.expr import check_expr, compile_typed
from test_expr_fixtures import BOARD_DEPOTS, evaluate, make_spec, make_state, registry

SPEC = make_spec(BOARD_DEPOTS)


def ok(text: str, context: str = "condition") -> None:
    assert check_expr(text, context, SPEC, registry()) == []


@pytest.mark.parametrize("text,value", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("2 - 3 - 4", -5), ("10 - 2 * 3 % 4", 8),
    ("-3 % 5", 2), ("13 % 13", 0), ("5 % 0", 0), ("-(2 + 3)", -5), ("- -4", 4),
    ("7 * 0 + 1", 1), ("1 + 1 + 1 + 1 + 1 + 1 + 1", 7), ("2 * 3 * 4 % 5", 4),
])
def test_arithmetic(text, value):
    assert evaluate(text, "scoring") == value


@pytest.mark.parametrize("text,value", [
    ("true || false && false", True), ("(true || false) && false", False),
    ("!true || true", True), ("!(true || true)", False), ("false || false || true", True),
    ("true && true && false", False), ("1 < 2 && 2 <= 2 && 3 > 2 && 3 >= 3", True),
    ("1 == 1 && 1 != 2", True), ("2 < 1 || 1 >= 2", False),
    ("true == true", True), ("true != false", True),
])
def test_logic_and_comparisons(text, value):
    assert evaluate(text) is value


def test_non_constant_logic_short_circuits():
    piles = {"tower-1": ["3H"]}
    assert evaluate("empty(depot) || top(depot).rank == Three", piles=piles, depot="tower-1",
                    context="step") is True
    assert evaluate("!empty(tower) && count(tower) == 1 && top(tower).value == 3", piles=piles) is True
    three = "!empty(depot) && top(depot).faceUp && top(depot).rank == Three"
    assert evaluate(three, "trigger", piles=piles, depot="tower-1") is True
    assert evaluate(three, "trigger", piles=piles, depot="tower-2") is False
    assert evaluate("empty(hand) || empty(depot) || count(depot) > 5", "step",
                    piles=piles | {"hand": ["2C"]}, depot="tower-1") is False


@pytest.mark.parametrize("text", ["1 < 2 < 3", "1 == 1 == true", "a b", "1 +", "(1", "1)", "x = 1",
                                  "card.rank == and", "1 / 2", "a & b", "a | b", "f(,)", "let x = 1 x"])
def test_syntax_errors(text):
    problems = check_expr(text, "accept", SPEC, registry())
    assert problems and "column " in problems[0].message


def test_reserved_words_are_not_names():
    for word in ("and", "or", "not", "let", "in", "it", "true", "false"):
        problems = check_expr(f"let {word} = 1; true", "condition", SPEC, registry())
        assert problems, word
    assert "reserved" in check_expr("card.rank == and", "accept", SPEC, registry())[0].message
    # a longer name that starts with a reserved word is a name
    assert "unknown name `letter`" in check_expr("letter", "condition", SPEC, registry())[0].message


def test_names_are_case_sensitive():
    ok("top(hand).suit == Hearts")
    msg = check_expr("top(hand).suit == hearts", "condition", SPEC, registry())[0].message
    assert "did you mean `Hearts`" in msg and "case-sensitive" in msg
    assert check_expr("Hand", "condition", SPEC, registry())
    assert check_expr("Count(hand) == 1", "condition", SPEC, registry())


def test_ranks_suits_colours_and_types():
    piles = {"hand": ["QH"], "tower-2": ["AS", "2C"], "cell-1": ["KD"]}
    assert evaluate("top(hand).rank == Queen && top(hand).suit == Hearts && top(hand).color == Red",
                    piles=piles)
    assert evaluate("top(hand).rank > 10 && top(hand).rank < King && top(hand).rank >= Jack",
                    piles=piles)
    assert evaluate("Ace == 1 && King == 13 && King > Queen && Ten - Two == 8") is True
    assert evaluate("count(Foundation, true) == 3 && count(Cell, true) == 4 && count(Stock, true) == 1") is True
    assert evaluate("count(Foundation) == 2 && count(Cell) == 1", piles=piles) is True  # their cards
    assert evaluate("count(faceUp(Foundation))", "scoring", piles=piles) == 2
    assert evaluate("bottom(depot(\"tower-2\")).color == Black && Spades != Clubs", piles=piles)


def test_let():
    assert evaluate("let x = 3; x * x", "scoring") == 9
    assert evaluate("let x = 3; let x = x + 1; x", "scoring") == 4
    piles = {"cell-2": ["~9C", "JH", "QS"]}
    assert evaluate("let monster = base(depot); monster.value >= 11", "step", piles=piles,
                    depot="cell-2") is True
    assert evaluate("let t = top(depot); t.rank == Queen && t.suit == Spades", "step",
                    piles=piles, depot="cell-2") is True
    assert evaluate("(let y = 2; y) + (let y = 5; y)", "scoring") == 7


def test_it_and_named_items():
    piles = {"cell-1": ["AS"], "cell-3": ["2S"], "discard": ["4C", "4D", "4H", "9S", "4S"]}
    assert evaluate("count(cell, empty(it))", "scoring", piles=piles) == 2
    assert evaluate("first(cell, empty(it)) == depot(\"cell-2\")", piles=piles) is True
    assert evaluate("any(c in discard, count(d in discard, d.rank == c.rank) >= 4)", piles=piles) is True
    assert evaluate("all(c in discard, count(d in discard, d.rank == c.rank) >= 4)", piles=piles) is False
    # an outer `it` stays visible inside a named inner loop
    assert evaluate("count(cell, any(c in it, c.rank == Two))", "scoring", piles=piles) == 1
    # the inner `it` shadows the outer one
    assert evaluate("count(cell, count(it, it.faceUp) == 1)", "scoring", piles=piles) == 2
    assert evaluate("sum(cell, top(it).value)", "scoring", piles=piles) == 3


def test_depot_stands_for_its_cards_bottom_first():
    piles = {"tower-1": ["3H", "5S"], "tower-3": ["9D"]}
    assert evaluate("bottom(depot(\"tower-1\")).rank == Three && top(depot(\"tower-1\")).rank == Five",
                    piles=piles) is True
    # a list of depots stands for all their cards, depot after depot
    assert evaluate("sum(tower)", "scoring", piles=piles) == 17
    assert evaluate("top(tower).rank == Nine && bottom(tower).rank == Three", piles=piles) is True
    assert evaluate("count(faceUp(tower))", "scoring", piles=piles) == 3


def test_no_card_is_an_answer():
    empty = {"depot": "tower-1"}
    assert evaluate("top.suit == Hearts", "accept", **empty) is False
    assert evaluate("top.suit != Hearts", "accept", **empty) is True
    assert evaluate("top.rank < 5 || top.rank >= 5 || top.rank == top.rank", "accept", **empty) is False
    assert evaluate("top.value == 0 && !top.faceUp && !top.joker", "accept", **empty) is True
    assert evaluate("top.color != Red && top.color != Black", "accept", **empty) is True
    assert evaluate("top.rank + 1 == 1", "accept", **empty) is False
    assert evaluate("top(hand).rank + 1", "scoring") == 0
    assert evaluate("top(hand) == top(hand)") is False
    assert evaluate("value(top(hand)) + sum(hand)", "scoring") == 0


def test_no_depot_is_an_answer():
    assert evaluate("neighbour(depot(\"cell-4\"), 1) == neighbour(depot(\"cell-4\"), 1)") is False
    assert evaluate("empty(neighbour(depot(\"cell-4\"), 1)) && count(neighbour(depot(\"cell-4\"), 1)) == 0")
    assert evaluate("index(first(cell, !empty(it))) == 0 && empty(first(cell, !empty(it)))")
    assert evaluate("empty(cameFrom(first(cell, false))) && count(coveredBy(first(cell, false))) == 0")


def test_face_down_cards_are_counted_but_not_read():
    piles = {"column-1": ["~KH", "~QS"], "column-2": ["~AS", "5H"]}
    assert evaluate("count(depot(\"column-1\"))", "scoring", piles=piles) == 2
    assert evaluate("sum(column)", "scoring", piles=piles) == 5
    assert evaluate("top(depot(\"column-1\")).rank == King || top(depot(\"column-1\")).suit == Spades",
                    piles=piles) is False
    assert evaluate("top(depot(\"column-1\")).rank != Queen", piles=piles) is True
    assert evaluate("top(depot(\"column-1\")) == top(depot(\"column-1\"))", piles=piles) is False
    assert evaluate("count(faceDown(column)) == 3 && !any(column, top(it).joker)", piles=piles) is True


def test_unknown_cards_in_a_view_are_counted_but_not_read():
    state = make_state(SPEC, {"hand": ["7C"]})
    piles = list(state.piles)
    piles[SPEC.depots.index(SPEC.depot("column-1"))] = (unknown_code(0), unknown_code(1))
    view = State(tuple(piles), state.came_from, state.recycles)
    text = "count(column) == 2 && top(column).value == 0 && !top(column).faceUp && top(column).rank != Ace"
    assert evaluate(text, state=view) is True
    assert evaluate("top(column) == top(column)", state=view) is False


def test_cards_compare_by_identity_and_depots_by_index():
    piles = {"hand": ["5H"], "tower-1": ["5D", "5S"]}
    assert evaluate("top(hand) == bottom(depot(\"tower-1\"))", piles=piles) is False
    assert evaluate("top(hand) == top(hand) && top(hand) != top(tower)", piles=piles) is True
    # two copies of the same card are two cards
    spec2 = make_spec(BOARD_DEPOTS, copies=2)
    twins = make_state(spec2, {"hand": ["5H", "5H"]})
    assert evaluate("top(hand) != bottom(hand) && top(hand).rank == bottom(hand).rank",
                    spec=spec2, state=twins) is True
    assert evaluate("source == hand && depot != source && depot == depot", "accept",
                    piles=piles, depot="tower-1", source="hand") is True


def test_accept_names():
    piles = {"hand": ["4H", "6C"], "tower-1": ["5S"]}
    text = "card.value + top.value == 11 && count(pile) == 1 && depot == depot(\"tower-1\") && source == hand"
    assert evaluate(text, "accept", piles=piles, depot="tower-1", source="hand") is True
    assert evaluate("count(pile) == 2 && card.rank == Four", "accept", piles=piles, depot="tower-1",
                    source="hand", moving=2) is True


def test_score_facts():
    state = make_state(SPEC, {}, moves=12, undos=2, recycles_total=3, redeals=1)
    assert evaluate("moves * 1000 + undos * 100 + recycles * 10 + redeals", "scoring",
                    state=state) == 12231


def test_values_change_card_values():
    spec = make_spec(BOARD_DEPOTS, values={"J": 10, "Q": 10, "K": 10, "A": 11}, jokers=1)
    state = make_state(spec, {"column-1": ["KH", "AS", "5D", "JK"]})
    assert evaluate("sum(column)", "scoring", spec=spec, state=state) == 26
    assert evaluate("top(column).joker && top(column).value == 0 && top(column).rank != King",
                    spec=spec, state=state) is True
    spec2 = make_spec(BOARD_DEPOTS, values={"joker": 50}, jokers=2)
    state2 = make_state(spec2, {"hand": ["JK"]})
    assert evaluate("value(top(hand))", "scoring", spec=spec2, state=state2) == 50


def test_result_kinds_of_contexts():
    assert compile_typed("count(cell)", "scoring", SPEC, registry())[0] == "number"
    assert compile_typed("Queen", "scoring", SPEC, registry())[0] == "number"
    assert compile_typed("first(cell, empty(it))", "depotField", SPEC, registry())[0] == "depot"
    assert compile_typed("depot", "depotsField", SPEC, registry(), self_depot="cell-2")[0] == "depots"
    assert compile_typed("top(hand)", "eval", SPEC, registry())[0] == "card"


def test_self_depot_is_the_trigger_depot():
    state = make_state(SPEC, {"cell-2": ["AS"]})
    fn = compile_typed("neighbour(depot, 1)", "depotField", SPEC, registry(), self_depot="cell-2")[1]
    from cardz_core.expr import Env
    assert fn(Env(state)) == SPEC.depots.index(SPEC.depot("cell-3"))
    assert compile_typed("top(depot).rank == Ace", "trigger", SPEC, registry(), self_depot=7)[1](
        Env(state)) is True


def test_accept_rule_compiled_for_its_depot_reads_depot_as_that_depot():
    state = make_state(SPEC, {"cell-2": ["AS"], "hand": ["2S"]})
    from cardz_core.expr import Env
    fn = compile_typed("!empty(depot) && index(depot) == 2", "accept", SPEC, registry(),
                       self_depot="cell-2")[1]
    assert fn(Env(state, depot=-1)) is True
    plain = compile_typed("!empty(depot) && index(depot) == 2", "accept", SPEC, registry())[1]
    assert plain(Env(state, depot=-1)) is False


def test_card_codes_are_read_from_the_deck():
    state = make_state(SPEC, {"hand": ["10D"]})
    assert state.piles[1] == (code(1 * 13 + 9, True),)
    assert evaluate("top(hand).rank == Ten && top(hand).suit == Diamonds", state=state)


def test_the_grammar_passes_lark_strict_checks_and_parses_the_same_without_them():
    """A command builds the parser without lark's strict checks (start time); the grammar must
    pass them, so that the parser is the one they would give."""
    from lark import lexer

    from cardz_core.expr.parse import build_parser, parser

    assert lexer.has_interegular  # lark[interegular]: strict compares the terminals' patterns
    strict = build_parser(strict=True)
    build_parser(strict=False)
    assert lexer.has_interegular  # the non-strict build turns the comparison off only a while
    for text in ("1 + 2 * 3 % 4", "let x = count(column); x > 0 && !empty(stock)",
                 "any(d in tableau, top(d).rank == 13) || -x.suit != 'H'"):
        assert strict.parse(text) == parser().parse(text)
