"""What the rules of one game allow the solver to prune, read once per compiled game.

Three things, each switched on only when the rules at hand meet conditions that make it exact
(the arguments are in docs/solver.md; the ``notes`` say which are on and why not):

- **symmetry**: depots whose rules are identical and that no rule tells apart are interchangeable,
  so the transposition key sorts their piles;
- **safe moves**: a card sent to a locked foundation that no card still in play could ever be
  placed on is played without branching;
- **tap runs**: with one stock whose draws nothing else can disturb, a run of taps is searched
  only as the prelude of a move that takes a card from the stock or its target.

The transposition key leaves out counters no rule reads (moves, undos, unlimited recycles), and
treats identical cards of a multi-deck game as one card.

The analysis names no kind of the vocabulary: it reads the facts the kinds declare
(``cardz_core.kinds``), looked up in one place (``_Kinds``), the depots patterns match and the
build and suit relation as the engine compiled them. ``analysis_of(game)`` builds it once per
compiled game and keeps it on the game.
"""

from __future__ import annotations

from collections import defaultdict
from operator import itemgetter
from typing import Any, Hashable, Iterable

import attrs

from cardz_core.cards import Card
from cardz_core.engine import Game, compile
from cardz_core.engine.accept import Accept
from cardz_core.expr import rule_reads
from cardz_core.kinds import ConditionKind, DepotType, StepKind
from cardz_core.spec.model import Condition, GameSpec, Pattern, Step

# What a condition may read and still be understood: the cards on the table and their faces,
# which the key keeps exactly (counters, moves and expressions it would have to be told about).
_CONDITION_READS = frozenset({"piles", "faces"})
# What a redeal step may read besides the piles of its depots and still be understood.
_STEP_READS = frozenset({"rng", "expressions"})
# Field kinds that name depots (``cardz_core.kinds``).
_DEPOT_FIELDS = frozenset({"depot", "depots", "group", "pattern"})
# Depot fields that place or draw a depot, not what it does with cards.
_LAYOUT_FIELDS = frozenset({"name", "group", "index", "col", "row", "x", "y", "angle", "off_table",
                            "fan_direction", "fan_window", "fan_anchor", "fan_offset_face_up",
                            "fan_offset_face_down", "ptr"})


def analysis_of(game: Game) -> "Analysis":
    """The solver's analysis of ``game``, built on first use and then held by the game."""
    return game.derive(Analysis)


class _Kinds:
    """The facts of a game's kinds: the one place the solver looks kinds up (in the registry the
    game was compiled with)."""

    def __init__(self, game: Game) -> None:
        self._registry = game.registry
        self.depots: tuple[DepotType | None, ...] = tuple(
            self._lookup("depot_types", t, DepotType) for t in game.types)

    def _lookup(self, table: str, name: str, cls: type) -> Any:
        kind = self._registry.lookup(table, name)
        return kind if isinstance(kind, cls) else None

    def condition(self, cond: Condition) -> ConditionKind | None:
        return self._lookup("conditions", cond.kind, ConditionKind)

    def step(self, step: Step) -> StepKind | None:
        return self._lookup("deal_steps", step.kind, StepKind)


def printed_fits(rule: Accept, below: Card, card: Card) -> bool:
    """Whether depot rule ``rule`` lets the printed ``card`` lie on the printed ``below`` by its
    fixed rank and its build and suit relation alone, as the engine compiled them (the callers
    have ruled out wild cards, seeds and expressions, or need only this part)."""
    return (rule.rank_is is None or card.rank == rule.rank_is) and (rule.rel is None or rule.rel(below, card))


def _shape(node: Any) -> Any:
    """A value comparing equal for rules that are written alike wherever they sit in the file."""
    if attrs.has(type(node)):
        return (type(node).__name__,) + tuple(
            (f.name, _shape(getattr(node, f.name))) for f in attrs.fields(type(node))
            if f.name not in _LAYOUT_FIELDS)
    if isinstance(node, (tuple, list)):
        return tuple(_shape(v) for v in node)
    if isinstance(node, dict):
        return tuple(sorted((k, _shape(v)) for k, v in node.items()))
    return node


class Analysis:
    """Per-game tables the solver reads in its inner loop. Built from a compiled ``Game`` (use
    ``analysis_of``); a ``GameSpec`` is compiled first, with the registry it was loaded with."""

    def __init__(self, game: Game | GameSpec) -> None:
        if isinstance(game, GameSpec):  # compiled with the registry it was loaded with
            kept = getattr(game, "programs", None)
            game = compile(game, None if kept is None else kept.registry)
        self.game = game
        spec = self.spec = game.spec
        self.kinds = _Kinds(game)
        self.notes: list[str] = []
        depots = spec.depots
        self.n = len(depots)
        self.index = game.depot_index
        self.cards: tuple[Card, ...] = game.identity
        self.ranks = tuple(c.rank for c in self.cards)
        self.suits = tuple(c.suit for c in self.cards)
        self.plain = not spec.uses_expressions  # no expressions, triggers or actions anywhere
        kinds_known = all(self._understood(top) for top in (spec.win, spec.loss, spec.redeal_when)
                          if top is not None) and all(self._step_understood(s) for s in spec.redeal)
        self.known = kinds_known
        if not kinds_known:
            self.notes.append("a condition or redeal step of a plugin: no symmetry, safe moves or tap runs")

        # Counters in the key: only those a rule reads (as its expressions declare, functions
        # included) or that bound what is left to do.
        unlimited = all(d.draw is None or d.draw.max_recycles is None for d in depots)
        reads = rule_reads(spec)
        self.key_recycles = not unlimited or bool(reads & {"recycles", "recycles_total"})
        self.key_redeals = spec.max_redeals is not None or "redeals" in reads
        self.key_moves = bool(reads & {"moves", "undos"})
        self.key_came_from = "came_from" in reads
        # Identical cards (several packs) are one card to every rule.
        first: dict[Any, int] = {}
        canon = [first.setdefault((c.rank, c.suit), i) for i, c in enumerate(self.cards)]
        self.unique_cards = all(canon[i] == i for i in range(len(canon)))
        self.code_map: tuple[int, ...] | None = None
        if not self.unique_cards:
            self.code_map = tuple(canon[code >> 1] << 1 | (code & 1) for code in range(2 * len(canon)))

        self.empties, self.win_set = self._win_sets()
        # no loss but a stalemate (``ConditionKind.stalemate``), which the search meets as a
        # position without moves
        loss = None if spec.loss is None else self.kinds.condition(spec.loss)
        self.stalemate_loss = spec.loss is None or (loss is not None and loss.stalemate)
        self.classes = self._symmetry_classes() if self.plain and kinds_known else ()
        if not self.plain:
            self.notes.append("rule expressions, triggers or actions: no symmetry, safe moves or tap runs")
        self.tap = self._tap_run() if self.plain and kinds_known else None
        self.cycle = self._stock_cycle()
        self.safe = SafeMoves(self) if self.plain and kinds_known else None
        if self.safe is not None and not self.safe.enabled:
            self.safe = None
        self.lazy_stock, self.lazy_streamline = self._lazy_stock()
        singles = [i for i in range(self.n) if not any(i in c for c in self.classes)]
        self.sinks = self._sinks() if self.plain and kinds_known else ()
        self._singles_of = _getter(singles)
        self._class_getters = tuple(_getter(list(c)) for c in self.classes)
        self._undeclared = (-1,) * self.n
        self.oneway: Any = None  # a solver.oneway.OneWay, made by the solver on first use

    # ---- what the kinds' facts say -----------------------------------------------------------
    def _understood(self, cond: Condition) -> bool:
        """Whether the solver knows all ``cond`` reads: the piles and faces only (or it is a
        stalemate, which the search meets as a position without moves), and so do the
        conditions nested in it."""
        kind = self.kinds.condition(cond)
        if kind is None or not (kind.stalemate or kind.reads <= _CONDITION_READS):
            return False
        return not kind.nested or all(self._understood(c) for c in self._nested(cond, kind))

    def _step_understood(self, step: Step) -> bool:
        """Whether the solver knows what redeal ``step`` does: it reads nothing but the piles of
        its depots, the random state and (in a game with expressions) its expressions, and, if
        it moves cards, its facts say where from and where to."""
        kind = self.kinds.step(step)
        if kind is None or not kind.reads <= _STEP_READS:
            return False
        return not kind.moves_cards or bool((kind.takes_from or kind.from_stock) and kind.lands_on)

    @staticmethod
    def _nested(cond: Condition, kind: ConditionKind) -> tuple[Condition, ...]:
        return tuple(cond.args.get("of", ()) or ()) if kind.nested else ()

    def _conditions(self, cond: Condition | None) -> Iterable[tuple[Condition, ConditionKind]]:
        """``cond`` and the conditions nested in it, each with its kind (all understood)."""
        if cond is None:
            return
        kind = self.kinds.condition(cond)
        assert kind is not None
        yield cond, kind
        for sub in self._nested(cond, kind):
            yield from self._conditions(sub)

    def _all_conditions(self) -> Iterable[tuple[Condition, ConditionKind]]:
        spec = self.spec
        for top in (spec.win, spec.loss, spec.redeal_when):
            yield from self._conditions(top)

    def _field_depots(self, args: dict[str, Any], of: Iterable[str]) -> frozenset[int]:
        """The depots the fields ``of`` name (those written; expressions name none here)."""
        found: set[int] = set()
        for name in of:
            value = args.get(name)
            if isinstance(value, Pattern):
                found |= self.matches(value)
            elif isinstance(value, str):
                found |= set(self.game.names((value,)))
            elif isinstance(value, (tuple, list)):
                found |= set(self.game.names(tuple(v for v in value if isinstance(v, str))))
        return frozenset(found)

    def _win_sets(self) -> tuple[frozenset[int] | None, frozenset[int] | None]:
        """The depots the win asks to be empty (``ConditionKind.empties``), and the depots every
        card must end in: the others, unless one of them is where cards start (it draws, or the
        packs are shuffled into it: ``DepotType.deals_from``), as the stock of Golf: a win that
        leaves cards there is about emptying depots, and there is no such set."""
        win = self.spec.win
        kind = None if win is None else self.kinds.condition(win)
        if win is None or kind is None or kind.empties is None:
            return None, None
        empties = frozenset(kind.empties(win, self.game))
        home = frozenset(range(self.n)) - empties
        starts = {i for i, t in enumerate(self.kinds.depots) if t is None or t.deals_from}
        if any(i in starts or self.spec.depots[i].draw is not None for i in home):
            return empties, None
        return empties, home

    # ---- depot patterns -------------------------------------------------------------------
    def matches(self, pattern: Pattern | None) -> frozenset[int]:
        """The depots ``pattern`` matches, as the engine resolves it."""
        return frozenset(self.game.pattern(pattern))

    # ---- symmetry -------------------------------------------------------------------------
    def _symmetry_classes(self) -> tuple[tuple[int, ...], ...]:
        spec = self.spec
        excluded: set[int] = set()
        set_like: list[frozenset[int]] = []  # patterns read as sets: membership must agree
        for i, d in enumerate(spec.depots):
            kind = self.kinds.depots[i]
            if kind is None or not kind.interchangeable:
                excluded.add(i)
            if d.draw is not None:
                excluded.add(i)
                excluded.add(self.index.get(d.draw.to, -1))
            for pat in (d.auto_send, d.auto_refill):  # "the first matching depot": order matters
                excluded |= self.matches(pat)
            if d.auto_send is not None or d.auto_refill is not None:
                excluded.add(i)
            if d.accept.accept_from is not None:
                set_like.append(self.matches(d.accept.accept_from))
            if d.uncovered_by:
                set_like.append(frozenset(self.index[n] for n in d.uncovered_by if n in self.index))
        for cond, ckind in self._all_conditions():
            # a pattern is read as a set; depots named one by one may be told apart
            for name, field in ckind.fields.items():
                if field.kind == "pattern" and isinstance(cond.args.get(name), Pattern):
                    set_like.append(self.matches(cond.args[name]))
                elif field.kind in _DEPOT_FIELDS:
                    excluded |= self._field_depots(cond.args, (name,))
        for step in spec.redeal:  # redeals deal to depots in order: those they name are excluded
            excluded |= self._step_depots(step)
        groups: dict[Any, list[int]] = defaultdict(list)
        for i, d in enumerate(spec.depots):
            if i in excluded:
                continue
            membership = tuple(i in s for s in set_like)
            groups[(_shape(d), membership)].append(i)
        classes = tuple(tuple(g) for g in groups.values() if len(g) > 1)
        if classes:
            names = ", ".join("{" + " ".join(spec.depots[i].name for i in c) + "}" for c in classes)
            self.notes.append(f"interchangeable depots: {names}")
        return classes

    def _step_depots(self, step: Step) -> frozenset[int]:
        """The depots a redeal step's depot fields name (an understood step's kind)."""
        kind = self.kinds.step(step)
        assert kind is not None
        return self._field_depots(step.args, [n for n, f in kind.fields.items() if f.kind in _DEPOT_FIELDS])

    # ---- tap runs -------------------------------------------------------------------------
    def _tap_run(self) -> tuple[int, int] | None:
        spec = self.spec
        stocks = [i for i, d in enumerate(spec.depots) if d.draw is not None]
        if len(stocks) != 1:
            return None
        k = stocks[0]
        w = self.index.get(spec.depots[k].draw.to, -1)  # type: ignore[union-attr]
        why = None
        if spec.redeal:
            why = "the game has redeals"
        elif w < 0 or w == k:
            why = "the stock draws onto itself"
        elif self._automatic_touches(k, w):
            why = "automatic moves may take from or land on the stock or its target"
        elif not spec.depots[w].accept.rejects_all:
            why = f"{spec.depots[w].name} takes cards by hand, so taps do not commute with other moves"
        elif any(spec.depots[k].name in d.uncovered_by or spec.depots[w].name in d.uncovered_by
                 for d in spec.depots):
            why = "another depot is uncovered by the stock or its target"
        elif any(kind is None or kind.parks for kind in (self.kinds.depots[k], self.kinds.depots[w])):
            why = "the stock or its target counts towards compound moves"
        elif self.win_set is None or k in self.win_set or w in self.win_set:
            why = "the win is not `allCardsIn` away from the stock and its target"
        elif not self.stalemate_loss:
            why = "a loss condition may read the stock"
        if why:
            self.notes.append(f"taps searched one at a time: {why}")
            return None
        self.notes.append(f"tap runs: taps of {spec.depots[k].name} only as the prelude of a move "
                          f"from {spec.depots[k].name} or {spec.depots[w].name}")
        return k, w

    def _stock_cycle(self) -> tuple[int, int, int] | None:
        """(stock, target, draw count) when taps alone cycle the stock and its target through a
        fixed ring of configurations (docs/solver.md, section 5): the key then writes every
        configuration on the ring as the one with the target empty."""
        if self.tap is None or self.key_recycles:
            return None
        k, w = self.tap
        stock, target = self.spec.depots[k], self.spec.depots[w]
        draw = stock.draw
        assert draw is not None
        if (not draw.recycle or stock.auto_flip_top or stock.auto_flip_uncovered
                or target.land_face == "Down"):
            return None
        self.notes.append(f"{stock.name} and {target.name} keyed by the ring of configurations "
                          f"taps cycle through")
        return k, w, draw.count

    def _lazy_stock(self) -> tuple[bool, bool]:
        """Whether a card taken from the stock's target to a depot other than a foundation need
        only be taken just before a card is placed on it (docs/solver.md, section 5): one card
        per draw round a ring, so every stock card can be had at any time, and the safe-move
        conditions, so nothing but building on it makes a card's place off the ring count. Then
        whether only the draw count stands in the way (a streamlined try, for wins only)."""
        if self.cycle is None or self.safe is None:
            return False, False
        k, w, count = self.cycle
        why = None
        for i, d in enumerate(self.spec.depots):
            if i in (k, w) or d.accept.rejects_all:
                continue
            if d.accept.accept_from is not None and w not in self.matches(d.accept.accept_from):
                why = f"{d.name} refuses cards from {self.spec.depots[w].name}"
            elif d.land_face == "Down":
                why = f"{d.name} takes cards face-down"
            if why:
                break
        streamline = why is None and count != 1
        if streamline:
            # taking a card changes which cards later draws turn up: a short incomplete try only
            why = f"{self.spec.depots[k].name} draws {count} cards at a time (tried briefly, for wins only)"
        if why:
            self.notes.append(f"no lazy stock (stock cards are taken whenever they can be): {why}")
            return False, streamline
        self.notes.append(f"lazy stock: cards taken from {self.spec.depots[w].name} to anywhere but "
                          f"a foundation only just before a card is placed on them")
        return True, False

    def _automatic_touches(self, *depots: int) -> bool:
        for i, d in enumerate(self.spec.depots):
            for pat in (d.auto_send, d.auto_refill):
                if pat is not None and (i in depots or self.matches(pat) & set(depots)):
                    return True
        return False

    def _sinks(self) -> tuple[int, ...]:
        """Depots no card ever leaves and whose cards no rule reads below the top: the key keeps
        only their size and top card. A foundation whose pile its top card determines already
        (the one-next-card shape safe moves check) gains nothing and is left whole."""
        spec = self.spec
        # depots a condition may read more of than which are empty: the depots its depot fields
        # name, or every depot when it has none (a stalemate reads only the legal moves)
        named: set[int] = set()
        for cond, kind in self._all_conditions():
            if kind.stalemate or kind.nested or kind.empties is not None:
                continue
            fields = [n for n, f in kind.fields.items() if f.kind in _DEPOT_FIELDS]
            named |= self._field_depots(cond.args, fields) if fields else set(range(self.n))
        for step in spec.redeal:
            named |= self._step_depots(step)
        whole = self.win_set if self.safe is not None and self.win_set else frozenset()
        # a recycle takes a draw target's cards back into its stock, whatever its eject rule
        named |= {self.index.get(d.draw.to, -1) for d in spec.depots
                  if d.draw is not None and d.draw.recycle}
        found = tuple(i for i, d in enumerate(spec.depots)
                      if d.eject.gate == "Locked" and d.draw is None and not d.land_under
                      and i not in named and i not in whole)
        if found:
            self.notes.append("only size and top card kept of " + " ".join(spec.depots[i].name for i in found))
        return found

    # ---- the transposition key ------------------------------------------------------------
    def key(self, state: Any) -> Hashable:
        piles = state.piles
        if self.cycle is not None and not state.rules_off:
            piles = self._ring_start(piles)
        cmap = self.code_map
        if cmap is not None:
            piles = tuple([tuple([cmap[c] for c in p]) for p in piles])
        if self.sinks:
            piles = list(piles)
            for i in self.sinks:
                p = piles[i]
                piles[i] = (len(p), p[-1] if p else -1)
        declared = state.declared
        if declared and declared != self._undeclared:
            # A called suit belongs to its depot: it moves with the pile when classes are sorted.
            both = tuple(zip(piles, declared))
            singles: Any = self._singles_of(both)
            sym = tuple([tuple(sorted(g(both))) for g in self._class_getters])
        else:
            singles = self._singles_of(piles)
            sym = tuple([tuple(sorted(g(piles))) for g in self._class_getters])
        return (singles, sym, state.recycles if self.key_recycles else None,
                state.redeals if self.key_redeals else None,
                (state.moves, state.undos, state.recycles_total) if self.key_moves else None,
                state.came_from if self.key_came_from else None,
                state.seed_rank, state.rules_off, state.status, state.rng, state.pools)

    def _ring_start(self, piles: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
        """``piles`` with the stock and its target at the start of their ring (every card in the
        stock, face-down, in the order the next recycle leaves them) when they are on the ring:
        the target holds whole draws (or the stock is empty), stock cards face-down and target
        cards face-up. Off the ring (after a card left the target, before the next recycle),
        unchanged."""
        k, w, count = self.cycle  # type: ignore[misc]
        waste = piles[w]
        if not waste:
            return piles
        stock = piles[k]
        if stock and len(waste) % count:
            return piles
        for c in stock:
            if c & 1:
                return piles
        for c in waste:
            if not c & 1:
                return piles
        out = list(piles)
        out[k] = stock + tuple([c ^ 1 for c in reversed(waste)])
        out[w] = ()
        return tuple(out)


def _getter(indices: list[int]) -> Any:
    """A function picking ``indices`` out of a tuple, always returning a tuple."""
    if len(indices) == 1:
        i = indices[0]
        return lambda t: (t[i],)
    if not indices:
        return lambda t: ()
    return itemgetter(*indices)


class SafeMoves:
    """Moves to a locked foundation that can be played without branching (docs/solver.md)."""

    def __init__(self, an: Analysis) -> None:
        self.enabled = False
        spec = an.spec
        why = self._global_reason(an)
        if why:
            an.notes.append(f"no safe moves: {why}")
            return
        assert an.win_set is not None
        self.win = an.win_set
        depots = spec.depots
        targets = {an.index.get(d.draw.to, -1) for d in depots if d.draw is not None}
        cards = an.cards
        # needs[c]: cards some depot outside the foundations could place on top of card c.
        rules = list({d.accept: an.game.accepts[i] for i, d in enumerate(depots)
                      if i not in self.win and d.draw is None and not d.accept.rejects_all
                      and not d.accept.empty_only}.values())
        self.needs = tuple(
            tuple(x for x, other in enumerate(cards) if x != c
                  and any(printed_fits(r, cards[c], other) for r in rules))
            for c in range(len(cards)))
        self.sources = frozenset(
            i for i, d in enumerate(depots)
            if i not in self.win and d.draw is None and i not in targets)
        self.pile_unit = frozenset(i for i, d in enumerate(depots)
                                   if d.eject.unit is not None and d.eject.unit.kind == "Pile")
        # Seeds (a card onto an empty foundation) need the foundations to be one symmetry class.
        self.seed_rank: int | None = None
        win_class = tuple(sorted(self.win))
        if win_class in an.classes:
            self.seed_rank = depots[win_class[0]].accept.seed
        self.ranks = an.ranks
        self.enabled = True
        an.notes.append("safe moves: a card to a locked foundation once every card that could be "
                        "placed on it elsewhere is on a foundation"
                        + ("" if self.seed_rank is not None else " (not onto an empty foundation)"))

    @staticmethod
    def _global_reason(an: Analysis) -> str | None:
        spec = an.spec
        if an.win_set is None or not an.win_set:
            return "the win is not `allCardsIn`"
        if not an.stalemate_loss:
            return "a loss condition other than noLegalMoves"
        if spec.redeal:
            return "the game has redeals"
        if not an.unique_cards:
            return "the deck has identical cards"
        for d in spec.depots:
            a = d.accept
            if d.auto_send is not None or d.auto_refill is not None:
                return f"{d.name} moves cards automatically"
            if d.land_under:
                return f"{d.name} takes cards underneath"
            if a.wild_rank is not None or a.wild_joker or a.allow_face_down or a.wild_declares != "none":
                return f"{d.name} takes wild or face-down cards"
        for i in an.win_set:
            d = spec.depots[i]
            a = d.accept
            if d.eject.gate != "Locked" or d.draw is not None:
                return f"{d.name} is a foundation cards can leave"
            if any(o.draw is not None and o.draw.to == d.name for o in spec.depots):
                return f"{d.name} receives draws"
            if (a.rejects_all or a.empty_only or a.build is None or a.build.direction == "Either"
                    or a.build.step == 0 or a.suit != "Same" or a.follow or a.rank_is is not None
                    or a.min_count > 1 or a.seed_from_deal or a.when is not None):
                return f"{d.name} does not take exactly one next card of its suit"
        for d in spec.depots:
            if d.draw is not None:
                t = an.index.get(d.draw.to, -1)
                if t >= 0 and t not in an.win_set and not spec.depots[t].accept.rejects_all:
                    return f"{d.draw.to} receives draws and takes cards by hand"
            i = an.index[d.name]
            a = d.accept
            if i in an.win_set or d.draw is not None or a.rejects_all or a.empty_only:
                continue
            if a.min_count > 1:
                return f"{d.name} takes only groups of {a.min_count} or more"
            if a.build is None and a.suit == "Any" and not a.follow:
                return f"{d.name} takes a card on anything"
        return None

    def find(self, state: Any, moves: Iterable[Any]) -> Any | None:
        """A safe move among ``moves`` (the legal moves of ``state``), or None."""
        piles = state.piles
        win = self.win
        in_win: set[int] | None = None
        for m in moves:
            if m.dst not in win or m.src not in self.sources or m.declare != -1:
                continue
            pile = piles[m.src]
            if m.index != len(pile) - 1 or not pile[-1] & 1:
                continue
            if m.src in self.pile_unit and len(pile) != 1:
                continue
            if in_win is None:
                in_win = {c >> 1 for i in win for c in piles[i]}
            card = pile[-1] >> 1
            if not all(x in in_win for x in self.needs[card]):
                continue
            if not piles[m.dst]:
                if self.seed_rank is None:
                    continue
                empty = sum(1 for i in win if not piles[i])
                waiting = sum(1 for c, r in enumerate(self.ranks) if r == self.seed_rank and c not in in_win)
                if empty < waiting:
                    continue
            return m
        return None
