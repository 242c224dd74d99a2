"""The embedding API: ``cardz_core.open_game`` by path or bundled name, ``load_game`` for text
and dicts, the exported names, and moves, states and statuses in their text forms."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import cardz_core
from cardz_core import CardzError, Move, State, Status
from cardz_core.rulesets import RULESETS_DIR, find, game_file
from conftest import board, run_cli


def test_every_exported_name_resolves():
    assert "open_game" in cardz_core.__all__ and "load_game" in cardz_core.__all__
    for name in cardz_core.__all__:
        assert getattr(cardz_core, name) is not None, name
    assert isinstance(cardz_core.open_game("golf"), cardz_core.Game)
    with pytest.raises(AttributeError):
        cardz_core.no_such_name  # noqa: B018


def test_importing_the_package_imports_nothing_heavy():
    code = "import sys, cardz_core; print(sorted(m for m in sys.modules if m.startswith('cardz_')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    # began: the time the import began, for the program cache (the module holds nothing else)
    assert json.loads(done.stdout.replace("'", '"')) == ["cardz_core", "cardz_core.began"]


@pytest.mark.parametrize("name", ["klondike_draw3", "Klondike (draw 3)", "KLONDIKE (TURN THREE)",
                                  " klondike_draw3 "])
def test_a_bundled_game_by_file_name_name_or_alias(name):
    assert game_file(name) == RULESETS_DIR / "klondike_draw3.cardz"
    assert cardz_core.open_game(name).spec.name == "Klondike (draw 3)"


def test_a_path_is_read_before_a_name(tmp_path, monkeypatch):
    (tmp_path / "golf").write_text((RULESETS_DIR / "freecell.cardz").read_text())
    monkeypatch.chdir(tmp_path)
    assert cardz_core.open_game("golf").spec.name == "FreeCell"
    assert cardz_core.open_game(RULESETS_DIR / "golf.cardz").spec.name == "Golf"


def test_names_that_name_no_game_or_two():
    with pytest.raises(CardzError, match="did you mean klondike"):
        game_file("klondyke")
    with pytest.raises(CardzError, match="no such game file, and no bundled game"):
        cardz_core.open_game("zzzz-qqqq")
    # "Idiot's Delight" is an alias of both Aces Up and King Albert
    with pytest.raises(CardzError, match="Aces Up .* King Albert"):
        find("idiot's delight")
    assert find("Aces Up").path.stem == "aces_up"


def test_load_game_reads_text_and_dicts_not_paths():
    text = (RULESETS_DIR / "golf.cardz").read_text()
    assert cardz_core.load_game(text).name == "Golf"
    assert cardz_core.load_game(json.loads(text)).name == "Golf"
    with pytest.raises(CardzError, match="is not JSON text.*use cardz_core.open_game"):
        cardz_core.load_game("rulesets/golf.cardz")
    with pytest.raises(CardzError, match="not valid JSON: line 1 column 10"):
        cardz_core.load_game('{"name": }')  # broken JSON keeps its own message


def test_status_is_a_named_int():
    game = cardz_core.open_game("golf")
    state = game.deal(3)
    status = game.status(state)
    assert status is Status.PLAYING and status == 0 and status.name == "PLAYING"
    assert [int(s) for s in Status] == [0, 1, 2]
    assert json.dumps({"status": Status.WON}) == '{"status": 1}'
    assert State(state.piles, state.came_from, state.recycles, status=2).status is Status.LOST


def test_move_repr_is_the_text_form_by_depot_index():
    assert repr(Move(8, 4, 2)) == "Move(8@4>2)"
    assert repr(Move(8, 4, 2, 2)) == "Move(8@4>2=H)"
    assert repr(Move(0, -1, -1)) == "Move(tap 0)"
    game = cardz_core.open_game("klondike")
    state = game.deal(1)
    for move in game.legal_moves(state):
        named = game.move_text(move)
        by_index = named
        for i, depot in sorted(enumerate(game.depot_names), key=lambda p: -len(p[1])):
            by_index = by_index.replace(depot, str(i))
        assert repr(move) == f"Move({by_index})"


def test_state_repr_in_card_notation():
    game = cardz_core.open_game("klondike")
    n = game.n_depots
    names = game.depot_names
    state = board(game, {names[0]: ["~KC", "7D"], names[2]: ["AS"]}, moves=3, redeals=1)
    piles = state.piles
    empties = " | -" * (n - 3)
    assert repr(state) == f"State(playing, moves=3, redeals=1, piles=[~KC 7D | - | AS{empties}])"
    after = state.copy()
    after.status = Status.WON
    assert repr(after).startswith("State(won, moves=3, redeals=1, piles=[~KC 7D | -")
    same = State(piles, state.came_from, state.recycles, moves=3, redeals=1,
                 declared=state.declared)
    assert same == state and hash(same) == hash(state)
    # without the card table a code shows its card id
    assert repr(same).startswith(f"State(playing, moves=3, redeals=1, piles=[~#{piles[0][0] >> 1} ")
    view = State(((-2, piles[2][0]),) + ((),) * (n - 1), (-1,) * n, (0,) * n, cards=game.identity)
    assert repr(view).startswith("State(playing, piles=[~? AS | - |")


def test_the_commands_take_a_bundled_name(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "deal", "golf", "--seed", "2")
    assert code == 0 and json.loads(out)["game"] == "Golf"
    board = tmp_path / "b.json"
    board.write_text(out)
    code, out, _ = run_cli(capsys, "moves", "Golf", "--board", str(board), "--json")
    assert code == 0 and json.loads(out)
    assert run_cli(capsys, "check", "freecell", "Klondike (draw 3)")[0] == 0
    code, out, _ = run_cli(capsys, "solve", "freecell", "--ms", "1", "--json")
    assert code == 0 and json.loads(out)["result"] == "won"
    code, out, _ = run_cli(capsys, "play", "golf", "--seed", "2", "--planner", "usual", "--json")
    assert code == 0 and json.loads(out)["seed"] == 2
    code, out, _ = run_cli(capsys, "simulate", "golf", "--games", "2", "--workers", "1", "--json")
    assert code == 0 and json.loads(out)["game"] == "Golf"
    code, _, err = run_cli(capsys, "deal", "klondyke", "--seed", "1")
    assert code == 1 and "did you mean klondike" in err
