"""Invariants at scale: seeded random play on every bundled game, on whichever engine ``compile``
gives (``CARDZ_ENGINE``; ``auto`` plays every bundled game natively).

After every move: no card is lost or duplicated and undo gives back the exact position. The
board document round-trips every ``DOC_EVERY`` moves and at the end; each game's log replays to
exactly the same boards at its end. One game in ``VIEW_EVERY`` per file (the first always) is a
deep game: it also keeps the player's view (``Seat``), lists the outcomes of a move on it every
``OUTCOME_EVERY`` moves (their probabilities sum to 1) and round-trips the board after every
move. docs/engine.md ("Invariants") says why the checks are spread so.

``CARDZ_INVARIANT_GAMES`` games per file: 1 by default, 1,352 under ``CARDZ_LONG=1`` (100,048
games over the 74 bundled files)."""

from __future__ import annotations

import json
import math
import os
import random
from functools import lru_cache
from pathlib import Path
from typing import Callable

import pytest

from cardz_core.engine import PLAYING, Game, Move, State, compile
from cardz_core.engine.documents import board_document, load_board
from cardz_core.engine.logs import LogRecorder, replay
from cardz_core.native import NativeEngineGame
from cardz_core.rulesets import ruleset_paths
from cardz_core.spec import load_game
from cardz_core.view import Seat
from conftest import LONG

PATHS = ruleset_paths()
GAMES = int(os.environ.get("CARDZ_INVARIANT_GAMES", "1352" if LONG else "1"))
MOVE_CAP = 100  # moves per game; most bundled deals end sooner under random play
DOC_EVERY = 25  # the board document round-trips every this many moves (and at the end)
VIEW_EVERY = 100  # one game in this many per file is a deep game
OUTCOME_EVERY = 7  # in a deep game, the outcomes of one move are listed every this many moves
FIRST_SEED = 10_000  # clear of the seeds the conformance tests play


@lru_cache(maxsize=None)
def compiled(path: Path, engine: str) -> Game:
    return compile(load_game(path), engine=engine)


def all_cards(game: Game, state: State) -> bool:
    """Every card of the game exactly once on the board."""
    ids = [c >> 1 for pile in state.piles for c in pile]
    return len(ids) == game.n_cards and set(ids) == set(range(game.n_cards))


def same_but_counters(a: State, b: State) -> bool:
    """Equal positions, ``moves`` and ``undos`` aside (an undo keeps the one, counts the other)."""
    ka, kb = list(a.key()), list(b.key())
    ka[4:6] = kb[4:6] = [None, None]
    return ka == kb


def undo_check(game: Game) -> Callable[[State, State], bool]:
    """``same_but_counters``; natively, the position's 64-bit key without the counters, which
    compares in Rust instead of building every field in Python."""
    if isinstance(game, NativeEngineGame):
        key = game.native.key64
        return lambda a, b: key(a, False) == key(b, False)
    return same_but_counters


def round_trips(game: Game, state: State) -> bool:
    doc = json.loads(json.dumps(board_document(game, state)))
    return board_document(game, load_board(game, doc)) == doc


class Where:
    """Where a check failed, as text: built only when an assertion's message is."""

    def __init__(self, game: Game, seed: int, n: int, move: Move) -> None:
        self.game, self.seed, self.n, self.move = game, seed, n, move

    def __str__(self) -> str:
        return f"seed {self.seed}, move {self.n} {self.game.move_text(self.move)}"


def play_checked(game: Game, seed: int, deep: bool) -> int:
    """One random game checked as the module says; the number of moves it made."""
    state = game.deal(seed)
    assert all_cards(game, state), f"seed {seed}: the deal lost or duplicated a card"
    same = undo_check(game)
    seat = Seat(game, state) if deep else None
    rnd = random.Random(seed)
    log = LogRecorder(game, seed=seed)
    boards = [state]
    while state.status == PLAYING and len(boards) <= MOVE_CAP:
        moves = game.legal_moves(state)
        if not moves:
            break
        move = rnd.choice(moves)
        n = len(boards)
        where = Where(game, seed, n, move)
        if seat is not None and n % OUTCOME_EVERY == 0:
            found = game.outcomes(seat.view, move)
            total = math.fsum(o.probability for o in found)
            assert math.isclose(total, found.coverage, abs_tol=1e-9), f"{where}: {total}"
            assert found.stopped or math.isclose(total, 1.0, abs_tol=1e-9), f"{where}: {total}"
        after = game.apply(state, move)
        if seat is not None:
            seat.play(move)
        assert all_cards(game, after), f"{where}: a card was lost or duplicated"
        assert same(game.undo(state, after), state), f"{where}: undo is not exact"
        if deep or n % DOC_EVERY == 0:
            assert round_trips(game, after), f"{where}: the board document does not load back"
        log.record(state, move, after)
        boards.append(after)
        state = after
    assert round_trips(game, state), f"seed {seed}: the last board does not load back"
    replayed = replay(game, json.loads(json.dumps(log.document(state))))
    assert len(replayed) == len(boards)
    for i, (a, b) in enumerate(zip(replayed, boards)):
        assert a == b, f"seed {seed}: the replayed board {i} differs"
    return len(boards) - 1


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_random_play_keeps_every_invariant(path: Path) -> None:
    game = compiled(path, os.environ.get("CARDZ_ENGINE", "auto"))
    played = [play_checked(game, FIRST_SEED + i, i % VIEW_EVERY == 0) for i in range(GAMES)]
    assert len(played) == GAMES and sum(played) > 0
