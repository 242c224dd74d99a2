"""Klondike-shaped games: a fixed-size native model searched without the general engine.

In Klondike a position is columns that build by one relation and turn their top card up,
foundations that each take one chain of cards in order and give none back, and a stock dealt a
few cards at a time to a waste and turned over as often as the player likes. ``KlondikeShape``
checks a rule set for that shape, reading each relation from the game's own accept rules (the
argument is in docs/solver.md, "Klondike-shaped games"); ``search_klondike`` hands a position
to the native model (``src/solver/klondike.rs``) and turns its won steps into engine moves.
The model runs only for games on the native engine: the Python engine's games keep the general
search, the reference the model is checked against.
"""

from __future__ import annotations

import time
from typing import Any

from cardz_core.engine.accept import EMPTY
from cardz_core.engine.moves import Move
from cardz_core.native import extension
from cardz_core.solver.analysis import Analysis
from cardz_core.solver.search import RESULT_WON, SearchResult

MAX_CARDS = 64  # src/solver/klondike.rs: a card set is one 64-bit mask
MAX_COLUMNS = 10  # src/solver/klondike.rs: the most columns a position may have

NOTE = ("Klondike-shaped game: a fixed-size model whose taps are folded into the play they "
        "lead to, columns keyed as interchangeable, positions with cards that can never leave "
        "their places proved lost, tries that keep the positions proved lost; at one card a "
        "tap a talon card put on a column only when a column's card can follow it, at more "
        "the same position at one a tap searched beside it, its losses losses here")


def _plain_rule(a: Any) -> bool:
    """Whether accept table ``a`` judges a card by its fixed fields alone: no wild cards, no
    expression, no face-down cards, no limit on where cards come from or how many."""
    return not (a.rejects_all or a.empty_only or a.min_count > 1 or a.accept_from is not None
                or a.seed_from_deal or a.when is not None or a.wild_rank is not None
                or a.wild_joker or a.wild_declares != "none" or a.allow_face_down)


class KlondikeShape:
    """Whether a rule set is Klondike-shaped, and the tables the native model reads.

    ``reason`` is None when it is; otherwise it says what stops it (and ``solve`` uses the
    general search)."""

    def __init__(self, an: Analysis) -> None:
        self.native: Any = None  # the native model, made on first use (``native_model``)
        self.reason = self._why_not(an)
        if self.reason is None:
            self.reason = self._tables(an)

    def _why_not(self, an: Analysis) -> str | None:
        c = an.compiled
        names = an.names
        if not an.plain or not an.known or c.triggers or any(c.actions):
            return "rule expressions, triggers, actions or plugin conditions"
        if c.redeal or c.redeal_when is not None or not c.depot_only or c.staged:
            return "redeals, cards dropped off the depots, or staged moves"
        if an.key_recycles or an.key_redeals or an.key_moves or an.key_came_from:
            return "a rule reads a counter"
        if not an.stalemate_loss:
            return "a loss condition other than noLegalMoves"
        stocks = [i for i in range(an.n) if c.draws[i] is not None]
        if len(stocks) != 1:
            return "not exactly one stock"
        self.stock = stock = stocks[0]
        draw = c.draws[stock]
        assert draw is not None
        self.waste = waste = draw.to
        if not draw.recycle or draw.max_recycles is not None or draw.when is not None or waste == stock:
            return f"{names[stock]} does not deal to another depot and turn over without limit"
        self.draw = draw.count
        if not (c.accepts[stock].rejects_all and c.ejects[stock].gate == "Locked"):
            return f"{names[stock]} takes or gives cards by hand"
        w_eject = c.ejects[waste]
        if not (c.accepts[waste].rejects_all and w_eject.gate == "TopOnly" and w_eject.unit is None
                and c.draws[waste] is None and c.land_face[waste] != 0):
            return f"{names[waste]} is not a waste that gives its top card"
        homes, columns = [], []
        for i in range(an.n):
            if c.auto_send[i] is not None or c.auto_refill[i] is not None or c.land_under[i] \
                    or c.auto_flip_uncovered[i] or c.ejects[i].covered_by or c.ejects[i].cover_any:
                return f"{names[i]} moves or turns cards by itself, or takes them underneath"
            if i in (stock, waste):
                continue
            a, e = c.accepts[i], c.ejects[i]
            if not _plain_rule(a) or c.land_face[i] == 0 or c.draws[i] is not None:
                return f"{names[i]} takes cards by a rule the model does not hold"
            if e.gate == "Locked" and a.single:
                homes.append(i)
            elif e.gate == "FaceUp" and e.unit is None and not a.single and c.auto_flip_top[i]:
                columns.append(i)
            else:
                return f"{names[i]} is neither a foundation nor a column"
        if not homes or not 0 < len(columns) <= MAX_COLUMNS:
            return f"no foundation, or not 1 to {MAX_COLUMNS} columns"
        if len({c.accepts[i] for i in homes}) != 1 or len({c.accepts[i] for i in columns}) != 1:
            return "the foundations, or the columns, take cards by different rules"
        if an.empties != frozenset(range(an.n)) - set(homes):
            return "the win is not every card on the foundations"
        if not an.unique_cards or len(an.cards) > MAX_CARDS:
            return f"cards repeat, or more than {MAX_CARDS}"
        self.homes, self.columns = tuple(homes), tuple(columns)
        return None

    def _tables(self, an: Analysis) -> str | None:
        """The chains the foundations take and the columns' relation, from the engine's own
        accept rules; a reason when the foundations do not take chains."""
        cards = an.cards
        n = len(cards)
        home = an.game.accepts[self.homes[0]]
        seeds = [x for x in range(n) if home.fits(EMPTY, cards[x], 0)]
        after = [[x for x in range(n) if home.fits(("card", cards[b]), cards[x], 0)] for b in range(n)]
        if len(seeds) > len(self.homes):
            return "more cards start a foundation than there are foundations"
        self.suit, self.rank = [-1] * n, [0] * n
        for chain, first in enumerate(seeds):
            card, place = first, 1
            while True:
                if self.rank[card]:
                    return "a card follows two cards on the foundations"
                self.suit[card], self.rank[card] = chain, place
                if not after[card]:
                    break
                if len(after[card]) > 1:
                    return "the foundations take two cards on one"
                card, place = after[card][0], place + 1
        if 0 in self.rank:
            return "a card can never reach a foundation"
        self.chains = len(seeds)
        self.before = {after[b][0]: b for b in range(n) if after[b]}
        column = an.game.accepts[self.columns[0]]
        self.on = [[x for x in range(n) if column.fits(("card", cards[b]), cards[x], 0)] for b in range(n)]
        self.empty = [x for x in range(n) if column.fits(EMPTY, cards[x], 0)]
        return None

    def fits(self, state: Any) -> str | None:
        """Why this position is outside the model (the general search then takes it), or None."""
        piles = state.piles
        if state.rules_off or state.pools is not None:
            return "the rules are off, or cards are unknown"
        if any(c & 1 for c in piles[self.stock]) or not all(c & 1 for c in piles[self.waste]):
            return "a stock card face up, or a waste card face down"
        for i in self.homes:
            pile = piles[i]
            if pile and (self.rank[pile[0] >> 1] != 1 or not all(c & 1 for c in pile)
                         or any(self.before.get(b >> 1) != a >> 1 for a, b in zip(pile, pile[1:]))):
                return "a foundation is not a chain from its first card"
        for i in self.columns:
            down = [not c & 1 for c in piles[i]]
            if any(d and not below for below, d in zip(down, down[1:])) or (down and down[-1]):
                return "a column has a face-down card above a face-up one, or on top"
        return None


UNSEEN = 255  # src/solver/klondike/sampled.rs: a face-down card the player has not seen


def native_model(shape: KlondikeShape) -> Any:
    """The native model of ``shape``'s game, made on first use (games on the native engine only)."""
    if shape.native is None:
        ext = extension()
        assert ext is not None  # only games on the native engine come here
        shape.native = ext.KlondikeSearch(shape.suit, shape.rank, shape.on, shape.empty, shape.draw)
    return shape.native


def model_position(shape: KlondikeShape, state: Any) -> tuple[list[tuple[int, list[int]]], list[int], int,
                                                              list[int]]:
    """``state`` as the model takes it: the columns as (face-down count, cards bottom first),
    the talon (the waste bottom first, then the stock in the order it deals), the waste's size,
    the cards home in each chain. A card a view does not know is ``UNSEEN``."""
    piles = state.piles
    columns = [(sum(1 for c in piles[i] if not c & 1), [c >> 1 if c >= 0 else UNSEEN for c in piles[i]])
               for i in shape.columns]
    talon = [c >> 1 if c >= 0 else UNSEEN for c in piles[shape.waste]] + \
        [c >> 1 if c >= 0 else UNSEEN for c in reversed(piles[shape.stock])]
    home = [0] * shape.chains
    for i in shape.homes:
        if piles[i]:
            top = piles[i][-1] >> 1
            home[shape.suit[top]] = shape.rank[top]
    return columns, talon, len(piles[shape.waste]), home


def search_klondike(shape: KlondikeShape, game: Any, state: Any, *, max_states: int,
                    timeout: float) -> SearchResult[Any] | None:
    """Search ``state`` (which ``shape.fits``, on the native engine) for a win; ``line`` holds
    engine moves (not yet replayed: ``solve`` does that). None when the model refuses the
    position on a closer look (a board missing cards, a column whose face-up cards are not a
    run, one that could outgrow the model's columns): the general search takes it."""
    start = time.perf_counter()
    columns, talon, waste, home = model_position(shape, state)
    try:
        result, steps, states, stopped = native_model(shape).search(
            columns, talon, waste, home, max_states, timeout)
    except ValueError:
        return None
    line: list[Any] = []
    if result == RESULT_WON:
        for step in steps:
            taps_and_play = step_moves(shape, state, talon, step)
            for move in taps_and_play:
                state = game.apply(state, move)
            line += taps_and_play
    return SearchResult(result, line, states, time.perf_counter() - start, stopped)


def step_moves(shape: KlondikeShape, state: Any, talon: list[int],
               step: tuple[int, int, int]) -> list[Any]:
    """The engine moves of the model's ``step`` from ``state``: a talon card's taps, then the
    play, onto the foundation its chain is on (or an empty one). ``talon`` is the model's talon
    at ``state``; a talon card played is taken out of it. The taps are counted as the model
    follows the waste's size (a tap adds ``draw`` cards up to the talon's end, or turns the
    waste over when the stock is out), not played: nothing here is applied to ``state``."""
    src, at, to = step
    moves: list[Any] = []
    piles = state.piles
    tap = Move(shape.stock, -1, -1)
    if src < 0:
        size, end = len(piles[shape.waste]), len(talon)
        while size != at + 1:  # the waste shows place ``at`` when it holds ``at + 1`` cards
            if len(moves) > end:
                raise AssertionError(f"taps never bring the talon's place {at} to the waste's top")
            size = 0 if size == end else min(size + shape.draw, end)
            moves.append(tap)
        card = talon.pop(at)
        move = Move(shape.waste, at, -1)
    else:
        move = Move(shape.columns[src], at, -1)
        card = piles[move.src][at] >> 1
    if to >= 0:
        dst = shape.columns[to]
    else:
        below = shape.before.get(card)
        dst = next(i for i in shape.homes if (piles[i][-1] >> 1 if piles[i] else None) == below)
    return [*moves, move._replace(dst=dst)]
