"""Logs (``cardz-log/1``): a game played, step by step, and its exact replay.

A log names the game file by the sha256 of its text, starts from a seed (or from a board
document), and lists each step: a move in text form with the cards it revealed, or an undo.
``replay`` deals again, applies every step and checks each one against the log, so a log that
does not fit its game is refused with the step number and the reason. The format is described
in ``docs/contract.md``.
"""

from __future__ import annotations

import hashlib
from typing import Any

import attrs

from cardz_core.cards import card_id_of, is_face_up, parse_card
from cardz_core.engine.documents import board_document, card_table, load_board, shown
from cardz_core.engine.movetext import move_text, parse_move
from cardz_core.engine.state import STATUS_NAMES, WON, State
from cardz_core.limits import MAX_LOG_STEPS, MAX_SEED
from cardz_core.problems import CardzError, is_whole, pointer

LOG_FORMAT = "cardz-log/1"
LOG_FIELDS = frozenset({"format", "game", "hash", "seed", "board", "steps", "status", "score"})
LOG_STEP_FIELDS = frozenset({"move", "revealed"})  # of a step that is not an undo
HASH_PREFIX = "sha256:"


def game_hash(spec: Any) -> str:
    """``sha256:`` and the hex digest of the game file's text, as written in logs."""
    return HASH_PREFIX + hashlib.sha256(spec.text.encode("utf-8")).hexdigest()


def revealed_cards(game: Any, before: State, after: State) -> list[str]:
    """The cards face-up in ``after`` that were face-down or unknown in ``before``, in board order
    (depots in game order, each pile bottom first), in card notation."""
    up_before = {card_id_of(c) for pile in before.piles for c in pile if c >= 0 and c & 1}
    table = card_table(game)
    return [str(table.cards[card_id_of(c)]) for pile in after.piles for c in pile
            if c >= 0 and is_face_up(c) and card_id_of(c) not in up_before]


class LogRecorder:
    """Builds a ``cardz-log/1`` document while a game is played.

    Start it with the seed the game was dealt from, or with the opening ``board`` state when
    the game did not start from a deal (exactly one of the two).
    """

    def __init__(self, game: Any, seed: int | None = None, board: State | None = None) -> None:
        if (seed is None) == (board is None):
            raise ValueError("a log starts from a seed or from a board, exactly one of them")
        self.game = game
        self.seed = seed
        self.board = board
        self.steps: list[dict[str, Any]] = []

    def check_room(self) -> None:
        """Refuse a step past ``MAX_LOG_STEPS``: asked before a move or an undo is made, so
        that a step the log cannot hold changes nothing."""
        if len(self.steps) >= MAX_LOG_STEPS:
            raise CardzError(f"a log holds at most {MAX_LOG_STEPS:,} steps (limits.MAX_LOG_STEPS): "
                             "save it and start again")

    def record(self, before: State, move: Any, after: State) -> None:
        """One move applied: ``after`` is ``game.apply(before, move)``."""
        self.check_room()
        self.steps.append({"move": move_text(self.game, move),
                           "revealed": revealed_cards(self.game, before, after)})

    def record_undo(self) -> None:
        """The last move (with its whole cascade) taken back with ``game.undo``."""
        self.check_room()
        self.steps.append({"undo": True})

    def document(self, final: State) -> dict[str, Any]:
        """The log, ending at ``final`` (the state after the last recorded step)."""
        doc: dict[str, Any] = {"format": LOG_FORMAT, "game": self.game.spec.name,
                               "hash": game_hash(self.game.spec)}
        if self.seed is not None:
            doc["seed"] = self.seed
        else:
            assert self.board is not None  # a recorder is started from a seed or a board
            doc["board"] = board_document(self.game, self.board)
        doc["steps"] = list(self.steps)
        doc["status"] = STATUS_NAMES[final.status]
        if self.game.spec.scoring is not None:
            doc["score"] = self.game.score(final)
        return doc


def replay(game: Any, log: Any) -> list[State]:
    """Every board of the logged game, the opening one first, one more per step.

    Raises CardzError when the log does not fit: another game file, a move that is not legal
    there, revealed cards or a final status that differ, naming the step (1-based) and why.
    """
    if not isinstance(log, dict):
        raise CardzError("a log is a JSON object", "")
    if log.get("format") != LOG_FORMAT:
        raise CardzError(f"format must be {LOG_FORMAT!r}, not {shown(log.get('format'))}", "/format")
    for key in log:
        if key not in LOG_FIELDS:
            raise CardzError(f"unknown field {key!r} in a log", pointer(key))
    expected = game_hash(game.spec)
    if "hash" not in log:
        raise CardzError(f"a log says the hash of its game file (this file's is {expected!r})",
                         "/hash")
    if log["hash"] != expected:
        raise CardzError(f"the log was written for another game file: its hash is "
                         f"{shown(log['hash'])}, this file's is {expected!r}", "/hash")
    if "game" in log and (not isinstance(log["game"], str) or log["game"] != game.spec.name):
        raise CardzError(f"the log is for {shown(log['game'])}, not {game.spec.name!r}", "/game")
    if ("seed" in log) == ("board" in log):
        raise CardzError("a log starts from 'seed' or from 'board', exactly one of them", "")
    if "seed" in log:
        seed = log["seed"]
        if not is_whole(seed, 0, MAX_SEED):
            raise CardzError(f"seed is a whole number 0 to {MAX_SEED}, not {shown(seed)}",
                             "/seed")
        state = game.deal(seed)
    else:
        try:
            state = load_board(game, log["board"])
        except CardzError as exc:  # the board's problems, at their place in the log
            raise CardzError([attrs.evolve(p, path="/board" + p.path) for p in exc.problems]) \
                from None
    steps = log.get("steps")
    if not isinstance(steps, list):
        raise CardzError("steps is a list of moves", "/steps")
    if len(steps) > MAX_LOG_STEPS:
        raise CardzError(f"a log holds at most {MAX_LOG_STEPS} steps, this one {len(steps)}",
                         "/steps")
    boards = [state]
    live = [state]  # the boards an undo can go back through
    for i, step in enumerate(steps):
        path = pointer("steps", i)
        where = f"step {i + 1}"
        if isinstance(step, dict) and set(step) == {"undo"} and step["undo"] is True:  # not 1
            if len(live) < 2:
                raise CardzError(f"{where}: undo with no move to take back", path)
            after = live.pop()
            state = game.undo(live.pop(), after)
            live.append(state)
            boards.append(state)
            continue
        if not isinstance(step, dict) or set(step) - LOG_STEP_FIELDS or "move" not in step:
            raise CardzError(f"{where}: a step is {{\"move\": ..., \"revealed\": [...]}} "
                             "or {\"undo\": true}", path)
        try:
            move = parse_move(game, step["move"], path + "/move")
        except CardzError as exc:
            raise CardzError(f"{where}: {exc.problems[0].message}", path + "/move") from None
        try:
            after = game.apply(state, move)
        except CardzError as exc:
            reason = "; ".join(p.message for p in exc.problems)
            raise CardzError(f"{where}: {move_text(game, move)} is not legal here: {reason}",
                             path + "/move") from None
        revealed = revealed_cards(game, state, after)
        logged = step.get("revealed", [])
        if _normalise(logged) != revealed:
            said = ", ".join(map(str, logged)) or "nothing" if isinstance(logged, list) \
                else repr(logged)
            raise CardzError(f"{where}: {move_text(game, move)} revealed "
                             f"{', '.join(revealed) or 'nothing'}, the log says {said}",
                             path + "/revealed")
        state = after
        live.append(state)
        boards.append(state)
    status = log.get("status")
    if "status" in log and status != STATUS_NAMES[state.status]:  # null is no status name
        raise CardzError(f"after step {len(steps)} the game is {STATUS_NAMES[state.status]}, "
                         f"the log says {shown(status)}", "/status")
    if "score" in log:
        score, logged_score = game.score(state), log["score"]
        if isinstance(logged_score, bool) or logged_score != score:
            raise CardzError(f"after step {len(steps)} the score is {shown(score)}, the log says "
                             f"{shown(logged_score)}", "/score")
    return boards



def _normalise(cards: Any) -> list[str] | None:
    """Logged revealed cards in the notation ``revealed_cards`` writes (``10h`` -> ``10H``)."""
    if not isinstance(cards, list):
        return None
    out = []
    for text in cards:
        try:
            card, _ = parse_card(text)
        except ValueError:
            return None
        if card is None:
            return None
        out.append(str(card))
    return out


def winning_log(game: Any, state: State, line: list[Any], recorder: LogRecorder) -> dict[str, Any]:
    """A solver's winning ``line`` from ``state`` recorded by ``recorder``
    as a cardz-log/1, checked to end on a won board."""
    for move in line:
        after = game.apply(state, move)
        recorder.record(state, move, after)
        state = after
    if game.status(state) != WON:
        raise CardzError("internal error: the solver's line does not win; please report it")
    doc: dict[str, Any] = recorder.document(state)
    return doc
