"""The command line under faults: signals, bad output paths, hostile document arguments, slow
outcome listings and seeds (issue: every one ends in a clear answer)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardz_core.cli import reading
from cardz_core.cli.common import FLAG_ECHO
from cardz_core.cli.main import main
from cardz_core.limits import FLAG_MAX_DIGITS, MAX_NESTING, MAX_SEED

ROOT = Path(__file__).resolve().parents[1]
KLONDIKE = str(ROOT / "rulesets" / "klondike.cardz")
ACES_UP = str(ROOT / "rulesets" / "aces_up.cardz")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture()
def board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    code, out, _ = run(capsys, "deal", KLONDIKE, "--seed", "3")
    path = tmp_path / "b.json"
    path.write_text(out, encoding="utf-8")
    return path


# -- signals ------------------------------------------------------------------------------------

def _simulate(tmp_path: Path, workers: int) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "cardz_core.cli.main", "simulate", KLONDIKE, "--games", "5000",
            "--workers", str(workers), "--batch-size", "2", "--out", str(tmp_path / "rows.jsonl"),
            "--report", str(tmp_path / "r.html"), "--json",
            "--option", "solve=0"]  # usual by its scores: the harness is what is tested
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, start_new_session=True)


def _wait_for_rows(path: Path, n: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if path.exists() and len(path.read_text().splitlines()) >= n:
            return
        time.sleep(0.1)
    raise AssertionError("the simulation wrote no rows")


def _survivors(pgid: int) -> bool:
    """Whether any process of the simulation's session is still alive after a grace period."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return False
        time.sleep(0.1)
    os.killpg(pgid, signal.SIGKILL)  # leave nothing behind, then fail
    return True


@pytest.mark.parametrize("workers,signum,group", [
    (2, signal.SIGTERM, False), (1, signal.SIGTERM, False), (1, signal.SIGHUP, False),
    # to the whole process group, as `timeout` and a closed terminal send it: it killed
    # multiprocessing's forkserver and resource tracker, which broke the pool, lost the rows
    # and left the workers waiting for good
    (2, signal.SIGTERM, True), (2, signal.SIGHUP, True)])
def test_a_signal_stops_simulate_like_ctrl_c(tmp_path: Path, workers: int, signum: int,
                                             group: bool) -> None:
    proc = _simulate(tmp_path, workers)
    rows = tmp_path / "rows.jsonl"
    _wait_for_rows(rows, 4, proc)
    if group:
        os.killpg(proc.pid, signum)
    else:
        proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + signum, err
    assert "Traceback" not in err
    summary = json.loads(out)
    assert summary["interrupted"] is True
    kept = [json.loads(line) for line in rows.read_text().splitlines()]  # every row complete
    assert "made" in kept.pop(0)  # the first line says how the rows were made
    assert len(kept) == summary["planners"]["usual"]["games"] == summary["deals_done"] < 5000
    assert "interrupted" in (tmp_path / "r.html").read_text(encoding="utf-8")
    assert not _survivors(proc.pid), "a worker or the forkserver outlived the command"


def test_the_workers_end_when_simulate_is_killed_outright(tmp_path: Path) -> None:
    """SIGKILL gives the parent no chance to stop its workers. They went on with their batches,
    then waited on the pool's queue for good, and the forkserver and resource tracker with them."""
    proc = _simulate(tmp_path, 2)
    _wait_for_rows(tmp_path / "rows.jsonl", 4, proc)
    proc.kill()
    proc.wait(timeout=60)
    assert not _survivors(proc.pid), "a worker or the forkserver outlived the command"


def _playing(save: Path, taps: int) -> subprocess.Popen[str]:
    """`cardz play` on Klondike deal 3 saving to ``save``, once it has tapped the stock ``taps``
    times and shows the board, its prompt waiting for a key."""
    argv = [sys.executable, "-m", "cardz_core.cli.main", "play", KLONDIKE, "--seed", "3",
            "--save", str(save)]
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, bufsize=1,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("t\n" * taps)
    proc.stdin.flush()
    for line in proc.stdout:
        if f"Klondike: move {taps}," in line:
            break
    return proc


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGHUP])
def test_a_signal_in_play_saves_the_moves_made(tmp_path: Path, signum: int) -> None:
    """Ctrl-C or a closed terminal keeps the game, as q and the end of input do."""
    save = tmp_path / "game.json"
    proc = _playing(save, 2)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, err
    assert "Traceback" not in err and "interrupted" in err
    assert f"saved to {save}" in out
    saved = json.loads(save.read_text(encoding="utf-8"))
    assert [s["move"] for s in saved["steps"]] == ["tap stock", "tap stock"]


def test_an_interrupted_play_whose_save_fails_still_exits_as_interrupted(tmp_path: Path) -> None:
    """The save place was checked before the first move; a folder of that name replaced by a
    file since makes the save on Ctrl-C fail: it says so, and the exit is still 130."""
    folder = tmp_path / "saves"
    folder.mkdir()
    save = folder / "game.json"
    proc = _playing(save, 1)
    folder.rmdir()
    folder.write_text("in the way", encoding="utf-8")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    assert f"cannot save the game to {save}" in err and "saved to" not in out


# -- output paths -------------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["solve", "no-such-game.cardz", "--seed", "1", "--log", "{missing}/x.json"],
    ["solve", "no-such-game.cardz", "--seed", "1", "--log", "{dir}"],
    ["render", "no-such-game.cardz", "--board", "b.json", "-o", "{dir}"],
    ["render", "no-such-game.cardz", "--board", "b.json", "-o", "{missing}/b.svg"],
    ["simulate", "no-such-game.cardz", "--report", "{dir}"],
    ["simulate", "no-such-game.cardz", "--out", "{missing}/rows.jsonl"],
    ["simulate", "no-such-game.cardz", "--out", "{dir}/{long}.jsonl"],  # past the file system's
    ["new", "{long}"],  # the file NAME.cardz, so long the file system refuses its name
])
def test_output_paths_are_checked_before_any_work(argv: list[str], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # the game file does not exist: a refusal naming the output proves the path came first
    argv = [a.format(missing=tmp_path / "missing", dir=tmp_path, long="9" * 1_000) for a in argv]
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert len(err.strip().splitlines()) == 1 and "cannot write" in err
    assert "no-such-game" not in err


def test_an_unwritable_output_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if os.geteuid() == 0:
        target = tmp_path / "x.json"
        target.mkdir()  # root may write anywhere: a directory in the file's place is refused
    else:
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o500)
        target = locked / "x.json"
    code, _, err = run(capsys, "solve", KLONDIKE, "--seed", "1", "--log", str(target))
    assert code == 1 and "cannot write" in err


# -- document arguments -------------------------------------------------------------------------

def test_a_board_that_is_not_a_file_is_refused(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    for arg, why in ((str(tmp_path), "is a directory"), ("/dev/zero", "not a regular file"),
                     (str(tmp_path / "none.json"), "no such file")):
        code, _, err = run(capsys, "moves", KLONDIKE, "--board", arg)
        assert code == 1 and why in err, err


def test_a_board_that_is_not_utf8_is_refused(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"game": "Klondike \xe9"}')
    code, _, err = run(capsys, "moves", KLONDIKE, "--board", str(bad))
    assert code == 1 and "not UTF-8 text: byte 19 is 0xe9" in err


def test_nesting_at_and_past_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    at = "[" * (MAX_NESTING - 1) + "{}" + "]" * (MAX_NESTING - 1)
    assert reading.parse_document(at, "board") is not None
    deep = "[" * 3000 + "]" * 3000
    code, _, err = run(capsys, "moves", KLONDIKE, "--board", deep)
    assert code == 1 and f"nested deeper than {MAX_NESTING} levels" in err
    past = "[" * MAX_NESTING + "{}" + "]" * MAX_NESTING
    with pytest.raises(Exception, match="nested deeper"):
        reading.parse_document(past, "board")


def test_size_at_and_past_the_limit(tmp_path: Path, board: Path,
                                    monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    size = board.stat().st_size
    monkeypatch.setattr(reading, "MAX_DOCUMENT_BYTES", size)
    assert run(capsys, "moves", KLONDIKE, "--board", str(board))[0] == 0
    monkeypatch.setattr(reading, "MAX_DOCUMENT_BYTES", size - 1)
    code, _, err = run(capsys, "moves", KLONDIKE, "--board", str(board))
    assert code == 1 and "limits.MAX_DOCUMENT_BYTES" in err


def test_duplicate_keys_and_numbers_that_are_not_finite_name_the_pointer(
        board: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = board.read_text()
    doc = json.loads(text)
    column = json.dumps(doc["depots"]["column-1"])
    dup = text.replace('"column-1":', f'"column-1": {column}, "column-1":', 1)
    code, _, err = run(capsys, "moves", KLONDIKE, "--board", dup)
    assert code == 1 and "/depots/column-1: board: key 'column-1' is written twice" in err
    code, _, err = run(capsys, "moves", KLONDIKE, "--board", text.replace(
        '"status":', '"status": "playing", "status":', 1))
    assert code == 1 and "cardz moves: /status: board: key 'status' is written twice" in err
    for number in ("NaN", "Infinity", "-Infinity", "1e999"):
        bad = text.replace('"moves": 0', f'"moves": {number}', 1)
        code, _, err = run(capsys, "moves", KLONDIKE, "--board", bad)
        assert code == 1 and f"/counters/moves: board: {number} is not a finite number" in err


def test_move_text_that_cannot_be_a_path_is_read_as_a_move(
        board: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for text in ("x" * 300, "a/" + "b" * 256, "tap\x00stock", "tap stock" + "/x" * 3000):
        code, _, err = run(capsys, "apply", KLONDIKE, "--board", str(board), "--move", text)
        assert code == 1 and "Traceback" not in err and "File name too long" not in err
        assert err.startswith("cardz apply: --move")


@pytest.mark.parametrize("argv, said", [
    (["apply", "--board", "-", "--move", "-"], "argument --move: standard input is read once, "
                                               "and --board reads it"),
    (["apply", "--board", "{board}", "--move", "-", "--move", "-"],
     "argument --move: standard input is read once: give '-' to one --move only"),
    (["outcomes", "--board", "-", "--move", "-"], "argument --move: standard input is read "
                                                  "once, and --board reads it"),
])
def test_standard_input_is_given_to_one_argument(argv: list[str], said: str, board: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    argv = [a.replace("{board}", str(board)) for a in argv]
    code, out, err = run(capsys, argv[0], KLONDIKE, *argv[1:])
    assert (code, out) == (2, "") and err.strip().endswith(said)


@pytest.mark.parametrize("text, said", [
    ('{"format": "cardz-board/1",}', "board is not valid JSON: line 1 column 27: a comma before "
                                     "the closing '}' (JSON allows none after the last item)"),
    ('{"format": "cardz-board/1"', "board is not valid JSON: line 1 column 27: the text ends "
                                   "before the JSON value does"),
])
def test_a_board_that_is_not_json_is_explained(text: str, said: str,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "moves", KLONDIKE, "--board", text)
    assert code == 1 and err.startswith(f"cardz moves: {said}")


def test_a_board_file_may_begin_with_a_byte_order_mark(board: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    marked = tmp_path / "marked.json"
    marked.write_bytes(b"\xef\xbb\xbf" + board.read_bytes())
    assert run(capsys, "moves", KLONDIKE, "--board", str(marked)) == \
        run(capsys, "moves", KLONDIKE, "--board", str(board))


@pytest.mark.parametrize("board, said", [
    ({}, "/format: format must be 'cardz-board/1', not null"),
    ({"format": "cardz-board/1", "game": None}, "/game: this board is for null, not 'Klondike'"),
])
def test_a_documents_values_are_shown_in_jsons_words(board: dict[str, object], said: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "moves", KLONDIKE, "--board", json.dumps(board))
    assert (code, err.strip()) == (1, f"cardz moves: {said}")


@pytest.mark.parametrize("move, said", [
    ("KD>cell", "'KD>cell': no legal move takes KD to cell"),  # KD lies under other cards
    ("ZZ>foundation", "'ZZ>foundation': 'ZZ' is neither a card (like 7H or 10D) nor a depot of "
                      "'FreeCell'"),
    ("colum-1>cell-1", "'colum-1' is neither a card (like 7H or 10D) nor a depot of 'FreeCell' "
                       "(did you mean 'column-1'?)"),
    ("column-1>cell-1", "a move names the card it takes from column-1 by its position, "
                        "column-1@INDEX>cell-1, or by the card, CARD>cell-1"),
])
def test_a_move_by_its_card_says_what_is_wrong_with_it(move: str, said: str,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "freecell", "--seed", "1")
    code, _, err = run(capsys, "apply", "freecell", "--board", out, "--move", move)
    assert code == 1 and err.strip().endswith(said), err


@pytest.mark.parametrize("move", ["KD>" + "x" * 5000, "x" * 5000, "column-1@0>" + "x" * 5000,
                                  '{"from": "column-1", "index": 0, "to": "cell-1", "' + "x" * 5000
                                  + '": 1}'])
def test_a_long_move_is_quoted_cut_short(move: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", "freecell", "--seed", "1")
    code, _, err = run(capsys, "apply", "freecell", "--board", out, "--move", move)
    assert code == 1 and "x" * 60 not in err and len(err) < 400, err  # it quoted all 5,000


def test_a_whole_number_past_pythons_digit_limit_is_refused_by_its_size(
        board: Path, capsys: pytest.CaptureFixture[str]) -> None:
    move = '{"from": "column-1", "index": ' + "9" * 5000 + ', "to": "foundation-1"}'
    code, _, err = run(capsys, "apply", KLONDIKE, "--board", str(board), "--move", move)
    # the argument echoed cut short, the number named by its size
    assert (code, err.strip()) == (1, "cardz apply: --move '{\"from\": \"column-1\", \"index\": "
                                      "9999999999...': index is the picked card's position, a whole "
                                      "number from 0 (bottom) below 208, not a number of about 5000 "
                                      "digits")


def test_a_move_document_is_read_strictly(board: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "apply", KLONDIKE, "--board", str(board), "--move",
                       '{"tap": "stock", "tap": "stock"}')
    assert code == 1 and "key 'tap' is written twice" in err


# -- outcomes and seeds -------------------------------------------------------------------------

def test_an_outcome_listing_stops_at_its_work_budget(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "deal", ACES_UP, "--seed", "1")
    b = tmp_path / "b.json"
    b.write_text(out, encoding="utf-8")
    # four unknown cards from a full stock: the first complete outcome is past the budget, so
    # the one drawing the card with the most copies left each time is answered (it was none)
    code, out, err = run(capsys, "outcomes", ACES_UP, "--board", str(b), "--move", "tap stock",
                         "--limit", "1", "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["stopped"] is True and len(doc["outcomes"]) == 1
    assert doc["coverage"] == doc["outcomes"][0]["probability"] > 0
    code, out, _ = run(capsys, "outcomes", ACES_UP, "--board", str(b), "--move", "tap stock",
                       "--limit", "1")
    assert "stopped: listing them took the whole work budget" in out


@pytest.mark.parametrize("argv", [["deal", KLONDIKE], ["play", KLONDIKE],
                                  ["solve", KLONDIKE, "--max-states", "10"],
                                  ["simulate", KLONDIKE, "--games", "1"]])
def test_one_rule_for_seeds(argv: list[str], tmp_path: Path,
                            capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
                            ) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    for bad in ("-3", str(MAX_SEED + 1)):
        code, _, err = run(capsys, *argv, "--seed", bad)
        # a usage error (exit 2), worded as the parser's own, in every command
        assert code == 2 and \
            f"error: argument --seed: must be from 0 to {MAX_SEED:,}, not {int(bad):,}" in err
    code, _, err = run(capsys, *argv, "--seed", str(MAX_SEED))
    assert code == 0, err


def exit_code(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    """The exit code and standard error, whether the parser or the command refused."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = int(stop.code or 0)
    return code, capsys.readouterr().err


@pytest.mark.parametrize("argv, flag, bad, low, high", [
    (["simulate", KLONDIKE, "--games"], "--games", "-5", 1, 10_000_000),
    (["simulate", KLONDIKE, "--workers"], "--workers", "0", 1, None),
    (["simulate", KLONDIKE, "--max-moves"], "--max-moves", "0", 1, None),
    (["play", KLONDIKE, "--seed", "1", "--planner", "random", "--max-moves"], "--max-moves", "0", 1,
     None),
    (["deal", KLONDIKE, "--seed"], "--seed", "-1", 0, MAX_SEED)])
def test_one_wording_for_a_number_out_of_range(argv: list[str], flag: str, bad: str, low: int,
                                               high: int | None,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    # simulate's counts are refused in the same words as every other command's numbers
    code, err = exit_code(capsys, [*argv, bad])
    assert code == 2 and f"error: argument {flag}: must be from {low:,} to " in err
    assert err.rstrip().endswith(f", not {int(bad):,}")
    if high is not None:
        assert f"to {high:,}, not" in err


@pytest.mark.parametrize("argv", [["deal", KLONDIKE, "--seed"], ["simulate", KLONDIKE, "--games"],
                                  ["simulate", KLONDIKE, "--seed"]])
def test_one_wording_for_a_value_that_is_not_a_number(argv: list[str],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, err = exit_code(capsys, [*argv, "abc"])
    assert code == 2 and f"error: argument {argv[-1]}: invalid int value: 'abc'" in err


@pytest.mark.parametrize("argv", [["deal", KLONDIKE, "--seed"], ["simulate", KLONDIKE, "--games"],
                                  ["solve", KLONDIKE, "--seed", "1", "--max-states"]])
def test_a_number_is_read_up_to_its_digit_limit(argv: list[str],
                                                capsys: pytest.CaptureFixture[str]) -> None:
    at = "9" * FLAG_MAX_DIGITS  # read, then refused by the flag's own range
    code, err = exit_code(capsys, [*argv, at])
    assert code == 2 and err.rstrip().endswith(f", not {int(at):,}")
    for past in ("9" * (FLAG_MAX_DIGITS + 1), "0" * 5000 + "9" * (FLAG_MAX_DIGITS + 1)):
        code, err = exit_code(capsys, [*argv, past])  # int() alone would refuse 4,300 digits
        assert code == 2
        why = f"a {FLAG_MAX_DIGITS + 1}-digit number is past every limit"
        assert f"argument {argv[-1]}: {why}" in err
    code, err = exit_code(capsys, [*argv, "x" * 5000])  # not a number: echoed cut short
    assert code == 2 and f"invalid int value: '{'x' * FLAG_ECHO}...'" in err and len(err) < 1000


def test_hint_seeds_follow_the_rule(board: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "hint", KLONDIKE, "--board", str(board), "--seed", "-1")
    assert code == 2 and "argument --seed: must be from 0" in err


def test_a_game_path_that_is_not_a_regular_file_is_refused(capsys: pytest.CaptureFixture[str]
                                                           ) -> None:
    code, out, err = run(capsys, "check", "/dev/zero", "--json")
    assert code == 1 and "not a regular file" in out


def test_a_time_budget_names_its_range_and_a_ray_address_needs_ray(
        capsys: pytest.CaptureFixture[str]) -> None:
    for seconds in ("0", "5000", "nan"):  # the range said "from 0", which 0 itself is not
        code, _, err = run(capsys, "play", KLONDIKE, "--planner", "expectimax",
                           "--seconds", seconds)
        assert code == 2 and "argument --seconds: must be more than 0 seconds, at most 3,600, " \
                             f"not {float(seconds):,g}" in err
    # ignored with the local backend (before stop 69)
    code, _, err = run(capsys, "simulate", KLONDIKE, "--games", "1", "--address", "1.2.3.4:6379")
    assert code == 2 and "argument --address: it goes with --backend ray" in err


def test_a_typed_line_is_quoted_short_in_its_refusal(capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("x" * 100_000 + "\n" + "7" * 1_000 + "\nq\n"))
    code, out, _ = run(capsys, "play", KLONDIKE, "--seed", "2", "--save", str(tmp_path / "g"))
    refusals = [line for line in out.splitlines() if "not played" in line]
    assert code == 0 and len(refusals) == 2 and max(map(len, refusals)) < 300
    assert refusals[1].endswith("no move numbered " + "7" * 40 + "...")


def test_check_words_a_folder_and_a_file_not_utf8_as_every_command_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It said "not a regular file" for a folder and quoted Python's codec (before stop 69)."""
    latin = tmp_path / "latin.cardz"
    latin.write_bytes(b'{"name": "\xe9t\xe9"}')
    for path, why in ((tmp_path, "is a directory, not a game file"),
                      (latin, "not UTF-8 text (byte 10)")):
        code, out, _ = run(capsys, "check", str(path))
        assert code == 1 and out.splitlines()[0] == f"{path}: /: {why}"
        code, _, err = run(capsys, "simulate", str(path), "--games", "1")
        assert code == 1 and why in err


@pytest.mark.parametrize("command", [["deal", "--seed", "1"], ["play", "--seed", "1"],
                                     ["simulate", "--games", "1"], ["solve", "--seed", "1"]])
def test_a_folder_or_device_given_as_the_game_is_named_so(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "mine.cardz"
    folder.mkdir()
    code, _, err = run(capsys, command[0], str(folder), *command[1:])
    assert (code, err.strip()) == (1, f"cardz {command[0]}: {folder}: is a directory, not a game file")
    code, _, err = run(capsys, command[0], "/dev/null", *command[1:])
    assert (code, err.strip()) == (1, f"cardz {command[0]}: /dev/null: is not a regular file")


@pytest.mark.engines_chosen
@pytest.mark.parametrize("argv", [
    ["solve", "spider", "--seed", "1", "--max-states", "50000000", "--timeout", "600"],
    ["play", "klondike", "--seed", "2", "--planner", "klondike", "--option", "samples=200000",
     "--option", "limit=100000", "--quiet"]])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_a_native_search_at_once(argv: list[str], signum: int) -> None:
    """A native search runs with Python's lock released, so a signal's handler ran only when it
    returned: at its budget, a minute or more later (before stop 69)."""
    proc = subprocess.Popen([sys.executable, "-m", "cardz_core.cli.main", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, PYTHONPATH=str(ROOT), CARDZ_ENGINE="native"))
    time.sleep(3)  # started, and searching
    assert proc.poll() is None
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=20)  # these searches take minutes when not stopped
    assert proc.returncode == 128 + signum and "interrupted" in err and "Traceback" not in err
