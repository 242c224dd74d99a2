"""The seven depot types of the format."""

from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import DepotType

DEPOT_TYPES = {
    "Stock": DepotType("stock", deals_from=True),
    "Waste": DepotType("waste"),
    "Foundation": DepotType("foundation"),
    "Tableau": DepotType("tableau", default_fan="Down", parks="column"),
    "Cell": DepotType("cell", parks="cell"),
    "Reserve": DepotType("reserve"),
    "Layout": DepotType("layout"),
}


@hookimpl
def cardz_depot_types(register):
    for name, kind in DEPOT_TYPES.items():
        register(name, kind)
