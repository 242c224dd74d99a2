"""The perfect-information solver: is this position winnable when every card is known?

It reads the true deal, so it is no fair planner; it measures how winnable a design is, and
answers for sampled deals in the hidden-card planners. ``solve`` returns ``won`` with a winning
line, ``lost`` only when every reachable position has been searched, or ``unknown`` when a budget
ran out. How the search prunes, and why each pruning keeps the answer exact: docs/solver.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardz_core.limits import SOLVE_DEFAULT_SECONDS, SOLVE_DEFAULT_STATES, SOLVE_MAX_STATES
from cardz_core.problems import CardzError
from cardz_core.solver.analysis import Analysis
from cardz_core.solver.problem import GameProblem
from cardz_core.solver.search import search


@dataclass
class SolveResult:
    result: str  # won | lost | unknown
    line: list[Any] = field(default_factory=list)  # engine Moves from the start position
    states: int = 0  # positions recorded (distinct up to symmetry)
    seconds: float = 0.0
    stopped_by: str | None = None  # "states" or "seconds" when unknown
    notes: list[str] = field(default_factory=list)  # which prunings were on, and why not


def check_budget(max_states: int, timeout: float) -> None:
    if isinstance(max_states, bool) or not 1 <= max_states <= SOLVE_MAX_STATES:
        raise CardzError(f"the solver's state budget is 1 to {SOLVE_MAX_STATES}, not {max_states}")
    if not timeout > 0:
        raise CardzError(f"the solver's time budget is more than 0 seconds, not {timeout}")


def solve(game: Any, state: Any, *, max_states: int = SOLVE_DEFAULT_STATES,
          timeout: float = SOLVE_DEFAULT_SECONDS, analysis: Analysis | None = None) -> SolveResult:
    """Search ``state`` of ``game`` (a compiled ``Game``) for a win. Pass ``analysis`` to reuse
    the per-game tables across many deals."""
    check_budget(max_states, timeout)
    problem = GameProblem(game, analysis)
    found = search(problem, state, max_states=max_states, timeout=timeout)
    return SolveResult(found.result, found.line, found.states, found.seconds, found.stopped_by,
                       list(problem.an.notes))


def replay(game: Any, state: Any, line: list[Any]) -> Any:
    """The position after playing ``line`` from ``state`` (raises IllegalMove if one is not legal)."""
    for move in line:
        state = game.apply(state, move)
    return state
