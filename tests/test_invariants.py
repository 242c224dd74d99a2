"""Invariants at scale: seeded random play on every bundled game, on whichever engine ``compile``
gives (``CARDZ_ENGINE``), checking after every move that no card is lost or duplicated, undo
gives back the exact position, the board document round-trips, and (every few moves) that the
outcomes of a move on the player's view have probabilities summing to 1; each game's log then
replays to exactly the same boards.

``CARDZ_INVARIANT_GAMES`` games per file: 1 by default, 1,352 under ``CARDZ_LONG=1`` (100,048
games over the 74 bundled files; docs/engine.md, "Invariants")."""

from __future__ import annotations

import json
import math
import os
import random
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from cardz_core.cards import card_id_of
from cardz_core.engine import PLAYING, Game, State, compile
from cardz_core.engine.documents import board_document, load_board
from cardz_core.engine.logs import LogRecorder, replay
from cardz_core.rulesets import ruleset_paths
from cardz_core.spec import load_game
from cardz_core.view import Seat
from conftest import LONG

PATHS = ruleset_paths()
GAMES = int(os.environ.get("CARDZ_INVARIANT_GAMES", "1352" if LONG else "1"))
MOVE_CAP = 200  # moves per game; most bundled deals end sooner under random play
OUTCOME_EVERY = 7  # the outcomes of one move are listed every this many moves
FIRST_SEED = 10_000  # clear of the seeds the conformance tests play


@lru_cache(maxsize=None)
def compiled(path: Path, engine: str) -> Game:
    return compile(load_game(path))


def card_ids(state: State) -> Counter:
    return Counter(card_id_of(c) for pile in state.piles for c in pile)


def same_but_counters(a: State, b: State) -> bool:
    """Equal positions, ``moves`` and ``undos`` aside (an undo keeps the one, counts the other)."""
    ka, kb = list(a.key()), list(b.key())
    ka[4:6] = kb[4:6] = [None, None]
    return ka == kb


def play_checked(game: Game, seed: int) -> int:
    """One random game checked after every move; the number of moves it made."""
    state = game.deal(seed)
    full = Counter(range(game.n_cards))
    assert card_ids(state) == full, f"seed {seed}: the deal lost or duplicated a card"
    seat = Seat(game, state)
    rnd = random.Random(seed)
    log = LogRecorder(game, seed=seed)
    boards = [state]
    while state.status == PLAYING and len(boards) <= MOVE_CAP:
        moves = game.legal_moves(state)
        if not moves:
            break
        move = rnd.choice(moves)
        where = f"seed {seed}, move {len(boards)} {game.move_text(move)}"
        if len(boards) % OUTCOME_EVERY == 0:
            found = game.outcomes(seat.view, move)
            total = math.fsum(o.probability for o in found)
            assert math.isclose(total, found.coverage, abs_tol=1e-9), f"{where}: {total}"
            assert found.stopped or math.isclose(total, 1.0, abs_tol=1e-9), f"{where}: {total}"
        after = game.apply(state, move)
        seat.play(move)
        assert card_ids(after) == full, f"{where}: a card was lost or duplicated"
        back = game.undo(state, after)
        assert same_but_counters(back, state), f"{where}: undo is not exact"
        doc = json.loads(json.dumps(board_document(game, after)))
        assert board_document(game, load_board(game, doc)) == doc, f"{where}: the board " \
            "document does not load back"
        log.record(state, move, after)
        boards.append(after)
        state = after
    replayed = replay(game, json.loads(json.dumps(log.document(state))))
    assert len(replayed) == len(boards)
    for i, (a, b) in enumerate(zip(replayed, boards)):
        assert a == b, f"seed {seed}: the replayed board {i} differs"
    return len(boards) - 1


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_random_play_keeps_every_invariant(path: Path) -> None:
    game = compiled(path, os.environ.get("CARDZ_ENGINE", "python"))
    played = [play_checked(game, FIRST_SEED + i) for i in range(GAMES)]
    assert len(played) == GAMES and sum(played) > 0
