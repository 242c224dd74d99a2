"""Finding every expression in a game and checking each in its context."""

from __future__ import annotations

from typing import Any, Iterator

from cardz_core.expr.api import check_expr
from cardz_core.problems import Problem
from cardz_core.spec.model import Condition, Expr, Step

# the context of a step field given as an expression, by the field's kind (cardz_core.kinds)
_FIELD_CONTEXT = {"expr": "step", "numexpr": "count", "depot": "depotField", "depots": "depotsField"}


def check_spec(spec: Any, registry: Any = None) -> list[Problem]:
    """Type-check every expression of ``spec``; the problems, each at its expression's pointer."""
    if registry is None:
        from cardz_core.registry import default_registry
        registry = default_registry()
    problems: list[Problem] = []
    for expr, context, self_depot in expressions(spec, registry):
        problems += check_expr(expr, context, spec, registry, self_depot=self_depot)
    return problems


def expressions(spec: Any, registry: Any) -> Iterator[tuple[Expr, str, str | None]]:
    """Every expression with its context and, for triggers and actions, the depot it is on."""
    for depot in spec.depots:
        if depot.accept.when is not None:
            yield depot.accept.when, "accept", None
        if depot.draw is not None and depot.draw.when is not None:
            yield depot.draw.when, "draw", None
        for trigger in depot.triggers:
            yield trigger.when, "trigger", depot.name
            yield from _steps(trigger.do, registry, depot.name)
        for action in depot.actions:
            if action.when is not None:
                yield action.when, "action", depot.name
            yield from _steps(action.do, registry, depot.name)
    yield from _steps(spec.deal, registry, None)
    yield from _steps(spec.redeal, registry, None)
    for condition in (spec.win, spec.loss, spec.redeal_when):
        if condition is not None:
            yield from _conditions(condition)
    if spec.scoring is not None:
        yield spec.scoring.value, "scoring", None
    if spec.planner.value is not None:
        yield spec.planner.value, "planner", None


def _steps(steps: tuple[Step, ...], registry: Any, self_depot: str | None
           ) -> Iterator[tuple[Expr, str, str | None]]:
    for step in steps:
        kind = registry.deal_steps.get(step.kind)
        fields = getattr(kind, "fields", {})
        for name, value in step.args.items():
            if isinstance(value, Expr):
                field = fields.get(name)
                context = _FIELD_CONTEXT.get(getattr(field, "kind", "expr"), "step")
                yield value, context, self_depot or step.self_depot


def _conditions(condition: Condition) -> Iterator[tuple[Expr, str, str | None]]:
    for value in condition.args.values():
        if isinstance(value, Expr):
            yield value, "condition", None
        elif isinstance(value, (tuple, list)):
            for item in value:
                if isinstance(item, Condition):
                    yield from _conditions(item)
