"""`cardz eval FILE --board B EXPR`: the value of a rule expression on a board."""

from __future__ import annotations

import argparse

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import add_game_args, open_game, print_json, read_document
from cardz_core.nearest import did_you_mean
from cardz_core.problems import CardzError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("eval", help=COMMANDS["eval"],
                       description="Evaluate rule expression EXPR on board B and print its value: "
                                   "cards in card notation, depots by name (see docs/expressions.md). "
                                   "The expression sees the depots and the score facts (moves, "
                                   "undos, recycles, redeals); --depot also lets it name `depot`.")
    add_game_args(p, board="a true board")
    p.add_argument("expr", metavar="EXPR", help="the rule expression")
    p.add_argument("--depot", metavar="NAME", help="the depot the expression calls `depot`")
    p.add_argument("--json", action="store_true",
                   help='print {"kind": ..., "value": ...} as JSON')
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardz_core.expr import Env, compile_typed
    from cardz_core.expr.show import to_json, to_text

    game = open_game(args.file)
    state = game.load_board(read_document(args.board, "board"))
    spec = game.spec  # the expression compiler's input: it compiles against the spec
    env = Env(state)
    context = "eval"
    if args.depot is not None:
        if args.depot not in game.depot_index:
            raise CardzError(f"--depot: the game has no depot named {args.depot!r}"
                             f"{did_you_mean(args.depot, game.depot_names)}")
        env.depot = game.depot_index[args.depot]
        context = "evalDepot"
    kind, fn = compile_typed(args.expr, context, spec, game.registry, self_depot=args.depot)
    value = fn(env)
    if args.json:
        print_json({"kind": kind, "value": to_json(kind, value, spec)})
    else:
        print(to_text(kind, value, spec))
    return 0
