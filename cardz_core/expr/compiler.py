"""Type checking and compiling one expression, in one pass over its syntax tree: each node's
kind is worked out and its program node written (``program.py``): names resolved, constants
folded, overloads chosen. ``closure.py`` turns the program into closures for the Python engine.

A syntax node compiles to a ``Typed``: its kind, its program node, and ``maybe``: whether it can
be missing (None) at run time, which only rank, suit and colour values (and numbers made from
them) can be. A node ``("const", value)`` is a value known at compile time.
"""

from __future__ import annotations

import difflib
import operator
from functools import partial
from typing import Any

from lark import Token, Tree

from cardz_core.cards import BLACK, COLOR_WORDS, RANK_WORDS, RED, SUIT_WORDS
from cardz_core.expr.closure import compare
from cardz_core.expr.contexts import ANY, CONTEXT_NAMES, Context
from cardz_core.expr.program import Node, Program, is_data, reads_of
from cardz_core.problems import CardzError
from cardz_core.signature import GAME, ITEM_OF, STATE, Each, Function, FunctionError, Signature
from cardz_core.expr.tables import Tables
from cardz_core.limits import MAX_EXPR_INT

KIND_NAMES = {
    "number": "a number", "bool": "a condition", "card": "a card", "cards": "a list of cards",
    "depot": "a depot", "depots": "a list of depots", "rank": "a rank", "suit": "a suit",
    "colour": "a colour", "text": "a quoted name", "items": "a list", ANY: "a value",
}
# property as written -> (kind, property in the program)
CARD_PROPERTIES = {"rank": ("rank", "rank"), "suit": ("suit", "suit"), "color": ("colour", "colour"),
                   "value": ("number", "value"), "faceUp": ("bool", "faceUp"),
                   "joker": ("bool", "joker")}
WORDS: dict[str, tuple[str, int]] = {}
for _r in range(1, 14):
    WORDS[RANK_WORDS[_r]] = ("rank", _r)
for _s, _w in enumerate(SUIT_WORDS):
    WORDS[_w] = ("suit", _s)
WORDS[COLOR_WORDS[BLACK]] = ("colour", BLACK)
WORDS[COLOR_WORDS[RED]] = ("colour", RED)

_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul,
          "%": lambda a, b: a % b if b else 0}
_ORDER = ("<", "<=", ">", ">=")
_NUMERIC = ("number", "rank")
_EQUATABLE = ("card", "depot", "suit", "colour", "bool")
# context names read from the position: name -> State field
_SUGGEST_CHARS = 40  # the longest unknown name a close match is looked for
_COUNTERS = {"moves": "moves", "undos": "undos", "recycles": "recycles_total", "redeals": "redeals"}


class ExprProblem(Exception):
    """A type error at a column of the expression. ``names`` marks a problem that only holds if
    the game's depot names are all known (an unknown name may be a depot the file fails to
    declare)."""

    def __init__(self, column: int, message: str, names: bool = False) -> None:
        super().__init__(f"column {column}: {message}")
        self.column = column
        self.message = message
        self.names = names


class Typed:
    """A compiled node: kind, program node, maybe-missing."""

    __slots__ = ("kind", "node", "maybe")

    def __init__(self, kind: str, node: Node, maybe: bool = False) -> None:
        self.kind = kind
        self.node = node
        self.maybe = maybe

    @property
    def is_const(self) -> bool:
        return self.node[0] == "const"

    @property
    def const(self) -> Any:
        return self.node[1]


def _value(kind: str, value: Any, maybe: bool = False) -> Typed:
    return Typed(kind, ("const", value), maybe)


def column(node: Tree | Token) -> int:
    if isinstance(node, Token):
        return (node.start_pos or 0) + 1
    return 1 if node.meta.empty else node.meta.start_pos + 1


def _kind_name(kind: str) -> str:
    return KIND_NAMES.get(kind, kind)


class Compiler:
    """Compiles one expression for one context of one game."""

    def __init__(self, tables: Tables, functions: Any, context: Context,
                 self_depot: int | None = None) -> None:
        self.t = tables
        self.functions = functions
        self.context = context
        self.self_depot = self_depot
        self.scopes: list[dict[str, Typed]] = []  # let names and named items, innermost last
        self.items: list[Typed] = []  # what `it` is, innermost last
        self.nslots = 0

    # --- entry -----------------------------------------------------------------------------

    def compile(self, tree: Tree) -> Program:
        """The expression's program, checked against the context."""
        typed = self.node(tree)
        want = self.context.result
        if typed.kind == "text":
            raise ExprProblem(column(tree), "a quoted name only names a depot, as in depot(\"x\")")
        if want == "depots" and typed.kind == "depot":
            if typed.is_const:
                d = typed.const
                typed = _value("depots", (d,) if d >= 0 else ())
            else:
                typed = Typed("depots", ("depots", typed.node))
        elif want != ANY:
            typed = self.need(typed, want, tree, f"{self.context.where} must give")
        return Program(typed.kind, typed.node, self.nslots, reads_of(typed.node, self.functions))

    # --- helpers ---------------------------------------------------------------------------

    def need(self, typed: Typed, kind: str, node: Tree | Token, what: str) -> Typed:
        """``typed`` as ``kind``, converting where the language allows, else a problem."""
        converted = self.coerce(typed, kind)
        if converted is None:
            raise ExprProblem(column(node), f"{what} {_kind_name(kind)}, but this is "
                                            f"{_kind_name(typed.kind)}{_hint(typed.kind, kind)}")
        return converted

    def coerce(self, typed: Typed, kind: str) -> Typed | None:
        k = typed.kind
        if kind == "number" and k in _NUMERIC:  # a missing rank counts as 0 once it is a number
            if typed.is_const:
                return _value("number", 0 if typed.const is None else typed.const)
            return Typed("number", ("zero", typed.node) if typed.maybe else typed.node)
        if k == kind:
            return typed
        if kind in ("cards", "items") and k == "depot":
            if typed.is_const and typed.const < 0:
                return _value("cards", ())
            return Typed("cards", ("cards", typed.node))
        if kind == "items" and k in ("cards", "depots"):
            return typed
        if kind == "cards" and k == "depots":
            return Typed("cards", ("cardsOf", typed.node))
        return None

    def bind_slot(self, kind: str, maybe: bool) -> tuple[int, Typed]:
        slot = self.nslots
        self.nslots += 1
        return slot, Typed(kind, ("var", slot), maybe=maybe)

    # --- nodes -----------------------------------------------------------------------------

    def node(self, tree: Tree) -> Typed:
        """Dispatch on the grammar's rule (or alias) name: ``n_<name>``."""
        return getattr(self, "n_" + str(tree.data))(tree)

    def n_number(self, tree: Tree) -> Typed:
        digits = str(tree.children[0]).lstrip("0") or "0"
        # the length first: int() of thousands of digits is slow, and past 4,300 refused
        if len(digits) > len(str(MAX_EXPR_INT)) or int(digits) > MAX_EXPR_INT:
            raise ExprProblem(column(tree), f"this number has {len(digits)} digits; numbers in an "
                                            f"expression are at most {MAX_EXPR_INT}")
        return _value("number", int(digits))

    def n_true(self, tree: Tree) -> Typed:
        return _value("bool", True)

    def n_false(self, tree: Tree) -> Typed:
        return _value("bool", False)

    def n_string(self, tree: Tree) -> Typed:
        return _value("text", str(tree.children[0])[1:-1])

    def n_it(self, tree: Tree) -> Typed:
        if not self.items:
            raise ExprProblem(column(tree), "`it` means the item in the second argument of a function "
                                            "that goes through a list, like count(column, empty(it))")
        return self.items[-1]

    def n_named(self, tree: Tree) -> Typed:
        raise ExprProblem(column(tree), "`name in list` can only be the first argument of a function "
                                        "that goes through a list, like count(c in discard, c.faceUp)")

    def n_name(self, tree: Tree) -> Typed:
        tok = tree.children[0]
        name = str(tok)
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        ctx = self.context
        if name in ctx.names:
            return self.context_name(name)
        t = self.t
        if name in t.depot_index:
            return _value("depot", t.depot_index[name])
        if name in t.groups:
            return _value("depots", t.groups[name])
        if name in WORDS:
            kind, value = WORDS[name]
            return _value(kind, value)
        if name in t.types:
            return _value("depots", t.types[name])
        if name in CONTEXT_NAMES:
            sees = ", ".join(sorted(ctx.names)) or "only the depots"
            raise ExprProblem(column(tok), f"`{name}` can't be seen in {ctx.where} (it sees {sees})")
        if name in self.functions:
            raise ExprProblem(column(tok), f"`{name}` is a function: call it, as in {name}(...)")
        raise ExprProblem(column(tok), f"unknown name `{name}`{self.suggest(name)}", names=True)

    def suggest(self, name: str) -> str:
        known = set(WORDS) | set(self.t.depot_index) | set(self.t.groups) | set(self.t.types)
        known |= self.context.names
        for scope in self.scopes:
            known |= set(scope)
        low = name.lower()
        same = [k for k in known if len(k) == len(name) and k.lower() == low]
        # a close match is looked for only for a name of typo length: for long ones it costs
        # time in proportion to every known name's length, per unknown name in the file
        close = same or (difflib.get_close_matches(name, sorted(known), n=1)
                         if len(name) <= _SUGGEST_CHARS else [])
        return f" (did you mean `{close[0]}`? names are case-sensitive)" if same else \
            (f" (did you mean `{close[0]}`?)" if close else "")

    def context_name(self, name: str) -> Typed:
        kind = CONTEXT_NAMES[name]
        if name == "depot" and self.context.self_is_depot and self.self_depot is not None:
            return _value("depot", self.self_depot)
        if name in _COUNTERS:
            return Typed(kind, ("counter", _COUNTERS[name]))
        return Typed(kind, ("bind", name))

    def n_prop(self, tree: Tree) -> Typed:
        target_tree, tok = tree.children
        target = self.node(target_tree)
        prop = str(tok)
        if prop not in CARD_PROPERTIES:
            have = ", ".join(CARD_PROPERTIES)
            close = difflib.get_close_matches(prop, list(CARD_PROPERTIES), n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            raise ExprProblem(column(tok), f"a card has no property `{prop}`{hint}; it has {have}")
        if target.kind != "card":
            hint = (f"; use top(…).{prop} for the top card"
                    if target.kind in ("depot", "depots", "cards") else "")
            raise ExprProblem(column(tok), f"only a card has properties, and this is "
                                           f"{_kind_name(target.kind)}{hint}")
        kind, name = CARD_PROPERTIES[prop]
        return Typed(kind, ("prop", name, target.node), maybe=kind not in ("number", "bool"))

    def n_not_(self, tree: Tree) -> Typed:
        inner = self.need(self.node(tree.children[0]), "bool", tree.children[0], "`!` needs")
        if inner.is_const:
            return _value("bool", not inner.const)
        return Typed("bool", ("not", inner.node))

    def n_neg(self, tree: Tree) -> Typed:
        inner = self.numeric(tree.children[0], "`-` needs")
        if inner.is_const:
            return _value("number", None if inner.const is None else -inner.const)
        return Typed("number", ("neg", inner.node, inner.maybe), maybe=inner.maybe)

    def numeric(self, node: Tree, what: str) -> Typed:
        typed = self.node(node)
        if typed.kind not in _NUMERIC:
            raise ExprProblem(column(node), f"{what} a number, but this is {_kind_name(typed.kind)}"
                                            f"{_hint(typed.kind, 'number')}")
        return typed

    def n_sum(self, tree: Tree) -> Typed:
        self.copy_name_hint(tree)
        return self.arith(tree)

    def n_product(self, tree: Tree) -> Typed:
        return self.arith(tree)

    def copy_name_hint(self, tree: Tree) -> None:
        """`tower-2` reads as tower minus 2; say how to name the copy."""
        kids = tree.children
        for left, op, right in zip(kids[0::2], kids[1::2], kids[2::2]):
            if (str(op) == "-" and isinstance(left, Tree) and left.data == "name"
                    and isinstance(right, Tree) and right.data == "number"):
                full = f"{left.children[0]}-{right.children[0]}"
                if full in self.t.depot_index:
                    raise ExprProblem(column(left), f"`{full}` reads as a subtraction; "
                                                    f"name the copy as depot(\"{full}\")")

    def arith(self, tree: Tree) -> Typed:
        kids = tree.children
        # each operand is named by the operator next to it: `a + card` says `+` needs a number
        operands = [self.numeric(k, f"`{kids[max(i - 1, 1)]}` needs")
                    for i, k in enumerate(kids) if i % 2 == 0]
        symbols = tuple(str(o) for o in kids[1::2])
        maybe = any(o.maybe for o in operands)
        if all(o.is_const for o in operands):
            acc = operands[0].const
            for symbol, o in zip(symbols, operands[1:]):
                acc = None if acc is None or o.const is None else _ARITH[symbol](acc, o.const)
            if acc is not None and not -MAX_EXPR_INT <= acc <= MAX_EXPR_INT:
                raise ExprProblem(column(tree), f"this works out to a number past {MAX_EXPR_INT} "
                                                "either way, the most an expression may compute")
            return _value("number", acc, maybe=acc is None)
        return Typed("number", ("arith", symbols, tuple(o.node for o in operands), maybe),
                     maybe=maybe)

    def n_comparison(self, tree: Tree) -> Typed:
        left_tree, op_tok, right_tree = tree.children
        left, right = self.node(left_tree), self.node(right_tree)
        op = str(op_tok)
        lk, rk = left.kind, right.kind
        if op in _ORDER:
            for side, node in ((left, left_tree), (right, right_tree)):
                if side.kind not in _NUMERIC:
                    raise ExprProblem(column(node), f"only numbers and ranks can be ordered, and this is "
                                                    f"{_kind_name(side.kind)}{_hint(side.kind, 'number')}")
            return self.fold2(op, "maybe" if left.maybe or right.maybe else "plain", left, right)
        same = (lk in _NUMERIC and rk in _NUMERIC) or (lk == rk and lk in _EQUATABLE)
        if not same:
            if lk == rk:
                raise ExprProblem(column(op_tok), f"{_kind_name(lk)} can't be compared with `{op}`"
                                                  f"{_hint(lk, 'number')}")
            raise ExprProblem(column(op_tok), f"can't compare {_kind_name(lk)} with {_kind_name(rk)}"
                                              f"{_hint(lk if lk not in _NUMERIC else rk, 'number')}")
        if lk in ("card", "depot"):
            how = lk
        else:
            how = "maybe" if left.maybe or right.maybe else "plain"
        return self.fold2(op, how, left, right)

    def fold2(self, op: str, how: str, left: Typed, right: Typed) -> Typed:
        """A comparison (``how``: see ``closure.compare``), worked out now when both sides are
        known."""
        if left.is_const and right.is_const:
            return _value("bool", compare(op, how)(left.const, right.const))
        return Typed("bool", ("cmp", op, how, left.node, right.node))

    def n_and_expr(self, tree: Tree) -> Typed:
        return self.logic(tree, "&&", stop=False)

    def n_or_expr(self, tree: Tree) -> Typed:
        return self.logic(tree, "||", stop=True)

    def logic(self, tree: Tree, op: str, stop: bool) -> Typed:
        """`&&` (stop at the first false) and `||` (stop at the first true)."""
        operands = [self.need(self.node(kid), "bool", kid, f"`{op}` needs") for kid in tree.children]
        nodes = []
        for typed in operands:  # all checked first, so folding hides no error
            if typed.is_const:
                if typed.const == stop:
                    return _value("bool", stop)
                continue
            nodes.append(typed.node)
        if not nodes:
            return _value("bool", not stop)
        if len(nodes) == 1:
            return Typed("bool", nodes[0])
        return Typed("bool", ("or" if stop else "and", tuple(nodes)))

    def n_let(self, tree: Tree) -> Typed:
        name_tok, value_tree, body_tree = tree.children
        value = self.node(value_tree)
        if value.kind == "text":
            raise ExprProblem(column(value_tree), "a quoted name only names a depot, as in depot(\"x\")")
        if value.is_const:
            bound = value
            slot = -1
        else:
            slot, bound = self.bind_slot(value.kind, value.maybe)
        self.scopes.append({str(name_tok): bound})
        try:
            body = self.node(body_tree)
        finally:
            self.scopes.pop()
        if slot < 0:
            return body
        return Typed(body.kind, ("let", slot, value.node, body.node), maybe=body.maybe)

    # --- calls -----------------------------------------------------------------------------

    def n_call(self, tree: Tree) -> Typed:
        name_tok, *arg_trees = tree.children
        arg_trees = [a for a in arg_trees if a is not None]
        name = str(name_tok)
        func = self.functions.get(name)
        if func is None:
            close = [k for k in self.functions if k.lower() == name.lower()] or \
                difflib.get_close_matches(name, sorted(self.functions), n=1)
            hint = f" (did you mean `{close[0]}`?)" if close else ""
            raise ExprProblem(column(name_tok), f"unknown function `{name}`{hint}")
        candidates = [s for s in func.overloads if len(s.params) == len(arg_trees)]
        if not candidates:
            raise ExprProblem(column(name_tok), f"`{name}` can't take {len(arg_trees)} argument"
                                                f"{'' if len(arg_trees) == 1 else 's'}; "
                                                f"it is {_signatures(name, func)}")
        plain: dict[int, Typed | ExprProblem] = {}
        named: dict[int, tuple[str, Typed]] = {}

        def plain_arg(i: int) -> Typed | ExprProblem:
            if i not in plain:
                node = arg_trees[i]
                try:
                    if isinstance(node, Tree) and node.data == "named":
                        item_tok, list_tree = node.children
                        typed = self.node(list_tree)
                        named[i] = (str(item_tok), typed)
                    else:
                        typed = self.node(node)
                    plain[i] = typed
                except ExprProblem as exc:
                    plain[i] = exc
            return plain[i]

        best: tuple[int, Signature] | None = None
        first_error: ExprProblem | None = None
        for sig in candidates:
            cost = 0
            for i, param in enumerate(sig.params):
                if isinstance(param, Each):
                    continue
                typed = plain_arg(i)
                if isinstance(typed, ExprProblem):
                    first_error = first_error or typed
                    cost = -1
                    break
                step = _cost(param, typed.kind)
                if step is None:
                    cost = -1
                    break
                cost += step
            if cost >= 0 and (best is None or cost < best[0]):
                best = (cost, sig)
        if best is None:
            if first_error is not None:
                raise first_error
            kinds = []
            for i in range(len(arg_trees)):
                typed = plain_arg(i)
                kinds.append("…" if isinstance(typed, ExprProblem) else _kind_name(typed.kind))
            raise ExprProblem(column(name_tok), f"`{name}` can't take ({', '.join(kinds)}); it is "
                                                f"{_signatures(name, func)}")
        sig = best[1]
        return self.call(name, func.overloads.index(sig), sig, arg_trees, plain, named, tree)

    def call(self, name: str, overload: int, sig: Signature, arg_trees: list[Tree],
             plain: dict[int, Any], named: dict[int, tuple[str, Typed]], tree: Tree) -> Typed:
        args: list[Typed] = []
        for i, param in enumerate(sig.params):
            if isinstance(param, Each):
                args.append(self.each_arg(name, i, param, arg_trees[i], args, named))
                continue
            if i in named and not any(isinstance(p, Each) and p.of == i for p in sig.params):
                raise ExprProblem(column(arg_trees[i]), f"`{name}` doesn't go through this list, so "
                                                         "its items can't be named here")
            typed = plain[i]
            converted = self.coerce(typed, param)
            assert converted is not None  # the overload was chosen because it fits
            args.append(converted)
        has_each = any(isinstance(p, Each) for p in sig.params)
        fn = partial(sig.fn, self.t) if sig.needs == GAME else sig.fn
        maybe = sig.result in ("rank", "suit", "colour")
        if sig.needs != STATE and not has_each and all(a.is_const for a in args):
            try:
                value = fn(*[a.const for a in args])
            except (FunctionError, CardzError) as exc:  # CardzError: a plugin's answer of
                # another kind (registry._results_checked), named at the call
                raise ExprProblem(column(tree), str(exc), names=True) from None
            if isinstance(value, list):
                value = tuple(value)
            if is_data(value):  # else worked out at run time: a program holds only data
                return _value(sig.result, value, maybe=maybe)
        return Typed(sig.result, ("call", name, overload, tuple(a.node for a in args)), maybe=maybe)

    def each_arg(self, name: str, position: int, param: Each, node: Tree, args: list[Typed],
                 named: dict[int, tuple[str, Typed]]) -> Typed:
        """An argument worked out per item: compiled with `it` (or the item's name) bound."""
        if isinstance(node, Tree) and node.data == "named":
            raise ExprProblem(column(node), "only the list a function goes through can be named")
        list_kind = args[param.of].kind
        item_kind = ITEM_OF[list_kind]
        slot, item = self.bind_slot(item_kind, False)
        if param.of in named:
            self.scopes.append({named[param.of][0]: item})
        else:
            self.items.append(item)
        try:
            body = self.node(node)
        finally:
            if param.of in named:
                self.scopes.pop()
            else:
                self.items.pop()
        body = self.need(body, param.result, node, f"argument {position + 1} of `{name}` must be")
        return Typed("each", ("each", slot, body.node))


def _cost(param: Any, kind: str) -> int | None:
    """0 for an exact fit, 1 for a conversion, None when the argument doesn't fit."""
    if param == kind:
        return 0
    if param == "items":
        return 0 if kind in ITEM_OF else (1 if kind == "depot" else None)
    if param == "cards" and kind in ("depot", "depots"):
        return 1
    if param == "number" and kind == "rank":
        return 1
    return None


def _signatures(name: str, func: Function) -> str:
    """How ``name`` is called, with its line of help where it has one: what a designer who
    called it wrongly wants to read."""
    said = " or ".join(s.describe(name) for s in func.overloads)
    return f"{said}: {func.doc}" if func.doc else said


def _hint(kind: str, wanted: str) -> str:
    if kind == "card" and wanted in ("number", "bool"):
        return " (use its .value or .rank)"
    if kind in ("depot", "depots", "cards") and wanted in ("number", "bool"):
        return " (use count(...) or empty(...))"
    if kind == "suit" and wanted == "number":
        return " (a suit is not a number)"
    return ""
