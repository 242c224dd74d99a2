"""One-way games (Golf, Black Hole...): a compact, exact model searched with restarts.

In a one-way game every move sends one card to a single foundation that never gives a card
back: the top card of a pile that takes nothing by hand, or the next card of a stock that is
gone through once. A position is then fully described by each pile's height, the stock's height
and the foundation's top card, and no move can be undone, so the positions form a directed
acyclic graph. ``OneWay`` checks a rule set for that shape (the argument is in docs/solver.md,
"One-way games"); ``search_oneway`` searches a deal of it.

Because the graph is acyclic, a position whose search finished without a win is lost for good.
Depth-first search in these games has a long tail that depends on the order moves are tried, so
the search restarts with a growing budget and another order, keeping every position already
proved lost; a restart repeats only the unfinished path. Any try that runs out of positions
proves ``lost``.
"""

from __future__ import annotations

import random
import time
from typing import Any, Callable

from cardz_core.engine.moves import Move
from cardz_core.expr.api import RULE_CONTEXTS
from cardz_core.expr.env import Env
from cardz_core.native import extension
from cardz_core.solver.analysis import Analysis, printed_fits
from cardz_core.solver.search import RESULT_LOST, RESULT_UNKNOWN, RESULT_WON, SearchResult

FIRST_TRY_STATES = 2_000  # positions the first try may expand; each later try gets more
TRY_GROWTH = 1.5  # budget factor from one try to the next
# The sibling orders the tries cycle through: (weight of the pile's height, weight of the moves
# open after the move). Tried on Black Hole seeds 0-15 and Golf seeds 0-11; speed only.
ORDERS = ((3, 1), (0, 1), (1, 0))
ORDER_SEED = 20261130  # tie-breaks after the first try are drawn from this fixed seed
PAIR_READS = frozenset({"top", "card"})  # a foundation `when` reading only these is a table


class OneWay:
    """Whether a rule set is one-way, and the per-game tables its search reads.

    ``reason`` is None when it is; otherwise it says what stops it (and ``solve`` uses the
    general search)."""

    def __init__(self, an: Analysis) -> None:
        self.native: Any = None  # the native search (``search_oneway``'s), made on first use
        self.reason = self._why_not(an)
        if self.reason is not None:
            an.notes.append(f"not a one-way game: {self.reason}")
            return
        self.note = ("one-way game: positions are pile heights, stock height and the "
                     "foundation's top card; restarts keep the positions proved lost")
        an.notes.append(self.note)
        rule = an.game.accepts[self.home]
        cards = an.cards
        env = Env(depot=self.home)

        def fits(below: int, above: int) -> bool:
            if not printed_fits(rule, cards[below], cards[above]):
                return False
            if rule.when is None:
                return True
            # the expression reads only the two cards (``_why_not``): face-up codes
            env.top, env.card = below << 1 | 1, above << 1 | 1
            env.pile = (env.card,)
            return bool(rule.when(env))

        fit = [[fits(b, a) for a in range(len(cards))] for b in range(len(cards))]
        # Cards that take the same cards onto them are one foundation top to the search.
        rows: dict[tuple[bool, ...], int] = {}
        self.top_class = tuple(rows.setdefault(tuple(row), c) for c, row in enumerate(fit))
        self.takes = tuple(frozenset(a for a, ok in enumerate(row) if ok) for row in fit)

    def _why_not(self, an: Analysis) -> str | None:
        c = an.compiled
        names = an.names
        if not an.known or c.triggers or any(c.actions):
            return "triggers, actions or plugin conditions"
        if c.redeal or c.redeal_when is not None:
            return "the game has redeals"
        if not an.stalemate_loss:
            return "a loss condition other than noLegalMoves"
        if an.empties is None:
            return "the win is not allCardsIn or depotsEmpty"
        open_ = [i for i, a in enumerate(c.accepts) if not a.rejects_all]
        if len(open_) != 1:
            return "not exactly one depot takes cards by hand"
        self.home = home = open_[0]
        a = c.accepts[home]
        if c.ejects[home].gate != "Locked" or c.draws[home] is not None or c.land_face[home] == 0:
            return f"{names[home]} gives cards back, draws or takes them face down"
        if (a.empty_only or a.min_count > 1 or a.wild_rank is not None
                or a.wild_joker or a.wild_declares != "none" or a.allow_face_down):
            return f"{names[home]} takes groups, wild or face-down cards"
        # one expression at most: the foundation's `when`, read off the two cards alone, which
        # the model's table of which card may lie on which then holds
        if any(ref is not a.when for ref in c.expressions() if ref.context in RULE_CONTEXTS):
            return "a rule expression other than the foundation's `when`"
        if a.when is not None and not a.when.program.reads <= PAIR_READS:
            return (f"{names[home]}'s `when` reads more than the card and the top it lands on: "
                    f"{', '.join(sorted(a.when.program.reads - PAIR_READS))}")
        self.stock = -1
        for i in range(an.n):
            eject, draw = c.ejects[i], c.draws[i]
            if c.auto_send[i] is not None or c.auto_refill[i] is not None or c.land_under[i]:
                return f"{names[i]} moves cards automatically or takes them underneath"
            if eject.covered_by or eject.cover_any:
                return f"{names[i]} is uncovered by other depots"
            if i == home:
                continue
            if draw is not None:
                if self.stock >= 0:
                    return "more than one stock"
                if (draw.to != home or draw.count != 1
                        or (draw.recycle and draw.max_recycles != 0)):
                    return f"{names[i]} does not draw one card at a time to {names[home]}, once through"
                self.stock = i
            elif eject.gate not in ("TopOnly", "Locked") or (
                    eject.unit is not None and eject.unit != "Single"):
                return f"{names[i]} gives more than its top card"
        self.piles = tuple(i for i in range(an.n) if i != home and i != self.stock)
        takers = a.accept_from
        self.loose = tuple(i for i in self.piles if c.ejects[i].gate != "Locked"
                           and (takers is None or i in takers))
        self.to_empty = an.empties  # the depots that must be empty to win
        return None

    def fits(self, state: Any) -> str | None:
        """Why this position is outside the model (the general search then takes it), or None."""
        piles = state.piles
        if state.rules_off:
            return "the rules are off"
        if not piles[self.home] or not piles[self.home][-1] & 1:
            return "the foundation is empty or its top is face down"
        if any(not c & 1 for i in self.piles for c in piles[i]):
            return "a pile holds a face-down card"
        return None


def search_oneway(ow: OneWay, state: Any, *, max_states: int, timeout: float,
                  clock: Callable[[], float] = time.perf_counter,
                  native: bool = False) -> SearchResult[Any]:
    """Search ``state`` (which ``ow.fits``) for a win; ``line`` holds engine moves.

    ``states`` counts positions expanded over all tries together and never exceeds
    ``max_states``; the clock is read before each expansion. ``native``: the same search in
    Rust (``src/solver/oneway.rs``; the same answer, positions and line, on the Rust clock),
    where the extension is built and the model fits it."""
    start = clock()
    piles = state.piles
    loose = ow.loose
    cards = tuple(tuple(c >> 1 for c in piles[i]) for i in loose)  # bottom first
    stock = tuple(c >> 1 for c in piles[ow.stock]) if ow.stock >= 0 else ()
    # won when these are empty: the loose piles among them, and the stock; a locked pile that
    # must be empty and is not, or the foundation itself, can never be emptied
    must = tuple(j for j, i in enumerate(loose) if i in ow.to_empty)
    stuck = any(piles[i] for i in ow.to_empty if i not in loose and i != ow.stock)
    stock_must = ow.stock in ow.to_empty
    root_top = ow.top_class[piles[ow.home][-1] >> 1]
    heights0 = tuple(len(p) for p in cards)
    ties = _ties(len(cards), max_states)
    found = None
    if native and (ext := extension()) is not None:
        if ow.native is None:
            ow.native = ext.OneWaySearch(list(ow.top_class), [sorted(t) for t in ow.takes])
        found = ow.native.search(cards, stock, must, stuck, stock_must, root_top, FIRST_TRY_STATES,
                                 TRY_GROWTH, ORDERS, ties, max_states, timeout)
    if found is None:
        found = _search(ow, cards, stock, must, stuck, stock_must, root_top, ties, max_states,
                        start + timeout, clock)
    result, steps, spent, stopped = found
    return SearchResult(result, _line(ow, heights0, steps) if result == RESULT_WON else [], spent,
                        clock() - start, stopped)


def _ties(n: int, max_states: int) -> list[list[float]]:
    """The tie-breaks of every try after the first that a search within ``max_states`` can
    make, drawn from ``ORDER_SEED`` in the order the tries use them."""
    rng = random.Random(ORDER_SEED)
    ties: list[list[float]] = []
    spent, budget = 1, FIRST_TRY_STATES
    while True:
        spent += min(budget, max_states - spent)
        if spent >= max_states:
            return ties
        ties.append([rng.random() for _ in range(n)])
        budget = max(budget + 1, int(budget * TRY_GROWTH))


Found = tuple[str, list[int], int, str | None]


def _search(ow: OneWay, cards: tuple[tuple[int, ...], ...], stock: tuple[int, ...],
            must: tuple[int, ...], stuck: bool, stock_must: bool, root_top: int,
            ties: list[list[float]], max_states: int, deadline: float,
            clock: Callable[[], float]) -> Found:
    """The tries: (result, the won line's steps, positions expanded, what stopped them)."""
    n = len(cards)
    takes, top_class = ow.takes, ow.top_class

    def won(h: tuple[int, ...], s: int) -> bool:
        return not stuck and not (stock_must and s) and not any(h[j] for j in must)

    # A position is (heights, stock height, class of the foundation's top), recorded as one int:
    # each height in its own bit field, then the stock height and the top class.
    width = max([len(p) for p in cards] + [1]).bit_length()
    unit = [1 << (width * j) for j in range(n)]
    n_stock, n_classes = len(stock) + 1, len(top_class)

    def code(hp: int, s: int, top: int) -> int:
        return (hp * n_stock + s) * n_classes + top

    heights0 = tuple(len(p) for p in cards)
    hp0 = sum(h * u for h, u in zip(heights0, unit))
    root = code(hp0, len(stock), root_top)
    lost: set[int] = set()
    spent = 1  # the start
    if won(heights0, len(stock)):
        return RESULT_WON, [], spent, None
    budget = FIRST_TRY_STATES
    tries = 0
    while True:
        w_height, w_open = ORDERS[tries % len(ORDERS)]
        tie = [j / n for j in range(n)] if tries == 0 else ties[tries - 1]
        tries += 1
        cap = spent + min(budget, max_states - spent)
        seen = {root}
        # frames: [code, heights, packed heights, stock height, top class, the step to it,
        # its children best last (None until expanded)]; a step is a loose pile's number, or
        # -1 for a tap. A child is (rank, step, code, heights, packed heights, stock, top).
        frames: list[list[Any]] = [[root, heights0, hp0, len(stock), root_top, -1, None]]
        stopped = None
        while frames:
            frame = frames[-1]
            if frame[6] is None:
                _, h, hp, s, top, _, _ = frame
                tops = [cards[j][h[j] - 1] if h[j] else -1 for j in range(n)]
                ranked = []
                for j in range(n):
                    c = tops[j]
                    if c < 0 or c not in takes[top]:
                        continue
                    hj = h[j] - 1
                    cls = top_class[c]
                    child = code(hp - unit[j], s, cls)
                    if child in seen or child in lost:
                        continue
                    ch = h[:j] + (hj,) + h[j + 1:]
                    if won(ch, s):
                        return RESULT_WON, _steps(frames, j), spent, None
                    below = cards[j][hj - 1] if hj else -1
                    opened = sum(1 for k in range(n) if (below if k == j else tops[k]) in takes[c])
                    ranked.append((w_height * h[j] + w_open * opened + tie[j], j, child, ch,
                                   hp - unit[j], s, cls))
                if s:
                    cls = top_class[stock[s - 1]]
                    child = code(hp, s - 1, cls)
                    if child not in seen and child not in lost:
                        if won(h, s - 1):
                            return RESULT_WON, _steps(frames, -1), spent, None
                        ranked.append((-1.0, -1, child, h, hp, s - 1, cls))
                ranked.sort(key=_rank)
                frame[6] = ranked
            children = frame[6]
            # a child may have been reached another way since its parent was expanded
            while children and (children[-1][2] in seen or children[-1][2] in lost):
                children.pop()
            if not children:
                frames.pop()
                continue
            if spent >= cap:
                stopped = "states"
                break
            if clock() > deadline:
                stopped = "seconds"
                break
            _, step, child, ch, chp, cs, ctop = children.pop()
            seen.add(child)
            spent += 1
            frames.append([child, ch, chp, cs, ctop, step, None])
        if stopped is None:
            return RESULT_LOST, [], spent, None
        # Every expanded position off the current path was searched to the end: lost.
        lost |= seen - {f[0] for f in frames}
        if stopped == "seconds" or spent >= max_states:
            return RESULT_UNKNOWN, [], spent, stopped
        budget = max(budget + 1, int(budget * TRY_GROWTH))


def _rank(child: tuple[Any, ...]) -> tuple[float, int]:
    return child[0], child[1]


def _steps(frames: list[list[Any]], last: int) -> list[int]:
    """The steps along the current path, then ``last``."""
    return [f[5] for f in frames[1:]] + [last]


def _line(ow: OneWay, heights: tuple[int, ...], steps: list[int]) -> list[Any]:
    """The engine moves of ``steps`` from the loose piles' ``heights``."""
    line = []
    h = list(heights)
    for step in steps:
        if step < 0:
            line.append(Move(ow.stock, -1, -1))
        else:
            h[step] -= 1
            line.append(Move(ow.loose[step], h[step], ow.home))
    return line
