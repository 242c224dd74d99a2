"""Closures for binary operators written out per operator, so the hot path makes one call per
operand and none for the operator itself (``operator.add`` would cost a further call)."""

from __future__ import annotations

from typing import Any, Callable

Fn = Callable[[Any], Any]


def binary(op: str, a: Fn, b: Fn) -> Fn | None:
    """``a(env) op b(env)`` for + - * == != < <= > >=; None for another operator."""
    if op == "+":
        return lambda env: a(env) + b(env)
    if op == "-":
        return lambda env: a(env) - b(env)
    if op == "*":
        return lambda env: a(env) * b(env)
    if op == "==":
        return lambda env: a(env) == b(env)
    if op == "!=":
        return lambda env: a(env) != b(env)
    if op == "<":
        return lambda env: a(env) < b(env)
    if op == "<=":
        return lambda env: a(env) <= b(env)
    if op == ">":
        return lambda env: a(env) > b(env)
    if op == ">=":
        return lambda env: a(env) >= b(env)
    return None


def binary_const(op: str, a: Fn, c: Any) -> Fn | None:
    """``a(env) op c`` for a value ``c`` known at compile time."""
    if op == "+":
        return lambda env: a(env) + c
    if op == "-":
        return lambda env: a(env) - c
    if op == "*":
        return lambda env: a(env) * c
    if op == "==":
        return lambda env: a(env) == c
    if op == "!=":
        return lambda env: a(env) != c
    if op == "<":
        return lambda env: a(env) < c
    if op == "<=":
        return lambda env: a(env) <= c
    if op == ">":
        return lambda env: a(env) > c
    if op == ">=":
        return lambda env: a(env) >= c
    return None
