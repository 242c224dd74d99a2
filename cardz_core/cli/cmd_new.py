"""`cardz new NAME [--like GAME]`: write a starter game file that checks clean.

JSON has no comments, and the format refuses properties it does not know, so the starter's
commentary is its ``description``: the one free-text field, which the engine never reads. It
walks through the file's parts and says what to change; the designer replaces it with the rules
as players should read them. ``--like GAME`` starts from a bundled game (or any game file)
instead, renamed, with its own description kept below the note.
"""

from __future__ import annotations

import argparse
import json
import re
import unicodedata
import sys
from pathlib import Path
from typing import Any

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import GAME_HELP, UsageError, check_output, print_json
from cardz_core.problems import ERROR, CardzError

NOTE = ("Starter file written by `cardz new`. This description is the only place JSON leaves "
        "for notes; the engine does not read it. Replace it with the rules as players should "
        "read them (Markdown).")

STARTER = Path(__file__).with_name("starter.cardz")  # the plain starter, notes in its description


def starter(name: str) -> dict[str, Any]:
    """The plain starter game (a small Klondike with four columns) named ``name``, its
    description the note followed by the walk through its parts. It is a data file, like the
    bundled games, since the engine's code names no depot type or kind."""
    doc: dict[str, Any] = json.loads(STARTER.read_text(encoding="utf-8"))
    return {"name": name, "description": f"{NOTE}\n\n{doc['description']}",
            **{k: v for k, v in doc.items() if k not in ("name", "description")}}


def like(name: str, game: str) -> dict[str, Any]:
    """A copy of ``game``'s file (a bundled name or a path) renamed ``name``, the note first.
    The file is read and checked as ``cardz check`` reads it (a byte-order mark, property names
    in any letter case), and a file that does not check is refused with its own problems."""
    from cardz_core.rulesets import game_file
    from cardz_core.spec import load
    from cardz_core.spec.source import read_source

    path = game_file(game)
    _, problems = load(path)
    errors = [p for p in problems if p.severity == ERROR]
    if errors:  # named at the file they are in, not at the copy not written yet
        raise CardzError(errors)
    doc, _, _ = read_source(path, str(path))
    wrapper = _key(doc, "setup")
    if wrapper is not None:  # the export wrapper
        doc = doc[wrapper]
    named = {k: _key(doc, k) for k in ("name", "description", "aliases")}
    was = doc.get(named["name"]) if named["name"] else None
    described = doc.get(named["description"]) if named["description"] else None
    first = {"name": name,
             "description": f"{NOTE}\n\nStarted from {was!r}"
                            + (f":\n\n{described}" if described else ".")}
    rest = {k: v for k, v in doc.items() if k not in named.values()}
    return {**first, **rest}


def _key(doc: dict[str, Any], name: str) -> str | None:
    """How ``doc`` spells property ``name``: the format reads property names in any case."""
    return next((k for k in doc if k.lower() == name), None)


def file_name(name: str) -> str:
    """``My Game!`` -> ``my_game.cardz``; ``Über Spiel`` -> ``uber_spiel.cardz`` (an accented
    letter keeps its letter)."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    stem = re.sub(r"[^0-9a-z]+", "_", plain.lower()).strip("_")
    return (stem or "game") + ".cardz"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("new", help=COMMANDS["new"],
                       description="Write a starter .cardz file for a game called NAME: a "
                                   "small Klondike whose description explains each part, or "
                                   "with --like GAME a copy of that game renamed. The file is "
                                   "checked before it is written. See docs/tutorial.md.")
    p.add_argument("name", metavar="NAME", help="the new game's name")
    p.add_argument("--like", metavar="GAME", help=f"start from this game: {GAME_HELP}")
    p.add_argument("-o", "--output", metavar="PATH",
                   help="where to write it (default: NAME in lower case, .cardz, here); "
                        "- for standard output")
    p.add_argument("--force", action="store_true", help="overwrite PATH if it exists")
    p.add_argument("--json", action="store_true",
                   help='after writing, print {"file", "name", "like"} as JSON')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardz_core.spec import load

    name = args.name.strip()
    if not name:
        raise UsageError("argument NAME: the game needs a name")
    target = args.output or file_name(name)
    if args.json and target == "-":
        raise UsageError("argument --json: it prints a report on standard output, where -o - "
                         "sends the file: give -o a path")
    where = "-o" if args.output else "file"  # without -o the path came from NAME
    if target != "-":
        check_output(target, where)
        if Path(target).exists() and not args.force:
            raise CardzError(f"{target} exists already: give -o another path, or --force to "
                             "overwrite it")
    doc = like(name, args.like) if args.like else starter(name)
    _, problems = load(doc, file=target)
    errors = [p for p in problems if p.severity == ERROR]
    if errors:  # a --like file that does not check: say so rather than write it
        raise CardzError(errors)
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    if target == "-":
        sys.stdout.write(text)
        return 0
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CardzError(f"{where} {target}: cannot write: {exc.strerror}") from None
    if args.json:
        print_json({"file": target, "name": name, "like": args.like})
    else:
        print(f"wrote {target}; next: cardz check {target} && cardz play {target}",
              file=sys.stderr)
    return 0
