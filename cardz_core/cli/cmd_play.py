"""`cardz play FILE [--seed N] [--planner P]`: play a deal in the terminal, or watch a planner.

A person sees the board as the player sees it (face-down cards hidden, cards seen and turned
down again remembered), the legal moves numbered, the counters and the score. Each line read
from standard input is a move number, a move in text form, or one of: ``u`` (undo), ``h``
(hint from the usual planner), ``q`` (quit). It reads plain lines, so a script can play it.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TYPE_CHECKING

from cardz_core.cli.cmd_hint import add_planner_options, planner_from_args
from cardz_core.cli.common import add_game_args, check_seed, open_game, print_json
from cardz_core.engine.documents import card_table
from cardz_core.engine.state import PLAYING, STATUS_NAMES, State
from cardz_core.limits import PLAY_MAX_MOVES
from cardz_core.planners import DEFAULT_PLANNER
from cardz_core.problems import CardzError
from cardz_core.view import Seat, View

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

HELP = "type a move number or a move (column-3@4>foundation-1, tap stock); u undo, h hint, q quit"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help="play a deal in the terminal, or watch a planner play it",
                       description="Deal the game and play it in the terminal: the board as the "
                                   "player sees it, the legal moves numbered. Type a number or "
                                   "a move; u undoes, h asks for a hint, q quits. With --planner "
                                   "P the planner plays the deal out, move by move.")
    add_game_args(p)
    p.add_argument("--seed", type=int, default=1, metavar="N", help="deal number (default 1)")
    add_planner_options(p)
    p.add_argument("--max-moves", type=int, default=PLAY_MAX_MOVES, metavar="M",
                   help=f"with --planner, stop after M moves (default {PLAY_MAX_MOVES})")
    p.add_argument("--quiet", action="store_true", help="with --planner, print only the result")
    p.add_argument("--json", action="store_true",
                   help="print the result as JSON: result, moves, score, seed, planner")
    p.set_defaults(func=run)


def draw_board(game: Game, v: View) -> str:
    """The view as text: one line per depot, face-down cards shown as ~? (or ~QS when
    remembered), runs of unknown cards shortened."""
    table = card_table(game)
    width = max(len(n) for n in game.depot_names)
    lines = [f"{game.spec.name}: move {v.moves}, {STATUS_NAMES[v.status]}{_score_text(game, v)}"]
    for name, pile in zip(game.depot_names, v.piles):
        parts: list[str] = []
        unknown = 0
        for c in pile:
            if c < 0:
                unknown += 1
                continue
            if unknown:
                parts.append(f"~?x{unknown}" if unknown > 1 else "~?")
                unknown = 0
            parts.append(table.text(c))
        if unknown:
            parts.append(f"~?x{unknown}" if unknown > 1 else "~?")
        lines.append(f"  {name.ljust(width)}  {' '.join(parts) or '-'}")
    return "\n".join(lines)


def _result(game: Game, seat: Seat, args: argparse.Namespace, planner: str | None) -> int:
    status = seat.state.status
    name = STATUS_NAMES[status] if status != PLAYING else "unfinished"
    if args.json:
        print_json({"result": name, "moves": seat.state.moves, "score": game.score(seat.state),
                    "seed": args.seed, "planner": planner})
    else:
        print(f"{name} after {seat.state.moves} moves{_score_text(game, seat.state)}")
    return 0


def _score_text(game: Game, state: State) -> str:
    """``, score N``; ``, no score kept`` where the deal keeps none (a planner played it, the
    rules were off, a lost deal that keeps only wins); nothing for a game without scoring."""
    if game.spec.scoring is None:
        return ""
    score = game.score(state)
    return ", no score kept" if score is None else f", score {score}"


def run(args: argparse.Namespace) -> int:
    check_seed(args.seed)
    game = open_game(args.file)
    state = game.deal(args.seed)
    if args.planner:
        # the reference: a deal where automatic moves were made (Cardz's own player) keeps no score
        state.auto_moved = True
    seat = Seat(game, state)
    rng = random.Random(args.seed)
    if args.planner:
        return _watch(game, seat, args, rng)
    return _interactive(game, seat, args, rng)


def _watch(game: Game, seat: Seat, args: argparse.Namespace, rng: random.Random) -> int:
    planner = planner_from_args(game, args)
    talk = not (args.quiet or args.json)
    if talk:
        print(draw_board(game, seat.view))
    while seat.state.status == PLAYING and seat.state.moves < args.max_moves:
        move = planner.choose(game, seat.view, rng)
        if move is None:
            if talk:
                print(f"{planner.name} finds no move worth making")
            break
        seat.play(move)
        if talk:
            print(f"{seat.state.moves}. {game.move_text(move)}")
    if talk:
        print(draw_board(game, seat.view))
    return _result(game, seat, args, planner.name)


def _interactive(game: Game, seat: Seat, args: argparse.Namespace, rng: random.Random) -> int:
    hinter = None
    out = sys.stderr if args.json else sys.stdout
    print(HELP, file=out)
    while seat.state.status == PLAYING:
        moves = game.legal_moves(seat.view)
        print(draw_board(game, seat.view), file=out)
        for i, m in enumerate(moves, 1):
            print(f"  {i:3}. {game.move_text(m)}", file=out)
        print("move> ", end="", file=out, flush=True)
        line = sys.stdin.readline()
        if not line:
            print(file=out)
            break
        text = line.strip()
        if not text:
            continue
        if text in ("q", "quit"):
            break
        if text in ("u", "undo"):
            if not seat.undo():
                print("nothing to undo", file=out)
            continue
        if text in ("h", "hint"):
            try:
                hinter = hinter or planner_from_args(game, args, DEFAULT_PLANNER)
                hint = hinter.choose(game, seat.view, rng)
                print(f"hint: {game.move_text(hint)}" if hint is not None else "hint: no move",
                      file=out)
            except CardzError as exc:
                print(f"no hint: {exc.problems[0].message}", file=out)
            continue
        if text in ("?", "help"):
            print(HELP, file=out)
            continue
        if text.isdigit() and not 1 <= int(text) <= len(moves):
            print(f"not played: no move numbered {text}", file=out)
            continue
        try:
            seat.play(moves[int(text) - 1] if text.isdigit() else game.parse_move(text))
        except CardzError as exc:
            print(f"not played: {exc.problems[0].message}", file=out)
    if seat.state.status != PLAYING:
        print(draw_board(game, seat.view), file=out)
    return _result(game, seat, args, None)
