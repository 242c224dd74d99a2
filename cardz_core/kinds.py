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

from typing import Any, Callable

import attrs

FIELD_KINDS = frozenset({"depot", "depots", "group", "pattern", "int", "bool", "string", "rank",
                         "suit", "expr", "numexpr", "conditions"})


@attrs.frozen
class Field:
    kind: str
    required: bool = False
    default: Any = None
    minimum: int | None = None  # for int fields


@attrs.frozen
class DepotType:
    """A depot type. ``role`` tells planners and reports what the type is for:
    stock, waste, foundation, tableau, cell, reserve or layout."""

    role: str
    default_fan: str = "None"


@attrs.frozen
class StepKind:
    """A deal step kind. ``compile(step, game) -> executor``; the executor's signature belongs to
    the engine (documented in docs/plugins.md). ``triggers_only``: allowed only in triggers and
    actions (``compact``). ``needs``: field groups of which one must be complete, e.g.
    ``(("rank", "suit"), ("joker",))`` for ``place``."""

    fields: dict[str, Field]
    compile: Callable[..., Any] | None = None
    triggers_only: bool = False
    needs: tuple[tuple[str, ...], ...] = ()


@attrs.frozen
class ConditionKind:
    """A win, loss or redeal condition kind. ``compile(condition, game) -> fn(state) -> bool``.
    ``uses``: where it may appear, a subset of {"win", "loss", "redeal"}.
    ``needs_depot_only``: the game must set ``depotOnly`` (``noLegalMoves``)."""

    fields: dict[str, Field]
    compile: Callable[..., Any] | None = None
    uses: frozenset[str] = frozenset({"win", "loss", "redeal"})
    needs_depot_only: bool = False


@attrs.frozen
class Aid:
    """A card aid. ``compile(value, game) -> fn(card_id) -> answer or None``; ``value_kind`` is
    the JSON kind of the aid's value in the game file ("int")."""

    value_kind: str
    compile: Callable[..., Any] | None = None
