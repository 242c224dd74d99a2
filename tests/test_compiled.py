"""The compiled game is plain data with an exact serialised form: for every bundled game,
``from_json(to_json(c)) == c`` through JSON text, and a ``Game`` built from the loaded form
plays the same seeded games as one built from the spec."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardz_core.compiled import CompiledGame, ExprRef, StepData, compile as compile_game
from cardz_core.engine import PLAYING, compile
from cardz_core.engine.game import Game
from cardz_core.expr import rule_reads
from cardz_core.problems import CardzError
from cardz_core.registry import default_registry
from cardz_core.spec import load_game
from cardz_core.view import deck_info

RULESETS = sorted((Path(__file__).resolve().parents[1] / "rulesets").glob("*.cardz"))
JSON_TYPES = (type(None), bool, int, str)


def json_safe(value: Any) -> bool:
    if isinstance(value, list):
        return all(json_safe(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_safe(v) for k, v in value.items())
    return isinstance(value, JSON_TYPES)


def play(game: Any, seed: int, moves: int) -> list[Any]:
    rng = random.Random(seed)
    state = game.deal(seed)
    seen = [state]
    for _ in range(moves):
        legal = game.legal_moves(state)
        if state.status != PLAYING or not legal:
            break
        state = game.apply(state, legal[rng.randrange(len(legal))])
        seen.append(state)
    return seen


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_round_trip_and_same_play(path):
    reg = default_registry()
    spec = load_game(path, file=str(path))
    compiled = compile_game(spec, reg)
    doc = compiled.to_json()
    assert json_safe(doc)
    loaded = CompiledGame.from_json(json.loads(json.dumps(doc)))
    assert loaded == compiled
    original, rebuilt = compile(spec, reg), Game(loaded, reg, spec)
    assert original.compiled == compiled
    for seed in (1, 2):
        assert play(original, seed, 60) == play(rebuilt, seed, 60)


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_pools_and_roles_agree_with_the_view_and_the_types(path):
    reg = default_registry()
    game = compile(load_game(path, file=str(path)), reg)
    info = deck_info(game)
    assert (game.compiled.card_pool, game.compiled.n_pools) == (info.origin, info.n_pools)
    assert game.roles == tuple(reg.lookup("depot_types", d.type).role for d in game.spec.depots)


def test_arguments_are_resolved_to_depot_indices():
    path = next(p for p in RULESETS if p.stem == "cruel")
    compiled = compile_game(load_game(path, file=str(path)), default_registry())
    gather, deal = compiled.redeal
    stock = compiled.depot_names.index("stock")
    piles = tuple(i for i, n in enumerate(compiled.depot_names) if n.startswith("pile-"))
    assert (gather.kind, gather.args["from"], gather.args["to"]) == ("gather", piles, stock)
    assert deal.args["from"] == stock == compiled.first_stock  # omitted: the first stock
    assert isinstance(deal, StepData) and deal.args["to"] == piles


def test_expressions_are_held_with_their_context_and_self_depot():
    path = next(p for p in RULESETS if p.stem == "round_the_loop")
    compiled = compile_game(load_game(path, file=str(path)), default_registry())
    refs = [a.when for acts in compiled.actions for a in acts if a.when is not None]
    refs += [t.when for t in compiled.triggers]
    assert refs and all(isinstance(r, ExprRef) and r.self_depot >= 0 and r.ptr.startswith("/depots/")
                        and r.context in ("action", "trigger") for r in refs)


def test_a_document_of_another_shape_is_refused():
    path = RULESETS[0]
    doc = compile_game(load_game(path, file=str(path)), default_registry()).to_json()
    with pytest.raises(CardzError, match="format"):
        CompiledGame.from_json({**doc, "format": "cardz-compiled/0"})
    del doc["win"]
    with pytest.raises(CardzError, match="missing \\['win'\\]"):
        CompiledGame.from_json(doc)
    doc["win"] = {"$": "Spell", "kind": "x"}
    with pytest.raises(CardzError, match="'Spell'"):
        CompiledGame.from_json(doc)


def compiled_named(stem: str) -> CompiledGame:
    path = next(p for p in RULESETS if p.stem == stem)
    return compile_game(load_game(path, file=str(path)), default_registry())


def test_conditions_hold_their_kinds_facts_with_empties_resolved():
    klondike = compiled_named("klondike")
    foundations = tuple(i for i, r in enumerate(klondike.roles) if r == "foundation")
    win = klondike.win
    assert win is not None and win.args["depots"] == foundations
    assert win.empties == tuple(i for i in range(klondike.n_depots) if i not in foundations)
    assert (win.stalemate, win.nested, win.reads) == (False, False, ("piles",))
    assert win.depot_fields == win.pattern_fields == ("depots",)
    golf = compiled_named("golf")
    assert golf.win is not None and golf.win.empties == golf.win.args["depots"]  # depotsEmpty
    assert golf.loss is not None and golf.loss.stalemate and golf.loss.empties is None
    assert golf.loss.reads == ("counters", "faces", "piles") and golf.loss.depot_fields == ()


def test_steps_hold_their_kinds_facts():
    cruel = compiled_named("cruel")
    gather, deal = cruel.redeal
    assert (gather.takes_from, gather.lands_on, gather.moves_cards) == (("from",), ("to",), True)
    assert "from" in deal.stock_default and not deal.from_stock
    assert set(deal.depot_fields) >= {"from", "to"} and deal.reads == tuple(sorted(deal.reads))


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_rule_reads_are_those_of_the_programs_the_compiled_game_holds(path):
    spec = load_game(path, file=str(path))
    compiled = compile_game(spec, default_registry())
    assert compiled.rule_reads() == rule_reads(spec)
    assert all(isinstance(r, ExprRef) for r in compiled.expressions())


def test_a_game_shuffles_in_play_when_a_redeal_trigger_or_action_step_shuffles() -> None:
    shuffling = {p.stem for p in RULESETS
                 if compile_game(load_game(p), default_registry()).shuffles_in_play()}
    assert shuffling == {"gaps", "la_belle_lucie", "trefoil"}  # their redeals; the deal's own
    # shuffle comes before any move, so no other game counts
    doc = json.loads((RULESETS[0].parent / "golf.cardz").read_text(encoding="utf-8"))
    mix = {"name": "mix", "do": [{"kind": "shuffle", "depot": "column-1"}]}
    doc["depots"][2]["actions"] = [mix]
    assert compile_game(load_game(doc), default_registry()).shuffles_in_play()
