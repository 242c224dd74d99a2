"""`cardz solve FILE (--seed N | --board B | --ms N)`: perfect-information search.

Prints ``won`` with the winning line (and, with ``--log``, writes it as a cardz-log/1 that
replays to the won board), ``lost`` (every reachable position searched), or ``unknown`` (a budget
ran out), with the positions searched and the time. See docs/solver.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from cardz_core.cli import COMMANDS
from cardz_core.cli.common import (add_game_args, check_output, check_range, check_seconds,
                                   check_seed, open_game, print_json, read_document, whole_number)
from cardz_core.limits import (MAX_MS_DEAL, SOLVE_DEFAULT_SECONDS, SOLVE_DEFAULT_STATES,
                               SOLVE_MAX_STATES)
from cardz_core.problems import CardzError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help=COMMANDS["solve"],
                       description="Search a position with every card known (perfect information). "
                                   "Answers won (with a winning line), lost (proved: every reachable "
                                   "position searched) or unknown (a budget ran out).")
    add_game_args(p)
    start = p.add_mutually_exclusive_group(required=True)
    start.add_argument("--seed", type=whole_number, metavar="N",
                       help="solve the deal of seed N (>= 0)")
    start.add_argument("--board", metavar="B",
                       help="solve board B: a path, - for standard input, or inline JSON")
    start.add_argument("--ms", type=whole_number, metavar="N",
                       help="solve Microsoft FreeCell deal N")
    p.add_argument("--timeout", type=float, default=SOLVE_DEFAULT_SECONDS, metavar="S",
                   help=f"give up after S seconds (default {SOLVE_DEFAULT_SECONDS:g})")
    p.add_argument("--max-states", type=whole_number, default=SOLVE_DEFAULT_STATES, metavar="K",
                   help=f"give up after recording K positions (default {SOLVE_DEFAULT_STATES}, "
                        f"at most {SOLVE_MAX_STATES})")
    p.add_argument("--log", metavar="PATH", help="write the winning line as a cardz-log/1 to PATH")
    p.add_argument("--json", action="store_true", help="print the result as a JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardz_core.engine.logs import LogRecorder, winning_log
    from cardz_core.msdeal import deal_ms
    from cardz_core.planners.solver import solve

    check_range(args.max_states, "--max-states", 1, SOLVE_MAX_STATES)
    check_seconds(args.timeout, "--timeout")
    check_seed(args.seed)
    check_range(args.ms, "--ms", 1, MAX_MS_DEAL)
    check_output(args.log, "--log")
    game = open_game(args.file)
    if args.seed is not None:
        state = game.deal(args.seed)
        recorder = LogRecorder(game, seed=args.seed)
    else:
        state = deal_ms(game, args.ms) if args.ms is not None else \
            game.load_board(read_document(args.board, "board"))
        if state.pools is not None:
            raise CardzError("the board is a player's view; the solver needs every card known")
        recorder = LogRecorder(game, board=state)
    result = solve(game, state, max_states=args.max_states, timeout=args.timeout)
    log = winning_log(game, state, result.line, recorder) if result.result == "won" else None
    if args.log and log is not None:
        try:
            Path(args.log).write_text(json.dumps(log, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            raise CardzError(f"--log {args.log}: cannot write: {exc.strerror}") from None
    doc: dict[str, Any] = {"result": result.result, "states": result.states,
                           "seconds": round(result.seconds, 3)}
    if result.stopped_by:
        doc["stoppedBy"] = result.stopped_by
    if log is not None:
        doc["moves"] = [game.move_text(m) for m in result.line]
        doc["log"] = log
    doc["pruning"] = result.notes
    if args.json:
        print_json(doc)
        return 0
    head = result.result
    if result.result == "won":
        head += f" in {len(result.line)} moves"
    elif result.result == "unknown":
        head += f" (the {result.stopped_by} budget ran out)"
    print(f"{head}; {result.states} positions searched in {result.seconds:.2f} s")
    if args.log and log is None:
        print(f"no log written to {args.log}: there is no winning line", file=sys.stderr)
    for text in doc.get("moves", []):
        print(text)
    return 0
