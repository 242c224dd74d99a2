"""Helpers shared by the CLI commands: reading documents given as a path, `-` or inline JSON."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cardz_core.problems import CardzError
from cardz_core.safe_text import json_text


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


def print_json(value: Any) -> None:
    print(json_text(value))


def open_game(path: str) -> Any:
    """Load, check and compile the game file at ``path``; CardzError with every problem."""
    from cardz_core.engine import compile
    from cardz_core.spec import load_game

    if not Path(path).is_file():
        raise CardzError(f"{path}: no such game file")
    return compile(load_game(Path(path), file=path))


def add_game_args(parser: Any, board: str | None = None) -> None:
    """The FILE argument every game command takes, and ``--board`` when ``board`` says what
    boards it accepts ("a true board or a view", ...)."""
    parser.add_argument("file", metavar="FILE", help="the .cardz game file")
    if board is not None:
        parser.add_argument("--board", required=True, metavar="B",
                            help=f"board document ({board}): a path, - for standard input, "
                                 "or inline JSON")
