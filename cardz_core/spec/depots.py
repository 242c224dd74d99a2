"""Depots: names first (so every reference can be checked in the same pass), then each depot in
full, with ``repeat``/``perRow`` expanded into one ``Depot`` per copy."""

from __future__ import annotations

from typing import Any

from cardz_core.kinds import DepotType
from cardz_core.limits import MAX_DEPOTS, MAX_REPEAT
from cardz_core.problems import is_whole, join
from cardz_core.spec.model import AcceptRule, Action, Depot, Draw, EjectRule, Trigger
from cardz_core.spec.reader import Ctx, Obj, as_list, as_object, describe
from cardz_core.spec.refs import depot_names, depot_ref, depot_type, pattern
from cardz_core.spec.rules import RuleBook, read_accept, read_eject
from cardz_core.spec.steps import read_steps
from cardz_core.spec.tables import ACTION, DEPOT, DRAW, TRIGGER, snake

# properties read by their table kind straight into the model field of the same (snake) name
_SIMPLE = ("angle", "offTable", "fanDirection", "fanWindow", "fanAnchor", "fanOffsetFaceUp",
           "fanOffsetFaceDown", "looseOrder", "landFace", "landUnder", "autoFlipTop",
           "uncoveredByAny", "autoFlipUncovered")


def _lookup(data: dict, key: str) -> Any:
    return next((v for k, v in data.items() if isinstance(k, str) and k.lower() == key.lower()), None)


def _copies(data: dict) -> int:
    """How many copies a depot makes, as ``repeat`` says when it is valid (else 1)."""
    n = _lookup(data, "repeat")
    return n if is_whole(n, 1, MAX_REPEAT) else 1


def copy_name(base: str, index: int) -> str:
    return f"{base}-{index}"


def prescan(ctx: Ctx, depots: Any) -> None:
    """Record every depot name (after expansion) and every repeated depot's copies, without
    reporting anything: ``read_depots`` reports the same problems in its full pass."""
    if not isinstance(depots, list):
        ctx.names_complete = False
        return
    for data in depots:
        if not isinstance(data, dict):
            ctx.names_complete = False
            continue
        base = _lookup(data, "name")
        if not isinstance(base, str) or not base:
            ctx.names_complete = False
            continue
        if base in ctx.names or base in ctx.groups:
            continue
        kind = _lookup(data, "type")
        type_name = ctx.registry.canonical("depot_types", kind) if isinstance(kind, str) else None
        if _lookup(data, "repeat") is None:
            ctx.names[base] = type_name or ""
            continue
        copies = tuple(copy_name(base, i) for i in range(1, _copies(data) + 1))
        ctx.groups[base] = copies
        for name in copies:
            ctx.names[name] = type_name or ""


def _read_draw(ctx: Ctx, value: Any, ptr: str) -> Draw | None:
    if as_object(ctx, value, ptr, "a draw object like {\"to\": \"waste\"}") is None:
        return None
    obj = Obj(ctx, value, ptr, DRAW, "draw")
    to = depot_ref(ctx, obj.raw("to"), obj.at("to")) if obj.has("to") else None
    with ctx.reading("draw"):
        when = obj.get("when")
    draw = Draw(to=to, count=obj.get("count", 1), recycle=obj.get("recycle", False),  # type: ignore[arg-type]
                max_recycles=obj.get("maxRecycles"), when=when, ptr=ptr)
    return None if to is None else draw


def _read_triggers(ctx: Ctx, value: Any, ptr: str, self_name: str) -> tuple[Trigger, ...]:
    items = as_list(ctx, value, ptr, "a list of triggers")
    out = []
    for i, item in enumerate(items or ()):
        where = join(ptr, i)
        if as_object(ctx, item, where, "a trigger object") is None:
            continue
        obj = Obj(ctx, item, where, TRIGGER, "a trigger")
        with ctx.reading("trigger", self_name):
            when = obj.get("when")
        do = read_steps(ctx, obj.raw("do"), obj.at("do"), self_name, True) if obj.has("do") else ()
        if when is not None:
            out.append(Trigger(when=when, do=do, ptr=where))
    return tuple(out)


def _read_actions(ctx: Ctx, value: Any, ptr: str, self_name: str) -> tuple[Action, ...]:
    items = as_list(ctx, value, ptr, "a list of actions")
    out = []
    for i, item in enumerate(items or ()):
        where = join(ptr, i)
        if as_object(ctx, item, where, "an action object") is None:
            continue
        obj = Obj(ctx, item, where, ACTION, "an action")
        do = read_steps(ctx, obj.raw("do"), obj.at("do"), self_name, True) if obj.has("do") else ()
        with ctx.reading("action", self_name):
            when = obj.get("when")
        out.append(Action(name=obj.get("name", ""), when=when, do=do, ptr=where))
    return tuple(out)


def _read_depot(ctx: Ctx, data: dict, ptr: str, rules: RuleBook,
                taken: dict[str, str]) -> list[Depot]:
    obj = Obj(ctx, data, ptr, DEPOT, "a depot")
    base = obj.get("name")
    if base is not None:
        where = obj.at("name")
        if not base:
            ctx.error(where, "a depot name can't be empty")
        elif "-" in base:
            ctx.error(where, f"depot name {base!r} contains '-', which is kept for copies "
                             "('column-2')")
        elif base in taken:
            ctx.error(where, f"depot name {base!r} is already used at {taken[base]}")
        else:
            taken[base] = where
    type_name = depot_type(ctx, obj.raw("type"), obj.at("type")) if obj.has("type") else None
    kw: dict[str, Any] = {}
    for key in _SIMPLE:
        if obj.has(key):
            got = obj.get(key)
            if got is not None:
                kw[snake(key)] = got
    if type_name is not None and "fan_direction" not in kw:
        dtype = ctx.registry.lookup("depot_types", type_name)
        kw["fan_direction"] = dtype.default_fan if isinstance(dtype, DepotType) else "None"
    if "fan_anchor" not in kw and kw.get("fan_direction") == "Radial":
        kw["fan_anchor"] = "Center"
    if obj.has("uncoveredBy"):
        names = depot_names(ctx, obj.raw("uncoveredBy"), obj.at("uncoveredBy"))
        kw["uncovered_by"] = names or ()
    # an omitted rule is the Any rule, placed where the property would be
    with ctx.reading("accept"):
        kw["accept"] = (read_accept(ctx, obj.raw("acceptRule"), obj.at("acceptRule"), rules)
                        if obj.has("acceptRule") else AcceptRule(ptr=obj.at("acceptRule")))
    kw["eject"] = (read_eject(ctx, obj.raw("ejectRule"), obj.at("ejectRule"), rules)
                   if obj.has("ejectRule") else EjectRule(ptr=obj.at("ejectRule")))
    if obj.has("draw"):
        kw["draw"] = _read_draw(ctx, obj.raw("draw"), obj.at("draw"))
    for key in ("autoSend", "autoRefill"):
        if obj.has(key):
            kw[snake(key)] = pattern(ctx, obj.raw(key), obj.at(key))
    col, row = obj.get("col", 0.0), obj.get("row", 0.0)
    if obj.has("x") or obj.has("y"):
        kw["x"], kw["y"] = obj.get("x", 0.0), obj.get("y", 0.0)
    if obj.has("perRow") and not obj.has("repeat"):
        ctx.error(obj.at("perRow"), "perRow works only with repeat")
    copies: list[tuple[str, str | None, int, float, float]]  # name, group, index, col, row
    if not obj.has("repeat"):
        copies = [(base or "", None, 0, col, row)]
    else:
        count = obj.get("repeat") or 1
        per_row = obj.get("perRow") or count
        copies = [(copy_name(base or "", k + 1), base, k + 1, col + k % per_row, row + k // per_row)
                  for k in range(count)]
    out = []
    for name, group, index, c, r in copies:
        extra: dict[str, Any] = {}
        if obj.has("triggers"):
            extra["triggers"] = _read_triggers(ctx, obj.raw("triggers"), obj.at("triggers"), name)
        if obj.has("actions"):
            extra["actions"] = _read_actions(ctx, obj.raw("actions"), obj.at("actions"), name)
        out.append(Depot(name=name, type=type_name or "", group=group, index=index, col=c, row=r,
                         ptr=ptr, **kw, **extra))
    return out


def read_depots(ctx: Ctx, value: Any, ptr: str, rules: RuleBook) -> tuple[Depot, ...]:
    items = as_list(ctx, value, ptr, "a list of depots")
    if items is None:
        return ()
    if not items:
        ctx.error(ptr, "a game needs at least one depot")
    out: list[Depot] = []
    taken: dict[str, str] = {}
    for i, data in enumerate(items):
        where = join(ptr, i)
        if not isinstance(data, dict):
            ctx.error(where, f"expected a depot object, found {describe(data)}")
            continue
        out.extend(_read_depot(ctx, data, where, rules, taken))
    if len(out) > MAX_DEPOTS:
        ctx.error(ptr, f"{len(out)} depots after repeat expansion; the limit is {MAX_DEPOTS}")
    return tuple(out)
