"""`cardz play FILE [--seed N] [--planner P]`: play a deal in the terminal, or watch a planner.

A person sees the board as the player sees it (face-down cards hidden, cards seen and turned
down again remembered), the legal moves with stable keys naming their cards
(``cardz_core.cli.menu``), the move counter and the score. Each line read from standard input is
a key, a move (its text form, ``AS>foundation-1``, or a menu label), or one of ``u`` (undo),
``h`` (hint from the usual planner), ``q`` (quit, saving the game). It reads plain lines, so a
script can play it. ``--resume SAVE`` goes on with a saved game; ``--replay LOG`` steps through a
log or a solution.

The counter shown is the number of moves on the line played so far: an undo takes it back by
one. The score's ``moves`` fact still counts every move made, undone ones included, as the
format's reference says.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from cardz_core.cli import COMMANDS
from cardz_core.cli.cmd_hint import add_planner_options, check_planner_options, planner_from_args
from cardz_core.cli.common import (UsageError, add_game_args, check_output, check_range, check_seed,
                                   echo, goes_with, open_game, print_json, read_document,
                                   whole_number)
from cardz_core.cli.menu import Entry, menu, pick
from cardz_core.cli.reading import names_a_file
from cardz_core.engine.state import PLAYING, STATUS_NAMES, State
from cardz_core.interrupts import interrupts_held
from cardz_core.limits import MAX_SIM_MAX_MOVES, PLAY_MAX_MOVES
from cardz_core.planners import DEFAULT_PLANNER
from cardz_core.problems import CardzError
from cardz_core.sim.play import RESULT_OF_END, end_of
from cardz_core.sim.text import END_TITLES
from cardz_core.view import Seat, View

if TYPE_CHECKING:
    from cardz_core.engine.logs import LogRecorder
    from cardz_core.engine.game import Game

MOVE_FORMS = "7H column-3 > foundation-1, AS>foundation-1, tap stock"
KEYS = "u undo, h hint, q save and quit"
HELP = f"type a key or a move ({MOVE_FORMS}); {KEYS}"
REPLAY_HELP = "Enter: next step; b: back one step; q: quit"
# the closing line's words for each end; a person may stop before any move cap
END_WORDS = {**END_TITLES, "unfinished": "unfinished"}
SAVE_DIR = "cardz"  # below $XDG_STATE_HOME (default ~/.local/state): where games are saved


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help=COMMANDS["play"],
                       description="Deal the game and play it in the terminal: the board as the "
                                   "player sees it, the legal moves each with a key that stays "
                                   "the same within a position. Type a key or a move; u undoes, "
                                   "h asks for a hint, q saves the game and quits (--resume "
                                   "goes on with it). With --planner P the planner plays the "
                                   "deal out, move by move; --replay steps through a log.")
    add_game_args(p)
    p.add_argument("--seed", type=whole_number, default=1, metavar="N",
                   help="deal number (default 1)")
    p.add_argument("--winnable", action="store_true",
                   help="play a deal the solver has won, chosen from --seed as cardz deal "
                        "--winnable chooses it")
    add_planner_options(p)
    p.add_argument("--max-moves", type=whole_number, metavar="M",
                   help=f"with --planner, stop after M moves (default {PLAY_MAX_MOVES})")
    p.add_argument("--quiet", action="store_true", help="with --planner, print only the result")
    p.add_argument("--save", metavar="PATH",
                   help="where q saves the game, as a cardz-log/1 (default: a file named after "
                        "the game and seed in $XDG_STATE_HOME/cardz, else ~/.local/state/cardz)")
    start = p.add_mutually_exclusive_group()
    start.add_argument("--resume", metavar="SAVE",
                       help="go on with a game q saved (and save it there again)")
    start.add_argument("--replay", metavar="LOG",
                       help="step through a cardz-log/1 (cardz solve --log, cardz deal "
                            "--winnable --solution, a saved game) or cardz solve --json output")
    p.add_argument("--json", action="store_true",
                   help="print the result as JSON: result, moves, score, seed, planner")
    p.set_defaults(func=run)


def draw_board(game: Game, v: View, shown_moves: int | None = None) -> str:
    """The view as text: one line per depot, face-down cards shown as ~? (or ~QS when
    remembered), runs of unknown cards shortened. ``shown_moves`` is the counter shown (the
    moves on the line played), by default the view's own ``moves``."""
    from cardz_core.engine.documents import card_table

    table = card_table(game)
    width = max(len(n) for n in game.depot_names)
    count = v.moves if shown_moves is None else shown_moves
    lines = [f"{game.spec.name}: move {count}, {STATUS_NAMES[v.status]}{_score_text(game, v)}"]
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


def _result(game: Game, seat: Seat, args: argparse.Namespace, planner: str | None,
            shown: int, stopped: bool = False) -> int:
    """Print how the game ended: ``end`` is one of the five ends the simulator counts (won, lost
    by the rules, stuck, resigned, unfinished); ``result`` the coarse one (stuck and resigned
    are lost), as in the simulator's rows. ``stopped``: the planner answered no move."""
    end = end_of(game, seat.state, stopped)
    score = game.score(seat.state)
    if args.json:
        print_json({"result": RESULT_OF_END[end], "end": end, "moves": shown,
                    "movesMade": seat.state.moves, "score": score, "seed": args.seed,
                    "planner": planner})
    else:
        made = f" ({seat.state.moves} made)" if seat.state.moves != shown else ""
        print(f"{END_WORDS[end]} after {shown} moves{made}{_score_text(game, seat.state)}")
    return 0


def _score_text(game: Game, state: State) -> str:
    """``, score N``; ``, no score kept`` where the deal keeps none (a planner played it, the
    rules were off, a lost deal that keeps only wins); nothing for a game without scoring."""
    if game.spec.scoring is None:
        return ""
    score = game.score(state)
    return ", no score kept" if score is None else f", score {score}"


def run(args: argparse.Namespace) -> int:
    from cardz_core.engine.logs import LogRecorder

    check_seed(args.seed)
    goes_with(args, "--planner", "max_moves", "quiet")  # a person's game: no cap, every move shown
    args.max_moves = PLAY_MAX_MOVES if args.max_moves is None else args.max_moves
    check_range(args.max_moves, "--max-moves", 1, MAX_SIM_MAX_MOVES)
    check_planner_options(args)
    check_output(args.save, "--save")
    if args.planner and (args.resume or args.replay):
        raise UsageError(f"--planner plays a new deal; it does not go with "
                         f"{'--resume' if args.resume else '--replay'}")
    if args.winnable and (args.resume or args.replay):
        raise UsageError("argument --winnable: it chooses a new deal; it does not go with "
                         f"{'--resume' if args.resume else '--replay'}")
    game = open_game(args.file)
    if args.replay:
        return _replay(game, args)
    if args.winnable:
        from cardz_core.winnable import winnable_deal

        args.seed = winnable_deal(game, args.seed).seed
        print(f"deal {args.seed}: the solver has won it", file=sys.stderr)
    state = game.deal(args.seed)
    if args.planner:
        # the reference: a deal where automatic moves were made (Cardz's own player) keeps no score
        state.auto_moved = True
    seat = Seat(game, state)
    recorder = LogRecorder(game, seed=args.seed)
    line = 0
    if args.resume:
        seat, recorder, line = _resume(game, args)
    rng = random.Random(args.seed)
    if args.planner:
        return _watch(game, seat, args, rng)
    _check_save(game, args)
    return _interactive(game, seat, recorder, line, args, rng)


def _watch(game: Game, seat: Seat, args: argparse.Namespace, rng: random.Random) -> int:
    planner = planner_from_args(game, args)
    talk = not (args.quiet or args.json)
    if talk:
        print(draw_board(game, seat.view))
    stopped = False
    while seat.state.status == PLAYING and seat.state.moves < args.max_moves:
        move = planner.choose(game, seat.view, rng)
        if move is None:
            stopped = True
            if talk:
                print(f"{planner.name} finds no move worth making")
            break
        seat.play(move)
        if talk:
            print(f"{seat.state.moves}. {game.move_text(move)}")
    if talk:
        print(draw_board(game, seat.view))
    return _result(game, seat, args, planner.name, seat.state.moves, stopped)


def _read_log(arg: str, what: str = "log") -> dict[str, Any]:
    """A log argument: a cardz-log/1, or an object holding one under ``log`` (``cardz solve
    --json`` prints its winning line so). ``what`` names it as the flag's user knows it."""
    doc = read_document(arg, what)
    if isinstance(doc, dict) and "format" not in doc and isinstance(doc.get("log"), dict):
        doc = doc["log"]
    if not isinstance(doc, dict):
        raise CardzError(f"{what} {arg!r}: a log is a JSON object (cardz-log/1)")
    return doc


def _resume(game: Game, args: argparse.Namespace) -> tuple[Seat, LogRecorder, int]:
    """The saved game: checked by replaying it, then played again on a seat so the player's
    memory of cards seen is rebuilt too."""
    from cardz_core.engine.logs import LogRecorder, replay

    log = _read_log(args.resume, "saved game")
    try:
        replay(game, log)
    except CardzError as exc:
        raise CardzError(f"--resume {args.resume}: {exc.problems[0].message}",
                         exc.problems[0].path) from None
    if "seed" not in log:
        raise CardzError(f"--resume {args.resume}: the saved game starts from a board, not a "
                         "seed; cardz play starts from a deal")
    args.seed = log["seed"]
    seat = Seat(game, game.deal(args.seed))
    recorder = LogRecorder(game, seed=args.seed)
    line = 0
    for step in log["steps"]:
        if step == {"undo": True}:
            seat.undo()
            recorder.record_undo()
            line -= 1
            continue
        before, move = seat.state, game.parse_move(step["move"])
        seat.play(move)
        recorder.record(before, move, seat.state)
        line += 1
    if args.save is None and names_a_file(args.resume):  # else the default place, by the seed
        args.save = args.resume
    return seat, recorder, line


def save_path(game: Game, args: argparse.Namespace) -> Path:
    """Where q saves: ``--save``, else a file named after the game file and the seed in the
    user's state folder."""
    if args.save:
        return Path(args.save)
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    stem = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in Path(args.file).stem)
    return Path(base) / SAVE_DIR / f"{stem}-seed{args.seed}.json"


def _check_save(game: Game, args: argparse.Namespace) -> None:
    """Refuse, before the first move, a save file that cannot be written (``--save`` was checked
    with the other flags; the default place is known once the seed is): else a game played to
    ``q`` would be lost there. Its folder is made now, as saving would make it."""
    check_output(str(_save_place(game, args)), "the save file")


def _save_place(game: Game, args: argparse.Namespace) -> Path:
    """Where the game is saved (``save_path``), its folder made."""
    path = save_path(game, args)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unsaved(path, exc) from None
    return path


def _unsaved(path: Path, exc: OSError) -> CardzError:
    return CardzError(f"cannot save the game to {path}: {exc.strerror}")


def _save(game: Game, seat: Seat, recorder: LogRecorder, args: argparse.Namespace,
          out: TextIO) -> None:
    path = _save_place(game, args)
    try:
        path.write_text(json.dumps(recorder.document(seat.state), indent=1) + "\n",
                        encoding="utf-8")
    except OSError as exc:
        raise _unsaved(path, exc) from None
    print(f"saved to {path}; go on with: cardz play {args.file} --resume {path}", file=out)


def _interactive(game: Game, seat: Seat, recorder: LogRecorder, line: int,
                 args: argparse.Namespace, rng: random.Random) -> int:
    out = sys.stderr if args.json else sys.stdout
    print(HELP, file=out)
    try:
        line, quit_asked = _turns(game, seat, recorder, line, args, rng, out)
    except KeyboardInterrupt:  # Ctrl-C, or the terminal closed: save what was played first
        if seat.state.status == PLAYING and recorder.steps:
            with interrupts_held():
                print(file=out)
                try:
                    _save(game, seat, recorder, args, out)
                except CardzError as exc:  # said, and the interrupt still sets the exit status
                    print(f"cardz play: {exc.problems[0]}", file=sys.stderr)
        raise
    if seat.state.status != PLAYING:
        print(draw_board(game, seat.view, line), file=out)
    elif quit_asked and recorder.steps:
        _save(game, seat, recorder, args, out)
    return _result(game, seat, args, None, line)


def _turns(game: Game, seat: Seat, recorder: LogRecorder, line: int, args: argparse.Namespace,
           rng: random.Random, out: TextIO) -> tuple[int, bool]:
    """The player's turns until the game ends or they quit: the move count reached, and whether
    they asked to quit (q or the end of input). A move or an undo and its record are made whole
    before a signal is let in, so that a save matches the board."""
    hinter = None
    quit_asked = False
    while seat.state.status == PLAYING:
        v = seat.view
        entries = menu(game, v, game.legal_moves(v))
        print(draw_board(game, v, line), file=out)
        for e in entries:
            print(f"  {e.key:>4}. {e.label}", file=out)
        print("move> ", end="", file=out, flush=True)
        typed = sys.stdin.readline()
        if not typed:
            print(file=out)
            quit_asked = True
            break
        text = typed.strip()
        if not text:
            continue
        if text in ("q", "quit"):
            quit_asked = True
            break
        if text in ("u", "undo"):
            with interrupts_held():
                try:
                    recorder.check_room()  # before the seat: a refused undo changes nothing
                except CardzError as exc:
                    print(f"not undone: {exc.problems[0].message}", file=out)
                    continue
                undone = seat.undo()
                if undone:
                    recorder.record_undo()
                    line -= 1
            if not undone:
                print("nothing to undo", file=out)
            continue
        if text in ("h", "hint"):
            try:
                hinter = hinter or planner_from_args(game, args, DEFAULT_PLANNER)
                hint = hinter.choose(game, v, rng)
                shown = _entry_of(entries, hint)
                print(f"hint: {shown}" if shown else "hint: no move", file=out)
            except CardzError as exc:
                print(f"no hint: {exc.problems[0].message}", file=out)
            continue
        if text in ("?", "help"):
            print(HELP, file=out)
            continue
        chosen = _chosen(game, v, entries, text)
        if isinstance(chosen, str):
            print(f"not played: {chosen}", file=out)
            continue
        before = seat.state
        with interrupts_held():
            try:
                recorder.check_room()
                seat.play(chosen)
            except CardzError as exc:
                print(f"not played: {exc.problems[0].message}", file=out)
                continue
            recorder.record(before, chosen, seat.state)
            line += 1
    return line, quit_asked


def _entry_of(entries: list[Entry], move: Any) -> str | None:
    """How the menu shows ``move``: its key and label."""
    if move is None:
        return None
    for e in entries:
        if e.move == move:
            return f"{e.key}. {e.label}"
    return None


def _chosen(game: Game, v: View, entries: list[Entry], text: str) -> Any:
    """The move the player typed, or a message saying why there is none."""
    from cardz_core.nearest import did_you_mean

    entry = pick(entries, text)
    if entry is not None:
        return entry.move
    if text.isdigit():
        return f"no move numbered {echo(text)}"
    try:
        return game.parse_move(text, board=v)
    except CardzError as exc:
        message = exc.problems[0].message
        if "(did you mean" in message:
            return message
        near = did_you_mean(text, [e.label for e in entries]
                            + [game.move_text(e.move) for e in entries])
        if not near and not any(c in text for c in " @>"):
            # a lone word is a key the player thought there was, not a move mistyped: the
            # move grammar would only confuse them
            return (f"'{echo(text)}' is not a key or a move: type a move's number from the list, a "
                    f"move ({MOVE_FORMS}), or a key: {KEYS}")
        return message + near


def _replay(game: Game, args: argparse.Namespace) -> int:
    """Step through a log: each line read shows the next step (b goes back one, q stops); at
    the end of standard input the rest is shown without waiting."""
    from cardz_core.engine.logs import replay

    log = _read_log(args.replay)
    try:
        boards = replay(game, log)
    except CardzError as exc:
        raise CardzError(f"--replay {args.replay}: {exc.problems[0].message}",
                         exc.problems[0].path) from None
    steps = log["steps"]
    out = sys.stderr if args.json else sys.stdout
    print(REPLAY_HELP, file=out)
    at, line, waiting = 0, [0], True
    print(draw_board(game, game.view(boards[0]), 0), file=out)
    while at < len(steps):
        if waiting:
            print(f"step {at + 1} of {len(steps)}> ", end="", file=out, flush=True)
            typed = sys.stdin.readline()
            if not typed:
                waiting = False
                print(file=out)
            elif typed.strip() == "q":
                break
            elif typed.strip() == "b":
                if at > 0:
                    at -= 1
                    line.pop()
                    print(draw_board(game, game.view(boards[at]), line[-1]), file=out)
                continue
        step = steps[at]
        at += 1
        line.append(line[-1] - 1 if step == {"undo": True} else line[-1] + 1)
        said = "undo" if step == {"undo": True} else str(step.get("move"))
        print(f"{at}. {said}", file=out)
        print(draw_board(game, game.view(boards[at]), line[-1]), file=out)
    final = boards[at]
    end = end_of(game, final, False)
    if args.json:
        print_json({"result": RESULT_OF_END[end], "end": end, "moves": line[-1],
                    "movesMade": final.moves, "score": game.score(final), "steps": at,
                    "of": len(steps)})
    else:
        print(f"{END_WORDS[end]} after {line[-1]} moves (step {at} of {len(steps)})")
    return 0
