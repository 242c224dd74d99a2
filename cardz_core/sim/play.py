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
# Why a game ended (its ``end``): won; lost by the game's own conditions; stuck (no legal move was
# left); resigned (the planner gave up while moves were left); unfinished (the move cap came
# first, or a person stopped). Its coarse ``result`` counts stuck and resigned as lost.
STUCK_TEXT, RESIGNED_TEXT = "stuck", "resigned"
ENDS = (WON_TEXT, LOST_TEXT, STUCK_TEXT, RESIGNED_TEXT, UNFINISHED_TEXT)
RESULT_OF_END = {WON_TEXT: WON_TEXT, LOST_TEXT: LOST_TEXT, STUCK_TEXT: LOST_TEXT,
                 RESIGNED_TEXT: LOST_TEXT, UNFINISHED_TEXT: UNFINISHED_TEXT}
OnMove = Callable[[State, Move, State], None]


def end_of(game: Game, state: State, stopped: bool) -> str:
    """Why a game stands where it ended: ``won`` or ``lost`` by the rules; otherwise ``stuck``
    when the true position has no legal move, ``resigned`` when the player ``stopped`` with
    moves left, else ``unfinished`` (the move cap, or a person who stopped to go on later)."""
    status = game.status(state)
    if status == WON:
        return WON_TEXT
    if status == LOST:
        return LOST_TEXT
    if not game.legal_moves(state):
        return STUCK_TEXT
    return RESIGNED_TEXT if stopped else UNFINISHED_TEXT


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
              rng: random.Random, opening: State, max_moves: int,
              foundations: tuple[bool, ...], on_move: OnMove | None = None) -> dict[str, Any]:
    """Play from the dealt position ``opening`` and return the row's measured part: result, why
    the game ended (``end``), moves, cards home at the end, score, seconds, the card ids that
    never moved or never reached a foundation, and, for a lost game, the cards left outside the
    foundations by depot (``{depot index: [card ids]}``). ``on_move(before, move, after)`` is
    told of every move played (true states).

    The planner only ever sees the seat's view. A planner answering ``None`` ends the game: it is
    ``stuck`` when the true position has no legal move, else it ``resigned``; a game that reaches
    the move cap is ``unfinished`` (``stuck`` if no move is left there either)."""
    started = time.perf_counter()
    seat = seat_type(game, opening)
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
    stopped = False
    while status != WON and status != LOST and moves < max_moves:
        move = planner.choose(game, seat.view, rng)
        if move is None:
            stopped = True
            break
        seat.play(move)
        after = seat.state
        if on_move is not None:
            on_move(state, move, after)
        for d, came in _arrivals(state.piles, after.piles):
            for card in came:
                moved[card] = 1
                if foundations[d]:
                    home[card] = 1
        state = after
        moves += 1
        status = game.status(state)
    end = end_of(game, state, stopped)
    result = RESULT_OF_END[end]
    left: dict[int, list[int]] = {}
    if result == LOST_TEXT:
        left = {d: sorted(c >> 1 for c in pile) for d, pile in enumerate(state.piles)
                if pile and not foundations[d]}
    return {
        "result": result,
        "end": end,
        "moves": moves,
        "home": sum(len(pile) for d, pile in enumerate(state.piles) if foundations[d]),
        "score": game.score(state),
        "seconds": round(time.perf_counter() - started, 6),
        "never_moved": [i for i in range(n_cards) if not moved[i]],
        "never_foundation": [i for i in range(n_cards) if not home[i]],
        "left": left,
    }
