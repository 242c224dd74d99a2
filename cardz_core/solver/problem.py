"""A compiled game seen as a search problem: successors with safe moves and tap runs, the
transposition key, and a priority that orders siblings (speed only, never the answer)."""

from __future__ import annotations

import struct
from typing import Any, Callable, Hashable, Iterator, NamedTuple, Sequence

from cardz_core.cards import Card
from cardz_core.compiled.records import EjectTable
from cardz_core.engine.relations import relation
from cardz_core.engine.state import LOST, PLAYING
from cardz_core.engine.rng import next_u64
from cardz_core.solver.analysis import Analysis, analysis_of, printed_fits


class Weights(NamedTuple):
    """The sibling order: what a position gains per card home, loses per face-down card, gains
    per empty depot, loses per card above the next cards for home, per card out of sequence,
    per squared pile size (used only without suit-building foundations: Golf, Black Hole...),
    and per card in sequence that its depot would not let move with the card below (``stuck``:
    Spider's mixed-suit builds; 0 unless an order asks, so six numbers still make an order).
    ``greedy`` (not 0) makes the try with this order a greedy one, which plays only moves that
    make progress and counts only a win (docs/solver.md, "A greedy try"); an eighth number."""

    home: int
    face_down: int
    empty: int
    depth: int
    disorder: int
    balance: int
    stuck: int = 0
    greedy: int = 0

    def numbers(self) -> list[int]:
        """The weights as a settings file writes them: six numbers while ``stuck`` and
        ``greedy`` are 0, seven while ``greedy`` is."""
        return list(self) if self.greedy else list(self[:7]) if self.stuck else list(self[:6])


# Orderings tried in turn by ``cardz_core.planners.solver.solve`` (chosen on Microsoft FreeCell
# deals 1-60, Golf and Black Hole; speed only). Different orders fail on different deals, so a
# short try of each cuts the long tail of a depth-first search. The first one's `depth` was 10
# until 2026-12-03: at 30 the median FreeCell deal of 1-1000 takes 981 positions, not 1,726.
ORDERINGS = (Weights(100, 20, 30, 30, 5, 10), Weights(100, 20, 60, 10, 5, 3),
             Weights(100, 20, 30, 20, 0, 30))
# Which default orders a table of rated deals was made with (its solver's efforts depend on them):
# 1 before the first order's `depth` went to 30, 2 since.
ORDERINGS_VERSION = 2
# Orders that value turning cards up above sending them home, tried as well when cards lie
# face-down outside the stocks (Klondike, Canfield). Of 12 Klondike draw-1 deals the orders above
# left unknown after about 300,000 positions, these won 3 within 100,000 (speed only).
FACE_DOWN_ORDERINGS = (Weights(50, 100, 10, 0, 20, 10), Weights(20, 100, 30, 10, 5, 10))
# The largest random amount a try with noise adds to a priority: two hundred cards home, far past
# what one move changes, so a noisy try keeps little of the orders that left the deal undecided.
# Canfield deals 1-300 at 200,000 positions: 47 unknown with two cards home, 31 with twenty, 26
# with two hundred (docs/solver.md, "Later tries shaken past the order"; speed only).
NOISE = 20_000


def tap_run(game: Any, state: Any, tap: tuple[int, int], moves: list[Any],
            apply: Callable[[Any, Any], Any], keyed: bool = False
            ) -> Iterator[tuple[tuple[Any, ...], Any, Any, list[Any]]]:
    """Tap the stock ``tap[0]`` (which draws to ``tap[1]``) again and again from ``state``, whose
    legal moves are ``moves``: after each tap, (the taps so far, the position before the last
    tap, the position after it, its moves from the stock and its target). Ends when the stock
    cannot be tapped, or after the tap that brings the stock and its target (and the stock's
    recycles if ``keyed``) back to a configuration already passed, which is yielded with no moves.
    ``apply`` plays a tap; whatever it raises ends the run and reaches the caller."""
    k, w = tap
    seen = {(state.piles[k], state.piles[w], state.recycles if keyed else None)}
    taps: tuple[Any, ...] = ()
    t = state
    while True:
        tap_move = next((m for m in moves if m.src == k and m.index == -1), None)
        if tap_move is None:
            return
        before, t = t, apply(t, tap_move)
        taps += (tap_move,)
        config = (t.piles[k], t.piles[w], t.recycles if keyed else None)
        repeated = config in seen
        seen.add(config)
        # only the stock and its target changed; a configuration met before offers nothing new
        moves = [] if repeated else game.moves_from(t, (k, w))
        yield taps, before, t, moves
        if repeated:
            return


def apart(eject: EjectTable) -> Callable[[Card, Card], bool] | None:
    """Which cards in sequence on a depot with ``eject`` would not move together with the card
    below them, as a test of (below, card); None when any sequence moves as one group (no unit,
    whose groups the target judges card by card, or an ``Any`` or ``Pile`` unit)."""
    if eject.gate in ("TopOnly", "Locked") or eject.unit == "Single" or (
            eject.unit is None and eject.loose_order):
        return lambda below, card: True  # one card at a time
    if eject.unit == "Run":
        rel = relation(eject.unit_build, eject.unit_suit)
        return None if rel is None else (lambda below, card: not rel(below, card))
    return None


_SINGLE = struct.Struct("f")


def _f32(x: float) -> float:
    """``x`` rounded to the nearest single-precision float, as the native search holds it."""
    return _SINGLE.unpack(_SINGLE.pack(x))[0]


class _Noise:
    """A noisy try's random amounts, drawn and rounded exactly as ``Ranker::priority`` in
    src/solver/problem.rs does (splitmix64, 24-bit fractions, single precision), so that a noisy
    try orders siblings, and so searches, the same on both engines."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def added(self, value: float) -> float:
        """``value`` (a whole number, exact in single precision) with the next amount below
        ``NOISE`` added. Each product and sum here is exact in double precision, so rounding it
        once to single gives what single-precision arithmetic gives."""
        self.state, r = next_u64(self.state)
        return _f32(value + _f32(NOISE * ((r >> 40) / (1 << 24))))


class GameProblem:
    def __init__(self, game: Any, analysis: Analysis | None = None,
                 weights: "Weights | None" = None, streamline: bool = False,
                 noise: int = 0) -> None:
        """``streamline``: take stock cards lazily even where that is not exact (only for
        ``Analysis.lazy_streamline`` games, and a search that can then only answer won).
        ``noise``: when not 0, the seed of a random amount (below ``NOISE``) added to each
        priority, so that tries with the same weights still order siblings differently."""
        self.game = game
        self.w = weights or ORDERINGS[0]
        self.noise = _Noise(noise) if noise else None
        self.an = analysis if analysis is not None else analysis_of(game)
        an = self.an
        c = an.compiled
        self.win = tuple(sorted(an.win_set)) if an.win_set else ()
        # a win that only empties depots (no depots cards must end in): cards still there count
        self.to_empty = tuple(sorted(an.empties)) if an.win_set is None and an.empties else ()
        self.draws = frozenset(i for i, d in enumerate(c.draws) if d is not None)
        home = set(self.win) | set(self.to_empty)
        self.win_set = frozenset(self.win)
        self.others = tuple(i for i in range(an.n) if i not in self.draws and i not in home)
        self.open = tuple(i for i in self.others if not c.accepts[i].rejects_all)
        self.untapped = tuple(i for i in range(an.n) if an.tap is None or i not in an.tap)
        self.lazy = an.lazy_stock or (streamline and an.lazy_streamline)
        self.ring_target = an.tap[1] if an.tap is not None else -1
        # lazy stock, per position (see successors): cards on the ring, cards free to move
        # elsewhere, and which stock cards a line of takes could go on from
        self.ring_cards: set[int] = set()
        self.free: set[int] = set()
        self.chains: dict[tuple[int, int], bool] = {}
        # The next card each foundation takes, when safe moves found them building in one suit.
        self.by_card = {(r, s): i for i, (r, s) in enumerate(zip(an.ranks, an.suits))}
        self.steps: dict[int, int] = {}
        if an.safe is not None:
            for i in self.win:
                b = c.accepts[i].build
                if b is not None and not b.wrap:
                    self.steps[i] = b.step if b.direction == "Up" else -b.step
        # Pairs (below, above) a building depot would accept as a sequence, as below * n + above.
        cards = an.cards
        self.n_cards = len(cards)
        self.fits: dict[int, frozenset[int]] = {}
        tables = an.fit_tables  # by compiled accept table: equal rules, one table
        # Of those, the pairs the depot's ejectRule would not lift together (``Weights.stuck``).
        self.stuck: dict[int, frozenset[int]] = {}
        stuck = an.stuck_tables
        for i in self.open:
            rule = c.accepts[i]
            if rule.build is None or rule.empty_only:
                continue
            if rule not in tables:
                acc = game.accepts[i]
                tables[rule] = frozenset(
                    b * self.n_cards + a for b, cb in enumerate(cards) for a, ca in enumerate(cards)
                    if a != b and printed_fits(acc, cb, ca))
            self.fits[i] = tables[rule]
            if (rule, c.ejects[i]) not in stuck:
                test = apart(c.ejects[i])
                n = self.n_cards
                stuck[rule, c.ejects[i]] = frozenset() if test is None else frozenset(
                    p for p in tables[rule] if test(cards[p // n], cards[p % n]))
            if stuck[rule, c.ejects[i]]:
                self.stuck[i] = stuck[rule, c.ejects[i]]
        # Lazy stock: per depot and card, the cards the depot's building rule puts on that card.
        self.onto: dict[int, tuple[tuple[int, ...], ...]] = {}
        if self.lazy:
            n = self.n_cards
            for i, fits in self.fits.items():
                rule = c.accepts[i]
                if rule not in an.onto_tables:
                    an.onto_tables[rule] = tuple(tuple(a for a in range(n) if b * n + a in fits)
                                                 for b in range(n))
                self.onto[i] = an.onto_tables[rule]

    # Weights of the sibling order (tried on Microsoft FreeCell deals 1-60; speed only).
    W_HOME, W_FACE_DOWN, W_EMPTY, W_DEPTH, W_DISORDER = 100, 20, 30, 10, 5
    # Without suit-building foundations (Golf, Black Hole...): take from the tallest piles first.
    W_BALANCE = 10

    # ---- the Problem interface -------------------------------------------------------------
    def status(self, state: Any) -> int:
        """The status as the search meets it: a loss by "no legal move" alone is playing
        (``Analysis.dead_end_loss``), a position that will show no children."""
        status = self.game.status(state)
        return PLAYING if status == LOST and self.an.dead_end_loss else status

    def key(self, state: Any) -> Hashable:
        return self.an.key(state)

    def successors(self, state: Any) -> list[tuple[Sequence[Any], Any]]:
        game = self.game
        moves = game.legal_moves(state)
        safe = self.an.safe
        if safe is not None:
            if safe.blocked_depots and safe.blocked(state.piles):
                return []  # no card of the blocked pair will ever go home
            m = safe.find(state, moves)
            if m is not None:
                return [((m,), game.apply(state, m))]
        if self.w.greedy:
            home = next((m for m in moves if m.dst in self.win_set and m.src not in self.win_set), None)
            if home is not None:  # a greedy try plays a card home at once, whatever else
                return [((home,), game.apply(state, home))]
        tap = self.an.tap
        out: list[tuple[Sequence[Any], Any]] = []
        if self.lazy:
            # where the cards that could go onto a stock card taken now are: face-up outside the
            # foundations and the ring (no depot takes face-down cards here), or on the ring
            home, piles = self.an.win_set, state.piles
            assert tap is not None and home is not None  # lazy stock needs tap runs and safe moves
            self.ring_cards = {c >> 1 for i in tap for c in piles[i]}
            self.free = {c >> 1 for i, p in enumerate(piles) if i not in home and i not in tap
                         for c in p if c & 1}
            self.chains = {}
        for m in moves:
            if tap is not None and m.src == tap[0] and m.index == -1:
                continue
            self._child(out, (m,), state, m)
        if tap is not None:
            out.extend(self._tap_runs(state, moves))
        if self.w.greedy:
            return [(line, child) for line, child in out if self.progress(state, line, child)]
        return out

    def _may_follow(self, card: int, d: int, ring_only: bool = False) -> bool:
        """Whether a line of lazy-stock moves could go on from ``card``, just taken to depot
        ``d``: a card from outside the ring placed on it, or (only this, if ``ring_only``) a
        stock card that could itself be followed so. False only when none can; the tables are
        those of the position ``successors`` was asked for, which a line changes only by taking
        stock cards to ``d``."""
        onto = self.onto.get(d)
        if onto is None:
            return True
        for a in onto[card]:
            if not ring_only and a in self.free:
                return True
            if a in self.ring_cards:
                known = self.chains.get((d, a))
                if known is None:
                    self.chains[(d, a)] = True  # while asked (builds up or down loop): maybe
                    known = self.chains[(d, a)] = self._may_follow(a, d)
                if known:
                    return True
        return False

    def _child(self, out: list[tuple[Sequence[Any], Any]], line: tuple[Any, ...], state: Any,
               m: Any) -> None:
        """Add the child ``m`` makes of ``state`` (``line`` ending in ``m``), or, for a stock
        card taken off the ring to a depot outside the foundations (lazy stock), the children of
        the moves onto it that may follow."""
        if self.lazy and m.src == self.ring_target and m.dst not in self.win:
            if self._may_follow(state.piles[m.src][-1] >> 1, m.dst):
                out.extend(self._followed(line, self.game.apply(state, m), m.dst))
        else:
            out.append((line, self.game.apply(state, m)))

    def _followed(self, line: tuple[Any, ...], state: Any, d: int) -> list[tuple[Sequence[Any], Any]]:
        """``line`` took a stock card to ``d`` (reaching ``state``): each move next onto that
        card, a card from a column ending the line and another stock card continuing it."""
        moves = self.game.legal_moves(state)
        out: list[tuple[Sequence[Any], Any]] = []
        for m in moves:
            if m.dst == d and m.index != -1:
                self._child(out, line + (m,), state, m)
        if self._may_follow(state.piles[d][-1] >> 1, d, ring_only=True):
            for more, child in self._tap_runs(state, moves, d):
                out.append((line + tuple(more), child))
        return out

    def _tap_runs(self, state: Any, moves: list[Any], onto: int | None = None
                  ) -> list[tuple[Sequence[Any], Any]]:
        """Each move from the stock or its target after one or more taps, with those taps (only
        the moves onto depot ``onto`` when given).

        A tap that changes any other pile (automatic moves still pending after the opening
        deal) ends the run, and the position it leads to is kept as an ordinary successor."""
        game = self.game
        out: list[tuple[Sequence[Any], Any]] = []
        assert self.an.tap is not None  # asked for only when taps are searched as runs
        for taps, before, t, after_moves in tap_run(game, state, self.an.tap, moves, game.apply,
                                                    self.an.key_recycles):
            if any(t.piles[i] != before.piles[i] for i in self.untapped):
                if onto is None:  # only the dealt position can be unsettled, never a chain's
                    out.append((taps, t))
                break
            played = False
            for m in after_moves:
                if m.index != -1 and (onto is None or m.dst == onto):
                    self._child(out, taps + (m,), t, m)
                    played = True
            if played and self.w.greedy:  # a greedy try taps past no card it could play
                break
        return out

    def _counts(self, piles: Any) -> tuple[int, int, int, int, int]:
        """The priority's counts that a greedy try reads too: cards home, face-down cards,
        empty depots, cards out of sequence and stuck cards (counted only when the order
        weighs them or its try is greedy)."""
        home = 0
        for i in self.win:
            home += len(piles[i])
        for i in self.to_empty:
            home -= len(piles[i])
        down = 0
        for i in self.others:
            for c in piles[i]:
                if not c & 1:
                    down += 1
        empty = 0
        for i in self.open:
            if not piles[i]:
                empty += 1
        disorder = 0
        n = self.n_cards
        for i, fits in self.fits.items():
            p = piles[i]
            for j in range(1, len(p)):
                below, above = p[j - 1], p[j]
                if below & 1 and (below >> 1) * n + (above >> 1) not in fits:
                    disorder += 1
        stuck = sum(_stuck(piles[i], n, pairs) for i, pairs in self.stuck.items()) \
            if self.w.stuck or self.w.greedy else 0
        return home, down, empty, disorder, stuck

    def progress(self, parent: Any, line: Sequence[Any], child: Any) -> bool:
        """Whether the child ``line`` makes of ``parent`` makes progress, as a greedy try asks
        (docs/solver.md, "A greedy try"): a card more home, a card turned up, a depot emptied,
        a card fewer out of sequence or stuck, or the stock or its target played."""
        if any(m.index == -1 or (self.an.tap is not None and (m.src in self.an.tap or m.dst in self.an.tap))
               for m in line):
            return True
        home, down, empty, disorder, stuck = self._counts(parent.piles)
        h, d, e, o, k = self._counts(child.piles)
        return h > home or d < down or e > empty or o < disorder or k < stuck

    def priority(self, state: Any) -> float:
        """Cards home, then how deep the next cards for home lie, face-down cards and room."""
        piles = state.piles
        home, down, empty, disorder, stuck = self._counts(piles)
        w = self.w
        if self.steps:
            depth = self._next_depth(piles)
            balance = 0
        else:
            depth = 0
            balance = sum([len(piles[i]) ** 2 for i in self.others])
        value = (w.home * home - w.face_down * down + w.empty * empty - w.depth * depth
                 - w.disorder * disorder - w.balance * balance - w.stuck * stuck)
        return self.noise.added(value) if self.noise is not None else value

    def _next_depth(self, piles: tuple[tuple[int, ...], ...]) -> int:
        """How many cards lie on top of the cards the foundations take next."""
        an = self.an
        seed = an.safe.seed_rank if an.safe is not None else None
        wanted: set[int] = set()
        empties = False
        for i, step in self.steps.items():
            p = piles[i]
            if p:
                top = p[-1] >> 1
                nxt = self.by_card.get((an.ranks[top] + step, an.suits[top]))
                if nxt is not None:
                    wanted.add(nxt)
            else:
                empties = True
        depth = 0
        for i in self.others:
            p = piles[i]
            for pos, c in enumerate(p):
                cid = c >> 1
                if cid in wanted or (empties and an.ranks[cid] == seed):
                    depth += len(p) - 1 - pos
        return depth


def _stuck(pile: tuple[int, ...], n: int, pairs: frozenset[int]) -> int:
    """How many cards of ``pile`` lie on a face-up card with (below, card) in ``pairs``."""
    count = 0
    for j in range(1, len(pile)):
        below, above = pile[j - 1], pile[j]
        if below & 1 and (below >> 1) * n + (above >> 1) in pairs:
            count += 1
    return count
