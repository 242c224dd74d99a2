"""Taps: what tapping a depot would do now (a draw, a recycle, a redeal from this stock, or an
action), judged without changing anything."""

from __future__ import annotations

from cardz_core.compiled.game import CompiledGame
from cardz_core.engine.state import State
from cardz_core.engine.tables import Executor, GameTables
from cardz_core.engine.work import Work
from cardz_core.registry import Registry
from cardz_core.spec.model import GameSpec

TAP_DRAW, TAP_RECYCLE, TAP_REDEAL, TAP_ACTION = range(4)
TapPlan = tuple[int, int]  # (kind, action number)
_PLANS_KEPT = 4  # positions whose tap plans are remembered (a move, its trace, the listing)


class Revealed(Exception):
    """Raised by a trial run's reveal callback: the run would turn an unknown card up."""


def trial_reveal(pool: int) -> int:
    """The reveal callback of a trial run: it stops the run (turning a card up is a change)."""
    raise Revealed


class Taps(GameTables):
    """The tap plans of a game, remembered for the last few positions asked about: the loss
    check after a move (``noLegalMoves`` asks the stocks first) and the next listing ask about
    the same position, and a plan's trial run can cost a whole redeal."""

    def __init__(self, compiled: CompiledGame, registry: Registry, spec: GameSpec) -> None:
        super().__init__(compiled, registry, spec)
        # id(state) -> (state, its plans so far): the state is held, so its id is not reused
        self._plans: dict[int, tuple[State, dict[int, TapPlan | None]]] = {}

    def _tap_plan(self, state: State, d: int) -> TapPlan | None:
        """What tapping depot ``d`` would do now: (kind, action number), or None for nothing."""
        held = self._plans.get(id(state))
        if held is None or held[0] is not state:
            if len(self._plans) >= _PLANS_KEPT:
                self._plans.clear()
            held = self._plans[id(state)] = (state, {})
        plans = held[1]
        if d in plans:
            return plans[d]
        plan = plans[d] = self._find_plan(state, d)
        return plan

    def _draw_plan(self, state: State, d: int) -> TapPlan | None:
        """The draw (or recycle) tapping depot ``d`` would make now, if any: the first part
        of a tap plan, which needs no trial run."""
        dr = self.draws[d]
        piles = state.piles
        if dr is not None and (dr.when is None or dr.when(self.env(state, depot=d))):
            if piles[d]:
                if dr.count > 0:
                    return (TAP_DRAW, 0)
            elif dr.recycle and piles[dr.to] and d != dr.to and (
                    dr.max_recycles is None
                    or (state.recycles[d] if state.recycles else 0) < dr.max_recycles):
                return (TAP_RECYCLE, 0)
        return None

    def _find_plan(self, state: State, d: int) -> TapPlan | None:
        """``_tap_plan``, worked out. Order: a draw (or recycle), then a redeal from this
        stock, then the first action whose ``when`` holds."""
        drawn = self._draw_plan(state, d)
        if drawn is not None:
            return drawn
        if d in self.redeal_stocks and self._redeal_ready(state, d) and \
                self._trial(state, self.redeal_steps, d):
            return (TAP_REDEAL, 0)
        for k, (when, steps, _ptr) in enumerate(self.actions[d]):
            if when is None or when(self.env(state, depot=d)):
                return (TAP_ACTION, k) if self._trial(state, steps, d) else None
        return None

    def _redeal_ready(self, state: State, d: int) -> bool:
        if self.compiled.max_redeals is not None and state.redeals >= self.compiled.max_redeals:
            return False
        if d in self.redeal_gathers and state.piles[d]:
            return False
        return self.redeal_when is None or self.redeal_when(state)

    def _trial(self, state: State, steps: tuple[Executor, ...], d: int) -> bool:
        """Whether running ``steps`` would change the board (a tap is listed only then)."""
        w = Work(state, trial_reveal)
        w.self_depot = d
        try:
            for step in steps:
                step(w)
        except Revealed:
            return True
        return tuple(w.piles) != state.piles
