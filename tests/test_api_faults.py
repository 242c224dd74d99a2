"""The Python API on wrong input, the same on both engines: a CardzError naming what is wrong,
never a raw TypeError, a Rust panic, a wrong answer or a view whose counts no longer add up."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardz_core import Move
from cardz_core.engine import compile as compile_game
from cardz_core.engine.moves import IllegalMove
from cardz_core.problems import CardzError
from cardz_core.rulesets import game_file, open_game
from cardz_core.spec import load_game

ENGINES = ("python", "native")


def _game(name: str, engine: str) -> Any:
    return compile_game(load_game(game_file(name)), engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_seed_is_a_whole_number(engine: str) -> None:
    game = _game("golf", engine)
    assert game.deal(np.int64(5)).piles == game.deal(np.uint64(5)).piles == game.deal(5).piles
    for bad in ("5", 1.5, None, True, [1]):  # True was seed 1; the rest a TypeError
        with pytest.raises(CardzError, match="a seed is a whole number, not "):
            game.deal(bad)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_position_of_another_game_is_refused(engine: str) -> None:
    klondike, spider = _game("klondike", engine), _game("spider", engine)
    # the native engine took Spider's position as its own and panicked past its 52 cards; the
    # Python engine listed moves for it
    with pytest.raises(CardzError, match="a position of 19 depots for a game of 13"):
        klondike.legal_moves(spider.deal(1))
    with pytest.raises(CardzError, match="a position of 13 depots for a game of 19"):
        spider.apply(klondike.deal(1), Move(0, -1, -1))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_move_is_a_move_or_its_fields(engine: str) -> None:
    game = _game("freecell", engine)
    state = game.deal(3)
    move = game.legal_moves(state)[0]
    assert game.apply(state, tuple(move)).piles == game.apply(state, move).piles
    for bad in (list(move), None, "x", (1.5, 0, 1)):
        with pytest.raises(CardzError, match="a move is a Move \\(src, index, dst, declare\\)"):
            game.apply(state, bad)
    with pytest.raises(IllegalMove, match="has no card at position 1099511627776"):
        game.apply(state, Move(9, 2**40, 1))  # the native engine raised an OverflowError
    with pytest.raises(IllegalMove, match="a tap has index -1, no target and no suit"):
        game.apply(state, Move(0, -1, -1, 2))  # taken as a tap, though no such move is listed


def test_a_move_the_game_has_not_is_not_written_as_one() -> None:
    game = open_game("freecell")
    for move in (Move(9, 6, 1, 4), Move(99, 0, 1), Move(-3, 0, 1), Move(0, -1, 5), Move(0, 3, -1)):
        # an IndexError, or a text of another move (column-6 for depot -3), or of no move
        with pytest.raises(CardzError, match="is not a move of 'FreeCell'"):
            game.move_text(move)
    assert repr(Move(9, 6, 1, 4)) == "Move(9@6>1=4)"  # a repr never raises
    assert game.move_text(Move(9, 6, 1, 3)) == "column-1@6>cell-1=S"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_reveal_callback_is_checked_and_its_view_keeps_count(engine: str) -> None:
    game = _game("klondike_draw3", engine)
    view = game.view(game.deal(1))
    unseen = iter([i for i, b in enumerate(view.pools[0]) if b])
    after = game.apply(view, Move(0, -1, -1), reveal=lambda pool: next(unseen))
    # the pools still counted the three cards turned up: they came up again as outcomes, and
    # the view's own board document was refused
    assert sum(after.pools[0]) == sum(view.pools[0]) - 3 == sum(
        1 for pile in after.piles for c in pile if c < 0)
    assert game.load_board(game.board_document(after)).piles == after.piles
    for bad, said in ((lambda pool: 0, "not among the unseen cards of pool 0"),  # AC thrice
                      (lambda pool: 10**9, "answered 1000000000, not a card id of the game"),
                      (lambda pool: -1, "answered -1, not a card id of the game \\(0 to 51\\)")):
        with pytest.raises(CardzError, match=said):
            game.apply(view, Move(0, -1, -1), reveal=bad)


@pytest.mark.parametrize("engine", ENGINES)
def test_an_outcome_limit_is_a_whole_number(engine: str) -> None:
    game = _game("klondike_draw3", engine)
    view, tap = game.view(game.deal(1)), Move(0, -1, -1)
    for bad in (1.5, 0, "3", True):
        with pytest.raises(CardzError, match="an outcome limit is a whole number 1 or more"):
            game.outcomes(view, tap, limit=bad)
    assert len(game.outcomes(view, tap, limit=10**30)) > 0  # an OverflowError natively
    one = game.outcomes(view, tap, limit=1)
    assert len(one) == 1 and 0 < one.coverage < 1  # the likeliest, as asked


@pytest.mark.parametrize("bad", ["", None, 5])
def test_a_game_is_a_path_or_a_name(bad: object) -> None:
    # '' read as the current folder ("is a directory"), None a TypeError from pathlib
    with pytest.raises(CardzError, match="a game is a file path or a bundled game's name, not "):
        open_game(bad)  # type: ignore[arg-type]


def test_a_limit_gets_an_outcome_even_of_a_move_turning_up_ten_cards() -> None:
    # best-first tries every shorter prefix first: Spider's deal of ten cards gave [] at limit 1
    answers = []
    for engine in ENGINES:
        game = _game("spider", engine)
        view = game.view(game.deal(2))
        tap = next(m for m in game.legal_moves(view) if m.dst < 0)
        out = game.outcomes(view, tap, limit=1)
        assert len(out) == 1 and out.stopped and out.coverage == out[0].probability > 0
        answers.append((out[0].revealed, out[0].probability))
    assert len(answers[0][0]) == 10 and answers[0] == answers[1]
