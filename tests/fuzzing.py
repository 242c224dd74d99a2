"""The fuzz targets: each takes bytes, as a coverage-guided fuzzer gives them, and feeds them to
one way in (a game file, an expression, a board, a move, a log, the command line). Whatever
the bytes are, a target returns normally (the input was used or refused with ``CardzError``,
every problem at a JSON pointer); any other exception, or a refusal with no pointer, is a
finding. ``tests/test_fuzz_targets.py`` runs them under hypothesis and over the kept corpus,
``tests/fuzz_atheris.py`` under atheris.

The engine is the one ``compile`` gives (``CARDZ_ENGINE``: ``python`` by default, ``auto`` plays
natively what the native engine can)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import sys
import tempfile
from functools import lru_cache
from typing import Any, Callable

from cardz_core.engine import PLAYING, Game, compile
from cardz_core.engine.documents import board_document, load_board
from cardz_core.engine.logs import LogRecorder, replay
from cardz_core.engine.movetext import move_document, move_text, parse_move
from cardz_core.problems import CardzError
from cardz_core.rulesets import RULESETS_DIR
from cardz_core.spec import load, load_game

MOVES = 6  # moves each target plays on what it loaded (enough to reach the cascade and taps)


class Finding(AssertionError):
    """What a target found: not a refusal the contract allows."""


def text_of(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def json_of(data: bytes) -> Any:
    """The bytes as JSON when they parse, else as text (a document may be either)."""
    text = text_of(data)
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return text


def refused(exc: CardzError) -> None:
    """A refusal must say where: every problem has a JSON pointer (``""`` is the whole input)."""
    for p in exc.problems:
        if not (p.path == "" or p.path.startswith("/")):
            raise Finding(f"a refusal without a pointer: {p}")


@lru_cache(maxsize=None)
def bundled(name: str) -> Game:
    return compile(load_game(RULESETS_DIR / f"{name}.cardz"))


DOC_GAMES = ("klondike", "pyramid", "aces_up", "freecell", "accordion", "spider")


def warm() -> None:
    """Compile the games the document targets use, once, before a fuzzer times each input."""
    for name in DOC_GAMES:
        bundled(name)


def _seed(data: bytes) -> int:
    return int.from_bytes(data[:8].ljust(8, b"\0"), "little")


def play_a_little(game: Game, state: Any, seed: int) -> None:
    """A few random moves from ``state``: each listed move applies, undo gives the board back,
    the board document round-trips."""
    rnd = random.Random(seed)
    for _ in range(MOVES):
        doc = json.loads(json.dumps(board_document(game, state)))
        # identical copies of a card may come back swapped: the document is what must hold
        if board_document(game, load_board(game, doc)) != doc:
            raise Finding("a board document does not load back to its position")
        moves = game.legal_moves(state)
        if state.status != PLAYING or not moves:
            return
        move = rnd.choice(moves)
        if parse_move(game, move_text(game, move)) != move or \
                parse_move(game, move_document(game, move)) != move:
            raise Finding(f"the move {move} does not parse back")
        after = game.apply(state, move)
        if game.undo(state, after).piles != state.piles:
            raise Finding(f"undo of {move} does not give the board back")
        state = after


def target_game(data: bytes) -> None:
    """A game file: load, compile, deal, a few moves."""
    try:
        spec, problems = load(text_of(data))
        for p in problems:
            if not (p.path == "" or p.path.startswith("/")):
                raise Finding(f"a problem without a pointer: {p}")
        if spec is None:
            return
        game = compile(spec)
        seed = _seed(data)
        play_a_little(game, game.deal(seed), seed)
    except CardzError as exc:
        refused(exc)


EXPR_GAME = {
    "name": "Expressions", "decks": [{"suits": ["Hearts", "Spades"], "ranks": ["A", "2", "3", "K"]}],
    "depots": [
        {"name": "stock", "type": "Stock", "draw": {"to": "waste"}, "acceptRule": "none",
         "ejectRule": "locked"},
        {"name": "waste", "type": "Waste", "acceptRule": "none", "ejectRule": "topOnly"},
        {"name": "pile", "type": "Tableau", "repeat": 2, "acceptRule": {"when": "true"}},
        {"name": "home", "type": "Foundation", "acceptRule": {"seed": "A"}},
    ],
    "dealRules": [{"kind": "dealGroup", "to": "pile", "faceUp": 1}],
}
EXPR_PLACES = ("win", "accept", "score")


def target_expression(data: bytes) -> None:
    """An expression, in one of three places of a small game (a win condition, an accept rule's
    ``when``, the score): load, compile, deal, a few moves (each judges it)."""
    place = EXPR_PLACES[data[0] % len(EXPR_PLACES)] if data else "win"
    text = text_of(data[1:])
    doc = json.loads(json.dumps(EXPR_GAME))
    if place == "win":
        doc["winCondition"] = {"kind": "expr", "when": text}
    elif place == "accept":
        doc["depots"][2]["acceptRule"]["when"] = text
    else:
        doc["scoring"] = {"value": text}
        doc["winCondition"] = {"kind": "depotsEmpty", "depots": "Stock"}
    try:
        spec, _problems = load(doc)
        if spec is None:
            return
        game = compile(spec)
        state = game.deal(_seed(data))
        game.score(state)
        play_a_little(game, state, _seed(data))
    except CardzError as exc:
        refused(exc)


def _doc_game(data: bytes) -> tuple[Game, bytes]:
    return bundled(DOC_GAMES[data[0] % len(DOC_GAMES)] if data else DOC_GAMES[0]), data[1:]


def target_board(data: bytes) -> None:
    """A board document for one of a few bundled games: load, then play on."""
    game, rest = _doc_game(data)
    try:
        state = load_board(game, json_of(rest))
        if state.pools is None:
            play_a_little(game, state, _seed(rest))
        else:
            game.legal_moves(state)
    except CardzError as exc:
        refused(exc)


def target_move(data: bytes) -> None:
    """A move (text, document or JSON text) on a deal of one of a few bundled games."""
    game, rest = _doc_game(data)
    state = game.deal(len(rest))
    try:
        move = parse_move(game, json_of(rest))
        if game.illegal_reason(state, move) is None:
            game.apply(state, move)
        else:
            try:
                game.apply(state, move)
            except CardzError:
                return
            raise Finding(f"{move} is illegal, yet it applies")
    except CardzError as exc:
        refused(exc)


def target_log(data: bytes) -> None:
    """A log document replayed on one of a few bundled games."""
    game, rest = _doc_game(data)
    try:
        replay(game, json_of(rest))
    except CardzError as exc:
        refused(exc)


def seeded_log(game: Game, seed: int, moves: int) -> dict[str, Any]:
    """A true log of ``moves`` random moves from deal ``seed``: what the log fuzzing mutates."""
    rnd = random.Random(seed)
    state = game.deal(seed)
    rec = LogRecorder(game, seed=seed)
    for _ in range(moves):
        legal = game.legal_moves(state)
        if not legal:
            break
        move = rnd.choice(legal)
        after = game.apply(state, move)
        rec.record(state, move, after)
        state = after
    return rec.document(state)


# the commands the CLI target only parses: a search, a simulation, a planner's hint and a server
# may be asked, in range, for minutes of honest work; so may `play` with a planner and `check`
# playing deals (`--play 1000` on the Python engine: minutes). Every other command runs in full:
# each answers at once whatever its arguments, since each bound it has is refused past its limit
PARSE_ONLY = ("hint", "serve", "simulate", "solve")
PARSE_ONLY_WITH = {"play": "--planner", "check": "--play"}


def parse_only(argv: list[str]) -> bool:
    """Whether the CLI target only parses ``argv`` (``PARSE_ONLY``): an option is named by any
    prefix argparse takes, with or without ``=value``."""
    command = argv[0] if argv else ""
    flag = PARSE_ONLY_WITH.get(command)
    return command in PARSE_ONLY or flag is not None and any(
        len(word) > 2 and flag.startswith(word) for word in (a.split("=")[0] for a in argv))


def target_cli(data: bytes) -> None:
    """The command line: the bytes, split at NUL or newline, are the arguments. Run in a scratch
    folder with no path leaving it; the exit code is 0, 1 or 2, and nothing is raised."""
    from cardz_core.cli.main import build_parser, main

    argv = text_of(data).replace("\n", "\0").split("\0")
    if argv and argv[0] == "":
        argv = argv[1:]
    if any("/" in a or "\\" in a for a in argv):
        return  # a path out of the scratch folder: the command would write where it is told
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)
        stdin = sys.stdin
        sys.stdin = io.StringIO("")
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    if parse_only(argv):
                        build_parser().parse_args(argv)
                        code = 0
                    else:
                        code = main(argv)
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) else 2
        finally:
            sys.stdin = stdin
            os.chdir(here)
    if code not in (0, 1, 2):
        raise Finding(f"exit code {code} for {argv}")
    if "Traceback" in err.getvalue():
        raise Finding(f"a traceback for {argv}")


TARGETS: dict[str, Callable[[bytes], None]] = {
    "game": target_game, "expression": target_expression, "board": target_board,
    "move": target_move, "log": target_log, "cli": target_cli,
}
