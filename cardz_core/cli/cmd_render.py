"""`cardz render FILE --board B -o OUT.svg`: the board drawn as the game lays it out."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import (UsageError, add_game_args, check_output, open_game, print_json,
                                   read_document)
from cardz_core.problems import CardzError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("render", help=COMMANDS["render"],
                       description="Draw board B (a true board or a view) as an SVG picture, each "
                                   "depot where the game file places it, its cards fanned as the "
                                   "file says; face-down cards show their backs. Sizes and "
                                   "colours: docs/render.md.")
    add_game_args(p, board="a true board or a view")
    p.add_argument("-o", "--output", required=True, metavar="OUT.svg",
                   help="where to write the picture; - for standard output")
    p.add_argument("--json", action="store_true",
                   help="after writing, print what was written as JSON (file, width, height, cards)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardz_core.board_svg import render_svg

    if args.json and args.output == "-":
        raise UsageError("argument --json: it prints a report on standard output, where -o - sends the SVG: "
                         "give -o a file")
    check_output(args.output, "-o")
    game = open_game(args.file)
    state = game.load_board(read_document(args.board, "board"))
    drawing = render_svg(game, state)
    if args.output == "-":
        sys.stdout.write(drawing.svg)
    else:
        try:
            Path(args.output).write_text(drawing.svg, encoding="utf-8")
        except OSError as exc:
            raise CardzError(f"-o {args.output}: cannot write: {exc.strerror}") from None
    if args.json:
        print_json({"file": args.output, "width": drawing.width, "height": drawing.height,
                    "cards": drawing.cards})
    return 0
