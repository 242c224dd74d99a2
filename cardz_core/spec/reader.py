"""Reading JSON values into checked Python values, collecting every problem on the way.

``Ctx`` carries what one load knows (registry, problems so far, the depots' names); ``Obj`` reads
one JSON object case-insensitively against a table of known properties (``tables.Prop``).
Readers never raise on bad input: they record a Problem and return None.
"""

from __future__ import annotations

import difflib
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from cardz_core import cards
from cardz_core.limits import MAX_EXPR_CHARS, MAX_FILE_NUMBER
from cardz_core.problems import ERROR, WARNING, Problem, join
from cardz_core.registry import Registry
from cardz_core.spec.model import Expr
from cardz_core.spec.tables import Prop, canonical

MISSING: Any = object()


class Ctx:
    """The state of one load: where problems go and what the file's depots are called."""

    def __init__(self, registry: Registry, lenient: bool, file: str) -> None:
        self.registry = registry
        self.lenient = lenient
        self.file = file
        self.problems: list[Problem] = []
        self.names: dict[str, str] = {}  # every depot name after expansion -> its type
        self.groups: dict[str, tuple[str, ...]] = {}  # repeated depot name -> its copies
        # False when some depot has no usable name: an unknown name may then be that depot's,
        # so references are not reported as unknown (the depot's own problem is)
        self.names_complete = True
        # every expression read, with where it is (its context and the depot it belongs to, see
        # ``reading``), so a broken file's expressions are still checked
        self.exprs: list[tuple[Expr, str | None, str | None]] = []
        self._where: tuple[str | None, str | None] = (None, None)

    def error(self, ptr: str, message: str) -> None:
        self.problems.append(Problem(ptr, message, ERROR, self.file))

    def warn(self, ptr: str, message: str) -> None:
        self.problems.append(Problem(ptr, message, WARNING, self.file))

    @property
    def failed(self) -> bool:
        return any(p.severity == ERROR for p in self.problems)

    @contextmanager
    def reading(self, context: str, self_depot: str | None = None) -> Iterator[None]:
        """Expressions read inside are in this context (``cardz_core.expr.CONTEXTS``), on
        ``self_depot``; one read outside any is only checked for syntax on a broken file."""
        outer = self._where
        self._where = (context, self_depot)
        try:
            yield
        finally:
            self._where = outer


def describe(value: Any) -> str:
    """How a JSON value is named in a message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        shown = _number(value)
        return shown if shown.startswith("a ") else f"the number {shown}"
    if isinstance(value, str):
        return f"the text {_short(value)!r}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _number(value: int | float) -> str:
    """A number as a message shows it: a huge whole number by its size, since Python refuses to
    write one of more than 4,300 digits (and nobody reads one of 400)."""
    if isinstance(value, int) and abs(value) >= 10 ** 30:
        sign = "negative " if value < 0 else ""
        return f"a {sign}number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    return str(value)


def _short(text: str) -> str:
    return text if len(text) <= 40 else text[:37] + "..."


def suggest(word: str, choices: Any) -> str:
    close = difflib.get_close_matches(word.lower(), [c.lower() for c in choices], n=1, cutoff=0.75)
    if not close:
        return ""
    match = next(c for c in choices if c.lower() == close[0])
    return f" (did you mean {match!r}?)"


def _homes() -> tuple[tuple[dict[str, Prop], str], ...]:
    """The format's objects, each with where it is written, for saying where a field belongs."""
    from cardz_core.spec import tables as t

    return ((t.TOP, "at the game's top level"), (t.DEPOT, "on a depot"),
            (t.ACCEPT, "in a depot's acceptRule"), (t.EJECT, "in a depot's ejectRule"),
            (t.DRAW, "in a depot's draw"), (t.PACK, "in a pack of decks"),
            (t.BUILD, "in a build"), (t.SCORING, "in scoring"), (t.TRIGGER, "in a trigger"),
            (t.ACTION, "in an action"))


def belongs(word: str, table: dict[str, Prop]) -> str:
    """`` ('depotOnly' belongs at the game's top level)`` for a property of another object."""
    low = word.lower()
    places = [where for other, where in _homes()
              if other is not table and any(k.lower() == low for k in other)]
    if not places or any(k.lower() == low for k in table):
        return ""
    name = next(k for other, _ in _homes() for k in other if k.lower() == low)
    return f" ({name!r} belongs {' or '.join(places)})"


class Obj:
    """One JSON object, its properties matched case-insensitively against ``table``.

    Unknown and doubled properties and missing required ones are reported on construction.
    A property whose value is ``null`` counts as omitted.
    """

    def __init__(self, ctx: Ctx, data: dict, ptr: str, table: dict[str, Prop], what: str) -> None:
        self.ctx = ctx
        self.ptr = ptr
        self.table = table
        self._values: dict[str, tuple[Any, str]] = {}  # canonical name -> (value, pointer)
        seen: dict[str, str] = {}  # canonical name -> as written
        by_lower = {k.lower(): k for k in table}
        for key in getattr(data, "duplicates", ()):
            ctx.error(join(ptr, key), f"property {key!r} is written twice")
        for key, value in data.items():
            if not isinstance(key, str):
                ctx.error(ptr, f"property names must be text, not {describe(key)}")
                continue
            canon = by_lower.get(key.lower())
            where = join(ptr, key)
            if canon is None:
                message = f"unknown property {key!r} in {what}" \
                    f"{suggest(key, table) or belongs(key, table)}"
                (ctx.warn if ctx.lenient else ctx.error)(where, message)
            elif canon in seen:
                ctx.error(where, f"property {key!r} repeats {seen[canon]!r} "
                                 "(property names are read case-insensitively)")
            else:
                seen[canon] = key
                if value is not None:
                    self._values[canon] = (value, where)
        for key, prop in table.items():
            if prop.required and key not in self._values:
                ctx.error(join(ptr, key), f"missing required property {key!r} in {what}")

    def has(self, key: str) -> bool:
        return key in self._values

    def raw(self, key: str) -> Any:
        entry = self._values.get(key)
        return MISSING if entry is None else entry[0]

    def at(self, key: str) -> str:
        """The pointer of ``key`` as written, or where it would be."""
        entry = self._values.get(key)
        return join(self.ptr, key) if entry is None else entry[1]

    def keys(self) -> list[str]:
        return list(self._values)

    def get(self, key: str, default: Any = None) -> Any:
        """Read a simply-typed property by its table kind; ``default`` when omitted or wrong."""
        value = self.raw(key)
        if value is MISSING:
            return default
        result = read_simple(self.ctx, self.table[key], value, self.at(key))
        return default if result is None else result


# --- single values -----------------------------------------------------------------------------

def as_bool(ctx: Ctx, value: Any, ptr: str) -> bool | None:
    if isinstance(value, bool):
        return value
    ctx.error(ptr, f"expected true or false, found {describe(value)}")
    return None


def as_int(ctx: Ctx, value: Any, ptr: str, minimum: int | None = None,
           maximum: int | None = None) -> int | None:
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        ctx.error(ptr, f"expected a whole number, found {describe(value)}")
        return None
    minimum = -MAX_FILE_NUMBER if minimum is None else max(minimum, -MAX_FILE_NUMBER)
    maximum = MAX_FILE_NUMBER if maximum is None else min(maximum, MAX_FILE_NUMBER)
    if value < minimum:
        ctx.error(ptr, f"must be at least {minimum}, found {_number(value)}")
        return None
    if value > maximum:
        ctx.error(ptr, f"must be at most {maximum}, found {_number(value)}")
        return None
    return value


def as_number(ctx: Ctx, value: Any, ptr: str) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        ctx.error(ptr, f"expected a number, found {describe(value)}")
        return None
    # compared before float(): a whole number past a double's range would overflow it
    if not -MAX_FILE_NUMBER <= value <= MAX_FILE_NUMBER:  # false for NaN too
        ctx.error(ptr, f"must be between {-MAX_FILE_NUMBER} and {MAX_FILE_NUMBER}, "
                       f"found {describe(value)}")
        return None
    return float(value)


def as_string(ctx: Ctx, value: Any, ptr: str) -> str | None:
    if isinstance(value, str):
        return value
    ctx.error(ptr, f"expected text, found {describe(value)}")
    return None


def as_list(ctx: Ctx, value: Any, ptr: str, what: str = "a list") -> list | None:
    if isinstance(value, list):
        return value
    ctx.error(ptr, f"expected {what}, found {describe(value)}")
    return None


def as_object(ctx: Ctx, value: Any, ptr: str, what: str = "an object") -> dict | None:
    if isinstance(value, dict):
        return value
    ctx.error(ptr, f"expected {what}, found {describe(value)}")
    return None


def as_enum(ctx: Ctx, value: Any, ptr: str, choices: tuple[str, ...]) -> str | None:
    if isinstance(value, str):
        found = canonical(value, choices)
        if found is not None:
            return found
    listed = ", ".join(choices)
    hint = suggest(value, choices) if isinstance(value, str) else ""
    ctx.error(ptr, f"expected one of {listed}; found {describe(value)}{hint}")
    return None


def as_rank(ctx: Ctx, value: Any, ptr: str) -> int | None:
    rank = cards.parse_rank(value)
    if rank is None:
        ctx.error(ptr, f"expected a rank (Ace, Two ... King, or A, 2 ... 10, J, Q, K), "
                       f"found {describe(value)}")
    return rank


def as_suit(ctx: Ctx, value: Any, ptr: str) -> int | None:
    suit = cards.parse_suit(value)
    if suit is None:
        ctx.error(ptr, f"expected a suit (Clubs, Diamonds, Hearts, Spades), found {describe(value)}")
    return suit


def as_expr(ctx: Ctx, value: Any, ptr: str) -> Expr | None:
    if not isinstance(value, str):
        ctx.error(ptr, f"expected a rule expression (text), found {describe(value)}")
        return None
    if not value.strip():
        ctx.error(ptr, "the rule expression is empty")
        return None
    if len(value) > MAX_EXPR_CHARS:
        ctx.error(ptr, f"the rule expression is {len(value)} characters long; "
                       f"the limit is {MAX_EXPR_CHARS}")
        return None
    expr = Expr(value, ptr)
    ctx.exprs.append((expr, *ctx._where))
    return expr


def as_items(ctx: Ctx, value: Any, ptr: str, read: Callable[[Ctx, Any, str], Any],
             what: str) -> tuple | None:
    """A list read item by item; a single item stands for a one-item list. Bad items are dropped
    (each reported), so None means the whole value was unusable."""
    if isinstance(value, list):
        out = []
        for i, item in enumerate(value):
            got = read(ctx, item, join(ptr, i))
            if got is not None:
                out.append(got)
        return tuple(out)
    if isinstance(value, (dict, bool, int, float)) or value is None:
        ctx.error(ptr, f"expected {what}, found {describe(value)}")
        return None
    got = read(ctx, value, ptr)
    return None if got is None else (got,)


def no_repeats(ctx: Ctx, items: list, ptr: str, what: str) -> None:
    """Report an item listed twice, at the second mention."""
    seen: set = set()
    for i, item in enumerate(items):
        if item in seen:
            ctx.error(join(ptr, i), f"{what} {item!r} is listed twice")
        seen.add(item)


def read_simple(ctx: Ctx, prop: Prop, value: Any, ptr: str) -> Any:
    kind = prop.kind
    if kind == "bool":
        return as_bool(ctx, value, ptr)
    if kind == "int":
        return as_int(ctx, value, ptr, prop.minimum, prop.maximum)
    if kind == "number":
        return as_number(ctx, value, ptr)
    if kind == "string":
        return as_string(ctx, value, ptr)
    if kind == "strings":
        return as_items(ctx, value, ptr, as_string, "a list of text")
    if kind == "enum":
        return as_enum(ctx, value, ptr, prop.choices)
    if kind == "rank":
        return as_rank(ctx, value, ptr)
    if kind == "expr":
        return as_expr(ctx, value, ptr)
    raise ValueError(f"property kind {kind!r} is not a simple kind")
