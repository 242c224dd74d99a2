"""The builtin vocabulary plugin: every depot type, deal step kind, expression function, condition
kind and card aid of the `.cardz` format, registered through the same hooks a third party uses."""

from cardz_vocabulary.aids import cardz_aids  # noqa: F401
from cardz_vocabulary.conditions import cardz_conditions  # noqa: F401
from cardz_vocabulary.depot_types import cardz_depot_types  # noqa: F401
from cardz_vocabulary.functions import cardz_functions  # noqa: F401
from cardz_vocabulary.steps import cardz_deal_steps  # noqa: F401
