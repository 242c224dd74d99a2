"""Compiled expressions are programs: plain data with an exact JSON form, that declare what they
read; a game's reads decide the solver's position key, plugin functions included."""

from __future__ import annotations

import json
import pickle
import random
import types
from pathlib import Path

import pytest

from cardz_core.engine import compile
from cardz_core.engine.state import PLAYING
from cardz_core.expr import (STATE, STATE_READS, Function, GamePrograms, Program, ProgramError,
                             expressions, programs_for, rule_reads)
from cardz_core.hookspecs import hookimpl
from cardz_core.registry import build_registry
from cardz_core.solver.analysis import Analysis
from cardz_core.spec import load_game
from test_expr_fixtures import BOARD_DEPOTS, make_spec, registry

RULESETS = sorted((Path(__file__).parents[1] / "rulesets").glob("*.cardz"))


def _leaves_are_data(value: object) -> bool:
    if isinstance(value, tuple):
        return all(_leaves_are_data(v) for v in value)
    return value is None or isinstance(value, (bool, int, float, str))


def test_every_bundled_expression_round_trips_through_json():
    count = 0
    for path in RULESETS:
        spec = load_game(path)
        programs = programs_for(spec)
        for expr, context, self_depot in expressions(spec, programs.registry):
            program = programs.get(expr, context, self_depot)
            assert _leaves_are_data(program.root), (path.name, expr.text)
            text = json.dumps(program.to_json())
            back = Program.from_json(json.loads(text))
            assert back == program, (path.name, expr.text)
            assert json.dumps(back.to_json()) == text
            count += 1
    assert count > 300  # the bundled games are full of expressions


@pytest.mark.parametrize("name", ["accordion", "gaps", "giza", "monte_carlo", "pyramid"])
def test_a_game_run_from_serialised_programs_plays_the_same(name):
    path = Path(__file__).parents[1] / "rulesets" / f"{name}.cardz"
    plain = compile(load_game(path))
    spec = load_game(path)
    kept = programs_for(spec)
    again = GamePrograms(spec, kept.registry)
    for expr, context, self_depot in expressions(spec, kept.registry):
        program = kept.get(expr, context, self_depot)
        again.put(expr, context, self_depot,
                  Program.from_json(json.loads(json.dumps(program.to_json()))))
    spec_again = load_game(path)
    object.__setattr__(spec_again, "programs", again)
    game = compile(spec_again, kept.registry)
    assert game.programs is again
    rng = random.Random(5)
    a, b = plain.deal(11), game.deal(11)
    for _ in range(40):
        moves = plain.legal_moves(a)
        assert moves == game.legal_moves(b)
        if not moves or a.status != PLAYING:
            break
        move = rng.choice(moves)
        a, b = plain.apply(a, move), game.apply(b, move)
        assert a == b


def test_a_spec_pickles_without_its_programs_and_compiles_its_own():
    spec = load_game(Path(__file__).parents[1] / "rulesets" / "giza.cardz")
    assert spec.programs is not None
    back = pickle.loads(pickle.dumps(spec))
    assert back == spec and back.programs is None
    assert compile(back).expression_reads == compile(spec).expression_reads


def test_a_bad_program_is_refused():
    with pytest.raises(ProgramError):
        Program.from_json({"format": 99, "kind": "bool", "slots": 0, "reads": [], "root": ["const", 1]})
    with pytest.raises(ProgramError):
        Program.from_json({"format": 1, "kind": "bool", "slots": 0, "reads": [],
                           "root": ["eval", "__import__('os')"]})


SPEC = make_spec(BOARD_DEPOTS)


@pytest.mark.parametrize("text,context,reads", [
    ("card.rank == Ace", "accept", {"card"}),
    ("empty(pile) && top.suit == card.suit", "accept", {"pile", "top", "card"}),
    ("count(discard) > 3", "condition", {"piles"}),
    ("moves + undos * 2 - recycles", "scoring", {"moves", "undos", "recycles_total"}),
    ("cameFrom(hand) == stock", "condition", {"came_from"}),
    ("cameFrom(depot) == stock", "trigger", {"came_from"}),  # the trigger's depot is fixed
    ("empty(depot)", "step", {"depot", "piles"}),  # each depot tested in turn
    ("count(hand) > 0 || true", "condition", set()),  # folded away: nothing is read
    ("index(depot(\"cell-3\")) == 3", "condition", set()),
])
def test_a_program_says_what_it_reads(text, context, reads):
    program = programs_for(SPEC, registry()).get(text, context, "hand")
    assert program.reads == frozenset(reads)


# --- plugin functions declare what they read -------------------------------------------------

def _plugin(reads: frozenset[str] | None) -> types.SimpleNamespace:
    """A plugin with `lastFrom`: what `cameFrom` computes, under another name."""
    def last_from(game: object, state: object, d: int) -> int:
        return state.came_from[d] if d >= 0 else -1  # type: ignore[attr-defined]

    @hookimpl
    def cardz_functions(register):
        register("lastFrom", Function.of(("depot",), "depot", last_from, STATE, reads=reads))
    return types.SimpleNamespace(__name__="last_from_plugin", cardz_functions=cardz_functions)


PYRAMID = Path(__file__).parents[1] / "rulesets" / "pyramid.cardz"


def _keys(an: Analysis) -> tuple[bool, bool, bool, bool]:
    return an.key_recycles, an.key_redeals, an.key_moves, an.key_came_from


def _with_last_from(reads: frozenset[str] | None) -> tuple[object, object]:
    reg = build_registry([_plugin(reads)], entry_points=False)
    text = PYRAMID.read_text()
    assert "cameFrom(" in text
    spec = load_game(text.replace("cameFrom(", "lastFrom("), registry=reg)
    return spec, reg


def test_a_plugin_function_reading_what_came_from_reads_gives_the_same_key():
    original = load_game(PYRAMID)
    spec, reg = _with_last_from(frozenset({"came_from"}))
    assert rule_reads(spec) == rule_reads(original)
    an, an_original = Analysis(spec), Analysis(original)
    assert _keys(an) == _keys(an_original)
    assert an.key_came_from and not an.key_moves
    game = compile(spec, reg)
    assert game.expression_reads == compile(original).expression_reads
    state = game.deal(3)
    moved = state.copy()
    moved.came_from = tuple(0 if i == 0 else c for i, c in enumerate(state.came_from))
    assert moved.came_from != state.came_from
    assert an.key(state) != an.key(moved)  # positions the rules tell apart stay apart


def test_an_undeclared_state_function_is_taken_to_read_everything():
    spec, _ = _with_last_from(None)
    assert rule_reads(spec) >= STATE_READS
    assert _keys(Analysis(spec)) != _keys(Analysis(load_game(PYRAMID)))  # moves join the key


def test_a_game_whose_rules_read_no_counter_gets_a_key_without_them():
    gaps = load_game(Path(__file__).parents[1] / "rulesets" / "gaps.cardz")
    assert rule_reads(gaps) and not rule_reads(gaps) & {"moves", "undos", "came_from", "redeals"}
    an = Analysis(gaps)
    assert not an.key_moves and not an.key_came_from
    key = an.key(compile(gaps).deal(1))
    assert key[4] is None and key[5] is None  # the moves counters and cameFrom are left out


def test_only_state_functions_declare_reads_and_only_state_fields():
    with pytest.raises(ValueError, match="only a STATE function"):
        Function.of(("depot",), "depot", lambda d: d, reads=frozenset({"came_from"}))
    with pytest.raises(ValueError, match="unknown state field"):
        Function.of(("depot",), "depot", lambda g, s, d: d, STATE, reads=frozenset({"cameFrom"}))
