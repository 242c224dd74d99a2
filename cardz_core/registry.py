"""Collects what plugins register, once per build, into plain lookup tables.

Builtin plugins (``cardz_vocabulary``, ``cardz_deck``) register through the same
hooks as third-party plugins, which come from the entry-point group ``cardz``.

Each table holds one kind of implementation (``TABLE_TYPES``), checked as it is registered, so
its type is what ``Registry`` declares: a plugin that registers something else is refused with
an error naming it, instead of failing later inside a game.

Environment:
- ``CARDZ_NO_ENTRYPOINTS=1`` turns entry-point autoloading off.
- ``CARDZ_PLUGINS=name,name`` loads only the listed entry-point plugins (an allow-list).
"""

from __future__ import annotations

import importlib
import os
from types import MappingProxyType
from typing import TYPE_CHECKING, Callable, Iterable, Literal, Mapping, overload

import pluggy

from cardz_core import hookspecs
from cardz_core.hookspecs import PlannerFactory
from cardz_core.kinds import Aid, ConditionKind, DepotType, StepKind
from cardz_core.problems import CardzError

if TYPE_CHECKING:
    from cardz_core.expr import Function
    from cardz_core.view import DeckModel

BUILTIN_PLUGINS = ("cardz_vocabulary", "cardz_deck")
ENTRY_POINT_GROUP = "cardz"
ENV_NO_ENTRYPOINTS = "CARDZ_NO_ENTRYPOINTS"
ENV_ALLOW = "CARDZ_PLUGINS"

# hook name -> table name on the Registry
KINDS = {
    "cardz_depot_types": "depot_types",
    "cardz_deal_steps": "deal_steps",
    "cardz_functions": "functions",
    "cardz_conditions": "conditions",
    "cardz_aids": "aids",
    "cardz_planners": "planners",
    "cardz_deck_models": "deck_models",
}


Table = Literal["depot_types", "deal_steps", "functions", "conditions", "aids", "planners",
                "deck_models"]


def _is_function(value: object) -> bool:
    from cardz_core.expr import Function  # the expression package is heavy: only when checking

    return isinstance(value, Function)


def _is_deck_model(value: object) -> bool:
    return callable(getattr(value, "outcomes", None)) and callable(getattr(value, "sample", None))


# table -> (what its entries are, as said in a refusal; the check of an entry)
TABLE_TYPES: dict[str, tuple[str, Callable[[object], bool]]] = {
    "depot_types": ("a cardz_core.kinds.DepotType", lambda v: isinstance(v, DepotType)),
    "deal_steps": ("a cardz_core.kinds.StepKind", lambda v: isinstance(v, StepKind)),
    "functions": ("a cardz_core.expr.Function", _is_function),
    "conditions": ("a cardz_core.kinds.ConditionKind", lambda v: isinstance(v, ConditionKind)),
    "aids": ("a cardz_core.kinds.Aid", lambda v: isinstance(v, Aid)),
    "planners": ("a planner factory: a callable (game, **options) -> planner", callable),
    "deck_models": ("a deck model, with outcomes() and sample()", _is_deck_model),
}


class Registry:
    """Plain, read-only tables of everything registered, keyed by name.

    ``plugin_names`` lists the plugins it was built from (module paths or entry-point names),
    which is all a worker process needs to rebuild the same registry.
    """

    depot_types: Mapping[str, DepotType]
    deal_steps: Mapping[str, StepKind]
    functions: Mapping[str, Function]
    conditions: Mapping[str, ConditionKind]
    aids: Mapping[str, Aid]
    planners: Mapping[str, PlannerFactory]
    deck_models: Mapping[str, DeckModel]

    def __init__(self, tables: dict[str, dict[str, object]], owners: dict[str, dict[str, str]],
                 plugin_names: tuple[str, ...]) -> None:
        self._tables = {k: MappingProxyType(v) for k, v in tables.items()}
        self._owners = owners
        self.plugin_names = plugin_names
        for table in KINDS.values():
            # each table's entries were checked against TABLE_TYPES as they were registered
            setattr(self, table, self._tables[table])

    def owner(self, table: str, name: str) -> str:
        """Which plugin registered ``name`` in ``table``."""
        return self._owners[table][name]

    @overload
    def lookup(self, table: Literal["depot_types"], name: str) -> DepotType | None: ...
    @overload
    def lookup(self, table: Literal["deal_steps"], name: str) -> StepKind | None: ...
    @overload
    def lookup(self, table: Literal["functions"], name: str) -> Function | None: ...
    @overload
    def lookup(self, table: Literal["conditions"], name: str) -> ConditionKind | None: ...
    @overload
    def lookup(self, table: Literal["aids"], name: str) -> Aid | None: ...
    @overload
    def lookup(self, table: Literal["planners"], name: str) -> PlannerFactory | None: ...
    @overload
    def lookup(self, table: Literal["deck_models"], name: str) -> DeckModel | None: ...
    @overload
    def lookup(self, table: str, name: str) -> object | None: ...

    def lookup(self, table: str, name: str) -> object | None:
        """Case-insensitive lookup, as the format reads names case-insensitively."""
        t = self._tables[table]
        if name in t:
            return t[name]
        low = name.lower()
        for key, value in t.items():
            if key.lower() == low:
                return value
        return None

    def canonical(self, table: str, name: str) -> str | None:
        """The registered spelling of ``name`` (matched case-insensitively), or None."""
        low = name.lower()
        for key in self._tables[table]:
            if key.lower() == low:
                return key
        return None


def _entry_point_plugins() -> list[tuple[str, object]]:
    if os.environ.get(ENV_NO_ENTRYPOINTS, "").strip() not in ("", "0"):
        return []
    from importlib.metadata import entry_points

    allow = os.environ.get(ENV_ALLOW)
    allowed = None if allow is None else {a.strip() for a in allow.split(",") if a.strip()}
    found = []
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        if allowed is not None and ep.name not in allowed:
            continue
        found.append((ep.name, ep.load()))
    return found


def build_registry(extra: Iterable[object | str] = (), *, entry_points: bool = True) -> Registry:
    """Build the registry from the builtin plugins, entry-point plugins and ``extra``.

    ``extra`` holds plugin objects or module paths (strings), e.g. ``"example_turnabout"``.
    A name registered twice in the same table is refused with a CardzError naming both plugins.
    """
    pm = pluggy.PluginManager(hookspecs.PROJECT)
    pm.add_hookspecs(hookspecs)
    names: list[str] = []
    plugins: list[tuple[str, object]] = [(m, importlib.import_module(m)) for m in BUILTIN_PLUGINS]
    if entry_points:
        plugins += _entry_point_plugins()
    for item in extra:
        if isinstance(item, str):
            plugins.append((item, importlib.import_module(item)))
        else:
            plugins.append((getattr(item, "__name__", repr(item)), item))
    for name, obj in plugins:
        if pm.is_registered(obj):
            continue
        pm.register(obj, name=name)
        names.append(name)

    tables: dict[str, dict[str, object]] = {t: {} for t in KINDS.values()}
    owners: dict[str, dict[str, str]] = {t: {} for t in KINDS.values()}
    problems: list[str] = []
    for hook_name, table in KINDS.items():
        hook = getattr(pm.hook, hook_name)
        for impl in hook.get_hookimpls():
            plugin_name = impl.plugin_name

            def register(name: str, implementation: object, _p: str = plugin_name,
                         _t: str = table) -> None:
                clash = next((k for k in tables[_t] if k.lower() == name.lower()), None)
                if clash is not None:
                    problems.append(f"{_t} name {name!r} is registered by both "
                                    f"{owners[_t][clash]!r} and {_p!r}")
                    return
                expected, check = TABLE_TYPES[_t]
                if not check(implementation):
                    problems.append(f"{_p!r} registers {_t} name {name!r} as a "
                                    f"{type(implementation).__name__}, not {expected}")
                    return
                tables[_t][name] = implementation
                owners[_t][name] = _p

            impl.function(register=register)
    if problems:
        raise CardzError(problems[0] if len(problems) == 1 else "; ".join(problems))
    return Registry(tables, owners, tuple(names))


_default: Registry | None = None


def default_registry() -> Registry:
    """The registry of builtin and installed plugins, built once per process."""
    global _default
    if _default is None:
        _default = build_registry()
    return _default
