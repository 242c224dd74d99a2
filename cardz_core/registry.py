"""Collects what plugins register, once per build, into plain lookup tables.

Builtin plugins (``cardz_vocabulary``, ``cardz_deck``) register through the same
hooks as third-party plugins, which come from the entry-point group ``cardz``.

Each table holds one kind of implementation (``TABLE_TYPES``), checked as it is registered, so
its type is what ``Registry`` declares: a plugin that registers something else is refused with
an error naming it, instead of failing later inside a game.

Environment:
- ``CARDZ_NO_ENTRYPOINTS=1`` turns entry-point autoloading off.
- ``CARDZ_PLUGINS=name,name`` loads only the listed entry-point plugins (an allow-list); an
  item is an entry-point name, or ``DISTRIBUTION:NAME`` where two distributions declare the same
  name. Two distributions declaring one name are refused, naming both, unless the allow-list
  picks one of them.
"""

from __future__ import annotations

import importlib
import os
import re
import sys
from functools import partial
from importlib.machinery import PathFinder
from types import MappingProxyType, ModuleType
from typing import TYPE_CHECKING, Any, Callable, Iterable, Literal, Mapping, cast, overload

import attrs
import pluggy

from cardz_core import hookspecs
from cardz_core.hookspecs import PlannerFactory
from cardz_core.kinds import Aid, ConditionKind, DeckModelLike, DepotType, StepKind
from cardz_core.problems import CardzError
from cardz_core.signature import RESERVED_WORDS, Function, Signature, fits

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint


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
    return isinstance(value, Function)


def _is_deck_model(value: object) -> bool:
    return callable(getattr(value, "outcomes", None)) and callable(getattr(value, "sample", None))


# table -> (what its entries are, as said in a refusal; the check of an entry)
TABLE_TYPES: dict[str, tuple[str, Callable[[object], bool]]] = {
    "depot_types": ("a cardz_core.kinds.DepotType", lambda v: isinstance(v, DepotType)),
    "deal_steps": ("a cardz_core.kinds.StepKind", lambda v: isinstance(v, StepKind)),
    "functions": ("a cardz_core.signature.Function", _is_function),
    "conditions": ("a cardz_core.kinds.ConditionKind", lambda v: isinstance(v, ConditionKind)),
    "aids": ("a cardz_core.kinds.Aid", lambda v: isinstance(v, Aid)),
    "planners": ("a planner factory: a callable (game, **options) -> planner", callable),
    "deck_models": ("a deck model, with outcomes() and sample()", _is_deck_model),
}


class Registry:
    """Plain, read-only tables of everything registered, keyed by name.

    ``plugin_names`` lists the plugins it was built from (module paths, or entry points as
    ``DISTRIBUTION:NAME``), which is all a worker process needs to rebuild the same registry.
    ``sources``: the source files or package folders of its plugins when every one is a module
    (what the program cache keys its entries by, ``cardz_core.spec.cache``), else None: a
    plugin object made at run time may differ from one process to the next.
    """

    depot_types: Mapping[str, DepotType]
    deal_steps: Mapping[str, StepKind]
    functions: Mapping[str, Function]
    conditions: Mapping[str, ConditionKind]
    aids: Mapping[str, Aid]
    planners: Mapping[str, PlannerFactory]
    deck_models: Mapping[str, DeckModelLike]

    def __init__(self, tables: dict[str, dict[str, object]], owners: dict[str, dict[str, str]],
                 plugin_names: tuple[str, ...], sources: tuple[str, ...] | None = None) -> None:
        self._tables = {k: MappingProxyType(v) for k, v in tables.items()}
        self._owners = owners
        self.plugin_names = plugin_names
        self.sources = sources
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
    def lookup(self, table: Literal["deck_models"], name: str) -> DeckModelLike | None: ...
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


def _normal(dist: str) -> str:
    """A distribution name as packaging compares them (``Moon_A`` is ``moon-a``)."""
    return re.sub(r"[-_.]+", "-", dist).lower()


def _qualified(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"{_normal(dist.name) if dist is not None else '?'}:{ep.name}"


# An ``entry_points.txt`` line that heads the ``cardz`` section, read as importlib.metadata reads
# it (a stripped line in brackets, the name what ``strip("[]")`` leaves), holds ``cardz`` between
# two bracket characters; a file without that anywhere declares no ``cardz`` entry point. The
# bytes are searched, not parsed: this can say "may declare" of a file that does not (then the
# real search runs and finds nothing), never the other way.
_GROUP_BYTES = re.compile(rb"[\[\]]" + re.escape(ENTRY_POINT_GROUP.encode()) + rb"[\[\]]")


def may_declare() -> bool:
    """Whether an installed distribution may declare a ``cardz`` entry point: the guard of
    ``installed_entry_points``, which saves a command's start the import of
    ``importlib.metadata`` (15-20 ms, docs/benchmarks.md "Start-up") when nothing can be found.
    False only when the path finder is the only distribution finder and no ``entry_points.txt``
    of a ``*.dist-info`` or ``*.egg-info`` folder of a ``sys.path`` folder holds the bytes of a
    ``[cardz]`` heading (``_GROUP_BYTES``); a zip file on the path (a zipped egg too) says True."""
    if any(getattr(f, "find_distributions", None) is not None and f is not PathFinder
           for f in sys.meta_path):
        return True
    for entry in sys.path:
        try:
            root = os.fspath(entry) or "."
            children = os.listdir(root)
        except TypeError:
            return True
        except OSError:
            if os.path.exists(root):  # a zip file or an egg: importlib.metadata reads it
                return True
            continue
        egg = os.path.basename(root).lower().endswith(".egg")
        for child in children:
            low = child.lower()
            if not (low.endswith((".dist-info", ".egg-info")) or (egg and low == "egg-info")):
                continue
            try:
                with open(os.path.join(root, child, "entry_points.txt"), "rb") as f:
                    if _GROUP_BYTES.search(f.read()):
                        return True
            except OSError:  # no such file, or not a folder: no entry points, as there
                continue
    return False


def installed_entry_points() -> list[EntryPoint]:
    """The ``cardz`` entry points of the installed distributions, as ``importlib.metadata``
    finds them: the one discovery, which every use of entry points goes through. It is not
    imported when ``may_declare()`` says nothing can be found."""
    if not may_declare():
        return []
    from importlib.metadata import entry_points

    return list(entry_points(group=ENTRY_POINT_GROUP))


def _declared() -> dict[str, list[EntryPoint]]:
    """The ``cardz`` entry points of every installed distribution, by entry-point name."""
    by_name: dict[str, list[EntryPoint]] = {}
    for ep in installed_entry_points():
        if not any(_qualified(ep) == _qualified(e) for e in by_name.get(ep.name, [])):
            by_name.setdefault(ep.name, []).append(ep)
    return {name: sorted(eps, key=_qualified) for name, eps in by_name.items()}


def _clash(name: str, eps: list[EntryPoint]) -> CardzError:
    who = " and ".join(f"{_qualified(ep).split(':')[0]} (module {ep.value})" for ep in eps)
    return CardzError(f"plugin name {name!r} is declared by {len(eps)} distributions: {who}; "
                      f"name one in {ENV_ALLOW} as DISTRIBUTION:NAME, e.g. "
                      f"{ENV_ALLOW}={_qualified(eps[0])}")


def entry_point(item: str) -> EntryPoint | None:
    """The entry point an allow-list item names: ``NAME`` when one distribution declares it,
    or ``DISTRIBUTION:NAME``; None when nothing installed matches. Refuses a bare name two
    distributions declare, naming both."""
    dist, _, name = item.rpartition(":")
    eps = _declared().get(name.strip(), [])
    if dist:
        eps = [ep for ep in eps if _qualified(ep) == f"{_normal(dist.strip())}:{name.strip()}"]
    if len(eps) > 1:
        raise _clash(name.strip(), eps)
    return eps[0] if eps else None


def _entry_point_plugins() -> list[tuple[str, object]]:
    if os.environ.get(ENV_NO_ENTRYPOINTS, "").strip() not in ("", "0"):
        return []
    allow = os.environ.get(ENV_ALLOW)
    if allow is None:
        chosen = []
        for name, eps in sorted(_declared().items()):
            if len(eps) > 1:
                raise _clash(name, eps)
            chosen.append(eps[0])
    else:
        found = (entry_point(a) for a in allow.split(",") if a.strip())
        chosen = sorted({_qualified(ep): ep for ep in found if ep is not None}.values(),
                        key=lambda ep: ep.name)
    return [(_qualified(ep), _loaded(f"plugin {_qualified(ep)!r} (module {ep.value})", ep.load))
            for ep in chosen]


def _loaded(what: str, load: Callable[[], object]) -> object:
    """``load()``, a plugin's import: any failure of the plugin's own code is a CardzError
    naming the plugin, not a traceback from inside it."""
    try:
        return load()
    except Exception as exc:
        raise CardzError(f"{what} cannot be loaded: {type(exc).__name__}: {exc}") from exc


def build_registry(extra: Iterable[object | str | tuple[str, object]] = (), *,
                   entry_points: bool = True) -> Registry:
    """Build the registry from the builtin plugins, entry-point plugins and ``extra``.

    ``extra`` holds plugin objects, module paths (strings), e.g. ``"example_turnabout"``, or
    ``(name, plugin object)`` pairs (an entry point loaded by a worker keeps its name).
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
            plugins.append((item, _loaded(f"plugin module {item!r}",
                                          partial(importlib.import_module, item))))
        elif isinstance(item, tuple):
            plugins.append(item)
        else:
            plugins.append((getattr(item, "__name__", repr(item)), item))
    sources: list[str] | None = []
    for name, obj in plugins:
        if pm.is_registered(obj):
            continue
        try:
            pm.register(obj, name=name)
            pm.check_pending()  # a hook whose name matches no hook of cardz: a misspelling
        except pluggy.PluginValidationError as exc:
            raise CardzError(f"plugin {name!r}: {exc}") from exc
        names.append(name)
        sources = _source(obj, sources)

    tables: dict[str, dict[str, object]] = {t: {} for t in KINDS.values()}
    owners: dict[str, dict[str, str]] = {t: {} for t in KINDS.values()}
    problems: list[str] = []
    for hook_name, table in KINDS.items():
        hook = getattr(pm.hook, hook_name)
        for impl in hook.get_hookimpls():
            plugin_name = impl.plugin_name

            def register(name: str, implementation: object, _p: str = plugin_name,
                         _t: str = table) -> None:
                why = _bad_name(_t, name)
                if why:
                    problems.append(f"{_p!r} registers {_t} name {name!r}: {why}")
                    return
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

            if impl.hookwrapper or impl.wrapper:  # called directly below, it would register nothing
                raise CardzError(f"plugin {plugin_name!r}: its {hook_name} is a wrapper hook; "
                                 f"cardz's hooks are plain @hookimpl functions")
            try:
                impl.function(register=register)
            except Exception as exc:
                where = f"plugin {plugin_name!r}, in its {hook_name}"
                if isinstance(exc, CardzError):
                    raise CardzError(f"{where}: {exc}") from exc
                raise CardzError(f"{where}: {type(exc).__name__}: {exc}") from exc
    problems += _misfit_natives(cast(dict[str, Function], tables["functions"]), owners["functions"])
    for name, fn in tables["functions"].items():
        if owners["functions"][name] not in BUILTIN_PLUGINS:
            tables["functions"][name] = _results_checked(owners["functions"][name], name,
                                                         cast(Function, fn))
    if problems:
        raise CardzError(problems[0] if len(problems) == 1 else "; ".join(problems))
    return Registry(tables, owners, tuple(names), None if sources is None else tuple(sources))


def _results_checked(plugin: str, name: str, function: Function) -> Function:
    """``function`` with each overload's results checked against its declared kind: a plugin's
    ``1.5`` for a number was a TypeError on the Python engine and read as something else on the
    native one. Builtin functions are not wrapped (their results are tested)."""
    def checked(sig: Signature) -> Signature:
        raw, kind = sig.fn, sig.result

        def fn(*args: Any) -> Any:
            value = raw(*args)
            if not fits(kind, value):
                raise CardzError(f"plugin {plugin!r}'s function {name!r} returned {value!r}, "
                                 f"not a {kind}")
            return value
        return attrs.evolve(sig, fn=fn)

    return attrs.evolve(function, overloads=tuple(map(checked, function.overloads)))


def _misfit_natives(functions: Mapping[str, Function], owners: dict[str, str]) -> list[str]:
    """A plugin overload naming a native primitive must declare what the builtin overloads
    naming it declare (parameter kinds and result): the native engine checks only how many
    arguments a call has, so ``(depot) -> number`` on a ``(text) -> depot`` primitive would run
    there with another meaning."""
    meanings: dict[str, set[tuple[tuple[Any, ...], str]]] = {}
    for name, fn in functions.items():
        if owners[name] in BUILTIN_PLUGINS:
            for sig in fn.overloads:
                if sig.native is not None:
                    meanings.setdefault(sig.native, set()).add((sig.params, sig.result))
    problems = []
    for name, fn in functions.items():
        if owners[name] in BUILTIN_PLUGINS:
            continue
        for sig in fn.overloads:
            known = meanings.get(sig.native or "")
            if known and (sig.params, sig.result) not in known:
                problems.append(
                    f"{owners[name]!r} registers functions name {name!r} with an overload "
                    f"({', '.join(map(str, sig.params))}) -> {sig.result} that names the native "
                    f"primitive {sig.native!r}, which means "
                    + " or ".join(f"({', '.join(map(str, p))}) -> {r}" for p, r in
                                  sorted(known, key=repr)))
    return problems


# a name an expression can call: the grammar's NAME, not one of its words (cardz_core.expr.parse)
_CALLABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _bad_name(table: str, name: object) -> str:
    """Why ``name`` cannot name an entry of ``table``, or ""."""
    if not isinstance(name, str) or not name:
        return "a name is a non-empty text"
    if table == "functions" and (not _CALLABLE.match(name) or name in RESERVED_WORDS):
        return "no expression could call it: a function's name is letters, digits and _, " \
               f"not starting with a digit, and not one of {', '.join(RESERVED_WORDS)}"
    return ""


def _source(plugin: object, sources: list[str] | None) -> list[str] | None:
    """``sources`` with the folder of the plugin's top-level package (a plugin module inside a
    package may call code anywhere in it), or the file of a plugin module on its own; None once
    a plugin is not a module, or a module without a file."""
    if sources is None or not isinstance(plugin, ModuleType):
        return None
    top = sys.modules.get(plugin.__name__.partition(".")[0], plugin)
    where = getattr(top, "__path__", None) or [getattr(top, "__file__", None)]
    if None in where:
        return None
    return sources + [str(w) for w in where]


_default: Registry | None = None


def default_registry() -> Registry:
    """The registry of builtin and installed plugins, built once per process."""
    global _default
    if _default is None:
        _default = build_registry()
    return _default
