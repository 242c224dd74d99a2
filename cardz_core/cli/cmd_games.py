"""`cardz games`: list the bundled rule sets (name, family, file) with their winnability and
whether difficulty levels are offered, read from the shipped tables of rated deals
(``cardz_core.ratings``) and the larger measured runs where a game has one
(``cardz_core.winnability``), each by the file's hash, without compiling the games."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from typing import Any

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import print_json
from cardz_core.nearest import did_you_mean
from cardz_core.problems import CardzError
from cardz_core.ratings import LEVELS, Found, file_hash, table_for
from cardz_core.rulesets import Ruleset, bundled
from cardz_core.winnability import measured_for, shipped


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "games", help=COMMANDS["games"],
        description="List the bundled rule sets, sorted by name: name, family, file, and the "
                    "share of deals the solver wins (with its 95% interval, counting the "
                    "deals it left undecided as lost and then as won, over the shipped "
                    "winnability run where the game has one, else over the deals rated) "
                    "and whether deal --winnable --difficulty has rated deals of every level. "
                    "A game without a table of rated deals says so.")
    parser.add_argument("--family", metavar="F", help="only games of this family (its exact spelling, else in any case)")
    parser.add_argument("--json", action="store_true",
                        help='print [{"name", "family", "aliases", "file", "engine", "engine_reason", '
                             '"winnability", "levels", "measured"}] instead: the engine each runs '
                             'on and, for Python, why; the rated deals\' figures (with a note on a '
                             'game the solver wins rarely or never), or null without a table; and '
                             'the shipped winnability run over many more deals (counts, intervals, '
                             'budget, commit and command), or null where none was made')
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    games = bundled()
    if args.family:
        # a family is its exact string (the reference); the argument finds it in any case, but
        # where families differ only in case the exact one is meant
        want = args.family.strip()
        families = sorted({g.family for g in games if g.family})
        games = [g for g in games if g.family == want] or \
            [g for g in games if (g.family or "").lower() == want.lower()]
        if not games:
            raise CardzError(f"--family {want!r}: no bundled game is of that family"
                             f"{did_you_mean(want, families)} (families: {', '.join(families)})")
    hashes = [_hash(g) for g in games]
    runs = shipped()  # read once for every game
    measured = [None if h is None else measured_for(g.path.stem, h, runs)
                for g, h in zip(games, hashes)]
    if args.json:
        print_json([{**g.as_dict(), **_engine(g.path), **_figures(_table(g, h)), "measured": m}
                    for g, h, m in zip(games, hashes, measured)])
        return 0
    head = ("name", "family", "file", "winnable (95% interval)", "levels")
    rows = [(g.name, g.family or "-", _shown(g.path), *_figures_text(_table(g, h), m))
            for g, h, m in zip(games, hashes, measured)]
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(head)]
    for row in [head] + rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    print(f"{len(games)} game(s)", file=sys.stderr)
    return 0


def _hash(game: Ruleset) -> str | None:
    """The game file's hash, by which its shipped figures are found; None for a file that cannot
    be read (it is listed all the same, as a file with rule problems is, without figures)."""
    try:
        return file_hash(game.path)
    except OSError:
        return None


def _table(game: Ruleset, hash_: str | None) -> Found:
    """The game's table of rated deals, found by the file's hash."""
    return Found(None) if hash_ is None else table_for(game.name, hash_)


def _figures(found: Found) -> dict[str, Any]:
    """The table's winnability, with the solver's budget per deal and the builder's note on a
    game it wins rarely or never (else null), and its deals per level."""
    if found.table is None:
        return {"winnability": None, "levels": None}
    doc = found.table.head
    budget = {"states": doc["made"]["max_states"], "seconds": doc["made"]["timeout"]}
    return {"winnability": {**doc["winnability"], "budget": budget,
                            "note": doc["made"].get("note")}, "levels": doc["levels"]}


def _figures_text(found: Found, measured: dict[str, Any] | None) -> tuple[str, str]:
    """The two text columns: ``92.0% (88.1-94.9) of 200``, the interval running from the low end
    with the undecided deals lost to the high end with them won, over the ``measured`` run
    where there is one (thousands of deals), else over the table's rated deals; and ``all``
    when every level has rated deals."""
    if found.table is None:  # one made for another version of the file is not used
        return "table out of date" if found.note else "no table", "-"
    levels = found.table.head["levels"]
    w = measured if measured is not None else found.table.head["winnability"]
    if not w["deals"]:
        return "no deals rated", "-"
    return (f"{_share(w)} ({100 * w['low'][0]:.1f}-{100 * w['high'][1]:.1f}) of {w['deals']}",
            "all" if all(levels[lv] for lv in LEVELS) else
            ", ".join(lv for lv in LEVELS if levels[lv]) or "-")


def _share(w: dict[str, Any]) -> str:
    """The share of deals won, as a range from the undecided deals lost to them won where they
    change it: ``2.1-94.0%`` for a game the solver mostly leaves undecided, which a lone 2.1%
    would pass off as its rate."""
    low, high = (f"{100 * n / w['deals']:.1f}" for n in (w["won"], w["won"] + w["unknown"]))
    return f"{low}%" if low == high else f"{low}-{high}%"


def _engine(path: Path) -> dict[str, str | None]:
    from cardz_core.engines import chosen, engine_of
    from cardz_core.rulesets import open_game

    from cardz_core.problems import CardzError

    if chosen() == "python":  # every game, so nothing needs compiling to say it
        return {"engine": "python", "engine_reason": "CARDZ_ENGINE=python asks for it"}
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
