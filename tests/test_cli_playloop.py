"""`cardz play` for people: stable keys, moves naming their cards, one entry for interchangeable
empty targets, an undo the counter shows, save on quit, --resume and --replay; moves written by
their card and did-you-mean for depot names."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cardz_core.cli.menu import menu, pick
from cardz_core.problems import CardzError
from cardz_core.rulesets import open_game
from conftest import board, run_cli

KLONDIKE = open_game("klondike")
SEED = 2  # opens with AD on column-7, 8S on column-3, 9H on column-1 and four empty foundations


def _play(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str,
          *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    return run_cli(capsys, "play", *argv)


def test_the_menu_names_cards_and_merges_the_empty_foundations() -> None:
    state = KLONDIKE.deal(SEED)
    entries = menu(KLONDIKE, state, KLONDIKE.legal_moves(state))
    assert [(e.key, e.label) for e in entries] == [
        ("t", "tap stock"), ("1", "8S column-3 > column-1"), ("2", "AD column-7 > foundation"),
        ("3", "AD column-7 > column-2")]
    assert KLONDIKE.move_text(entries[2].move) == "column-7@6>foundation-1"
    # the engine's order does not matter: keys follow the board
    assert menu(KLONDIKE, state, list(reversed(KLONDIKE.legal_moves(state)))) == entries
    assert pick(entries, "ad COLUMN-7>foundation") == entries[2]
    assert pick(entries, "T") == pick(entries, "tap  stock") == entries[0]
    assert pick(entries, "4") is None
    # the source may be left out when one entry moves that card there
    assert pick(entries, "AD>foundation") == pick(entries, "ad > FOUNDATION") == entries[2]
    assert pick(entries, "AD>column-2") == entries[3]
    assert pick(entries, "8S>foundation") is None


def test_a_card_without_its_source_is_ambiguous_when_two_copies_can_go() -> None:
    g = open_game("forty_thieves")  # two decks: an AH on each of two columns
    state = board(g, {"column-1": ["KS", "AH"], "column-2": ["KD", "AH"]})
    entries = menu(g, state, g.legal_moves(state))
    assert pick(entries, "AH column-1 > foundation") is not None
    assert pick(entries, "AH>foundation") is None


def test_apply_and_outcomes_take_a_card_to_the_empty_foundations_as_play_offers_it(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "b.json"
    path.write_text(json.dumps(KLONDIKE.board_document(KLONDIKE.deal(SEED))), encoding="utf-8")
    code, out, err = run_cli(capsys, "apply", "klondike", "--board", str(path), "--move",
                             "AD>foundation")
    assert code == 0, err
    assert json.loads(out)["depots"]["foundation-1"] == ["AD"]
    code, _, err = run_cli(capsys, "apply", "klondike", "--board", str(path), "--move",
                           "8S>foundation")
    assert code == 1 and "'8S>foundation': no legal move takes 8S to foundation" in err
    code, _, err = run_cli(capsys, "apply", "klondike", "--board", str(path), "--move", "2")
    assert code == 1 and "a move is written FROM@INDEX>TO" in err  # menu keys are play's only
    code, out, err = run_cli(capsys, "outcomes", "klondike", "--board", str(path), "--move",
                             "AD>foundation", "--json")
    assert code == 0, err
    assert json.loads(out)["outcomes"][0]["view"]["depots"]["foundation-1"] == ["AD"]


def test_a_run_shows_how_many_cards_go_with_the_picked_one() -> None:
    g = open_game("freecell")
    state = board(g, {"column-1": ["KS", "QH", "JS"], "column-2": ["KD"]})
    labels = {e.label for e in menu(g, state, g.legal_moves(state))}
    assert "QH +1 column-1 > column-2" not in labels  # QH is red on KD red: not legal
    assert "JS column-1 > cell" in labels  # four empty cells: one entry


def test_a_move_may_name_its_card() -> None:
    state = KLONDIKE.deal(SEED)
    assert KLONDIKE.move_text(KLONDIKE.parse_move("AD>foundation-1", board=state)) == \
        "column-7@6>foundation-1"
    assert KLONDIKE.move_text(KLONDIKE.parse_move("ad column-7 > foundation-2", board=state)) \
        == "column-7@6>foundation-2"
    with pytest.raises(CardzError, match="no face-up AS on the board"):
        KLONDIKE.parse_move("AS>foundation-1", board=state)
    with pytest.raises(CardzError, match="'foundation' names 4 depots"):
        KLONDIKE.parse_move("AD>foundation", board=state)
    two = open_game("spider")
    twin = board(two, {"column-1": ["5H"], "column-2": ["5H"]})
    with pytest.raises(CardzError, match=r"5H is face-up at column-1@0, column-2@0"):
        two.parse_move("5H>column-3", board=twin)
    assert two.move_text(two.parse_move("5H column-2>column-3", board=twin)) == \
        "column-2@0>column-3"


def test_a_misspelt_depot_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(CardzError, match=r"'stok' is not a depot .* \(did you mean 'stock'\?\)"):
        KLONDIKE.parse_move("tap stok")
    with pytest.raises(CardzError, match=r"did you mean 'foundation-1'"):
        KLONDIKE.parse_move("column-3@2>foundaton-1")
    board_doc = json.dumps(KLONDIKE.board_document(KLONDIKE.deal(SEED)))
    code, _, err = run_cli(capsys, "apply", "klondike", "--board", board_doc, "--move", "tap stok")
    assert code == 1 and "did you mean 'stock'" in err
    code, out, _ = run_cli(capsys, "apply", "klondike", "--board", board_doc,
                           "--move", "AD>foundation-3")
    assert code == 0 and json.loads(out)["depots"]["foundation-3"] == ["AD"]


def test_a_lone_word_that_is_no_key_is_answered_with_the_keys(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _play(capsys, monkeypatch, "moves\nstok\ncolumn-3@9>column-1\nq\n",
                         "klondike", "--seed", str(SEED))
    said = [x.split("not played: ", 1)[1] for x in out.splitlines() if "not played: " in x]
    # a word that is nothing gets the keys and the forms of a move, not the move grammar
    assert code == 0 and said[0].startswith("'moves' is not a key or a move: type a move's "
                                            "number from the list")
    assert "u undo, h hint, q save and quit" in said[0] and "FROM@INDEX" not in said[0]
    # a word near a move still gets the suggestion, and a move the grammar's words
    assert "(did you mean 'tap stock'?)" in said[1]
    assert said[2] == "column-3 has no card at position 9"


def test_keys_stay_put_and_undo_takes_the_counter_back(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = _play(capsys, monkeypatch, "t\nt\nu\nq\n", "klondike", "--seed", str(SEED))
    assert code == 0
    # t taps the stock each time, whatever the moves the draws bring
    assert out.count("move 1, playing") == 2 and "move 2, playing" in out
    assert "unfinished after 1 moves (2 made)" in out


def test_quit_saves_and_resume_goes_on(capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    code, out, _ = _play(capsys, monkeypatch, "2\nt\nq\n", "klondike", "--seed", str(SEED),
                         "--save", str(save))
    assert code == 0 and f"--resume {save}" in out
    log = json.loads(save.read_text(encoding="utf-8"))
    assert log["format"] == "cardz-log/1" and log["seed"] == SEED
    assert [s["move"] for s in log["steps"]] == ["column-7@6>foundation-1", "tap stock"]
    code, out, _ = _play(capsys, monkeypatch, "u\nq\n", "klondike", "--resume", str(save))
    assert code == 0
    assert out.splitlines()[1] == "Klondike: move 2, playing"  # where the game was left
    assert "foundation-1  AD" in out
    log = json.loads(save.read_text(encoding="utf-8"))  # saved back where it came from
    assert log["steps"][-1] == {"undo": True}


def test_quit_saves_by_default_in_the_state_folder(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    _play(capsys, monkeypatch, "t\nq\n", "klondike", "--seed", "5")
    assert json.loads((tmp_path / "cardz" / "klondike-seed5.json").read_text())["seed"] == 5


@pytest.mark.parametrize("given", ["-", "inline"])
def test_a_game_resumed_from_no_file_saves_to_the_default_place(
        given: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """Not to a file named ``-``, nor to a path spelt by the JSON's text (before stop 69)."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.chdir(tmp_path)
    _play(capsys, monkeypatch, "t\nq\n", "klondike", "--seed", "5", "--save", "g.json")
    text = (tmp_path / "g.json").read_text(encoding="utf-8")
    arg, typed = ("-", text) if given == "-" else (text, "t\nq\n")  # '-': the input then ends
    code, out, err = _play(capsys, monkeypatch, typed, "klondike", "--resume", arg)
    saved = tmp_path / "state" / "cardz" / "klondike-seed5.json"
    assert code == 0, err
    assert f"--resume {saved}" in out
    assert json.loads(saved.read_text(encoding="utf-8"))["seed"] == 5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "state"]


def test_a_save_place_that_cannot_be_written_is_refused_before_the_first_move(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_STATE_HOME", str(blocker))  # the state folder would be under a file
    code, out, err = _play(capsys, monkeypatch, "t\nt\nq\n", "klondike", "--seed", "5")
    assert code == 1 and out == ""  # no board shown, no move made
    assert err.strip() == f"cardz play: cannot save the game to {blocker}/cardz/" \
                          "klondike-seed5.json: Not a directory"


def test_resume_refuses_a_log_of_another_game(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    _play(capsys, monkeypatch, "t\nq\n", "klondike", "--seed", "5", "--save", str(save))
    code, _, err = _play(capsys, monkeypatch, "q\n", "golf", "--resume", str(save))
    assert code == 1 and "--resume" in err and "another game file" in err
    assert len(err.strip().splitlines()) == 1


def test_a_missing_save_or_log_is_named_as_its_flag_knows_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    gone = str(tmp_path / "gone.json")
    code, _, err = _play(capsys, monkeypatch, "q\n", "klondike", "--resume", gone)
    assert code == 1 and err.strip() == \
        f"cardz play: saved game {gone!r}: no such file, and not inline JSON"
    code, _, err = _play(capsys, monkeypatch, "q\n", "klondike", "--replay", gone)
    assert code == 1 and \
        err.strip() == f"cardz play: log {gone!r}: no such file, and not inline JSON"


def test_replay_steps_through_a_solution(capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out, _ = run_cli(capsys, "solve", "golf", "--seed", "2", "--json")
    solved = json.loads(out)
    assert code == 0 and solved["result"] == "won"
    path = tmp_path / "solution.json"
    path.write_text(out, encoding="utf-8")  # the solve --json output holds the log
    code, out, _ = _play(capsys, monkeypatch, "\n\nb\nq\n", "golf", "--replay", str(path))
    assert code == 0 and f"1. {solved['moves'][0]}" in out and f"2. {solved['moves'][1]}" in out
    assert out.strip().endswith(f"(step 1 of {len(solved['moves'])})")  # two on, one back
    code, out, _ = _play(capsys, monkeypatch, "", "golf", "--replay", str(path), "--json")
    doc = json.loads(out)
    assert doc["result"] == "won" and doc["steps"] == len(solved["moves"])


NO_GAME = "nope.cardz: no such game file, and no bundled game of that name"


@pytest.mark.parametrize("argv", [["deal", "nope.cardz", "--seed", "1"], ["check", "nope.cardz"],
                                  ["simulate", "nope.cardz", "--games", "1"],
                                  ["play", "nope.cardz"], ["solve", "nope.cardz", "--seed", "1"]])
def test_a_missing_game_gets_one_wording(argv: list[str], capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *argv)
    assert code == 1 and NO_GAME in out + err


@pytest.mark.parametrize("flag", [["--max-moves", "5"], ["--quiet"]])
def test_a_planners_flag_without_a_planner_is_a_usage_error(
        flag: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "play", "golf", "--seed", "1", *flag)
    assert (code, out) == (2, "")
    assert err.strip().endswith(f"error: argument {flag[0]}: it goes with --planner")
    code, out, _ = run_cli(capsys, "play", "golf", "--seed", "1", "--planner", "random",
                           "--max-moves", "5", "--quiet")
    assert code == 0 and out.strip().splitlines()[-1].startswith("unfinished after 5 moves")


@pytest.mark.parametrize("planner", ["usual", "expectimax"])
@pytest.mark.parametrize("argv", [["play", "golf", "--quiet"], ["simulate", "golf", "--games", "1"],
                                  ["hint", "golf", "--board", "{}"]])
def test_the_same_bad_budget_is_the_same_usage_error(argv: list[str], planner: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_cli(capsys, *argv, "--planner", planner, "--nodes", "0")
    assert code == 2
    assert err.strip().splitlines()[-1].endswith("error: argument --nodes: must be from 1 to "
                                                 "10,000,000, not 0")


@pytest.mark.parametrize("argv", [["moves"], ["view"], ["hint"], ["solve"], ["eval", "1"],
                                  ["apply", "--move", "tap stock"], ["render", "-o", "-"],
                                  ["outcomes", "--move", "tap stock"]])
def test_a_board_of_another_game_is_one_line(argv: list[str],
                                             capsys: pytest.CaptureFixture[str]) -> None:
    board_doc = json.dumps(KLONDIKE.board_document(KLONDIKE.deal(7)))
    code, out, err = run_cli(capsys, argv[0], "spider", "--board", board_doc, *argv[1:])
    assert code == 1 and out == ""
    assert err.strip().splitlines() == [f"cardz {argv[0]}: /game: this board is for 'Klondike', "
                                        "not 'Spider'"]


def test_play_a_winnable_deal(capsys: pytest.CaptureFixture[str],
                              monkeypatch: pytest.MonkeyPatch) -> None:
    from cardz_core.winnable import winnable_deal

    golf = open_game("golf")
    seed = winnable_deal(golf, 0).seed
    code, out, err = _play(capsys, monkeypatch, "", "golf", "--winnable", "--seed", "0",
                           "--json")
    assert code == 0 and f"deal {seed}: the solver has won it" in err
    assert json.loads(out)["seed"] == seed
    assert _play(capsys, monkeypatch, "", "golf", "--winnable", "--replay", "x.json")[0] == 2
