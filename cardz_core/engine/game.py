"""The compiled game: ``compile(spec, registry) -> Game``.

Compiling turns the spec into per-depot tables and closures once (``Accept``, ``Eject``, draw
plans, step executors from each ``StepKind.compile``, conditions from each
``ConditionKind.compile``); playing (``legal_moves``, ``apply``) then reads only tuples of small
ints and those closures: no plugin hooks, no attrs objects, no JSON. The rules as played, with
every choice the reference leaves open, are in docs/engine.md.
"""

from __future__ import annotations

from bisect import insort
from typing import Any, Callable

from cardz_core.cards import RANK_LETTERS, Card
from cardz_core.engine import rng as _rng
from cardz_core.engine.accept import Accept
from cardz_core.engine.eject import LOCKED, Eject
from cardz_core.engine.moves import IllegalMove, Move
from cardz_core.engine.state import LOST, PLAYING, WON, State
from cardz_core.engine.work import Reveal, Work
from cardz_core.expr.api import programs_for
from cardz_core.expr.env import Env
from cardz_core.limits import MAX_CASCADE
from cardz_core.problems import CardzError, Problem
from cardz_core.registry import Registry, default_registry
from cardz_core.spec.model import Condition, Expr, GameSpec, Pattern, Step

Executor = Callable[[Work], None]
_TAP_DRAW, _TAP_RECYCLE, _TAP_REDEAL, _TAP_ACTION = range(4)
_BROAD = 12  # accept tables larger than this are tested per pick rather than inverted
_PICK_CACHE = 50_000  # piles remembered per depot with what may be picked from them


new_move = tuple.__new__  # Move(s, i, d) without the NamedTuple's Python-level __new__


class _Revealed(Exception):
    """Raised by a trial run's reveal callback: the run would turn an unknown card up."""


def _parks_any_card(rule: Any) -> bool:
    """Whether an empty depot with accept rule ``rule`` takes any card from any depot, as a
    place to park part of a staged run must. A ``when`` could refuse, so it does not count."""
    return not (rule.rejects_all or rule.seed is not None or rule.seed_none or rule.seed_from_deal
                or rule.rank_is is not None or rule.accept_from is not None or rule.min_count > 1
                or rule.when is not None)


def _trial_reveal(pool: int) -> int:
    raise _Revealed


class Draw:
    __slots__ = ("to", "count", "recycle", "max_recycles", "when")

    def __init__(self, to: int, count: int, recycle: bool, max_recycles: int | None,
                 when: Callable | None) -> None:
        self.to, self.count, self.recycle = to, count, recycle
        self.max_recycles, self.when = max_recycles, when


class Game:
    """A compiled game. Not thread-safe (it remembers the last move list it produced, so that
    ``apply`` of a listed move need not judge it again, and the target tables of the last
    board it listed moves for); use one per thread or process."""

    def __init__(self, spec: GameSpec, registry: Registry) -> None:
        self.spec = spec
        self.registry = registry
        self.depot_names: tuple[str, ...] = tuple(d.name for d in spec.depots)
        self.depot_index: dict[str, int] = {n: i for i, n in enumerate(self.depot_names)}
        self.n_depots = len(self.depot_names)
        self.types: tuple[str, ...] = tuple(d.type for d in spec.depots)
        self.groups: dict[str, tuple[int, ...]] = {
            g: tuple(self.depot_index[n] for n in names) for g, names in spec.groups.items()}
        self.identity: tuple[Card, ...] = tuple(dc.card for dc in spec.cards)
        self.n_cards = len(self.identity)
        self.card_value: tuple[int, ...] = tuple(self._value(c) for c in self.identity)
        self.first_stock = next((i for i, t in enumerate(self.types) if t == "Stock"), -1)
        self._interned: dict[frozenset, frozenset] = {}
        self._memo_state: State | None = None
        self._memo_moves: list[Move] = []
        self._memo_plans: dict[int, tuple[int, int]] = {}
        self.programs = programs_for(spec, registry)  # the loader's, when it checked this spec
        self._compile()
        # what the rules can read of a position (State fields and context bindings)
        self.expression_reads: frozenset[str] = self.programs.reads

    # -- compile-time helpers (also the API step, condition and aid plugins compile against) --
    def _value(self, card: Card) -> int:
        values = {k.upper(): v for k, v in self.spec.values.items()}
        if card.joker:
            return values.get("JOKER", 0)
        return values.get(RANK_LETTERS[card.rank], card.rank)

    def intern(self, s: frozenset) -> frozenset:
        """One shared object per distinct set (the accept tables repeat a lot)."""
        return self._interned.setdefault(s, s)

    def names(self, names: tuple[str, ...] | list[str]) -> tuple[int, ...]:
        """Depot indices for names; a repeated depot's shared name means all its copies."""
        out: list[int] = []
        for name in names:
            if name in self.depot_index:
                out.append(self.depot_index[name])
            elif name in self.groups:
                out.extend(self.groups[name])
            else:
                raise CardzError(f"no depot named {name!r}")
        return tuple(out)

    def pattern(self, p: Pattern | None) -> tuple[int, ...]:
        """The depots a pattern matches, in file order for a type, as listed for names."""
        if p is None:
            return ()
        if p.of_type is not None:
            low = p.of_type.lower()
            return tuple(i for i, t in enumerate(self.types) if t.lower() == low)
        return self.names(p.names or ())

    def expr(self, expr: Expr, context: str, self_depot: int = -1) -> Callable[[Any], Any]:
        """A compiled rule expression ``fn(env)``, from the game's kept program."""
        return self.programs.closure(expr, context, self_depot)

    def env(self, state: State, **bindings: Any) -> Any:
        return Env(state, **bindings)

    def self_of(self, step: Step) -> int:
        return self.depot_index[step.self_depot] if step.self_depot else -1

    def step_depot(self, step: Step, field: str, default_stock: bool = False) -> Callable[[Work], int]:
        """A step's one-depot field as ``fn(work) -> depot index`` (-1: no depot): a name, the
        first stock when omitted and ``default_stock``, or an expression read when it runs."""
        value = step.args.get(field)
        if value is None:
            if default_stock and self.first_stock >= 0:
                d = self.first_stock
                return lambda w: d
            raise CardzError([Problem(step.ptr, f"the {step.kind} step needs '{field}' "
                                                "(there is no stock to default to)")])
        if isinstance(value, Expr):
            fn, me = self.expr(value, "depotField", self.self_of(step)), self.self_of(step)
            return lambda w: fn(w.env(depot=me))
        d = self.names((value,))
        if len(d) != 1:
            raise CardzError([Problem(step.ptr, f"'{field}' must name one depot, not {value!r}")])
        one = d[0]
        return lambda w: one

    def step_depots(self, step: Step, field: str) -> Callable[[Work], tuple[int, ...]]:
        """A step's list-of-depots field as ``fn(work) -> tuple of depot indices``."""
        value = step.args.get(field)
        if isinstance(value, Expr):
            fn, me = self.expr(value, "depotsField", self.self_of(step)), self.self_of(step)
            return lambda w: tuple(d for d in fn(w.env(depot=me)) if d >= 0)
        ds = self.names((value,) if isinstance(value, str) else tuple(value or ()))
        return lambda w: ds

    def step_number(self, step: Step, field: str) -> Callable[[Work], int]:
        """A step's number field (``count``), an int or an expression read when it runs."""
        value = step.args.get(field)
        if isinstance(value, Expr):
            fn, me = self.expr(value, "count", self.self_of(step)), self.self_of(step)
            return lambda w: int(fn(w.env(depot=me)) or 0)
        n = int(value or 0)
        return lambda w: n

    def step_when(self, step: Step, field: str = "when") -> Callable[[Work, int], bool] | None:
        """A step's ``when`` as ``fn(work, depot) -> bool``, or None when it has none."""
        value = step.args.get(field)
        if value is None:
            return None
        fn = self.expr(value, "step", self.self_of(step))
        return lambda w, d: bool(fn(w.env(depot=d)))

    def condition(self, cond: Condition | None) -> Callable[[State], bool] | None:
        """A compiled win, loss or redeal condition ``fn(state) -> bool``."""
        if cond is None:
            return None
        kind = self.registry.lookup("conditions", cond.kind)
        if kind is None or getattr(kind, "compile", None) is None:
            raise CardzError([Problem(cond.ptr, f"condition kind {cond.kind!r} can't be played: "
                                                "its plugin gives no compile")])
        return kind.compile(cond, self)

    def steps(self, steps: tuple[Step, ...]) -> tuple[Executor, ...]:
        """Each step's executor, from its ``StepKind.compile(step, game)``."""
        out = []
        for step in steps:
            kind = self.registry.lookup("deal_steps", step.kind)
            if kind is None or getattr(kind, "compile", None) is None:
                raise CardzError([Problem(step.ptr, f"step kind {step.kind!r} can't be played: "
                                                    "its plugin gives no compile")])
            out.append(kind.compile(step, self))
        return tuple(out)

    # -- compile ------------------------------------------------------------------------------
    def _compile(self) -> None:
        spec = self.spec
        n = self.n_depots
        depots = spec.depots
        self.accepts = [Accept(d.accept, self, i) for i, d in enumerate(depots)]
        self.ejects = [Eject(d.eject, self, i, self.names(d.uncovered_by), d.uncovered_by_any,
                             d.loose_order) for i, d in enumerate(depots)]
        self.land_face = tuple({"Up": 1, "Down": 0}.get(d.land_face or "", -1) for d in depots)
        self.land_under = tuple(d.land_under for d in depots)
        self.any_land_under = any(self.land_under)
        self.auto_flip_top = tuple(d.auto_flip_top for d in depots)
        self.flip_uncovered = tuple(i for i, d in enumerate(depots)
                                    if d.auto_flip_uncovered and d.uncovered_by)
        self.draws: list[Draw | None] = []
        for i, d in enumerate(depots):
            dr = d.draw
            if dr is None:
                self.draws.append(None)
                continue
            when = None if dr.when is None else self.expr(dr.when, "draw", i)
            self.draws.append(Draw(self.names((dr.to,))[0], dr.count, dr.recycle,
                                   dr.max_recycles, when))
        self.sources = tuple(i for i in range(n) if self.ejects[i].gate != LOCKED)
        # per source: what may be picked depends on the pile alone unless it can be covered
        self.source_info = tuple((i, self.ejects[i], None if self.ejects[i].covered_by else {})
                                 for i in self.sources)
        # a depot that draws takes no drops
        self.drop_targets = tuple(d for d in range(n)
                                  if not self.accepts[d].none and self.draws[d] is None)
        self.target_rows = tuple(
            (d, a.on_top, a.on_down, None if a.seed_from_deal else a.on_empty(0), a.empty_only, a)
            for d, a in ((d, self.accepts[d]) for d in self.drop_targets))
        # moves are made once and listed again (cheaper than a new tuple each listing, and
        # apply's `move in` the last list then matches by identity first)
        self.tap_moves = tuple(Move(d, -1, -1) for d in range(n))
        self.made_moves: dict[int, Move] = {}  # (src * n + dst) * (cards + 1) + index -> Move
        self.target_row_of: tuple = tuple(
            next((row for row in self.target_rows if row[0] == d), None) for d in range(n))
        self._want_piles: tuple | None = None  # what ``_wanted`` last saw, and its tables
        self._want_seed = 0
        self._want: dict[int, list[int]] = {}
        self._want_tabs: list = []
        self._want_broad_of: dict[int, frozenset[int] | None] = {}
        self._want_broad: list = []
        self.down_targets = tuple(d for d in self.drop_targets if self.accepts[d].may_take_down)
        self.auto_send = tuple((i, tuple(t for t in self.pattern(d.auto_send) if t != i))
                               for i, d in enumerate(depots) if d.auto_send is not None)
        self.auto_refill = tuple((i, tuple(t for t in self.pattern(d.auto_refill) if t != i))
                                 for i, d in enumerate(depots) if d.auto_refill is not None)
        self.triggers = []
        self.actions: list[tuple[tuple[Callable | None, tuple[Executor, ...], str], ...]] = []
        for i, d in enumerate(depots):
            for t in d.triggers:
                self.triggers.append((i, self.expr(t.when, "trigger", i), self.steps(t.do), t.ptr))
            self.actions.append(tuple(
                (None if a.when is None else self.expr(a.when, "action", i), self.steps(a.do), a.ptr)
                for a in d.actions))
        self.deal_steps = self.steps(spec.deal)
        self.redeal_steps = self.steps(spec.redeal)
        self.redeal_when = self.condition(spec.redeal_when)
        self.redeal_stocks, self.redeal_gathers = self._redeal_stocks()
        self.tappable = tuple(i for i in range(n) if self.draws[i] is not None or self.actions[i]
                              or i in self.redeal_stocks)
        self.win = self.condition(spec.win)
        self.loss = self.condition(spec.loss)
        self.score_fn = None if spec.scoring is None else self.expr(spec.scoring.value, "scoring")
        self.settles = bool(self.auto_send or self.auto_refill or self.triggers or self.flip_uncovered)
        self.staged = spec.compound_moves == "Staged"
        # card moves that ``_plain_move`` may make without a ``Work``
        self.plain_drop = tuple(not self.settles and self.land_face[d] == -1
                                and not self.land_under[d] for d in range(n))
        # draws that ``_plain_draw`` may make without a ``Work``
        self.plain_draw = tuple(
            dr is not None and dr.to != d and not self.settles and not self.auto_flip_top[d]
            and self.land_face[dr.to] != 0 and not self.land_under[dr.to]
            for d, dr in enumerate(self.draws))
        # the empty depots a Staged move may park cards on: see ``staged_limit``
        self.cells = tuple(i for i, t in enumerate(self.types)
                           if t == "Cell" and _parks_any_card(depots[i].accept))
        self.tableaus = tuple(i for i, t in enumerate(self.types)
                              if t == "Tableau" and _parks_any_card(depots[i].accept))
        self.aids: dict[str, Callable[[int], Any]] = {}
        for name, value in spec.aids.items():
            aid = self.registry.lookup("aids", name)
            if aid is not None and getattr(aid, "compile", None) is not None:
                self.aids[name] = aid.compile(value, self)
        self.seed_depots = tuple(i for i, d in enumerate(depots) if d.accept.seed_from_deal)

    def _redeal_stocks(self) -> tuple[frozenset[int], frozenset[int]]:
        """Which stocks a redeal is tapped from: the sources of its dealGroups (the first stock
        by default) and the stocks it gathers into; and, of those, the gathered-into ones,
        which are tapped only once empty, like a recycle."""
        if not self.spec.redeal:
            return frozenset(), frozenset()
        stocks: set[int] = set()
        gathers: set[int] = set()
        for step in self.spec.redeal:
            if step.kind == "dealGroup":
                src = step.args.get("from")
                if isinstance(src, str):
                    stocks.update(self.names((src,)))
                elif src is None and self.first_stock >= 0:
                    stocks.add(self.first_stock)
            elif step.kind == "gather" and isinstance(step.args.get("to"), str):
                to = self.names((step.args["to"],))[0]
                if self.types[to] == "Stock":
                    stocks.add(to)
                    gathers.add(to)
        if not stocks and self.first_stock >= 0:
            stocks.add(self.first_stock)
        return frozenset(stocks), frozenset(gathers)

    # -- deal ---------------------------------------------------------------------------------
    def deal(self, seed: int) -> State:
        """The opening deal for ``seed``: each pack group shuffled into its depot, then the
        deal steps; no automatic moves or triggers follow it."""
        n = self.n_depots
        groups: dict[int, list[int]] = {}
        for cid, dc in enumerate(self.spec.cards):
            to = self.spec.packs[dc.pack].to
            d = self.names((to,))[0] if to is not None else self.first_stock
            if d < 0:
                raise CardzError("the game has no Stock for packs without 'to'")
            groups.setdefault(d, []).append(cid)
        r = _rng.seed_state(seed)
        piles: list[tuple[int, ...]] = [()] * n
        for d, ids in groups.items():
            r = _rng.shuffle(r, ids)
            piles[d] = tuple(cid << 1 for cid in ids)
        state = State(tuple(piles), (-1,) * n, (0,) * n, declared=(-1,) * n, rng=r)
        w = Work(self, state)
        for step in self.deal_steps:
            step(w)
        out = self._freeze(w, state)
        out.seed_rank = self._deal_seed(out.piles)
        out.came_from = (-1,) * n
        out.status = self._judge(out)
        return out

    def _deal_seed(self, piles: tuple) -> int:
        for d in self.seed_depots:
            for c in piles[d]:
                if c & 1:
                    return self.identity[c >> 1].rank
        return 0

    # -- legal moves ----------------------------------------------------------------------------
    def legal_moves(self, state: State) -> list[Move]:
        """Every legal move: card moves by source, position, target (each in index order), then
        taps in depot order. Empty once the game is over. Works on views."""
        if state.status != PLAYING:
            return []
        return list(self._moves(state))

    def _moves(self, state: State) -> list[Move]:
        """The moves of ``state``, remembered for the last state asked about (the win/loss
        check of ``apply`` and the player's next ``legal_moves`` ask about the same one)."""
        if state is self._memo_state:
            return self._memo_moves
        self._memo_plans = {}
        moves = self._free_moves(state) if state.rules_off else self._card_moves(state)
        for d in self.tappable:
            plan = self._tap_plan(state, d)
            if plan is not None:
                self._memo_plans[d] = plan
                moves.append(self.tap_moves[d])
        self._memo_state, self._memo_moves = state, moves
        return moves

    def moves_from(self, state: State, depots: tuple[int, ...]) -> list[Move]:
        """The legal moves whose source is one of ``depots``, in ``legal_moves`` order (card
        moves, then taps): what a search needs when only those piles changed. Not remembered."""
        if state.status != PLAYING:
            return []
        if state.rules_off:
            return [m for m in self._free_moves(state) if m.src in depots]
        moves = self._card_moves(state, depots)
        for d in self.tappable:
            if d in depots and self._tap_plan(state, d) is not None:
                moves.append(self.tap_moves[d])
        return moves

    def _card_moves(self, state: State, only: tuple[int, ...] | None = None,
                    first: bool = False) -> list[Move]:
        """The card moves of ``state`` (from the ``only`` depots if given; just the first one
        found if ``first``)."""
        piles = state.piles
        accepts = self.accepts
        want, broad = self._wanted(state)
        moves: list[Move] = []
        add = moves.append
        identity = self.identity
        wget = want.get
        made, n, stride = self.made_moves, self.n_depots, self.n_cards + 1
        for s, ej, cache in self.source_info:
            pile = piles[s]
            if not pile or only is not None and s not in only:
                continue
            picked = cache.get(pile) if cache is not None else None
            if picked is None:
                picked = ej.picked(piles, pile)
                if cache is not None:
                    if len(cache) > _PICK_CACHE:
                        cache.clear()
                    cache[pile] = picked
            for i, c in picked:
                if c & 1:
                    found = wget(c)
                    if broad:
                        found = sorted(set(found or ()).union(
                            d for d, tab in broad if tab is None or c in tab))
                else:  # a face-down bottom card: judged in full where it could land
                    found = self.down_targets
                if not found:
                    continue
                group = ej.split(pile, i)[0]
                for d in found:
                    if d == s:
                        continue
                    acc = accepts[d]
                    if acc.from_set is not None and s not in acc.from_set:
                        continue
                    if not self._group_ok(state, piles, s, group, d, acc, ej.vouched):
                        continue
                    top = group[-1]
                    if first:
                        return [Move(s, i, d, -1)]
                    if acc.declares_suit and top & 1 and acc.wild(identity[top >> 1]):
                        moves.extend(Move(s, i, d, suit) for suit in range(4))
                    else:
                        key = (s * n + d) * stride + i
                        m = made.get(key) if i < stride else None
                        if m is None:
                            m = new_move(Move, (s, i, d, -1))
                            if i < stride:
                                made[key] = m
                        add(m)
        return moves

    def _wanted(self, state: State) -> tuple[dict[int, list[int]], list]:
        """Per target, the face-up bottom codes it takes now. Small tables are inverted into
        ``want`` (code -> targets in index order) so that a pick costs one dict lookup; large
        tables and tops whose meaning depends on the board (None) go to ``broad``
        ((target, table or None), in index order) and are judged per pick, as are face-down
        drops. A target's table depends on its pile (and the seed rank) alone, so ``want`` and
        ``broad`` are kept from the last call and only the targets whose pile is not the same
        object any more are looked at again (piles are shared tuples)."""
        piles = state.piles
        prev = self._want_piles
        self._want_piles = None  # until ``want`` is consistent again
        if prev is None or self._want_seed != state.seed_rank:
            want: dict[int, list[int]] = {}
            tabs: list = [None] * self.n_depots
            broad_of: dict[int, frozenset[int] | None] = {}
            changed = self.drop_targets
            broad_changed = True
        else:
            want, tabs, broad_of = self._want, self._want_tabs, self._want_broad_of
            broad_changed = False
            if piles is prev:
                return want, self._want_broad
            changed = [d for d in self.drop_targets if piles[d] is not prev[d]]
        rows = self.target_row_of
        for d in changed:
            old = tabs[d]
            if old is not None:
                for c in old:
                    got = want[c]
                    got.remove(d)
                    if not got:
                        del want[c]
                tabs[d] = None
            if d in broad_of:
                del broad_of[d]
                broad_changed = True
            _d, on_top, on_down, empty_tab, empty_only, acc = rows[d]
            pile = piles[d]
            if pile:
                if empty_only:
                    continue
                t = pile[-1]
                tab = on_top.get(t) if t & 1 else on_down
                if tab is None:
                    broad_of[d] = None
                    broad_changed = True
                    continue
            else:
                tab = empty_tab if empty_tab is not None else acc.on_empty(state.seed_rank)
            if len(tab) > _BROAD:
                broad_of[d] = tab
                broad_changed = True
            else:
                tabs[d] = tab
                for c in tab:
                    got = want.get(c)
                    if got is None:
                        want[c] = [d]
                    else:
                        insort(got, d)
        if broad_changed:
            self._want_broad = [(d, broad_of[d]) for d in sorted(broad_of)]
        self._want, self._want_tabs, self._want_broad_of = want, tabs, broad_of
        self._want_piles, self._want_seed = piles, state.seed_rank
        return want, self._want_broad

    def _group_ok(self, state: State, piles: Any, s: int, group: tuple[int, ...], d: int,
                  acc: Accept, vouched: bool) -> bool:
        """Whether ``group``, whose bottom card the target's table already took, lands on ``d``
        (the short path of ``Accept.reason`` for rules without ``when`` or board-dependent
        wilds; anything unusual goes to the full judgement)."""
        n = len(group)
        if not acc.fast:
            return self._drop_reason(state, piles, s, group, d, vouched, None) is None
        if not group[0] & 1:
            return self._drop_reason(state, piles, s, group, d, vouched, None) is None
        if n == 1 and acc.simple:
            return True
        if n < acc.min_count or (n > 1 and acc.single):
            return False
        if vouched:
            if acc.rank_is is not None:
                return self._drop_reason(state, piles, s, group, d, vouched, None) is None
        else:
            on_top = acc.on_top
            prev = group[0]
            for k in range(1, n):
                cur = group[k]
                if not cur & 1:
                    return self._drop_reason(state, piles, s, group, d, vouched, None) is None
                tab = on_top.get(prev)
                if tab is None or cur not in tab:
                    return False
                prev = cur
        return not (self.staged and n > 1 and n > self.staged_limit(piles, d))

    def _free_moves(self, state: State) -> list[Move]:
        """Rules off: any card with everything above it, to any other depot; taps as usual."""
        return [Move(s, i, d) for s, pile in enumerate(state.piles) for i in range(len(pile))
                for d in range(self.n_depots) if d != s]

    def _drop_reason(self, state: Any, piles: Any, src: int, group: tuple[int, ...], dst: int,
                     vouched: bool, declare: int | None) -> str | None:
        why = self.accepts[dst].reason(self, state, piles, src, group, vouched, declare)
        if why is None and self.staged and len(group) > 1:
            limit = self.staged_limit(piles, dst)
            if len(group) > limit:
                return f"only {limit} cards can move at once now"
        return why

    def staged_limit(self, piles: Any, dst: int) -> int:
        """``compoundMoves: Staged``: (1 + empty cells) * 2^(empty tableau piles), the target
        not counted. A staged move stands for single-card moves through the empty depots, so
        only those that take any card when empty count: in Seahaven Towers an empty column
        that takes only a King cannot hold the middle of a run."""
        cells = sum(1 for c in self.cells if not piles[c] and c != dst)
        cols = sum(1 for t in self.tableaus if not piles[t] and t != dst)
        return (1 + cells) << cols

    def illegal_reason(self, state: State, move: Move) -> str | None:
        """Why ``move`` is not legal in ``state``, or None when it is."""
        if state.status != PLAYING:
            return "the game is over"
        n = self.n_depots
        s, i, d = move.src, move.index, move.dst
        if not 0 <= s < n:
            return f"there is no depot {s}"
        if i < 0:
            if i != -1 or d != -1:
                return "a tap has index -1 and no target"
            plan = self._memo_plans.get(s) if state is self._memo_state else \
                self._tap_plan(state, s)
            if plan is None:
                return f"tapping {self.depot_names[s]} does nothing now"
            return None
        if not 0 <= d < n:
            return f"there is no depot {d}"
        if d == s:
            return "a card can't move onto its own depot"
        piles = state.piles
        if not 0 <= i < len(piles[s]):
            return f"{self.depot_names[s]} has no card at position {i}"
        if state.rules_off:
            return None if move.declare == -1 else "no suit is called while the rules are off"
        ej = self.ejects[s]
        why = ej.why(self, piles, i)
        if why is not None:
            return why
        if ej.unit == "Pile" and i != ej.picks(piles, piles[s])[0]:
            return (f"the whole of {self.depot_names[s]} moves as one: pick it up at position "
                    f"{ej.picks(piles, piles[s])[0]}")
        if self.draws[d] is not None:
            return f"{self.depot_names[d]} takes no drops: it is tapped"
        if not 0 <= move.declare < 4 and move.declare != -1:
            return f"{move.declare} is not a suit"
        group = ej.split(piles[s], i)[0]
        return self._drop_reason(state, piles, s, group, d, ej.vouched, move.declare)

    # -- taps --------------------------------------------------------------------------------
    def _tap_plan(self, state: State, d: int) -> tuple[int, int] | None:
        """What tapping depot ``d`` would do now: (kind, action number), or None for nothing.
        Order: a draw (or recycle), then a redeal from this stock, then the first action
        whose ``when`` holds."""
        dr = self.draws[d]
        piles = state.piles
        if dr is not None and (dr.when is None or dr.when(self.env(state, depot=d))):
            if piles[d]:
                if dr.count > 0:
                    return (_TAP_DRAW, 0)
            elif dr.recycle and piles[dr.to] and d != dr.to and (
                    dr.max_recycles is None
                    or (state.recycles[d] if state.recycles else 0) < dr.max_recycles):
                return (_TAP_RECYCLE, 0)
        if d in self.redeal_stocks and self._redeal_ready(state, d) and \
                self._trial(state, self.redeal_steps, d):
            return (_TAP_REDEAL, 0)
        for k, (when, steps, _ptr) in enumerate(self.actions[d]):
            if when is None or when(self.env(state, depot=d)):
                return (_TAP_ACTION, k) if self._trial(state, steps, d) else None
        return None

    def _redeal_ready(self, state: State, d: int) -> bool:
        if self.spec.max_redeals is not None and state.redeals >= self.spec.max_redeals:
            return False
        if d in self.redeal_gathers and state.piles[d]:
            return False
        return self.redeal_when is None or self.redeal_when(state)

    def _trial(self, state: State, steps: tuple[Executor, ...], d: int) -> bool:
        """Whether running ``steps`` would change the board (a tap is listed only then)."""
        w = Work(self, state, _trial_reveal)
        w.self_depot = d
        try:
            for step in steps:
                step(w)
        except _Revealed:
            return True
        return tuple(w.piles) != state.piles

    def _tap(self, w: Work, state: State, d: int) -> None:
        if state is self._memo_state:
            plan = self._memo_plans.get(d)
        else:
            plan = self._tap_plan(state, d)
        if plan is None:
            raise IllegalMove(f"tapping {self.depot_names[d]} does nothing now")
        kind, k = plan
        if kind == _TAP_DRAW:
            dr = self.draws[d]
            assert dr is not None
            for _ in range(dr.count):
                cards = w.take_top(d, 1)
                if not cards:
                    break
                self._land(w, dr.to, (w.up(cards[0]),), d)
        elif kind == _TAP_RECYCLE:
            dr = self.draws[d]
            assert dr is not None
            pile = w.piles[dr.to]
            w.set_pile(dr.to, ())
            w.put(d, tuple(w.down(c) for c in reversed(pile)), dr.to)
            rec = list(w.recycles) if w.recycles else [0] * self.n_depots
            rec[d] += 1
            w.recycles = tuple(rec)
            w.recycles_total += 1
        elif kind == _TAP_REDEAL:
            w.self_depot = d
            for step in self.redeal_steps:
                step(w)
            w.redeals += 1
        else:
            w.self_depot = d
            for step in self.actions[d][k][1]:
                step(w)

    # -- apply ---------------------------------------------------------------------------------
    def apply(self, state: State, move: Move, reveal: Reveal | None = None) -> State:
        """The position after ``move`` and everything that follows from it: the move, flips,
        automatic moves and triggers until the board settles, then the win/loss check.
        Raises ``IllegalMove`` saying why when the move is not legal."""
        if state.status != PLAYING or not (state is self._memo_state and move in self._memo_moves):
            why = self.illegal_reason(state, move)
            if why is not None:
                raise IllegalMove(why)
        out = None
        if state.rules_off:
            pass
        elif move.index >= 0:
            if self.plain_drop[move.dst]:
                out = self._plain_move(state, move)
        elif self.plain_draw[move.src]:
            s = move.src
            plan = self._memo_plans.get(s) if state is self._memo_state else \
                self._tap_plan(state, s)
            if plan is not None and plan[0] == _TAP_DRAW:
                out = self._plain_draw(state, s)
        if out is None:
            out = self._freeze(self._play(state, move, reveal), state)
        out.moves = state.moves + 1
        if not out.rules_off:
            out.status = self._judge(out)
        return out

    def _plain_draw(self, state: State, d: int) -> State | None:
        """The draw of ``_tap`` (cards one at a time from the stock's top onto ``to``, each
        turned up) without a ``Work``, for a stock that doesn't flip its own top, onto a
        target without ``landUnder`` or ``landFace: Down``, in a game with nothing that
        settles. None (use ``_play``) when a drawn card is an unknown card to reveal."""
        dr = self.draws[d]
        to = dr.to
        piles = list(state.piles)
        n = self.n_depots
        came = list(state.came_from) if state.came_from else [-1] * n
        decl = list(state.declared) if state.declared else [-1] * n
        pile, dest = piles[d], piles[to]
        for _ in range(dr.count):
            if not pile:
                break
            c = pile[-1]
            if not c & 1:
                if c < 0:
                    return None
                c |= 1
            rest = pile[:-1]
            if not rest or rest[-1] != pile[-1]:
                decl[d] = -1
            pile = rest
            new = dest + (c,)
            if not dest or c != dest[-1]:
                decl[to] = -1
            dest = new
            came[to] = d
        came[d] = -1
        piles[d], piles[to] = pile, dest
        return self._plain_state(state, piles, came, decl)

    def _plain_move(self, state: State, move: Move) -> State | None:
        """``_play`` and ``_freeze`` of a card move in a game with nothing that settles, onto
        a target without ``landFace`` or ``landUnder``: the same pile, ``came_from`` and
        ``declared`` updates as ``Work.set_pile``, ``take`` and ``put`` make, without a
        ``Work``. None (use ``_play``) when the source's new top is an unknown card to reveal."""
        s, i, d, declare = move
        piles = list(state.piles)
        n = self.n_depots
        came = list(state.came_from) if state.came_from else [-1] * n
        decl = list(state.declared) if state.declared else [-1] * n
        old = piles[s]
        group, rest = self.ejects[s].split(old, i)
        if not rest or not old or rest[-1] != old[-1]:
            decl[s] = -1
        came[s] = -1
        if self.auto_flip_top[s] and rest and not rest[-1] & 1:
            top = rest[-1]
            if top < 0:
                return None
            rest = rest[:-1] + (top | 1,)
            decl[s] = -1
        piles[s] = rest
        old = piles[d]
        new = old + group
        if not old or new[-1] != old[-1]:
            decl[d] = -1
        piles[d] = new
        came[d] = s
        if declare >= 0:
            decl[d] = declare
        return self._plain_state(state, piles, came, decl)

    @staticmethod
    def _plain_state(state: State, piles: list, came: list, decl: list) -> State:
        out = state.copy()
        out.piles = tuple(piles)
        out.came_from = tuple(came)
        out.declared = tuple(decl)
        return out

    def _play(self, state: State, move: Move, reveal: Reveal | None) -> Work:
        w = Work(self, state, reveal)
        s = move.src
        if move.index < 0:
            self._tap(w, state, s)
        else:
            pile = w.piles[s]
            if state.rules_off:
                group, rest = pile[move.index:], pile[:move.index]
            else:
                group, rest = self.ejects[s].split(pile, move.index)
            w.set_pile(s, rest)
            w.came_from[s] = -1
            self._land(w, move.dst, group, s, move.declare)
        if self.settles and not state.rules_off:
            self._settle(w)
        elif w.left:
            self._flip_tops(w)
        return w

    def _land(self, w: Work, d: int, group: tuple[int, ...], src: int, declare: int = -1) -> None:
        """Cards arriving on ``d`` by a player's move, a draw or an automatic move:
        ``landFace`` turns them, ``landUnder`` puts them beneath."""
        face = self.land_face[d]
        if face == 1:
            group = tuple(w.up(c) for c in group)
        elif face == 0:
            group = tuple(w.down(c) for c in group)
        w.put(d, group, src, self.land_under[d])
        if declare >= 0:
            w.declared[d] = declare

    def _flip_tops(self, w: Work) -> None:
        """``autoFlipTop`` for the depots that lost cards; ``autoFlipUncovered`` for all."""
        if w.left:
            left = w.left
            w.left = set()
            for d in sorted(left):
                if self.auto_flip_top[d]:
                    w.flip_top(d)
        for d in self.flip_uncovered:
            pile = w.piles[d]
            if pile and not pile[-1] & 1 and not self.ejects[d].covered(w.piles):
                w.flip_top(d)

    def _settle(self, w: Work) -> None:
        """Flips, then one automatic move (autoSend, then autoRefill), or else one pass of the
        triggers, repeated until nothing changes; bounded by ``MAX_CASCADE``."""
        budget = MAX_CASCADE
        last = ""
        while True:
            self._flip_tops(w)
            what = self._auto_move(w)
            if what is None:
                before = tuple(w.piles)
                for d, when, steps, ptr in self.triggers:
                    if when(w.env(depot=d)):
                        ran = tuple(w.piles)
                        w.self_depot = d
                        for step in steps:
                            step(w)
                        if tuple(w.piles) != ran:
                            budget -= 1
                            last = f"the trigger at {ptr}"
                            self._flip_tops(w)
                            if budget < 0:
                                break
                if tuple(w.piles) == before:
                    return
            else:
                budget -= 1
                last = what
            if budget < 0:
                raise CardzError(f"the board did not settle within {MAX_CASCADE} automatic moves "
                                 f"and trigger runs (limits.MAX_CASCADE); the last was {last}")

    def _auto_move(self, w: Work) -> str | None:
        """Make the first automatic move available; say which, or None."""
        if not (self.auto_send or self.auto_refill):
            return None
        state = w.state()
        piles = state.piles
        for s, targets in self.auto_send:
            pile = piles[s]
            if not pile:
                continue
            ej = self.ejects[s]
            for i in ej.picks(piles, pile):
                group, rest = ej.split(pile, i)
                for d in targets:
                    if self._drop_reason(state, piles, s, group, d, ej.vouched, None) is None:
                        w.set_pile(s, rest)
                        w.came_from[s] = -1
                        self._land(w, d, group, s)
                        return f"autoSend from {self.depot_names[s]}"
        for d, sources in self.auto_refill:
            if piles[d]:
                continue
            for s in sources:
                pile = piles[s]
                if not pile or self.ejects[s].why(self, piles, len(pile) - 1) is not None:
                    continue
                group = (pile[-1],)
                if self._drop_reason(state, piles, s, group, d, True, None) is None:
                    w.set_pile(s, pile[:-1])
                    w.came_from[s] = -1
                    self._land(w, d, group, s)
                    return f"autoRefill of {self.depot_names[d]}"
        return None

    def _freeze(self, w: Work, state: State) -> State:
        """The new position: ``state`` with the work's piles and memory."""
        s = state.copy()
        s.piles = tuple(w.piles)
        s.came_from = tuple(w.came_from)
        s.recycles = w.recycles
        s.redeals = w.redeals
        s.recycles_total = w.recycles_total
        s.declared = tuple(w.declared)
        s.rng = w.rng
        return s

    # -- ends, scores, undo, rules -----------------------------------------------------------
    def _judge(self, state: State) -> int:
        if self.win is not None and self.win(state):
            return WON
        if self.loss is not None and self.loss(state):
            return LOST
        return PLAYING

    def status(self, state: State) -> int:
        return state.status

    def no_legal_moves(self, state: State) -> bool:
        """``noLegalMoves``: no move counts, where a move onto a ``landUnder`` depot counts
        only if it turns a card face-up."""
        # a tap always counts: asking the stocks first spares listing every card move in the
        # common case of a game with a stock (this check runs after every move)
        for d in self.tappable:
            if self._tap_plan(state, d) is not None:
                return False
        if not self.any_land_under and not state.rules_off:
            return not self._card_moves(state, first=True)  # stop at the first card move
        for move in self._moves(state):
            if move.index < 0 or not self.land_under[move.dst]:
                return False
            try:
                w = self._play(state, move, _trial_reveal)
            except _Revealed:
                return False
            if w.flips:
                return False
        return True

    def score_value(self, state: State) -> int | None:
        """The scoring value on this board (what the player sees), None without ``scoring``."""
        if self.score_fn is None:
            return None
        return int(self.score_fn(self.env(state)))

    def score(self, state: State) -> int | None:
        """The score this deal keeps: None without ``scoring`` or ``winCondition``, once the
        rules have been off or automatic play was used (``auto_moved``), or (``keep: Won``)
        for a deal that ended lost; while playing, the current value."""
        spec = self.spec
        if self.score_fn is None or spec.win is None or state.rules_off or state.auto_moved:
            return None
        if state.status == LOST and spec.scoring is not None and spec.scoring.keep == "Won":
            return None
        return self.score_value(state)

    def undo(self, before: State, after: State) -> State:
        """``before`` again, with ``moves`` kept from ``after`` and ``undos`` + 1."""
        out = before.copy()
        out.moves = after.moves
        out.undos = after.undos + 1
        out.auto_moved = after.auto_moved
        return out

    def set_rules(self, state: State, on: bool) -> State:
        """Switch the rules on or off. Off: every depot takes and releases any cards, no
        automatic moves or triggers, no win/loss; the deal keeps no score after that."""
        out = state.copy()
        out.rules_off = not on
        if not on:
            out.auto_moved = True  # the deal's score is void from now on
        out.status = PLAYING if not on else self._judge(out)
        return out

    def aid(self, name: str, card_id: int) -> Any:
        """What card aid ``name`` prints on a card (``pairSum``: a rank, or None)."""
        fn = self.aids.get(name)
        return None if fn is None else fn(card_id)

    # -- documents and text (cardz_core.engine.documents / movetext) ---------------------------
    def move_text(self, move: Move) -> str:
        from cardz_core.engine.movetext import move_text

        return move_text(self, move)

    def parse_move(self, value: Any) -> Move:
        from cardz_core.engine.movetext import parse_move

        return parse_move(self, value)

    def board_document(self, state: State) -> dict:
        from cardz_core.engine.documents import board_document

        return board_document(self, state)

    def view(self, state: State, memory: Any = None) -> State:
        """The player's view of ``state`` (``cardz_core.view.view``; ``memory`` a ``Memory``)."""
        from cardz_core.view import view

        return view(self, state, memory)

    def outcomes(self, view: State, move: Move, limit: int | None = None) -> Any:
        """What ``move`` may lead to on a view (``cardz_core.view.outcomes``)."""
        from cardz_core.view import outcomes

        return outcomes(self, view, move, limit)

    def load_board(self, doc: Any) -> State:
        from cardz_core.engine.documents import load_board

        return load_board(self, doc)


def compile(spec: GameSpec, registry: Registry | None = None) -> Game:  # noqa: A001
    """Compile a loaded game once; the ``Game`` then deals and plays it."""
    return Game(spec, registry or default_registry())
