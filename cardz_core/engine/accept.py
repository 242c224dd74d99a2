"""``acceptRule`` compiled once per depot: what may land on it.

Two forms of the same rule, kept in step by the tests:

- ``reason(...)`` judges a drop in full and says why one is refused (``illegal_reason``,
  ``apply``, automatic moves);
- the tables ``on_top`` / ``on_down`` / ``on_empty`` are the hot path: for a target's top card
  (or its emptiness) the set of face-up bottom card codes that may land. ``legal_moves`` tests
  ``code in table`` first and calls ``reason`` only where a table cannot decide alone (a group of
  more than one card, a ``when``, ``minCount``, a wild top whose meaning depends on the board).

What comes *after* a card on a pile (``Below``) is one of: ``("card", Card)`` a printed card;
``("down",)`` a face-down card, unreadable; ``("free",)`` anything may follow; ``("suit", s)``
a called suit; ``("set", frozenset[Card])`` a transparent wild read as any of these cards;
``("bare",)`` the empty depot, where the seed decides.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Callable

import attrs

from cardz_core.cards import RANK_WORDS, SUIT_WORDS, Card
from cardz_core.compiled.records import AcceptTable
from cardz_core.engine.base import AcceptTables, CompiledTables
from cardz_core.engine.relations import relation

IDENTITIES = tuple(Card(r, s) for s in range(4) for r in range(1, 14))
FREE = ("free",)
DOWN = ("down",)
EMPTY = ("bare",)


class Accept:
    """One depot's compiled ``acceptRule``."""

    def __init__(self, rule: AcceptTable, game: CompiledTables, depot: int) -> None:
        self.rule = rule
        self.depot = depot
        self.none = rule.rejects_all
        self.empty_only = rule.empty_only
        self.single = rule.single
        self.min_count = rule.min_count
        self.from_set = None if rule.accept_from is None else frozenset(rule.accept_from)
        self.allow_down = rule.allow_face_down
        self.rank_is = rule.rank_is
        self.wild_rank = rule.wild_rank
        self.wild_joker = rule.wild_joker
        self.declares = rule.wild_declares
        self.rel = relation(rule.build, rule.suit, rule.follow)
        self.seed_from_deal = rule.seed_from_deal
        self.when = None if rule.when is None else game.expr(rule.when)
        self.reason_text = rule.reason
        self.has_wild = rule.wild_rank is not None or rule.wild_joker
        self.declares_suit = self.has_wild and self.declares == "suit"
        # whether a face-down bottom card could land here at all (then judged in full): only
        # with allowFaceDown, as the reference says, even where no check would read the card
        self.may_take_down = not self.none and self.allow_down
        # the tables judge every card of a group (no board-dependent wilds); a `when` aside,
        # they alone decide
        self.tabled = not (self.has_wild and self.declares in ("suit", "transparent"))
        self._ident = game.identity
        self._game = game
        self._empty: dict[int, frozenset[int]] = {}

    # -- identities -------------------------------------------------------------------------
    def wild(self, card: Card) -> bool:
        return (self.wild_joker and card.joker) or (self.wild_rank is not None
                                                    and card.rank == self.wild_rank)

    def _rank_ok(self, card: Card) -> bool:
        return self.rank_is is None or card.rank == self.rank_is

    def _printed(self, below: Card, card: Card) -> bool:
        return self._rank_ok(card) and (self.rel is None or self.rel(below, card))

    def _seed_ok(self, card: Card, seed_rank: int) -> bool:
        rule = self.rule
        if rule.seed_none:
            return False
        if self.seed_from_deal:
            if seed_rank == 0 or card.rank != seed_rank:
                return False
        elif rule.seed is not None and card.rank != rule.seed:
            return False
        return self.wild(card) or self._rank_ok(card)

    def fits(self, below: tuple, card: Card, seed_rank: int) -> bool:
        """Whether the face-up ``card`` may lie directly on ``below``."""
        kind = below[0]
        if kind == "bare":
            return self._seed_ok(card, seed_rank)
        if self.wild(card):
            return True
        if kind == "card":
            return self._printed(below[1], card)
        if kind == "free":
            return self._rank_ok(card)
        if kind == "down":
            return self.rel is None and self._rank_ok(card)
        if kind == "suit":
            return self._rank_ok(card) and not card.joker and card.suit == below[1]
        return any(self._printed(v, card) for v in below[1])  # "set"

    def fits_down(self, below: tuple, seed_rank: int) -> bool:
        """Whether a face-down card may lie on ``below``: only with ``allowFaceDown``, which
        skips the checks on what it is; what reads no card (``seedNone``, a missing dealt
        seed) still refuses it on the empty depot."""
        if not self.allow_down:
            return False
        if below[0] == "bare":
            return not (self.rule.seed_none or (self.seed_from_deal and seed_rank == 0))
        return True

    def after(self, below: tuple, card: Card, declare: int, seed_rank: int) -> tuple:
        """What follows once ``card`` lies on ``below``."""
        if not self.has_wild or self.declares == "none" or not self.wild(card):
            return ("card", card)
        if self.declares == "free":
            return FREE
        if self.declares == "suit":
            return ("suit", declare) if declare >= 0 else ("card", card)
        needed = frozenset(v for v in IDENTITIES if self.fits(below, v, seed_rank))
        return ("set", needed)

    def pile_below(self, pile: tuple[int, ...], declared: int, seed_rank: int) -> tuple:
        """What may follow on this pile as it lies."""
        if not pile:
            return EMPTY
        top = pile[-1]
        if not top & 1:
            return DOWN
        card = self._ident[top >> 1]
        if not self.has_wild or self.declares == "none" or not self.wild(card):
            return ("card", card)
        if self.declares == "free":
            return FREE
        if self.declares == "suit":
            return ("suit", declared) if declared >= 0 else ("card", card)
        return self.after(self.pile_below(pile[:-1], -1, seed_rank), card, -1, seed_rank)

    # -- the hot-path tables -----------------------------------------------------------------
    def _codes(self, game: CompiledTables, test: Callable[[Card], bool]) -> frozenset[int]:
        codes = [cid << 1 | 1 for cid, card in enumerate(game.identity) if test(card)]
        return game.intern(frozenset(codes))

    # Built on first use, then plain attributes: a game the native engine plays lists no move
    # here, and Crazy Quilt's tables were four fifths of its compile (docs/benchmarks.md,
    # "Start-up").
    @cached_property
    def _shared(self) -> AcceptTables:
        # the tables read only what a card may lie on: depots whose rules differ only in
        # `when`, `reason` or `acceptFrom` share them, built once (a game of many alike
        # depots, such as Crazy Quilt's 104-card tableau, spent most of its compile here)
        game = self._game
        key = attrs.evolve(self.rule, accept_from=None, when=None, reason=None)
        shared = game.accept_tables.get(key)
        if shared is None:
            shared = game.accept_tables[key] = self._build_tables(game)
        return shared

    @cached_property
    def on_top(self) -> dict[int, frozenset[int]]:
        return self._shared[0]

    @cached_property
    def dynamic(self) -> frozenset[int]:
        return self._shared[1]

    @cached_property
    def on_down(self) -> frozenset[int]:
        return self._shared[2]

    def _build_tables(self, game: CompiledTables) -> AcceptTables:
        by_card: dict[Card, Any] = {}
        on_top: dict[int, frozenset[int]] = {}
        dynamic = []
        for cid, card in enumerate(game.identity):
            code = cid << 1 | 1
            if self.has_wild and self.declares in ("suit", "transparent") and self.wild(card):
                dynamic.append(code)
                continue
            below = self.pile_below((code,), -1, 0)
            if card not in by_card:
                def fits_below(c: Card, b: tuple[Any, ...] = below) -> bool:
                    return self.fits(b, c, 0)

                by_card[card] = self._codes(game, fits_below)
            on_top[code] = by_card[card]
        return on_top, frozenset(dynamic), self._codes(game, lambda c: self.fits(DOWN, c, 0))

    def on_empty(self, seed_rank: int) -> frozenset[int]:
        key = seed_rank if self.seed_from_deal else 0
        table = self._empty.get(key)
        if table is None:
            table = self._empty[key] = self._codes(self._game, lambda c: self._seed_ok(c, key))
        return table

    # -- the full judgement --------------------------------------------------------------------
    def reason(self, game: CompiledTables, state: Any, piles: Any, src: int, group: tuple[int, ...],
               vouched: bool, declare: int | None) -> str | None:
        """Why ``group`` (bottom first) from ``src`` may not land here, or None if it may.
        ``vouched``: a declared eject unit vouches for the group (only its bottom card is
        compared with the pile). ``declare``: the called suit; None skips that check."""
        why = self._why(game, state, piles, src, group, vouched, declare)
        if why is not None and self.reason_text:
            return self.reason_text
        return why

    def _why(self, game: CompiledTables, state: Any, piles: Any, src: int, group: tuple[int, ...],
             vouched: bool, declare: int | None) -> str | None:
        name = game.depot_names[self.depot]
        if self.none:
            return f"{name} takes no cards"
        if self.from_set is not None and src not in self.from_set:
            return f"{name} takes no cards from {game.depot_names[src]}"
        pile = piles[self.depot]
        if pile and self.empty_only:
            return f"{name} takes cards only while empty"
        n = len(group)
        if self.single and n > 1:
            return f"{name} takes one card at a time"
        if n < self.min_count:
            return f"{name} takes at least {self.min_count} cards at once"
        seed_rank = state.seed_rank
        declared = state.declared[self.depot] if state.declared else -1
        below = self.pile_below(pile, declared, seed_rank)
        ident = self._ident
        for k, c in enumerate(group):
            if not c & 1:
                if not self.allow_down:
                    return f"{name} takes no face-down cards"
                if k == 0 and not self.fits_down(below, seed_rank):
                    return f"{name} can't be started"
                below = FREE
                continue
            card = ident[c >> 1]
            if vouched and k > 0:
                if not (self.wild(card) or self._rank_ok(card)):  # so rank_is is set
                    return f"{name} takes only {RANK_WORDS[self.rank_is or 0]}s"
                continue
            if not self.fits(below, card, seed_rank):
                return self._refusal(below, card, name, k, seed_rank)
            call = declare if k == n - 1 and declare is not None else -1
            below = self.after(below, card, call, seed_rank)
        if declare is not None:
            top = group[-1]
            calls = self.declares_suit and top & 1 and self.wild(ident[top >> 1])
            if calls and declare < 0:
                return f"{ident[top >> 1]} on {name}: call a suit"
            if not calls and declare >= 0:
                return f"{name}: nothing to call a suit for"
        if self.when is not None and not self.holds(game, state, piles, src, group):
            return f"{name} refuses it"
        return None

    def holds(self, game: CompiledTables, state: Any, piles: Any, src: int,
              group: tuple[int, ...]) -> bool:
        """Whether the rule's ``when`` holds for ``group`` from ``src`` landing here."""
        assert self.when is not None  # asked only of a rule with a `when`
        pile = piles[self.depot]
        return bool(self.when(game.env(state, card=group[0], pile=group, depot=self.depot,
                                       source=src, top=pile[-1] if pile else None)))

    def _refusal(self, below: tuple, card: Card, name: str, k: int, seed_rank: int) -> str:
        what = f"{card}" if k == 0 else f"{card} within the group"
        if below[0] == "bare":
            rule = self.rule
            if rule.seed_none or (self.seed_from_deal and seed_rank == 0):
                return f"{name} can't be started"
            seed = seed_rank if self.seed_from_deal else rule.seed
            if seed:
                return f"{name} must start with {RANK_WORDS[seed]}"
        if self.rank_is is not None and not self._rank_ok(card):
            return f"{name} takes only {RANK_WORDS[self.rank_is]}s"
        if below[0] == "suit":
            return f"{what} can't go on {name}: {SUIT_WORDS[below[1]]} was called"
        if below[0] == "card":
            return f"{what} can't go on {below[1]} on {name}"
        return f"{what} can't go on {name}"
