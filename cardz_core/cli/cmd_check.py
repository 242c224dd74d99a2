"""`cardz check FILE...`: validate game files, reporting every problem with its JSON pointer."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardz_core.cli.common import GAME_HELP, print_json
from cardz_core.problems import ERROR, Problem
from cardz_core.rulesets import find, no_game
from cardz_core.spec import load


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check", help="validate game files",
        description="Validate .cardz game files. Prints one line per problem, "
                    "'FILE: /json/pointer: message'; exits 1 if any file has an error.")
    parser.add_argument("files", nargs="+", metavar="FILE", help=GAME_HELP)
    parser.add_argument("--json", action="store_true",
                        help='print [{"file", "path", "message", "severity"}] instead')
    parser.add_argument("--lenient", action="store_true",
                        help="report unknown properties as warnings instead of errors")
    parser.set_defaults(func=run)


def _line(problem: Problem) -> str:
    mark = "warning: " if problem.severity != ERROR else ""
    if not problem.path and problem.message == no_game(problem.file):  # as every command says it
        return f"{problem.file}: {problem.message}"
    return f"{problem.file}: {problem.path or '/'}: {mark}{problem.message}"


def run(args: argparse.Namespace) -> int:
    found: list[Problem] = []
    failed = 0
    for name in args.files:
        named = None if Path(name).exists() else find(name)  # a bundled game by name
        if named is None and not Path(name).exists():
            problems = [Problem("", no_game(name), file=name)]
        else:
            _, problems = load(named.path if named else Path(name), lenient=args.lenient,
                               file=name)
        found.extend(problems)
        failed += any(p.severity == ERROR for p in problems)
    if args.json:
        print_json([p.as_dict() for p in found])
    else:
        for problem in found:
            print(_line(problem))
        print(f"{len(args.files)} file(s) checked, {failed} with errors", file=sys.stderr)
    return 1 if failed else 0
