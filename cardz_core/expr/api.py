"""Checking and compiling expressions against a game: the entry points the loader and the engine
use (pinned in docs/design.md)."""

from __future__ import annotations

import weakref
from typing import Any, Callable

from cardz_core.expr.compiler import Compiler, ExprProblem
from cardz_core.expr.contexts import CONTEXTS
from cardz_core.expr.parse import ExprSyntaxError, parse
from cardz_core.expr.tables import Tables
from cardz_core.problems import CardzError, Problem

_TABLES: dict[tuple[int, int], tuple[Any, Any, Tables]] = {}
_TABLES_KEPT = 16


def tables_for(spec: Any, registry: Any) -> Tables:
    """The game's expression tables, built once per (spec, registry)."""
    key = (id(spec), id(registry))
    hit = _TABLES.get(key)
    if hit is not None and hit[0]() is spec and hit[1] is registry:
        return hit[2]
    tables = Tables(spec, registry)
    if len(_TABLES) >= _TABLES_KEPT:
        _TABLES.clear()
    _TABLES[key] = (weakref.ref(spec), registry, tables)
    return tables


def _registry(registry: Any) -> Any:
    if registry is None:
        from cardz_core.registry import default_registry
        return default_registry()
    return registry


def compile_typed(expr: Any, context: str, spec: Any, registry: Any = None, *,
                  self_depot: int | str | None = None) -> tuple[str, Callable[[Any], Any]]:
    """The kind an expression gives and its compiled closure ``fn(env)``. ``expr`` is an ``Expr``
    (text and pointer) or plain text. Raises CardzError with the problem at the expression's
    pointer, the column in the message."""
    text = expr if isinstance(expr, str) else expr.text
    ptr = "" if isinstance(expr, str) else expr.ptr
    if context not in CONTEXTS:
        raise ValueError(f"unknown expression context {context!r}; one of {sorted(CONTEXTS)}")
    registry = _registry(registry)
    tables = tables_for(spec, registry)
    if isinstance(self_depot, str):
        self_depot = tables.depot_index[self_depot]
    try:
        tree = parse(text)
        return Compiler(tables, registry.functions, CONTEXTS[context], self_depot).compile(tree)
    except (ExprSyntaxError, ExprProblem) as exc:
        raise CardzError([Problem(ptr, f"column {exc.column}: {exc.message}")]) from None


def compile_expr(expr: Any, context: str, spec: Any, registry: Any = None, *,
                 self_depot: int | str | None = None) -> Callable[[Any], Any]:
    """The compiled closure ``fn(env) -> value`` of an expression in ``context`` (one of
    ``cardz_core.expr.CONTEXTS``). Parsed and checked here, once; calling it never parses."""
    return compile_typed(expr, context, spec, registry, self_depot=self_depot)[1]


def check_expr(expr: Any, context: str, spec: Any, registry: Any = None, *,
               self_depot: int | str | None = None) -> list[Problem]:
    """The problems of one expression (none or one)."""
    try:
        compile_typed(expr, context, spec, registry, self_depot=self_depot)
    except CardzError as exc:
        return exc.problems
    return []


def syntax_problems(exprs: Any) -> list[Problem]:
    """Syntax problems of expressions (``Expr``s), without type-checking: for a file whose
    structure is broken, where names can't be resolved yet. Same messages as ``check_expr``."""
    problems = []
    for expr in exprs:
        try:
            parse(expr.text)
        except ExprSyntaxError as exc:
            problems.append(Problem(expr.ptr, f"column {exc.column}: {exc.message}"))
    return problems
