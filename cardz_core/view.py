"""The player's view of a position: what is face-down and unseen becomes counts.

A view is a ``View``, a ``State`` (``cardz_core.engine.state``) in which

- every face-down card the player does not know has the negative code ``unknown_code(pool)``;
- ``pools[p]`` holds, per card id, 1 if that card is unseen and belongs to pool ``p`` (the layout
  the board documents use); identical copies are interchangeable, so counts per printed card are
  the sum over its ids;
- ``rng`` is 0: the generator that drives shuffles during play is not the player's to know.

Pools: packs shuffled into the same depot form one pool; packs sent to different depots (a pack's
``to``) are different pools, because the player knows which depot each pack went to.

Views are canonical: the copies of a printed card get their ids in board order (depots in game
order, each pile bottom first), then the unseen ones in pool order. So two views that show the same
thing are equal, whichever physical copy the true deal holds where.

Memory. A player remembers a card seen face-up that is later turned face-down without a shuffle
(a recycle, ``landFace: Down``, a ``gather``): it stays known, in place. A shuffle forgets the
face-down cards of the shuffled pile. Memory needs history, which a bare ``State`` does not carry,
so it is kept beside the true state in a ``Memory`` (the cards still unknown and the pool each
counts in), updated move by move by ``trace``; ``Seat`` does this for a game being played.
``Game.view(state)`` without a ``Memory`` is the board as it is now (only what is face-up is
known).

Chance. ``Game.outcomes`` (the deck model of ``cardz_deck``) plays a move on a view: each card
the engine turns face-up from the unknown is drawn from its pool's counts.

The functions ``view``, ``outcomes`` and ``sample_outcome`` here are what those ``Game`` methods
run; code outside the engine calls the methods.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Callable, Iterable, NamedTuple, Protocol, Sequence, cast

import attrs

from cardz_core.cards import Card, code, unknown_code, unknown_pool
from cardz_core.engine.state import State
from cardz_core.problems import CardzError, is_whole

if TYPE_CHECKING:
    # the engine's rules part of ``Game`` (the facade itself imports this module)
    from cardz_core.engine.play import Play as Game
    from cardz_core.engine.moves import Move

DEFAULT_DECK_MODEL = "counts"


class View(State):
    """The player's view of a position (see the module docstring): what fair planners are given.
    The engine plays a view like a state, and a view's copies are views, so a move played on a
    view gives a view."""

    __slots__ = ()

    def copy(self) -> View:
        out = State.copy(self)
        out.__class__ = View
        return cast(View, out)


def as_view(state: State) -> View:
    """A state that already holds a view (a board document with unseen cards) as a ``View``."""
    if state.pools is None:
        raise CardzError("this board is not a view: it holds no unseen cards")
    out = state.copy()
    out.__class__ = View
    return cast(View, out)


class DeckInfo:
    """What views need to know about a game's cards, built once per game (``deck_info``)."""

    def __init__(self, game: Game) -> None:
        self.cards: tuple[Card, ...] = game.identity
        n = len(self.cards)
        faces: dict[Card, int] = {}
        self.face_of: list[int] = []
        ids: list[list[int]] = []
        for card_id, card in enumerate(self.cards):
            f = faces.setdefault(card, len(faces))
            if f == len(ids):
                ids.append([])
            ids[f].append(card_id)
            self.face_of.append(f)
        self.ids_of_face: tuple[tuple[int, ...], ...] = tuple(tuple(i) for i in ids)
        self.multi = any(len(i) > 1 for i in ids)  # some card has identical copies
        # pools by where each pack was shuffled to (the compiled game's)
        self.origin: tuple[int, ...] = game.compiled.card_pool
        self.n_pools = game.compiled.n_pools
        self.n_cards = n
        # a move may shuffle cards: a deal drawn from a view draws the generator (``sample_deal``)
        self.shuffles = game.compiled.shuffles_in_play()


def deck_info(game: Game) -> DeckInfo:
    """The game's ``DeckInfo``, made once per game (``Game.derive``)."""
    return game.derive(DeckInfo)


@attrs.frozen
class Memory:
    """What the player knows beyond the board: the true card ids still ``unknown`` (face-down and
    not remembered), and ``labels[card_id]``, the pool each card counts in while unknown."""

    unknown: frozenset[int]
    labels: tuple[int, ...]

    @classmethod
    def initial(cls, game: Game, state: State) -> Memory:
        """Memory with nothing remembered: every face-down card of ``state`` is unknown."""
        unknown = frozenset(c >> 1 for pile in state.piles for c in pile if not c & 1)
        return cls(unknown, deck_info(game).origin)


class _Tracer:
    """The ``reveal`` callback of ``trace``: the shadow state's face-down cards are unknown codes
    whose pool is the card id, plus ``n`` when the player does not know the card."""

    def __init__(self, n: int, memory: Memory) -> None:
        self.n = n
        self.unknown = set(memory.unknown)
        self.labels = list(memory.labels)
        self.turned: list[int] = []
        self.revealed: list[int] = []

    def __call__(self, pool: int) -> int:
        card_id = pool - self.n if pool >= self.n else pool
        if pool >= self.n:
            self.revealed.append(card_id)
            self.unknown.discard(card_id)
        self.turned.append(card_id)
        return card_id

    def forget(self, cards: list[int]) -> list[int]:
        """The shuffle rule of ``forget``, on true ids. A known face-down card is a shadow code
        below ``n``, or a plain face-down code when the move itself turned it down."""
        n = self.n
        out = []
        known = []
        mixed = set()
        for c in cards:
            if c & 1:
                out.append(c)
                continue
            i = c >> 1 if c >= 0 else (-2 - c) // 2
            if c < 0 and i >= n:
                mixed.add(self.labels[i - n])
                out.append(c)
            else:
                known.append(i)
                out.append(unknown_code(i + n))
        if known:
            target = min(mixed) if mixed else _free_pool({self.labels[i] for i in self.unknown})
            for i in known:
                self.labels[i] = target
                self.unknown.add(i)
        return out


def trace(game: Game, state: State, move: Move, memory: Memory | None = None
          ) -> tuple[State, Memory, tuple[int, ...], tuple[int, ...]]:
    """Apply ``move`` to the true ``state``. Returns the new state, the player's memory after it,
    the card ids the move turned face-up (in the engine's order), and those of them the player
    did not know (the move's chance outcome, as ``outcomes`` would list it).

    It replays the move on a shadow copy whose face-down cards are unknown codes naming their own
    id as the pool (offset when the player does not know them), so the engine's ``reveal``
    callback reports each card as it turns it up, and its shuffles report what they mix."""
    if memory is None:
        memory = Memory.initial(game, state)
    after = game.apply(state, move)
    n = len(memory.labels)
    shadow = state.copy()
    shadow.piles = tuple(tuple(c if c & 1 else unknown_code((c >> 1) + (n if c >> 1 in
                                                                          memory.unknown else 0))
                               for c in pile) for pile in state.piles)
    tracer = _Tracer(n, memory)
    game.apply(shadow, move, reveal=tracer)
    return (after, Memory(frozenset(tracer.unknown), tuple(tracer.labels)), tuple(tracer.turned),
            tuple(tracer.revealed))


def _free_pool(used: set[int]) -> int:
    """The lowest pool number no unknown card counts in."""
    return next(p for p in range(len(used) + 1) if p not in used)


def card_reveal(game: Game, v: View, reveal: Callable[[int], int]) -> Reveal:
    """A caller's ``reveal(pool) -> card id`` (``Game.apply(view, move, reveal=...)``) as a
    ``Reveal`` that keeps the unseen counts: each id must be a card of the game still unseen in
    that pool (a card already turned up, or one of another pool, would be duplicated)."""
    info = deck_info(game)

    def choose(pool: int, row: list[int]) -> int:
        card_id = reveal(pool)
        if not is_whole(card_id, 0, info.n_cards - 1):
            raise CardzError(f"the reveal callback answered {card_id!r}, not a card id of the "
                             f"game (0 to {info.n_cards - 1})")
        return info.face_of[int(card_id)]

    return Reveal(info, v.pools or (), choose)


def forget(info: DeckInfo, counts: list[list[int]], cards: list[int]) -> list[int]:
    """A shuffle on a view: the known face-down ``cards`` of the shuffled pile become unknown, in
    the pool of the pile's other unknown cards (the lowest, if several), or else in the lowest
    empty pool; ``counts`` (per pool and face) grows to match. Face-up cards are left as they are.
    ``Memory`` forgets by the same rule, so a view played on and the true game's view agree."""
    known = [c for c in cards if c >= 0 and not c & 1]
    if not known:
        return cards
    mixed = {(-2 - c) // 2 for c in cards if c < 0}
    target = min(mixed) if mixed else _free_pool({p for p, row in enumerate(counts) if any(row)})
    while len(counts) <= target:
        counts.append([0] * len(info.ids_of_face))
    for c in known:
        counts[target][info.face_of[c >> 1]] += 1
    return [unknown_code(target) if c >= 0 and not c & 1 else c for c in cards]


class Reveal:
    """The ``reveal`` callback for a move played on a view: ``choose(pool, row)`` picks the face
    turned up from a pool's counts ``row`` (or raises to stop the move); ``forget`` is called by
    the engine's shuffle on a view. ``counts`` (per pool and face) is worked out from ``pools``
    when first needed: a move that turns nothing up never needs it."""

    def __init__(self, info: DeckInfo, pools: Sequence[Sequence[int]],
                 choose: Callable[[int, list[int]], int],
                 counts: list[list[int]] | None = None) -> None:
        self.info = info
        self.pools = pools
        self._counts = counts
        self.choose = choose
        self.faces: list[int] = []

    @property
    def counts(self) -> list[list[int]]:
        if self._counts is None:
            self._counts = pool_counts(self.info, self.pools)
        return self._counts

    @property
    def used(self) -> bool:
        """Whether the move drew or forgot any card."""
        return self._counts is not None

    def __call__(self, pool: int) -> int:
        counts = self.counts
        row = counts[pool] if pool < len(counts) else []
        f = self.choose(pool, row)
        if not 0 <= f < len(row) or row[f] <= 0:
            raise CardzError(f"the card chosen is not among the unseen cards of pool {pool}")
        row[f] -= 1
        self.faces.append(f)
        return self.info.ids_of_face[f][0]

    def forget(self, cards: list[int]) -> list[int]:
        return forget(self.info, self.counts, cards)


def view(game: Game, state: State, memory: Memory | bool | None = None) -> View:
    """The player's view of the true ``state`` (``Game.view``).

    ``memory``: a ``Memory`` kept beside the state (``Seat`` keeps one); ``None``, ``False`` or
    ``True`` without a ``Memory`` give the board as it is now, the only memory a bare state has.
    """
    info = deck_info(game)
    if not isinstance(memory, Memory):
        memory = Memory.initial(game, state)
    unknown, labels = memory.unknown, memory.labels
    n_pools = max(info.n_pools, max(labels, default=0) + 1)
    counts = [[0] * len(info.ids_of_face) for _ in range(n_pools)]
    piles: list[tuple[int, ...]] = []
    for pile in state.piles:
        out = []
        for c in pile:
            if c < 0:
                raise CardzError("this board is already a view: it holds unknown cards (~?)")
            card_id = c >> 1
            if c & 1 or card_id not in unknown:
                out.append(c)
            else:
                p = labels[card_id]
                counts[p][info.face_of[card_id]] += 1
                out.append(unknown_code(p))
        piles.append(tuple(out))
    return _assemble(info, state, piles, counts)


def _assemble(info: DeckInfo, base: State, piles: list[tuple[int, ...]],
              counts: list[list[int]]) -> View:
    """A canonical view from piles (known cards by any copy's id, unknown cards by pool) and the
    unseen counts per pool and printed card."""
    if info.multi:
        nxt = [0] * len(info.ids_of_face)
        canon = []
        for pile in piles:
            out = []
            for c in pile:
                if c >= 0:
                    f = info.face_of[c >> 1]
                    out.append(code(info.ids_of_face[f][nxt[f]], bool(c & 1)))
                    nxt[f] += 1
                else:
                    out.append(c)
            canon.append(tuple(out))
        piles = canon
    else:
        nxt = None
    pools = []
    for row in counts:
        pool = [0] * info.n_cards
        for f, n in enumerate(row):
            if n:
                ids = info.ids_of_face[f]
                start = nxt[f] if nxt is not None else 0
                for card_id in ids[start:start + n]:
                    pool[card_id] = 1
                if nxt is not None:
                    nxt[f] += n
        pools.append(tuple(pool))
    v = base.copy()
    v.__class__ = View
    v.piles = tuple(piles)
    v.pools = tuple(pools)
    v.rng = 0
    return cast(View, v)


def pool_counts(info: DeckInfo, pools: Sequence[Sequence[int]]) -> list[list[int]]:
    """Unseen counts per pool and printed card (face index) from a view's ``pools``."""
    out = []
    for pool in pools:
        row = [0] * len(info.ids_of_face)
        for card_id, bit in enumerate(pool):
            if bit:
                row[info.face_of[card_id]] += 1
        out.append(row)
    return out


def canonical(game: Game, v: View, counts: list[list[int]] | None = None) -> View:
    """``v`` (a view, e.g. after a move played on it) with copies renumbered in board order and
    ``pools`` rebuilt from ``counts`` (per pool and face) or from its own pools."""
    info = deck_info(game)
    if counts is None and not info.multi:  # nothing to renumber, pools as they are
        out = v.copy()
        out.rng = 0
        return out
    if counts is None:
        counts = pool_counts(info, v.pools or ())
    return _assemble(info, v, list(v.piles), counts)


def holds_unknown(v: State) -> bool:
    """Whether the view ``v`` holds a card it does not know (a true position holds none)."""
    return v.pools is not None and any(map(any, v.pools))


def sample_deal(game: Game, v: State, rng: random.Random) -> State:
    """A true position the view ``v`` may stand for: its unknown cards dealt from their pools in
    a uniformly random order, so each is any card its pool holds with the pool's weights (as the
    counts deck model turns them up one by one). In a game whose moves may shuffle cards (a
    redeal), the generator those shuffles continue is drawn too: the view's own (0) is made up,
    and a search through a redeal on every deal drawn would meet the same made-up layout. A true
    position is returned as it is."""
    if v.pools is None:
        return v
    bags = [[card_id for card_id, bit in enumerate(pool) if bit] for pool in v.pools]
    for bag in bags:
        rng.shuffle(bag)
    piles = []
    for pile in v.piles:
        if all(c >= 0 for c in pile):
            piles.append(pile)
            continue
        out = []
        for c in pile:
            if c < 0:
                p = unknown_pool(c)
                if p >= len(bags) or not bags[p]:
                    raise CardzError(f"the view has more unknown cards of pool {p} than the pool holds")
                c = code(bags[p].pop(), False)
            out.append(c)
        piles.append(tuple(out))
    if any(bags):
        raise CardzError("the view's pools hold cards that are on no pile")
    s = State.copy(v)  # a true position, no longer a view
    s.piles = tuple(piles)
    s.pools = None
    if deck_info(game).shuffles:
        s.rng = rng.getrandbits(64)
    return s


class Outcome(NamedTuple):
    """One way a move on a view can turn out: its probability, the cards revealed (card ids of the
    view, in the order revealed) and the view it leads to."""

    probability: float
    revealed: tuple[int, ...]
    view: View


class Outcomes(list[Outcome]):
    """The outcomes of a move, most likely first; ``coverage`` is the probability they hold
    together (1.0 unless a limit cut the list); ``stopped``: the listing ran out of its work
    budget (``limits.MAX_OUTCOME_WORK``) before it found them all or reached the limit."""

    def __init__(self, items: Iterable[Outcome] = (), coverage: float = 1.0,
                 stopped: bool = False) -> None:
        super().__init__(items)
        self.coverage = coverage
        self.stopped = stopped


class DeckModel(Protocol):
    """What the ``cardz_deck_models`` hook registers: how a move on a view turns out."""

    def outcomes(self, game: Game, v: View, move: Move, limit: int | None = None
                 ) -> Outcomes: ...

    def sample(self, game: Game, v: View, move: Move, rng: random.Random) -> Outcome: ...


def deck_model(game: Game, name: str = DEFAULT_DECK_MODEL) -> DeckModel:
    model = game.registry.lookup("deck_models", name)
    if model is None:
        raise CardzError(f"no deck model named {name!r} is registered")
    return model


def outcomes(game: Game, v: View, move: Move, limit: int | None = None) -> Outcomes:
    """Every outcome of ``move`` on the view ``v`` (``Game.outcomes``)."""
    return deck_model(game).outcomes(game, v, move, outcome_limit(limit))


def outcome_limit(limit: object) -> int | None:
    """``Game.outcomes``'s ``limit``, checked the same on both engines: None, or a whole number
    1 or more (``1.5`` was read as 1 or 2 by one engine and refused by the other)."""
    if limit is not None and not is_whole(limit, 1):
        raise CardzError(f"an outcome limit is a whole number 1 or more, not {limit!r}")
    return None if limit is None else int(cast(int, limit))


def sample_outcome(game: Game, v: View, move: Move, rng: random.Random) -> Outcome:
    """One outcome of ``move`` on ``v`` drawn with ``rng`` by the counts, with its probability
    (``Game.sample_outcome``)."""
    return deck_model(game).sample(game, v, move, rng)


class Seat:
    """A game being played: the true state and, beside it, what the player knows.

    ``view`` is what a fair planner gets. ``play`` applies a move to the true state and keeps the
    memory up to date (with ``memory=False`` nothing is remembered: the view is the board as it
    is now); ``undo`` takes the last move back, with what it taught."""

    def __init__(self, game: Game, state: State, memory: bool = True) -> None:
        self.game = game
        self.state = state
        self.remember = memory
        self.memory = Memory.initial(game, state)
        self._view: View | None = None
        self._history: list[tuple[State, Memory]] = []
        self.turned: tuple[int, ...] = ()  # true card ids the last move turned face-up
        self.revealed: tuple[int, ...] = ()  # those of them the player did not know

    @property
    def view(self) -> View:
        if self._view is None:
            self._view = view(self.game, self.state, self.memory)
        return self._view

    def play(self, move: Move) -> tuple[int, ...]:
        """Apply ``move``; return the true card ids it revealed (unknown to the player), in order."""
        memory = self.memory if self.remember else Memory.initial(self.game, self.state)
        after, learned, self.turned, self.revealed = trace(self.game, self.state, move, memory)
        self._history.append((self.state, self.memory))
        self.state = after
        self.memory = learned if self.remember else Memory.initial(self.game, after)
        self._view = None
        return self.revealed

    def undo(self) -> bool:
        """Take back the last move; False when there is none."""
        if not self._history:
            return False
        before, memory = self._history.pop()
        self.state = self.game.undo(before, self.state)
        self.memory = memory
        self._view = None
        self.turned = self.revealed = ()
        return True


def apply_revealing(game: Game, v: View, move: Move, faces: Sequence[Card]
                    ) -> tuple[View, list[int]]:
    """Play ``move`` on the view ``v`` with the cards turned up from the unknown prescribed, in
    order, as printed cards; returns the canonical resulting view and the card ids turned up.
    Raises ``CardzError`` when a prescribed card is not unseen in the pool it is drawn from, or
    when the move turns up a different number of unknown cards."""
    info = deck_info(game)
    face_index = {info.cards[ids[0]]: f for f, ids in enumerate(info.ids_of_face)}

    def choose(pool: int, row: list[int]) -> int:
        i = len(reveal.faces)
        if i >= len(faces):
            raise CardzError(f"the move turns up more than {len(faces)} unknown card(s)")
        return face_index.get(faces[i], -1)

    reveal = Reveal(info, v.pools or (), choose)
    after = game.apply(v, move, reveal=reveal)
    if len(reveal.faces) < len(faces):
        raise CardzError(f"the move turned up {len(reveal.faces)} unknown card(s), not {len(faces)}")
    counts = reveal.counts if reveal.used else None
    return canonical(game, after, counts), [info.ids_of_face[f][0] for f in reveal.faces]
