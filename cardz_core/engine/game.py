"""The compiled game as the engine plays it: ``compile(spec, registry) -> Game``.

``cardz_core.compiled.compile`` turns the spec into a ``CompiledGame`` (plain data); ``Game``
builds its tables and closures from that once (``GameTables``: ``Accept``, ``Eject``, draw
plans, step executors from each ``StepKind.compile``, conditions from each
``ConditionKind.compile``); playing (``legal_moves``, ``apply``) then reads only tuples of small
ints and those closures: no plugin hooks, no attrs objects, no JSON. ``Game`` itself is a thin
facade over the modules by what they work on: ``tables`` (compile), ``taps``, ``movegen``
(legal moves), ``ends`` (status, scores, undo) and ``play`` (deal, apply and cascade). The
rules as played, with every choice the reference leaves open, are in docs/engine.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from cardz_core import compiled as _compiled
from cardz_core.compiled.records import ExprRef
from cardz_core.engine import documents, movetext
from cardz_core.engine.moves import Move
from cardz_core.engine.play import S, Play
from cardz_core.engine.state import State
from cardz_core.engine.work import Reveal
from cardz_core.expr.env import Env
from cardz_core.registry import Registry, default_registry
from cardz_core.spec.model import GameSpec

if TYPE_CHECKING:
    import random

    from cardz_core.view import Memory, Outcome, Outcomes, View
    from cardz_core.view import Reveal as ViewReveal


class Game(Play):
    """A compiled game: ``Game(compiled, registry, spec)``, built from its ``CompiledGame``
    (``game.compiled``) and the registry that holds the executors of its kinds; ``game.spec``
    is kept for showing the game. Not thread-safe (it remembers the last move list it
    produced, so that ``apply`` of a listed move need not judge it again, and the target
    tables of the last board it listed moves for); use one per thread or process."""

    # -- documents and text (cardz_core.engine.documents / movetext) ---------------------------
    def move_text(self, move: Move) -> str:
        """The move in the contract's text form (``cardz_core.engine.movetext``)."""
        return movetext.move_text(self, move)

    def parse_move(self, value: Any, board: State | None = None) -> Move:
        """The move a text or move document names (``cardz_core.engine.movetext``); given the
        ``board`` it is made on, a transfer may name its card (``AS>foundation-1``)."""
        if board is not None:
            return movetext.parse_move_on(self, board, value)
        return movetext.parse_move(self, value)

    def board_document(self, state: State) -> dict:
        """The ``cardz-board/1`` document of a position or view."""
        return documents.board_document(self, state)

    def load_board(self, doc: Any) -> State:
        """The position a ``cardz-board/1`` document holds."""
        return documents.load_board(self, doc)

    # -- the player's view (cardz_core.view) ----------------------------------------------------
    def view(self, state: State, memory: Memory | None = None) -> View:
        """The player's view of ``state`` (``cardz_core.view.view``; ``memory`` a ``Memory``)."""
        from cardz_core.view import view

        return view(self, state, memory)

    def _counted_apply(self, view: S, move: Move, reveal: Reveal) -> S:
        """A caller's card ids on a view (``apply(view, move, reveal=...)``), each checked to
        be a card still unseen in its pool, and the view after the move counting them as seen
        (``view.Reveal``'s callers keep the counts themselves)."""
        from cardz_core.view import canonical

        ask = _Counted(self, view, reveal)
        after = self.apply(view, move, ask)
        if ask.counted is None:
            return after
        return canonical(self, after, ask.counted.counts)  # type: ignore[arg-type,return-value]

    def outcomes(self, view: View, move: Move, limit: int | None = None) -> Outcomes:
        """What ``move`` may lead to on a view (``cardz_core.view.outcomes``)."""
        from cardz_core.view import outcomes

        return outcomes(self, view, move, limit)

    def sample_outcome(self, view: View, move: Move, rng: random.Random) -> Outcome:
        """One outcome of ``move`` on a view, drawn with ``rng`` by the deck model, with its
        probability (``cardz_core.view.sample_outcome``)."""
        from cardz_core.view import sample_outcome

        return sample_outcome(self, view, move, rng)

    # -- what planners read of the rules ---------------------------------------------------------
    @property
    def uses_expressions(self) -> bool:
        """Whether the game is written with expressions, triggers or actions."""
        return self.compiled.uses_expressions

    @property
    def planner_enabled(self) -> bool | None:
        """The game's ``planner`` switch: True, False, or None when it does not say."""
        return self.compiled.planner_enabled

    def planner_value(self) -> Callable[[State], float] | None:
        """The game's ``planner.value`` compiled to ``fn(state or view) -> float``, or None."""
        ref: ExprRef | None = self.compiled.planner_value
        if ref is None:
            return None
        fn, env = self.expr(ref), Env()

        def value(state: State) -> float:
            env.state = state
            return float(fn(env))

        return value


def compile(spec: GameSpec, registry: Registry | None = None) -> Game:  # noqa: A001
    """Compile a loaded game once; the ``Game`` then deals and plays it."""
    reg = registry or default_registry()
    return Game(_compiled.compile(spec, reg), reg, spec)


class _Counted:
    """A caller's ``reveal`` on a view, its answers counted by a ``view.Reveal`` made when the
    first card is asked for (most moves turn up none). ``forget`` is None: ``apply`` takes it
    as a callback that keeps its counts (not wrapping it again), and a shuffle forgets nothing,
    as with the caller's own callback."""

    forget = None

    def __init__(self, game: Game, view: State, reveal: Reveal) -> None:
        self.game, self.view, self.reveal = game, view, reveal
        self.counted: ViewReveal | None = None

    def __call__(self, pool: int) -> int:
        if self.counted is None:
            from cardz_core.view import card_reveal

            self.counted = card_reveal(self.game, self.view, self.reveal)  # type: ignore[arg-type]
        return self.counted(pool)
