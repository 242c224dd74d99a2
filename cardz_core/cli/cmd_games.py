"""`cardz games`: list the bundled rule sets (name, family, file)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardz_core.cli.common import print_json
from cardz_core.rulesets import bundled


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "games", help="list the bundled games",
        description="List the bundled rule sets: name, family and file, sorted by name.")
    parser.add_argument("--family", metavar="F", help="only games of this family (its exact spelling, else in any case)")
    parser.add_argument("--json", action="store_true",
                        help='print [{"name", "family", "aliases", "file", "engine", "engine_reason"}] '
                             'instead: the engine each runs on and, for Python, why')
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    games = bundled()
    if args.family:
        # a family is its exact string (the reference); the argument finds it in any case, but
        # where families differ only in case the exact one is meant
        want = args.family.strip()
        games = [g for g in games if g.family == want] or \
            [g for g in games if (g.family or "").lower() == want.lower()]
    if args.json:
        print_json([{**g.as_dict(), **_engine(g.path)} for g in games])
        return 0
    rows = [(g.name, g.family or "-", _shown(g.path)) for g in games]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(("name", "family", "file"))]
    for row in [("name", "family", "file")] + rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    print(f"{len(games)} game(s)", file=sys.stderr)
    return 0


def _engine(path: Path) -> dict[str, str | None]:
    from cardz_core.engines import engine_of
    from cardz_core.rulesets import open_game

    from cardz_core.problems import CardzError

    try:
        engine, why = engine_of(open_game(path))
    except CardzError as exc:  # a game that does not load runs on no engine; say why
        return {"engine": None, "engine_reason": str(exc)}
    return {"engine": engine, "engine_reason": why}


def _shown(path: Path) -> str:
    """The file relative to the working directory when it is below it, else absolute."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
