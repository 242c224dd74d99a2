"""Playing one deal: deal, ask the planner for a move on the player's view, apply it to the true
state, until the game is won or lost or the move cap is reached. Also records, per card, the facts
the dead-card analysis needs.

The true state and the player's view are kept by a seat (``cardz_core.view.Seat``): the view
remembers cards the player has seen and that were turned face-down again without a shuffle (a
recycled stock), as a player at the table would. Planners only ever see the seat's view."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol, Sequence

from cardz_core.engine.moves import Move
from cardz_core.engine.state import LOST, WON, State
from cardz_core.view import View

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

WON_TEXT, LOST_TEXT, UNFINISHED_TEXT = "won", "lost", "unfinished"
RESULTS = (WON_TEXT, LOST_TEXT, UNFINISHED_TEXT)


class Planner(Protocol):
    def choose(self, game: Game, view: View, rng: random.Random) -> Move | None: ...


class Seat(Protocol):
    """What ``cardz_core.view.Seat`` offers: ``Seat(game, state)``, the true ``state``, the
    player's ``view``, and ``play(move)``."""

    @property
    def state(self) -> State: ...

    @property
    def view(self) -> View: ...

    def play(self, move: Move) -> Any: ...


def foundation_flags(game: Game) -> tuple[bool, ...]:
    """Per depot: whether its type's role is ``foundation`` (where a card counts as played home)."""
    return tuple(role == "foundation" for role in game.roles)


def _arrivals(before: Sequence[tuple[int, ...]], after: Sequence[tuple[int, ...]]
              ) -> Iterator[tuple[int, set[int]]]:
    """(depot, card ids that are in the depot after but were not before) for each changed depot.
    Cards shifting inside a pile, or turning over, do not count as arriving."""
    for d, (a, b) in enumerate(zip(before, after)):
        if a is b or a == b:
            continue
        came = {c >> 1 for c in b}.difference(c >> 1 for c in a)
        if came:
            yield d, came


def play_deal(game: Game, seat_type: Callable[[Game, State], Seat], planner: Planner,
              rng: random.Random, seed: int, max_moves: int,
              foundations: tuple[bool, ...]) -> dict[str, Any]:
    """Play the deal ``seed`` and return the row's measured part: result, moves, score, seconds,
    and the card ids that never moved, never reached a foundation, or were left when it was lost.

    The planner only ever sees the seat's view. A planner answering ``None`` (it has no move
    or gives up) ends the game as lost unless the game already says otherwise."""
    started = time.perf_counter()
    seat = seat_type(game, game.deal(seed))
    state = seat.state
    n_cards = game.n_cards
    moved = bytearray(n_cards)
    home = bytearray(n_cards)
    for d, is_home in enumerate(foundations):
        if is_home:
            for c in state.piles[d]:
                home[c >> 1] = 1
    moves = 0
    status = game.status(state)
    gave_up = False
    while status != WON and status != LOST and moves < max_moves:
        move = planner.choose(game, seat.view, rng)
        if move is None:
            gave_up = True
            break
        seat.play(move)
        after = seat.state
        for d, came in _arrivals(state.piles, after.piles):
            for card in came:
                moved[card] = 1
                if foundations[d]:
                    home[card] = 1
        state = after
        moves += 1
        status = game.status(state)
    if status == WON:
        result = WON_TEXT
    elif status == LOST or gave_up:
        result = LOST_TEXT
    else:
        result = UNFINISHED_TEXT
    left: list[int] = []
    if result == LOST_TEXT:
        left = sorted(c >> 1 for d, pile in enumerate(state.piles) if not foundations[d]
                      for c in pile)
    return {
        "result": result,
        "moves": moves,
        "score": game.score(state),
        "seconds": round(time.perf_counter() - started, 6),
        "never_moved": [i for i in range(n_cards) if not moved[i]],
        "never_foundation": [i for i in range(n_cards) if not home[i]],
        "left": left,
    }
