"""`cardz check FILE...`: validate game files, reporting every problem with its JSON pointer."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardz_core.cli.common import GAME_HELP, print_json
from cardz_core.problems import ERROR, CardzError, Problem
from cardz_core.rulesets import find
from cardz_core.spec import load
from cardz_core.spec.model import GameSpec


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check", help="validate game files",
        description="Validate .cardz game files. Prints one line per problem, "
                    "'FILE: /json/pointer: message'; exits 1 if any file has an error.")
    parser.add_argument("files", nargs="+", metavar="FILE", help=GAME_HELP)
    parser.add_argument("--json", action="store_true",
                        help='print [{"file", "path", "message", "severity"}] instead, with an '
                             '"info" row per file without errors: the engine it runs on')
    parser.add_argument("--lenient", action="store_true",
                        help="report unknown properties as warnings instead of errors")
    parser.set_defaults(func=run)


INFO = "info"


def _line(problem: Problem) -> str:
    mark = "warning: " if problem.severity != ERROR else ""
    return f"{problem.file}: {problem.path or '/'}: {mark}{problem.message}"


def _engine_row(spec: GameSpec, name: str) -> list[Problem]:
    """Which engine the game runs on and, for Python, why; none when it does not compile."""
    from cardz_core.engines import compile, engine_of

    try:
        engine, why = engine_of(compile(spec))
    except CardzError:
        return []
    text = "runs on the native engine" if why is None else f"runs on the Python engine: {why}"
    return [Problem("", text, INFO, name)]


def run(args: argparse.Namespace) -> int:
    found: list[Problem] = []
    failed = 0
    for name in args.files:
        named = None if Path(name).exists() else find(name)  # a bundled game by name
        spec, problems = load(named.path if named else Path(name), lenient=args.lenient, file=name)
        found.extend(problems)
        failed += any(p.severity == ERROR for p in problems)
        if args.json and spec is not None:
            found.extend(_engine_row(spec, name))
    if args.json:
        print_json([p.as_dict() for p in found])
    else:
        for problem in found:
            print(_line(problem))
        print(f"{len(args.files)} file(s) checked, {failed} with errors", file=sys.stderr)
    return 1 if failed else 0
