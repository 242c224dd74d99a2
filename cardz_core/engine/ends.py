"""The ends of a deal and what it keeps: the win/loss judgement, scores, undo, switching the
rules off, card aids."""

from __future__ import annotations

from typing import Any

from cardz_core.engine.movegen import MoveGen
from cardz_core.engine.state import LOST, PLAYING, WON, State, Status


class Ends(MoveGen):
    """Statuses, scores and the moves that are not card moves (undo, rules on/off)."""

    def _judge(self, state: State) -> Status:
        if self.win is not None and self.win(state):
            return WON
        if self.loss is not None and self.loss(state):
            return LOST
        return PLAYING

    def status(self, state: State) -> Status:
        """PLAYING, WON or LOST, as judged after the move that led to ``state``."""
        return state.status

    def score_value(self, state: State) -> int | None:
        """The scoring value on this board (what the player sees), None without ``scoring``."""
        if self.score_fn is None:
            return None
        return int(self.score_fn(self.env(state)))

    def score(self, state: State) -> int | None:
        """The score this deal keeps: None without ``scoring`` or ``winCondition``, once the
        rules have been off or automatic play was used (``auto_moved``), or (``keep: Won``)
        for a deal that ended lost; while playing, the current value."""
        c = self.compiled
        if self.score_fn is None or c.win is None or state.rules_off or state.auto_moved:
            return None
        if state.status == LOST and c.scoring is not None and c.scoring.keep == "Won":
            return None
        return self.score_value(state)

    def undo(self, before: State, after: State) -> State:
        """``before`` again, with ``moves`` kept from ``after`` and ``undos`` + 1."""
        out = before.copy()
        out.moves = after.moves
        out.undos = after.undos + 1
        out.auto_moved = after.auto_moved
        return out

    def set_rules(self, state: State, on: bool) -> State:
        """Switch the rules on or off. Off: every depot takes and releases any cards, no
        automatic moves or triggers, no win/loss; the deal keeps no score after that."""
        out = state.copy()
        out.rules_off = not on
        if not on:
            out.auto_moved = True  # the deal's score is void from now on
        out.status = PLAYING if not on else self._judge(out)
        return out

    def aid(self, name: str, card_id: int) -> Any:
        """What card aid ``name`` prints on a card (``pairSum``: a rank, or None)."""
        fn = self.aids.get(name)
        return None if fn is None else fn(card_id)
