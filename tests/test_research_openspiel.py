"""The OpenSpiel adapter (``cardz_core.adapters.openspiel``, extra ``openspiel``): OpenSpiel's own
checks on every bundled game, the action ids, card-by-card chance against ``Game.outcomes`` and
against a true deal, serialisation, returns, and the checked-in playthroughs.

``random_sim_test`` plays 2 random deals of at most 40 moves per game (20 of at most 300 with
CARDZ_LONG=1). The playthroughs in tests/data/playthroughs are regenerated with
``python tests/test_research_openspiel.py --update`` (then read the diff: a change in them is a
change of the game as OpenSpiel sees it)."""

from __future__ import annotations

import math
import random
import re
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel")
openspiel = pytest.importorskip("cardz_core.adapters.openspiel")

from conftest import LONG, board  # noqa: E402

import cardz_core  # noqa: E402
from cardz_core.adapters import core  # noqa: E402
from cardz_core.adapters.openspiel import CardzSpielGame  # noqa: E402
from cardz_core.engine.moves import Move  # noqa: E402
from cardz_core.limits import ADAPTER_MAX_DEAL  # noqa: E402
from cardz_core.problems import CardzError  # noqa: E402
from cardz_core.view import Seat  # noqa: E402

GAMES = [r.path.stem for r in cardz_core.bundled()]
PLAYTHROUGHS = Path(__file__).parent / "data" / "playthroughs"
# five kinds of play: a draw-3 stock (several cards per move), all cards open (no chance), a
# score as the reward, a reserve and a recycled stock, two packs with identical copies
PLAYTHROUGH_GAMES = {
    "klondike_draw3": "cardz(game=klondike_draw3,max_moves=3)",
    "freecell": "cardz(game=freecell,max_moves=3)",
    "golf": "cardz(game=golf,max_moves=3,reward=score,score_best=0.0,score_worst=35.0)",
    "canfield": "cardz(game=canfield,max_moves=3)",
    "spiderette": "cardz(game=spiderette,max_moves=3,seed=2)",
}


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_passes(name: str) -> None:
    game = pyspiel.load_game("cardz", {"game": name, "max_moves": 300 if LONG else 40})
    pyspiel.random_sim_test(game, num_sims=20 if LONG else 2, serialize=True, verbose=False)


def _random_walk(game: object, rng: random.Random, steps: int) -> list[object]:
    """The states of a random play, chance nodes included."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    out = [state.clone()]
    while not state.is_terminal() and len(out) < steps:
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state.clone())
    return out


@pytest.mark.parametrize("name", ["klondike_draw3", "spider_two_suits", "gaps"])
def test_action_ids_are_stable_distinct_and_in_range(name: str) -> None:
    game = pyspiel.load_game("cardz", {"game": name, "max_moves": 60})
    cz = game.cardz
    t = core.table(cz)
    for state in _random_walk(game, random.Random(3), 80):
        if state.is_chance_node() or state.is_terminal():
            continue
        moves = cz.legal_moves(state.view)
        ids = [t.action(m) for m in moves]
        assert len(set(ids)) == len(ids)
        assert all(0 <= a < game.num_distinct_actions() for a in ids)
        assert [t.move(a) for a in ids] == moves
        assert state.legal_actions() == sorted(ids)
        for a in ids:
            assert state.action_to_string(a) == cz.move_text(t.move(a))
    with pytest.raises(CardzError, match="not a move id"):
        t.move(game.num_distinct_actions())


ROOT = Path(__file__).resolve().parents[1]


def test_the_id_of_a_move_does_not_depend_on_the_game_position() -> None:
    t = core.table(cardz_core.open_game("klondike_draw3"))  # 13 depots, 52 cards
    assert t.action(Move(0, -1, -1)) == 0
    assert t.action(Move(6, 0, 2)) == 13 + ((6 * 13 + 2) * 52 + 0) * 5 + 0
    assert t.num_actions == 13 + 13 * 13 * 52 * 5 == 43_953  # no looseOrder depot: no reorders
    assert t.action(Move(12, 51, 11, 3)) == t.num_actions - 1 - 52 * 5
    assert t.move(t.action(Move(8, 4, 2, 1))) == Move(8, 4, 2, 1)


def test_a_reorder_has_an_id_of_its_own_for_every_new_position() -> None:
    # a reorder's fourth field is a position 0 .. N-1, not a suit: packed as one, hand@5>hand@4
    # and hand@6>hand shared an id
    cz = cardz_core.open_game(str(ROOT / "tests" / "data" / "games" / "hand_order.cardz"))
    t = core.table(cz)
    n, d, hand = cz.n_cards, len(cz.depot_names), cz.depot_index["hand"]
    assert t.loose == (hand,) and t.num_actions == d + d * d * n * 5 + n * n
    ids = {t.action(Move(hand, i, hand, at)) for i in range(n) for at in range(n)}
    assert len(ids) == n * n and max(ids) == t.num_actions - 1
    assert all(t.move(a) == Move(hand, (a - t.reorders) // n, hand, (a - t.reorders) % n)
               for a in ids)
    game = pyspiel.load_game("cardz", {"game": str(ROOT / "tests" / "data" / "games" /
                                                  "hand_order.cardz"), "seed": 1, "max_moves": 60})
    pyspiel.random_sim_test(game, num_sims=5, serialize=False, verbose=False)


def _chain(state: object, faces: tuple[int, ...]) -> float:
    """Play the chance nodes of ``state`` with ``faces``; the product of their probabilities."""
    p = 1.0
    for f in faces:
        assert state.is_chance_node()  # type: ignore[attr-defined]
        p *= dict(state.chance_outcomes())[f]  # type: ignore[attr-defined]
        state.apply_action(f)  # type: ignore[attr-defined]
    return p


def test_chance_nodes_give_the_counts_models_outcomes() -> None:
    """A draw of three: the chain of three one-card chance nodes gives each sequence the
    probability and the view ``Game.outcomes`` gives it."""
    game = pyspiel.load_game("cardz", {"game": "klondike_draw3"})
    cz, t = game.cardz, core.table(game.cardz)
    state = game.new_initial_state()
    tap = Move(0, -1, -1)
    listed = cz.outcomes(state.view, tap, limit=20)
    assert len(listed) == 20
    state.apply_action(t.action(tap))
    assert state.is_chance_node() and len(state.chance_outcomes()) == 45
    assert math.isclose(sum(p for _, p in state.chance_outcomes()), 1.0)
    for outcome in listed:
        s = state.clone()
        faces = tuple(t.face_index[cz.identity[c]] for c in outcome.revealed)
        assert len(faces) == 3
        assert math.isclose(_chain(s, faces), outcome.probability)
        assert not s.is_chance_node() and s.view == outcome.view


def test_a_move_that_turns_up_nothing_has_no_chance_node() -> None:
    game = pyspiel.load_game("cardz", {"game": "freecell"})
    state = game.new_initial_state()
    for a in state.legal_actions():
        s = state.clone()
        s.apply_action(a)
        assert not s.is_chance_node()


@pytest.mark.parametrize("name", ["klondike_draw3", "canfield", "spiderette", "pyramid"])
def test_playing_a_true_deals_cards_gives_the_players_view(name: str) -> None:
    """Chance resolved by the true deal (``reveal_action``) leads to the view the player has in
    the true game, move after move: the adapter hides nothing the player sees, and adds nothing."""
    game = pyspiel.load_game("cardz", {"game": name, "seed": 5, "max_moves": 150})
    cz, rng = game.cardz, random.Random(5)
    seat = Seat(cz, cz.deal(5))
    state = game.new_initial_state()
    assert state.view == seat.view
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        for card_id in seat.play(core.table(cz).move(action)):
            state.apply_action(state.reveal_action(card_id))
        assert not state.is_chance_node()
        assert state.view == seat.view


def test_serialisation_round_trips() -> None:
    game = pyspiel.load_game("cardz", {"game": "klondike_draw3", "seed": 9})
    for state in _random_walk(game, random.Random(9), 60)[::7]:
        text = pyspiel.serialize_game_and_state(game, state)
        game2, state2 = pyspiel.deserialize_game_and_state(text)
        assert str(game2) == str(game)
        assert state2.history() == state.history()
        assert str(state2) == str(state)
        assert state2.view == state.view
        assert state2.is_chance_node() == state.is_chance_node()
        if state.is_chance_node():
            assert state2.chance_outcomes() == state.chance_outcomes()
        else:
            assert state2.legal_actions() == state.legal_actions()
            assert state2.information_state_tensor(0) == state.information_state_tensor(0)


def test_information_state_remembers_and_observation_shows_the_table_now() -> None:
    """Klondike recycles the waste face-down: the view remembers those cards (information
    state), the table shows them as unknown (observation)."""
    game = pyspiel.load_game("cardz", {"game": "klondike"})
    cz, t = game.cardz, core.table(game.cardz)
    state = game.new_initial_state()
    stock = cz.legal_moves(state.view)[-1]
    assert cz.move_text(stock) == "tap stock"
    while state.view.piles[0]:  # draw the whole stock, then recycle it
        state.apply_action(t.action(stock))
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
    state.apply_action(t.action(stock))
    assert not state.is_chance_node()
    info, obs = state.information_state_string(0), state.observation_string(0)
    stock_info = info.splitlines()[0]
    assert stock_info.startswith("stock: ~") and "~?" not in stock_info
    assert obs.splitlines()[0].startswith("stock: ~? ~?")
    n, d = t.n_cards, t.n_depots
    known = [state.information_state_tensor(0)[i * (d + 2)] for i in range(n)]
    shown = [state.observation_tensor(0)[i * (d + 2)] for i in range(n)]
    assert sum(known) == len(state.view.piles[0]) and sum(shown) == 0


def test_returns_win_and_score() -> None:
    cz = cardz_core.open_game("klondike")
    assert core.returns(cz, cz.view(cz.deal(1)), "win", 0.0, 1.0) == 0.0
    golf = cardz_core.open_game("golf")
    v = golf.view(golf.deal(1))
    score = golf.score(v)
    assert score == 35
    assert core.returns(golf, v, "score", 35.0, 0.0) == 0.0
    assert core.returns(golf, v, "score", 45.0, 25.0) == 0.5
    assert core.returns(golf, v, "score", 25.0, 0.0) == 0.0  # clipped
    with pytest.raises(CardzError, match="differ"):
        core.check_reward(golf, "score", 1.0, 1.0)
    with pytest.raises(CardzError, match="reward is one of"):
        core.check_reward(golf, "points", 0.0, 1.0)


def test_a_won_deal_returns_one() -> None:
    cz = cardz_core.open_game("klondike")
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    piles = {f"foundation-{i + 1}": [r + s for r in order] for i, s in enumerate("CDHS")}
    piles["foundation-4"].pop()
    piles["column-1"] = ["KS"]
    v = cz.view(board(cz, piles))
    assert not core.finished(cz, v) and core.returns(cz, v, "win", 0.0, 1.0) == 0.0
    last = next(m for m in cz.legal_moves(v) if cz.move_text(m) == "column-1@0>foundation-4")
    out = core.play(cz, v, last)
    assert not isinstance(out, core.Pending)
    assert core.finished(cz, out)
    assert core.returns(cz, out, "win", 0.0, 1.0) == 1.0


def test_an_illegal_action_is_refused() -> None:
    game = pyspiel.load_game("cardz", {"game": "freecell"})
    state = game.new_initial_state()
    illegal = next(a for a in range(game.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(Exception, match="not legal here"):
        state.apply_action(illegal)


def _playthrough(game_string: str, actions: list[int] | None) -> str:
    from open_spiel.python.algorithms import generate_playthrough

    return str(generate_playthrough.playthrough(game_string, actions, seed=1))


def _actions(text: str) -> list[int]:
    return [int(a) for a in re.findall(r"^action: (\d+)$", text, re.M)]


@pytest.mark.parametrize("name", sorted(PLAYTHROUGH_GAMES))
def test_playthrough_is_unchanged(name: str) -> None:
    path = PLAYTHROUGHS / f"cardz_{name}.txt"
    original = path.read_text(encoding="utf-8")
    game_string = re.search(r"^game: (.*)$", original, re.M)
    assert game_string is not None and game_string.group(1) == PLAYTHROUGH_GAMES[name]
    assert _playthrough(PLAYTHROUGH_GAMES[name], _actions(original)) == original


def _update() -> None:
    PLAYTHROUGHS.mkdir(parents=True, exist_ok=True)
    for name, game_string in PLAYTHROUGH_GAMES.items():
        (PLAYTHROUGHS / f"cardz_{name}.txt").write_text(_playthrough(game_string, None),
                                                         encoding="utf-8")


if __name__ == "__main__" and sys.argv[1:] == ["--update"]:
    _update()


def test_a_state_ended_at_max_moves_takes_no_action() -> None:
    game = pyspiel.load_game("cardz", {"game": "klondike_draw3", "seed": 7, "max_moves": 1})
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.is_terminal() and state.legal_actions() == []
    history = state.history()
    with pytest.raises(CardzError, match="the game is over"):
        state.apply_action(0)  # it was taken, and play went on past the cap
    assert state.is_terminal() and state.history() == history


def test_a_seed_out_of_openspiels_range_is_refused() -> None:
    # OpenSpiel's int parameters are 32-bit: 2**31 failed inside pybind with no word of why
    assert CardzSpielGame({"game": "golf", "seed": ADAPTER_MAX_DEAL}).seed == 2**31 - 1
    for seed in (-1, ADAPTER_MAX_DEAL + 1):
        with pytest.raises(CardzError, match=r"seed \(a deal's seed, 32-bit in OpenSpiel\) is a "
                                             r"whole number from 0 to 2147483647"):
            CardzSpielGame({"game": "golf", "seed": seed})


@pytest.mark.parametrize("params, said", [
    ({"reward": "score"}, "reward 'score' needs a game that keeps a score; 'Klondike' keeps none"),
    ({"game": "golf", "reward": "score", "score_worst": float("nan")},
     "score_worst is a finite number, not nan"),
    ({"game": "golf", "score_best": float("inf")}, "score_best is a finite number, not inf"),
    ({"max_moves": 10**8}, "max_moves is a whole number from 1 to 40518559"),
])
def test_reward_and_length_parameters_are_checked(params: dict, said: str) -> None:
    with pytest.raises(CardzError, match=re.escape(said)):
        CardzSpielGame({"game": "klondike", **params})


def test_a_chance_action_is_written_only_when_there_is_such_a_face() -> None:
    game = pyspiel.load_game("cardz", {"game": "golf", "seed": 1})
    state = game.new_initial_state()
    faces = game.max_chance_outcomes()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, faces - 1) == "reveal KS"
    for bad in (-1, faces):  # -1 was "reveal KS" too, and past the end an IndexError
        with pytest.raises(CardzError, match=f"a chance action is a whole number from 0 to "
                                             f"{faces - 1}"):
            state.action_to_string(pyspiel.PlayerId.CHANCE, bad)


def test_reveal_action_takes_only_a_card_of_the_table() -> None:
    game = pyspiel.load_game("cardz", {"game": "golf", "seed": 1})
    state = game.new_initial_state()
    n = cardz_core.open_game("golf").n_cards
    assert state.reveal_action(n - 1) >= 0
    for bad in (-1, n, 2.0):  # -1 was the last card, n an IndexError
        with pytest.raises(CardzError, match=f"card_id is a whole number from 0 to {n - 1}"):
            state.reveal_action(bad)
