"""A plugin depot type that declares the same facts as a builtin one plays exactly like it:
Klondike with its stock a ``Talon`` (role stock, deals from), FreeCell with its cells
``Pocket``s (role cell, parks as a cell): the same deals, legal moves and states in seeded
random play, the same ``Staged`` limit, solver verdicts and ``usual`` planner moves."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardz_core.engine import PLAYING, compile
from cardz_core.msdeal import deal_ms
from cardz_core.planners import make_planner
from cardz_core.planners.solver import solve
from cardz_core.registry import build_registry
from cardz_core.spec import load_game
from cardz_core.view import Seat

RULESETS = Path(__file__).resolve().parents[1] / "rulesets"
REGISTRY = build_registry(["kinds_plugin"], entry_points=False)


def retyped(file: str, old: str, new: str) -> tuple[Any, Any]:
    """The bundled game and the same file with every depot of type ``old`` typed ``new``."""
    doc = json.loads((RULESETS / file).read_text(encoding="utf-8"))
    builtin = compile(load_game(doc, registry=REGISTRY), REGISTRY)
    for depot in doc["depots"]:
        if depot["type"] == old:
            depot["type"] = new
    plugin = compile(load_game(doc, registry=REGISTRY), REGISTRY)
    assert new in [d.type for d in plugin.spec.depots]
    return builtin, plugin


def same_random_play(a: Any, b: Any, seeds: range, moves: int) -> int:
    """Play both games with the same seeded random choices, asserting equal states and legal
    moves at every step; how many moves were made in all."""
    made = 0
    for seed in seeds:
        sa, sb = a.deal(seed), b.deal(seed)
        rng = random.Random(seed)
        for _ in range(moves):
            assert sa == sb
            la, lb = a.legal_moves(sa), b.legal_moves(sb)
            assert la == lb
            if sa.status != PLAYING or not la:
                break
            move = la[rng.randrange(len(la))]
            sa, sb = a.apply(sa, move), b.apply(sb, move)
            made += 1
    return made


def same_planner_moves(a: Any, b: Any, seed: int, moves: int) -> None:
    seats = Seat(a, a.deal(seed)), Seat(b, b.deal(seed))
    # by the scores, which read the depots' roles (a guess searches the same deal either way)
    planners = make_planner(a, "usual", solve=0), make_planner(b, "usual", solve=0)
    rngs = random.Random(seed), random.Random(seed)
    for _ in range(moves):
        chosen = [p.choose(g, s.view, r) for p, g, s, r in zip(planners, (a, b), seats, rngs)]
        assert chosen[0] == chosen[1]
        if chosen[0] is None or seats[0].state.status != PLAYING:
            break
        for seat, move in zip(seats, chosen):
            seat.play(move)
        assert seats[0].state == seats[1].state


@pytest.fixture(scope="module")
def klondike() -> tuple[Any, Any]:
    return retyped("klondike.cardz", "Stock", "Talon")


@pytest.fixture(scope="module")
def freecell() -> tuple[Any, Any]:
    return retyped("freecell.cardz", "Cell", "Pocket")


def test_talon_deals_and_plays_like_stock(klondike):
    stock, talon = klondike
    assert talon.first_stock == stock.first_stock >= 0
    assert talon.roles == stock.roles
    assert same_random_play(stock, talon, range(1, 6), 200) > 500  # stock taps included


def test_talon_solver_verdict(klondike):
    stock, talon = klondike
    for seed in (1, 2):
        a = solve(stock, stock.deal(seed), max_states=3000, timeout=30)
        b = solve(talon, talon.deal(seed), max_states=3000, timeout=30)
        assert (a.result, a.line) == (b.result, b.line)


def test_talon_usual_planner(klondike):
    stock, talon = klondike
    for seed in (1, 2):
        same_planner_moves(stock, talon, seed, 60)


def test_pocket_staged_limit_and_play_like_cell(freecell):
    cell, pocket = freecell
    assert cell.spec.compound_moves == "Staged"
    state = cell.deal(3)
    for d in range(cell.n_depots):
        assert pocket.staged_limit(state.piles, d) == cell.staged_limit(state.piles, d)
    assert cell.staged_limit(state.piles, cell.depot_index["foundation-1"]) == 5
    assert same_random_play(cell, pocket, range(1, 6), 200) > 200


def test_pocket_solver_verdict(freecell):
    cell, pocket = freecell
    for deal in (1, 617):
        a = solve(cell, deal_ms(cell, deal), max_states=20000, timeout=30)
        b = solve(pocket, deal_ms(pocket, deal), max_states=20000, timeout=30)
        assert (a.result, a.line) == (b.result, b.line)


def test_pocket_usual_planner(freecell):
    cell, pocket = freecell
    for seed in (1, 2):
        same_planner_moves(cell, pocket, seed, 60)
