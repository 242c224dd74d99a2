"""The native engine's settling against the Python engine's: actions, redeals, automatic moves,
the step primitives and the cascade limit, on small games written for them and on the bundled
games that have them (docs/engine.md, "Taps" and "Applying a move")."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

import attrs
import pytest
from conftest import LONG, board, mv, pile

from cardz_core.engine import Game, Move, compile
from cardz_core.engine.state import State
from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import StepKind
from cardz_core.limits import MAX_CASCADE
from cardz_core.problems import CardzError
from cardz_core.native import NativeGame, extension, supports
from cardz_core.registry import Registry, build_registry, default_registry
from cardz_core.rulesets import bundled, open_game
from cardz_core.spec import load_game

pytestmark = pytest.mark.skipif(extension() is None, reason="the native extension is not built")

GAMES = {r.path.stem: r.path for r in bundled()}



def reference(path: Path) -> Game:
    """The game on the Python engine, the reference the native engine is compared with (the
    default engine, ``auto``, would compare the native engine with itself)."""
    return compile(load_game(path, file=str(path)), engine="python")

def _settles(game: Game) -> bool:
    c = game.compiled
    return bool(c.redeal or c.triggers or any(c.actions) or any(x is not None for x in c.auto_send)
                or any(x is not None for x in c.auto_refill))


SETTLING = sorted(n for n, g in ((n, open_game(p)) for n, p in GAMES.items())
                  if _settles(g) and supports(g) is None) if extension() is not None else []


def _agree(game: Game, native: NativeGame, state: State, rng: random.Random, moves: int,
           seen: Callable[[State, Move, State], None] = lambda before, move, after: None) -> State:
    """Random play from ``state`` on both engines, compared after every move."""
    for step in range(moves):
        legal = game.legal_moves(state)
        assert native.legal_moves(state) == legal, step
        if not legal:
            break
        move = rng.choice(legal)
        after = game.apply(state, move)
        got = native.apply(state, move)
        assert got == after, (step, move)  # State equality: piles, counters, redeals, rng ...
        seen(state, move, after)
        state = after
    return state


def test_the_bundled_games_that_settle_are_played_natively():
    assert {"canfield", "mrs_mop", "simple_simon", "la_belle_lucie", "trefoil", "cruel"} <= set(SETTLING)


@pytest.mark.parametrize("name", SETTLING)
def test_bundled_games_that_settle_agree_move_for_move(name: str):
    game = reference(GAMES[name])
    native = NativeGame(game)
    redealt = []
    for seed in range(40 if LONG else 4):
        _agree(game, native, game.deal(seed), random.Random(seed), 300,
               lambda before, move, after: redealt.append(after.redeals > before.redeals))
    if game.compiled.redeal:
        assert any(redealt), "random play never redealt: the redeal went untested"


def _game(depots: list[dict[str, Any]], registry: Registry | None = None, **doc: Any) -> Game:
    doc.setdefault("name", "test")
    # the Python engine: the reference each native engine built from it is compared with
    return compile(load_game({**doc, "depots": depots}, registry=registry), registry,
                   engine="python")


STOCK = {"name": "stock", "type": "Stock", "acceptRule": "none", "ejectRule": "locked"}

# every native step primitive but `close_gaps` (triggers only, and triggers need a `when`),
# each in a tap: actions without `when`, and a redeal
PRIMITIVES = [
    {**STOCK, "actions": [{"name": "deal", "do": [
        {"kind": "dealGroup", "to": "column", "faceDown": 1, "faceUp": 1, "roundRobin": True}]}]},
    {"name": "column", "type": "Tableau", "repeat": 3, "autoFlipTop": True,
     "acceptRule": {"build": {"direction": "Down"}, "suit": "AlternateColor"}},
    {"name": "heap", "type": "Reserve", "acceptRule": "any", "ejectRule": "topOnly",
     "actions": [{"name": "mix", "do": [
         {"kind": "shuffle", "depot": "@self"},
         {"kind": "move", "from": "@self", "to": "@self", "count": 2, "under": True},
         {"kind": "flipTop", "depot": "@self"}]}]},
    {"name": "pit", "type": "Waste", "acceptRule": "any", "ejectRule": "topOnly",
     "actions": [{"name": "sweep", "do": [
         {"kind": "gather", "from": ["column", "heap"], "to": "@self"},
         {"kind": "move", "from": "@self", "to": "heap", "count": 5},
         {"kind": "place", "rank": "A", "suit": "S", "to": "well"}]}]},
    {"name": "well", "type": "Foundation", "acceptRule": {"seed": "Ace", "build": {"direction": "Up"}},
     "autoRefill": ["heap"]},
]


def test_every_primitive_plays_as_the_python_executor():
    game = _game(PRIMITIVES, redealRules=[{"kind": "dealGroup", "to": ["heap", "pit"], "faceUp": 2}],
                 maxRedeals=4)
    native = NativeGame(game)
    taps = set()
    for seed in range(30 if LONG else 6):
        _agree(game, native, game.deal(seed), random.Random(seed), 120,
               lambda before, move, after: taps.add(move.src if move.index < 0 else -1))
    assert {game.depot_index[d] for d in ("stock", "heap", "pit")} <= taps


def test_shuffle_continues_the_deals_generator():
    game = _game(PRIMITIVES)
    native = NativeGame(game)
    state = board(game, {"heap": ["AS", "2S", "3S", "4S", "5S", "6S"]}, rng=12345)
    tap = mv(game, "heap", -1, "heap")._replace(dst=-1)
    python, rust = game.apply(state, tap), native.apply(state, tap)
    assert rust == python and rust.rng != state.rng
    assert sorted(pile(game, rust, "heap")) == sorted(pile(game, state, "heap"))


def test_an_action_that_changes_nothing_is_no_tap():
    game = _game(PRIMITIVES)
    native = NativeGame(game)
    bare = board(game, {"well": ["AS"]})  # nothing to deal, shuffle, gather or place
    legal = game.legal_moves(bare)
    assert native.legal_moves(bare) == legal and legal and all(m.index >= 0 for m in legal)
    # one face-down card on the heap: the heap's action turns it up (the shuffle and the cycle
    # of one card change nothing); the pit's gathers it and moves it straight back: no change
    heap = board(game, {"heap": ["~2S"]})
    taps = [m for m in game.legal_moves(heap) if m.index < 0]
    assert native.legal_moves(heap) == game.legal_moves(heap)
    assert [m.src for m in taps] == [game.depot_index["heap"]]


class _Plugin:
    """A third party's step kind with the meaning of a builtin one, mapped to its primitive or
    not mapped at all."""

    def __init__(self, native: str | None) -> None:
        self.native = native

    @hookimpl
    def cardz_deal_steps(self, register: Callable[[str, StepKind], None]) -> None:
        gather = default_registry().lookup("deal_steps", "gather")
        assert gather is not None
        register("sweepUp", attrs.evolve(gather, native=self.native))


def _sweeping(native: str | None) -> Game:
    reg = build_registry([("sweep_plugin", _Plugin(native))], entry_points=False)
    return _game([STOCK, {"name": "pile", "type": "Tableau", "repeat": 2, "acceptRule": "any"}],
                 registry=reg, redealRules=[{"kind": "sweepUp", "from": "pile", "to": "stock"},
                                            {"kind": "dealGroup", "to": "pile"}])


def test_a_plugin_kind_plays_natively_through_the_primitive_it_names():
    game = _sweeping("turn_over_onto")
    assert supports(game) is None
    native = NativeGame(game)
    for seed in range(3):
        _agree(game, native, game.deal(seed), random.Random(seed), 60)


def test_a_kind_without_a_primitive_is_called_back_in_python():
    """Its Python executor runs on the board the native engine hands over: the same play."""
    game = _sweeping(None)
    assert supports(game) is None
    native = NativeGame(game)
    for seed in range(3):
        _agree(game, native, game.deal(seed), random.Random(seed), 60)


def _refilling() -> Game:
    return _game([STOCK, {"name": "x", "type": "Tableau", "autoRefill": ["y"]},
                  {"name": "y", "type": "Tableau", "autoRefill": ["x"]},
                  {"name": "z", "type": "Tableau", "autoFlipTop": True}])


def test_two_depots_refilling_each_other_stop_at_the_limit_on_both_engines():
    game = _refilling()
    native = NativeGame(game)
    start = board(game, {"z": ["~2S", "AS"]})
    move = mv(game, "z", 1, "x")
    assert move in native.legal_moves(start)
    python, rust = game.apply(start, move), native.apply(start, move)
    assert rust == python
    assert MAX_CASCADE % 2 == 0  # an even number of refills: the Ace is back on x
    assert pile(game, rust, "x") == ["AS"] and pile(game, rust, "z") == ["2S"]
    assert native.legal_moves(rust) == game.legal_moves(python) != []


def test_the_limit_is_the_plans(monkeypatch: pytest.MonkeyPatch):
    """Both engines read the one limit (``limits.MAX_CASCADE``): at an odd limit the Ace ends
    on y."""
    import cardz_core.engine.play as play
    import cardz_core.limits as limits

    monkeypatch.setattr(play, "MAX_CASCADE", 7)
    monkeypatch.setattr(limits, "MAX_CASCADE", 7)
    game = _refilling()
    native = NativeGame(game)
    start = board(game, {"z": ["AS"]})
    move = mv(game, "z", 0, "x")
    python, rust = game.apply(start, move), native.apply(start, move)
    assert rust == python and pile(game, rust, "y") == ["AS"]


def _native_or_skip(game: Game) -> NativeGame:
    """The native engine for ``game``; skipped only while the extension runs no expressions
    (the branch before the expression interpreter): any other refusal fails."""
    why = supports(game)
    if why is not None and "expression" in why and "not run natively" in why:
        pytest.skip(f"expressions are not run natively here: {why}")
    return NativeGame(game)


def _looping_triggers() -> Game:
    return _game([STOCK, {"name": "src", "type": "Reserve", "acceptRule": "none"},
                  {"name": "x", "type": "Tableau", "acceptRule": "any", "ejectRule": "locked",
                   "triggers": [{"when": "!empty(y)", "do": [{"kind": "move", "from": "y", "to": "@self"}]}]},
                  {"name": "y", "type": "Tableau", "acceptRule": "none", "ejectRule": "locked",
                   "triggers": [{"when": "!empty(x)", "do": [{"kind": "move", "from": "x", "to": "@self"}]}]}])


def test_triggers_that_loop_stop_at_the_limit_on_both_engines():
    game = _looping_triggers()
    native = _native_or_skip(game)
    start = board(game, {"src": ["AS"]})
    move = mv(game, "src", 0, "x")
    python, rust = game.apply(start, move), native.apply(start, move)
    assert rust == python and python.moves == 1
    assert native.legal_moves(rust) == game.legal_moves(python)


def test_an_expression_error_while_settling_is_the_python_engines_error():
    """A trigger's ``when`` past the number limit once its depot holds two cards: the same
    CardzError, at the same pointer, from both engines."""
    game = _game([STOCK, {"name": "a", "type": "Tableau", "acceptRule": "any"},
                  {"name": "b", "type": "Tableau", "acceptRule": "any",
                   "triggers": [{"when": "count(depot) * 9007199254740991 < 0",
                                 "do": [{"kind": "flipTop", "depot": "@self"}]}]}])
    native = _native_or_skip(game)
    start = board(game, {"a": ["AS"], "b": ["2S"]})
    move = mv(game, "a", 0, "b")
    errors = []
    for engine in (game, native):
        with pytest.raises(CardzError) as err:
            engine.apply(start, move)
        errors.append([(p.path, p.message) for p in err.value.problems])
    assert errors[0] == errors[1] and errors[0][0][0] == "/depots/2/triggers/0/when"
