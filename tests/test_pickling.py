"""A compiled game pickles as its spec and engine, so a `Game`, a `Seat` and a Gymnasium
environment cross to a worker process (multiprocessing's spawn, Ray) and play on there as they
would have played here."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from cardz_core.engines import compile as compile_for
from cardz_core.native import NativeEngineGame
from cardz_core.problems import CardzError
from cardz_core.registry import build_registry
from cardz_core.rulesets import open_game
from cardz_core.spec import load_game
from cardz_core.view import Seat

from test_expr_programs import PYRAMID, _with_last_from

RULESETS = Path(__file__).parents[1] / "rulesets"


def _moves(game, state, n: int) -> list[tuple]:
    """The first ``n`` moves of a line that always plays the last legal move, with the piles."""
    out = []
    for _ in range(n):
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.apply(state, moves[-1])
        out.append((moves[-1], state.piles))
    return out


@pytest.mark.parametrize("engine", ["python", "native"])
def test_a_game_pickles_and_loads_on_the_same_engine(engine):
    game = compile_for(load_game(RULESETS / "klondike_draw3.cardz"), engine=engine)
    back = pickle.loads(pickle.dumps(game))
    assert type(back) is type(game)
    assert isinstance(back, NativeEngineGame) == (engine == "native")
    assert back.spec == game.spec
    assert _moves(back, back.deal(17), 60) == _moves(game, game.deal(17), 60)


def test_a_seat_pickled_mid_game_plays_on_as_the_one_left_behind():
    game = open_game("klondike_draw3")
    seat = Seat(game, game.deal(5))
    for _ in range(12):
        seat.play(game.legal_moves(seat.view)[-1])
    back = pickle.loads(pickle.dumps(seat))
    assert back.view == seat.view and back.state == seat.state
    for _ in range(20):
        move = game.legal_moves(seat.view)[0]
        assert back.play(move) == seat.play(move)  # the same hidden cards turn up
        assert back.view == seat.view
    back.undo()
    seat.undo()
    assert back.view == seat.view


def test_a_gymnasium_environment_pickled_mid_episode_steps_as_the_original():
    np = pytest.importorskip("numpy")
    gymnasium = pytest.importorskip("gymnasium")
    import cardz_core.adapters.gym  # noqa: F401  (registers the environments)

    env = gymnasium.make("cardz/KlondikeDraw3-v0", max_steps=200).unwrapped
    _, info = env.reset(seed=3)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    back = pickle.loads(pickle.dumps(env))
    for _ in range(40):
        action = int(np.flatnonzero(info["action_mask"])[-1])
        obs, reward, terminated, truncated, info = env.step(action)
        obs2, reward2, terminated2, truncated2, info2 = back.step(action)
        assert (obs == obs2).all()
        assert (reward, terminated, truncated) == (reward2, terminated2, truncated2)
        assert (info["action_mask"] == info2["action_mask"]).all()
        if terminated or truncated:
            break


def test_a_game_of_a_plugin_not_installed_where_it_is_loaded_names_what_is_missing():
    spec, reg = _with_last_from(frozenset({"came_from"}))
    game = compile_for(spec, reg)
    data = pickle.dumps(game)  # the registry, which holds the plugin, is not pickled
    assert build_registry().lookup("functions", "lastFrom") is None
    with pytest.raises(CardzError, match="lastFrom"):
        pickle.loads(data)
    assert pickle.loads(pickle.dumps(compile_for(load_game(PYRAMID)))).spec.name == spec.name


def test_a_spawned_worker_plays_a_game_handed_to_it():
    import multiprocessing

    game = open_game("freecell")
    state = game.deal(11982)
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        # a bound method pickles its game: the worker compiles it again and lists the moves
        assert pool.apply(game.legal_moves, (state,)) == game.legal_moves(state)
