"""Finding every expression in a game, with the context it is checked and compiled in."""

from __future__ import annotations

from typing import Any, Iterator

from cardz_core.spec.model import Condition, Expr, Step
from cardz_core.spec.steps import FIELD_CONTEXT


def expressions(spec: Any, registry: Any) -> Iterator[tuple[Expr, str, str | None]]:
    """Every expression with its context and the depot it belongs to: an accept rule's, or the
    one a trigger or action (and its steps) is on; None elsewhere."""
    for depot in spec.depots:
        if depot.accept.when is not None:
            yield depot.accept.when, "accept", depot.name
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
                context = FIELD_CONTEXT.get(getattr(field, "kind", "expr"), "step")
                yield value, context, self_depot or step.self_depot


def _conditions(condition: Condition) -> Iterator[tuple[Expr, str, str | None]]:
    for value in condition.args.values():
        if isinstance(value, Expr):
            yield value, "condition", None
        elif isinstance(value, (tuple, list)):
            for item in value:
                if isinstance(item, Condition):
                    yield from _conditions(item)
