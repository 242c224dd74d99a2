"""`cardz outcomes FILE --board B --move M [--limit K]`: what a move on the player's view may do."""

from __future__ import annotations

import argparse

from cardz_core.cli import COMMANDS
from cardz_core.cli.cmd_apply import read_move
from cardz_core.cli.cmd_view import view_of_board
from cardz_core.cli.common import (add_game_args, check_range, open_game, print_json, stdin_once,
                                   whole_number)
from cardz_core.limits import MAX_OUTCOME_WORK, MAX_OUTCOMES
from cardz_core.problems import CardzError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("outcomes", help=COMMANDS["outcomes"],
                       description="Apply move M to the player's view of board B and list every "
                                   "outcome, most likely first: its probability, the cards it "
                                   "turns up (in order) and the view it leads to; then the "
                                   "coverage, the probability the listed outcomes hold together "
                                   "(1 unless --limit cut the list).")
    add_game_args(p, board="a true board or a view")
    p.add_argument("--move", required=True, metavar="M",
                   help="a move in text form (column-3@4>foundation-1, tap stock, or by its "
                        "card: AS>foundation-1, AS>foundation) or a document")
    p.add_argument("--limit", type=whole_number, metavar="K", help="list at most K outcomes")
    p.add_argument("--json", action="store_true",
                   help="print {outcomes: [{probability, revealed, view}], coverage}")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardz_core.engine.documents import card_table

    check_range(args.limit, "--limit", 1, MAX_OUTCOMES)
    stdin_once(("--board", [args.board]), ("--move", [args.move]))
    game = open_game(args.file)
    v = view_of_board(game, args.board)
    move = read_move(game, args.move, v)
    why = game.illegal_reason(v, move)
    if why is not None:
        raise CardzError(f"--move {args.move!r}: {game.move_text(move)} is not legal: {why}")
    outs = game.outcomes(v, move, limit=args.limit)
    table = card_table(game)
    if args.json:
        print_json({"move": game.move_text(move), "coverage": outs.coverage,
                    "stopped": outs.stopped, "outcomes": [
            {"probability": o.probability, "revealed": [str(table.cards[i]) for i in o.revealed],
             "view": game.board_document(o.view)} for o in outs]})
        return 0
    for o in outs:
        shown = " ".join(str(table.cards[i]) for i in o.revealed) or "(nothing revealed)"
        print(f"{o.probability:.6f}  {shown}")
    print(f"{len(outs)} outcome(s), coverage {outs.coverage:.6f}")
    if outs.stopped:
        print(f"stopped: listing them took the whole work budget ({MAX_OUTCOME_WORK:,}, "
              "limits.MAX_OUTCOME_WORK); the outcomes not listed hold the rest")
    return 0
