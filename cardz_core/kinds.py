"""What a plugin registers. The loader reads ``fields`` generically; ``compile`` is called once per
game by the engine and returns a plain closure for the hot loop.

Field kinds (``Field.kind``) the loader understands, with the short forms it reads:

- ``depot``: one depot name (a repeated depot's copy, ``column-2``); in a trigger or action also
  ``@self`` or an expression (stored as ``Expr``).
- ``depots``: a list of depot names; a single string is a one-item list; a repeated depot's name
  means all its copies, in order (expanded by the loader).
- ``group``: the shared name of a repeated depot (``cell``).
- ``pattern``: a depot pattern (``cardz_core.spec.model.Pattern``), bare forms read.
- ``int``, ``bool``, ``string``, ``rank`` (1..13), ``suit`` (0..3).
- ``expr``: a rule expression giving a condition, stored as ``Expr``.
- ``numexpr``: a number, or (in triggers and actions) an expression giving a number.
- ``conditions``: a list of nested conditions (``allOf``/``anyOf``).
"""

from __future__ import annotations

from typing import Any, Callable, Protocol

import attrs

FIELD_KINDS = frozenset({"depot", "depots", "group", "pattern", "int", "bool", "string", "rank",
                         "suit", "expr", "numexpr", "conditions"})
ROLES = ("stock", "waste", "foundation", "tableau", "cell", "reserve", "layout")
PARKS = ("cell", "column", "")
FANS = ("None", "Down", "Up", "Left", "Right", "Radial")  # the format's fanDirection
AID_VALUES = ("int", "bool", "string")  # the JSON kinds an aid's value may have
STEP_READS = frozenset({"rng", "counters", "expressions"})
CONDITION_READS = frozenset({"piles", "faces", "moves", "counters", "expressions"})


def _choose(what: str, choices: tuple[str, ...] | frozenset[str], value: Any) -> str:
    """The spelling in ``choices`` of ``value`` written in any case, refusing any other value
    by name: a plugin's typo (``parks="cells"``) would otherwise change what the engine does
    without a word."""
    by_lower = {c.lower(): c for c in choices}
    if isinstance(value, str) and value.lower() in by_lower:
        return by_lower[value.lower()]
    listed = ", ".join(repr(c) for c in sorted(choices))
    raise ValueError(f"{what} is one of {listed}, not {value!r}")


def _field_kind(value: Any) -> str:
    return _choose("a field's kind", FIELD_KINDS, value)


def _role(value: Any) -> str:
    return _choose("a depot type's role", ROLES, value)


def _fan(value: Any) -> str:
    return _choose("a depot type's default_fan", FANS, value)


def _parks(value: Any) -> str:
    return _choose("a depot type's parks", PARKS, value)


def _aid_value(value: Any) -> str:
    return _choose("an aid's value_kind", AID_VALUES, value)


def _words(what: str, known: frozenset[str], value: Any) -> frozenset[str]:
    """``value`` as a set of the words ``known`` holds, refusing others by name: a misspelt
    ``reads`` word would hide what a kind reads from the solver's position key."""
    words = frozenset(value)
    unknown = sorted(w for w in words if w not in known)
    if unknown:
        raise ValueError(f"{what} are words of {', '.join(sorted(known))}, not "
                         f"{', '.join(map(repr, unknown))}")
    return words


def _step_reads(value: Any) -> frozenset[str]:
    return _words("a step kind's reads", STEP_READS, value)


def _condition_reads(value: Any) -> frozenset[str]:
    return _words("a condition kind's reads", CONDITION_READS, value)


@attrs.frozen
class Field:
    kind: str = attrs.field(converter=_field_kind)
    required: bool = False
    default: Any = None
    minimum: int | None = None  # for int fields


@attrs.frozen
class DepotType:
    """A depot type and the facts about it that the engines, solver, planners and renderer read
    (they never read the type's name):

    - ``role``: what the type is for: stock, waste, foundation, tableau, cell, reserve or layout
      (planners and reports).
    - ``deals_from``: packs without ``to`` are shuffled into the first depot of such a type, and
      step fields that default to "the stock" mean it.
    - ``parks``: what an empty depot of the type counts as when a ``Staged`` compound move parks
      part of a run: ``"cell"`` (a free cell), ``"column"`` (an empty column) or ``""`` (neither).
    - ``interchangeable``: copies with identical rules may be swapped without changing the game
      (the solver's symmetry); False for types whose position on the table matters.
    """

    role: str = attrs.field(converter=_role)
    default_fan: str = attrs.field(default="None", converter=_fan)
    deals_from: bool = False
    parks: str = attrs.field(default="", converter=_parks)
    interchangeable: bool = True


@attrs.frozen
class StepKind:
    """A deal step kind. ``compile(step, game) -> executor``; the executor's signature belongs to
    the engine (documented in docs/plugins.md). ``triggers_only``: allowed only in triggers and
    actions (``compact``). ``needs``: field groups of which one must be complete, e.g.
    ``(("rank", "suit"), ("joker",))`` for ``place``.

    Facts the engine and solver read instead of the kind's name:

    - ``takes_from``: the names of its depot fields whose depots it takes cards from (``from``);
      a field that is omitted means the first ``deals_from`` depot when listed in
      ``stock_default``.
    - ``lands_on``: the names of its depot fields whose depots it puts cards on (``to``).
    - ``stock_default``: fields that default to the first ``deals_from`` depot when omitted.
    - ``from_stock``: it takes its cards from the first ``deals_from`` depot whatever its
      fields say (``place``).
    - ``reads``: what else of the position it reads besides the piles of those depots, from
      ``{"rng", "counters", "expressions"}`` ("rng": it shuffles; "expressions": its fields may
      hold rule expressions, whose reads their programs declare).
    - ``moves_cards`` / ``turns_cards`` / ``creates_cards``: whether it moves cards between
      depots, turns cards over, or puts cards on the table that were not there (``place``).
    - ``native``: the name of the native engine's step primitive that does exactly what this
      kind does, reading the kind's fields by the primitive's argument names (docs/plugins.md,
      "Native step primitives"); None: a game with such a step stays on the Python engine.
    """

    fields: dict[str, Field]
    compile: Callable[..., Any] | None = None
    triggers_only: bool = False
    needs: tuple[tuple[str, ...], ...] = ()
    takes_from: tuple[str, ...] = ()
    lands_on: tuple[str, ...] = ()
    stock_default: tuple[str, ...] = ()
    from_stock: bool = False
    reads: frozenset[str] = attrs.field(default=frozenset(), converter=_step_reads)
    moves_cards: bool = True
    turns_cards: bool = False
    creates_cards: bool = False
    native: str | None = None


@attrs.frozen
class ConditionKind:
    """A win, loss or redeal condition kind. ``compile(condition, game) -> fn(state) -> bool``:
    the kind carries its own evaluation. ``uses``: where it may appear, a subset of
    {"win", "loss", "redeal"}. ``needs_depot_only``: the game must set ``depotOnly``.

    Facts the solver and planners read instead of the kind's name:

    - ``empties(condition, game) -> frozenset of depot indices | None``: the condition holds
      exactly when every card is out of these depots (``allCardsIn`` of D: every depot not in
      D; ``depotsEmpty`` of D: D). None when it cannot be said so. Called once, by compile,
      with the compiled condition (its arguments resolved: a pattern is a tuple of depot
      indices) and a compile-time ``game`` that gives ``n_depots`` and ``pattern``; the
      answer is kept as ``ConditionData.empties``.
    - ``stalemate``: the condition holds exactly when no move counts (``noLegalMoves``); a
      searcher may treat it as a dead end rather than as something to read.
    - ``reads``: what of the position it reads, from ``{"piles", "faces", "moves",
      "counters", "expressions"}`` ("faces": which cards are face up; "expressions": it holds
      rule expressions, whose reads their programs declare); ``nested``: its ``of`` field holds
      sub-conditions, which are read as well.
    - ``native``: the native engine's primitive with exactly the kind's meaning, or None (a
      game with such a condition plays on the Python engine): ``"empty"`` (holds when every
      depot of ``empties`` is empty), ``"non_empty"`` (every depot of its one pattern field
      holds a card), ``"all_face_up"``, ``"all_of"`` / ``"any_of"`` (of the nested conditions
      in ``of``), ``"expr"`` (its ``when`` expression holds) and ``"stalemate"``
      (``noLegalMoves``'s test). See docs/plugins.md.
    """

    fields: dict[str, Field]
    compile: Callable[..., Any] | None = None
    uses: frozenset[str] = frozenset({"win", "loss", "redeal"})
    needs_depot_only: bool = False
    empties: Callable[..., Any] | None = None
    stalemate: bool = False
    reads: frozenset[str] = attrs.field(default=frozenset({"piles"}), converter=_condition_reads)
    nested: bool = False
    native: str | None = None


@attrs.frozen
class Aid:
    """A card aid. ``compile(value, game) -> fn(card_id) -> answer or None``; ``value_kind`` is
    the JSON kind of the aid's value in the game file ("int")."""

    value_kind: str = attrs.field(converter=_aid_value)
    compile: Callable[..., Any] | None = None


class PlannerLike(Protocol):
    """What a planner factory makes, as the registry types it. ``cardz_core.planners.base.Planner``
    types it fully (the game, a ``View``, the move); this module imports nothing of the engine,
    so the registry's types close no import cycle."""

    name: str

    def choose(self, game: Any, view: Any, rng: Any) -> Any: ...


class DeckModelLike(Protocol):
    """A deck model, as the registry types it (``cardz_core.view.DeckModel`` types it fully)."""

    def outcomes(self, game: Any, v: Any, move: Any, limit: int | None = None) -> Any: ...

    def sample(self, game: Any, v: Any, move: Any, rng: Any) -> Any: ...
