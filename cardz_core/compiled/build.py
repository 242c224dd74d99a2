"""``compile(spec, registry) -> CompiledGame``: the one place the spec is turned into what the
engines play. Names become depot indices, patterns tuples of indices, depot types their facts
(``cardz_core.kinds.DepotType``), cards rank/suit/value ints, and step and condition fields
are resolved by the field kinds their kind declares."""

from __future__ import annotations

from typing import Any, Mapping

import attrs

from cardz_core.cards import RANK_LETTERS
from cardz_core.compiled.game import CompiledGame
from cardz_core.compiled.records import (AcceptTable, ActionTable, BuildRule, ConditionData,
                                         DrawTable, EjectTable, ExprRef, ScoringTable, StepData,
                                         TriggerTable)
from cardz_core.expr.api import programs_for
from cardz_core.expr.program import walk
from cardz_core.kinds import ConditionKind, DepotType, Field, StepKind
from cardz_core.problems import CardzError, Problem
from cardz_core.registry import Registry
from cardz_core.spec.model import (AcceptRule, Build, Condition, Depot, EjectRule, Expr, GameSpec,
                                   Pattern, Step)

# the context an expression given for a step field of this kind is checked in
_STEP_FIELD_CONTEXT = {"depot": "depotField", "depots": "depotsField", "numexpr": "count",
                       "expr": "step"}
_LAND_FACE = {"Up": 1, "Down": 0}
# field kinds that name depots (``cardz_core.kinds``)
_DEPOT_FIELD_KINDS = frozenset({"depot", "depots", "group", "pattern"})


def depot_indices(names: tuple[str, ...] | list[str], index: Mapping[str, int],
                  groups: Mapping[str, tuple[int, ...]]) -> tuple[int, ...]:
    """Depot indices for names; a repeated depot's shared name means all its copies."""
    out: list[int] = []
    for name in names:
        if name in index:
            out.append(index[name])
        elif name in groups:
            out.extend(groups[name])
        else:
            raise CardzError(f"no depot named {name!r}")
    return tuple(out)


def pattern_indices(p: Pattern | None, types: tuple[str, ...], index: Mapping[str, int],
                    groups: Mapping[str, tuple[int, ...]]) -> tuple[int, ...]:
    """The depots a pattern matches, in file order for a type (compared case-insensitively),
    as listed for names."""
    if p is None:
        return ()
    if p.of_type is not None:
        low = p.of_type.lower()
        return tuple(i for i, t in enumerate(types) if t.lower() == low)
    return depot_indices(p.names or (), index, groups)


class _Resolver:
    """Depot names, groups and patterns of one spec, as indices."""

    def __init__(self, spec: GameSpec, registry: Registry) -> None:
        self.spec = spec
        self.registry = registry
        self.names = tuple(d.name for d in spec.depots)
        self.index = {n: i for i, n in enumerate(self.names)}
        self.types = tuple(d.type for d in spec.depots)
        self.groups = {g: tuple(self.index[n] for n in names) for g, names in spec.groups.items()}
        self.facts = tuple(self._depot_type(t) for t in self.types)
        self.first_stock = next((i for i, f in enumerate(self.facts) if f.deals_from), -1)
        self.programs = programs_for(spec, registry)

    def _depot_type(self, name: str) -> DepotType:
        dtype = self.registry.lookup("depot_types", name)
        if not isinstance(dtype, DepotType):
            raise CardzError(f"depot type {name!r} is not registered")
        return dtype

    def depots(self, names: tuple[str, ...] | list[str]) -> tuple[int, ...]:
        """Depot indices for names; a repeated depot's shared name means all its copies."""
        return depot_indices(names, self.index, self.groups)

    def pattern(self, p: Pattern | tuple[int, ...] | None) -> tuple[int, ...]:
        """The depots a pattern matches, in file order for a type, as listed for names; a
        resolved pattern (a compiled argument) is already those indices."""
        if isinstance(p, tuple):
            return p
        return pattern_indices(p, self.types, self.index, self.groups)

    # -- expressions ---------------------------------------------------------------------------
    def ref(self, e: Expr, context: str, self_depot: int = -1) -> ExprRef:
        """An expression with its compiled program (the loader's, when it checked this spec)."""
        return ExprRef(e.text, context, self_depot, e.ptr,
                       self.programs.get(e, context, self_depot))

    def maybe_ref(self, e: Expr | None, context: str, self_depot: int = -1) -> ExprRef | None:
        return None if e is None else self.ref(e, context, self_depot)

    def one(self, value: str, ptr: str, field: str) -> int:
        """The index of a field naming exactly one depot."""
        d = self.depots((value,))
        if len(d) != 1:
            raise CardzError([Problem(ptr, f"'{field}' must name one depot, not {value!r}")])
        return d[0]

    # -- steps and conditions ------------------------------------------------------------------
    def step(self, step: Step) -> StepData:
        """A step as data, its arguments resolved by its kind's field kinds."""
        kind = self.registry.lookup("deal_steps", step.kind)
        if not isinstance(kind, StepKind):
            raise CardzError([Problem(step.ptr, f"step kind {step.kind!r} is not registered")])
        me = self.index[step.self_depot] if step.self_depot else -1
        args = {name: self._step_arg(kind.fields.get(name), value, step.ptr, name, me)
                for name, value in step.args.items()}
        for name in kind.stock_default:
            if args.get(name) is None and self.first_stock >= 0:
                args[name] = self.first_stock
        return StepData(step.kind, args, step.ptr, me, takes_from=kind.takes_from,
                        lands_on=kind.lands_on, stock_default=kind.stock_default,
                        from_stock=kind.from_stock, reads=tuple(sorted(kind.reads)),
                        moves_cards=kind.moves_cards, turns_cards=kind.turns_cards,
                        creates_cards=kind.creates_cards, depot_fields=_depot_fields(kind.fields),
                        native=kind.native)

    def _step_arg(self, field: Field | None, value: Any, ptr: str, name: str, me: int) -> Any:
        kind = field.kind if field is not None else ""
        if isinstance(value, Expr):
            return self.ref(value, _STEP_FIELD_CONTEXT.get(kind, "step"), me)
        return self._plain_arg(kind, value, ptr, name)

    def _plain_arg(self, kind: str, value: Any, ptr: str, name: str) -> Any:
        if value is None:
            return None
        if kind == "depot":
            return self.one(value, ptr, name)
        if kind in ("depots", "group"):
            return self.depots((value,) if isinstance(value, str) else tuple(value))
        if kind == "pattern":
            return self.pattern(value)
        if kind == "conditions":
            return tuple(self.condition(c) for c in value)
        if isinstance(value, list):
            return tuple(value)
        return value

    def condition(self, cond: Condition | None) -> ConditionData | None:
        """A condition as data, its arguments resolved like a step's."""
        if cond is None:
            return None
        kind = self.registry.lookup("conditions", cond.kind)
        if not isinstance(kind, ConditionKind):
            raise CardzError([Problem(cond.ptr, f"condition kind {cond.kind!r} is not registered")])
        args: dict[str, Any] = {}
        for name, value in cond.args.items():
            field = kind.fields.get(name)
            if isinstance(value, Expr):
                args[name] = self.ref(value, "condition")
            else:
                args[name] = self._plain_arg(field.kind if field else "", value, cond.ptr, name)
        data = ConditionData(cond.kind, args, cond.ptr, stalemate=kind.stalemate,
                             reads=tuple(sorted(kind.reads)), nested=kind.nested,
                             depot_fields=_depot_fields(kind.fields),
                             pattern_fields=tuple(n for n, f in kind.fields.items()
                                                  if f.kind == "pattern"),
                             native=kind.native)
        # the kind reads the resolved arguments: depot patterns are index tuples already
        empties = None if kind.empties is None else kind.empties(data, self)
        return data if empties is None else attrs.evolve(data, empties=tuple(sorted(empties)))

    @property
    def n_depots(self) -> int:
        """How many depots the game has (what a condition's ``empties`` reads)."""
        return len(self.names)

    # -- depots ----------------------------------------------------------------------------------
    def accept(self, rule: AcceptRule, i: int) -> AcceptTable:
        """Depot ``i``'s accept table."""
        return AcceptTable(
            rejects_all=rule.rejects_all, empty_only=rule.empty_only, single=rule.single,
            min_count=rule.min_count,
            accept_from=None if rule.accept_from is None else self.pattern(rule.accept_from),
            seed=rule.seed, seed_none=rule.seed_none, seed_from_deal=rule.seed_from_deal,
            rank_is=rule.rank_is, build=_build(rule.build), suit=rule.suit, follow=rule.follow,
            wild_rank=rule.wild_rank, wild_joker=rule.wild_joker,
            wild_declares=rule.wild_declares, allow_face_down=rule.allow_face_down,
            when=self.maybe_ref(rule.when, "accept", i), reason=rule.reason)

    def eject(self, rule: EjectRule, d: Depot) -> EjectTable:
        """A depot's eject table."""
        unit = rule.unit
        return EjectTable(gate=rule.gate, unit=None if unit is None else unit.kind,
                          unit_build=None if unit is None else _build(unit.build),
                          unit_suit="Any" if unit is None else unit.suit,
                          covered_by=self.depots(d.uncovered_by), cover_any=d.uncovered_by_any,
                          loose_order=d.loose_order)

    def draw(self, d: Depot, i: int) -> DrawTable | None:
        """Depot ``i``'s draw, or None."""
        dr = d.draw
        if dr is None:
            return None
        return DrawTable(self.depots((dr.to,))[0], dr.count, dr.recycle, dr.max_recycles,
                         self.maybe_ref(dr.when, "draw", i))

    def others(self, p: Pattern | None, i: int) -> tuple[int, ...] | None:
        """The depots a pattern matches, ``i`` left out; None without a pattern."""
        return None if p is None else tuple(t for t in self.pattern(p) if t != i)


def _depot_fields(fields: Mapping[str, Field]) -> tuple[str, ...]:
    """The names of a kind's fields that name depots."""
    return tuple(n for n, f in fields.items() if f.kind in _DEPOT_FIELD_KINDS)


def _build(b: Build | None) -> BuildRule | None:
    return None if b is None else BuildRule(b.direction, b.step, b.wrap)


def _values(values: Mapping[str, int]) -> dict[str, int]:
    return {k.upper(): v for k, v in values.items()}


def compile(spec: GameSpec, registry: Registry) -> CompiledGame:  # noqa: A001
    """Compile a loaded game into its ``CompiledGame``, once."""
    r = _Resolver(spec, registry)
    depots = spec.depots
    values = _values(spec.values)
    cards = tuple(dc.card for dc in spec.cards)
    # pools of unseen cards: one per place packs are shuffled into (None: the first stock)
    targets: dict[str | None, int] = {}
    pack_pool = [targets.setdefault(pack.to, len(targets)) for pack in spec.packs]
    pack_home = [r.depots((p.to,))[0] if p.to is not None else r.first_stock for p in spec.packs]
    triggers = tuple(TriggerTable(i, r.ref(t.when, "trigger", i),
                                  tuple(r.step(s) for s in t.do), t.ptr)
                     for i, d in enumerate(depots) for t in d.triggers)
    actions = tuple(tuple(ActionTable(a.name, r.maybe_ref(a.when, "action", i),
                                      tuple(r.step(s) for s in a.do), a.ptr) for a in d.actions)
                    for i, d in enumerate(depots))
    scoring = None if spec.scoring is None else ScoringTable(
        r.ref(spec.scoring.value, "scoring"),
        spec.scoring.better, spec.scoring.keep)
    game = CompiledGame(
        name=spec.name,
        depot_names=r.names,
        types=r.types,
        roles=tuple(f.role for f in r.facts),
        deals_from=tuple(f.deals_from for f in r.facts),
        parks=tuple(f.parks for f in r.facts),
        interchangeable=tuple(f.interchangeable for f in r.facts),
        groups=dict(r.groups),
        first_stock=r.first_stock,
        accepts=tuple(r.accept(d.accept, i) for i, d in enumerate(depots)),
        ejects=tuple(r.eject(d.eject, d) for d in depots),
        draws=tuple(r.draw(d, i) for i, d in enumerate(depots)),
        land_face=tuple(_LAND_FACE.get(d.land_face or "", -1) for d in depots),
        land_under=tuple(d.land_under for d in depots),
        auto_flip_top=tuple(d.auto_flip_top for d in depots),
        auto_flip_uncovered=tuple(d.auto_flip_uncovered for d in depots),
        auto_send=tuple(r.others(d.auto_send, i) for i, d in enumerate(depots)),
        auto_refill=tuple(r.others(d.auto_refill, i) for i, d in enumerate(depots)),
        triggers=triggers,
        actions=actions,
        card_rank=tuple(c.rank for c in cards),
        card_suit=tuple(c.suit for c in cards),
        card_value=tuple(values.get("JOKER", 0) if c.joker else values.get(RANK_LETTERS[c.rank], c.rank)
                         for c in cards),
        card_home=tuple(pack_home[dc.pack] for dc in spec.cards),
        card_pool=tuple(pack_pool[dc.pack] for dc in spec.cards),
        n_pools=max(1, len(targets)),
        deal=tuple(r.step(s) for s in spec.deal),
        redeal=tuple(r.step(s) for s in spec.redeal),
        redeal_when=r.condition(spec.redeal_when),
        max_redeals=spec.max_redeals,
        win=r.condition(spec.win),
        loss=r.condition(spec.loss),
        scoring=scoring,
        staged=spec.compound_moves == "Staged",
        depot_only=spec.depot_only,
        aids=dict(spec.aids),
        uses_expressions=spec.uses_expressions,
        planner_enabled=spec.planner.enabled,
        planner_value=r.maybe_ref(spec.planner.value, "planner"),
    )
    return attrs.evolve(game, primitives=_primitives(game, registry))


def _primitives(game: CompiledGame, registry: Registry) -> dict[str, tuple[str | None, ...]]:
    """The native primitive of each overload of every function ``game``'s expressions call."""
    called = sorted({node[1] for ref in game.expressions() for node in walk(ref.program.root)
                     if node[0] == "call"})
    return {name: tuple(sig.native for sig in registry.functions[name].overloads) for name in called}
