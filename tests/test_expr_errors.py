"""Every kind of expression error, reported at the field's pointer with the column; the limits;
and random text never raising anything but a reported problem."""

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardz_core.expr import Env, check_expr, check_spec, compile_expr
from cardz_core.limits import MAX_EXPR_CHARS, MAX_EXPR_DEPTH
from cardz_core.problems import CardzError
from cardz_core.spec.model import (AcceptRule, Action, Condition, Draw, Expr, PlannerSpec, Scoring,
                                   Step, Trigger)
from test_expr_fixtures import BOARD_DEPOTS, make_spec, make_state, registry

SPEC = make_spec(BOARD_DEPOTS)


@pytest.mark.parametrize("text,context,column,words", [
    ("card.rank == and", "accept", 14, "reserved"),
    ("card.rank = Ace", "accept", 11, "=="),
    ("card.value < 3 < 4", "accept", 16, "don't chain"),
    ("card.value +", "accept", 13, "ends too soon"),
    ("card.value # 2", "accept", 12, "unexpected character"),
    ("   ", "accept", 1, "empty"),
    ("card.rank == Aec", "accept", 14, "unknown name `Aec` (did you mean `Ace`?)"),
    ("top.suit == hearts", "accept", 13, "case-sensitive"),
    ("card.rnak == Ace", "accept", 6, "no property `rnak`"),
    ("depot.rank == Ace", "accept", 7, "only a card has properties"),
    ("card.suit == 3", "accept", 11, "can't compare a suit with a number"),
    ("card.suit < Spades", "accept", 1, "only numbers and ranks can be ordered"),
    ("card.color == Hearts", "accept", 12, "can't compare a colour with a suit"),
    ("pile == pile", "accept", 6, "can't be compared"),
    ("card.value", "accept", 1, "must give a condition, but this is a number"),
    ("card.value && true", "accept", 1, "`&&` needs a condition"),
    ("false && card.rnak == 1", "accept", 15, "no property `rnak`"),
    ("true || 1 + card > 0", "accept", 13, "`+` needs a number"),
    ("2 * 3 - Hearts", "scoring", 9, "`-` needs a number, but this is a suit"),
    ("!card", "accept", 2, "`!` needs a condition"),
    ("card + 1 > 2", "accept", 1, "use its .value or .rank"),
    ("card.faceUp", "draw", 1, "`card` can't be seen in a draw's when"),
    ("top.faceUp", "condition", 1, "`top` can't be seen"),
    ("moves > 3", "planner", 1, "`moves` can't be seen"),
    ("source == hand", "step", 1, "`source` can't be seen"),
    ("empty(tower-2)", "condition", 7, "depot(\"tower-2\")"),
    ("emtpy(hand)", "condition", 1, "unknown function `emtpy` (did you mean `empty`?)"),
    ("count", "scoring", 1, "is a function"),
    ("count(hand, true, 1)", "scoring", 1, "can't take 3 arguments"),
    ("sum(hand, it.suit)", "scoring", 11, "must be a number, but this is a suit"),
    ("empty(Hearts)", "condition", 1, "can't take (a suit)"),
    # a wrong call reads the function's line of help after how it is called
    ("top(hand, hand) == top(hand)", "condition", 1,
     "it is top(cards) -> card: the last card, or no card"),
    ("empty(Hearts)", "condition", 1, "-> bool: whether there are no cards"),
    ("it.faceUp", "condition", 1, "`it` means the item"),
    ("empty(c in hand)", "condition", 7, "doesn't go through this list"),
    ("count(hand, c in hand)", "condition", 13, "only the list"),
    ("empty(depot(\"nowhere\"))", "condition", 7, "no depot is named 'nowhere'"),
    ("\"hand\"", "condition", 1, "a quoted name only names a depot"),
    ("let x = \"hand\"; true", "condition", 9, "a quoted name only names a depot"),
])
def test_error_kinds(text, context, column, words):
    problems = check_expr(Expr(text, "/depots/3/acceptRule/when"), context, SPEC, registry())
    assert len(problems) == 1
    p = problems[0]
    assert p.path == "/depots/3/acceptRule/when"
    assert p.message.startswith(f"column {column}: "), p.message
    assert words in p.message, p.message


def test_compile_expr_raises_with_the_pointer():
    with pytest.raises(CardzError) as err:
        compile_expr(Expr("card.rnak", "/depots/0/acceptRule/when"), "accept", SPEC, registry())
    assert err.value.problems[0].path == "/depots/0/acceptRule/when"


def test_length_limit_at_and_past():
    at = "1 + " * ((MAX_EXPR_CHARS - 1) // 4) + "1"
    at = at + " " * (MAX_EXPR_CHARS - len(at))
    assert len(at) == MAX_EXPR_CHARS
    assert compile_expr(at, "scoring", SPEC, registry())(Env(make_state(SPEC, {}))) == \
        (MAX_EXPR_CHARS - 1) // 4 + 1
    problems = check_expr(at + " ", "scoring", SPEC, registry())
    assert problems and f"at most {MAX_EXPR_CHARS}" in problems[0].message


def test_depth_limit_at_and_past():
    # each `!` is one level; the atom under them is one more
    at = "!" * (MAX_EXPR_DEPTH - 1) + "true"
    assert compile_expr(at, "condition", SPEC, registry())(Env(None)) is ((MAX_EXPR_DEPTH - 1) % 2 == 0)
    problems = check_expr("!" + at, "condition", SPEC, registry())
    assert problems and f"more than {MAX_EXPR_DEPTH} levels" in problems[0].message
    parens = "(" * (MAX_EXPR_DEPTH + 5) + "1" + ")" * (MAX_EXPR_DEPTH + 5)
    assert compile_expr(parens, "scoring", SPEC, registry())(Env(None)) == 1  # parentheses don't nest nodes


def test_long_flat_chains_are_not_deep():
    text = " || ".join(["empty(hand)"] * 120)
    assert len(text) < MAX_EXPR_CHARS
    assert compile_expr(text, "condition", SPEC, registry())(Env(make_state(SPEC, {"hand": ["AS"]}))) is False


def _game_with_every_place():
    """Each expression-bearing place of a GameSpec, holding a broken expression."""
    def bad(ptr, text="nope == 1"):
        return Expr(text, ptr)
    depots = list(SPEC.depots)
    depots[0] = attrs.evolve(depots[0], draw=Draw("hand", when=bad("/depots/0/draw/when")))
    depots[1] = attrs.evolve(depots[1], accept=AcceptRule(when=bad("/depots/1/acceptRule/when")))
    self_name = depots[2].name
    depots[2] = attrs.evolve(
        depots[2],
        triggers=(Trigger(bad("/depots/2/triggers/0/when"), (
            Step("move", {"from": "hand", "to": bad("/depots/2/triggers/0/do/0/to", "count(hand)"),
                          "count": bad("/depots/2/triggers/0/do/0/count", "empty(hand)")},
                 "/depots/2/triggers/0/do/0", self_name),), "/depots/2/triggers/0"),),
        actions=(Action("go", bad("/depots/2/actions/0/when"), (
            Step("gather", {"from": bad("/depots/2/actions/0/do/0/from", "count(depot)"), "to": "hand",
                            "when": bad("/depots/2/actions/0/do/0/when", "card.faceUp")},
                 "/depots/2/actions/0/do/0", self_name),), "/depots/2/actions/0"),))
    deal = (Step("dealGroup", {"to": ("tower-1",), "when": bad("/dealRules/0/when", "source == hand")},
                 "/dealRules/0"),)
    win = Condition("allOf", {"of": (Condition("expr", {"when": bad("/winCondition/of/0/when")},
                                               "/winCondition/of/0"),)}, "/winCondition")
    loss = Condition("expr", {"when": bad("/lossCondition/when")}, "/lossCondition")
    redeal_when = Condition("anyOf", {"of": (
        Condition("expr", {"when": bad("/redealWhen/of/0/when")}, "/redealWhen/of/0"),)}, "/redealWhen")
    return attrs.evolve(SPEC, depots=tuple(depots), deal=deal, redeal=deal, win=win, loss=loss,
                        redeal_when=redeal_when,
                        scoring=Scoring(bad("/scoring/value", "top"), ptr="/scoring"),
                        planner=PlannerSpec(value=bad("/planner/value", "card.value"), ptr="/planner"))


def test_check_spec_finds_every_place_with_its_pointer():
    problems = check_spec(_game_with_every_place(), registry())
    paths = [p.path for p in problems]
    assert sorted(set(paths)) == sorted([
        "/depots/0/draw/when", "/depots/1/acceptRule/when", "/depots/2/triggers/0/when",
        "/depots/2/triggers/0/do/0/to", "/depots/2/triggers/0/do/0/count",
        "/depots/2/actions/0/when", "/depots/2/actions/0/do/0/from",
        "/depots/2/actions/0/do/0/when", "/dealRules/0/when", "/winCondition/of/0/when",
        "/lossCondition/when", "/redealWhen/of/0/when", "/scoring/value", "/planner/value"])
    by_path = {p.path: p.message for p in problems}
    assert "must give a depot, but this is a number" in by_path["/depots/2/triggers/0/do/0/to"]
    assert "must give a number, but this is a condition" in by_path["/depots/2/triggers/0/do/0/count"]
    assert "must give a list of depots, but this is a number" in by_path["/depots/2/actions/0/do/0/from"]
    assert "`card` can't be seen" in by_path["/depots/2/actions/0/do/0/when"]
    assert "`source` can't be seen" in by_path["/dealRules/0/when"]
    assert "`top` can't be seen" in by_path["/scoring/value"]
    assert "`card` can't be seen" in by_path["/planner/value"]
    assert all(m.startswith("column ") for m in by_path.values())


def test_clean_spec_has_no_problems():
    assert check_spec(SPEC, registry()) == []


# --- random text -----------------------------------------------------------------------------

_PIECES = ["card", "top", "pile", "depot", "source", "hand", "tower", "cell", "discard", "it", "c",
           "in", "let", "=", ";", "count", "sum", "min", "max", "first", "empty", "neighbour", "base",
           "above", "depot(\"cell-2\")", "depot(\"x\")", "Ace", "King", "Hearts", "Red", "Tableau",
           ".rank", ".suit", ".value", ".faceUp", ".color", "(", ")", ",", "!", "-", "+", "*", "%",
           "==", "!=", "<", ">=", "&&", "||", "0", "1", "13", "true", "false", " ", "moves", "x",
           "\"", "'", "/", "@", "é", "\n", "and"]


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(st.lists(st.sampled_from(_PIECES), max_size=25).map("".join),
                 st.text(max_size=40)),
       st.sampled_from(["accept", "condition", "scoring", "eval", "depotField", "count"]))
def test_random_text_is_a_problem_or_an_answer(text, context):
    state = make_state(SPEC, {"hand": ["AS", "~2S"], "tower-1": ["3D"], "cell-2": ["~KH"]})
    problems = check_expr(Expr(text, "/x"), context, SPEC, registry())
    if problems:
        assert len(problems) == 1 and problems[0].path == "/x"
        assert problems[0].message.startswith("column ")
        return
    fn = compile_expr(text, context, SPEC, registry(), self_depot="cell-2")
    env = Env(state, card=state.piles[1][0], pile=state.piles[1], depot=2, source=1, top=state.piles[2][-1])
    fn(env)  # always gives an answer


def _well_typed(depth: int) -> dict:
    """Strategies for expressions of each kind, to run many valid expressions on a board."""
    pick = st.sampled_from
    if depth == 0:
        return {"num": pick(["1", "0", "13", "-2", "King", "card.value", "top.rank"]),
                "bool": pick(["true", "top.faceUp", "card.joker"]),
                "card": pick(["card", "top", "bottom(pile)"]),
                "cards": pick(["pile", "hand"]),
                "depot": pick(["depot", "source", "hand", "depot(\"cell-2\")"]),
                "depots": pick(["tower", "cell", "Tableau", "coveredBy(depot)"])}
    g = _well_typed(depth - 1)
    lists = st.one_of(g["cards"], g["depot"], g["depots"])

    def f(template, *parts):
        return st.tuples(*parts).map(lambda xs: template.format(*xs))
    return {
        "num": st.one_of(g["num"], f("({} {} {})", g["num"], pick(["+", "-", "*", "%"]), g["num"]),
                         f("count({})", lists), f("count({}, {})", lists, g["bool"]),
                         f("sum({}, {})", lists, g["num"]), f("min({}, {})", lists, g["num"]),
                         f("max(q in {}, {})", lists, g["num"]), f("{}.rank", g["card"]),
                         f("index({})", g["depot"])),
        "bool": st.one_of(g["bool"], f("({} {} {})", g["num"], pick(["==", "!=", "<", ">="]), g["num"]),
                          f("({} {} {})", g["bool"], pick(["&&", "||"]), g["bool"]),
                          f("!({})", g["bool"]), f("empty({})", lists), f("any({}, {})", lists, g["bool"]),
                          f("{} == {}", g["card"], g["card"]), f("adjacent({}, {})", g["depot"], g["depot"]),
                          f("{}.suit != Hearts", g["card"]), f("(let v = {}; v > 3 || {})", g["num"], g["bool"])),
        "card": st.one_of(g["card"], f("top({})", g["cards"]), f("base({})", g["depot"]),
                          f("first({}, {})", g["cards"], g["bool"])),
        "cards": st.one_of(g["cards"], f("faceUp({})", g["depots"]), f("above({}, {})", g["cards"], g["card"])),
        "depot": st.one_of(g["depot"], f("neighbour({}, {})", g["depot"], g["num"]),
                           f("cameFrom({})", g["depot"]), f("first({}, {})", g["depots"], g["bool"])),
        "depots": st.one_of(g["depots"], f("coveredBy({})", g["depot"])),
    }


@settings(max_examples=200, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(_well_typed(2)["bool"])
def test_well_typed_expressions_always_give_an_answer(text):
    assert check_expr(text, "accept", SPEC, registry()) == []
    test_random_text_is_a_problem_or_an_answer.hypothesis.inner_test(text, "accept")
