"""``CompiledGame``: everything the engines need from a game file, as plain data, built once
by ``cardz_core.compiled.compile``. It is the contract between the spec and every engine
(docs/design.md, "The compiled game")."""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from cardz_core.compiled.records import (AcceptTable, ActionTable, ConditionData, DrawTable,
                                         EjectTable, ExprRef, ScoringTable, StepData,
                                         TriggerTable)
from cardz_core.compiled.serial import decode, encode
from cardz_core.expr.api import RULE_CONTEXTS
from cardz_core.problems import CardzError

FORMAT = "cardz-compiled/1"


@attrs.frozen
class CompiledGame:
    """One game, compiled. Per-depot fields are tuples indexed by depot, per-card fields tuples
    indexed by card id (deck order)."""

    name: str
    # depots: names, registered type names (expressions name types), and the type's facts
    depot_names: tuple[str, ...]
    types: tuple[str, ...]
    roles: tuple[str, ...]
    deals_from: tuple[bool, ...]
    parks: tuple[str, ...]
    interchangeable: tuple[bool, ...]
    groups: dict[str, tuple[int, ...]]  # a repeated depot's shared name -> its copies
    first_stock: int  # the first depot whose type deals_from, -1 none
    # per-depot rule tables
    accepts: tuple[AcceptTable, ...]
    ejects: tuple[EjectTable, ...]
    draws: tuple[DrawTable | None, ...]
    land_face: tuple[int, ...]  # 1 up, 0 down, -1 as they come
    land_under: tuple[bool, ...]
    auto_flip_top: tuple[bool, ...]
    auto_flip_uncovered: tuple[bool, ...]
    auto_send: tuple[tuple[int, ...] | None, ...]  # targets in pattern order, itself left out
    auto_refill: tuple[tuple[int, ...] | None, ...]  # sources in pattern order, itself left out
    triggers: tuple[TriggerTable, ...]  # depot by depot, in file order
    actions: tuple[tuple[ActionTable, ...], ...]  # per depot
    # cards: printed identity, value, the depot its pack is shuffled into (-1 none), its pool
    card_rank: tuple[int, ...]
    card_suit: tuple[int, ...]
    card_value: tuple[int, ...]
    card_home: tuple[int, ...]
    card_pool: tuple[int, ...]  # pools of unseen cards, by where their pack was shuffled
    n_pools: int
    # steps, conditions and the rest of the rules
    deal: tuple[StepData, ...]
    redeal: tuple[StepData, ...]
    redeal_when: ConditionData | None
    max_redeals: int | None
    win: ConditionData | None
    loss: ConditionData | None
    scoring: ScoringTable | None
    staged: bool  # compoundMoves: Staged
    depot_only: bool
    aids: dict[str, Any]  # card aid name -> its value as written
    # what planners read: whether rules are written with expressions (their default), the
    # game's `planner.enabled` switch (None: it does not say) and `planner.value`
    uses_expressions: bool
    planner_enabled: bool | None
    planner_value: ExprRef | None
    # each function the expressions call -> the native primitive of each of its overloads (None:
    # the function's own code, which says nothing of what it reads): the meaning the solver
    # reads instead of the function's name
    primitives: dict[str, tuple[str | None, ...]] = attrs.field(factory=dict)

    @property
    def n_depots(self) -> int:
        """How many depots the game has."""
        return len(self.depot_names)

    @property
    def n_cards(self) -> int:
        """How many cards the game has."""
        return len(self.card_rank)

    def expressions(self) -> Iterator[ExprRef]:
        """Every rule expression the game holds, the depot tables' first, then the steps' and
        the conditions' (nested ones included), scoring and the planner's value."""
        for f in attrs.fields(CompiledGame):
            yield from _refs(getattr(self, f.name))

    def rule_reads(self) -> frozenset[str]:
        """What the expressions that make a rule read (``Program.reads``), not those of
        ``scoring`` or the planner's value, which rank boards and decide no move."""
        out: set[str] = set()
        for ref in self.expressions():
            if ref.context in RULE_CONTEXTS:
                out |= ref.program.reads
        return frozenset(out)

    def shuffles_in_play(self) -> bool:
        """Whether a move can shuffle cards: a redeal, trigger or action step whose kind reads
        the generator (``reads`` "rng"). The deal's own shuffle comes before any move."""
        played = [*self.redeal, *(s for t in self.triggers for s in t.do),
                  *(s for acts in self.actions for a in acts for s in a.do)]
        return any("rng" in step.reads for step in played)

    def to_json(self) -> dict[str, Any]:
        """The serialised form: JSON-safe (ints, strings, bools, None, lists, dicts), read back
        exactly by ``from_json``."""
        out: dict[str, Any] = {"format": FORMAT}
        out.update((f.name, encode(getattr(self, f.name))) for f in attrs.fields(CompiledGame))
        return out

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> "CompiledGame":
        """The compiled game ``to_json`` wrote."""
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise CardzError(f"not a compiled game: its 'format' is not {FORMAT!r}")
        names = {f.name for f in attrs.fields(CompiledGame)}
        got = set(doc) - {"format"}
        if got != names:
            missing, extra = sorted(names - got), sorted(got - names)
            raise CardzError(f"a compiled game of another shape: missing {missing}, unknown {extra}")
        return cls(**{k: decode(doc[k]) for k in names})


def _refs(value: Any) -> Iterator[ExprRef]:
    """The expressions in a field's value, in order (records, tuples and argument dicts)."""
    if isinstance(value, ExprRef):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _refs(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _refs(v)
    elif attrs.has(type(value)):
        for f in attrs.fields(type(value)):
            yield from _refs(getattr(value, f.name))
