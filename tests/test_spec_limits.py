"""Every limit the loader enforces, at and just past it."""

import json

import pytest
from spec_helpers import errors, game, with_depot

from cardz_core import limits
from cardz_core.spec import load


def _messages(doc):
    return [p.message for p in load(doc)[1]]


def test_file_size_at_and_past_the_limit():
    text = json.dumps(game())
    at = text + " " * (limits.MAX_FILE_BYTES - len(text))
    assert errors(at) == {}
    spec, problems = load(at + " ")
    assert spec is None and [p.path for p in problems] == [""]
    assert str(limits.MAX_FILE_BYTES) in problems[0].message


def test_file_size_of_a_path(tmp_path):
    path = tmp_path / "big.cardz"
    path.write_text(" " * (limits.MAX_FILE_BYTES + 1))
    spec, problems = load(path)
    assert spec is None and problems[0].file == str(path) and "limit" in problems[0].message


def _nested(depth):
    """A game whose deepest value sits at `depth` levels of brackets (the game object is 1)."""
    value = "x"
    for _ in range(depth - 1):
        value = [value]
    return game(aliases=value)


def test_nesting_at_and_past_the_limit():
    at = json.dumps(_nested(limits.MAX_NESTING))
    assert not any("nested" in m for m in _messages(at))
    assert not any("nested" in m for m in _messages(_nested(limits.MAX_NESTING)))
    past = json.dumps(_nested(limits.MAX_NESTING + 1))
    assert any("nested deeper" in m for m in _messages(past))
    assert any("nested deeper" in m for m in _messages(_nested(limits.MAX_NESTING + 1)))
    assert any("nested deeper" in m for m in _messages("[" * 100_000))


def test_repeat_at_and_past_the_limit():
    doc = with_depot(2, repeat=limits.MAX_REPEAT)
    assert errors(doc) == {}
    assert list(errors(with_depot(2, repeat=limits.MAX_REPEAT + 1))) == ["/depots/2/repeat"]


def test_depots_at_and_past_the_limit():
    def doc(n):
        return game(depots=[{"name": "stock", "type": "Stock"}] +
                    [{"name": f"r{i}", "type": "Reserve"} for i in range(n - 1)],
                    dealRules=None, winCondition=None)
    assert errors(doc(limits.MAX_DEPOTS)) == {}
    assert list(errors(doc(limits.MAX_DEPOTS + 1))) == ["/depots"]


def test_cards_at_and_past_the_limit():
    assert errors(game(decks=[{"count": limits.MAX_CARDS // 52}])) == {}
    assert list(errors(game(decks=[{"count": limits.MAX_CARDS // 52}, {"ranks": ["A"], "suits": ["S"]}]))) \
        == ["/decks"]


@pytest.mark.parametrize("extra,over", [(0, False), (1, True)])
def test_expression_length(extra, over):
    text = "true" + " " * (limits.MAX_EXPR_CHARS - 4 + extra)
    found = [m for m in _messages(with_depot(2, acceptRule={"when": text})) if "limit" in m]
    assert bool(found) == over


M = limits.MAX_FILE_NUMBER


@pytest.mark.parametrize("field", ["maxRedeals", "fanOffsetFaceUp"])
def test_numbers_at_and_past_the_file_limit(field):
    assert errors(game(**{field: M})) == {}
    assert errors(game(**{field: float(M)})) == {}
    assert list(errors(game(**{field: M + 1}))) == [f"/{field}"]


@pytest.mark.parametrize("value", [10 ** 400, -10 ** 400, 2 ** 64, 1e308, -1e308, M + 0.5])
def test_huge_numbers_are_refused_at_their_pointer(value):
    for doc in (game(maxRedeals=value), with_depot(1, col=value),
                game(values={"K": value}), game(dealRules=[{"kind": "dealGroup", "to": "column",
                                                             "faceDown": value}])):
        for source in (doc, json.dumps(doc)):
            found = errors(source)
            assert len(found) == 1 and next(iter(found)).startswith("/"), found


def test_a_number_past_a_double_in_the_text_is_refused():
    # json reads 1e400 as infinity
    text = json.dumps(with_depot(1, col=1)).replace('"col": 1', '"col": 1e400')
    assert list(errors(text)) == ["/depots/1/col"]


def test_a_huge_number_is_shown_by_its_size():
    # Python will not write a whole number of more than 4,300 digits; the message gives its size
    path, message = next(iter(errors(game(maxRedeals=10 ** 1000)).items()))
    assert path == "/maxRedeals" and message == "must be at most 1000000, found a number of about " \
                                                "1001 digits"
    assert errors(game(name=-10 ** 1000)) == {"/name": "expected text, found a negative number of "
                                                       "about 1001 digits"}


def test_negative_numbers_at_and_past_the_file_limit():
    assert errors(with_depot(1, col=-M)) == {}
    assert list(errors(with_depot(1, col=-M - 1))) == ["/depots/1/col"]
    assert errors(game(values={"K": -M})) == {}
    assert list(errors(game(values={"K": -M - 1}))) == ["/values/K"]


def test_a_deal_asking_for_the_most_cards_deals_what_there_is_quickly():
    import time

    from cardz_core.engine.game import compile as compile_game
    from cardz_core.spec import load_game
    doc = game(dealRules=[{"kind": "dealGroup", "to": "column", "faceDown": M, "faceUp": M},
                          {"kind": "dealGroup", "to": "foundation", "faceUp": M,
                           "roundRobin": True}])
    start = time.perf_counter()
    state = compile_game(load_game(doc)).deal(1)
    assert [len(p) for p in state.piles] == [0, 0, 52, 0, 0, 0, 0, 0, 0]
    assert time.perf_counter() - start < 2.0


def test_a_file_that_is_not_a_game_object_is_refused_at_the_whole_document():
    for text in ("13", "[]", "null", '"x"'):
        assert errors(text) == {"": f"expected the game object, found {_found(text)}"}


def _found(text):
    return {"13": "the number 13", "[]": "a list", "null": "null", '"x"': "the text 'x'"}[text]


def test_a_number_too_long_for_python_in_the_text_is_refused_at_its_pointer():
    text = json.dumps(game(maxRedeals=1)).replace('"maxRedeals": 1', '"maxRedeals": ' + "9" * 5000)
    assert errors(text) == {"/maxRedeals": "must be at most 1000000, found a number of about "
                                           "5000 digits"}
    text = json.dumps(with_depot(1, col=1)).replace('"col": 1', '"col": -' + "9" * 5000)
    assert list(errors(text)) == ["/depots/1/col"]
