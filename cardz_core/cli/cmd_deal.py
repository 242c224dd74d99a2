"""`cardz deal FILE --seed N | --ms N | --winnable [--seed S] [--difficulty LEVEL]`: the opening
board of a deal."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import (UsageError, add_game_args, check_output, check_range,
                                   check_seconds, check_seed, goes_with, open_game, print_json,
                                   whole_number)
from cardz_core.limits import MAX_MS_DEAL, SOLVE_DEFAULT_SECONDS, SOLVE_MAX_STATES
from cardz_core.msdeal import ms_board_document
from cardz_core.problems import CardzError
from cardz_core.ratings import LEVELS, game_table
from cardz_core.winnable import (WINNABLE_MAX_TRIES, WINNABLE_STATES, WINNABLE_TRIES, rated_deal,
                                 winnable_deal)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("deal", help=COMMANDS["deal"],
                       description="Deal a game and print its opening board document "
                                   "(cardz-board/1, see docs/contract.md). With --winnable, a "
                                   "deal the solver has won, chosen from --seed (default 0) "
                                   "the same way on every machine.")
    add_game_args(p)
    how = p.add_mutually_exclusive_group()
    how.add_argument("--seed", type=whole_number, metavar="N",
                     help="the deal's seed, a whole number >= 0")
    how.add_argument("--ms", type=whole_number, metavar="N",
                     help="Microsoft FreeCell deal N, for games of that shape")
    p.add_argument("--winnable", action="store_true",
                   help="a deal the solver wins: the seed itself if it does, else the first "
                        "won of the seeds derived from it (docs/solver.md)")
    p.add_argument("--solution", metavar="PATH",
                   help="with --winnable, write the winning line there as a cardz-log/1 "
                        "(cardz play FILE --replay PATH steps through it)")
    p.add_argument("--tries", type=whole_number, metavar="K",
                   help=f"with --winnable, deals to try (default {WINNABLE_TRIES})")
    p.add_argument("--max-states", type=whole_number, metavar="K",
                   help=f"with --winnable, positions the solver may record per deal "
                        f"(default {WINNABLE_STATES:,})")
    p.add_argument("--timeout", type=float, metavar="S",
                   help=f"with --winnable, a safety: seconds per deal "
                        f"(default {SOLVE_DEFAULT_SECONDS:g})")
    p.add_argument("--difficulty", choices=LEVELS,
                   help="with --winnable, a deal of this level: from the game's table of rated "
                        "deals at once when it has one (cardz games lists them), else rated on "
                        "the spot, much more slowly (docs/winnability.md)")
    p.add_argument("--json", action="store_true",
                   help="print JSON (the board document is always JSON; accepted for uniformity)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    check_seed(args.seed)
    if args.winnable:
        return _winnable(args)
    goes_with(args, "--winnable", "solution", "difficulty", "tries", "max_states", "timeout")
    if args.seed is None and args.ms is None:
        raise UsageError("one of the arguments --seed --ms --winnable is required")
    check_range(args.ms, "--ms", 1, MAX_MS_DEAL)
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


def _winnable(args: argparse.Namespace) -> int:
    if args.ms is not None:
        raise UsageError("argument --winnable: not allowed with argument --ms (Microsoft "
                         "deals are numbered, not chosen)")
    # given only with --winnable, so their defaults are filled in here
    args.tries = WINNABLE_TRIES if args.tries is None else args.tries
    args.max_states = WINNABLE_STATES if args.max_states is None else args.max_states
    args.timeout = SOLVE_DEFAULT_SECONDS if args.timeout is None else args.timeout
    check_range(args.tries, "--tries", 1, WINNABLE_MAX_TRIES)
    check_range(args.max_states, "--max-states", 1, SOLVE_MAX_STATES)
    check_seconds(args.timeout, "--timeout")
    check_output(args.solution, "--solution")
    game = open_game(args.file)
    seed = args.seed or 0
    if args.difficulty:
        table = game_table(game)
        if table.note:
            print(f"note: {table.note}; rating deals here instead (slower)", file=sys.stderr)
        if table.table is not None and not args.solution:  # the table answers at once
            deal_seed, row = rated_deal(table.table, args.difficulty, seed)
            print_json(game.board_document(game.deal(deal_seed)))
            print(f"seed {deal_seed}: rated {args.difficulty} (measure {row['measure']:.3f}); "
                  f"the solver wins it in {row['moves']} moves", file=sys.stderr)
            return 0
    found = winnable_deal(game, seed, tries=args.tries, max_states=args.max_states,
                          timeout=args.timeout, difficulty=args.difficulty)
    if args.solution:
        try:
            Path(args.solution).write_text(json.dumps(found.log, indent=1) + "\n",
                                           encoding="utf-8")
        except OSError as exc:
            raise CardzError(f"--solution {args.solution}: cannot write: {exc.strerror}") \
                from None
    print_json(game.board_document(found.state))
    note = f"seed {found.seed}: the solver wins it in {len(found.line)} moves"
    if found.level is not None:
        note = f"seed {found.seed}: rated {found.level} (measure {found.measure:.3f}" + \
            (", among the deals rated here" if found.rated_from == "spot" else "") + \
            f"); the solver wins it in {len(found.line)} moves"
    if len(found.tried) > 1:
        note += f" (deal {len(found.tried)} tried from seed {seed})"
    if found.timed_out:
        note += "; a deal before it ran out of seconds, so a faster machine may choose another"
    print(note, file=sys.stderr)
    return 0
