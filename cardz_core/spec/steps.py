"""Deal steps and win/loss/redeal conditions, read generically from the fields their kinds declare
in the registry (``StepKind.fields``, ``ConditionKind.fields``), so a plugin's new kind loads
without any change here."""

from __future__ import annotations

from typing import Any

from cardz_core.kinds import ConditionKind, Field, StepKind
from cardz_core.problems import join
from cardz_core.spec.model import Condition, Step
from cardz_core.spec.reader import (Ctx, Obj, as_bool, as_expr, as_int, as_list, as_rank, as_string,
                                    as_suit, describe, suggest)
from cardz_core.spec.refs import depot_names, depot_ref, group_ref, pattern
from cardz_core.spec.tables import Prop

USES = {"win": "a win condition", "loss": "a loss condition", "redeal": "redealWhen"}
# the context of a step field given as an expression, by the field's kind (cardz_core.kinds);
# every expression of a condition is in the "condition" context
FIELD_CONTEXT = {"expr": "step", "numexpr": "count", "depot": "depotField", "depots": "depotsField"}


def _kind_of(ctx: Ctx, value: dict, ptr: str, table: str, what: str) -> tuple[str, Any] | None:
    """Find ``kind`` (case-insensitively) and look it up in a registry table."""
    raw = next((v for k, v in value.items() if isinstance(k, str) and k.lower() == "kind"), None)
    if raw is None:
        ctx.error(join(ptr, "kind"), f"missing required property 'kind' in {what}")
        return None
    where = join(ptr, next(k for k in value if isinstance(k, str) and k.lower() == "kind"))
    if not isinstance(raw, str):
        ctx.error(where, f"expected the name of a {what} kind, found {describe(raw)}")
        return None
    name = ctx.registry.canonical(table, raw)
    if name is None:
        known = list(getattr(ctx.registry, table))
        ctx.error(where, f"unknown {what} kind {raw!r}; the kinds are {', '.join(known)}"
                         f"{suggest(raw, known)}")
        return None
    return name, ctx.registry.lookup(table, name)


def _table(fields: dict[str, Field]) -> dict[str, Prop]:
    table = {"kind": Prop("string")}
    table.update({name: Prop(f.kind, required=f.required) for name, f in fields.items()})
    return table


def _field(ctx: Ctx, field: Field, value: Any, ptr: str, self_name: str | None, in_trigger: bool,
           use: str, depot_only: bool) -> Any:
    if field.kind in FIELD_CONTEXT:
        with ctx.reading("condition" if use else FIELD_CONTEXT[field.kind], self_name):
            return _value(ctx, field, value, ptr, self_name, in_trigger, use, depot_only)
    return _value(ctx, field, value, ptr, self_name, in_trigger, use, depot_only)


def _value(ctx: Ctx, field: Field, value: Any, ptr: str, self_name: str | None, in_trigger: bool,
           use: str, depot_only: bool) -> Any:
    kind = field.kind
    if kind == "depot":
        return depot_ref(ctx, value, ptr, self_name, allow_expr=in_trigger)
    if kind == "depots":
        return depot_names(ctx, value, ptr, self_name, allow_expr=in_trigger)
    if kind == "group":
        return group_ref(ctx, value, ptr)
    if kind == "pattern":
        return pattern(ctx, value, ptr)
    if kind == "int":
        return as_int(ctx, value, ptr, field.minimum)
    if kind == "bool":
        return as_bool(ctx, value, ptr)
    if kind == "string":
        return as_string(ctx, value, ptr)
    if kind == "rank":
        return as_rank(ctx, value, ptr)
    if kind == "suit":
        return as_suit(ctx, value, ptr)
    if kind == "expr":
        return as_expr(ctx, value, ptr)
    if kind == "numexpr":
        if in_trigger and isinstance(value, str):
            return as_expr(ctx, value, ptr)
        if isinstance(value, str):
            ctx.error(ptr, "an expression works here only in triggers and actions; write a number")
            return None
        return as_int(ctx, value, ptr, field.minimum)
    # "conditions", the last of the kinds a Field may have (cardz_core.kinds.FIELD_KINDS)
    items = as_list(ctx, value, ptr, "a list of conditions")
    if items is None:
        return None
    out = [read_condition(ctx, item, join(ptr, i), use, depot_only) for i, item in enumerate(items)]
    return None if any(c is None for c in out) else tuple(out)


def _args(ctx: Ctx, obj: Obj, fields: dict[str, Field], self_name: str | None, in_trigger: bool,
          use: str = "", depot_only: bool = False) -> dict[str, Any]:
    args: dict[str, Any] = {}
    for name, field in fields.items():
        if obj.has(name):
            args[name] = _field(ctx, field, obj.raw(name), obj.at(name), self_name, in_trigger, use,
                                depot_only)
        else:
            args[name] = field.default
    return args


def read_step(ctx: Ctx, value: Any, ptr: str, self_name: str | None = None,
              in_trigger: bool = False) -> Step | None:
    if not isinstance(value, dict):
        ctx.error(ptr, f"expected a step object with a 'kind', found {describe(value)}")
        return None
    found = _kind_of(ctx, value, ptr, "deal_steps", "step")
    if found is None:
        return None
    name, kind = found
    assert isinstance(kind, StepKind)
    obj = Obj(ctx, value, ptr, _table(kind.fields), f"the {name} step")
    if kind.triggers_only and not in_trigger:
        ctx.error(obj.at("kind"), f"a {name} step works only in triggers and actions")
    if kind.needs and not any(all(obj.has(f) and obj.raw(f) is not False for f in group)
                              for group in kind.needs):
        wanted = " or ".join(" and ".join(repr(f) for f in group) for group in kind.needs)
        ctx.error(join(ptr, kind.needs[0][0]), f"a {name} step needs {wanted}")
    args = _args(ctx, obj, kind.fields, self_name, in_trigger)
    return Step(kind=name, args=args, ptr=ptr, self_depot=self_name)


def read_steps(ctx: Ctx, value: Any, ptr: str, self_name: str | None = None,
               in_trigger: bool = False) -> tuple[Step, ...]:
    items = as_list(ctx, value, ptr, "a list of steps")
    if items is None:
        return ()
    steps = (read_step(ctx, item, join(ptr, i), self_name, in_trigger) for i, item in enumerate(items))
    return tuple(s for s in steps if s is not None)


def read_condition(ctx: Ctx, value: Any, ptr: str, use: str, depot_only: bool) -> Condition | None:
    if not isinstance(value, dict):
        ctx.error(ptr, f"expected a condition object with a 'kind', found {describe(value)}")
        return None
    found = _kind_of(ctx, value, ptr, "conditions", "condition")
    if found is None:
        return None
    name, kind = found
    assert isinstance(kind, ConditionKind)
    obj = Obj(ctx, value, ptr, _table(kind.fields), f"the {name} condition")
    if use not in kind.uses:
        ctx.error(obj.at("kind"), f"{name} can't be {USES[use]}")
    if kind.needs_depot_only and not depot_only:
        ctx.error(ptr, f"{name} needs \"depotOnly\": true at the game's top level")
    args = _args(ctx, obj, kind.fields, None, False, use, depot_only)
    return Condition(kind=name, args=args, ptr=ptr)
