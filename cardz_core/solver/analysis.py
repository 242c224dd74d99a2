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

The analysis names no kind of the vocabulary and reads neither the spec nor the registry: it
reads the compiled game (``game.compiled``: its rule tables, and the facts of the kinds, which
compile copied onto each depot, step and condition) and the engine's tables (the build and suit
relation as the engine compiled them). ``analysis_of(game)`` builds it once per compiled game
and keeps it on the game.
"""

from __future__ import annotations

from collections import defaultdict
from operator import itemgetter
from typing import Any, Hashable, Iterable

import attrs

from cardz_core.cards import Card
from cardz_core.compiled import CompiledGame, ConditionData, StepData
from cardz_core.engine import Game, compile
from cardz_core.engine.accept import Accept
from cardz_core.solver.programs import RuleReads
from cardz_core.spec.model import GameSpec, Pattern

# What a condition may read and still be understood: the cards on the table and their faces,
# which the key keeps exactly (counters, moves and expressions it would have to be told about).
_CONDITION_READS = frozenset({"piles", "faces"})
# What a condition may read for the search without the reductions: also its expressions, whose
# programs declare what they read, and the key keeps all of that (``CompiledGame.rule_reads``).
_KEYED_READS = _CONDITION_READS | {"expressions"}
# What a redeal step may read besides the piles of its depots and still be understood.
_STEP_READS = frozenset({"rng", "expressions"})
_LOCKED = "Locked"  # the eject gate of a depot no card leaves (``EjectTable.gate``)
_TOP_ONLY = "TopOnly"  # the eject gate of a depot only its top card leaves
_FACE_DOWN = 0  # ``CompiledGame.land_face`` of a depot that takes cards face-down


def analysis_of(game: Game) -> "Analysis":
    """The solver's analysis of ``game``, built on first use and then held by the game."""
    return game.derive(Analysis)


def printed_fits(rule: Accept, below: Card, card: Card) -> bool:
    """Whether depot rule ``rule`` lets the printed ``card`` lie on the printed ``below`` by its
    fixed rank and its build and suit relation alone, as the engine compiled them (the callers
    have ruled out wild cards, seeds and expressions, or need only this part)."""
    return (rule.rank_is is None or card.rank == rule.rank_is) and (rule.rel is None or rule.rel(below, card))


def _shape(c: CompiledGame, i: int) -> tuple[Any, ...]:
    """Depot ``i``'s rules as compiled: equal for depots whose rules are written alike wherever
    they sit on the table (the records compare by value; where it is drawn is not in them)."""
    a = c.accepts[i]
    return (c.types[i], attrs.evolve(a, when=None), RuleReads.shape(a.when), c.ejects[i], c.draws[i],
            c.land_face[i], c.land_under[i], c.auto_flip_top[i], c.auto_flip_uncovered[i],
            c.auto_send[i], c.auto_refill[i], tuple(t for t in c.triggers if t.depot == i), c.actions[i])


def _field_depots(args: dict[str, Any], of: Iterable[str]) -> frozenset[int]:
    """The depots the compiled fields ``of`` name: an index or a tuple of indices each (those
    written, or defaulted to the stock; expressions name none here)."""
    found: set[int] = set()
    for name in of:
        value = args.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            found.add(value)
        elif isinstance(value, tuple):
            found |= {v for v in value if isinstance(v, int)}
    return frozenset(found)


def _resolved(value: Any) -> bool:
    """Whether a compiled depot field names its depots as indices (or is left out), not by an
    expression."""
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return True
    return isinstance(value, tuple) and all(isinstance(v, int) for v in value)


class Analysis:
    """Per-game tables the solver reads in its inner loop. Built from a compiled ``Game`` (use
    ``analysis_of``); a ``GameSpec`` is compiled first, with the registry it was loaded with."""

    def __init__(self, game: Game | GameSpec) -> None:
        if isinstance(game, GameSpec):  # compiled with the registry it was loaded with
            kept = getattr(game, "programs", None)
            game = compile(game, None if kept is None else kept.registry)
        self.game = game
        c = self.compiled = game.compiled
        self.notes: list[str] = []
        self.n = c.n_depots
        self.names = c.depot_names
        self.cards: tuple[Card, ...] = game.identity
        self.ranks = tuple(c.card_rank)
        self.suits = tuple(c.card_suit)
        self.plain = not c.uses_expressions  # no expressions, triggers or actions anywhere
        tops = [top for top in (c.win, c.loss, c.redeal_when) if top is not None]
        steps_known = all(self._step_understood(s) for s in c.redeal)
        # the reductions read which depots a condition reads, so they need kinds that read only
        # piles and faces; the search alone (the key) also takes a condition whose expressions
        # it keeps every field of (``Analysis.known``, which the native search needs)
        kinds_known = steps_known and all(self._understood(top, _CONDITION_READS) for top in tops)
        self.known = steps_known and all(self._understood(top, _KEYED_READS) for top in tops)
        if not self.known:
            self.notes.append("a condition or redeal step of a plugin: no symmetry, safe moves or tap runs")

        # Counters in the key: only those a rule reads (as its expressions declare, functions
        # included) or that bound what is left to do.
        unlimited = all(d is None or d.max_recycles is None for d in c.draws)
        reads = c.rule_reads()
        self.key_recycles = not unlimited or bool(reads & {"recycles", "recycles_total"})
        self.key_redeals = c.max_redeals is not None or "redeals" in reads
        self.key_moves = bool(reads & {"moves", "undos"})
        self.key_came_from = "came_from" in reads
        self.reads = RuleReads(c)
        # Identical cards (several packs) are one card to every rule; where no rule reads a
        # suit, so are the cards of one rank (section 1 of docs/solver.md).
        self.unique_cards = _first_alike(zip(self.ranks, self.suits)) == list(range(len(self.cards)))
        self.suit_blind = self._suit_blind()
        canon = _first_alike(zip(self.ranks, c.card_value, c.card_home, c.card_pool) if self.suit_blind
                             else zip(self.ranks, self.suits))
        if self.suit_blind:
            self.notes.append("cards of one rank keyed as one card: no rule reads a suit")
        self.code_map: tuple[int, ...] | None = None
        if canon != list(range(len(canon))):
            self.code_map = tuple(canon[code >> 1] << 1 | (code & 1) for code in range(2 * len(canon)))

        self.empties, self.win_set = self._win_sets()
        # no loss but a stalemate (``ConditionKind.stalemate``), which the search meets as a
        # position without moves
        self.stalemate_loss = c.loss is None or c.loss.stalemate
        # a loss that is exactly "no legal move" is met as a position without moves, as the
        # native search meets it (src/engine.rs, `by_listing`): recorded and ranked like any
        # other (a noisy try draws noise for it), then expanded to nothing and so proved lost.
        # Closing it at once would differ: a try cut short before expanding it would leave it
        # out of the lost set the later tries read, and they would count it again on one engine
        self.dead_end_loss = (c.loss is not None and c.loss.stalemate and not any(c.land_under)
                              and all(d.when is None for d in c.draws if d is not None))
        # expressions leave depots interchangeable when no program tells depots apart but by
        # what they hold (those they name are kept out); triggers and actions do not
        symmetric = self.known and not c.triggers and not any(c.actions) and (
            self.plain or self.reads.place_blind)
        self.classes = self._symmetry_classes() if symmetric else ()
        if not self.plain:
            self.notes.append("rule expressions, triggers or actions: no safe moves or tap runs"
                              + ("" if symmetric else ", no symmetry"))
        self.tap = self._tap_run() if self.plain and kinds_known else None
        self.cycle = self._stock_cycle()
        self.safe = SafeMoves(self) if self.plain and kinds_known else None
        if self.safe is not None and not self.safe.enabled:
            self.safe = None
        self.lazy_stock, self.lazy_streamline = self._lazy_stock()
        singles = [i for i in range(self.n) if not any(i in cl for cl in self.classes)]
        self.sinks = self._sinks() if self.known else ()
        self._singles_of = _getter(singles)
        self._class_getters = tuple(_getter(list(cl)) for cl in self.classes)
        self._undeclared = (-1,) * self.n
        self.oneway: Any = None  # a solver.oneway.OneWay, made by the solver on first use
        self.klondike: Any = None  # a solver.klondike.KlondikeShape, likewise
        self.native: Any = None  # the native search (``cardz_core._native.Solver``), likewise
        # GameProblem's tables by compiled accept rule (and eject rule, for the pairs it would
        # not lift together): they depend on the game alone, so every try of every solve
        # shares them; a two-pack game's take a third of a second each to build
        self.fit_tables: dict[Any, frozenset[int]] = {}
        self.stuck_tables: dict[Any, frozenset[int]] = {}
        self.onto_tables: dict[Any, tuple[tuple[int, ...], ...]] = {}

    # ---- what the kinds' facts say (compile copied them onto the steps and conditions) -------
    def _understood(self, cond: ConditionData, known: frozenset[str]) -> bool:
        """Whether ``cond`` reads nothing but ``known`` (or it is a stalemate, which the search
        meets as a position without moves), and so do the conditions nested in it."""
        if not (cond.stalemate or known.issuperset(cond.reads)):
            return False
        return all(self._understood(c, known) for c in _nested(cond))

    @staticmethod
    def _step_understood(step: StepData) -> bool:
        """Whether the solver knows what redeal ``step`` does: it reads nothing but the piles of
        its depots, the random state and (in a game with expressions) its expressions, and, if
        it moves cards, its facts say where from and where to."""
        if not _STEP_READS.issuperset(step.reads):
            return False
        return not step.moves_cards or bool((step.takes_from or step.from_stock) and step.lands_on)

    def _conditions(self, cond: ConditionData | None) -> Iterable[ConditionData]:
        """``cond`` and the conditions nested in it."""
        if cond is None:
            return
        yield cond
        for sub in _nested(cond):
            yield from self._conditions(sub)

    def _all_conditions(self) -> Iterable[ConditionData]:
        c = self.compiled
        for top in (c.win, c.loss, c.redeal_when):
            yield from self._conditions(top)

    def _win_sets(self) -> tuple[frozenset[int] | None, frozenset[int] | None]:
        """The depots the win asks to be empty (``ConditionKind.empties``), and the depots every
        card must end in: the others, unless one of them is where cards start (it draws, or the
        packs are shuffled into it: ``DepotType.deals_from``), as the stock of Golf: a win that
        leaves cards there is about emptying depots, and there is no such set."""
        c = self.compiled
        if c.win is None or c.win.empties is None:
            return None, None
        empties = frozenset(c.win.empties)
        home = frozenset(range(self.n)) - empties
        if any(c.deals_from[i] or c.draws[i] is not None for i in home):
            return empties, None
        return empties, home

    def matches(self, pattern: Pattern | tuple[int, ...] | None) -> frozenset[int]:
        """The depots a pattern (as written, or as compiled) matches, as the engine resolves it."""
        return frozenset(self.game.pattern(pattern))

    def _suit_blind(self) -> bool:
        """Whether no rule reads a card's suit or colour (docs/solver.md, section 1): no accept,
        build or eject rule compares suits or calls one, no expression reads one, and every
        condition and every step that runs during play has a native primitive (none reads a
        suit) and neither makes cards nor picks its cards out of the stock by what they are
        (``from_stock``)."""
        c = self.compiled
        if not self.reads.suit_blind:
            return False
        for a, e in zip(c.accepts, c.ejects):
            if a.suit != "Any" or a.follow or a.wild_declares != "none" or e.unit_suit != "Any":
                return False
        steps = (*c.redeal, *self._rule_steps())
        if any(s.native is None or s.creates_cards or s.from_stock for s in steps):
            return False
        return all(cond.native is not None for cond in self._all_conditions())

    # ---- symmetry -------------------------------------------------------------------------
    def _symmetry_classes(self) -> tuple[tuple[int, ...], ...]:
        c = self.compiled
        excluded: set[int] = set()
        set_like: list[frozenset[int]] = []  # patterns read as sets: membership must agree
        for i in range(self.n):
            if not c.interchangeable[i]:
                excluded.add(i)
            draw = c.draws[i]
            if draw is not None:
                excluded.add(i)
                excluded.add(draw.to)
            for targets in (c.auto_send[i], c.auto_refill[i]):  # "the first matching": order matters
                if targets is not None:
                    excluded |= {i, *targets}
            accept_from = c.accepts[i].accept_from
            if accept_from is not None:
                set_like.append(frozenset(accept_from))
            if c.ejects[i].covered_by:
                set_like.append(frozenset(c.ejects[i].covered_by))
        for cond in self._all_conditions():
            # a pattern is read as a set; depots named one by one may be told apart
            for name in cond.depot_fields:
                if name in cond.pattern_fields:
                    if isinstance(cond.args.get(name), tuple):
                        set_like.append(frozenset(cond.args[name]))
                else:
                    excluded |= _field_depots(cond.args, (name,))
        for step in c.redeal:  # redeals deal to depots in order: those they name are excluded
            excluded |= _field_depots(step.args, step.depot_fields)
        excluded |= self.reads.named  # an expression names them one by one
        set_like.extend(self.reads.sets)
        groups: dict[Any, list[int]] = defaultdict(list)
        for i in range(self.n):
            if i in excluded:
                continue
            membership = tuple(i in s for s in set_like)
            groups[(_shape(c, i), membership)].append(i)
        classes = tuple(tuple(g) for g in groups.values() if len(g) > 1)
        if classes:
            names = ", ".join("{" + " ".join(self.names[i] for i in cl) + "}" for cl in classes)
            self.notes.append(f"interchangeable depots: {names}")
        return classes

    # ---- tap runs -------------------------------------------------------------------------
    def _tap_run(self) -> tuple[int, int] | None:
        c = self.compiled
        stocks = [i for i, d in enumerate(c.draws) if d is not None]
        if len(stocks) != 1:
            return None
        k = stocks[0]
        draw = c.draws[k]
        assert draw is not None
        w = draw.to
        why = None
        if c.redeal:
            why = "the game has redeals"
        elif w == k:
            why = "the stock draws onto itself"
        elif self._automatic_touches(k, w):
            why = "automatic moves may take from or land on the stock or its target"
        elif not c.accepts[w].rejects_all:
            why = f"{self.names[w]} takes cards by hand, so taps do not commute with other moves"
        elif any(k in e.covered_by or w in e.covered_by for e in c.ejects):
            why = "another depot is uncovered by the stock or its target"
        elif c.parks[k] or c.parks[w]:
            why = "the stock or its target counts towards compound moves"
        elif self.win_set is None or k in self.win_set or w in self.win_set:
            why = "the win is not `allCardsIn` away from the stock and its target"
        elif not self.stalemate_loss:
            why = "a loss condition may read the stock"
        if why:
            self.notes.append(f"taps searched one at a time: {why}")
            return None
        self.notes.append(f"tap runs: taps of {self.names[k]} only as the prelude of a move "
                          f"from {self.names[k]} or {self.names[w]}")
        return k, w

    def _stock_cycle(self) -> tuple[int, int, int] | None:
        """(stock, target, draw count) when taps alone cycle the stock and its target through a
        fixed ring of configurations (docs/solver.md, section 5): the key then writes every
        configuration on the ring as the one with the target empty."""
        if self.tap is None or self.key_recycles:
            return None
        c = self.compiled
        k, w = self.tap
        draw = c.draws[k]
        assert draw is not None
        if (not draw.recycle or c.auto_flip_top[k] or c.auto_flip_uncovered[k]
                or c.land_face[w] == _FACE_DOWN):
            return None
        self.notes.append(f"{self.names[k]} and {self.names[w]} keyed by the ring of configurations "
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
        c = self.compiled
        k, w, count = self.cycle
        why = None
        for i, a in enumerate(c.accepts):
            if i in (k, w) or a.rejects_all:
                continue
            if a.accept_from is not None and w not in a.accept_from:
                why = f"{self.names[i]} refuses cards from {self.names[w]}"
            elif c.land_face[i] == _FACE_DOWN:
                why = f"{self.names[i]} takes cards face-down"
            if why:
                break
        streamline = why is None and count != 1
        if streamline:
            # taking a card changes which cards later draws turn up: a short incomplete try only
            why = f"{self.names[k]} draws {count} cards at a time (tried briefly, for wins only)"
        if why:
            self.notes.append(f"no lazy stock (stock cards are taken whenever they can be): {why}")
            return False, streamline
        self.notes.append(f"lazy stock: cards taken from {self.names[w]} to anywhere but "
                          f"a foundation only just before a card is placed on them")
        return True, False

    def _automatic_touches(self, *depots: int) -> bool:
        c = self.compiled
        for i in range(self.n):
            for targets in (c.auto_send[i], c.auto_refill[i]):
                if targets is not None and (i in depots or set(targets) & set(depots)):
                    return True
        return False

    def _sinks(self) -> tuple[int, ...]:
        """Depots no card ever leaves and whose cards no rule reads below the top: the key keeps
        only their size and top card. A foundation whose pile its top card determines already
        (the one-next-card shape safe moves check) gains nothing and is left whole."""
        c = self.compiled
        whole = self.reads.whole
        if whole is None:
            return ()  # an expression may read the cards of any depot
        # depots an expression reads more of than their size and top card; depots a condition
        # may read more of than which are empty: the depots its depot fields name, or every
        # depot when it has none (a stalemate reads only the legal moves; a condition that reads
        # only its expressions, what they read)
        named: set[int] = set(whole)
        for cond in self._all_conditions():
            if cond.stalemate or cond.nested or cond.empties is not None or not set(cond.reads) - {"expressions"}:
                continue
            fields = cond.depot_fields
            named |= _field_depots(cond.args, fields) if fields else set(range(self.n))
        for step in c.redeal:
            named |= _field_depots(step.args, step.depot_fields)
        # a trigger's or an action's step reads the depots it names, except where it only puts
        # cards (its ``lands_on`` fields, when it moves cards); one naming a depot by an
        # expression could read any
        for step in self._rule_steps():
            read = [f for f in step.depot_fields if not (step.moves_cards and f in step.lands_on)]
            if any(not _resolved(step.args.get(f)) for f in read):
                return ()
            named |= _field_depots(step.args, read)
        if any(step.from_stock for step in (*c.redeal, *self._rule_steps())):
            named |= {i for i in range(self.n) if c.deals_from[i]}
        kept = self.win_set if self.safe is not None and self.win_set else frozenset()
        # a recycle takes a draw target's cards back into its stock, whatever its eject rule
        named |= {d.to for d in c.draws if d is not None and d.recycle}
        found = tuple(i for i in range(self.n)
                      if c.ejects[i].gate == _LOCKED and c.draws[i] is None and not c.land_under[i]
                      and i not in named and i not in kept)
        if found:
            self.notes.append("only size and top card kept of " + " ".join(self.names[i] for i in found))
        return found

    def _rule_steps(self) -> Iterable[StepData]:
        """The steps of every trigger and action."""
        c = self.compiled
        for trigger in c.triggers:
            yield from trigger.do
        for actions in c.actions:
            for action in actions:
                yield from action.do

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


def _first_alike(cards: Iterable[tuple[int, ...]]) -> list[int]:
    """For each card (its facts), the first card with the same facts."""
    first: dict[tuple[int, ...], int] = {}
    return [first.setdefault(facts, i) for i, facts in enumerate(cards)]


def _nested(cond: ConditionData) -> tuple[ConditionData, ...]:
    """The conditions nested in ``cond`` (its ``of`` argument, for a kind that nests)."""
    return tuple(cond.args.get("of", ()) or ()) if cond.nested else ()


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
        c = an.compiled
        why = self._global_reason(an)
        if why:
            an.notes.append(f"no safe moves: {why}")
            return
        assert an.win_set is not None
        self.win = an.win_set
        targets = {d.to for d in c.draws if d is not None}
        cards = an.cards
        # needs[c]: cards some depot outside the foundations could place on top of card c (one
        # engine rule per distinct compiled accept table).
        rules = list({a: an.game.accepts[i] for i, a in enumerate(c.accepts)
                      if i not in self.win and c.draws[i] is None and not a.rejects_all
                      and not a.empty_only}.values())
        self.needs = tuple(
            tuple(x for x, other in enumerate(cards) if x != card
                  and any(printed_fits(r, cards[card], other) for r in rules))
            for card in range(len(cards)))
        self.sources = frozenset(
            i for i in range(an.n)
            if i not in self.win and c.draws[i] is None and i not in targets)
        self.pile_unit = frozenset(i for i, e in enumerate(c.ejects) if e.unit == "Pile")
        # Seeds (a card onto an empty foundation) need the foundations to be one symmetry class.
        self.seed_rank: int | None = None
        win_class = tuple(sorted(self.win))
        if win_class in an.classes:
            self.seed_rank = c.accepts[win_class[0]].seed
        self.ranks = an.ranks
        self.blocked_depots, self.under = self._blocked(an)
        self.enabled = True
        an.notes.append("safe moves: a card to a locked foundation once every card that could be "
                        "placed on it elsewhere is on a foundation"
                        + ("" if self.seed_rank is not None else " (not onto an empty foundation)"))
        if self.blocked_depots:
            an.notes.append("lost once a card that can go only home lies on an earlier card of its suit")

    def _blocked(self, an: Analysis) -> tuple[tuple[int, ...], tuple[frozenset[int], ...]]:
        """The depots to look through for a card that can go nowhere but home lying on a card its
        foundation must take before it (docs/solver.md, section 4), and for each card the
        cards that must not lie under it (empty for a card that can go elsewhere): none unless
        every foundation counts up by one in suit from one seed rank without wrapping."""
        c = an.compiled
        none: tuple[tuple[int, ...], tuple[frozenset[int], ...]] = ((), ())
        seeds = {c.accepts[i].seed for i in self.win}
        builds = {c.accepts[i].build for i in self.win}
        if len(seeds) != 1 or len(builds) != 1:
            return none
        build, seed = builds.pop(), seeds.pop()
        if seed is None or build is None or build.direction != "Up" or build.step != 1 or build.wrap:
            return none
        cards = an.cards
        targets = {d.to for d in c.draws if d is not None}
        takers = [i for i, a in enumerate(c.accepts)
                  if i not in self.win and c.draws[i] is None and not a.rejects_all]

        def placeable(card: int) -> bool:  # some depot outside the foundations may take it
            for i in takers:
                a = c.accepts[i]
                if a.follow or not (a.seed_none or (a.seed is not None and a.seed != an.ranks[card])):
                    return True  # (or may: an empty one, or by a rule not read here)
                if not a.empty_only and any(printed_fits(an.game.accepts[i], below, cards[card])
                                            for x, below in enumerate(cards) if x != card):
                    return True
            return False

        under = tuple(frozenset(x for x in range(len(cards)) if an.suits[x] == an.suits[card]
                                and seed <= an.ranks[x] < an.ranks[card])
                      if not placeable(card) else frozenset() for card in range(len(cards)))
        depots = tuple(i for i, e in enumerate(c.ejects)
                       if i not in self.win and c.draws[i] is None and i not in targets
                       and e.gate == _TOP_ONLY and e.unit is None)
        return (depots, under) if depots and any(under) else none

    def blocked(self, piles: tuple[tuple[int, ...], ...]) -> bool:
        """Whether a card that can go only home lies, in a depot it leaves only from the top, on a
        card its foundation must take first: then neither ever goes home."""
        under = self.under
        for i in self.blocked_depots:
            pile = piles[i]
            for j in range(1, len(pile)):
                first = under[pile[j] >> 1]
                if first and any(x >> 1 in first for x in pile[:j]):
                    return True
        return False

    @staticmethod
    def _global_reason(an: Analysis) -> str | None:
        c = an.compiled
        names = an.names
        if an.win_set is None or not an.win_set:
            return "the win is not `allCardsIn`"
        if not an.stalemate_loss:
            return "a loss condition other than noLegalMoves"
        if c.redeal:
            return "the game has redeals"
        if not an.unique_cards:
            return "the deck has identical cards"
        for i, a in enumerate(c.accepts):
            if c.auto_send[i] is not None or c.auto_refill[i] is not None:
                return f"{names[i]} moves cards automatically"
            if c.land_under[i]:
                return f"{names[i]} takes cards underneath"
            if a.wild_rank is not None or a.wild_joker or a.allow_face_down or a.wild_declares != "none":
                return f"{names[i]} takes wild or face-down cards"
        for i in an.win_set:
            a = c.accepts[i]
            if c.ejects[i].gate != _LOCKED or c.draws[i] is not None:
                return f"{names[i]} is a foundation cards can leave"
            if any(d is not None and d.to == i for d in c.draws):
                return f"{names[i]} receives draws"
            if (a.rejects_all or a.empty_only or a.build is None or a.build.direction == "Either"
                    or a.build.step == 0 or a.suit != "Same" or a.follow or a.rank_is is not None
                    or a.min_count > 1 or a.seed_from_deal or a.when is not None):
                return f"{names[i]} does not take exactly one next card of its suit"
        for i, a in enumerate(c.accepts):
            draw = c.draws[i]
            if draw is not None:
                t = draw.to
                if t not in an.win_set and not c.accepts[t].rejects_all:
                    return f"{names[t]} receives draws and takes cards by hand"
            if i in an.win_set or draw is not None or a.rejects_all or a.empty_only:
                continue
            if a.min_count > 1:
                return f"{names[i]} takes only groups of {a.min_count} or more"
            if a.build is None and a.suit == "Any" and not a.follow:
                return f"{names[i]} takes a card on anything"
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
