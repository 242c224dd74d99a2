"""References to depots: single names, lists of names, and depot patterns.

Depot names are case-sensitive (they are the file's own words, not vocabulary). A repeated
depot's name (``column``) stands for all its copies wherever a list of depots is wanted and is
expanded here, in order, so later stages only ever see real depot names.
"""

from __future__ import annotations

import json
from typing import Any

from cardz_core.problems import join
from cardz_core.spec.model import Expr, Pattern
from cardz_core.spec.reader import Ctx, Obj, as_expr, as_string, describe, no_repeats, suggest
from cardz_core.spec.tables import PATTERN, SELF


def _is_self(value: str) -> bool:
    return value.strip().lower() == SELF


def _unknown(ctx: Ctx, value: str, ptr: str) -> None:
    if not ctx.names_complete:
        return
    if _is_self(value):
        ctx.error(ptr, f"{SELF} names a step's own depot, so it works only in triggers and actions")
    else:
        ctx.error(ptr, f"no depot named {value!r}{suggest(value, list(ctx.names) + list(ctx.groups))}")


def depot_ref(ctx: Ctx, value: Any, ptr: str, self_name: str | None = None,
              allow_expr: bool = False) -> str | Expr | None:
    """One depot. In a trigger or action ``@self`` is the step's own depot and any other text
    that is not a depot's name is an expression, read when the step runs."""
    if not isinstance(value, str):
        ctx.error(ptr, f"expected a depot name, found {describe(value)}")
        return None
    if self_name is not None and _is_self(value):
        return self_name
    if value in ctx.names:
        return value
    if allow_expr:
        return as_expr(ctx, value, ptr)
    if value in ctx.groups:
        copies = ctx.groups[value]
        ctx.error(ptr, f"{value!r} is a repeated depot; name one of its copies "
                       f"({copies[0]!r} ... {copies[-1]!r})")
    else:
        _unknown(ctx, value, ptr)
    return None


def _names_item(ctx: Ctx, value: Any, ptr: str, self_name: str | None) -> tuple[str, ...] | None:
    if not isinstance(value, str):
        ctx.error(ptr, f"expected a depot name, found {describe(value)}")
        return None
    if self_name is not None and _is_self(value):
        return (self_name,)
    if value in ctx.names:
        return (value,)
    if value in ctx.groups:
        return ctx.groups[value]
    _unknown(ctx, value, ptr)
    return None


def depot_names(ctx: Ctx, value: Any, ptr: str, self_name: str | None = None,
                allow_expr: bool = False) -> tuple[str, ...] | Expr | None:
    """A list of depots: names, or one name; a repeated depot's name means its copies. In a trigger
    or action, text that names no depot is an expression giving the depots."""
    if isinstance(value, str):
        if allow_expr and not (value in ctx.names or value in ctx.groups
                               or (self_name is not None and _is_self(value))):
            return as_expr(ctx, value, ptr)
        return _names_item(ctx, value, ptr, self_name)
    if not isinstance(value, list):
        ctx.error(ptr, f"expected a depot name or a list of them, found {describe(value)}")
        return None
    out: list[str] = []
    ok = True
    for i, item in enumerate(value):
        got = _names_item(ctx, item, join(ptr, i), self_name)
        if got is None:
            ok = False
        else:
            out.extend(got)
    if ok:
        no_repeats(ctx, [v for v in value], ptr, "depot")
    return tuple(out) if ok else None


def group_ref(ctx: Ctx, value: Any, ptr: str) -> str | None:
    """The shared name of a repeated depot (``cell`` for ``cell-1`` ...)."""
    name = as_string(ctx, value, ptr)
    if name is None:
        return None
    if name not in ctx.groups:
        if not ctx.names_complete:
            return None
        hint = f" ({name!r} is a single depot; it has no copies)" if name in ctx.names else ""
        ctx.error(ptr, f"{name!r} is not a repeated depot{hint}")
        return None
    return name


def depot_type(ctx: Ctx, value: Any, ptr: str) -> str | None:
    """A registered depot type in its registered spelling."""
    name = as_string(ctx, value, ptr)
    if name is None:
        return None
    found = ctx.registry.canonical("depot_types", name)
    if found is None:
        types = list(ctx.registry.depot_types)
        ctx.error(ptr, f"unknown depot type {name!r}; the types are {', '.join(types)}"
                       f"{suggest(name, types)}")
    return found


def pattern(ctx: Ctx, value: Any, ptr: str) -> Pattern | None:
    """A depot pattern: ``{"ofType": T}`` or ``{"names": [...]}``, or bare: a type's name or a
    list of names."""
    if isinstance(value, str):
        # the reference: a bare string names a depot type, even where a depot has that name
        found = ctx.registry.canonical("depot_types", value)
        if found is not None:
            return Pattern(found, None, ptr)
        if value in ctx.names or value in ctx.groups:
            ctx.error(ptr, f"{value!r} is a depot's name, but a bare pattern names a depot type: "
                           f"write [{json.dumps(value)}] for the depot")
        elif ctx.names_complete:
            ctx.error(ptr, f"{value!r} is not a depot type"
                           f"{suggest(value, list(ctx.registry.depot_types))}")
        return None
    if isinstance(value, list):
        names = depot_names(ctx, value, ptr)
        return None if names is None else Pattern(None, names, ptr)  # type: ignore[arg-type]
    if not isinstance(value, dict):
        ctx.error(ptr, f"expected a depot pattern (a type, a list of names, or an object), "
                       f"found {describe(value)}")
        return None
    obj = Obj(ctx, value, ptr, PATTERN, "a depot pattern")
    if obj.has("ofType") == obj.has("names"):
        ctx.error(ptr, "a depot pattern sets exactly one of 'ofType' and 'names'")
        return None
    if obj.has("ofType"):
        found = depot_type(ctx, obj.raw("ofType"), obj.at("ofType"))
        return None if found is None else Pattern(found, None, ptr)
    names = depot_names(ctx, obj.raw("names"), obj.at("names"))
    return None if names is None else Pattern(None, names, ptr)  # type: ignore[arg-type]
