"""What every planner shares: the interface, budgets, and measures of a view any game has.

A planner is made per game by a factory registered through the ``cardz_planners`` hook,
``factory(game, **options) -> Planner``, and asked ``choose(game, view, rng) -> Move | None`` once
per move (None: no legal move). Fair planners are given views only (``cardz_core.view``); a view
holds no face-down card's identity that the player has not seen, so nothing a planner does with
it can read one.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable, Protocol, TypeVar

import attrs

from cardz_core.engine.state import LOST, WON, State
from cardz_core.limits import PLANNER_MAX_NODES
from cardz_core.problems import CardzError

T = TypeVar("T")

WIN_VALUE = 1_000_000.0
LOSS_VALUE = -1_000_000.0


class Planner(Protocol):
    name: str

    def choose(self, game: Any, view: State, rng: random.Random) -> Any: ...


@attrs.frozen
class Budget:
    """How much thinking one move may take: positions expanded and/or seconds. Node budgets give
    the same choice on every machine; a time budget does not, so prefer nodes for experiments."""

    nodes: int | None = None
    seconds: float | None = None

    def __attrs_post_init__(self) -> None:
        if self.nodes is not None and not 1 <= self.nodes <= PLANNER_MAX_NODES:
            raise CardzError(f"a planner's node budget is 1 to {PLANNER_MAX_NODES}")
        if self.seconds is not None and not self.seconds > 0:
            raise CardzError("a planner's time budget is more than 0 seconds")


class Clock:
    """Counts a move's expanded positions against its budget."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.nodes = 0
        self.deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds

    def spent(self) -> bool:
        b = self.budget
        if b.nodes is not None and self.nodes >= b.nodes:
            return True
        return self.deadline is not None and time.perf_counter() >= self.deadline


class Roles:
    """Per depot, what its type is for (``DepotType.role``), and the facts evaluations use."""

    def __init__(self, game: Any) -> None:
        types = game.registry.depot_types
        self.role = tuple(getattr(types.get(d.type), "role", "") for d in game.spec.depots)
        self.home = tuple(r == "foundation" for r in self.role)
        # depots whose face-down cards are "to be revealed": not the stock/waste a player draws from
        self.hidden = tuple(r not in ("stock", "waste") and d.draw is None
                            for r, d in zip(self.role, game.spec.depots))
        self.tableau = tuple(r == "tableau" for r in self.role)
        self.cells = tuple(r == "cell" for r in self.role)
        # depots a card leaves to come into play: the stock's draw target, waste, reserves
        self.feeds = tuple(r in ("stock", "waste", "reserve") for r in self.role)
        # copies of a repeated tableau or cell depot in a game written in fixed fields are
        # interchangeable: moving a whole pile from one to an empty other changes nothing
        fixed = not game.spec.uses_expressions
        self.swap_group = tuple(d.group if fixed and r in ("tableau", "cell") else None
                                for r, d in zip(self.role, game.spec.depots))

    def pointless(self, state: State, move: Any) -> bool:
        """A whole pile moved to an empty interchangeable depot: the same board, relabelled."""
        g = self.swap_group[move.src] if move.index == 0 else None
        return g is not None and g == self.swap_group[move.dst] and not state.piles[move.dst]


_PER_GAME: dict[tuple[int, Callable[[Any], Any]], tuple[Any, Any]] = {}


class Unknown(Exception):
    """Raised by ``refuse_reveal``: the move would turn up a card the view does not know."""


def refuse_reveal(pool: int) -> int:
    """A ``reveal`` callback for moves played on a view that must not turn up unknown cards."""
    raise Unknown


def per_game(game: Any, make: Callable[[Any], T]) -> T:
    """``make(game)``, made once per compiled game (kept while the game lives in this process)."""
    key = (id(game), make)
    hit = _PER_GAME.get(key)
    if hit is None or hit[0] is not game:
        hit = _PER_GAME[key] = (game, make(game))
    return hit[1]


def roles(game: Any) -> Roles:
    return per_game(game, Roles)


def home_cards(r: Roles, v: State) -> int:
    return sum(len(p) for p, h in zip(v.piles, r.home) if h)


def hidden_cards(r: Roles, v: State) -> int:
    """Face-down cards still to be turned up in the play area."""
    return sum(1 for p, h in zip(v.piles, r.hidden) if h for c in p if not c & 1)


def empty_spaces(r: Roles, v: State) -> int:
    return sum(1 for p, t, c in zip(v.piles, r.tableau, r.cells) if (t or c) and not p)


def terminal_value(status: int) -> float | None:
    if status == WON:
        return WIN_VALUE
    if status == LOST:
        return LOSS_VALUE
    return None


def planner_allowed(spec: Any) -> bool:
    """Whether the game lets Cardz's own player play it: ``planner: true/false``, or by default
    only a game written without expressions, triggers or actions."""
    enabled = spec.planner.enabled
    if enabled is not None:
        return bool(enabled)
    return not spec.uses_expressions


def children(game: Any, view: State, move: Any, rng: random.Random, samples: int
             ) -> list[tuple[float, State]]:
    """The views ``move`` may lead to, weighted (weights sum to 1): the one view of a move that
    turns up nothing; every outcome of a move that turns up one card when no pool holds more than
    ``samples`` different cards; otherwise ``samples`` outcomes drawn by the counts, with equal
    weights, identical views merged."""
    from cardz_core.view import outcomes, sample_outcome

    first = sample_outcome(game, view, move, rng)
    if not first.revealed:
        return [(1.0, first.view)]
    if len(first.revealed) == 1 and _widest_pool(game, view) <= samples:
        return [(o.probability, o.view) for o in outcomes(game, view, move)]
    merged: dict[State, float] = {first.view: 1.0}
    for _ in range(samples - 1):
        v = sample_outcome(game, view, move, rng).view
        merged[v] = merged.get(v, 0.0) + 1.0
    return [(w / samples, v) for v, w in merged.items()]


def _widest_pool(game: Any, view: State) -> int:
    """The most different printed cards one pool of the view holds."""
    from cardz_core.view import deck_info, pool_counts

    rows = pool_counts(deck_info(game), view.pools or ())
    return max((sum(1 for n in row if n) for row in rows), default=0)
