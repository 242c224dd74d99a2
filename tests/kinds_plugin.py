"""A third-party plugin for the tests: depot types that declare the same facts as builtin ones
under other names (``Talon`` plays as ``Stock``, ``Pocket`` as ``Cell``)."""

from __future__ import annotations

from typing import Callable

from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import DepotType

DEPOT_TYPES = {
    "Talon": DepotType("stock", deals_from=True),
    "Pocket": DepotType("cell", parks="cell"),
}


@hookimpl
def cardz_depot_types(register: Callable[[str, DepotType], None]) -> None:
    for name, kind in DEPOT_TYPES.items():
        register(name, kind)
