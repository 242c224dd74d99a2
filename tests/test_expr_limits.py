"""The bound on the numbers an expression writes and computes (``MAX_EXPR_INT``): refused at
compile time where the value is known, at run time at the expression's pointer otherwise, and
never a Python exception or a long computation."""

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import LONG
from cardz_core.expr import Env, Program, ProgramError, check_expr, compile_expr
from cardz_core.limits import MAX_EXPR_CHARS, MAX_EXPR_INT
from cardz_core.problems import CardzError
from cardz_core.spec.model import Expr
from test_expr_fixtures import BOARD_DEPOTS, evaluate, make_spec, make_state, registry

SPEC = make_spec(BOARD_DEPOTS)
M = MAX_EXPR_INT


def problem(text: str, context: str = "scoring") -> str:
    problems = check_expr(text, context, SPEC, registry())
    assert len(problems) == 1, problems
    return problems[0].message


def run(text: str, spec=SPEC, piles=None, **counters) -> object:
    state = make_state(spec, piles or {}, **counters)
    fn = compile_expr(Expr(text, "/scoring/expr"), "scoring", spec, registry())
    return fn(Env(state))


def test_literals_at_and_past_the_limit():
    assert evaluate(f"{M}", "scoring") == M
    assert evaluate(f"-{M}", "scoring") == -M
    assert evaluate("0" * 1990 + "7", "scoring") == 7  # leading zeros are not digits of the size
    assert problem(f"{M + 1}") == f"column 1: this number has 16 digits; numbers in an " \
                                  f"expression are at most {M}"
    assert "at most" in problem(f"1 + {10 ** 16}")


def test_a_literal_longer_than_python_converts_is_refused_not_raised():
    # Python refuses int() of more than 4,300 digits; the length limit keeps a literal shorter,
    # and the digit count is checked before any conversion
    text = "9" * MAX_EXPR_CHARS
    assert problem(text).startswith(f"column 1: this number has {MAX_EXPR_CHARS} digits")


@pytest.mark.parametrize("text", [f"{M} + 0", f"{M} - 0", f"-{M} + 0", f"{M} * 1",
                                  f"{M} + 1 - 1", "94906265 * 94906265"])
def test_folded_values_at_the_limit(text):
    assert abs(evaluate(text, "scoring")) <= M


@pytest.mark.parametrize("text,col", [(f"{M} + 1", 1), (f"-{M} - 1", 1), (f"2 * {M}", 1),
                                      ("94906266 * 94906266", 1), (f"1 + ({M} + 1)", 6),
                                      ("let a = 99999999 * 99999999; a", 9)])
def test_folded_values_past_the_limit(text, col):
    assert problem(text).startswith(f"column {col}: this works out to a number past {M}")


def test_run_time_values_at_and_past_the_limit():
    assert run(f"moves * {M}", moves=1) == M
    assert run(f"0 - moves * {M}", moves=1) == -M
    assert run(f"moves + {M - 5}", moves=5) == M
    with pytest.raises(CardzError) as err:
        run(f"moves + {M - 5}", moves=6)
    assert err.value.problems[0].path == "/scoring/expr"
    assert "past 9007199254740991" in err.value.problems[0].message
    with pytest.raises(CardzError):
        run(f"0 - moves * {M}", moves=2)


def test_a_remainder_is_bounded_by_its_divisor_and_its_dividend_is_checked():
    assert run("moves % 7 * 3", moves=20) == 18
    with pytest.raises(CardzError):
        run(f"(moves * {M}) % 7", moves=2)


def test_card_values_from_the_game_bound_what_is_checked():
    big = make_spec(BOARD_DEPOTS, values={"K": M})
    piles = {"hand": ["KS"]}
    assert run("top(hand).value + 0", spec=big, piles=piles) == M
    with pytest.raises(CardzError):
        run("top(hand).value + top(hand).value", spec=big, piles=piles)
    with pytest.raises(CardzError):
        run("top(hand).rank * moves", piles=piles, moves=M)
    assert run("top(hand).rank * 2 - 1", piles=piles) == 25


def test_let_values_carry_their_bound():
    assert run("let a = moves; let b = a * a; b + 1", moves=3) == 10
    with pytest.raises(CardzError):
        run("let a = moves; let b = a * a * a * a; b * b", moves=10_000)


def test_a_chain_of_powers_under_let_is_refused_quickly():
    # 8 levels, each the eighth power of the one before: without a bound, numbers of about
    # 8**8 * 24 digits, which Python would multiply for minutes
    levels = "".join(f"let {b} = {' * '.join([a] * 8)}; " for a, b in zip("abcdefgh", "bcdefghi"))
    folded = f"let a = 99999999 * 9999999; {levels}i > 0"
    at_run_time = f"let a = moves + 3; {levels}i > 0"
    start = time.perf_counter()
    assert "past 9007199254740991" in problem(folded, "condition")
    with pytest.raises(CardzError):
        state = make_state(SPEC, {})
        compile_expr(at_run_time, "condition", SPEC, registry())(Env(state))
    assert time.perf_counter() - start < 2.0


@pytest.mark.parametrize("text", [
    " + ".join(["9007199254740"] * 120),  # a long sum folds within the limit
    " * ".join(["moves"] * 240),  # a long product of counters checks its one result
    " + ".join([f"count(column) * {M // 8}"] * 50),
])
def test_length_legal_extremes_compile_and_run_quickly(text):
    assert len(text) <= MAX_EXPR_CHARS
    start = time.perf_counter()
    problems = check_expr(text, "scoring", SPEC, registry())
    if not problems:
        try:
            run(text, moves=2)
        except CardzError as exc:
            assert "past" in exc.problems[0].message
    assert time.perf_counter() - start < 2.0


def test_close_matches_are_looked_for_only_for_names_of_typo_length():
    # each unknown name is compared with every known one: for long names that cost grows with
    # the file, so only names up to 40 characters get a "did you mean"
    long_name = "a" * 40
    spec = make_spec(BOARD_DEPOTS + [(long_name, "Reserve"), ("b" * 41, "Reserve")])
    near = check_expr("a" * 39 + "b == 1", "scoring", spec, registry())[0].message
    assert f"did you mean `{long_name}`" in near
    far = check_expr("b" * 40 + "c == 1", "scoring", spec, registry())[0].message
    assert "did you mean" not in far and "unknown name" in far
    assert "did you mean `" + "b" * 41 in check_expr("B" * 41 + " == 1", "scoring", spec,
                                                      registry())[0].message  # letter case: any length


ATOMS = st.sampled_from(["0", "1", "7", "13", "moves", "count(column)", "top(hand).value",
                         str(M), str(M + 1), "9" * 30, "a", "b"])


@st.composite
def arithmetic(draw, depth: int = 0):
    if depth > 3 or draw(st.integers(0, 2)) == 0:
        return draw(ATOMS)
    ops = draw(st.lists(st.sampled_from(["+", "-", "*", "%"]), min_size=1, max_size=4))
    parts = [draw(arithmetic(depth + 1)) for _ in range(len(ops) + 1)]
    text = parts[0] + "".join(f" {op} ({p})" for op, p in zip(ops, parts[1:]))
    return f"-({text})" if draw(st.booleans()) else text


@settings(max_examples=1000 if LONG else 40, deadline=None)
@given(st.lists(arithmetic(), min_size=2, max_size=4), st.integers(0, M))
def test_random_arithmetic_is_a_number_within_the_limit_or_a_refusal(parts, moves):
    # `a` and `b` are let names: a chain of them squares sizes as the hang of issue 22 did
    text = f"let a = {parts[0]}; let b = {parts[1]} * a * a; " + " + ".join(parts[2:] or ["b"])
    problems = check_expr(text, "scoring", SPEC, registry())
    if problems:
        assert all(p.message.startswith("column ") for p in problems)
        return
    try:
        value = run(text, piles={"hand": ["KS"]}, moves=moves)
    except CardzError as exc:
        assert exc.problems[0].path == "/scoring/expr"
        return
    assert -M <= value <= M


def test_a_serialised_program_with_a_constant_past_the_limit_is_refused():
    def program(value):
        return {"format": 1, "kind": "number", "slots": 0, "reads": [],
                "root": ["arith", ["+"], [["counter", "moves"], ["const", value]], False]}
    assert Program.from_json(program(M)).root[2][1] == ("const", M)
    assert Program.from_json(program(-M)).root[2][1] == ("const", -M)
    for value in (M + 1, -M - 1, 10 ** 400):
        with pytest.raises(ProgramError, match="past 9007199254740991"):
            Program.from_json(program(value))
