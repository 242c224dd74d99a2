"""`cardz apply FILE --board B --move M`: apply a move and print the board it leads to."""

from __future__ import annotations

import argparse
from typing import Any

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import (add_game_args, echo, open_game, print_json, read_document,
                                   stdin_once)
from cardz_core.engine.moves import IllegalMove
from cardz_core.problems import CardzError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("apply", help=COMMANDS["apply"],
                       description="Apply move M, and everything that follows from it, to "
                                   "board B; print the new board document. Give --move again "
                                   "to apply several moves in turn.")
    add_game_args(p, board="a true board")
    p.add_argument("--move", required=True, action="append", metavar="M",
                   help="a move in text form (column-3@4>foundation-1, tap stock, or by its "
                        "card: AS>foundation-1, or AS>foundation to the first of the empty "
                        "foundations, as cardz play offers it) or a move document (a path, - "
                        "or inline JSON)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (the board document is always JSON; accepted for uniformity)")
    p.set_defaults(func=run)


class _UnknownCard(Exception):
    """A move on a view turned up a card the view does not know."""


def _refuse_reveal(pool: int) -> int:
    raise _UnknownCard(pool)


def _names_a_card(head: str) -> bool:
    """Whether the text before a move's '>' begins with a face-up card (``KD`` or ``KD column-2``)."""
    from cardz_core.cards import parse_card

    words = head.split()
    try:
        return bool(words) and parse_card(words[0])[1]
    except ValueError:
        return False


def read_move(game: Any, arg: str, board: Any = None) -> Any:
    """A move argument: text form or inline JSON, ``-`` for standard input, or a file holding
    either. Given the ``board`` it is made on, the text may name the card (``AS>foundation-1``),
    or be a ``cardz play`` label with or without its source (``AS>foundation``)."""
    from cardz_core.cli.reading import argument_text, parse_document

    from cardz_core.cli.menu import menu, pick

    text, _ = argument_text(arg, "move", inline=True)
    text = text.strip()
    try:
        return game.parse_move(parse_document(text, "move") if text.startswith("{") else text,
                               board=board)
    except CardzError:
        # a label `cardz play` shows (AD>foundation: the first of the empty foundations); its
        # keys (1, t) are the menu's own and are not moves here
        labelled = board is not None and ">" in text
        entry = pick(menu(game, board, game.legal_moves(board)), text) if labelled else None
        if entry is None:
            head, _, target = text.rpartition(">")
            if labelled and target.strip() in game.compiled.groups and _names_a_card(head):
                raise CardzError(f"{text!r}: no legal move takes {head.split()[0]} to "
                                 f"{target.strip()}") from None
            raise
        return entry.move


def run(args: argparse.Namespace) -> int:
    stdin_once(("--board", [args.board]), ("--move", args.move))
    game = open_game(args.file)
    state = game.load_board(read_document(args.board, "board"))
    for n, arg in enumerate(args.move, 1):
        where = f"--move {echo(arg)!r}" if len(args.move) == 1 else f"move {n} ({echo(arg)!r})"
        try:
            move = read_move(game, arg, state)
        except CardzError as exc:
            raise CardzError(f"{where}: {exc.problems[0].message}") from None
        try:
            state = game.apply(state, move, reveal=_refuse_reveal)
        except IllegalMove as exc:
            reason = "; ".join(p.message for p in exc.problems)
            raise CardzError(f"{where}: {game.move_text(move)} is not legal: {reason}") from None
        except _UnknownCard:
            raise CardzError(f"{where}: {game.move_text(move)} turns up a card this view does "
                             "not know; cardz outcomes lists what it may reveal") from None
    print_json(game.board_document(state))
    return 0
