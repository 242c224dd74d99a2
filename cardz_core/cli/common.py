"""Helpers shared by the CLI commands: reading documents given as a path, `-` or inline JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardz_core.problems import CardzError
from cardz_core.safe_text import json_text

if TYPE_CHECKING:
    from cardz_core.engine.game import Game


def read_document(arg: str, what: str) -> Any:
    """A board, move or log argument: a path, ``-`` for standard input, or inline JSON."""
    if arg == "-":
        text = sys.stdin.read()
    elif arg.lstrip().startswith(("{", "[", '"')):
        text = arg
    else:
        path = Path(arg)
        if not path.exists():
            raise CardzError(f"{what} {arg!r}: no such file, and not inline JSON")
        text = path.read_text(encoding="utf-8")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise CardzError(f"{what} is not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}")


GAME_HELP = "a .cardz game file, or a bundled game's name (see 'cardz games')"


def print_json(value: Any) -> None:
    print(json_text(value))


def open_game(path: str) -> Game:
    """Load, check and compile a game file or a bundled game by name (``cardz_core.open_game``)."""
    from cardz_core.rulesets import open_game as open_path_or_name

    return open_path_or_name(path)


def add_game_args(parser: Any, board: str | None = None) -> None:
    """The FILE argument every game command takes, and ``--board`` when ``board`` says what
    boards it accepts ("a true board or a view", ...)."""
    parser.add_argument("file", metavar="FILE", help=GAME_HELP)
    if board is not None:
        parser.add_argument("--board", required=True, metavar="B",
                            help=f"board document ({board}): a path, - for standard input, "
                                 "or inline JSON")
