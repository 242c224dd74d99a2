"""Microsoft FreeCell deals by number."""

from __future__ import annotations

import pytest

from cardz_core.limits import MAX_MS_DEAL
from cardz_core.msdeal import ms_columns, ms_order
from cardz_core.problems import CardzError

DEAL_1 = """JD KD 2S 4C 3S 6D 6S
2D KC KS 5C 10D 8S 9C
9H 9S 9D 10S 4S 8D 2H
JC 5S QD QH 10H QS 6H
5D AD JS 4H 8H 6C
7H QC AS AC 2C 3D
7C KH AH 4D JH 8C
5H 3H 3C 7S 7D 10C"""


def test_deal_1_is_the_published_layout():
    assert [" ".join(c) for c in ms_columns(1)] == DEAL_1.splitlines()


@pytest.mark.parametrize("deal", [1, 2, 617, 11982, 1_000_000, MAX_MS_DEAL])
def test_every_deal_is_one_whole_deck(deal):
    order = ms_order(deal)
    assert len(order) == 52 and len(set(order)) == 52
    assert [len(c) for c in ms_columns(deal)] == [7, 7, 7, 7, 6, 6, 6, 6]


@pytest.mark.parametrize("deal", [0, -1, MAX_MS_DEAL + 1, True, "3"])
def test_numbers_outside_the_range_are_refused(deal):
    with pytest.raises(CardzError):
        ms_order(deal)
