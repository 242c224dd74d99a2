"""Chance outcomes of moves on views (the counts deck model)."""

from __future__ import annotations

import copy
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from cardz_core.cli.main import main
from cardz_core.problems import CardzError
from cardz_core.view import Outcomes, Seat, apply_revealing, deck_info
from test_view import RULESETS, SMALL, bundled, check_view, game_of

# A stock of four identical aces and one king, drawn to a waste.
ACES_KING: dict[str, Any] = {
    "name": "Aces and a King",
    "depotOnly": True,
    "decks": [{"suits": ["Spades"], "ranks": ["Ace"], "count": 4},
              {"suits": ["Spades"], "ranks": ["King"]}],
    "depots": [
        {"name": "stock", "type": "Stock", "draw": {"to": "waste", "count": 1},
         "acceptRule": "none", "ejectRule": "locked"},
        {"name": "waste", "type": "Waste", "acceptRule": "none", "ejectRule": "topOnly"},
    ],
    "winCondition": {"kind": "depotsEmpty", "depots": ["stock"]},
}


def _tap(game: Any, state: Any) -> Any:
    return next(m for m in game.legal_moves(state) if m.index < 0)


def _names(game: Any, ids: tuple[int, ...]) -> list[str]:
    return [str(deck_info(game).cards[i]) for i in ids]


def test_four_aces_and_a_king_give_two_outcomes() -> None:
    game = game_of(ACES_KING)
    v = game.view(game.deal(1))
    outs = game.outcomes(v, _tap(game, v))
    assert [(round(o.probability, 12), _names(game, o.revealed)) for o in outs] == [
        (0.8, ["AS"]), (0.2, ["KS"])]
    assert outs.coverage == 1.0
    for o in outs:
        assert sum(sum(p) for p in o.view.pools) == 4
        assert o.view.moves == 1


def test_k_reveals_give_distinct_sequences_not_orderings_of_copies() -> None:
    doc = copy.deepcopy(ACES_KING)
    doc["decks"] = [{"suits": ["Spades"], "ranks": ["Ace"], "count": 2},
                    {"suits": ["Spades"], "ranks": ["King"]}]
    doc["depots"][0]["draw"]["count"] = 2
    game = game_of(doc)
    v = game.view(game.deal(1))
    outs = game.outcomes(v, _tap(game, v))
    got = sorted((_names(game, o.revealed), round(o.probability, 12)) for o in outs)
    third = round(1 / 3, 12)
    assert got == [(["AS", "AS"], third), (["AS", "KS"], third), (["KS", "AS"], third)]


def test_a_limit_keeps_the_likeliest_and_says_the_coverage() -> None:
    game = game_of(ACES_KING)
    v = game.view(game.deal(1))
    outs = game.outcomes(v, _tap(game, v), limit=1)
    assert len(outs) == 1 and _names(game, outs[0].revealed) == ["AS"]
    assert outs.coverage == pytest.approx(0.8)
    with pytest.raises(CardzError, match="1 or more"):
        game.outcomes(v, _tap(game, v), limit=0)


def test_max_outcomes_at_and_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardz_deck.counts as counts

    game = game_of(SMALL)
    v = game.view(game.deal(1))
    tap = _tap(game, v)
    n = len(game.outcomes(v, tap))
    monkeypatch.setattr(counts, "MAX_OUTCOMES", n)
    assert len(game.outcomes(v, tap)) == n
    monkeypatch.setattr(counts, "MAX_OUTCOMES", n - 1)
    with pytest.raises(CardzError, match="give a limit"):
        game.outcomes(v, tap)
    assert len(game.outcomes(v, tap, limit=n)) == n - 1  # the cap holds a limit too


def test_max_outcome_work_at_and_past_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import cardz_deck.counts as counts

    doc = copy.deepcopy(ACES_KING)
    doc["depots"][0]["draw"]["count"] = 2
    game = game_of(doc)
    v = game.view(game.deal(1))
    # six plays (the root, A, AA, AK, K, KA), each priced 1 + the two cards a tap turns up
    work = 6 * 3
    monkeypatch.setattr(counts, "MAX_OUTCOME_WORK", work)
    whole = game.outcomes(v, _tap(game, v))
    assert len(whole) == 3 and not whole.stopped and whole.coverage == 1.0
    monkeypatch.setattr(counts, "MAX_OUTCOME_WORK", work - 1)
    cut = game.outcomes(v, _tap(game, v))
    assert cut.stopped and [o.revealed for o in cut] == [o.revealed for o in whole][:2]
    assert cut.coverage == pytest.approx(whole[0].probability + whole[1].probability)


def test_a_move_revealing_nothing_has_one_outcome() -> None:
    game = game_of(SMALL)
    seat = Seat(game, game.deal(5))
    stock = game.depot_index["stock"]
    while seat.state.recycles_total == 0:
        seat.play(_tap(game, seat.state))
    # the stock is now remembered: drawing from it reveals nothing new
    outs = game.outcomes(seat.view, _tap(game, seat.view))
    assert len(outs) == 1 and outs[0].probability == 1.0 and outs[0].revealed == ()
    assert seat.view.piles[stock]


def test_outcomes_need_a_view() -> None:
    game = game_of(SMALL)
    state = game.deal(1)
    with pytest.raises(CardzError, match="view"):
        game.outcomes(state, _tap(game, state))


def _check_outcomes(game: Any, v: Any, move: Any, limit: int) -> Outcomes:
    outs = game.outcomes(v, move, limit=limit)
    probs = [o.probability for o in outs]
    assert probs == sorted(probs, reverse=True)
    assert sum(probs) == pytest.approx(outs.coverage)
    assert 0 < outs.coverage <= 1.0
    if len(outs) < limit:
        assert outs.coverage == 1.0 and sum(probs) == pytest.approx(1.0)
    return outs


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_outcome_probabilities_sum_to_one_on_random_views(path: Path) -> None:
    game = bundled(path)
    rng = random.Random(7)
    for seed in (1,):
        seat = Seat(game, game.deal(seed))
        for _ in range(10):
            moves = game.legal_moves(seat.view)
            if not moves or seat.state.status:
                break
            for move in rng.sample(moves, min(2, len(moves))):
                if _listable(game, seat.view, move, rng):
                    _check_outcomes(game, seat.view, move, limit=30)
            seat.play(rng.choice(moves))


def _listable(game: Any, v: Any, move: Any, rng: random.Random) -> bool:
    """Whether listing a move's likeliest outcomes is quick: it turns up at most one card, or
    several from a small pool (a best-first listing of k cards from a pool of n runs the move
    about n**(k-1) times before the first complete outcome)."""
    probe = game.sample_outcome(v, move, rng)
    k = len(probe.revealed)
    return k <= 1 or math.perm(sum(sum(p) for p in probe.view.pools) + k, k - 1) <= 100


def _replay(game: Any, seed: int, steps: int, rng: random.Random) -> tuple[int, int]:
    """Play a true game at random; follow it on the view through outcomes; compare each step.
    Returns how many steps were matched by a listed outcome, and how many of those redealt."""
    info = deck_info(game)
    seat = Seat(game, game.deal(seed))
    followed = seat.view
    checked = redealt = 0
    for _ in range(steps):
        moves = game.legal_moves(seat.state)
        if not moves or seat.state.status:
            break
        assert game.legal_moves(followed) == moves
        move = rng.choice(moves)
        listed = _listable(game, followed, move, rng)
        outs = game.outcomes(followed, move, limit=60) if listed else Outcomes([], 0.0)
        redeals = seat.state.redeals
        new = [info.cards[i] for i in seat.play(move)]
        match = [o for o in outs if [info.cards[i] for i in o.revealed] == new]
        if outs.coverage == 1.0:
            assert len(match) == 1
        followed, _ = apply_revealing(game, followed, move, new)
        if match:
            assert match[0].view == followed
            checked += 1
            redealt += seat.state.redeals > redeals
        assert followed == seat.view
        check_view(game, seat.state, followed)
    return checked, redealt


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_replaying_a_true_game_through_views_and_outcomes_reproduces_it(path: Path) -> None:
    game = bundled(path)
    rng = random.Random(3)
    _replay(game, 1, 30, rng)


def test_replay_through_a_redeal_that_gathers_and_shuffles() -> None:
    doc = copy.deepcopy(SMALL)
    doc["depots"][0] = {"name": "stock", "type": "Stock", "draw": {"to": "waste", "count": 1},
                        "landFace": "Down", "acceptRule": "none", "ejectRule": "locked"}
    doc["redealRules"] = [{"kind": "gather", "from": ["waste"], "to": "stock"},
                          {"kind": "shuffle", "depot": "stock"},
                          {"kind": "flipTop", "depot": "stock"}]
    game = game_of(doc)
    redealt = [_replay(game, seed, 80, random.Random(seed))[1] for seed in range(1, 6)]
    # the redeals themselves were followed: listed as outcomes and matched to the true game
    assert sum(n > 0 for n in redealt) >= 3, redealt


def test_sample_outcome_draws_by_the_counts() -> None:
    game = game_of(ACES_KING)
    v = game.view(game.deal(1))
    rng = random.Random(1)
    draws = [_names(game, game.sample_outcome(v, _tap(game, v), rng).revealed)[0]
             for _ in range(400)]
    assert 0.7 < draws.count("AS") / 400 < 0.9
    o = game.sample_outcome(v, _tap(game, v), random.Random(2))
    assert o.probability in (0.8, 0.2)


def test_true_apply_and_the_matching_outcome_agree_on_two_decks() -> None:
    game = game_of(SMALL, decks=[{"suits": ["Hearts", "Spades"],
                                  "ranks": ["Ace", "Two", "Three", "Four", "Five"], "count": 2}])
    for seed in (1, 2, 3):
        assert _replay(game, seed, 60, random.Random(seed))[0] > 0


def test_cli_outcomes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "aces.cardz"
    path.write_text(json.dumps(ACES_KING))
    game = game_of(ACES_KING)
    board = json.dumps(game.board_document(game.deal(1)))
    assert main(["outcomes", str(path), "--board", board, "--move", "tap stock"]) == 0
    out = capsys.readouterr().out
    assert "0.800000  AS" in out and "0.200000  KS" in out and "coverage 1.000000" in out
    assert main(["outcomes", str(path), "--board", board, "--move", "tap stock", "--limit", "1",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["coverage"] == pytest.approx(0.8) and len(doc["outcomes"]) == 1
    assert doc["outcomes"][0]["revealed"] == ["AS"]
    assert doc["outcomes"][0]["view"]["depots"]["waste"] == ["AS"]
    assert main(["outcomes", str(path), "--board", board, "--move", "waste@0>stock"]) == 1
