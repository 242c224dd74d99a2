"""Helpers shared by the CLI commands: reading documents given as a path, `-` or inline JSON."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cardz_core.limits import MAX_SEED
from cardz_core.problems import CardzError
from cardz_core.safe_text import json_text


def read_document(arg: str, what: str) -> Any:
    """A board, move or log argument: a path, ``-`` for standard input, or inline JSON, read
    within the document limits (``cardz_core.cli.reading``)."""
    from cardz_core.cli.reading import read_document as read

    return read(arg, what)


def check_seed(seed: int | None, flag: str = "--seed") -> None:
    """The one rule for seeds in every command: a whole number from 0 to ``MAX_SEED``."""
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise CardzError(f"{flag} must be from 0 to {MAX_SEED}, not {seed}")


def check_output(path: str | None, flag: str) -> None:
    """Refuse, before any work, an output path that cannot be written: its folder missing, a
    directory in its place, or no permission to write it."""
    if path is None or path == "-":
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    if target.is_dir():
        raise CardzError(f"{flag} {path}: cannot write: it is a directory")
    if not folder.is_dir():
        raise CardzError(f"{flag} {path}: cannot write: no such directory {str(folder)!r}")
    if not os.access(target if target.exists() else folder, os.W_OK):
        raise CardzError(f"{flag} {path}: cannot write: permission denied")


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
