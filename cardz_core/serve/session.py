"""One browser tab's game: playing a deal (with its log, undo and redo) or replaying a log.

A ``Session`` owns its compiled ``Game`` (a ``Game`` is not thread-safe, and the server answers
each request on its own thread) and a lock that the server holds for every request on it, so
two requests of one tab never interleave and two tabs never share anything.

Playing keeps a ``Seat`` (the true position and what the player knows of it), a
``LogRecorder`` (every move and undo, so the log replays to this board) and the moves undone
since the last new move (redo plays them again). Planners see only the seat's view.

Replaying checks the whole log first (``cardz_core.engine.logs.replay``, with its refusals),
then keeps the player's view after every step, so stepping backwards and forwards is a lookup;
``resume`` plays the steps up to the one shown into a new game, which then goes on from there.
"""

from __future__ import annotations

import random
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

import attrs

from cardz_core.engine.documents import shown
from cardz_core.engine.logs import LogRecorder, replay
from cardz_core.engine.movetext import move_document
from cardz_core.engine.moves import Move
from cardz_core.engine.state import PLAYING, STATUS_NAMES, State
from cardz_core.limits import MAX_LOG_STEPS, MAX_MS_DEAL, MAX_SEED
from cardz_core.msdeal import ms_board_document
from cardz_core.planners import DEFAULT_PLANNER, make_planner, planner_allowed
from cardz_core.planners.base import Budget
from cardz_core.planners.uniform import RandomPlanner
from cardz_core.planners.usual import UsualPlanner
from cardz_core.problems import CardzError, is_whole
from cardz_core.view import Seat, View

if TYPE_CHECKING:
    from cardz_core.engine.game import Game
    from cardz_core.planners.base import Planner
    from cardz_core.serve.catalogue import Entry

SOLVE_HEADS = ("won", "lost", "unknown")  # the first word of `cardz solve`'s text output


class Refused(CardzError):
    """A request understood but not met here: an illegal move, nothing to undo, a finished game."""


@attrs.frozen
class Opening:
    """Where a game started: a seed, a Microsoft deal number, or a board document."""

    state: State
    seed: int | None = None
    ms: int | None = None

    def describe(self) -> dict[str, Any]:
        if self.seed is not None:
            return {"seed": self.seed}
        return {"ms": self.ms} if self.ms is not None else {"board": True}

    def recorder(self, game: Game) -> LogRecorder:
        if self.seed is not None:
            return LogRecorder(game, seed=self.seed)
        return LogRecorder(game, board=self.state)


class Playing:
    """A deal being played: the seat, its log and the moves that redo would play again."""

    def __init__(self, game: Game, opening: Opening) -> None:
        self.game = game
        self.opening = opening
        self.seat = Seat(game, opening.state)
        self.log = opening.recorder(game)
        self.played: list[Move] = []  # the moves an undo can take back, the last one last
        self.redo: list[Move] = []

    def play(self, move: Move, *, keep_redo: bool = False) -> None:
        """Apply ``move`` (an IllegalMove says why it is refused) and log it. A new move forgets
        what could be redone; redo itself keeps the rest."""
        self.log.check_room()
        before = self.seat.state
        self.seat.play(move)
        self.log.record(before, move, self.seat.state)
        self.played.append(move)
        if not keep_redo:
            self.redo.clear()

    def undo(self) -> None:
        if not self.played:
            raise Refused("nothing to undo")
        self.log.check_room()  # before the seat: a refused undo changes nothing
        self.seat.undo()
        self.log.record_undo()
        self.redo.append(self.played.pop())

    def redo_move(self) -> None:
        if not self.redo:
            raise Refused("nothing to redo")
        self.play(self.redo[-1], keep_redo=True)
        self.redo.pop()

    def document(self) -> dict[str, Any]:
        return self.log.document(self.seat.state)


class Replaying:
    """A checked log and the player's view after each of its steps (frame 0: the opening)."""

    def __init__(self, game: Game, log: dict[str, Any]) -> None:
        boards = replay(game, log)  # refuses a log that does not fit, naming the step
        self.log = log
        self.steps: list[str] = []
        self.frames: list[View | State] = []
        seat = Seat(game, boards[0]) if boards[0].pools is None else None
        for i, step in enumerate([None, *log["steps"]]):
            if step is not None:
                self.steps.append("undo" if step == {"undo": True}
                                  else game.move_text(game.parse_move(step["move"])))
            if seat is None:  # a log from a view: show its boards as they are
                self.frames.append(boards[i])
                continue
            if step == {"undo": True}:
                seat.undo()
            elif step is not None:
                seat.play(game.parse_move(step["move"]))
            self.frames.append(seat.view)
        self.at = 0


def solution_log(game: Game, opening: Opening, text: str) -> dict[str, Any]:
    """`cardz solve` output as a log from ``opening``: its plain text (a head line, then one move
    per line) or its ``--json`` document (whose ``log`` is used as it is)."""
    from cardz_core.cli.reading import parse_document

    stripped = text.strip()
    if stripped.startswith("{"):
        doc = parse_document(stripped, "solution")
        if isinstance(doc, dict) and doc.get("format") == "cardz-log/1":
            return doc
        if not isinstance(doc, dict) or not isinstance(doc.get("log"), dict):
            raise CardzError("a solution is `cardz solve` output: its text, or its --json "
                             "document holding a 'log' (the deal was not won)")
        return dict(doc["log"])
    lines = [line.strip() for line in stripped.splitlines() if line.strip()]
    if lines and lines[0].split(" ", 1)[0].rstrip(";") in SOLVE_HEADS:
        lines = lines[1:]
    if len(lines) > MAX_LOG_STEPS:
        raise CardzError(f"a solution holds at most {MAX_LOG_STEPS} moves (limits.MAX_LOG_STEPS)")
    recorder = opening.recorder(game)
    state = opening.state
    for n, line in enumerate(lines, 1):
        try:
            move = game.parse_move(line)
            after = game.apply(state, move)
        except CardzError as exc:
            reason = "; ".join(p.message for p in exc.problems)
            raise CardzError(f"solution move {n} ({line!r}): {reason}") from None
        recorder.record(state, move, after)
        state = after
    return recorder.document(state)


def whole_number(value: Any, what: str, low: int, high: int) -> int:
    if not is_whole(value, low, high):
        raise CardzError(f"{what} must be a whole number from {low} to {high}, not {shown(value)}",
                         "/" + what)
    return int(value)


class Session:
    """One tab's game: ``entry`` (what the catalogue calls it), the compiled game, a game being
    played and, while a log is replayed, the replay. ``lock`` is the game's: every use of the
    game holds it, since tabs playing the same game share its compiled ``Game``."""

    def __init__(self, ident: str, entry: Entry, game: Game, opening: Opening,
                 lock: threading.Lock | None = None) -> None:
        self.id = ident
        self.entry = entry
        self.game = game
        self.lock = lock or threading.Lock()
        self.used = time.monotonic()
        self.playing = Playing(game, opening)
        self.replaying: Replaying | None = None
        self.rng = random.Random(opening.seed or 0)  # the planners' random choices

    # -- starting ------------------------------------------------------------------------------
    @staticmethod
    def opening(game: Game, request: dict[str, Any]) -> Opening:
        """The opening a new-game request asks for: ``seed`` (default 1, as `cardz play`; with
        ``winnable: true``, the first deal from that seed the solver wins), ``ms`` (a Microsoft
        FreeCell deal) or ``board`` (a board document)."""
        given = [k for k in ("seed", "ms", "board") if k in request]
        winnable = request.get("winnable", False)
        if not isinstance(winnable, bool) or (winnable and ("ms" in request or "board" in request)):
            raise CardzError("'winnable' is true or false, and goes with a seed", "/winnable")
        if len(given) > 1:
            raise CardzError(f"give one of seed, ms and board, not {' and '.join(given)}")
        if "board" in request:
            state = game.load_board(request["board"])
            if state.pools is not None:
                raise CardzError("the board is a player's view; a game is played from a true "
                                 "board, every card known", "/board")
            return Opening(state)
        if "ms" in request:
            ms = whole_number(request["ms"], "ms", 1, MAX_MS_DEAL)
            try:
                return Opening(game.load_board(ms_board_document(game, ms)), ms=ms)
            except CardzError as exc:
                raise CardzError(f"ms {ms}: {exc.problems[0].message}", "/ms") from None
        seed = whole_number(request.get("seed", 1), "seed", 0, MAX_SEED)
        if winnable:
            # the first deal from this seed's order the solver wins (`cardz deal --winnable`)
            from cardz_core.winnable import winnable_deal

            won = winnable_deal(game, seed)
            return Opening(won.state, seed=won.seed)
        return Opening(game.deal(seed), seed=seed)

    def new_game(self, opening: Opening) -> None:
        self.playing = Playing(self.game, opening)
        self.replaying = None
        self.rng = random.Random(opening.seed or 0)

    def renew(self, game: Game, lock: threading.Lock, start: Callable[[], None]) -> None:
        """``start`` (a deal or a log played on) made on ``game``, the game file as it is now
        (the catalogue compiles it again when a designer edited it; ``lock`` is its lock, held
        by the caller), which the session then plays. Refused, the session stays as it was, on
        the game it had."""
        kept = self.game, self.lock
        self.game, self.lock = game, lock
        try:
            start()
        except CardzError:
            self.game, self.lock = kept
            raise

    def restart(self) -> None:
        self.new_game(self.playing.opening)

    def load_log(self, log: Any) -> None:
        """A saved log, replayed and then played on from its last step; a log that cannot be
        played on leaves the session as it was."""
        before = self.replaying
        try:
            self.start_replay(log)
            assert self.replaying is not None  # start_replay sets it
            self.goto(len(self.replaying.frames) - 1)
            self.resume()
        except CardzError:
            self.replaying = before
            raise

    # -- playing -------------------------------------------------------------------------------
    def _playing(self) -> Playing:
        if self.replaying is not None:
            raise Refused("a log is being replayed: resume or leave the replay first")
        return self.playing

    def still_playing(self) -> Playing:
        """The game being played, refused when the rules have ended it."""
        playing = self._playing()
        if playing.seat.state.status != PLAYING:
            raise Refused(f"the game is {STATUS_NAMES[playing.seat.state.status]}: no more "
                          "moves (undo, restart or deal again)")
        return playing

    def move(self, value: Any) -> None:
        """Play a move given in text form or as a move document."""
        self._playing()
        move = self.game.parse_move(value)
        playing = self.still_playing()
        try:
            playing.play(move)
        except CardzError as exc:
            reason = "; ".join(p.message for p in exc.problems)
            raise Refused(f"{self.game.move_text(move)} is not legal: {reason}") from None

    def undo(self) -> None:
        self._playing().undo()

    def redo(self) -> None:
        self._playing().redo_move()

    def legal(self) -> list[Move]:
        seat = self._playing().seat
        if seat.state.status != PLAYING:
            return []
        return self.game.legal_moves(seat.view)

    def click(self, depot: Any, index: Any) -> Move:
        """The move a click on the card at ``index`` of ``depot`` (or on an empty depot, index
        -1) makes: of that card's legal moves, the one ``usual``'s scores rank first (no look
        ahead: a click does not wait on the solver), else the first (a tap, for a depot
        tapped). Played and returned."""
        names = self.game.depot_index
        src = names.get(depot) if isinstance(depot, str) else None
        if src is None:
            raise CardzError(f"{shown(depot)} is not a depot of {self.game.spec.name!r}", "/depot")
        pile = len(self._playing().seat.state.piles[src])
        at = whole_number(index, "index", -1, max(pile - 1, -1))
        mine = [m for m in self.legal() if m.src == src and (m.dst < 0 or m.index == at)]
        if not mine:
            where = f"card {at} of {depot}" if at >= 0 else depot
            raise Refused(f"no legal move of {where}")
        choice = mine[0]
        if planner_allowed(self.game) and len(mine) > 1:
            scores = UsualPlanner(self.game, solve=0)
            view = self._playing().seat.view
            choice = next((m for _, _, m in scores.ranked(self.game, view, self.rng) if m in mine),
                          choice)
        self.move(move_document(self.game, choice))
        return choice

    def planner(self, name: Any, options: dict[str, Any]) -> Planner:
        if not isinstance(name, str):
            raise CardzError(f"planner is a planner's name, not {shown(name)}", "/planner")
        budget = {k: options[k] for k in ("nodes", "seconds") if options.get(k) is not None}
        Budget(**budget)  # checked for every planner, as the command line checks it
        return make_planner(self.game, name, **budget)

    def hint(self, name: Any, options: dict[str, Any]) -> Move | None:
        """The move planner ``name`` would make on the player's view (not played)."""
        seat = self._playing().seat
        planner = self.planner(name, options)  # its name and budget checked on any game
        if seat.state.status != PLAYING:
            return None
        return planner.choose(self.game, seat.view, self.rng)

    def planners(self) -> list[str]:
        """The planners this game allows, the default first."""
        names = sorted(self.game.registry.planners)
        if not planner_allowed(self.game):
            names = [n for n in names if n == RandomPlanner.name]
        return sorted(names, key=lambda n: n != DEFAULT_PLANNER)

    # -- replaying -----------------------------------------------------------------------------
    def start_replay(self, log: Any) -> None:
        self.replaying = Replaying(self.game, log)

    def replay_solution(self, text: Any) -> None:
        if not isinstance(text, str):
            raise CardzError("solution is the text `cardz solve` printed (or its --json)",
                             "/solution")
        self.start_replay(solution_log(self.game, self.playing.opening, text))

    def goto(self, at: Any) -> None:
        if self.replaying is None:
            raise Refused("no log is being replayed")
        self.replaying.at = whole_number(at, "at", 0, len(self.replaying.frames) - 1)

    def resume(self) -> None:
        """Leave the replay and play on from the step shown, the steps before it kept as the
        game's log (so undo goes back through them)."""
        if self.replaying is None:
            raise Refused("no log is being replayed")
        log = self.replaying.log
        if "seed" in log:
            opening = Opening(self.game.deal(log["seed"]), seed=log["seed"])
        else:
            opening = Opening(self.game.load_board(log["board"]))
            if opening.state.pools is not None:
                raise CardzError("this log starts from a player's view; it can be replayed, "
                                 "not played on")
            if opening.state == self.playing.opening.state:  # the game's own opening, as it
                opening = self.playing.opening               # was named (a Microsoft deal)
        playing = Playing(self.game, opening)
        for step in log["steps"][:self.replaying.at]:
            if step == {"undo": True}:
                playing.undo()
            else:
                playing.play(self.game.parse_move(step["move"]))
        playing.redo.clear()
        self.playing = playing
        self.replaying = None
        self.rng = random.Random(opening.seed or 0)

    def leave_replay(self) -> None:
        self.replaying = None

    # -- what is shown -------------------------------------------------------------------------
    def shown(self) -> View | State:
        """The board the player sees: the view of the game played, or the replay's frame."""
        if self.replaying is not None:
            return self.replaying.frames[self.replaying.at]
        return self.playing.seat.view
