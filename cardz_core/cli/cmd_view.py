"""`cardz view FILE --board B`: the player's view of a board."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import add_game_args, open_game, print_json, read_document

if TYPE_CHECKING:
    from cardz_core.engine.game import Game
    from cardz_core.view import View


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("view", help=COMMANDS["view"],
                       description="Print the player's view of board B as a board document: "
                                   "every face-down card is ~?, and 'unseen' holds the counts of "
                                   "the cards not seen, one object per pool. A board document "
                                   "carries no history, so only what is face-up is known; a "
                                   "board that is already a view is printed as it is.")
    add_game_args(p, board="a true board or a view")
    p.add_argument("--json", action="store_true",
                   help="print JSON (the view is always a JSON document; accepted for uniformity)")
    p.set_defaults(func=run)


def view_of_board(game: Game, arg: str) -> View:
    """The view of a board argument (a true board or a view already)."""
    from cardz_core.view import as_view

    state = game.load_board(read_document(arg, "board"))
    return as_view(state) if state.pools is not None else game.view(state)


def run(args: argparse.Namespace) -> int:
    game = open_game(args.file)
    print_json(game.board_document(view_of_board(game, args.board)))
    return 0
