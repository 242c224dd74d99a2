"""`cardz deal FILE --seed N | --ms N`: the opening board document of a deal."""

from __future__ import annotations

import argparse

from cardz_core.cli.common import add_game_args, check_seed, open_game, print_json
from cardz_core.msdeal import ms_board_document
from cardz_core.problems import CardzError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deal", help="print the opening board of a deal",
                       description="Deal a game and print its opening board document "
                                   "(cardz-board/1, see docs/contract.md).")
    add_game_args(p)
    how = p.add_mutually_exclusive_group(required=True)
    how.add_argument("--seed", type=int, metavar="N", help="the deal's seed, a whole number >= 0")
    how.add_argument("--ms", type=int, metavar="N",
                     help="Microsoft FreeCell deal N, for games of that shape")
    p.add_argument("--json", action="store_true",
                   help="print JSON (the board document is always JSON; accepted for uniformity)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_seed(args.seed)
    game = open_game(args.file)
    if args.ms is not None:
        try:
            state = game.load_board(ms_board_document(game, args.ms))
        except CardzError as exc:
            raise CardzError(f"--ms {args.ms}: {exc.problems[0].message}") from None
    else:
        state = game.deal(args.seed)
    print_json(game.board_document(state))
    return 0
