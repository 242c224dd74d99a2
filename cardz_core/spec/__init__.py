"""Loading `.cardz` game files: ``load`` (spec and problems) and ``load_game`` (spec or CardzError).

Reading is one pass that collects every problem: JSON, structure, types, ranges, references.
Once that pass finds no error, the expressions are type-checked by ``cardz_core.expr.check_spec``,
which keeps their programs on the spec for compile to reuse. On a file with structural errors,
each expression whose own field read is checked against the depots whose names read
(``cardz_core.expr.read_problems``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import attrs

from cardz_core.problems import ERROR, CardzError, Problem
from cardz_core.registry import Registry, default_registry
from cardz_core.spec.game import read_game
from cardz_core.spec.model import GameSpec
from cardz_core.spec.reader import Ctx, Obj
from cardz_core.spec.source import read_source
from cardz_core.spec.tables import WRAPPER

__all__ = ["load", "load_game", "GameSpec"]

_WRAPPER_KEYS = {k.lower() for k in WRAPPER}


def _expr_module() -> Any:
    try:
        return importlib.import_module("cardz_core.expr")
    except ImportError:
        return None


def _expression_problems(spec: GameSpec, registry: Registry, text: str,
                         lenient: bool) -> list[Problem]:
    """Problems from ``cardz_core.expr.check_spec``, with the programs of the program cache's
    entry for ``text`` (``cardz_core.spec.cache``); none while that module does not provide it."""
    check = getattr(_expr_module(), "check_spec", None)
    if not callable(check):
        return []
    from cardz_core.spec.cache import checked

    return checked(spec, registry, text, lenient, check)


def _read_problems(ctx: Ctx, registry: Registry) -> list[Problem]:
    """On a file with structural errors there is no spec, but every expression whose own field
    read is still checked, against the depots whose names read (``read_problems``), so one pass
    shows unknown functions, names and properties beside the structural errors."""
    check = getattr(_expr_module(), "read_problems", None)
    if not callable(check):
        return []
    return list(check(ctx.exprs, ctx.names, ctx.groups, ctx.names_complete, registry))


def _unique(problems: list[Problem]) -> list[Problem]:
    """Drop repeats: a repeated depot's shared parts are read once per copy."""
    seen: set[tuple[str, str, str]] = set()
    out = []
    for p in problems:
        key = (p.path, p.message, p.severity)
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def load(source: Path | str | dict, *, registry: Registry | None = None, lenient: bool = False,
         file: str = "") -> tuple[GameSpec | None, list[Problem]]:
    """Read a game from a path, JSON text or a parsed dict. Returns ``(spec, problems)``; ``spec``
    is None when any problem is an error. ``lenient`` turns unknown properties into warnings."""
    if isinstance(source, Path) and not file:
        file = str(source)
    registry = registry or default_registry()
    data, text, problems = read_source(source, file)
    if problems:
        return None, problems
    ctx = Ctx(registry, lenient, file)
    spec = None
    if isinstance(data, dict) and any(isinstance(k, str) and k.lower() in _WRAPPER_KEYS for k in data):
        wrapper = Obj(ctx, data, "", WRAPPER, "the export wrapper")
        wrapper.get("schemaVersion")
        if wrapper.has("setup"):
            spec = read_game(ctx, wrapper.raw("setup"), wrapper.at("setup"), text)
    else:
        spec = read_game(ctx, data, "", text)
    problems = _unique(ctx.problems)
    if spec is not None and not ctx.failed:
        found = _expression_problems(spec, registry, text, lenient)
    else:
        found = _read_problems(ctx, registry)
    problems = _unique(problems + [p if p.file else attrs.evolve(p, file=file) for p in found])
    if any(p.severity == ERROR for p in problems):
        spec = None
    return spec, problems


def load_game(source: Path | str | dict, **kw: Any) -> GameSpec:
    """Like ``load``, but returns the spec or raises CardzError carrying every problem."""
    spec, problems = load(source, **kw)
    if spec is None:
        raise CardzError([p for p in problems if p.severity == ERROR] or problems)
    return spec
