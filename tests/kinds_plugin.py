"""A third-party plugin for the tests: depot types that declare the same facts as builtin ones
under other names (``Talon`` plays as ``Stock``, ``Pocket`` as ``Cell``), and expression
functions with no native primitive, which the native engine calls back in Python: ``someOf``
(a per-item argument, as ``any``), ``nameOf`` (a text result: a depot's name) and
``depotCalled`` (a text argument: the depot of that name, as ``depot``)."""

from __future__ import annotations

from typing import Any, Callable

from cardz_core.expr import GAME, Each, Function, FunctionError, Tables
from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import DepotType

DEPOT_TYPES = {
    "Talon": DepotType("stock", deals_from=True),
    "Pocket": DepotType("cell", parks="cell"),
}


def _some_of(items: tuple[int, ...], holds: Callable[[int], Any]) -> bool:
    return any(holds(item) for item in items)


def _name_of(tables: Tables, d: int) -> str:
    return next((name for name, i in tables.depot_index.items() if i == d), "")


def _depot_called(tables: Tables, name: str) -> int:
    if name not in tables.depot_index:
        raise FunctionError(f"no depot is named {name!r}")
    return tables.depot_index[name]


FUNCTIONS = {
    "someOf": Function.of(("items", Each(0, "bool")), "bool", _some_of,
                          doc="whether some item satisfies the condition"),
    "nameOf": Function.of(("depot",), "text", _name_of, GAME, doc="the depot's name"),
    "depotCalled": Function.of(("text",), "depot", _depot_called, GAME,
                               doc="the depot of that name"),
}


@hookimpl
def cardz_depot_types(register: Callable[[str, DepotType], None]) -> None:
    for name, kind in DEPOT_TYPES.items():
        register(name, kind)


@hookimpl
def cardz_functions(register: Callable[[str, Function], None]) -> None:
    for name, fn in FUNCTIONS.items():
        register(name, fn)
