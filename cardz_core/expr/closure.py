"""The Python engine's way to run a ``Program``: turned once into nested closures ``fn(env)``,
so evaluating makes one call per node and never looks at the tree again.

The builder picks the cheapest closure a node allows: operators written out per symbol
(``inline.py``), a constant right operand bound in, ``card.x`` and ``top.x`` read straight from
the ``Env``, and no missing-value checks where the program says no operand can be missing.

Numbers stay within ``MAX_EXPR_INT`` either way: the builder works out how large each sum or
product can be from its operands (constants, ranks, card values, earlier ``let`` values); one that
could pass the limit (a product of counts, say) checks its result, and refuses with a
``CardzError`` at the expression's pointer. The common rules (``top.value - 1``) check nothing.
"""

from __future__ import annotations

import operator
from functools import partial
from itertools import chain
from typing import Any, Callable

from cardz_core.expr.inline import binary, binary_const
from cardz_core.expr.program import Node, Program
from cardz_core.limits import MAX_EXPR_INT
from cardz_core.problems import CardzError
from cardz_core.signature import GAME, STATE
from cardz_core.expr.tables import Tables

Fn = Callable[[Any], Any]

_ARITH: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "%": lambda a, b: a % b if b else 0}
_ORDER: dict[str, Callable[[Any, Any], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
# property -> (Tables attribute, value when the card is missing or face-down)
_PROPS: dict[str, tuple[str, Any]] = {"rank": ("rank", None), "suit": ("suit", None),
                                      "colour": ("colour", None), "value": ("value", 0),
                                      "joker": ("joker", False)}


def _read_card(env: Any) -> Any:
    return env.card


def _read_top(env: Any) -> Any:
    return env.top


_BINDINGS: dict[str, Fn] = {
    "card": _read_card, "top": _read_top, "pile": lambda env: env.pile,
    "depot": lambda env: env.depot, "source": lambda env: env.source,
}
_COUNTERS: dict[str, Fn] = {
    "moves": lambda env: env.state.moves, "undos": lambda env: env.state.undos,
    "recycles_total": lambda env: env.state.recycles_total,
    "redeals": lambda env: env.state.redeals,
}


def closure(program: Program, tables: Tables, functions: Any, where: str = "") -> Fn:
    """``fn(env) -> value`` running ``program`` for the game ``tables`` were built for, calling
    the implementations of ``functions`` (name -> ``Function``, the registry's). ``where`` is the
    expression's JSON pointer, for the error of a number past ``MAX_EXPR_INT``."""
    fn = _Builder(tables, functions, where).build(program.root)
    if program.slots:
        fn = _with_vars(fn, program.slots)
    return fn


def _constant(value: Any) -> Fn:
    return lambda env: value


def _const(node: Node) -> tuple[bool, Any]:
    return (True, node[1]) if node[0] == "const" else (False, None)


class _Builder:
    def __init__(self, tables: Tables, functions: Any, where: str) -> None:
        self.t = tables
        self.functions = functions
        self.where = where
        self.var_bounds: dict[int, int | None] = {}  # let slot -> how large its value can be
        self.value_bound = max((abs(v) for v in tables.value.values()), default=0)

    def bound(self, node: Node) -> int | None:
        """How large (either way) the number ``node`` gives can be; None when nothing says (a
        function's result, a counter). A sum or product past ``MAX_EXPR_INT`` checks its result,
        so it is at most that."""
        op = node[0]
        if op == "const":
            v = node[1]
            return abs(v) if isinstance(v, int) else 0
        if op in ("zero", "neg"):
            return self.bound(node[1])
        if op == "prop":
            return {"rank": 13, "value": self.value_bound}.get(node[1])
        if op == "var":
            return self.var_bounds.get(node[1])
        if op == "arith":
            acc = self.arith_bound(node[1], node[2])
            return acc if acc is not None and acc <= MAX_EXPR_INT else MAX_EXPR_INT
        return None

    def arith_bound(self, symbols: tuple[str, ...], operands: tuple[Node, ...]) -> int | None:
        acc = self.bound(operands[0])
        for symbol, operand in zip(symbols, operands[1:]):
            b = self.bound(operand)
            if symbol == "%":  # the remainder is smaller than the divisor
                acc = b
            elif acc is None or b is None:
                acc = None
            else:
                acc = acc * b if symbol == "*" else acc + b
        return acc

    def checked(self, fn: Fn) -> Fn:
        """``fn`` refusing a number past ``MAX_EXPR_INT``."""
        def run(env: Any) -> Any:
            v = fn(env)
            if v is not None and not -MAX_EXPR_INT <= v <= MAX_EXPR_INT:
                raise CardzError(f"this expression works out to a number past {MAX_EXPR_INT} "
                                 "either way, the most an expression may compute", self.where)
            return v
        return run

    def build(self, node: Node) -> Fn:
        build: Callable[[Node], Fn] = getattr(self, "op_" + node[0])
        return build(node)

    def op_const(self, node: Node) -> Fn:
        return _constant(node[1])

    def op_bind(self, node: Node) -> Fn:
        return _BINDINGS[node[1]]

    def op_counter(self, node: Node) -> Fn:
        field = node[1]
        return _COUNTERS.get(field) or (lambda env: getattr(env.state, field))

    def op_var(self, node: Node) -> Fn:
        slot = node[1]
        return lambda env: env.vars[slot]

    def op_cards(self, node: Node) -> Fn:
        known, d = _const(node[1])
        if known:
            return (lambda env: env.state.piles[d]) if d >= 0 else _constant(())
        f = self.build(node[1])
        return lambda env: env.state.piles[d] if (d := f(env)) >= 0 else ()

    def op_cardsOf(self, node: Node) -> Fn:
        f = self.build(node[1])
        return lambda env: tuple(chain.from_iterable(map(env.state.piles.__getitem__, f(env))))

    def op_depots(self, node: Node) -> Fn:
        f = self.build(node[1])
        return lambda env: (d,) if (d := f(env)) >= 0 else ()

    def op_zero(self, node: Node) -> Fn:
        f = self.build(node[1])
        return lambda env: 0 if (v := f(env)) is None else v

    def op_prop(self, node: Node) -> Fn:
        prop, target = node[1], node[2]
        f = self.build(target)
        if prop == "faceUp":  # a face-up code is odd; None and unknown (negative even) codes are not
            return lambda env: (c := f(env)) is not None and c & 1 == 1
        attr, missing = _PROPS[prop]
        get = getattr(self.t, attr).get
        # `card.x` and `top.x` read the Env directly: the hottest reads of accept rules
        if f is _read_card:
            return lambda env: get(env.card, missing)
        if f is _read_top:
            return lambda env: get(env.top, missing)
        return lambda env: get(f(env), missing)

    def op_not(self, node: Node) -> Fn:
        f = self.build(node[1])
        return lambda env: not f(env)

    def op_neg(self, node: Node) -> Fn:
        f = self.build(node[1])
        if node[2]:
            return lambda env: None if (v := f(env)) is None else -v
        return lambda env: -f(env)

    def op_arith(self, node: Node) -> Fn:
        fn = self.arith(node)
        acc = self.arith_bound(node[1], node[2])
        return fn if acc is not None and acc <= MAX_EXPR_INT else self.checked(fn)

    def arith(self, node: Node) -> Fn:
        symbols, operands, maybe = node[1], node[2], node[3]
        ops = [_ARITH[s] for s in symbols]
        fns = [self.build(o) for o in operands]
        if len(fns) == 2 and not maybe:
            symbol, a, b, op = symbols[0], fns[0], fns[1], ops[0]
            known, c = _const(operands[1])
            if known:
                return binary_const(symbol, a, c) or (lambda env: op(a(env), c))
            return binary(symbol, a, b) or (lambda env: op(a(env), b(env)))
        pairs = list(zip(ops, fns[1:]))
        first = fns[0]
        if not maybe:
            def run(env: Any) -> Any:
                acc = first(env)
                for op, g in pairs:
                    acc = op(acc, g(env))
                return acc
            return run

        def run_maybe(env: Any) -> Any:
            acc = first(env)
            for op, g in pairs:
                v = g(env)
                acc = None if acc is None or v is None else op(acc, v)
            return acc
        return run_maybe

    def op_cmp(self, node: Node) -> Fn:
        symbol, how, left, right = node[1], node[2], node[3], node[4]
        fn = compare(symbol, how)
        plain = symbol if how == "plain" else None
        a = self.build(left)
        known, c = _const(right)
        if known:
            if plain is not None:
                return binary_const(plain, a, c) or (lambda env: fn(a(env), c))
            return lambda env: fn(a(env), c)
        b = self.build(right)
        if plain is not None:
            return binary(plain, a, b) or (lambda env: fn(a(env), b(env)))
        return lambda env: fn(a(env), b(env))

    def op_and(self, node: Node) -> Fn:
        return self.logic(node[1], stop=False)

    def op_or(self, node: Node) -> Fn:
        return self.logic(node[1], stop=True)

    def logic(self, operands: tuple[Node, ...], stop: bool) -> Fn:
        """`&&` (stop at the first false) and `||` (stop at the first true)."""
        fns = [self.build(o) for o in operands]
        if len(fns) == 1:
            return fns[0]
        if len(fns) == 2:
            a, b = fns
            if stop:
                return lambda env: a(env) or b(env)
            return lambda env: a(env) and b(env)

        def run(env: Any) -> bool:
            for f in fns:
                if f(env) == stop:
                    return stop
            return not stop
        return run

    def op_let(self, node: Node) -> Fn:
        slot = node[1]
        self.var_bounds[slot] = self.bound(node[2])
        v, b = self.build(node[2]), self.build(node[3])

        def run(env: Any) -> Any:
            env.vars[slot] = v(env)
            return b(env)
        return run

    def op_each(self, node: Node) -> Fn:
        """An argument worked out per item: ``make(env)`` gives the ``f(item)`` the
        implementation calls."""
        slot, body = node[1], node[2]
        known, v = _const(body)
        if known:
            return _constant(lambda item: v)
        f = self.build(body)

        def make(env: Any) -> Callable[[Any], Any]:
            slots = env.vars

            def each(item: Any) -> Any:
                slots[slot] = item
                return f(env)
            return each
        return make

    def op_call(self, node: Node) -> Fn:
        name, overload, args = node[1], node[2], node[3]
        sig = self.functions[name].overloads[overload]
        fns = [self.build(a) for a in args]
        if sig.needs == STATE:
            t, raw = self.t, sig.fn
            return lambda env: raw(t, env.state, *[f(env) for f in fns])
        fn = partial(sig.fn, self.t) if sig.needs == GAME else sig.fn
        if len(fns) == 1:
            a = fns[0]
            return lambda env: fn(a(env))
        if len(fns) == 2:
            a, b = fns
            return lambda env: fn(a(env), b(env))
        return lambda env: fn(*[f(env) for f in fns])


def compare(symbol: str, how: str) -> Callable[[Any, Any], bool]:
    """The test a ``cmp`` node makes: ``how`` is ``plain`` (nothing can be missing), ``maybe``
    (a missing side makes it false, true for ``!=``), ``card`` (the same face-up card) or
    ``depot`` (the same depot, not none)."""
    if symbol in _ORDER:
        order = _ORDER[symbol]
        return order if how == "plain" else _maybe(order)
    eq: Callable[[Any, Any], bool]
    if how == "card":
        eq = _card_eq
    elif how == "depot":
        eq = _depot_eq
    elif how == "maybe":
        eq = _maybe(operator.eq)
    else:
        eq = operator.eq
    if symbol == "!=":
        return lambda a, b: not eq(a, b)
    return eq


def _maybe(cmp: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    return lambda a, b: a is not None and b is not None and cmp(a, b)


def _card_eq(a: Any, b: Any) -> bool:
    """The same card, both face-up: no card and face-down cards equal nothing."""
    return a is not None and a == b and a & 1 == 1


def _depot_eq(a: int, b: int) -> bool:
    return a == b and a >= 0


def _with_vars(f: Fn, n: int) -> Fn:
    def run(env: Any) -> Any:
        env.vars = [None] * n
        return f(env)
    return run
