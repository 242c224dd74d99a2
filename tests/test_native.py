"""The native engine against the Python engine, the reference, beyond the bundled games' random
play (which tests/test_differential.py compares): plugin call-backs, wild cards, errors, views
refused, positions held natively, undo keys, playouts. Skipped only where the extension is not
built (.ci/run builds it)."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Callable

import attrs
import pytest
from conftest import LONG, run_cli

from cardz_core.engine import Game, IllegalMove, Move, State, compile
from cardz_core.expr import Each, Function, FunctionError
from cardz_core.hookspecs import hookimpl
from cardz_core.engine.rng import below
from cardz_core.engines import engine_of
from cardz_core.engine.state import PLAYING, Status
from cardz_core.native import (NativeEngineGame, NativeGame, NativeState, NotNative, extension,
                               plan_document,
                               supports)
from cardz_core.problems import CardzError
from cardz_core.registry import Registry, build_registry
from cardz_core.rulesets import bundled, open_game
from cardz_core.spec import load_game
from cardz_core.spec.model import GameSpec
from cardz_vocabulary.conditions import CONDITION_KINDS

pytestmark = pytest.mark.skipif(extension() is None, reason="the native extension is not built")

GAMES = {r.path.stem: r.path for r in bundled()}
TURNABOUT = Path(__file__).parents[1] / "plugins" / "example_turnabout" / "turnabout.cardz"
SUPPORTED = sorted(n for n, p in GAMES.items() if supports(open_game(p)) is None) \
    if extension() is not None else []
DEALS = 200 if LONG else 3
MAX_MOVES = 400


def reference(path: Path) -> Game:
    """The game on the Python engine, the reference the native engine is compared with (the
    default engine, ``auto``, would compare the native engine with itself)."""
    return compile(load_game(path, file=str(path)), engine="python")


def test_every_bundled_game_is_supported():
    assert SUPPORTED == sorted(GAMES)


def _turnabout() -> tuple[GameSpec, Registry]:
    """The example plugin's game: its ``reverse`` step kind and its ``ringGap`` function name
    no native primitive, so the native engine calls them back in Python."""
    reg = build_registry(["example_turnabout"], entry_points=False)
    return load_game(TURNABOUT, registry=reg), reg


def _unjudged() -> tuple[GameSpec, Registry]:
    """FreeCell won by a plugin's condition kind (``allCardsIn``'s facts and test) that names
    no native primitive: no call-back judges a condition, so it stays on the Python engine."""
    @hookimpl
    def cardz_conditions(register: Any) -> None:
        register("everyCardIn", attrs.evolve(CONDITION_KINDS["allCardsIn"], native=None))
    reg = build_registry([types.SimpleNamespace(__name__="every_card_in",
                                                cardz_conditions=cardz_conditions)],
                         entry_points=False)
    doc = json.loads(GAMES["freecell"].read_text())
    doc["winCondition"]["kind"] = "everyCardIn"
    return load_game(doc, registry=reg), reg


UNJUDGED_WHY = 'its win condition: the condition "everyCardIn" is not judged natively'
TURNABOUT_BACKS = "it calls back Python for ringGap, the reverse step (no native primitive)"


def test_supports_refuses_what_it_cannot_run_saying_why():
    spec, reg = _unjudged()
    game = compile(spec, reg, engine="python")
    assert supports(game) == UNJUDGED_WHY
    with pytest.raises(CardzError, match="the native engine can't play"):
        NativeGame(game)


def _alongside(python: Game, native: Game, seeds: range) -> list[Move]:
    """Seeded random play of deals ``seeds`` on both engines, asserting after every move that
    they list the same moves and reach the same position, status and score; the moves made."""
    played = []
    for seed in seeds:
        state, rng = python.deal(seed), random.Random(seed)
        assert native.deal(seed) == state, seed
        for step in range(MAX_MOVES):
            moves = python.legal_moves(state)
            assert native.legal_moves(state) == moves, (seed, step)
            if not moves:
                break
            move = rng.choice(moves)
            after = python.apply(state, move)
            got = native.apply(state, move)
            assert got == after and native.status(got) == python.status(after), (seed, step)
            assert native.score_value(got) == python.score_value(after), (seed, step)
            played.append(move)
            state = after
    return played


def test_plugin_functions_and_steps_are_called_back_in_python():
    """Turnabout runs natively, its ``ringGap`` and ``reverse`` called back: the same moves
    and positions as the Python engine's, and it says so."""
    spec, reg = _turnabout()
    python, native = compile(spec, reg, engine="python"), compile(spec, reg, engine="native")
    assert engine_of(native) == ("native", TURNABOUT_BACKS)
    reverse = Move(python.depot_index["turner"], -1, -1)
    assert reverse in _alongside(python, native, range(DEALS + 2))


def _pyramid_with(last_from: Callable[..., Any]) -> Game:
    """Pyramid with ``cameFrom`` called ``lastFrom``, a plugin's STATE function of no
    native primitive, on the native engine."""
    @hookimpl
    def cardz_functions(register: Any) -> None:
        register("lastFrom", Function.of(("depot",), "depot", last_from, "state"))
    reg = build_registry([types.SimpleNamespace(__name__="last_from", cardz_functions=cardz_functions)],
                         entry_points=False)
    text = GAMES["pyramid"].read_text().replace("cameFrom(", "lastFrom(")
    return compile(load_game(text, registry=reg), reg, engine="native")


def test_a_state_function_is_called_back_with_the_position():
    game = _pyramid_with(lambda tables, state, d: state.came_from[d] if d >= 0 else -1)
    assert engine_of(game) == ("native", "it calls back Python for lastFrom (no native primitive)")
    _alongside(reference(GAMES["pyramid"]), game, range(4, 5))


def test_a_python_call_backs_error_is_raised_as_it_was():
    def failing(tables: Any, state: State, d: int) -> int:
        raise FunctionError("no memory today")

    game = _pyramid_with(failing)
    state = game.deal(1)
    with pytest.raises(FunctionError, match="no memory today"):
        for move in game.legal_moves(state):
            game.apply(state, move)


# Osmosis calling the test plugin's functions (tests/kinds_plugin.py), none of which names a
# native primitive: ``someOf`` for ``any`` (a per-item argument), and ``nameOf``'s text (of the
# source, known only while playing) read back by the native ``depot`` and by ``depotCalled``,
# a call-back taking a text: the same rules, every call called back.
CALLED_BACK = ("depot(nameOf(source)) == source && depotCalled(nameOf(source)) == source && "
               "(index(depot) == 1 || someOf(")
CALLED_BACK_WHY = "it calls back Python for depotCalled, nameOf, someOf (no native primitive)"


def _osmosis_called_back(when: str = CALLED_BACK) -> tuple[str, Registry]:
    text = GAMES["osmosis"].read_text()
    assert text.count("(index(depot) == 1 || any(") == 1
    return text.replace("(index(depot) == 1 || any(", when), \
        build_registry(["kinds_plugin"], entry_points=False)


def _both_engines(text: str, reg: Registry) -> tuple[Game, Game]:
    spec = load_game(text, registry=reg)
    return compile(spec, reg, engine="python"), compile(spec, reg, engine="native")


def test_per_item_and_text_functions_are_called_back_in_python():
    """Functions of every kind run natively through call-backs: the same moves, positions,
    status and score after every move as the Python engine's, and engine_of says so."""
    python, native = _both_engines(*_osmosis_called_back())
    assert engine_of(native) == ("native", CALLED_BACK_WHY)
    assert supports(python) is None
    assert _alongside(python, native, range(DEALS + 2))


def test_check_json_names_the_functions_called_back(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path):
    import cardz_core.registry

    monkeypatch.delenv("CARDZ_ENGINE", raising=False)
    text, reg = _osmosis_called_back()
    monkeypatch.setattr(cardz_core.registry, "_default", reg)
    path = tmp_path / "osmosis_called_back.cardz"
    path.write_text(text)
    code, out, _ = run_cli(capsys, "check", "--json", str(path))
    assert code == 0
    assert [r["message"] for r in json.loads(out) if r["severity"] == "info"] == [
        f"runs on the native engine; {CALLED_BACK_WHY}"]


def _first_error(game: Game, deals: int = 3) -> BaseException | None:
    """The error seeded random play of ``game`` meets first, None if it meets none."""
    try:
        for seed in range(deals):
            _played(game, seed, MAX_MOVES)
    except Exception as exc:  # noqa: BLE001 (compared between the engines)
        return exc
    return None


@pytest.mark.parametrize("when", [
    # a per-item argument's error, raised inside the Python implementation's call
    "(index(depot) == 1 || someOf(c in pile, c.rank * 9007199254740991 > 1) || someOf(",
    # a call-back's text naming no depot, read by the native `depot` and by a call-back
    "index(depot(nameOf(cameFrom(depot)))) >= 0 && (index(depot) == 1 || someOf(",
    "index(depotCalled(nameOf(cameFrom(depot)))) >= 0 && (index(depot) == 1 || someOf(",
])
def test_a_called_back_functions_errors_are_the_python_engines(when: str):
    python, native = _both_engines(*_osmosis_called_back(when))
    want, got = _first_error(python), _first_error(native)
    assert want is not None and type(got) is type(want)
    assert (str(got), getattr(got, "problems", None)) == (str(want), getattr(want, "problems", None))


def test_a_per_item_argument_works_only_while_its_call_runs():
    """The callable a per-item argument is handed as works the argument out while the call
    runs; kept and called later, it refuses."""
    kept: list[Callable[[int], Any]] = []

    def keeping(items: tuple[int, ...], holds: Callable[[int], Any]) -> bool:
        kept.append(holds)
        return any(holds(i) for i in items)

    @hookimpl
    def cardz_functions(register: Any) -> None:
        register("someOf", Function.of(("items", Each(0, "bool")), "bool", keeping))
    reg = build_registry([types.SimpleNamespace(__name__="keeping", cardz_functions=cardz_functions)],
                         entry_points=False)
    python, native = _both_engines(_osmosis_called_back("(index(depot) == 1 || someOf(")[0], reg)
    state = native.deal(2)
    assert native.legal_moves(state) == python.legal_moves(state) and kept
    with pytest.raises(CardzError, match="a per-item argument is called after the call it was "
                                         "made for"):
        kept[0](1)


def test_every_builtin_condition_names_its_native_primitive():
    assert {name: kind.native for name, kind in CONDITION_KINDS.items()} == {
        "allCardsIn": "empty", "allCardsFaceUp": "all_face_up", "depotsEmpty": "empty",
        "depotsNonEmpty": "non_empty", "allOf": "all_of", "anyOf": "any_of", "expr": "expr",
        "noLegalMoves": "stalemate"}
    compiled = open_game(GAMES["klondike"]).compiled
    assert compiled.win is not None and compiled.win.native == "empty"
    assert compiled.loss is not None and compiled.loss.native == "stalemate"


def test_a_condition_of_no_native_primitive_keeps_the_game_on_python():
    game = reference(GAMES["freecell"])
    doc = plan_document(game)
    doc["compiled"]["win"]["native"] = None
    with pytest.raises(ValueError, match='its win condition: the condition "allCardsIn" is '
                                         'not judged natively'):
        extension().Engine(json.dumps(doc), Move, NativeState, tuple(Status), game.identity)


def _wild_game(declares: str) -> Game:
    """Four columns building down in suit, jokers and Eights wild, declaring ``declares``."""
    cols = {"name": "col", "type": "Tableau", "repeat": 4, "ejectRule": "faceUp",
            "acceptRule": {"build": {"direction": "Down"}, "suit": "Same", "wildJoker": True,
                           "wildRank": "Eight", "wildDeclares": declares}}
    return compile(load_game({"name": "wilds", "depots": [
        {"name": "stock", "type": "Stock", "acceptRule": "none", "ejectRule": "locked"}, cols],
        "decks": [{"jokers": 2}]}), engine="python")


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


def test_an_illegal_move_gives_the_python_engines_reason():
    game = reference(GAMES["klondike"])
    native, state = NativeGame(game), game.deal(1)
    bad = Move(0, 0, 1)  # from the stock, which is locked
    with pytest.raises(IllegalMove) as err:
        native.apply(state, bad)
    assert str(err.value) == game.illegal_reason(state, bad)
    # a move not listed from this state object is judged natively too
    legal = game.legal_moves(state)[0]
    assert native.apply(game.deal(1), legal) == game.apply(state, legal)


def test_views_and_rules_off_are_refused():
    game = reference(GAMES["klondike"])
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
    game = reference(GAMES[name])
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
    game = reference(GAMES["freecell"])
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


def test_the_engine_is_chosen_at_compile(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("CARDZ_ENGINE", raising=False)
    assert isinstance(compile(_spec("klondike")), NativeEngineGame)  # auto is the default
    assert engine_of(compile(_spec("klondike"))) == ("native", None)
    assert type(compile(_spec("klondike"), engine="python")) is Game
    native = compile(_spec("klondike"), engine="native")
    assert isinstance(native, NativeEngineGame)
    spec, reg = _unjudged()
    assert type(compile(spec, reg, engine="auto")) is Game
    assert engine_of(compile(spec, reg)) == ("python", UNJUDGED_WHY)
    assert isinstance(compile(_spec("freecell"), engine="auto"), NativeEngineGame)
    with pytest.raises(CardzError, match=f"can't play FreeCell: {UNJUDGED_WHY}"):
        compile(spec, reg, engine="native")
    with pytest.raises(CardzError, match="no engine 'rust'"):
        compile(_spec("klondike"), engine="rust")
    monkeypatch.setenv("CARDZ_ENGINE", "python")
    assert engine_of(compile(_spec("klondike"))) == ("python", "CARDZ_ENGINE=python asks for it")


def test_check_and_games_json_say_which_engine(capsys: pytest.CaptureFixture[str],
                                               monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("CARDZ_ENGINE", raising=False)
    code, out, _ = run_cli(capsys, "check", "--json", "klondike", "spider")
    assert code == 0 and json.loads(out) == [
        {"file": name, "path": "", "message": "runs on the native engine", "severity": "info"}
        for name in ("klondike", "spider")]
    code, out, _ = run_cli(capsys, "games", "--json", "--family", "freecell")
    assert {(r["engine"], r["engine_reason"]) for r in json.loads(out)} == {("native", None)}
    monkeypatch.setenv("CARDZ_ENGINE", "python")
    code, out, _ = run_cli(capsys, "games", "--json", "--family", "spider")
    rows = json.loads(out)
    assert code == 0 and rows and {r["engine"] for r in rows} == {"python"}
    assert {r["engine_reason"] for r in rows} == {"CARDZ_ENGINE=python asks for it"}


def test_cardz_engine_chooses_for_every_compile(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("CARDZ_ENGINE", "native")
    assert isinstance(open_game("klondike_draw3"), NativeEngineGame)
    spec, reg = _unjudged()
    with pytest.raises(CardzError, match="native engine can't play"):
        compile(spec, reg)
    monkeypatch.setenv("CARDZ_ENGINE", "auto")
    assert type(compile(spec, reg)) is Game


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


def _played(game: Game, seed: int, steps: int) -> list[State]:
    """The positions of ``steps`` seeded random moves from deal ``seed`` (fewer if it ends)."""
    rng, out = random.Random(seed), [game.deal(seed)]
    for _ in range(steps):
        moves = game.legal_moves(out[-1])
        if not moves:
            break
        out.append(game.apply(out[-1], rng.choice(moves)))
    return out


def test_native_states_are_states_of_the_same_position():
    python, native = compile(_spec("klondike_draw3")), compile(_spec("klondike_draw3"), engine="native")
    plain, held = _played(python, 4, 60), _played(native, 4, 60)
    assert all(type(s) is NativeState for s in held)
    for p, h in zip(plain, held):
        assert h == p and p == h and hash(h) == hash(p) and h.key() == p.key()
        assert repr(h) == repr(p)
    assert held[1] != held[2] and held[3] == native.native.native_state(plain[3])
    copied = held[-1].copy()
    assert type(copied) is State and copied == plain[-1]
    loaded = pickle.loads(pickle.dumps(held[-1]))
    assert type(loaded) is State and loaded == plain[-1] and loaded.cards == plain[-1].cards
    assert python.board_document(held[-1]) == python.board_document(plain[-1])
    assert python.view(held[-1]) == python.view(plain[-1])


def test_setting_a_field_of_a_native_state_drops_its_handle():
    native = compile(_spec("klondike_draw3"), engine="native")
    state = _played(native, 2, 5)[-1]
    piles = state.piles
    state.moves = 0
    assert state._pos is None and state.moves == 0 and state.piles == piles
    # played again from its fields, as any State
    python = compile(_spec("klondike_draw3"))
    assert native.legal_moves(state) == python.legal_moves(state)
    move = native.legal_moves(state)[0]
    assert native.apply(state, move) == python.apply(state, move)


def test_undo_keys_expand_and_the_same_move_objects():
    python, native = compile(_spec("freecell")), compile(_spec("freecell"), engine="native")
    held, plain = _played(native, 6, 30), _played(python, 6, 30)
    for i in range(1, len(held)):
        undone = native.undo(held[i - 1], held[i])
        assert type(undone) is NativeState and undone == python.undo(plain[i - 1], plain[i])
    engine = native.native
    state = held[-1]
    assert native.legal_moves(state)[0] is native.legal_moves(held[-1])[0]
    assert engine.key64(state) == engine.key64(plain[-1])
    assert engine.key64(state) != engine.key64(held[-2])
    undone = native.undo(held[-2], held[-1])
    assert engine.key64(undone, counters=False) == engine.key64(held[-2], counters=False)
    assert engine.key64(undone) != engine.key64(held[-2])
    expanded = engine.expand(state)
    assert [m for m, _, _ in expanded] == python.legal_moves(plain[-1])
    for move, child, key in expanded:
        assert child == python.apply(plain[-1], move)
        assert key == engine.key64(child, counters=False)


def test_deal_playouts_play_the_same_games_every_run():
    native = NativeGame(reference(GAMES["golf"]))
    got = native.deal_playouts(5, 11, 300)
    assert got == native.deal_playouts(5, 11, 300) != native.deal_playouts(5, 12, 300)
    assert got == native.playouts([native.game.deal(11 + g) for g in range(5)], 11, 300)


def test_a_position_the_engine_cannot_hold_is_a_cardz_error():
    native = NativeGame(reference(GAMES["freecell"]))
    state = native.game.deal(1).copy()
    state.moves = 2**70
    with pytest.raises(CardzError, match="can't hold"):
        native.legal_moves(state)
    state.moves, state.piles = 0, (("x",),) + state.piles[1:]
    with pytest.raises(CardzError, match="can't hold"):
        native.legal_moves(state)


def test_a_command_imports_only_what_it_needs(tmp_path):
    """``cardz moves`` builds its own parser alone and plays no planner: neither the other
    commands nor the planners' search are imported, nor, for a game without expressions, the
    expression parser and compiler (start time, docs/benchmarks.md)."""
    board = tmp_path / "board.json"
    game = open_game("klondike")
    board.write_text(json.dumps(game.board_document(game.deal(1))))
    code = ("import sys; from cardz_core.cli.main import main; "
            f"main(['moves', 'klondike', '--board', {str(board)!r}]); "
            "print(sorted(m for m in sys.modules if m.startswith('cardz_core.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    loaded = done.stdout.splitlines()[-1]
    assert "cardz_core.cli.cmd_moves" in loaded
    for absent in ("cardz_core.cli.cmd_simulate", "cardz_core.planners.expectimax",
                   "cardz_core.solver.search", "cardz_core.sim", "cardz_core.expr.parse",
                   "cardz_core.expr.compiler"):
        assert f"'{absent}" not in loaded, absent


def test_help_imports_no_command():
    """``cardz --help`` lists every command from ``cardz_core.cli.COMMANDS`` alone: no
    command's module, nor the engine, is imported; the table names every command module."""
    code = ("import sys; from cardz_core.cli.main import main\n"
            "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.startswith('cardz')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    *shown, loaded = done.stdout.splitlines()
    assert loaded == str(["cardz_core", "cardz_core.began", "cardz_core.cli", "cardz_core.cli.main",
                          "cardz_core.interrupts", "cardz_core.safe_text"])
    from cardz_core.cli import COMMANDS
    modules = sorted(p.stem[4:] for p in (Path(__file__).parents[1] / "cardz_core" / "cli")
                     .glob("cmd_*.py"))
    assert sorted(COMMANDS) == modules
    assert [line.split(None, 1) for line in shown if line.startswith("    ")] == \
        [[name, help_line] for name, help_line in COMMANDS.items()]
