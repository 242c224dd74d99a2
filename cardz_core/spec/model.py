"""The game-file model: immutable attrs classes the loader builds from a `.cardz` file.

Everything is in its full form: short forms are expanded, `$rules` are resolved, omitted
properties hold their documented defaults, `repeat`/`perRow` are expanded into one ``Depot`` per
copy, and packs are expanded into ``cards``. Every node keeps ``ptr``, the JSON pointer of the
object it came from in the file, so later stages (expression checking, compile) can report
problems at the right place.

Enum values are stored in the reference's canonical spelling (``"Tableau"``, ``"AlternateColor"``).
Ranks are ints 1..13, suits ints 0..3 (see ``cardz_core.cards``).
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from cardz_core.cards import Card


@attrs.frozen
class Expr:
    """A rule expression as written, with where it is. Checked and compiled by ``cardz_core.expr``."""

    text: str
    ptr: str


@attrs.frozen
class Pattern:
    """A depot pattern: exactly one of ``of_type`` (a depot type) or ``names`` (depot or group names)."""

    of_type: str | None
    names: tuple[str, ...] | None
    ptr: str


@attrs.frozen
class Build:
    direction: str = "Down"  # Up | Down | Either
    step: int = 1  # 0..12
    wrap: bool = False
    ptr: str = ""


@attrs.frozen
class AcceptRule:
    rejects_all: bool = False
    empty_only: bool = False
    single: bool = False
    min_count: int = 0
    accept_from: Pattern | None = None
    seed: int | None = None  # a rank; `seed: "none"` is read as seed_none
    seed_none: bool = False
    seed_from_deal: bool = False
    rank_is: int | None = None
    build: Build | None = None
    suit: str = "Any"  # Any | Same | AlternateColor | SameColor
    follow: bool = False
    wild_rank: int | None = None
    wild_joker: bool = False
    wild_declares: str = "none"  # none | suit | free | transparent
    allow_face_down: bool = False
    when: Expr | None = None
    reason: str | None = None
    ptr: str = ""


ACCEPT_ANY = AcceptRule()


@attrs.frozen
class Unit:
    kind: str  # Single | Any | Run | Pile
    build: Build | None = None
    suit: str = "Any"
    ptr: str = ""


@attrs.frozen
class EjectRule:
    gate: str = "Any"  # Any | FaceUp | TopOnly | Locked
    unit: Unit | None = None  # None: the picked card and all above, checked card by card
    ptr: str = ""


EJECT_ANY = EjectRule()


@attrs.frozen
class Draw:
    to: str
    count: int = 1
    recycle: bool = False
    max_recycles: int | None = None  # None: unlimited
    when: Expr | None = None
    ptr: str = ""


@attrs.frozen
class Step:
    """A deal step (or trigger/action step). ``kind`` is a registered step kind; ``args`` holds the
    fields that kind declares, normalised by the loader (see ``cardz_core.registry`` field kinds).
    A field given as an expression (in triggers and actions) is an ``Expr``.
    ``self_depot`` is the depot a trigger or action step belongs to (for ``@self``), else None."""

    kind: str
    args: dict[str, Any]
    ptr: str
    self_depot: str | None = None


@attrs.frozen
class Condition:
    """A win, loss or redeal condition. ``kind`` is a registered condition kind; ``args`` its fields
    (``depots`` -> Pattern, ``of`` -> tuple of Condition, ``when`` -> Expr)."""

    kind: str
    args: dict[str, Any]
    ptr: str


@attrs.frozen
class Trigger:
    when: Expr
    do: tuple[Step, ...]
    ptr: str


@attrs.frozen
class Action:
    name: str
    when: Expr | None
    do: tuple[Step, ...]
    ptr: str


@attrs.frozen
class Depot:
    name: str  # after expansion: "column-3"
    type: str  # a registered depot type, canonical spelling
    group: str | None  # "column" for a repeated depot's copies, else None
    index: int  # 1-based copy number, 0 for a depot that is not a copy
    col: float | None = None
    row: float | None = None
    x: float | None = None
    y: float | None = None
    angle: float = 0.0
    off_table: bool = False
    fan_direction: str = "None"
    fan_window: int | None = None
    fan_anchor: str = "Base"
    fan_offset_face_up: float | None = None
    fan_offset_face_down: float | None = None
    loose_order: bool = False
    land_face: str | None = None  # Up | Down | None (keep)
    land_under: bool = False
    auto_flip_top: bool = False
    uncovered_by: tuple[str, ...] = ()
    uncovered_by_any: bool = False
    auto_flip_uncovered: bool = False
    accept: AcceptRule = ACCEPT_ANY
    eject: EjectRule = EJECT_ANY
    draw: Draw | None = None
    auto_send: Pattern | None = None
    auto_refill: Pattern | None = None
    triggers: tuple[Trigger, ...] = ()
    actions: tuple[Action, ...] = ()
    ptr: str = ""


@attrs.frozen
class Pack:
    suits: tuple[int, ...] = (0, 1, 2, 3)
    ranks: tuple[int, ...] = tuple(range(1, 14))
    count: int = 1
    jokers: int = 0
    to: str | None = None  # None: the first stock
    back: int | None = None  # None: copies alternate 1, 2, 1, ...
    ptr: str = ""


@attrs.frozen
class DeckCard:
    """One physical card after pack expansion, in deck order (pack by pack, copy by copy,
    suit by suit in the pack's order, rank by rank, then jokers)."""

    card: Card
    pack: int  # index into GameSpec.packs
    copy: int  # 0-based copy of that pack
    back: int  # 1 or 2


@attrs.frozen
class Scoring:
    value: Expr
    better: str = "High"  # High | Low
    keep: str = "Won"  # Won | Over
    ptr: str = ""


@attrs.frozen
class PlannerSpec:
    enabled: bool | None = None  # None: by how the game is written
    value: Expr | None = None
    ptr: str = ""


@attrs.frozen
class GameSpec:
    name: str
    depots: tuple[Depot, ...]
    packs: tuple[Pack, ...]
    cards: tuple[DeckCard, ...]
    description: str = ""
    family: str | None = None
    aliases: tuple[str, ...] = ()
    groups: dict[str, tuple[str, ...]] = attrs.field(factory=dict)  # "column" -> ("column-1", ...)
    deal: tuple[Step, ...] = ()
    redeal: tuple[Step, ...] = ()
    redeal_when: Condition | None = None
    max_redeals: int | None = None
    win: Condition | None = None
    loss: Condition | None = None
    values: dict[str, int] = attrs.field(factory=dict)  # "A".."K", "joker" -> value, as written
    scoring: Scoring | None = None
    planner: PlannerSpec = PlannerSpec()
    aids: dict[str, Any] = attrs.field(factory=dict)
    depot_only: bool = False
    compound_moves: str = "Free"  # Free | Staged
    tools: str = "Unset"
    anchor: str = "TopCenter"
    fan_offset_face_up: float | None = None
    fan_offset_face_down: float | None = None
    text: str = ""  # the source text, for hashing (logs) and for rebuilding in workers
    ptr: str = ""
    # the expression programs the loader compiled to check this spec (a
    # ``cardz_core.expr.GamePrograms``), reused by compile; not part of the spec's value, and
    # not carried over by ``attrs.evolve`` (a changed spec compiles its own)
    programs: Any = attrs.field(default=None, init=False, eq=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without ``programs`` (they hold the registry): a process compiles its own."""
        return {f.name: getattr(self, f.name) for f in attrs.fields(GameSpec) if f.name != "programs"}

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "programs", None)

    def depot(self, name: str) -> Depot:
        for d in self.depots:
            if d.name == name:
                return d
        raise KeyError(name)

    @property
    def uses_expressions(self) -> bool:
        """Whether the game is written with expressions, triggers or actions (the planner default).
        ``scoring`` and ``planner.value`` do not count: they rank boards, they make no rule."""
        return any(d.triggers or d.actions for d in self.depots) or _has_expr(self)


def rule_expressions(spec: GameSpec) -> Iterator[Expr]:
    """Every expression that makes a rule: in depots, deal and redeal steps and the win, loss and
    redeal conditions (not ``scoring`` or ``planner.value``, which rank boards)."""
    stack: list[Any] = [spec.depots, spec.deal, spec.redeal, spec.win, spec.loss, spec.redeal_when]
    while stack:
        node = stack.pop()
        if isinstance(node, Expr):
            yield node
        elif attrs.has(type(node)):
            stack.extend(getattr(node, f.name) for f in attrs.fields(type(node)))
        elif isinstance(node, (tuple, list)):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())


def _has_expr(spec: GameSpec) -> bool:
    return next(rule_expressions(spec), None) is not None
