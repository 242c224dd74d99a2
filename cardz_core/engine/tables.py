"""The tables a ``Game`` plays from, built once from a ``CompiledGame``: per-depot ``Accept``
and ``Eject`` objects, draw plans, the move generator's target rows, and the closures of step
executors (each ``StepKind.compile``), conditions (``ConditionKind.compile``), card aids and
expressions. The methods here are also the API step, condition and aid plugins compile
against (docs/plugins.md)."""

from __future__ import annotations

from functools import cached_property
from typing import Any, Callable, TypeVar

from cardz_core.cards import JOKER, Card
from cardz_core.compiled.build import depot_indices, pattern_indices
from cardz_core.compiled.game import CompiledGame
from cardz_core.compiled.records import (AcceptTable, BuildRule, ConditionData, ExprRef,
                                         StepData)
from cardz_core.engine.accept import Accept
from cardz_core.engine.base import AcceptTables
from cardz_core.engine.eject import LOCKED, Eject
from cardz_core.engine.moves import Move
from cardz_core.engine.state import State
from cardz_core.engine.work import Work
from cardz_core.expr.api import programs_for
from cardz_core.expr.closure import closure
from cardz_core.expr.env import Env
from cardz_core.kinds import Aid, ConditionKind, StepKind
from cardz_core.problems import CardzError, Problem, pointer
from cardz_core.registry import Registry
from cardz_core.spec.model import GameSpec, Pattern

Executor = Callable[[Work], None]
Test = Callable[[State], bool]
# a target row of the move generator: (depot, on_top, on_down, empty table or None, empty_only,
# its Accept)
TargetRow = tuple[int, dict[int, frozenset[int]], frozenset[int], "frozenset[int] | None", bool,
                  Accept]


class Draw:
    """A depot's draw plan: tapped, it turns ``count`` cards onto ``to``."""

    __slots__ = ("to", "count", "recycle", "max_recycles", "when")

    def __init__(self, to: int, count: int, recycle: bool, max_recycles: int | None,
                 when: Callable[[Env], Any] | None) -> None:
        self.to, self.count, self.recycle = to, count, recycle
        self.max_recycles, self.when = max_recycles, when


def parks_any_card(rule: AcceptTable) -> bool:
    """Whether an empty depot with accept rule ``rule`` takes any card from any depot, as a
    place to park part of a staged run must. A ``when`` could refuse, so it does not count."""
    return not (rule.rejects_all or rule.seed is not None or rule.seed_none or rule.seed_from_deal
                or rule.rank_is is not None or rule.accept_from is not None or rule.min_count > 1
                or rule.when is not None)

T = TypeVar("T")


class GameTables:
    """A compiled game's tables, and the compile-time API of plugins."""

    def __init__(self, compiled: CompiledGame, registry: Registry, spec: GameSpec) -> None:
        self.compiled = compiled
        self.registry = registry
        self.spec = spec  # for showing (name, description) and for expression closures
        self._derived: dict[Callable[[Any], Any], Any] = {}  # see ``derive``
        # the run-time tables expression programs read (the loader's, when it checked the spec)
        self.programs = programs_for(spec, registry)
        # what the rules can read of a position (State fields and context bindings)
        self.expression_reads: frozenset[str] = self.programs.reads
        c = compiled
        self.depot_names: tuple[str, ...] = c.depot_names
        self.depot_index: dict[str, int] = {n: i for i, n in enumerate(self.depot_names)}
        self.n_depots = n = len(self.depot_names)
        self.types: tuple[str, ...] = c.types
        self.roles: tuple[str, ...] = c.roles
        self.groups: dict[str, tuple[int, ...]] = dict(c.groups)
        self.identity: tuple[Card, ...] = tuple(
            JOKER if rank == 0 else Card(rank, suit) for rank, suit in zip(c.card_rank, c.card_suit))
        self.n_cards = len(self.identity)
        self.card_value: tuple[int, ...] = c.card_value
        self.first_stock = c.first_stock
        self._interned: dict[frozenset[int], frozenset[int]] = {}
        self.accept_tables: dict[AcceptTable, AcceptTables] = {}
        self.run_tables: dict[tuple[BuildRule | None, str], dict[int, frozenset[int]]] = {}
        self.accepts = [Accept(c.accepts[i], self, i) for i in range(n)]
        self.ejects = [Eject(c.ejects[i], self, i) for i in range(n)]
        self.land_face = c.land_face
        self.land_under = c.land_under
        self.any_land_under = any(self.land_under)
        self.auto_flip_top = c.auto_flip_top
        self.flip_uncovered = tuple(i for i in range(n)
                                    if c.auto_flip_uncovered[i] and c.ejects[i].covered_by)
        self.draws: list[Draw | None] = [
            None if dr is None else Draw(dr.to, dr.count, dr.recycle, dr.max_recycles,
                                         None if dr.when is None else self.expr(dr.when))
            for dr in c.draws]
        self.sources = tuple(i for i in range(n) if self.ejects[i].gate != LOCKED)
        # per source: what may be picked depends on the pile alone unless it can be covered
        self.source_info: tuple[tuple[int, Eject, dict[Any, Any] | None], ...] = tuple(
            (i, self.ejects[i], None if self.ejects[i].covered_by else {}) for i in self.sources)
        # a depot that draws takes no drops
        self.drop_targets = tuple(d for d in range(n)
                                  if not self.accepts[d].none and self.draws[d] is None)
        # moves are made once and listed again (cheaper than a new tuple each listing, and
        # apply's `move in` the last list then matches by identity first)
        self.tap_moves = tuple(Move(d, -1, -1) for d in range(n))
        self.made_moves: dict[int, Move] = {}  # (src * n + dst) * (cards + 1) + index -> Move
        self.down_targets = tuple(d for d in self.drop_targets if self.accepts[d].may_take_down)
        self.auto_send = tuple((i, t) for i, t in enumerate(c.auto_send) if t is not None)
        self.auto_refill = tuple((i, t) for i, t in enumerate(c.auto_refill) if t is not None)
        self.triggers = [(t.depot, self.expr(t.when), self.steps(t.do), t.ptr) for t in c.triggers]
        self.actions: list[tuple[tuple[Callable[[Env], Any] | None, tuple[Executor, ...], str], ...]] = [
            tuple((None if a.when is None else self.expr(a.when), self.steps(a.do), a.ptr)
                  for a in acts) for acts in c.actions]
        self.deal_steps = self.steps(c.deal)
        self.redeal_steps = self.steps(c.redeal)
        self.redeal_when = self.condition(c.redeal_when)
        self.redeal_stocks, self.redeal_gathers = self._redeal_stocks()
        self.tappable = tuple(i for i in range(n) if self.draws[i] is not None or self.actions[i]
                              or i in self.redeal_stocks)
        self.win = self.condition(c.win)
        self.loss = self.condition(c.loss)
        self.score_fn = None if c.scoring is None else self.expr(c.scoring.value)
        self.settles = bool(self.auto_send or self.auto_refill or self.triggers or self.flip_uncovered)
        self.staged = c.staged
        # card moves that ``_plain_move`` may make without a ``Work``
        self.plain_drop = tuple(not self.settles and self.land_face[d] == -1
                                and not self.land_under[d] for d in range(n))
        # draws that ``_plain_draw`` may make without a ``Work``
        self.plain_draw = tuple(
            dr is not None and dr.to != d and not self.settles and not self.auto_flip_top[d]
            and not self.land_under[dr.to]
            for d, dr in enumerate(self.draws))
        # the empty depots a Staged move may park cards on: see ``staged_limit``
        self.cells = tuple(i for i in range(n)
                           if c.parks[i] == "cell" and parks_any_card(c.accepts[i]))
        self.tableaus = tuple(i for i in range(n)
                              if c.parks[i] == "column" and parks_any_card(c.accepts[i]))
        self.aids: dict[str, Callable[[int], Any]] = {}
        for name, value in c.aids.items():
            aid = self.registry.lookup("aids", name)
            if isinstance(aid, Aid) and aid.compile is not None:
                self.aids[name] = self._plugin_compiled("aids", name, pointer("aids", name),
                                                        aid.compile, value)
        self.seed_depots = tuple(i for i in range(n) if c.accepts[i].seed_from_deal)

    @cached_property
    def target_row_of(self) -> dict[int, TargetRow]:
        """Each drop target's row of the tables ``legal_moves`` reads, made on first use (so
        are the accept tables in them: a game the native engine plays lists no move here)."""
        return {d: (d, a.on_top, a.on_down, None if a.seed_from_deal else a.on_empty(0),
                    a.empty_only, a) for d, a in ((d, self.accepts[d]) for d in self.drop_targets)}

    def _redeal_stocks(self) -> tuple[frozenset[int], frozenset[int]]:
        """Which stocks a redeal is tapped from: the depots its steps take from where a field
        defaults to the stock (``StepKind.stock_default``: the first stock when omitted), and
        the stocks (``deals_from``) a step puts cards on; and, of those, the ones put on, which
        are tapped only once empty, like a recycle."""
        c = self.compiled
        if not c.redeal:
            return frozenset(), frozenset()
        stocks: set[int] = set()
        gathers: set[int] = set()
        for step in c.redeal:  # the facts of its kind, held by the compiled step
            for field in step.takes_from:
                src = step.args.get(field)
                if field in step.stock_default and isinstance(src, int):
                    stocks.add(src)  # an omitted one holds the first stock already
            for field in step.lands_on:
                to = step.args.get(field)
                if isinstance(to, int) and not isinstance(to, bool) and c.deals_from[to]:
                    stocks.add(to)
                    gathers.add(to)
        if not stocks and self.first_stock >= 0:
            stocks.add(self.first_stock)
        return frozenset(stocks), frozenset(gathers)

    # -- the compile-time API of plugins -------------------------------------------------------
    def intern(self, s: frozenset[int]) -> frozenset[int]:
        """One shared object per distinct set (the accept tables repeat a lot)."""
        return self._interned.setdefault(s, s)

    def names(self, names: tuple[str, ...] | list[str]) -> tuple[int, ...]:
        """Depot indices for names; a repeated depot's shared name means all its copies."""
        return depot_indices(names, self.depot_index, self.groups)

    def pattern(self, p: Pattern | tuple[int, ...] | None) -> tuple[int, ...]:
        """The depots a pattern matches, in file order for a type, as listed for names; a
        pattern field of a compiled step or condition is already those indices."""
        if p is None:
            return ()
        if isinstance(p, tuple):
            return p
        return pattern_indices(p, self.types, self.depot_index, self.groups)

    def derive(self, make: Callable[[Any], T]) -> T:
        """``make(self)``, made on first use and kept with the game: what code outside the
        engine derives from a game once (the views' deck tables, the planners' measures)."""
        try:
            return self._derived[make]
        except KeyError:
            out = self._derived[make] = make(self)
            return out

    def expr(self, ref: ExprRef) -> Callable[[Env], Any]:
        """A rule expression's closure ``fn(env)``, built from its program: the one place where
        the engine turns an expression of the compiled game into something it runs."""
        return closure(ref.program, self.programs.tables, self.registry.functions, ref.ptr)

    def env(self, state: State, **bindings: Any) -> Env:
        """An expression environment on ``state`` with the context's bindings."""
        return Env(state, **bindings)

    def self_of(self, step: StepData) -> int:
        """The depot of the trigger or action a step belongs to, -1 none."""
        return step.self_depot

    def step_depot(self, step: StepData, field: str,
                   default_stock: bool = False) -> Callable[[Work], int]:
        """A step's one-depot field as ``fn(work) -> depot index`` (-1: no depot): a depot, the
        first stock when omitted and ``default_stock``, or an expression read when it runs."""
        value = step.args.get(field)
        if value is None:
            if default_stock and self.first_stock >= 0:
                d = self.first_stock
                return lambda w: d
            raise CardzError([Problem(step.ptr, f"the {step.kind} step needs '{field}' "
                                                "(there is no stock to default to)")])
        if isinstance(value, ExprRef):
            fn, me = self.expr(value), step.self_depot
            return lambda w: fn(w.env(depot=me))
        one: int = value
        return lambda w: one

    def step_depots(self, step: StepData, field: str) -> Callable[[Work], tuple[int, ...]]:
        """A step's list-of-depots field as ``fn(work) -> tuple of depot indices``."""
        value = step.args.get(field)
        if isinstance(value, ExprRef):
            fn, me = self.expr(value), step.self_depot
            return lambda w: tuple(d for d in fn(w.env(depot=me)) if d >= 0)
        ds: tuple[int, ...] = value or ()
        return lambda w: ds

    def step_number(self, step: StepData, field: str) -> Callable[[Work], int]:
        """A step's number field (``count``), an int or an expression read when it runs."""
        value = step.args.get(field)
        if isinstance(value, ExprRef):
            fn, me = self.expr(value), step.self_depot
            return lambda w: int(fn(w.env(depot=me)) or 0)
        n = int(value or 0)
        return lambda w: n

    def step_when(self, step: StepData, field: str = "when") -> Callable[[Work, int], bool] | None:
        """A step's ``when`` as ``fn(work, depot) -> bool``, or None when it has none."""
        value = step.args.get(field)
        if value is None:
            return None
        fn = self.expr(value)
        return lambda w, d: bool(fn(w.env(depot=d)))

    def condition(self, cond: ConditionData | None) -> Test | None:
        """A compiled win, loss or redeal condition ``fn(state) -> bool``."""
        if cond is None:
            return None
        kind = self.registry.lookup("conditions", cond.kind)
        if not isinstance(kind, ConditionKind) or kind.compile is None:
            raise CardzError([Problem(cond.ptr, f"condition kind {cond.kind!r} can't be played: "
                                                "its plugin gives no compile")])
        test: Test = self._plugin_compiled("conditions", cond.kind, cond.ptr, kind.compile, cond)
        return test

    def steps(self, steps: tuple[StepData, ...]) -> tuple[Executor, ...]:
        """Each step's executor, from its ``StepKind.compile(step, game)``."""
        out = []
        for step in steps:
            kind = self.registry.lookup("deal_steps", step.kind)
            if not isinstance(kind, StepKind) or kind.compile is None:
                raise CardzError([Problem(step.ptr, f"step kind {step.kind!r} can't be played: "
                                                    "its plugin gives no compile")])
            out.append(self._plugin_compiled("deal_steps", step.kind, step.ptr, kind.compile, step))
        return tuple(out)

    def _plugin_compiled(self, table: str, name: str, ptr: str, compile: Callable[..., Any],
                         value: Any) -> Any:
        """``compile(value, self)`` of a kind or an aid: the function it makes, or a CardzError
        at ``ptr`` naming the kind and its plugin when it fails or makes something else (a
        CardzError it raises itself is the plugin's own words, passed on as they are)."""
        what = f"{table.replace('_', ' ').rstrip('s')} {name!r} (plugin " \
               f"{self.registry.owner(table, self.registry.canonical(table, name) or name)!r})"
        try:
            made = compile(value, self)
        except CardzError:
            raise
        except Exception as exc:
            raise CardzError([Problem(ptr, f"{what} failed to compile: {type(exc).__name__}: "
                                           f"{exc}")]) from exc
        if not callable(made):
            raise CardzError([Problem(ptr, f"{what} compiled to {type(made).__name__}, not a "
                                           "function")])
        return made
