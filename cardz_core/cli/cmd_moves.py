"""`cardz moves FILE --board B`: the legal moves of a board."""

from __future__ import annotations

import argparse

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import add_game_args, open_game, print_json, read_document


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("moves", help=COMMANDS["moves"],
                       description="List the legal moves of board B, one per line in text form "
                                   "(FROM@INDEX>TO, tap DEPOT; see docs/contract.md).")
    add_game_args(p, board="a true board")
    p.add_argument("--json", action="store_true",
                   help="print a JSON list of move documents, each with its text form")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardz_core.engine.movetext import move_document

    game = open_game(args.file)
    state = game.load_board(read_document(args.board, "board"))
    moves = game.legal_moves(state)
    if args.json:
        print_json([{**move_document(game, m), "text": game.move_text(m)} for m in moves])
    else:
        for m in moves:
            print(game.move_text(m))
    return 0
