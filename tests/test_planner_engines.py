"""The planners that search play the same moves on both engines, game by game: the same file,
seed and planner give the same game whichever engine plays it (DEVELOPERS.md, "Deterministic").

Every bundled game is played by `usual` from one deal on each engine, its look ahead and
guesses included (they call the solver, whose tries, noisy ones too, search alike on both);
with CARDZ_LONG=1 the games are longer, the looks their default size, and `expectimax` plays
too. Stop 70 found `usual` parting on Klondike, Canfield and Alaska (tests/test_usual.py)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from cardz_core.engine import PLAYING, compile
from cardz_core.native import extension
from cardz_core.planners import make_planner
from cardz_core.problems import CardzError
from cardz_core.spec import load_game
from cardz_core.view import Seat
from conftest import LONG
from test_view import RULESETS

SEED = 3
MOVES = 80 if LONG else 12
PLANNERS = ("usual", "expectimax") if LONG else ("usual",)
# a smaller look in the short run: still a greedy try, then tries with noise once it is spent
OPTIONS: dict[str, Any] = {} if LONG else {"solve": 2_000}


def _moves(path: Path, engine: str, planner: str) -> list[str] | None:
    """The moves ``planner`` makes from deal SEED on ``engine``, or None for a game that offers
    no planner."""
    game = compile(load_game(path), engine=engine)
    try:
        chooser = make_planner(game, planner, **(OPTIONS if planner == "usual" else {}))
    except CardzError as exc:
        assert "planner" in str(exc)
        return None
    seat = Seat(game, game.deal(SEED))
    rng = random.Random(SEED)
    made: list[str] = []
    while seat.state.status == PLAYING and seat.state.moves < MOVES:
        move = chooser.choose(game, seat.view, rng)
        if move is None:
            break
        made.append(game.move_text(move))
        seat.play(move)
    return made


@pytest.mark.engines_chosen
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_the_planners_play_the_same_moves_on_both_engines(path: Path) -> None:
    if extension() is None:
        pytest.skip("the native engine is not built")
    for planner in PLANNERS:
        python = _moves(path, "python", planner)
        native = _moves(path, "native", planner)
        if python is None:
            assert native is None
            pytest.skip(f"{path.stem} offers no planner")
        assert native == python, f"{path.stem}, {planner}"
