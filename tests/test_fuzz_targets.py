"""Fuzzing in the project: the targets of ``tests/fuzzing.py`` under hypothesis strategies that
know each input's shape (mutated true documents and games, expressions built from the
language's own words, argument lists from the parser's own options), on both engine choices;
every input kept in ``tests/data/fuzz/<target>/`` (each once broke something) run again; and a
short atheris run per target when atheris is installed. ``CARDZ_LONG=1`` runs many more
(``CARDZ_FUZZ_EXAMPLES`` sets the hypothesis examples per target)."""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fuzzing
from conftest import LONG
from fuzzing import DOC_GAMES, EXPR_GAME, EXPR_PLACES, TARGETS, parse_only
from test_fuzz_games import NUMBERS, mutant

CORPUS = Path(__file__).parent / "data" / "fuzz"
EXAMPLES = int(os.environ.get("CARDZ_FUZZ_EXAMPLES", "3000" if LONG else "40"))  # per target
SLOW = 20.0  # seconds one input may take on a loaded machine before it counts as a hang
ENGINES = ("python", "auto")
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not LONG,
                suppress_health_check=list(HealthCheck))


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test runs on the Python engine and on ``auto`` (natively where it can)."""
    monkeypatch.setenv("CARDZ_ENGINE", request.param)
    fuzzing.bundled.cache_clear()
    return str(request.param)


def run(target: str, data: bytes) -> None:
    start = time.perf_counter()
    TARGETS[target](data)
    took = time.perf_counter() - start
    # Under a line tracer the time is the tracer's: once hypothesis has found a failure it
    # traces the examples it runs to explain it (about ten times slower), and so does coverage
    assert took < SLOW or sys.gettrace() is not None, f"{target}: {took:.1f} s for {data[:200]!r}"


def test_a_slow_input_is_a_hang_unless_a_tracer_ran(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(globals(), "SLOW", 0.0)  # every input is slow
    monkeypatch.setitem(TARGETS, "nothing", lambda data: None)
    was = sys.gettrace()  # coverage's, when it runs
    try:
        sys.settrace(None)
        with pytest.raises(AssertionError, match="nothing: "):
            run("nothing", b"")
        sys.settrace(lambda *_: None)
        run("nothing", b"")
    finally:
        sys.settrace(was)


def as_bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else (
        value if isinstance(value, str) else json.dumps(value)).encode("utf-8", "surrogatepass")


def with_game(index: int, value: Any) -> bytes:
    return bytes([index % 256]) + as_bytes(value)


JUNK = st.one_of(NUMBERS, st.none(), st.booleans(), st.text(max_size=10),
                 st.sampled_from(["", "~?", "~AS", "AS", "10H", "JK", "column-1", "stock", "won",
                                  "lost", "playing", "H", "tap stock", "sha256:00"]),
                 st.builds(list), st.builds(dict))


def mutate(draw: Any, doc: Any, times: int) -> Any:
    """``doc`` with ``times`` values replaced by junk or deleted, anywhere inside."""
    doc = copy.deepcopy(doc)
    for _ in range(times):
        slots: list[tuple[Any, Any]] = []
        stack = [doc]
        while stack:
            node = stack.pop()
            items = node.items() if isinstance(node, dict) else enumerate(node) \
                if isinstance(node, list) else ()
            for k, v in items:
                slots.append((node, k))
                stack.append(v)
        if not slots:
            return draw(JUNK)
        container, key = draw(st.sampled_from(slots))
        if isinstance(container, dict) and draw(st.integers(0, 4)) == 0:
            del container[key]
        elif isinstance(container, list) and draw(st.integers(0, 4)) == 0:
            container.insert(key, draw(JUNK))
        else:
            container[key] = draw(JUNK)
    return doc


# -- games -------------------------------------------------------------------------------------
@FUZZ
@given(st.one_of(mutant().map(as_bytes), st.binary(max_size=200)))
def test_game_files(engine: str, data: bytes) -> None:
    run("game", data)


# -- expressions -------------------------------------------------------------------------------
WORDS = ["card", "pile", "depot", "source", "top", "moves", "undos", "recycles", "redeals",
         "stock", "waste", "pile", "pile-1", "home", "Tableau", "Foundation", "Hearts", "King",
         "Ace", "Red", "true", "false", "it", "c", "d", "x", "let", "in", "and", "or", "not",
         "count", "sum", "min", "max", "all", "any", "first", "empty", "top", "faceUp", "faceDown",
         "index", "neighbour", "rank", "suit", "value", "color", "cameFrom", "nosuch"]
SYMBOLS = ["(", ")", ",", ".", "+", "-", "*", "/", "%", "==", "!=", "<", ">", "<=", ">=", "&&",
           "||", "!", "=", "?", ":", "[", "]", "'", '"']
NUMBER_TEXT = st.one_of(st.integers(-10, 10**6).map(str),
                        st.sampled_from(["9007199254740991", "9007199254740992", "1" * 40,
                                         "9" * 4400, "0x10", "1e9", "1.5", "٣", "²", "00"]))
TOKEN = st.one_of(st.sampled_from(WORDS), st.sampled_from(SYMBOLS), NUMBER_TEXT,
                  st.text(max_size=3))


@st.composite
def expression(draw: Any) -> bytes:
    """Tokens of the language joined with spaces, sometimes nested deep or repeated long."""
    tokens = draw(st.lists(TOKEN, max_size=40))
    text = " ".join(tokens)
    shape = draw(st.integers(0, 9))
    if shape == 0:
        text = "(" * draw(st.integers(50, 300)) + text + ")" * draw(st.integers(0, 300))
    elif shape == 1:
        text = "let x = 9 in " * draw(st.integers(1, 12)) + "x" + " * x" * draw(st.integers(0, 60))
    elif shape == 2:
        text = (text + " ") * draw(st.integers(10, 120))
    place = draw(st.integers(0, len(EXPR_PLACES) - 1))
    return bytes([place]) + text.encode("utf-8", "surrogatepass")


@FUZZ
@given(expression())
def test_expressions(engine: str, data: bytes) -> None:
    run("expression", data)


def test_the_expression_game_is_a_game() -> None:
    """The small game the expression target writes into: it loads and plays as it is."""
    for place in range(len(EXPR_PLACES)):
        TARGETS["expression"](bytes([place]) + b"count(pile) > 1")
    assert EXPR_GAME["depots"]


# -- boards, moves, logs -------------------------------------------------------------------------
def true_board(index: int, seed: int, moves: int) -> dict[str, Any]:
    import random

    from cardz_core.engine.documents import board_document

    game = fuzzing.bundled(DOC_GAMES[index])
    state = game.deal(seed)
    rnd = random.Random(seed)
    for _ in range(moves):
        legal = game.legal_moves(state)
        if not legal:
            break
        state = game.apply(state, rnd.choice(legal))
    return board_document(game, state)


@st.composite
def board(draw: Any) -> bytes:
    index = draw(st.integers(0, len(DOC_GAMES) - 1))
    doc = true_board(index, draw(st.integers(0, 50)), draw(st.integers(0, 8)))
    if draw(st.integers(0, 3)):
        doc = mutate(draw, doc, draw(st.integers(1, 3)))
    elif draw(st.booleans()):  # cards shuffled between piles: the invariant checks must answer
        piles = list(doc["depots"].values())
        cards = [c for p in piles for c in p]
        order = draw(st.permutations(cards))
        at = 0
        for name, pile in doc["depots"].items():
            doc["depots"][name] = order[at:at + len(pile)]
            at += len(pile)
        doc.pop("status", None)
        doc.pop("score", None)
    return with_game(index, doc)


@FUZZ
@given(board())
def test_board_documents(engine: str, data: bytes) -> None:
    run("board", data)


DEPOT_NAMES = ["stock", "waste", "column-1", "tableau-1", "foundation-1", "pile-1", "cell-1",
               "reserve", "x", ""]
INDEX_TEXT = st.one_of(st.integers(-3, 60).map(str), st.sampled_from(["1" * 300, "²", "٣", "0x1",
                                                                       " 1", "+1", "1.0"]))


@st.composite
def move(draw: Any) -> bytes:
    index = draw(st.integers(0, len(DOC_GAMES) - 1))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        value: Any = f"{draw(st.sampled_from(DEPOT_NAMES))}@{draw(INDEX_TEXT)}>" \
                     f"{draw(st.sampled_from(DEPOT_NAMES))}" \
                     f"{draw(st.sampled_from(['', '=H', '=', '=Z', '@0', '@3', '@', '@x']))}"
    elif kind == 1:
        value = f"tap {draw(st.sampled_from(DEPOT_NAMES))}"
    elif kind == 2:
        value = draw(st.dictionaries(st.sampled_from(["from", "index", "to", "declare", "at",
                                                      "tap", "text"]),
                                     st.one_of(JUNK, st.sampled_from(DEPOT_NAMES), INDEX_TEXT),
                                     max_size=5))
    else:
        value = draw(st.text(max_size=30))
    return with_game(index, value)


@FUZZ
@given(move())
def test_moves(engine: str, data: bytes) -> None:
    run("move", data)


@st.composite
def log(draw: Any) -> bytes:
    index = draw(st.integers(0, len(DOC_GAMES) - 1))
    doc = fuzzing.seeded_log(fuzzing.bundled(DOC_GAMES[index]), draw(st.integers(0, 30)),
                             draw(st.integers(0, 10)))
    if draw(st.integers(0, 5)):
        doc = mutate(draw, doc, draw(st.integers(1, 3)))
    return with_game(index, doc)


@FUZZ
@given(log())
def test_logs(engine: str, data: bytes) -> None:
    run("log", data)


# -- the command line ------------------------------------------------------------------------------
def _options() -> dict[str, list[str]]:
    """Each command's option strings, from the parser itself."""
    import argparse

    from cardz_core.cli.main import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {name: [s for a in p._actions for s in a.option_strings]
            for name, p in sub.choices.items()}


OPTIONS = _options()
VALUES = st.one_of(st.sampled_from(["klondike", "golf", "freecell", "pyramid", "aces_up", "nosuch",
                                    "-", "", "usual", "random", "expectimax", "python", "native",
                                    "auto", "tap stock", "waste@0>foundation-1", "{}", "[]",
                                    "nan", "inf", "-1", "1e999", "18446744073709551616", "٣"]),
                   NUMBER_TEXT, st.text(max_size=6))


@st.composite
def argv(draw: Any) -> bytes:
    command = draw(st.sampled_from(sorted(OPTIONS) + ["", "nosuch", "--help", "--version"]))
    words = [command]
    for _ in range(draw(st.integers(0, 6))):
        if OPTIONS.get(command) and draw(st.booleans()):
            words.append(draw(st.sampled_from(OPTIONS[command])))
        words.append(draw(VALUES))
    return "\0".join(words).encode("utf-8", "surrogatepass")


@FUZZ
@given(argv())
def test_command_lines(engine: str, data: bytes) -> None:
    run("cli", data)


def test_the_cli_target_only_parses_what_may_take_minutes() -> None:
    for words in (["solve", "klondike"], ["play", "klondike", "--planner", "usual"],
                  ["play", "--pl=usual"], ["check", "--play", "1000", "klondike"],
                  ["check", "golf", "--pla=5"]):
        assert parse_only(words), words
    for words in (["check", "klondike"], ["play", "klondike"], ["check", "-p"], ["games"], []):
        assert not parse_only(words), words


# -- the kept inputs ---------------------------------------------------------------------------------
KEPT = sorted(CORPUS.glob("*/*"))


def test_every_target_keeps_inputs() -> None:
    assert {p.parent.name for p in KEPT} == set(TARGETS)


@pytest.mark.parametrize("path", KEPT, ids=[f"{p.parent.name}/{p.name}" for p in KEPT])
def test_kept_inputs(path: Path, engine: str) -> None:
    run(path.parent.name, path.read_bytes())


# -- atheris ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("target", sorted(TARGETS))
def test_atheris_runs_each_target_briefly(target: str, tmp_path: Path) -> None:
    pytest.importorskip("atheris")
    seconds = 300 if LONG else 3
    corpus = tmp_path / "corpus"  # libFuzzer adds what it finds to its corpus: a copy
    shutil.copytree(CORPUS / target, corpus)
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).parent / "fuzz_atheris.py"), target,
         f"-max_total_time={seconds}", f"-timeout={int(SLOW)}", "-rss_limit_mb=4096", str(corpus)],
        cwd=tmp_path, capture_output=True, text=True, timeout=seconds + 120)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "Done" in proc.stderr or "DONE" in proc.stderr, proc.stderr[-3000:]
