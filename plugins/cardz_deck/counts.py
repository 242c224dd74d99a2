"""The counts deck model: an unknown card turned face-up is drawn from its pool's counts.

A pool holding four aces and one king answers a reveal with two outcomes, an ace (4/5) and a king
(1/5): copies of one printed card are one outcome, not one per copy. A move that turns up k unknown
cards has one outcome per distinct sequence of printed cards, its probability the product of the
draws' (count / pool size) along the sequence.

Outcomes are found by playing the move on the view with a ``reveal`` callback that follows a
prescribed sequence and stops the move when the engine asks for one card more; the sequence is
then extended by every card the pool can give. The search is best-first on probability (a prefix's
probability bounds every completion's), so the most likely outcomes come first and a limit keeps
exactly the most likely ones. Probabilities are exact fractions while searching; ties keep the
order of the sequences' card ids. The work is bounded by ``MAX_OUTCOME_WORK`` (each play of the
move counts 1 plus the cards a play of it turns up): past it the listing answers with the outcomes
found so far, their coverage, and ``stopped``.
"""

from __future__ import annotations

import heapq
import random
from typing import TYPE_CHECKING, Callable

from cardz_core.limits import MAX_OUTCOME_WORK, MAX_OUTCOMES
from cardz_core.problems import CardzError
from cardz_core.view import Outcome, Outcomes, Reveal, View, canonical, deck_info, pool_counts

if TYPE_CHECKING:
    from cardz_core.engine.play import Play as Game  # what the view module types games as
    from cardz_core.engine.moves import Move


class _More(BaseException):
    """The move wants one more card than prescribed (BaseException: the engine's own error
    handling must not swallow it)."""

    def __init__(self, pool: int) -> None:
        self.pool = pool


def _no_view() -> CardzError:
    return CardzError("outcomes are asked of a view: make one with Game.view(state)")


class CountsDeck:
    """The ``counts`` deck model registered by this plugin."""

    def native_limits(self) -> tuple[int, int]:
        """``MAX_OUTCOMES`` and ``MAX_OUTCOME_WORK`` as this module holds them now: the native
        engine, which lists and samples this model's outcomes itself (cardz_core/native.py),
        lists them within these."""
        return MAX_OUTCOMES, MAX_OUTCOME_WORK

    def outcomes(self, game: Game, v: View, move: Move, limit: int | None = None) -> Outcomes:
        if v.pools is None:
            raise _no_view()
        if limit is not None and limit < 1:
            raise CardzError("an outcome limit is 1 or more")
        from fractions import Fraction  # exact odds, imported when first listed (start time)

        info = deck_info(game)
        base = pool_counts(info, v.pools)
        # heap of (-probability, face sequence); a popped entry is the likeliest left
        heap: list[tuple[Fraction, tuple[int, ...]]] = [(Fraction(-1), ())]
        found: list[Outcome] = []
        kept = Fraction(0)
        cap = MAX_OUTCOMES if limit is None else min(limit, MAX_OUTCOMES)
        # A play of the move costs about the same whatever prefix it follows (a redeal gathers
        # and deals every card before it asks for the first one), so each is priced at 1 plus the
        # cards one sampled play turns up. A play turns up each card at most once, so the first
        # `free` plays are within the budget whatever they cost: the sample is made only past
        # them (a one-card reveal, as planners list, never needs it).
        free = MAX_OUTCOME_WORK // (1 + info.n_cards)
        price = plays = 0
        while heap and len(found) < cap:
            plays += 1
            if plays > free:
                if not price:
                    price = 1 + len(self.sample(game, v, move, random.Random(0)).revealed)
                if plays * price > MAX_OUTCOME_WORK:  # answer with what is found
                    if not found and limit is not None:
                        found = [self.likeliest(game, v, move)]
                        kept = Fraction(found[0].probability)
                    return Outcomes(found, float(kept), stopped=True)
            neg, seq = heapq.heappop(heap)

            def choose(pool: int, row: list[int], seq: tuple[int, ...] = seq) -> int:
                i = len(reveal.faces)
                if i == len(seq):
                    raise _More(pool)
                return seq[i]

            reveal = Reveal(info, v.pools, choose, [row[:] for row in base])
            try:
                after = game.apply(v, move, reveal=reveal)
            except _More as more:
                row = reveal.counts[more.pool] if more.pool < len(reveal.counts) else []
                total = sum(row)
                if total == 0:
                    raise CardzError("an unknown card's pool holds no unseen card") from None
                for f, n in enumerate(row):
                    if n:
                        heapq.heappush(heap, (neg * Fraction(n, total), seq + (f,)))
                continue
            found.append(Outcome(float(-neg), tuple(info.ids_of_face[f][0] for f in seq),
                                 canonical(game, after, reveal.counts if reveal.used else None)))
            kept -= neg
        if heap and limit is None:
            raise CardzError(f"the move has more than {MAX_OUTCOMES} outcomes: give a limit")
        return Outcomes(found, 1.0 if not heap else float(kept))

    def sample(self, game: Game, v: View, move: Move, rng: random.Random) -> Outcome:
        def pick(row: list[int], total: int) -> int:
            r = rng.randrange(total)
            f = 0
            while r >= row[f]:
                r -= row[f]
                f += 1
            return f

        return self._drawn(game, v, move, pick)

    def likeliest(self, game: Game, v: View, move: Move) -> Outcome:
        """The outcome turning up, each time, the card with the most unseen copies left (the
        first such): the likeliest outcome of cards drawn from one pool (taking from the
        largest count first never lowers the product of the counts). What a listing with a
        limit answers when its work budget runs out before any outcome is complete, as for
        a deal of ten cards at once, where best-first must first try every shorter prefix."""
        return self._drawn(game, v, move, lambda row, total: row.index(max(row)))

    def _drawn(self, game: Game, v: View, move: Move,
               pick: Callable[[list[int], int], int]) -> Outcome:
        """The outcome of ``move`` turning up, for each unknown card, the face ``pick(row,
        total)`` of its pool's counts, with its probability."""
        if v.pools is None:
            raise _no_view()
        info = deck_info(game)
        p = 1.0

        def choose(pool: int, row: list[int]) -> int:
            nonlocal p
            total = sum(row)
            if total == 0:
                raise CardzError("an unknown card's pool holds no unseen card")
            f = pick(row, total)
            p *= row[f] / total
            return f

        reveal = Reveal(info, v.pools, choose)
        after = game.apply(v, move, reveal=reveal)
        return Outcome(p, tuple(info.ids_of_face[f][0] for f in reveal.faces),
                       canonical(game, after, reveal.counts if reveal.used else None))
