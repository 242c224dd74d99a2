"""The foundation: card notation, registry building, duplicate refusal."""

import pytest

from cardz_core import cards
from cardz_core.hookspecs import hookimpl
from cardz_core.problems import CardzError
from cardz_core.registry import build_registry


@pytest.mark.parametrize("text,rank,suit,up", [
    ("AS", 1, 3, True), ("10h", 10, 2, True), ("TD", 10, 1, True), ("~QS", 12, 3, False),
    ("kc", 13, 0, True),
])
def test_parse_card(text, rank, suit, up):
    card, face_up = cards.parse_card(text)
    assert (card.rank, card.suit, face_up) == (rank, suit, up)


def test_joker_and_unknown():
    assert cards.parse_card("Joker") == (cards.JOKER, True)
    assert cards.parse_card("~JK") == (cards.JOKER, False)
    assert cards.parse_card("~?") == (None, False)
    assert cards.format_card(cards.Card(10, 2), False) == "~10H"
    assert cards.format_card(None, False) == "~?"


@pytest.mark.parametrize("bad", ["", "1", "ZS", "AX", "11H", "~", "A"])
def test_bad_card_names_text(bad):
    with pytest.raises(ValueError, match="not a card"):
        cards.parse_card(bad)


def test_codes_round_trip():
    c = cards.code(57, True)
    assert cards.card_id_of(c) == 57 and cards.is_face_up(c)
    assert cards.unknown_code(0) < 0 and not cards.is_face_up(cards.unknown_code(4))
    assert cards.unknown_pool(cards.unknown_code(4)) == 4


class _Dup:
    __name__ = "dup_plugin"

    @hookimpl
    def cardz_depot_types(self, register):
        register("tableau", object())


def test_duplicate_name_refused_naming_both_plugins():
    with pytest.raises(CardzError) as err:
        build_registry([_Dup()], entry_points=False)
    text = str(err.value)
    assert "cardz_vocabulary" in text and "dup_plugin" in text
