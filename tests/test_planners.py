"""Planners: legal play on every bundled game, fairness, gating, budgets, the hint and play commands.

Each planner plays ``DEALS`` deals of every bundled game, ``MOVES`` moves at most: 1 deal and 20
moves by default (expectimax and sampling with small node budgets), 50 deals and 300 moves with CARDZ_LONG=1.
"""

from __future__ import annotations

import copy
import functools
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from cardz_core.cli.main import main
from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import DepotType
from cardz_core.limits import PLANNER_MAX_NODES, PLANNER_MAX_SECONDS
from cardz_core.planners import BUILTIN_PLANNERS, Budget, make_planner, planner_allowed
from cardz_core.planners.base import Unknown, follow, goes_on, refuse_reveal
from cardz_core.planners.measures import empty_spaces, hidden_cards, home_cards, roles
from cardz_core.planners.solver import solve
from cardz_core.problems import CardzError
from cardz_core.registry import build_registry
from cardz_core.engine import compile
from cardz_core.spec import load_game
from cardz_core.view import Seat
from conftest import LONG, board, mv, tap
from test_view import RULESETS, SMALL, bundled, game_of

DEALS = 50 if LONG else 1
MOVES = 300 if LONG else 20
OPTIONS: dict[str, dict[str, Any]] = {"expectimax": {"nodes": 30, "depth": 2, "samples": 2,
                                                     "solve": 2000},
                                      "value": {"samples": 2}, "sampling": {"nodes": 60, "deals": 2},
                                      "bandit": {"nodes": 60, "samples": 4},
                                      "usual": {"solve": 2000}}


def play(game: Any, name: str, seed: int, moves: int) -> Seat:
    """Play one deal with planner ``name``, checking every move it makes is legal on the true
    state and that it was given a view only."""
    seat = Seat(game, game.deal(seed))
    planner = make_planner(game, name, force=True, **OPTIONS.get(name, {}))
    rng = random.Random(seed)
    while seat.state.status == 0 and seat.state.moves < moves:
        v = seat.view
        assert v.pools is not None
        move = planner.choose(game, v, rng)
        if move is None:
            break
        assert move in game.legal_moves(seat.state), game.move_text(move)
        seat.play(move)
    return seat


# the planners each of whose decisions is the solver's
SOLVING = ("bandit", "sampling")
# Klondike-shaped games on the native engine only: tests/test_klondike_planner.py
MODELLED = ("klondike",)


@pytest.mark.parametrize("name", sorted(set(BUILTIN_PLANNERS) - set(SOLVING) - set(MODELLED)))
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_planner_plays_every_bundled_game_legally(path: Path, name: str) -> None:
    game = bundled(path)
    for seed in range(1, DEALS + 1):
        play(game, name, seed, MOVES)


@functools.cache
def on_auto(path: Path) -> Any:
    """A bundled game on the native engine wherever it plays it, whatever CARDZ_ENGINE says."""
    return compile(load_game(path, file=str(path)), engine="auto")


@pytest.mark.engines_chosen
@pytest.mark.parametrize("name", SOLVING)
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_the_solving_planners_play_every_bundled_game_legally(path: Path, name: str) -> None:
    """On the engine ``auto`` picks: the solver decides their moves, and its two searches give
    the same answers (tests/test_native_solver.py), where the Python one takes the Python
    engine's pace (the two planners' 148 games took it 90 s). The Python search plays them in
    tests/test_sampling.py and tests/test_bandit.py."""
    game = on_auto(path)
    for seed in range(1, DEALS + 1):
        play(game, name, seed, MOVES)


def test_planners_win_an_easy_game() -> None:
    # one suit pair with nothing face-down: usual and expectimax play it out
    game = game_of(SMALL, dealRules=[{"kind": "dealGroup", "to": "column", "faceUp": 3}])
    for name in ("usual", "expectimax"):
        wins = sum(play(game, name, seed, 200).state.status == 1 for seed in range(1, 6))
        assert wins >= 3, name


def _hidden_twin(game: Any, state: Any, seed: int) -> Any:
    """``state`` with its face-down cards dealt differently."""
    down = [(d, i) for d, p in enumerate(state.piles) for i, c in enumerate(p) if not c & 1]
    ids = [state.piles[d][i] >> 1 for d, i in down]
    random.Random(seed).shuffle(ids)
    piles = [list(p) for p in state.piles]
    for (d, i), card in zip(down, ids):
        piles[d][i] = card << 1
    twin = state.copy()
    twin.piles = tuple(tuple(p) for p in piles)
    return twin


@pytest.mark.parametrize("name", sorted(set(BUILTIN_PLANNERS) - set(MODELLED)))
def test_planners_cannot_read_hidden_cards(name: str) -> None:
    path = next(p for p in RULESETS if p.stem == "klondike_draw3")
    game = bundled(path)
    for seed in (1, 2, 3):
        state = game.deal(seed)
        twin = _hidden_twin(game, state, seed)
        assert twin != state
        v, w = game.view(state), game.view(twin)
        assert v == w  # nothing of the hidden cards is in what the planner gets
        assert all(c < 0 or c & 1 for pile in v.piles for c in pile)
        a = make_planner(game, name, **OPTIONS.get(name, {})).choose(game, v, random.Random(5))
        b = make_planner(game, name, **OPTIONS.get(name, {})).choose(game, w, random.Random(5))
        assert a == b


GATED = {**SMALL, "depots": copy.deepcopy(SMALL["depots"])}
GATED["depots"][1]["acceptRule"] = {"when": "empty(depot)"}


def test_planner_gating() -> None:
    plain = game_of(SMALL)
    assert planner_allowed(plain)
    off = game_of(SMALL, planner=False)
    written = game_of(GATED)
    opted = game_of(GATED, planner=True)
    assert not planner_allowed(off) and not planner_allowed(written)
    assert planner_allowed(opted)
    for game in (off, written):
        with pytest.raises(CardzError, match="offers no planner"):
            make_planner(game, "usual")
        make_planner(game, "usual", force=True)
        make_planner(game, "random")  # knows nothing of the game: never kept out
    make_planner(opted, "expectimax")
    with pytest.raises(CardzError, match="no planner named 'nonesuch' \\(registered: "):
        make_planner(plain, "nonesuch")
    with pytest.raises(CardzError, match="'SAMPLNG' \\(did you mean 'sampling'\\?\\)"):
        make_planner(plain, "SAMPLNG")
    assert make_planner(plain, "USUAL").name == "usual"


VALUED = copy.deepcopy(SMALL)
VALUED["dealRules"] = [{"kind": "dealGroup", "to": "column", "faceUp": 3}]
VALUED["planner"] = {"value": "count(foundation) * 10 - count(waste)"}


def test_value_planner_follows_the_value_and_falls_back_on_usual() -> None:
    game = game_of(VALUED)
    # a move home (AH, +10) beside a tap (one more card on the waste, -1)
    home = board(game, {"stock": ["~AS", "~2S", "~3S"], "column-1": ["5H", "4S", "3H"],
                        "column-2": ["5S", "4H", "2H", "AH"]})
    moves = game.legal_moves(home)
    assert {m.dst for m in moves} - {-1} and any(m.dst < 0 for m in moves)
    move = make_planner(game, "value").choose(game, game.view(home), random.Random(1))
    assert (game.depot_names[move.src], move.index) == ("column-2", 3)
    assert game.depot_names[move.dst].startswith("foundation")
    # the value decides, not the usual measures: a game valuing the waste taps instead
    waste = game_of(VALUED, planner={"value": "count(waste)"})
    there = board(waste, {"stock": ["~AS", "~2S", "~3S"], "column-1": ["5H", "4S", "3H"],
                          "column-2": ["5S", "4H", "2H", "AH"]})
    assert make_planner(waste, "usual").choose(waste, waste.view(there), random.Random(1)) == move
    assert make_planner(waste, "value").choose(waste, waste.view(there), random.Random(1)) == \
        tap(waste, "stock")
    # no move raises the value: moving the Five to the empty column keeps it, the tap lowers it;
    # the best by value is that shuffle, but the planner falls back on usual, which taps
    tie = board(game, {"foundation-1": ["AH"], "column-1": ["5H"],
                       "stock": ["~2H", "~3H", "~4H", "~AS", "~2S", "~3S", "~4S", "~5S"]})
    v = game.view(tie)
    shuffle = mv(game, "column-1", 0, "column-2")
    assert set(game.legal_moves(tie)) == {shuffle, tap(game, "stock")}
    picked = make_planner(game, "value").choose(game, v, random.Random(2))
    assert picked == make_planner(game, "usual").choose(game, v, random.Random(2))
    assert picked == tap(game, "stock")


def test_value_planner_without_a_value_uses_the_default_measures() -> None:
    game = game_of(SMALL)
    seat = Seat(game, game.deal(3))
    move = make_planner(game, "value").choose(game, seat.view, random.Random(0))
    assert move in game.legal_moves(seat.state)


def test_budgets() -> None:
    assert Budget(nodes=PLANNER_MAX_NODES).nodes == PLANNER_MAX_NODES
    with pytest.raises(CardzError, match="node budget"):
        Budget(nodes=PLANNER_MAX_NODES + 1)
    with pytest.raises(CardzError, match="node budget"):
        Budget(nodes=0)
    with pytest.raises(CardzError, match="time budget"):
        Budget(seconds=0)
    assert Budget(seconds=PLANNER_MAX_SECONDS).seconds == PLANNER_MAX_SECONDS
    for bad in ({"seconds": PLANNER_MAX_SECONDS + 1}, {"seconds": "1"}, {"seconds": True},
                {"nodes": "5"}, {"nodes": 1.5}, {"nodes": True}):
        with pytest.raises(CardzError, match="a planner's (node|time) budget") as refused:
            Budget(**bad)
        assert refused.value.problems[0].path == "/" + next(iter(bad))
    game = game_of(SMALL)
    v = game.view(game.deal(2))
    picks = {make_planner(game, "expectimax", nodes=300).choose(game, v, random.Random(4))
             for _ in range(2)}
    assert len(picks) == 1  # a node budget gives the same choice every time
    timed = make_planner(game, "expectimax", seconds=0.05)
    assert timed.choose(game, v, random.Random(4)) in game.legal_moves(v)


class _FirstMove:
    name = "first"

    def __init__(self, game: Any, **_options: Any) -> None:
        pass

    def choose(self, game: Any, view: Any, rng: random.Random) -> Any:
        moves = game.legal_moves(view)
        return moves[0] if moves else None


class _ThirdParty:
    __name__ = "third_party_planner"

    @hookimpl
    def cardz_planners(self, register: Any) -> None:
        register("first", _FirstMove)


def test_a_third_party_planner_registers_through_the_hook() -> None:
    registry = build_registry([_ThirdParty()], entry_points=False)
    game = compile(load_game(json.dumps(SMALL), registry=registry), registry)
    planner = make_planner(game, "first")
    v = game.view(game.deal(1))
    assert planner.choose(game, v, random.Random(0)) == game.legal_moves(v)[0]


class _Pocket:
    """A plugin depot type declaring what the builtin ``Cell`` declares."""

    __name__ = "pocket_plugin"

    @hookimpl
    def cardz_depot_types(self, register: Any) -> None:
        register("Pocket", DepotType("cell", parks="cell"))


def test_planners_measure_a_plugin_depot_type_by_its_role() -> None:
    path = Path(__file__).parent.parent / "rulesets" / "freecell.cardz"
    text = path.read_text(encoding="utf-8")
    assert text.count('"type": "Cell"') == 1
    registry = build_registry([_Pocket()], entry_points=False)
    pocket = compile(load_game(text.replace('"type": "Cell"', '"type": "Pocket"'),
                               registry=registry), registry)
    cell = bundled(path)
    assert "Pocket" in pocket.types and "Cell" not in pocket.types
    mine, theirs = roles(pocket), roles(cell)
    assert mine.role == theirs.role and sum(mine.cells) == 4
    assert (mine.home, mine.hidden, mine.tableau, mine.cells, mine.feeds, mine.swap_group) == (
        theirs.home, theirs.hidden, theirs.tableau, theirs.cells, theirs.feeds, theirs.swap_group)
    v, w = pocket.view(pocket.deal(3)), cell.view(cell.deal(3))
    assert v.piles == w.piles
    for measure in (home_cards, hidden_cards, empty_spaces):
        assert measure(mine, v) == measure(theirs, w)
    # a cell filled: one fewer empty space in both
    move = next(m for m in cell.legal_moves(w) if theirs.cells[m.dst])
    assert empty_spaces(mine, pocket.apply(v, move)) == empty_spaces(theirs, w) - 1


def _write(tmp_path: Path, doc: dict[str, Any]) -> str:
    path = tmp_path / "game.cardz"
    path.write_text(json.dumps(doc))
    return str(path)


def test_cli_hint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = _write(tmp_path, SMALL)
    game = game_of(SMALL)
    state = game.deal(1)
    board = json.dumps(game.board_document(state))
    texts = {game.move_text(m) for m in game.legal_moves(state)}
    for planner in ("usual", "random", "expectimax", "value"):
        assert main(["hint", file, "--board", board, "--planner", planner, "--nodes", "50"]) == 0
        assert capsys.readouterr().out.strip() in texts
    assert main(["hint", file, "--board", board, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["text"] in texts
    off = _write(tmp_path, {**SMALL, "planner": False})
    assert main(["hint", off, "--board", board]) == 1
    assert "offers no planner" in capsys.readouterr().err
    assert main(["hint", file, "--board", board, "--planner", "nonesuch"]) == 1


def test_cli_hint_on_a_finished_game_says_it_is_over(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    file = _write(tmp_path, SMALL)
    game = game_of(SMALL)
    state = game.deal(3)
    result = solve(game, state, max_states=100_000)
    assert result.result == "won"
    for move in result.line:
        state = game.apply(state, move)
    assert main(["hint", file, "--board", json.dumps(game.board_document(state))]) == 1
    assert capsys.readouterr().err.strip() == "cardz hint: the game on this board is over: it is won"


def test_cli_play_with_a_planner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file = _write(tmp_path, SMALL)
    assert main(["play", file, "--seed", "3", "--planner", "usual", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["result"] in ("won", "lost", "unfinished") and doc["planner"] == "usual"
    assert main(["play", file, "--seed", "3", "--planner", "usual"]) == 0
    out = capsys.readouterr().out
    assert "1. " in out and "foundation-1" in out


def test_cli_play_reads_moves_from_standard_input(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    file = _write(tmp_path, SMALL)
    monkeypatch.setattr("sys.stdin", io.StringIO("t\n99\nnonsense\nu\nu\nh\ntap stock\nq\n"))
    assert main(["play", file, "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "no move numbered 99" in out and "not played" in out
    assert "nothing to undo" in out and "hint: " in out
    # the counter shown goes back on undo; the moves made, the score's fact, still count it
    assert "unfinished after 1 moves (2 made)" in out


def test_a_plan_goes_on_where_the_true_view_holds_the_other_copy_of_a_card() -> None:
    """A plan is played forward on the view; with two decks the true game's next view may hold
    a card's two copies the other way round. The plan must go on there (boards compared by
    printed faces) rather than break into a new search on every such board."""
    game = bundled(Path(__file__).parent.parent / "rulesets" / "forty_thieves.cardz")
    rng = random.Random(3)
    swapped = 0
    for seed in range(1, 20):
        seat = Seat(game, game.deal(seed))
        for _ in range(60):
            moves = game.legal_moves(seat.view)
            if not moves:
                break
            move = rng.choice(moves)
            try:
                forward = game.apply(seat.view, move, reveal=refuse_reveal)
            except Unknown:
                seat.play(move)
                continue
            seat.play(move)
            after = game.legal_moves(forward)
            if forward.piles != seat.view.piles and after:
                swapped += 1
                plan = follow(game, forward, [after[0]], True)
                assert goes_on(game, plan, seat.view)
    assert swapped >= 5


@pytest.mark.parametrize("planner, option, high", [
    ("expectimax", "depth", "EXPECTIMAX_MAX_DEPTH"),
    ("expectimax", "samples", "EXPECTIMAX_MAX_SAMPLES"),
    ("expectimax", "width", "EXPECTIMAX_MAX_WIDTH"), ("value", "samples", "VALUE_MAX_SAMPLES")])
def test_a_planners_counts_are_whole_numbers_in_their_range(planner, option, high):
    """A fraction, a text or infinity was a TypeError deep in play, 0 a ZeroDivisionError, and a
    negative count was read as 1 or flipped the value planner's weights (before stop 69)."""
    import cardz_core.limits as limits
    from cardz_core.rulesets import open_game

    game = open_game("klondike_draw3")
    top = getattr(limits, high)
    assert make_planner(game, planner, **{option: top}) is not None  # at the limit
    assert make_planner(game, planner, **{option: 1}) is not None
    for bad in (top + 1, 0, -1, 2.5, "abc", float("inf"), float("nan"), None, True):
        with pytest.raises(CardzError, match=f"{option}.* is 1 to {top:,}, not "):
            make_planner(game, planner, **{option: bad})
