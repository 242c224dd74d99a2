"""A file with structural errors still has its expressions checked: unknown functions, depots
and properties are reported beside the structural problems, each in its own context, against the
depots whose names read."""

from __future__ import annotations

import json

import pytest

from cardz_core.cli.main import main
from cardz_core.spec import load

FOUNDATION = {"name": "foundation", "type": "Foundation", "repeat": 4, "acceptRule": {"seed": "Ace"}}


def game(**kw):
    doc = {"name": "Broken", "depots": [
        {"name": "stock", "type": "Stock", "acceptRule": "none"},
        dict(FOUNDATION),
        {"name": "column", "type": "Tableau", "repeat": 2},
    ], "winCondition": {"kind": "allCardsIn", "depots": "foundation"}}
    doc.update(kw)
    return doc


def problems(doc):
    spec, found = load(doc)
    assert spec is None
    return {p.path: p.message for p in found}


def test_the_issue_example_an_unknown_function_beside_a_structural_error(tmp_path, capsys):
    doc = game(lossCondition={"kind": "expr", "when": "cout(foundation) == 4"})
    doc["depots"][0]["ejectRule"] = "nope"
    path = tmp_path / "broken.cardz"
    path.write_text(json.dumps(doc))
    assert main(["check", "--json", str(path)]) == 1
    out = {p["path"]: p["message"] for p in json.loads(capsys.readouterr().out)}
    assert set(out) == {"/depots/0/ejectRule", "/lossCondition/when"}
    assert "unknown function `cout` (did you mean `count`?)" in out["/lossCondition/when"]


@pytest.mark.parametrize("where,expr,message", [
    ("accept", "card.rnak == Ace", "a card has no property `rnak`"),
    ("accept", "cout(pile) == 0", "unknown function `cout`"),
    ("trigger", "empty(colum)", "unknown name `colum` (did you mean `column`?)"),
    ("trigger", "count(depot(\"column-3\")) == 0", "no depot is named 'column-3'"),
    ("scoring", "count(foundation) + movse", "unknown name `movse`"),
    ("condition", "count(foundation-2) == 13", "name the copy as depot(\"foundation-2\")"),
])
def test_name_problems_in_every_context_beside_a_structural_error(where, expr, message):
    doc = game(depotOnly="yes")
    if where == "accept":
        doc["depots"][2]["acceptRule"] = {"when": expr}
        at = "/depots/2/acceptRule/when"
    elif where == "trigger":
        doc["depots"][2]["triggers"] = [{"when": expr, "do": [{"kind": "flipTop", "depot": "column-1"}]}]
        at = "/depots/2/triggers/0/when"
    elif where == "scoring":
        doc["scoring"] = {"value": expr}
        at = "/scoring/value"
    else:
        doc["lossCondition"] = {"kind": "expr", "when": expr}
        at = "/lossCondition/when"
    found = problems(doc)
    assert set(found) == {"/depotOnly", at}
    assert message in found[at]


def test_each_expression_keeps_its_context():
    # `card` is seen by an accept rule, `depot` by a trigger, `moves` by scoring: no problem
    doc = game(depotOnly="yes", scoring={"value": "moves + count(foundation)"})
    doc["depots"][2]["acceptRule"] = {"when": "card.rank == Ace && empty(pile)"}
    doc["depots"][2]["triggers"] = [{"when": "empty(depot)",
                                     "do": [{"kind": "flipTop", "depot": "column-1"}]}]
    assert set(problems(doc)) == {"/depotOnly"}
    doc["winCondition"] = {"kind": "expr", "when": "card.rank == Ace"}  # no card in a condition
    found = problems(doc)
    assert set(found) == {"/depotOnly", "/winCondition/when"}
    assert "`card` can't be seen" in found["/winCondition/when"]


def test_an_unknown_name_is_not_reported_while_some_depot_has_no_name():
    doc = game(lossCondition={"kind": "expr", "when": "empty(tableau) && cout(stock) == 0"})
    doc["depots"].append({"type": "Tableau"})  # its name, whatever it is, may be `tableau`
    found = problems(doc)
    assert "/lossCondition/when" not in found
    doc["lossCondition"]["when"] = "cout(stock) == 0"  # a function is no depot: still reported
    assert "unknown function `cout`" in problems(doc)["/lossCondition/when"]
