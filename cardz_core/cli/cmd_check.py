"""`cardz check FILE...`: validate game files, reporting every problem with its JSON pointer."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import GAME_HELP, UsageError, check_range, print_json, whole_number
from cardz_core.cli.playcheck import PLAY_DEALS, PLAY_MAX_DEALS, PLAY_STATES
from cardz_core.problems import ERROR, CardzError, Problem
from cardz_core.rulesets import find, no_game

if TYPE_CHECKING:
    from cardz_core.engine.game import Game
    from cardz_core.spec import GameSpec


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check", help=COMMANDS["check"],
        # FILE is required; it is parsed as optional only so that --play's N may be left out
        usage="%(prog)s [-h] [--json] [--lenient] [--play [N]] FILE [FILE ...]",
        description="Validate .cardz game files. Prints one line per problem, "
                    "'FILE: /json/pointer: message'; exits 1 if any file has an error.")
    parser.add_argument("files", nargs="*", metavar="FILE", help=GAME_HELP)
    parser.add_argument("--json", action="store_true",
                        help='print [{"file", "path", "message", "severity"}] instead, with an '
                             '"info" row per file without errors: the engine it runs on')
    parser.add_argument("--lenient", action="store_true",
                        help="report unknown properties as warnings instead of errors")
    parser.add_argument("--play", nargs="?", action=_Play, default=None, metavar="N",
                        help=f"also deal each file that checks clean N times (default "
                             f"{PLAY_DEALS}) and warn when the solver ({PLAY_STATES:,} positions "
                             "a deal) wins none, an opening deal has no legal move, a deal "
                             "step runs out of cards, or every planner the game allows "
                             "resigns at once")
    parser.set_defaults(func=run)


class _Play(argparse.Action):
    """``--play [N]``: a following word that is not a number is the first FILE, so that
    ``cardz check --play game.cardz`` plays 10 deals of it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        text = "" if values is None else str(values)
        digits = text[1:] if text.startswith("-") else text
        # ASCII digits only: str.isdigit also takes '²', which int() refuses
        if not (digits.isascii() and digits.isdigit()):
            namespace.play = PLAY_DEALS
            if values is not None:
                namespace.first_files = [values]
            return
        try:
            namespace.play = whole_number(text)
        except argparse.ArgumentTypeError as why:  # a number past every limit
            parser.error(f"argument --play: {why}")


INFO = "info"


def _exists(name: str) -> bool:
    """Whether a file or folder of that name exists (a name too long for the file system names
    none)."""
    try:
        return Path(name).exists()
    except OSError:
        return False


def _line(problem: Problem) -> str:
    mark = "warning: " if problem.severity != ERROR else ""
    if not problem.path and problem.message == no_game(problem.file):  # as every command says it
        return f"{problem.file}: {problem.message}"
    return f"{problem.file}: {problem.path or '/'}: {mark}{problem.message}"


def _compiled(spec: GameSpec, file: str) -> tuple[Game | None, list[Problem]]:
    """The game compiled for the engine it runs on, or the errors compiling it raises: what a
    plugin's kind refuses in its ``compile``, or a game the engine asked for cannot play."""
    from cardz_core.engines import compile

    try:
        return compile(spec), []
    except CardzError as exc:
        return None, [attrs.evolve(p, file=file, severity=ERROR) for p in exc.problems]


def _played(game: Game, deals: int, file: str) -> list[Problem]:
    """The warnings of ``check --play`` (``cardz_core.cli.playcheck``); a game that cannot deal
    is reported as the error it raises."""
    from cardz_core.cli.playcheck import play_problems

    try:
        return play_problems(game, deals, file)
    except CardzError as exc:
        return [attrs.evolve(p, file=file) for p in exc.problems]


def _engine_row(game: Game, name: str) -> Problem:
    """Which engine the game runs on and, for Python, why."""
    from cardz_core.engines import engine_of

    engine, why = engine_of(game)
    text = (f"runs on the {engine} engine" if why is None else
            f"runs on the native engine; {why}" if engine == "native" else
            f"runs on the Python engine: {why}")
    return Problem("", text, INFO, name)


def run(args: argparse.Namespace) -> int:
    from cardz_core.spec import load

    check_range(args.play, "--play", 1, PLAY_MAX_DEALS)
    args.files = getattr(args, "first_files", []) + args.files
    if not args.files:
        raise UsageError("the following arguments are required: FILE")
    found: list[Problem] = []
    failed = 0
    for name in args.files:
        exists = _exists(name)
        named = None if exists else find(name)  # a bundled game by name
        if named is None and not exists:
            spec, problems = None, [Problem("", no_game(name), file=name)]
        else:
            spec, problems = load(named.path if named else Path(name), lenient=args.lenient,
                                  file=name)
        game = None
        if spec is not None:
            game, refused = _compiled(spec, name)
            problems = problems + refused
        if game is not None and args.play:
            problems = problems + _played(game, args.play, name)
        found.extend(problems)
        failed += any(p.severity == ERROR for p in problems)
        if args.json and game is not None:
            found.append(_engine_row(game, name))
    if args.json:
        print_json([p.as_dict() for p in found])
    else:
        for problem in found:
            print(_line(problem))
        print(f"{len(args.files)} file(s) checked, {failed} with errors", file=sys.stderr)
    return 1 if failed else 0
