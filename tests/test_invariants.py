"""Invariants at scale: seeded random play on every bundled game, on whichever engine ``compile``
gives (``CARDZ_ENGINE``; ``auto`` plays every bundled game natively).

Two tiers (docs/engine.md, "Invariants", says why):

- **Through the API** (``play_checked``), after every move: the listed move applies, no card is
  lost or duplicated, undo gives back the exact position; the board document round-trips every
  ``DOC_EVERY`` moves and at the end; the game's log replays to exactly the same boards at its
  end. A deep game (one in ``VIEW_EVERY``, the first of a file always) also round-trips every
  board and keeps the player's view (``Seat``), listing the outcomes of a move on it every
  ``OUTCOME_EVERY`` moves: their probabilities sum to 1. On the Python engine every game is
  played so; natively, one in ``API_EVERY``.
- **Inside the native engine** (``checked_playouts``, every game of a file the native engine
  plays), after every move: every card is on the board exactly once, the listed move is legal
  when judged alone, it applies the same way twice and counts one move.

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
DOC_EVERY = 10  # the board document round-trips every this many moves (and at the end)
API_EVERY = 20  # natively, one game in this many is also played through the API's checks
VIEW_EVERY = 200  # one game in this many is a deep game
OUTCOME_EVERY = 7  # in a deep game, the outcomes of one move are listed every this many moves
BATCH = 256  # deals handed to the native engine at once
FIRST_SEED = 10_000  # clear of the seeds the conformance tests play


@lru_cache(maxsize=None)
def compiled(path: Path, engine: str) -> Game:
    return compile(load_game(path), engine=engine)


def engine_asked() -> str:
    return os.environ.get("CARDZ_ENGINE", "auto")


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


def play_checked(game: Game, seed: int, deep: bool = True) -> int:
    """One random game checked through the API as the module says; the moves it made."""
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


def api_games(game: Game) -> range:
    """The games a file plays through the API: all of them on the Python engine."""
    return range(0, GAMES, API_EVERY if isinstance(game, NativeEngineGame) else 1)


def native_checked(game: NativeEngineGame, first: int, games: int) -> int:
    """``games`` deals from seed ``first`` played inside the native engine with its checks;
    the moves they made."""
    made = 0
    for start in range(first, first + games, BATCH):
        deals = [game.deal(seed) for seed in range(start, min(start + BATCH, first + games))]
        for k, (moves, _status, broke) in enumerate(
                game.native.engine.checked_playouts(deals, start, MOVE_CAP)):
            assert broke is None, f"seed {start + k}: {broke}"
            made += moves
    return made


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_random_play_keeps_every_invariant(path: Path) -> None:
    game = compiled(path, engine_asked())
    played = [play_checked(game, FIRST_SEED + i, i % VIEW_EVERY == 0) for i in api_games(game)]
    assert played and sum(played) > 0


@pytest.mark.parametrize("path", PATHS, ids=[p.stem for p in PATHS])
def test_native_random_play_keeps_every_invariant(path: Path) -> None:
    game = compiled(path, engine_asked())
    if not isinstance(game, NativeEngineGame):
        pytest.skip("played by the Python engine")
    assert native_checked(game, FIRST_SEED, GAMES) > 0
