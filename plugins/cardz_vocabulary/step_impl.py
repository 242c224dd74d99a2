"""The executors of the builtin deal step kinds: ``compile(step, game) -> executor(work)``.

Each compile runs once per game; the executor it returns changes the board only through the
engine's ``Work`` (docs/plugins.md, "Step executors"). Steps set faces themselves: a deal step
never goes through a depot's ``landFace``/``landUnder`` (those are for cards a player or an
automatic move drops).
"""

from __future__ import annotations

from itertools import chain, repeat
from typing import Any, Callable, Iterator

from cardz_core.problems import CardzError
from cardz_core.spec.model import Step

Executor = Callable[[Any], None]


def deal_group(step: Step, game: Any) -> Executor:
    to = game.step_depots(step, "to")
    source = game.step_depot(step, "from", default_stock=True)
    down, up = step.args.get("faceDown") or 0, step.args.get("faceUp")
    up = 1 if up is None else up
    round_robin = bool(step.args.get("roundRobin"))
    when = game.step_when(step)

    def run(w: Any) -> None:
        targets = [d for d in to(w) if when is None or when(w, d)]  # all judged before dealing
        s = source(w)
        if s < 0 or not targets:
            return
        # made as it is dealt: the deal stops when the source runs out, however many it asks for
        plan: Iterator[tuple[int, bool]]
        if round_robin:
            plan = chain(((d, False) for _ in range(down) for d in targets),
                         ((d, True) for _ in range(up) for d in targets))
        else:
            plan = ((d, face) for d in targets for face in chain(repeat(False, down), repeat(True, up)))
        for d, face in plan:
            cards = w.take_top(s, 1)
            if not cards:
                return  # the source ran out: the step stops
            c = w.up(cards[0]) if face else w.down(cards[0])
            w.put(d, (c,), s)

    return run


def move(step: Step, game: Any) -> Executor:
    source = game.step_depot(step, "from")
    target = game.step_depot(step, "to")
    count = game.step_number(step, "count")
    under = bool(step.args.get("under"))

    def run(w: Any) -> None:
        s, d, n = source(w), target(w), count(w)
        if s < 0 or d < 0 or n <= 0 or not w.piles[s]:
            return
        pile = w.piles[s]
        n = min(n, len(pile))
        if s == d:
            if under and n < len(pile):  # cycling: the top n go beneath, in their order
                w.set_pile(s, pile[-n:] + pile[:-n])
            return
        cards = w.take_top(s, n)
        w.put(d, cards, s, under)

    return run


def flip_top(step: Step, game: Any) -> Executor:
    depot = game.step_depot(step, "depot")

    def run(w: Any) -> None:
        d = depot(w)
        if d >= 0:
            w.flip_top(d)

    return run


def place(step: Step, game: Any) -> Executor:
    target = game.step_depot(step, "to")
    stock = game.first_stock
    if stock < 0:
        raise CardzError("a place step takes its card from the stock, and the game has no Stock",
                         step.ptr)
    joker = bool(step.args.get("joker"))
    rank, suit = step.args.get("rank"), step.args.get("suit")
    wanted = frozenset(cid for cid, card in enumerate(game.identity)
                       if (card.joker if joker else (card.rank == rank and card.suit == suit)))

    def run(w: Any) -> None:
        d = target(w)
        if d < 0:  # an expression that gives no depot: nothing (not the last depot, as -1 reads)
            return
        pile = w.piles[stock]
        for k in range(len(pile) - 1, -1, -1):  # the first match from the top
            c = pile[k]
            if c >= 0 and c >> 1 in wanted:
                w.set_pile(stock, pile[:k] + pile[k + 1:])
                w.put(d, (w.up(c),), stock)
                return
        if any(c < 0 for c in pile):
            raise CardzError("a place step can't pick a card out of a view's unknown cards")

    return run


def gather(step: Step, game: Any) -> Executor:
    sources = game.step_depots(step, "from")
    target = game.step_depot(step, "to")
    when = game.step_when(step)

    def run(w: Any) -> None:
        d = target(w)
        if d < 0:
            return
        taken = [s for s in sources(w) if s != d and (when is None or when(w, s))]
        for s in taken:
            pile = w.piles[s]
            if pile:  # turned over: reversed and face-down
                w.set_pile(s, ())
                w.put(d, tuple(w.down(c) for c in reversed(pile)), s)

    return run


def shuffle(step: Step, game: Any) -> Executor:
    depot = game.step_depot(step, "depot")

    def run(w: Any) -> None:
        d = depot(w)
        if d >= 0 and len(w.piles[d]) > 1:
            w.shuffle(d)

    return run


def compact(step: Step, game: Any) -> Executor:
    copies = step.args["group"]  # the copies' depot indices
    source = game.step_depot(step, "from") if step.args.get("from") is not None else None

    def run(w: Any) -> None:
        filled = [(w.piles[d], w.came_from[d]) for d in copies if w.piles[d]]
        for k, d in enumerate(copies):
            pile, origin = filled[k] if k < len(filled) else ((), -1)
            if w.piles[d] != pile:
                w.set_pile(d, pile)
                w.came_from[d] = origin
        if source is None:
            return
        s = source(w)
        if s < 0:
            return
        for d in copies[len(filled):]:
            if d == s:
                continue
            cards = w.take_top(s, 1)
            if not cards:
                return
            w.put(d, (w.up(cards[0]),), s)

    return run
