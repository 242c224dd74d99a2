"""Checking and compiling expressions against a game: the entry points the loader and the engine
use (pinned in docs/design.md).

A game's expressions compile to programs held by its ``GamePrograms`` (with the game's
``Tables``, built once). The loader compiles every expression to check it and keeps the result
on the spec (``GameSpec.programs``), so compiling the game reuses those programs instead of
compiling again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable

from cardz_core.expr.check import expressions
from cardz_core.expr.closure import closure
from cardz_core.expr.contexts import CONTEXTS
from cardz_core.expr.program import Program
from cardz_core.expr.tables import Tables
from cardz_core.problems import CardzError, Problem
from cardz_core.spec.model import Depot, Expr, GameSpec

if TYPE_CHECKING:
    from cardz_core.expr.compiler import ExprProblem
    from cardz_core.expr.parse import ExprSyntaxError

# The parser (lark) and the compiler are imported when an expression is first compiled: a game
# with none (most bundled games) never loads them (start time, docs/benchmarks.md).

# where an expression makes a rule (decides what may be played or what happens)
RULE_CONTEXTS = frozenset(CONTEXTS) - {"scoring", "planner", "eval", "evalDepot"}
Key = tuple[str, str, str, "str | None"]  # text, pointer, context, self depot (when it counts)


def _registry(registry: Any) -> Any:
    if registry is None:
        from cardz_core.registry import default_registry
        return default_registry()
    return registry


def _context(context: str) -> Any:
    if context not in CONTEXTS:
        raise ValueError(f"unknown expression context {context!r}; one of {sorted(CONTEXTS)}")
    return CONTEXTS[context]


def compile_program(text: str, context: str, tables: Tables, functions: Any,
                    self_depot: int | None = None) -> Program:
    """One expression's program. Raises ``ExprSyntaxError`` or ``ExprProblem``."""
    from cardz_core.expr.compiler import Compiler
    from cardz_core.expr.parse import parse

    return Compiler(tables, functions, _context(context), self_depot).compile(parse(text))


def _problem(ptr: str, exc: ExprSyntaxError | ExprProblem) -> Problem:
    return Problem(ptr, f"column {exc.column}: {exc.message}")


class GamePrograms:
    """The programs of one game's expressions for one registry, compiled on first use and kept,
    with the game's expression ``tables``."""

    def __init__(self, spec: Any, registry: Any) -> None:
        self.spec = spec
        self.registry = registry
        self.tables = Tables(spec, registry)
        self._programs: dict[Key, Program] = {}

    def _key(self, expr: Expr, context: str, self_depot: str | None) -> Key:
        return expr.text, expr.ptr, context, self_depot if _context(context).self_is_depot else None

    def get(self, expr: Expr | str, context: str, self_depot: int | str | None = None) -> Program:
        """The program of ``expr`` in ``context`` (``self_depot``: the depot it belongs to, by
        name or index). Raises CardzError with the problem at the expression's pointer."""
        if isinstance(expr, str):
            expr = Expr(expr, "")
        if isinstance(self_depot, int):
            self_depot = self.tables.depot_names[self_depot] if self_depot >= 0 else None
        key = self._key(expr, context, self_depot)
        program = self._programs.get(key)
        if program is None:
            from cardz_core.expr.compiler import ExprProblem
            from cardz_core.expr.parse import ExprSyntaxError

            index = None if self_depot is None else self.tables.depot_index[self_depot]
            try:
                program = compile_program(expr.text, context, self.tables, self.registry.functions,
                                          index)
            except (ExprSyntaxError, ExprProblem) as exc:
                raise CardzError([_problem(expr.ptr, exc)]) from None
            self._programs[key] = program
        return program

    def put(self, expr: Expr, context: str, self_depot: str | None, program: Program) -> None:
        """Use ``program`` for ``expr`` (one compiled elsewhere and read back with
        ``Program.from_json``, say)."""
        self._programs[self._key(expr, context, self_depot)] = program

    def kept(self) -> list[tuple[Key, Program]]:
        """Every program compiled (or put) so far, by its key: (text, pointer, context, the
        self depot when the context has one), as the program cache stores them."""
        return list(self._programs.items())

    def keep_all(self, programs: Iterable[tuple[Key, Program]]) -> None:
        """Use these programs for their keys (``kept`` of the same game, read back)."""
        self._programs.update(programs)

    def closure(self, expr: Expr | str, context: str,
                self_depot: int | str | None = None) -> Callable[[Any], Any]:
        """``fn(env)`` running the program of ``expr`` (see ``get``)."""
        return closure(self.get(expr, context, self_depot), self.tables, self.registry.functions,
                       "" if isinstance(expr, str) else expr.ptr)

    def check(self) -> list[Problem]:
        """Compile every expression of the game; the problems, each at its expression's pointer."""
        problems: list[Problem] = []
        for expr, context, self_depot in expressions(self.spec, self.registry):
            try:
                self.get(expr, context, self_depot)
            except CardzError as exc:
                problems += exc.problems
        return problems

    @property
    def reads(self) -> frozenset[str]:
        """What the game's expressions read (``Program.reads`` of every expression together)."""
        return self.reads_in(frozenset(CONTEXTS))

    @property
    def rule_reads(self) -> frozenset[str]:
        """What the expressions that make a rule read: not ``scoring`` or the planner's
        ``value``, which rank boards and decide no move."""
        return self.reads_in(RULE_CONTEXTS)

    def reads_in(self, contexts: frozenset[str]) -> frozenset[str]:
        out: set[str] = set()
        for expr, context, self_depot in expressions(self.spec, self.registry):
            if context in contexts:
                out |= self.get(expr, context, self_depot).reads
        return frozenset(out)


def programs_for(spec: Any, registry: Any = None) -> GamePrograms:
    """The spec's programs for ``registry``: those the loader kept when it is the registry the
    spec was checked with, else new ones (kept on the spec if it holds none yet)."""
    registry = _registry(registry)
    kept = getattr(spec, "programs", None)
    if kept is not None and kept.registry is registry:
        return kept
    programs = GamePrograms(spec, registry)
    if kept is None and hasattr(spec, "programs"):
        keep(spec, programs)
    return programs


def keep(spec: Any, programs: GamePrograms) -> None:
    """Hold ``programs`` on the (frozen) spec they were compiled from."""
    object.__setattr__(spec, "programs", programs)


def rule_reads(spec: Any, registry: Any = None) -> frozenset[str]:
    """What the rule expressions of a game read (``GamePrograms.rule_reads``), for the spec's
    own registry by default: the one the loader checked it with."""
    if registry is None and getattr(spec, "programs", None) is not None:
        registry = spec.programs.registry
    return programs_for(spec, registry).rule_reads


def compile_typed(expr: Any, context: str, spec: Any, registry: Any = None, *,
                  self_depot: int | str | None = None) -> tuple[str, Callable[[Any], Any]]:
    """The kind an expression gives and its compiled closure ``fn(env)``. ``expr`` is an ``Expr``
    (text and pointer) or plain text. Raises CardzError with the problem at the expression's
    pointer, the column in the message."""
    programs = programs_for(spec, registry)
    program = programs.get(expr, context, self_depot)
    where = expr.ptr if isinstance(expr, Expr) else ""
    return program.kind, closure(program, programs.tables, programs.registry.functions, where)


def compile_expr(expr: Any, context: str, spec: Any, registry: Any = None, *,
                 self_depot: int | str | None = None) -> Callable[[Any], Any]:
    """The compiled closure ``fn(env) -> value`` of an expression in ``context`` (one of
    ``cardz_core.expr.CONTEXTS``). Parsed and checked here, once; calling it never parses."""
    return compile_typed(expr, context, spec, registry, self_depot=self_depot)[1]


def check_expr(expr: Any, context: str, spec: Any, registry: Any = None, *,
               self_depot: int | str | None = None) -> list[Problem]:
    """The problems of one expression (none or one)."""
    try:
        programs_for(spec, registry).get(expr, context, self_depot)
    except CardzError as exc:
        return exc.problems
    return []


def read_problems(exprs: Iterable[tuple[Expr, str | None, str | None]], names: dict[str, str],
                  groups: dict[str, tuple[str, ...]], names_complete: bool,
                  registry: Any = None) -> list[Problem]:
    """The problems of the expressions of a file whose structure is broken (so there is no
    spec): each ``(expr, context, self depot)`` is checked against the depots whose names did
    read (``names``: name -> type, ``groups``: repeated depot -> copies). An expression read in
    no context is checked for syntax only; with ``names_complete`` False, a problem that an
    unread depot's name could explain (an unknown name) is left out."""
    from cardz_core.expr.compiler import ExprProblem
    from cardz_core.expr.parse import ExprSyntaxError, parse

    registry = _registry(registry)
    depots = []
    for group, copies in groups.items():
        depots += [Depot(name=n, type=names.get(n, ""), group=group, index=i)
                   for i, n in enumerate(copies, 1)]
    grouped = {n for copies in groups.values() for n in copies}
    depots += [Depot(name=n, type=t, group=None, index=0) for n, t in names.items()
               if n not in grouped]
    tables = Tables(GameSpec(name="", depots=tuple(depots), packs=(), cards=(),
                             groups=dict(groups)), registry)
    problems = []
    for expr, context, self_depot in exprs:
        try:
            if context is None:
                parse(expr.text)
                continue
            index = tables.depot_index.get(self_depot) if self_depot is not None else None
            compile_program(expr.text, context, tables, registry.functions, index)
        except ExprSyntaxError as exc:
            problems.append(_problem(expr.ptr, exc))
        except ExprProblem as exc:
            if names_complete or not exc.names:
                problems.append(_problem(expr.ptr, exc))
    return problems


def check_spec(spec: Any, registry: Any = None) -> list[Problem]:
    """Type-check every expression of ``spec``; the problems, each at its expression's pointer.
    The programs are kept on the spec when there are none (see ``programs_for``)."""
    return programs_for(spec, registry).check()
