"""The native engine against the Python engine, the reference: seeded random play of every
bundled game the native engine supports, comparing after every move the legal moves in order,
the position and the status; a few games here, many with CARDZ_LONG=1. Skipped only where the
extension is not built (.ci/run builds it)."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest
from conftest import LONG

from cardz_core.engine import Game, IllegalMove, Move, State, compile
from cardz_core.engine.rng import below
from cardz_core.engine.state import PLAYING, Status
from cardz_core.native import (NativeEngineGame, NativeGame, NotNative, extension, plan_document,
                               supports)
from cardz_core.problems import CardzError
from cardz_core.rulesets import bundled, open_game
from cardz_core.spec import load_game
from cardz_core.spec.model import GameSpec
from cardz_vocabulary.conditions import CONDITION_KINDS

pytestmark = pytest.mark.skipif(extension() is None, reason="the native extension is not built")

GAMES = {r.path.stem: r.path for r in bundled()}
SUPPORTED = sorted(n for n, p in GAMES.items() if supports(open_game(p)) is None) \
    if extension() is not None else []
DEALS = 200 if LONG else 3
MAX_MOVES = 400


def test_klondike_and_freecell_are_supported():
    assert {"klondike", "klondike_draw3", "freecell"} <= set(SUPPORTED)
    assert len(SUPPORTED) >= 30


@pytest.mark.parametrize("name", SUPPORTED)
def test_random_play_agrees_with_the_python_engine(name: str):
    game = open_game(GAMES[name])
    native = NativeGame(game)
    for seed in range(DEALS):
        state, rng = game.deal(seed), random.Random(seed)
        for step in range(MAX_MOVES):
            moves = game.legal_moves(state)
            assert native.legal_moves(state) == moves, (seed, step)
            if not moves:
                break
            move = rng.choice(moves)
            after = game.apply(state, move)
            got = native.apply(state, move)
            assert got == after and type(got.status) is Status, (seed, step, move)
            assert native.status(got) == game.status(after), (seed, step, move)
            assert _score(native, after) in (game.score_value(after), "left to Python")
            state = after


@pytest.mark.parametrize("name", [
    ("spider", "it has redeal"),
    ("giza", "it has triggers"),
    ("canfield", "it has auto_refill"),
], ids=lambda x: x[0])
def test_supports_refuses_what_it_cannot_run_saying_why(name: tuple[str, str]):
    stem, why = name
    game = open_game(GAMES[stem])
    assert supports(game) == why
    with pytest.raises(CardzError, match="the native engine can't play"):
        NativeGame(game)


def test_every_builtin_condition_names_its_native_primitive():
    assert {name: kind.native for name, kind in CONDITION_KINDS.items()} == {
        "allCardsIn": "empty", "allCardsFaceUp": "all_face_up", "depotsEmpty": "empty",
        "depotsNonEmpty": "non_empty", "allOf": "all_of", "anyOf": "any_of", "expr": "expr",
        "noLegalMoves": "stalemate"}
    compiled = open_game(GAMES["klondike"]).compiled
    assert compiled.win is not None and compiled.win.native == "empty"
    assert compiled.loss is not None and compiled.loss.native == "stalemate"


def test_a_condition_of_no_native_primitive_keeps_the_game_on_python():
    game = open_game(GAMES["freecell"])
    doc = plan_document(game)
    doc["compiled"]["win"]["native"] = None
    with pytest.raises(ValueError, match='its win condition: the condition "allCardsIn" is '
                                         'not judged natively'):
        extension().Engine(json.dumps(doc))


def _wild_game(declares: str) -> Game:
    """Four columns building down in suit, jokers and Eights wild, declaring ``declares``."""
    cols = {"name": "col", "type": "Tableau", "repeat": 4, "ejectRule": "faceUp",
            "acceptRule": {"build": {"direction": "Down"}, "suit": "Same", "wildJoker": True,
                           "wildRank": "Eight", "wildDeclares": declares}}
    return compile(load_game({"name": "wilds", "depots": [
        {"name": "stock", "type": "Stock", "acceptRule": "none", "ejectRule": "locked"}, cols],
        "decks": [{"jokers": 2}]}))


@pytest.mark.parametrize("declares", ["none", "free", "transparent", "suit"])
def test_wild_cards_play_as_the_python_engine_plays_them(declares: str):
    """Random boards of a game with wild cards: the same moves (a suit-calling wild once per
    suit), and the same position after each."""
    game = _wild_game(declares)
    native = NativeGame(game)
    rng = random.Random(declares)
    n = game.n_depots
    for _ in range(60):
        ids = list(range(game.n_cards))
        rng.shuffle(ids)
        piles = [tuple(ids[k] << 1 | (rng.random() < 0.85) for k in range(c * 5, c * 5 + 5))
                 if c else () for c in range(n)]
        declared = tuple(rng.choice((-1, -1, 0, 1, 2, 3)) for _ in range(n))
        state = State(tuple(piles), (-1,) * n, (0,) * n, declared=declared, cards=game.identity)
        moves = game.legal_moves(state)
        assert native.legal_moves(state) == moves
        for move in moves:
            assert native.apply(state, move) == game.apply(state, move), move
        # any move, judged alone (not from a listing of this state object): legal exactly
        # when the Python engine gives no reason against it
        for _ in range(40):
            src = rng.randrange(-1, n + 1)
            move = Move(src, rng.randrange(-1, 6), rng.randrange(-1, n + 1), rng.randrange(-1, 5))
            fresh = state.copy()
            try:
                native.apply(fresh, move)
                assert game.illegal_reason(state, move) is None, move
            except IllegalMove as err:
                assert str(err) == game.illegal_reason(state, move), move


def _score(native: NativeGame, state: State) -> int | None | str:
    try:
        return native.score_value(state)
    except NotNative:
        return "left to Python"


def test_an_illegal_move_gives_the_python_engines_reason():
    game = open_game(GAMES["klondike"])
    native, state = NativeGame(game), game.deal(1)
    bad = Move(0, 0, 1)  # from the stock, which is locked
    with pytest.raises(IllegalMove) as err:
        native.apply(state, bad)
    assert str(err.value) == game.illegal_reason(state, bad)
    # a move not listed from this state object is judged natively too
    legal = game.legal_moves(state)[0]
    assert native.apply(game.deal(1), legal) == game.apply(state, legal)


def test_views_and_rules_off_are_refused():
    game = open_game(GAMES["klondike"])
    native, state = NativeGame(game), game.deal(2)
    with pytest.raises(CardzError, match="not views"):
        native.legal_moves(game.view(state))
    with pytest.raises(CardzError, match="rules off"):
        native.legal_moves(game.set_rules(state, False))


def _python_playout(game: Game, state: State, rng: int, max_moves: int) -> tuple[int, int, Status]:
    """The native playout's algorithm on the Python engine: each move drawn by the engine's
    splitmix64 generator (``rng.below``), one stream game after game."""
    made = 0
    while made < max_moves:
        moves = game.legal_moves(state)
        if not moves:
            break
        rng, k = below(rng, len(moves))
        state = game.apply(state, moves[k])
        made += 1
    return rng, made, state.status


@pytest.mark.parametrize("name", ["freecell", "klondike_draw3", "golf"])
def test_playouts_play_as_the_python_engine_would(name: str):
    game = open_game(GAMES[name])
    native = NativeGame(game)
    states = [game.deal(s) for s in range(4)]
    got = native.playouts(states, 7, 250)
    rng, want = 7, []
    for state in states:
        rng, made, status = _python_playout(game, state, rng, 250)
        want.append((made, status))
    assert got == want
    assert got == native.playouts(states, 7, 250)  # deterministic
    assert native.playouts(states, 7, 0) == [(0, PLAYING)] * 4


def test_a_bad_position_is_an_error_not_a_crash():
    game = open_game(GAMES["freecell"])
    native, state = NativeGame(game), game.deal(3)
    broken = state.copy()
    broken.piles = state.piles[:-1]
    with pytest.raises(CardzError, match="depots"):
        native.legal_moves(broken)
    broken.piles = ((999,),) + state.piles[1:]
    with pytest.raises(CardzError, match="does not have"):
        native.playouts([broken], 1, 10)
    broken.piles = ((-2,),) + state.piles[1:]  # an unknown card, as in a view
    with pytest.raises(NotNative, match="unknown cards"):
        native.apply(broken, Move(0, 0, 1))


def _spec(stem: str) -> GameSpec:
    return load_game(GAMES[stem], file=str(GAMES[stem]))


def test_the_engine_is_chosen_at_compile():
    assert type(compile(_spec("klondike"))) is Game  # python stays the default
    native = compile(_spec("klondike"), engine="native")
    assert isinstance(native, NativeEngineGame)
    assert type(compile(_spec("spider"), engine="auto")) is Game
    assert isinstance(compile(_spec("freecell"), engine="auto"), NativeEngineGame)
    with pytest.raises(CardzError, match="can't play Spider.*: its redeal condition"):
        compile(_spec("spider"), engine="native")
    with pytest.raises(CardzError, match="no engine 'rust'"):
        compile(_spec("klondike"), engine="rust")


def test_cardz_engine_chooses_for_every_compile(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CARDZ_ENGINE", "native")
    assert isinstance(open_game("klondike_draw3"), NativeEngineGame)
    with pytest.raises(CardzError, match="native engine can't play"):
        open_game("spider")
    monkeypatch.setenv("CARDZ_ENGINE", "auto")
    assert type(open_game("spider")) is Game


def test_a_native_game_plays_views_and_the_rules_off_in_python():
    python, native = compile(_spec("klondike")), compile(_spec("klondike"), engine="native")
    state = python.deal(5)
    view = python.view(state)
    assert native.legal_moves(view) == python.legal_moves(view)
    move = python.legal_moves(state)[0]
    assert native.apply(state, move) == python.apply(state, move)
    off = python.set_rules(state, False)
    assert native.legal_moves(off) == python.legal_moves(off)
    unknown = state.copy()  # unknown face-down cards without the view's pools
    unknown.piles = tuple(tuple(c if c & 1 else -2 for c in p) for p in state.piles)
    assert native.legal_moves(unknown) == python.legal_moves(unknown)


@pytest.mark.parametrize("first", ["cardz_core.native", "cardz_core.engines", "cardz_core.engine"])
def test_each_module_imports_first(first: str):
    """The engine choice, the native engine and the engine import one another only lazily."""
    code = f"import {first}; from cardz_core.engine import compile; print(compile.__name__)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "compile", done.stderr
