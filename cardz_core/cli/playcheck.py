"""`cardz check --play [N]`: deal a game N times and warn about what a file check cannot see.

Four warnings, each saying what was tried:

- the solver wins none of the N deals (with how many it proved lost and how many it left
  undecided within its budget): the game may be unwinnable;
- an opening deal has no legal move at all;
- a step of the opening deal changes no card, or deals none to some of the depots it names,
  in every deal: the deck ran out before it (a deal that asks for more cards than the deck
  holds; a step that stops short after every depot has had a card is the usual way to deal
  the rest, as FreeCell does);
- every planner the game allows resigns at once (has no move on the opening view) on every
  deal: the game is not one the planners can play, or its rules leave nothing to do.

The seeds are 0 .. N-1 and the solver's budget is in positions, so the warnings are the same on
every machine (the seconds budget is a safety only).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from cardz_core.problems import WARNING, CardzError, Problem, join

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

PLAY_DEALS = 10  # deals `check --play` tries unless told how many
PLAY_MAX_DEALS = 1_000  # the most deals `check --play N` accepts
PLAY_STATES = 2_000  # positions the solver may record per deal
PLAY_SECONDS = 10.0  # a safety per deal; the positions budget decides first
# the cheap planners, expectimax on a small budget
PLANNERS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("usual", {}), ("value", {}), ("expectimax", {"nodes": 50}))


def _seeds(n: int) -> str:
    return "seed 0" if n == 1 else f"seeds 0-{n - 1}"


def _short_steps(game: Game, deals: int) -> list[tuple[str, str, str]]:
    """The opening deal's steps that change no card, or (a step dealing to a list of depots,
    with no ``when`` to skip some) that deal no card to some of them, in every deal: each as
    (pointer, what, why)."""
    changed = [game.deal_changes(seed) for seed in range(deals)]
    found = []
    for i, step in enumerate(game.compiled.deal):
        if all(not deal[i] for deal in changed):
            found.append((step.ptr, "this step changes no card",
                          "the cards it takes have run out by then, or it has nothing to do"))
            continue
        targets = step.args.get("to")
        if not isinstance(targets, tuple) or step.args.get("when") is not None:
            continue
        missed = [d for d in targets if all(d not in deal[i] for deal in changed)]
        if missed:
            names = ", ".join(repr(game.depot_names[d]) for d in missed)
            found.append((join(step.ptr, "to"), f"this step deals no card to {names}",
                          "the deck runs out before them"))
    return found


def play_problems(game: Game, deals: int, file: str) -> list[Problem]:
    """The warnings for ``deals`` deals of ``game`` (see the module docstring)."""
    from cardz_core.planners import make_planner
    from cardz_core.planners.solver import solve

    found: list[Problem] = []

    def warn(path: str, message: str) -> None:
        found.append(Problem(path, f"play: {message}", WARNING, file))

    for path, what, why in _short_steps(game, deals):
        warn(path, f"{what} in any of {deals} deals ({_seeds(deals)}): {why}")
    results: list[str] = []
    stuck: list[int] = []
    for seed in range(deals):
        state = game.deal(seed)
        if not game.legal_moves(state):
            stuck.append(seed)
            results.append("lost")
            continue
        results.append(solve(game, state, max_states=PLAY_STATES, timeout=PLAY_SECONDS,
                             klondike_model=False).result)
    if stuck:
        listed = _seeds(deals) if len(stuck) == deals else \
            "seed " + ", ".join(map(str, stuck[:10])) + (" ..." if len(stuck) > 10 else "")
        warn("/dealRules", f"the opening deal has no legal move in {len(stuck)} of {deals} "
                           f"deals ({listed})")
    if "won" not in results:
        lost = results.count("lost")
        warn("/winCondition", f"the solver won none of {deals} deals ({_seeds(deals)}: "
                              f"{lost} proved lost, {deals - lost} undecided within "
                              f"{PLAY_STATES:,} positions each); the game may be unwinnable")
    planners = []
    for name, options in PLANNERS:
        try:
            planners.append(make_planner(game, name, **options))
        except CardzError:  # a planner the game keeps out is simply not tried
            continue
    if planners:
        resigned = all(p.choose(game, game.view(game.deal(seed)), random.Random(seed)) is None
                       for seed in range(deals) for p in planners)
        if resigned:
            names = ", ".join(p.name for p in planners)
            warn("/planner", f"every planner the game allows ({names}) resigns at the first "
                             f"move of all {deals} deals ({_seeds(deals)})")
    return found
