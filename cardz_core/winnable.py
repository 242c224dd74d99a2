"""Winnable deals: a deal the solver has won, chosen deterministically from a seed.

``winnable_deal(game, seed)`` tries deals in a fixed order (the seed itself, then seeds derived
from it: ``derived_seed(seed, 1)``, ``derived_seed(seed, 2)`` ...), solves each within a budget
of positions, and returns the first the solver wins, with the winning line and its log. A budget
of positions, unlike one of seconds, gives the same answer on every machine; the seconds budget
is only a safety, and a deal it cut short is marked so (``timed_out``), since a faster machine
might then have won it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from cardz_core.engine.state import State
from cardz_core.limits import MAX_SEED, SOLVE_DEFAULT_SECONDS
from cardz_core.problems import CardzError

WINNABLE_STATES = 5_000  # positions the solver may record per deal tried
WINNABLE_TRIES = 20  # deals tried before giving up
WINNABLE_MAX_TRIES = 10_000  # the most deals one request may try


def derived_seed(seed: int, i: int) -> int:
    """The ``i``-th deal tried for ``seed``: the seed itself for 0, else a 64-bit number drawn
    from both by SHA-256 (stable across versions and platforms)."""
    if i == 0:
        return seed
    digest = hashlib.sha256(f"cardz-winnable:{seed}:{i}".encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


@dataclass
class WinnableDeal:
    """A deal the solver won: its seed, opening board, winning line and ``cardz-log/1``; and
    every deal tried on the way, as ``(seed, result)`` with ``won``, ``lost`` or ``unknown``."""

    seed: int
    state: State
    line: list[Any]
    log: dict[str, Any]
    tried: list[tuple[int, str]] = field(default_factory=list)
    timed_out: bool = False  # a deal tried before it was cut short by seconds, not positions


def winnable_deal(game: Any, seed: int = 0, *, tries: int = WINNABLE_TRIES,
                  max_states: int = WINNABLE_STATES,
                  timeout: float = SOLVE_DEFAULT_SECONDS) -> WinnableDeal:
    """The first deal in ``seed``'s order that the solver wins within ``max_states`` positions
    (and ``timeout`` seconds) per deal, trying at most ``tries`` deals. Raises CardzError saying
    what was tried when none is won."""
    from cardz_core.engine.logs import LogRecorder, winning_log
    from cardz_core.planners.solver import solve

    if not 0 <= seed <= MAX_SEED:
        raise CardzError(f"seed must be from 0 to {MAX_SEED}, not {seed}")
    if not 1 <= tries <= WINNABLE_MAX_TRIES:
        raise CardzError(f"tries must be from 1 to {WINNABLE_MAX_TRIES}, not {tries}")
    tried: list[tuple[int, str]] = []
    timed_out = False
    for i in range(tries):
        deal_seed = derived_seed(seed, i)
        state = game.deal(deal_seed)
        result = solve(game, state, max_states=max_states, timeout=timeout)
        tried.append((deal_seed, result.result))
        timed_out = timed_out or result.stopped_by == "seconds"
        if result.result == "won":
            return WinnableDeal(deal_seed, state, list(result.line),
                                winning_log(game, state, result.line,
                                            LogRecorder(game, seed=deal_seed)), tried, timed_out)
    lost = sum(r == "lost" for _, r in tried)
    raise CardzError(f"the solver won none of {tries} deal(s) tried from seed {seed} "
                     f"({lost} proved lost, {tries - lost} undecided within {max_states:,} "
                     "positions each): allow more tries or positions, or the game may be "
                     "(nearly) unwinnable")
