"""What the OpenSpiel game and the Gymnasium environment share: stable action ids, moves played
on a view one revealed card at a time, the encodings of a view, and the returns.

Action ids. A tap of depot ``src`` is ``src``; a card move ``(src, index, dst, declare)`` is
``D + (((src * D + dst) * N + index) * 5 + declare + 1)`` for ``D`` depots and ``N`` cards (a
pile never holds more than ``N`` cards, so ``index < N``; ``declare`` is -1 or a suit 0..3). The
id depends only on the move and the game's size, never on the position or the order of
``legal_moves``, so it means the same move in every state of the game.

Chance, card by card. A move on a view may turn up unknown cards; the counts model draws each from
its pool's unseen counts (``cardz_deck``). Listing a move's whole outcomes at once does not scale
(drawing three from a stock of 24 has 12,144), so a move that turns up cards is played as a chain
of chance nodes, one per card, each with the pool's counts as exact probabilities: the product
along a chain is the probability ``Game.outcomes`` gives the sequence. The move is replayed with
the faces chosen so far and stopped where the engine asks for one more card, as the counts model
itself finds outcomes.

Encodings (numpy, float32), from the player's view only. ``memory=True`` (the information state)
encodes the view as played, in which cards seen and then turned face-down stay known;
``memory=False`` (the observation) encodes only what is face-up now, every face-down card unknown.
Segments: ``cards[N, D + 2]`` (per card id of the canonical view: one-hot depot, face-up, height
in its pile (position + 1) / N; all zero when the card is not known on the board), ``unknown[D,
N]`` (1 where a pile holds a card the player cannot name) and ``counters[3]`` (the share of the
move cap used, then the redeals and the recycles used, each count ``c`` as ``c / (c + 1)``).
Every value is in [0, 1].
"""

from __future__ import annotations

import math
import numbers
from typing import Any, NamedTuple

import numpy as np

from cardz_core.cards import Card, format_card
from cardz_core.engine import Game
from cardz_core.engine.documents import shown
from cardz_core.engine.moves import Move
from cardz_core.engine.state import Status
from cardz_core.limits import MAX_SEED
from cardz_core.problems import CardzError, is_whole
from cardz_core.rulesets import open_game
from cardz_core.view import Reveal, View, canonical, deck_info

SUITS_PLUS_NONE = 5  # declare is -1 (none) or a suit 0..3
REWARDS = ("win", "score")


_GAMES: dict[str, Game] = {}


def cardz_game(name: str) -> Game:
    """The game ``name`` names (``open_game``: a bundled name or a path), compiled once per
    process: the adapters make many environments and OpenSpiel games of one game."""
    game = _GAMES.get(name)
    if game is None:
        game = _GAMES[name] = open_game(name)
    return game


class Table:
    """A game's sizes and names, made once per game (``Game.derive(Table)``)."""

    def __init__(self, game: Game) -> None:
        start = game.view(game.deal(0))
        self.depots: tuple[str, ...] = tuple(game.board_document(start)["depots"])
        self.n_depots = len(start.piles)
        self.n_cards = len(game.identity)
        info = deck_info(game)
        # the printed cards in card-id order: a chance action is an index into this
        self.faces: tuple[Card, ...] = tuple(info.cards[ids[0]] for ids in info.ids_of_face)
        self.face_index = {card: f for f, card in enumerate(self.faces)}
        d, n = self.n_depots, self.n_cards
        # a reorder (a card dragged along its own looseOrder fan) has a new position 0 .. N-1
        # where other moves have a suit: its ids come after theirs, N * N for each such depot
        self.loose: tuple[int, ...] = tuple(sorted(game.loose))
        self.reorders = d + d * d * n * SUITS_PLUS_NONE
        self.num_actions = self.reorders + len(self.loose) * n * n
        self.shapes: dict[str, tuple[int, ...]] = {
            "cards": (n, d + 2), "unknown": (d, n), "counters": (3,)}
        self.size = sum(int(np.prod(s)) for s in self.shapes.values())

    def action(self, move: Move) -> int:
        """The stable id of ``move``."""
        d, n = self.n_depots, self.n_cards
        if move.dst < 0:
            return move.src
        if move.src == move.dst:
            return self.reorders + (self.loose.index(move.src) * n + move.index) * n + move.at
        return d + (((move.src * d + move.dst) * n + move.index) * SUITS_PLUS_NONE
                    + move.declare + 1)

    def move(self, action: int) -> Move:
        """The move an id stands for (``CardzError`` outside ``0 .. num_actions - 1``)."""
        d, n = self.n_depots, self.n_cards
        if not 0 <= action < self.num_actions:
            raise CardzError(f"action {action} is not a move id of this game "
                             f"(0 .. {self.num_actions - 1})")
        if action < d:
            return Move(action, -1, -1)
        if action >= self.reorders:
            rest, at = divmod(action - self.reorders, n)
            which, index = divmod(rest, n)
            return Move(self.loose[which], index, self.loose[which], at)
        rest, declare = divmod(action - d, SUITS_PLUS_NONE)
        rest, index = divmod(rest, n)
        src, dst = divmod(rest, d)
        return Move(src, index, dst, declare - 1)


def table(game: Game) -> Table:
    return game.derive(Table)


class Pending(NamedTuple):
    """A move stopped where the engine asks for one more unknown card: ``faces`` chosen so far
    (indices into ``Table.faces``) and the unseen counts per face of the pool it draws from."""

    move: Move
    faces: tuple[int, ...]
    row: tuple[int, ...]

    def outcomes(self) -> list[tuple[int, float]]:
        """The next card's faces with their exact probabilities (count / cards in the pool)."""
        total = sum(self.row)
        return [(f, n / total) for f, n in enumerate(self.row) if n]


class _More(BaseException):
    """The move wants one more card than chosen (BaseException: the engine's error handling
    must not swallow it)."""

    def __init__(self, pool: int) -> None:
        self.pool = pool


def play(game: Game, v: View, move: Move, faces: tuple[int, ...] = ()) -> View | Pending:
    """Play ``move`` on the view with the unknown cards it turns up prescribed by ``faces``; the
    canonical view it leads to, or ``Pending`` when it turns up more cards than prescribed."""
    info = deck_info(game)

    def choose(pool: int, row: list[int]) -> int:
        i = len(reveal.faces)
        if i == len(faces):
            raise _More(pool)
        return faces[i]

    reveal = Reveal(info, v.pools or (), choose)
    try:
        after = game.apply(v, move, reveal=reveal)
    except _More as more:
        counts = reveal.counts
        row = counts[more.pool] if more.pool < len(counts) else []
        if not any(row):
            raise CardzError("an unknown card's pool holds no unseen card") from None
        return Pending(move, faces, tuple(row))
    return canonical(game, after, reveal.counts if reveal.used else None)


def legal_actions(game: Game, v: View) -> list[int]:
    """The ids of the legal moves, ascending."""
    t = table(game)
    return sorted(t.action(m) for m in game.legal_moves(v))


def finished(game: Game, v: View) -> bool:
    """Whether the deal is over: won, lost, or no move left."""
    return v.status != Status.PLAYING or not game.legal_moves(v)


def whole(value: Any, what: str, low: int, high: int) -> int:
    """``value`` as a whole number from ``low`` to ``high`` (a numpy integer too, not a bool, a
    float or a text that ``int()`` would turn into one), else a ``CardzError`` naming ``what``."""
    if not is_whole(value, low, high):
        raise CardzError(f"{what} is a whole number from {low} to {high}, not {shown(value)}")
    return int(value)


def deal_seed(value: Any, what: str) -> int:
    """A deal's seed as the command line takes it, a whole number 0 to ``MAX_SEED``: another
    value would name a deal no ``cardz deal --seed`` gives, or the same deal as another seed."""
    return whole(value, f"{what} (a deal's seed)", 0, MAX_SEED)


def check_reward(game: Game, reward: str, worst: Any, best: Any) -> tuple[float, float]:
    """``score_worst`` and ``score_best`` as floats, once the reward is known to be one the game
    can give: a ``score`` reward needs a game that keeps a score and two finite, different
    ends (else every return would be 0, or not a number)."""
    if reward not in REWARDS:
        raise CardzError(f"reward is one of {', '.join(REWARDS)}, not {reward!r}")
    ends = []
    for name, value in (("score_worst", worst), ("score_best", best)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) \
                or not math.isfinite(value):
            raise CardzError(f"{name} is a finite number, not {value!r}")
        ends.append(float(value))
    if reward == "score" and game.spec.scoring is None:
        raise CardzError(f"reward 'score' needs a game that keeps a score; {game.spec.name!r} "
                         "keeps none (its deals would all return 0)")
    if reward == "score" and ends[0] == ends[1]:
        raise CardzError("reward 'score' needs score_worst and score_best to differ")
    return ends[0], ends[1]


def returns(game: Game, v: View, reward: str, worst: float, best: float) -> float:
    """1 for a won deal, else 0; with ``reward='score'`` the game's score (``Game.score``) mapped
    so that ``worst`` is 0 and ``best`` 1, clipped to [0, 1]; a deal that keeps no score is 0."""
    if reward == "win":
        return 1.0 if v.status == Status.WON else 0.0
    score = game.score(v)
    if score is None:
        return 0.0
    return min(1.0, max(0.0, (score - worst) / (best - worst)))


def _known(c: int, memory: bool) -> bool:
    """Whether the player can name the card with code ``c``."""
    return c >= 0 and (memory or bool(c & 1))


def text(game: Game, v: View, memory: bool) -> str:
    """The view as lines ``depot: cards`` (bottom first, ``~?`` a card the player cannot name),
    then the status; with ``memory`` also the count of unseen cards."""
    t = table(game)
    lines = []
    for name, pile in zip(t.depots, v.piles):
        cards = " ".join(format_card(game.identity[c >> 1], bool(c & 1)) if _known(c, memory)
                         else "~?" for c in pile)
        lines.append(f"{name}: {cards or '-'}")
    status = Status(v.status).name.lower()
    lines.append(f"status: {status}, moves: {v.moves}, redeals: {v.redeals}, "
                 f"recycles: {v.recycles_total}")
    if memory:
        lines.append(f"unseen: {sum(sum(pool) for pool in v.pools or ())}")
    return "\n".join(lines)


def encode(game: Game, v: View, out: np.ndarray, memory: bool, progress: float) -> None:
    """Fill the flat float32 array ``out`` (``Table.size``) with the view's encoding; ``progress``
    is the share of the move cap used."""
    t = table(game)
    d, n = t.n_depots, t.n_cards
    out.fill(0.0)
    cards = out[:n * (d + 2)].reshape(n, d + 2)
    unknown = out[n * (d + 2):n * (d + 2) + d * n].reshape(d, n)
    for depot, pile in enumerate(v.piles):
        for pos, c in enumerate(pile):
            if _known(c, memory):
                row = cards[c >> 1]
                row[depot] = 1.0
                row[d] = float(c & 1)
                row[d + 1] = (pos + 1) / n
            else:
                unknown[depot, pos] = 1.0
    # counts as c / (c + 1): in [0, 1) and still telling every count apart
    out[-3:] = (min(1.0, progress), v.redeals / (v.redeals + 1),
                v.recycles_total / (v.recycles_total + 1))
