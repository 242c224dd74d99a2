"""Winnable deals: a deal the solver has won, chosen deterministically from a seed.

``winnable_deal(game, seed)`` tries deals in a fixed order (the seed itself, then seeds derived
from it: ``derived_seed(seed, 1)``, ``derived_seed(seed, 2)`` ...), solves each within a budget
of positions, and returns the first the solver wins, with the winning line and its log. A budget
of positions, unlike one of seconds, gives the same answer on every machine; the seconds budget
is only a safety, and a deal it cut short is marked so (``timed_out``), since a faster machine
might then have won it.

With a difficulty level (``difficulty="hard"``, levels and measure in ``cardz_core.ratings``),
the deal comes from the game's shipped table of rated deals when it has one (``rated_deal``: at
once, the seed picking among the rated deals of that level), with the winning line its row keeps,
replayed to a won board (a row from before rows kept lines has its line found again by the solver,
within the positions and with the orders of the table). A game without a table (or whose file
changed since) is rated on the spot: deals are tried in the seed's order until
``SPOT_RATED`` are won, those are split into the four levels as a table's are, and the first of
the level asked for is the answer; that is much slower.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from cardz_core.engine.state import State
from cardz_core.limits import MAX_SEED, SOLVE_DEFAULT_SECONDS
from cardz_core.problems import CardzError
from cardz_core.ratings import (PLAYOUTS, Table, assign_levels, check_level, game_table,
                                line_of, line_wins, orders_of, pick, rate_deal, beam_made)

WINNABLE_STATES = 5_000  # positions the solver may record per deal tried
WINNABLE_TRIES = 20  # deals tried before giving up
WINNABLE_MAX_TRIES = 10_000  # the most deals one request may try
SPOT_RATED = 8  # won deals rated on the spot, for a game without a table, to find a level


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
    level: str | None = None  # with a difficulty: the deal's level
    measure: float | None = None  # and its measure (cardz_core.ratings)
    rated_from: str | None = None  # "table" (the shipped rated deals) or "spot" (rated here)
    note: str | None = None  # why a table was not used (made for another version of the file)


def winnable_deal(game: Any, seed: int = 0, *, tries: int = WINNABLE_TRIES,
                  max_states: int = WINNABLE_STATES,
                  timeout: float = SOLVE_DEFAULT_SECONDS,
                  difficulty: str | None = None) -> WinnableDeal:
    """The first deal in ``seed``'s order that the solver wins within ``max_states`` positions
    (and ``timeout`` seconds) per deal, trying at most ``tries`` deals; with ``difficulty``, a
    won deal of that level (module docstring). Raises CardzError saying what was tried when none
    is found."""
    from cardz_core.engine.logs import LogRecorder, winning_log
    from cardz_core.planners.solver import solve

    if not 0 <= seed <= MAX_SEED:
        raise CardzError(f"seed must be from 0 to {MAX_SEED}, not {seed}")
    if not 1 <= tries <= WINNABLE_MAX_TRIES:
        raise CardzError(f"tries must be from 1 to {WINNABLE_MAX_TRIES}, not {tries}")
    if difficulty is not None:
        check_level(difficulty)
        found_table = game_table(game)
        if found_table.table is not None:
            return _from_table(game, found_table.table, difficulty, seed, timeout)
        spot = _rated_here(game, seed, difficulty, tries, max_states, timeout)
        spot.note = found_table.note
        return spot
    tried: list[tuple[int, str]] = []
    timed_out = False
    for i in range(tries):
        deal_seed = derived_seed(seed, i)
        state = game.deal(deal_seed)
        result = solve(game, state, max_states=max_states, timeout=timeout,
                       klondike_model=False)
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


def rated_deal(table: Table, level: str, seed: int) -> tuple[int, dict[str, Any]]:
    """The rated deal of ``level`` that ``seed`` picks from ``table`` (``ratings.pick``), at
    once: its seed and table row."""
    if not 0 <= seed <= MAX_SEED:
        raise CardzError(f"seed must be from 0 to {MAX_SEED}, not {seed}")
    row = pick(table, level, seed)
    return row["seed"], row


def _from_table(game: Any, table: Table, level: str, seed: int, timeout: float) -> WinnableDeal:
    from cardz_core.engine.logs import LogRecorder, winning_log
    from cardz_core.planners.solver import solve

    deal_seed, row = rated_deal(table, level, seed)
    state = game.deal(deal_seed)
    made = table.head["made"]
    line, timed_out = line_of(row), False
    if line is None:  # an older row: the table's budget, orders and beam find the same first win
        result = solve(game, state, max_states=made["max_states"],
                       timeout=max(timeout, float(made["timeout"])), orders=orders_of(made),
                       beam=beam_made(made), klondike_model=False)
        line = list(result.line) if result.result == "won" else None
        timed_out = result.stopped_by == "seconds"
    if line is None or not line_wins(game, state, line):
        raise CardzError(f"seed {deal_seed} is rated {level} in {table.path.name}, but its winning "
                         "line was not found again or does not win: the table needs rebuilding "
                         "(benchmarks/build_ratings.py)")
    return WinnableDeal(deal_seed, state, line,
                        winning_log(game, state, line, LogRecorder(game, seed=deal_seed)),
                        [(deal_seed, "won")], timed_out, level, row["measure"], "table")


def _rated_here(game: Any, seed: int, level: str, tries: int, max_states: int,
                timeout: float) -> WinnableDeal:
    from cardz_core.engine.logs import LogRecorder, winning_log

    rated: list[tuple[dict[str, Any], list[Any]]] = []  # (row, line) of each won deal
    tried: list[tuple[int, str]] = []
    timed_out = False
    for i in range(tries):
        found = rate_deal(game, derived_seed(seed, i), max_states=max_states, timeout=timeout,
                          playouts=PLAYOUTS)
        tried.append((found.row["seed"], found.row["result"]))
        timed_out = timed_out or "stoppedBy" in found.row
        if found.row["result"] == "won":
            rated.append((found.row, found.line))
            if len(rated) == SPOT_RATED:
                break
    assign_levels([row for row, _ in rated])
    for row, line in rated:
        if row["level"] == level:
            state = game.deal(row["seed"])
            return WinnableDeal(row["seed"], state, line,
                                winning_log(game, state, line, LogRecorder(game, seed=row["seed"])),
                                tried, timed_out, level,
                                row["measure"], "spot")
    raise CardzError(f"no {level} deal found from seed {seed}: {game.spec.name} has no table of "
                     f"rated deals, and of {len(tried)} deal(s) tried {len(rated)} were won and "
                     f"rated here, none {level} (allow more tries, or build a table: "
                     "benchmarks/build_ratings.py)")
