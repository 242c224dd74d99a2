"""`cardz hint FILE --board B [--planner P]`: the move a planner would make on a board."""

from __future__ import annotations

import argparse
import random
from typing import TYPE_CHECKING, Any

from cardz_core.cli import COMMANDS
from cardz_core.cli.cmd_view import view_of_board
from cardz_core.cli.common import (add_game_args, add_option_arg, check_range, check_seconds,
                                   check_seed, open_game, planner_options, print_json, whole_number)
from cardz_core.engine.state import PLAYING, STATUS_NAMES
from cardz_core.limits import PLANNER_MAX_NODES, PLANNER_MAX_SECONDS
from cardz_core.planners import (BUILTIN_PLANNERS, DEFAULT_PLANNER, Planner, check_option_names,
                                 make_planner)
from cardz_core.problems import CardzError

if TYPE_CHECKING:
    from cardz_core.engine.game import Game


def add_planner_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--planner", default=None, metavar="P",
                   help=f"planner name ({', '.join(BUILTIN_PLANNERS)} or a plugin's); "
                        f"default {DEFAULT_PLANNER}")
    p.add_argument("--nodes", type=whole_number, metavar="N",
                   help="positions a searching planner (expectimax) may expand per move")
    p.add_argument("--seconds", type=float, metavar="S",
                   help="seconds a searching planner may think per move (not reproducible "
                        "across machines; prefer --nodes)")
    add_option_arg(p)


def check_planner_options(args: argparse.Namespace) -> None:
    """The planner's budgets, checked before any work whichever planner is named."""
    check_range(args.nodes, "--nodes", 1, PLANNER_MAX_NODES)
    check_seconds(args.seconds, "--seconds", PLANNER_MAX_SECONDS)


def planner_from_args(game: Game, args: argparse.Namespace, name: str | None = None
                      ) -> Planner:
    check_planner_options(args)
    name = name or args.planner or DEFAULT_PLANNER
    given: list[tuple[str, Any]] = args.planner_options
    check_option_names(game, name, dict(given))
    return make_planner(game, name, **planner_options(given, args.nodes, args.seconds))


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hint", help=COMMANDS["hint"],
                       description="Print the move planner P would make on the player's view of "
                                   "board B. Planners see only the view: face-down cards stay "
                                   "hidden. A game that offers no planner (planner: false, or "
                                   "written with expressions without planner: true) exits 1.")
    add_game_args(p, board="a true board or a view")
    p.add_argument("--seed", type=whole_number, default=0, metavar="N",
                   help="seed of the planner's random choices (default 0)")
    add_planner_options(p)
    p.add_argument("--json", action="store_true", help="print the move document")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardz_core.engine.movetext import move_document

    check_seed(args.seed)
    check_planner_options(args)
    game = open_game(args.file)
    v = view_of_board(game, args.board)
    if v.status != PLAYING:  # no planner is asked about a game the rules have ended
        raise CardzError(f"the game on this board is over: it is {STATUS_NAMES[v.status]}")
    planner = planner_from_args(game, args)
    move = planner.choose(game, v, random.Random(args.seed))
    if move is None:
        raise CardzError(f"planner {planner.name!r} has no move on this board")
    if args.json:
        print_json({**move_document(game, move), "text": game.move_text(move)})
    else:
        print(game.move_text(move))
    return 0
