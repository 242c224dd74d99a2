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
