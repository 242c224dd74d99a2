"""The Gymnasium adapter (``cardz_core.adapters.gym``, extra ``gym``): ``check_env`` on every
bundled game, the registered ids, masks, rewards and the player's view as the observation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
adapter = pytest.importorskip("cardz_core.adapters.gym")

from gymnasium.utils.env_checker import check_env  # noqa: E402

import cardz_core  # noqa: E402
from cardz_core.adapters import core  # noqa: E402

GAMES = [r.path.stem for r in cardz_core.bundled()]


@pytest.mark.parametrize("name", GAMES)
def test_check_env_passes(name: str) -> None:
    env = gymnasium.make(adapter.env_id(name), max_steps=50)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the checker's warnings count as failures
        check_env(env.unwrapped)


def test_every_bundled_game_has_an_id_and_any_file_has_one() -> None:
    assert len(adapter.ENV_IDS) == len(GAMES)
    assert adapter.ENV_IDS["cardz/KlondikeDraw3-v0"] == "klondike_draw3"
    assert adapter.env_id("spider_one_suit") == "cardz/SpiderOneSuit-v0"
    path = next(r.path for r in cardz_core.bundled() if r.path.stem == "golf")
    env = gymnasium.make("cardz/Cardz-v0", game=str(path))
    assert env.unwrapped.game.spec.name == "Golf"


def test_the_mask_marks_the_legal_moves_and_the_view_is_the_observation() -> None:
    env = gymnasium.make("cardz/KlondikeDraw3-v0").unwrapped
    obs, info = env.reset(seed=4)
    game, t = env.game, env.table
    legal = [t.action(m) for m in game.legal_moves(env.seat.view)]
    assert sorted(np.flatnonzero(info["action_mask"]).tolist()) == sorted(legal)
    expected = np.zeros(t.size, np.float32)
    core.encode(game, game.view(game.deal(info["deal"])), expected, True, 0.0)
    assert np.array_equal(obs, expected)
    obs2, info2 = env.reset(seed=4)
    assert info2["deal"] == info["deal"] and np.array_equal(obs, obs2)
    _, info3 = env.reset(options={"deal": 17})
    assert info3["deal"] == 17


def test_an_illegal_action_changes_nothing() -> None:
    env = gymnasium.make("cardz/Freecell-v0").unwrapped
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.seat.state
    obs2, reward, terminated, truncated, info2 = env.step(illegal)
    assert info2["illegal"] and env.seat.state == before and reward == 0.0
    assert not terminated and not truncated


def test_rewards_come_when_the_deal_ends_or_is_cut() -> None:
    env = gymnasium.make("cardz/Golf-v0", max_steps=5, reward="score", score_worst=35.0,
                         score_best=0.0).unwrapped
    _, info = env.reset(seed=2)
    rewards = []
    done = False
    while not done:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, reward, terminated, truncated, info = env.step(action)
        rewards.append(reward)
        done = terminated or truncated
    score = env.game.score(env.seat.view)
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == pytest.approx((35 - score) / 35)
    with pytest.raises(gymnasium.error.ResetNeeded):
        env.step(0)


def test_a_deal_option_is_a_seed_the_command_line_takes() -> None:
    from cardz_core.limits import MAX_SEED
    from cardz_core.problems import CardzError

    env = gymnasium.make("cardz/Freecell-v0").unwrapped
    assert env.reset(options={"deal": MAX_SEED})[1]["deal"] == MAX_SEED
    assert env.reset(options={"deal": np.uint64(7)})[1]["deal"] == 7
    # -1 and 2**64 wrapped to other seeds' deals; 1.7 played deal 1
    for bad in (-1, MAX_SEED + 1, 1.7, True, "3"):
        with pytest.raises(CardzError, match=r"options\['deal'\] \(a deal's seed\) is a whole "
                                             f"number from 0 to {MAX_SEED}"):
            env.reset(options={"deal": bad})


def test_an_action_or_a_cap_of_the_wrong_type_is_refused_by_name() -> None:
    from cardz_core.limits import MAX_SIM_MAX_MOVES
    from cardz_core.problems import CardzError

    env = gymnasium.make("cardz/Freecell-v0").unwrapped
    obs, info = env.reset(seed=1)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    last = env.table.num_actions - 1
    assert not env.step(np.int64(legal))[4]["illegal"]
    for bad in ("3", 2.7, None, True, -1, last + 1):  # int() took "3" and 2.7
        with pytest.raises(CardzError, match=f"an action is a whole number from 0 to {last}"):
            env.step(bad)
    assert gymnasium.make("cardz/Golf-v0", max_steps=MAX_SIM_MAX_MOVES).unwrapped.max_steps == \
        MAX_SIM_MAX_MOVES
    for cap in (0, MAX_SIM_MAX_MOVES + 1, "10", 1.5):
        with pytest.raises(CardzError, match="max_steps is a whole number from 1"):
            gymnasium.make("cardz/Golf-v0", max_steps=cap)


def test_a_vector_of_environments_resets_and_steps() -> None:
    # a deal drawn from 0..2**64-1 overflowed Gymnasium's int64 info arrays half the time
    from cardz_core.limits import ADAPTER_MAX_DEAL

    envs = gymnasium.make_vec("cardz/Golf-v0", num_envs=2, vectorization_mode="sync")
    for seed in range(10):
        _, info = envs.reset(seed=seed)
        assert all(0 <= deal <= ADAPTER_MAX_DEAL for deal in info["deal"])
    actions = [int(np.flatnonzero(mask)[0]) for mask in info["action_mask"]]
    envs.step(np.array(actions))
    envs.close()


def test_a_drawn_deal_is_never_over_as_dealt() -> None:
    # 5% of Fortress's deals are lost as dealt: the mask was empty and the first step refused
    env = gymnasium.make("cardz/Fortress-v0").unwrapped
    game = env.game
    assert game.view(game.deal(14)).status != 0  # over as dealt: asked for, it is given as is
    _, info = env.reset(options={"deal": 14})
    assert info["action_mask"].sum() == 0
    for seed in range(60):
        _, info = env.reset(seed=seed)
        assert info["action_mask"].sum() > 0, seed


@pytest.mark.parametrize("options, said", [
    ({"reward": "score"}, "reward 'score' needs a game that keeps a score"),
    ({"reward": "score", "score_worst": "a"}, "score_worst is a finite number, not 'a'"),
    ({"score_best": float("nan")}, "score_best is a finite number, not nan"),
])
def test_reward_options_are_checked(options: dict, said: str) -> None:
    from cardz_core.problems import CardzError

    with pytest.raises(CardzError, match=said):
        gymnasium.make("cardz/Klondike-v0", **options)


def test_a_game_whose_deals_are_all_over_stops_drawing_at_the_limit(tmp_path, monkeypatch) -> None:
    import json

    from cardz_core.limits import RESET_MAX_DRAWS
    from cardz_core.problems import CardzError

    # three cards dealt face up to columns that release nothing: no move, ever
    dead = {"name": "Dead", "depotOnly": True,
            "decks": [{"suits": ["Spades"], "ranks": ["Ace", "Two", "Three"]}],
            "depots": [{"name": "stock", "type": "Stock", "acceptRule": "none",
                        "ejectRule": "locked"},
                       {"name": "column", "type": "Tableau", "repeat": 3, "acceptRule": "none",
                        "ejectRule": "locked"}],
            "dealRules": [{"kind": "dealGroup", "to": "column", "faceUp": 1}],
            "winCondition": {"kind": "depotsEmpty", "depots": ["column"]}}
    path = tmp_path / "dead.cardz"
    path.write_text(json.dumps(dead))
    env = adapter.CardzEnv(str(path))
    draws = []
    real = env.game.deal
    monkeypatch.setattr(env.game, "deal", lambda seed: draws.append(seed) or real(seed))
    with pytest.raises(CardzError, match=f"{RESET_MAX_DRAWS:,} deals drawn in a row were over"):
        env.reset(seed=1)
    assert len(draws) == RESET_MAX_DRAWS  # at the limit it gave up, past it it drew no more
