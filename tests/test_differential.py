"""The native engine against the Python engine, the reference, through the differential harness
(tests/differential.py): seeded random play of every rule-set family, compared after every move
(legal moves, position, status, score, undo, the view with memory; outcomes on a sample of
moves, and an illegal move's error; the log replayed). Two games a rule set here, the native
engine also playing from the Python engine's positions; with CARDZ_LONG=1, 10,000 games a
family spread over its rule sets (the long run itself is the driver's: ``python
tests/differential.py run``, docs/engine.md). Last, chosen positions that random play leaves
out: a listing without a limit, a view read from a board document."""

from __future__ import annotations

import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import LONG

import differential
from differential import (Block, Mismatch, families, pair, play_pair, replay_native, run_block,
                          summary, traced)
from cardz_core.engine import Move
from cardz_core.native import extension
from cardz_core.problems import CardzError
from cardz_core.view import Memory, as_view, trace

pytestmark = pytest.mark.skipif(extension() is None, reason="the native extension is not built")

FAMILIES = families()
PER_FAMILY = 10_000 if LONG else 0  # 0: two games a rule set
KLONDIKE = next(p for ps in FAMILIES.values() for p in ps if p.stem == "klondike")


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_family_plays_the_same_on_both_engines(family: str):
    paths = FAMILIES[family]
    games = math.ceil(PER_FAMILY / len(paths)) if PER_FAMILY else 2
    mismatches: list[Mismatch] = []
    for path in paths:
        py, nat = pair(path)
        for seed in range(games):
            played = play_pair(py, nat, path.stem, seed, plain=not LONG)
            if played.mismatch is not None:
                mismatches.append(played.mismatch)
    assert not mismatches, "\n".join(map(str, mismatches))


def test_every_bundled_game_is_in_one_family():
    stems = [p.stem for paths in FAMILIES.values() for p in paths]
    assert len(stems) == len(set(stems)) == 74 and len(FAMILIES) == 29


def test_the_native_engine_alone_gives_the_python_engines_digests():
    py, nat = pair(FAMILIES["Klondike"][0])
    for seed in range(2):
        want = play_pair(py, nat, "agnes_bernauer", seed)
        got = replay_native(nat, seed, views=True)
        assert (got.moves, got.play, got.view) == (want.moves, want.play, want.view)
        assert replay_native(nat, seed).play == want.play
    assert replay_native(nat, 2).play != want.play


def test_a_difference_names_the_game_seed_step_and_what(monkeypatch: pytest.MonkeyPatch):
    """A native answer that differs ends the game as a mismatch saying where and what; the
    harness raises nothing."""
    py, nat = pair(FAMILIES["Golf"][0])
    real = nat.score_value

    def wrong_after_three(state):
        return 99 if state.moves == 3 else real(state)

    monkeypatch.setattr(nat, "score_value", wrong_after_three)
    played = play_pair(py, nat, "black_hole", 4)
    assert played.mismatch is not None
    assert (played.mismatch.game, played.mismatch.seed, played.mismatch.step) == \
        ("black_hole", 4, 3)
    assert str(played.mismatch).startswith("black_hole seed 4 step 3: the score: native 99, "
                                           "python ")


def test_an_illegal_moves_error_on_a_view_is_compared(monkeypatch: pytest.MonkeyPatch):
    py, nat = pair(KLONDIKE)
    real = nat.outcomes

    def worded_otherwise(view, move, limit=None):
        if move == Move(0, 0, 0):
            raise CardzError("another reason")
        return real(view, move, limit)

    monkeypatch.setattr(nat, "outcomes", worded_otherwise)
    played = next(p for p in (play_pair(py, nat, "klondike", s) for s in range(20))
                  if p.mismatch is not None)
    assert "the outcomes of an illegal move on the view: native ('CardzError', 'another " \
        "reason'), python ('IllegalMove', " in played.mismatch.what


def test_the_driver_records_blocks_and_checks_them_against_the_digests(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    path = FAMILIES["Golf"][0]
    row = run_block(Block("Golf", path, 0, 3), {})
    assert (row["block"], row["games"], row["mismatches"]) == ("black_hole.0", 3, [])
    assert row["moves"] == sum(d[0] for d in row["digests"]) > 0
    (tmp_path / "plan.json").write_text(json.dumps({
        "per_family": 3, "cap": differential.MOVE_CAP, "block": differential.BLOCK,
        "outcome_share": differential.OUTCOME_SHARE, "order": ["Golf"], "commit": "c0ffee",
        "extension": "0" * 64}))
    bad = dict(row, digests=[row["digests"][0], [row["digests"][1][0], "0" * 24, ""],
                             row["digests"][2]])
    (tmp_path / "results-1.jsonl").write_text(json.dumps(row) + "\n")
    text = summary(tmp_path)
    assert "commit c0ffee" in text and "1/" in text
    assert [line.split()[1:4] for line in text.splitlines() if line.startswith("Golf")] == \
        [["1", "3", str(row["moves"])]]
    assert differential.check(tmp_path, 1, True, None) == 0
    (tmp_path / "results-1.jsonl").write_text(json.dumps(bad) + "\n")
    assert differential.check(tmp_path, 1, False, None) == 1
    out = capsys.readouterr().out
    assert "DIGEST black_hole seed 1: differs from the stored digest; the engines agree now" in out
    assert "3 games checked on the native engine, 1 differ" in out


def test_a_deeper_pass_plays_other_seeds():
    """``--first-seed`` shifts every rule set's seeds, so a second run plays other deals."""
    per_family = 2 * differential.BLOCK * len(FAMILIES["Golf"])
    first = differential.blocks(per_family, ["Golf"])
    later = differential.blocks(per_family, ["Golf"], first_seed=5000)
    assert [b.first for b in first if b.path == first[0].path] == [0, differential.BLOCK]
    assert [(b.first - 5000, b.games) for b in later] == [(b.first, b.games) for b in first]


def test_a_later_worker_or_a_restart_follows_the_plan_in_place(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    """Only the first worker calibrates and writes the plan; one started after it finished, or a
    restart, reads it whatever options it was given (it once calibrated again and put a plan
    of its own in place, with other seeds)."""
    timed: list[int] = []

    def calibrated(games: int) -> dict[str, float]:
        timed.append(games)
        return {"Golf": 1.0, "Gaps": 2.0}

    monkeypatch.setattr(differential, "calibrated", calibrated)
    monkeypatch.setattr(differential, "_identity", lambda: {"commit": "c0ffee"})
    first = differential._plan(tmp_path, 100, 2, 60, 20_000)
    assert (timed, first["first_seed"], first["order"]) == ([2], 20_000, ["Gaps", "Golf"])
    assert not (tmp_path / "plan.tmp").exists()
    assert differential._plan(tmp_path, 100, 2, 60, 20_000) == first
    assert capsys.readouterr().out == ""
    assert differential._plan(tmp_path, 10_000, 2, 60, 0) == first
    assert timed == [2]
    assert "has its plan: 100 games a family, cap 60, seeds from 20000" in capsys.readouterr().out
    assert json.loads((tmp_path / "plan.json").read_text()) == first


def test_digests_are_the_same_in_another_process():
    """Stored digests are checked by later runs: nothing in them may vary by process."""
    py, nat = pair(FAMILIES["Klondike"][0])
    want = play_pair(py, nat, "agnes_bernauer", 1)
    code = ("import sys; sys.path.insert(0, 'tests'); from differential import *; "
            "p = families()['Klondike'][0]; r = replay_native(pair(p)[1], 1, views=True); "
            "print(r.play, r.view)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=Path(__file__).parents[1])
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [want.play, want.view]


@pytest.mark.parametrize("name", ["klondike", "spider", "gaps", "canfield", "osmosis",
                                  "grandfathers_clock", "cruel"])
def test_the_memory_traced_is_views_trace(name: str):
    """The harness skips trace's shadow play of a move that shuffles nothing: the memory is
    the same as ``view.trace`` gives."""
    py, _ = pair(next(p for ps in FAMILIES.values() for p in ps if p.stem == name))
    state, rng = py.deal(3), random.Random(3)
    memory = Memory.initial(py, state)
    for _ in range(differential.MOVE_CAP):
        moves = py.legal_moves(state)
        if not moves:
            break
        move = rng.choice(moves)
        after, learned = traced(py, state, move, memory)
        want, want_memory, _, _ = trace(py, state, move, memory)
        assert (after, learned) == (want, want_memory)
        state, memory = after, learned


# -- chosen positions: what random play's comparisons leave out ------------------------------------


def test_a_full_outcome_listing_and_a_cut_one_are_the_python_engines():
    """The harness lists at most ``LIMIT`` outcomes; here a listing without a limit sums to one
    with full coverage, and a cut one is its likeliest outcomes, on both engines."""
    py, nat = pair(KLONDIKE)
    v = py.view(py.deal(3))
    tap = Move(py.depot_index["stock"], -1, -1)
    full = nat.outcomes(v, tap)
    assert [o.probability for o in full] == [o.probability for o in py.outcomes(v, tap)]
    assert math.isclose(sum(o.probability for o in full), 1.0) and full.coverage == 1.0
    cut = nat.outcomes(v, tap, limit=5)
    assert [o.view for o in cut] == [o.view for o in full[:5]]
    assert cut.coverage == py.outcomes(v, tap, limit=5).coverage < 1.0


def test_a_view_read_from_its_board_document_plays_natively_as_a_view():
    """The harness plays the views the Python engine makes; this one is read from a document."""
    py, nat = pair(KLONDIKE)
    doc = py.board_document(py.view(py.deal(5)))
    v = as_view(nat.load_board(doc))
    tap = Move(py.depot_index["stock"], -1, -1)
    assert nat.outcomes(v, tap, limit=3) == py.outcomes(v, tap, limit=3)
