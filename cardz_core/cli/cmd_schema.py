"""`cardz schema`: print the JSON Schema (draft 2020-12) of the game-file format."""

from __future__ import annotations

import argparse

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import print_json


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "schema", help=COMMANDS["schema"],
        description="Print the JSON Schema (draft 2020-12) of .cardz game files, built from the "
                    "loader's tables and the installed plugins. Property names are given in their "
                    "canonical camelCase; enum values match in any letter case.")
    parser.add_argument("--json", action="store_true", help="print JSON (the only output form)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardz_core.spec.schema import build_schema

    print_json(build_schema())
    return 0
