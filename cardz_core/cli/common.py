"""Helpers shared by the CLI commands: reading documents given as a path, `-` or inline JSON."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardz_core.limits import FLAG_MAX_DIGITS, MAX_SEED
from cardz_core.problems import CardzError
from cardz_core.safe_text import json_text

if TYPE_CHECKING:
    from cardz_core.engine.game import Game


def read_document(arg: str, what: str) -> Any:
    """A board, move or log argument: a path, ``-`` for standard input, or inline JSON, read
    within the document limits (``cardz_core.cli.reading``)."""
    from cardz_core.cli.reading import read_document as read

    return read(arg, what)


FLAG_ECHO = 40  # characters of a value that is not a number echoed in its error


def whole_number(text: str) -> int:
    """The parser's type for whole-number flags: ``int`` as argparse's ``type=int`` reads it, but
    a number of more than ``FLAG_MAX_DIGITS`` digits (leading zeros not counted) is refused by
    its length, and a value that is not a number is echoed cut to ``FLAG_ECHO`` characters."""
    body = text.strip()
    sign, rest = (body[0], body[1:]) if body[:1] in ("+", "-") else ("", body)
    if rest.isascii() and rest.isdigit():
        digits = rest.lstrip("0") or "0"  # int() counts leading zeros against its limit
        if len(digits) > FLAG_MAX_DIGITS:
            raise argparse.ArgumentTypeError(f"a {len(digits):,}-digit number is past every limit")
        return int(sign + digits)
    try:
        return int(text)  # what else int() takes: '1_000', other scripts' digits
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {echo(text)!r}") from None


def echo(text: str) -> str:
    """An argument as an error quotes it: cut to ``FLAG_ECHO`` characters."""
    return text if len(text) <= FLAG_ECHO else text[:FLAG_ECHO] + "..."


class UsageError(CardzError):
    """A flag given a value it cannot take, or flags that do not go together: the command
    exits 2, as for the parser's own errors, with ``cardz COMMAND: error: argument FLAG: why``."""


def stdin_once(*given: tuple[str, list[str]]) -> None:
    """Standard input holds one document: a ``UsageError`` when more than one argument of
    ``given`` (each a flag and the values it was given) is ``-``."""
    readers = [flag for flag, values in given for value in values if value == "-"]
    if len(readers) > 1:
        first, second = readers[:2]
        why = f": give '-' to one {first} only" if first == second else f", and {first} reads it"
        raise UsageError(f"argument {second}: standard input is read once{why}")


def goes_with(args: argparse.Namespace, needed: str, *dests: str) -> None:
    """Flags (by their ``dests``) that mean something only with flag ``needed``: one given
    without it is a ``UsageError``, not quietly ignored. A flag left out is None (or False, for
    a switch); 0 is a value given."""
    if getattr(args, needed.lstrip("-").replace("-", "_")):
        return
    for dest in dests:
        value = getattr(args, dest)
        if value is not None and value is not False:
            raise UsageError(f"argument --{dest.replace('_', '-')}: it goes with {needed}")


def check_range(value: int | float | None, flag: str, low: int | float,
                high: int | float | None = None) -> None:
    """The one rule for numeric flags in every command: ``low`` to ``high`` (inclusive), else a
    ``UsageError`` naming the flag and the range."""
    if value is None:
        return
    if value < low or (high is not None and value > high):
        span = f"from {low:,} to {high:,}" if high is not None else f"at least {low:,}"
        raise UsageError(f"argument {flag}: must be {span}, not {value:,}")


def check_seconds(value: float | None, flag: str, high: float | None = None) -> None:
    """A time budget: more than 0 seconds (NaN is not), and at most ``high`` where given."""
    if value is None or (value > 0 and (high is None or value <= high)):
        return
    most = "" if high is None else f", at most {high:,g}"
    raise UsageError(f"argument {flag}: must be more than 0 seconds{most}, not {value:,g}")


def planner_option(text: str) -> tuple[str, Any]:
    """``--option NAME=VALUE`` as (name, value): the value a whole number, a number, ``true``,
    ``false`` or ``none`` (None: the klondike planner's ``reveal=none`` turns its rule off) where
    it reads as one, else the text."""
    import argparse

    name, eq, raw = text.partition("=")
    if not (eq and name.isidentifier() and raw):
        raise argparse.ArgumentTypeError(f"wants NAME=VALUE, not {text!r}")
    for kind in (int, float):
        try:
            return name, kind(raw)
        except ValueError:
            pass
    return name, {"true": True, "false": False, "none": None}.get(raw.lower(), raw)


def add_option_arg(p: Any) -> None:
    p.add_argument("--option", dest="planner_options", type=planner_option, action="append",
                   default=[], metavar="NAME=VALUE",
                   help="an option of the planner (repeatable), e.g. --option samples=400 for "
                        "klondike; docs/planners.md lists each planner's")


def planner_options(given: list[tuple[str, Any]], nodes: int | None = None,
                    seconds: float | None = None) -> dict[str, Any]:
    """The options a command's planners are made with: ``--nodes`` and ``--seconds`` where given,
    and each ``--option``; a name given twice is a ``UsageError``."""
    options: dict[str, Any] = {}
    for name, value in [("nodes", nodes), ("seconds", seconds)]:
        if value is not None:
            options[name] = value
    for name, value in given:
        if name in options:
            raise UsageError(f"argument --option: {name} is given twice (or with --{name})")
        options[name] = value
    return options


def check_seed(seed: int | None, flag: str = "--seed") -> None:
    """The one rule for seeds in every command: a whole number from 0 to ``MAX_SEED``."""
    check_range(seed, flag, 0, MAX_SEED)


def check_output(path: str | None, flag: str) -> None:
    """Refuse, before any work, an output path that cannot be written: its folder missing, a
    directory in its place, or no permission to write it."""
    if path is None or path == "-":
        return
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        if target.is_dir():
            raise CardzError(f"{flag} {path}: cannot write: it is a directory")
        if not folder.is_dir():
            raise CardzError(f"{flag} {path}: cannot write: no such directory {str(folder)!r}")
        writable = os.access(target if target.exists() else folder, os.W_OK)
    except OSError as exc:  # a name the file system refuses to look up, such as one too long
        raise CardzError(f"{flag} {path}: cannot write: {exc.strerror}") from None
    if not writable:
        raise CardzError(f"{flag} {path}: cannot write: permission denied")


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
