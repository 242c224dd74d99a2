"""The registry's tables are typed: each holds one kind of implementation, checked as a plugin
registers it, and ``lookup`` of a table gives that kind."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cardz_core.expr import Function
from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import Aid, ConditionKind, DepotType, StepKind
from cardz_core.problems import CardzError
from cardz_core.registry import KINDS, TABLE_TYPES, build_registry, default_registry


def _wrong_plugin() -> SimpleNamespace:
    """A plugin that registers a plain string in every table."""
    plugin = SimpleNamespace(__name__="wrong_plugin")
    for hook in KINDS:
        def impl(register):
            register("oddity", "not an implementation")
        setattr(plugin, hook, hookimpl(specname=hook)(impl))
    return plugin


def test_every_table_refuses_what_it_does_not_hold():
    with pytest.raises(CardzError) as err:
        build_registry([_wrong_plugin()], entry_points=False)
    text = str(err.value)
    assert text.count("'wrong_plugin' registers") == len(TABLE_TYPES) == len(KINDS)
    for table, (expected, _) in TABLE_TYPES.items():
        assert f"'wrong_plugin' registers {table} name 'oddity' as a str, not {expected}" in text


def test_lookup_gives_each_table_its_kind():
    reg = default_registry()
    assert isinstance(reg.lookup("depot_types", "tableau"), DepotType)
    assert isinstance(reg.lookup("deal_steps", "DEALGROUP"), StepKind)
    assert isinstance(reg.lookup("functions", "count"), Function)
    assert isinstance(reg.lookup("conditions", "allCardsIn"), ConditionKind)
    assert isinstance(reg.lookup("aids", "pairSum"), Aid)
    assert callable(reg.lookup("planners", "usual"))
    model = reg.lookup("deck_models", "counts")
    assert callable(model.outcomes) and callable(model.sample)
    assert reg.lookup("depot_types", "nothing") is None
    for table in KINDS.values():
        assert getattr(reg, table) and all(TABLE_TYPES[table][1](v) for v in getattr(reg, table).values())
