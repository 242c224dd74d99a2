"""Rule expressions run natively (src/expr.rs) against the Python engine's closures, the
reference: every expression of every bundled game, and a set of written ones that use every
operation and native primitive, on positions of seeded random play with many bindings. The
values must be equal and of the same Python type; a number past the limit must be refused with
the same message at the same pointer. A few positions per game here, many with CARDZ_LONG=1.
Skipped only where the extension is not built (.ci/run builds it)."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import pytest
from conftest import LONG

from cardz_core.compiled.records import ExprRef
from cardz_core.compiled.serial import encode
from cardz_core.engine import Game, State
from cardz_core.expr.env import Env
from cardz_core.native import _as_tuple, extension
from cardz_core.native_expr import expr_plan
from cardz_core.problems import CardzError
from cardz_core.registry import default_registry
from cardz_core.rulesets import bundled, open_game

NATIVE = extension()
pytestmark = pytest.mark.skipif(NATIVE is None, reason="the native extension is not built")

GAMES = {r.path.stem: r.path for r in bundled()}
DEALS = 12 if LONG else 1
STOPS = (0, 3, 10, 30, 80, 200) if LONG else (0, 12, 60)  # positions taken along each deal
BINDINGS = 40 if LONG else 8  # binding sets per position and expression
PAST = "this expression works out to a number past 9007199254740991 either way"

# Written expressions (context `eval`: every kind may come out; `depot` is bound) that reach
# the operations and primitives no bundled game's rules happen to use.
WRITTEN = [
    "let t = top(depot); let n = count(depot); n * 3 - t.value % 5",
    "-count(depot) + moves - undos * 2 + redeals + recycles",
    "min(count(depot), 4) + max(moves, 2)",
    "min(d in coveredBy(depot), count(d)) + max(c in depot, c.value) + sum(c in depot, c.rank)",
    "sum(depot) - sum(faceUp(depot)) + sum(faceDown(depot))",
    "base(depot)",
    "bottom(depot)",
    "above(depot, bottom(depot))",
    "above(depot, top(depot))",
    "faceDown(depot)",
    "first(c in depot, c.faceUp)",
    "first(c in depot, c.rank > 9 && !c.joker)",
    "(top(depot).rank - bottom(depot).rank) % 13 == 1",
    "(top(depot).rank - 20) % -3",
    "top(depot).value * -7 % 0",
    "top(depot).suit == bottom(depot).suit || top(depot).color != bottom(depot).color",
    "top(depot) == base(depot)",
    "top(depot) != bottom(depot)",
    "empty(first(c in depot, c.rank == King))",
    "value(base(depot)) >= 10",
    "count(depot, it.faceUp) * count(depot, !it.faceUp) % 7",
    "all(c in depot, any(d in coveredBy(depot), count(d) > c.rank % 3))",
    "depot == depot",
    "-top(depot).rank",
    "top(depot).rank * 3 + 1",
    "cameFrom(depot)",
    "neighbour(depot, 1)",
    "neighbour(depot, -2)",
    "index(depot) * 100 + index(neighbour(depot, 1))",
    "coveredBy(depot)",
    "adjacent(depot, neighbour(depot, 1))",
    "any(d in coveredBy(depot), adjacent(d, depot))",
    "first(d in coveredBy(depot), empty(d))",
    "count(coveredBy(depot))",
    "count(coveredBy(depot), true)",
    "let big = 9007199254740991; big * (count(depot) + 1) % 1000003",
    "let big = 9007199254740991; big * big * big * (moves + 2) % 999983",
    "let big = 9007199254740991; big * big * big * count(depot)",
    "let big = 9007199254740991; big + count(depot) - 1",
    "9007199254740991 * count(depot, true)",
    "top(depot).rank + 9007199254740991",
]

# Written accept rules (for the first depot): the `pile`, `card`, `top` and `source` bindings.
WRITTEN_ACCEPT = [
    "count(pile) < 3 || empty(pile) || !empty(source) && top(pile).rank - card.rank > 1",
    "bottom(pile) == card && top(pile) != top && count(pile, it.faceUp) == count(pile)",
    "sum(pile) + card.value * 2 > top.value && base(pile) == card",
    "index(source) % 2 == 0 && cameFrom(source) != source && first(c in pile, c.joker) == card",
]


def positions(game: Game, seed: int) -> Iterator[State]:
    """The dealt position, then positions along seeded random play (the Python engine's)."""
    state, rng = game.deal(seed), random.Random(seed)
    for step in range(max(STOPS) + 1):
        if step in STOPS:
            yield state
        moves = game.legal_moves(state)
        if not moves:
            yield state
            return
        state = game.apply(state, rng.choice(moves))


def bindings(state: State, ref: ExprRef, rng: random.Random) -> Iterator[dict[str, Any]]:
    """Bindings as the contexts give them: no card, the self depot, then random drops (a target
    with its top card, a source with its top card or the face-up run on it, as the pile)."""
    n = len(state.piles)
    yield {}
    if ref.self_depot >= 0:
        yield {"depot": ref.self_depot}
    for _ in range(BINDINGS):
        src, dst = rng.randrange(n), rng.randrange(n)
        cards = state.piles[src]
        k = rng.choice((1, 1, 2, len(cards))) if cards else 0
        pile = tuple(cards[len(cards) - min(k, len(cards)):]) if cards else ()
        target = state.piles[dst]
        yield {"depot": dst if rng.random() < 0.8 or ref.self_depot < 0 else ref.self_depot,
               "source": src, "pile": pile, "card": pile[0] if pile else None,
               "top": target[-1] if target else None}


def python_value(game: Game, fn: Any, state: State, b: dict[str, Any]) -> tuple[str, Any]:
    try:
        return "value", fn(Env(state, **b))
    except CardzError as exc:
        return "error", (exc.problems[0].message, exc.problems[0].path)


def readings(result: tuple[str, Any]) -> list[tuple[str, Any, str]]:
    """The Python engine's value, and read as a condition and as a number as the engine reads
    them (``bool(v)``, ``int(v or 0)``; no number for a list), each with its Python type: True
    and 1 are different values here."""
    kind, v = result
    if kind == "error":
        return [(kind, v, "")] * 3
    out = [(kind, v, type(v).__name__), (kind, bool(v), "bool")]
    if not isinstance(v, (tuple, str)):
        out.append((kind, int(v or 0), "int"))
    return out


def native_readings(probe: Any, id_: int, state: State, b: dict[str, Any]) -> list[tuple[str, Any, str]]:
    """The native value, condition and number (``ExprProbe.eval``) as ``readings`` gives them."""
    got = probe.eval(id_, _as_tuple(state), b.get("card"), b.get("top"), list(b.get("pile", ())),
                     b.get("depot", -1), b.get("source", -1))
    out = [("value", v, type(v).__name__) if ok else ("error", v, "") for ok, v in got]
    return out[:2] if out[0][2] in ("tuple", "str") else out


def written(game: Game) -> list[ExprRef]:
    return [ExprRef(text, "evalDepot", -1, f"/written/{i}",
                    game.programs.get(text, "evalDepot"))
            for i, text in enumerate(WRITTEN)] + [
        ExprRef(text, "accept", 0, f"/accept/{i}", game.programs.get(text, "accept", 0))
        for i, text in enumerate(WRITTEN_ACCEPT)]


def agree(game: Game, refs: list[ExprRef], seeds: range) -> int:
    """Compare every expression of ``refs`` on positions of each deal; the comparisons made."""
    probe = NATIVE.ExprProbe(json.dumps(expr_plan(game)))
    loaded = [(ref, probe.add(json.dumps(encode(ref))), game.expr(ref)) for ref in refs]
    made = 0
    for seed in seeds:
        rng = random.Random(seed)
        for state in positions(game, seed):
            for ref, id_, fn in loaded:
                for b in bindings(state, ref, rng):
                    want = readings(python_value(game, fn, state, b))
                    got = native_readings(probe, id_, state, b)
                    assert got == want, (ref.ptr, ref.text, b, state.piles)
                    made += 1
    return made


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_expression_of_a_bundled_game_agrees_with_the_python_engine(name: str):
    game = open_game(GAMES[name])
    refs = list(game.compiled.expressions())
    if not refs:
        pytest.skip("no expressions")
    assert agree(game, refs, range(DEALS)) > 0


@pytest.mark.parametrize("name", ["gaps", "klondike", "giza", "monte_carlo", "freecell"])
def test_written_expressions_agree_with_the_python_engine(name: str):
    game = open_game(GAMES[name])
    assert agree(game, written(game), range(DEALS + 1)) > 0


def test_a_number_past_the_limit_is_refused_at_the_expressions_pointer():
    game = open_game(GAMES["klondike"])
    at = WRITTEN.index("9007199254740991 * count(depot, true)")
    ref = written(game)[at]
    state = game.deal(1)
    probe = NATIVE.ExprProbe(json.dumps(expr_plan(game)))
    id_ = probe.add(json.dumps(encode(ref)))
    one = next(d for d, p in enumerate(state.piles) if len(p) == 1)
    two = next(d for d, p in enumerate(state.piles) if len(p) == 2)
    assert native_readings(probe, id_, state, {"depot": one})[2] == ("value", 9007199254740991, "int")
    got = native_readings(probe, id_, state, {"depot": two})
    kind, (message, ptr), _ = got[0]
    assert (kind, ptr) == ("error", f"/written/{at}") and message.startswith(PAST)
    assert got == readings(python_value(game, game.expr(ref), state, {"depot": two}))


def test_a_function_with_no_native_primitive_is_refused_naming_it_and_the_pointer():
    game = open_game(GAMES["klondike"])
    at = WRITTEN.index("cameFrom(depot)")
    ref = written(game)[at]
    plan = expr_plan(game)
    plan["functions"]["cameFrom"] = [None]
    probe = NATIVE.ExprProbe(json.dumps(plan))
    with pytest.raises(ValueError, match=f"the expression at /written/{at} can't run natively: "
                                         "it calls cameFrom, whose overload 0 has no native"):
        probe.add(json.dumps(encode(ref)))
    plan["functions"]["cameFrom"] = ["no_such_primitive"]
    probe = NATIVE.ExprProbe(json.dumps(plan))
    with pytest.raises(ValueError, match="names the native primitive 'no_such_primitive'"):
        probe.add(json.dumps(encode(ref)))


def test_every_builtin_overload_names_a_native_primitive():
    functions = default_registry().functions
    missing = [(name, i) for name, fn in functions.items()
               for i, sig in enumerate(fn.overloads) if sig.native is None]
    assert missing == []
