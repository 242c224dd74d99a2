"""The JSON Schema of the format: valid itself, accepting every valid game we have."""

import json
from pathlib import Path

import pytest
from spec_helpers import game, with_depot

from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import Field, StepKind
from cardz_core.registry import build_registry
from cardz_core.spec.schema import any_case, build_schema

jsonschema = pytest.importorskip("jsonschema")

ROOT = Path(__file__).parent.parent
REFERENCE = sorted((ROOT / "tests" / "data" / "spec").glob("*.cardz"))
RULESETS = sorted((ROOT / "rulesets").glob("*.cardz"))


@pytest.fixture(scope="module")
def validator():
    schema = build_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _errors(validator, doc):
    return [e.message for e in validator.iter_errors(doc)]


@pytest.mark.parametrize("path", REFERENCE + RULESETS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_schema_accepts_every_valid_game(validator, path):
    assert _errors(validator, json.loads(path.read_text())) == []


def test_schema_accepts_short_forms_and_any_case_values(validator):
    doc = with_depot(2, ejectRule={"gate": "FACEUP", "unit": "single"}, autoSend=["waste"],
                     acceptRule={"seed": "none", "wildDeclares": True, "rankIs": "k"})
    doc["decks"] = [{"suits": "Spades", "ranks": ["Ace", "2", "T"], "count": 2, "back": 1}]
    doc["values"] = {"K": 10, "joker": 0}
    doc["dealRules"] = [{"kind": "dealgroup", "to": ["column", "waste"], "faceUp": 1}]
    assert _errors(validator, doc) == []
    assert _errors(validator, {"schemaVersion": 1, "setup": game()}) == []


@pytest.mark.parametrize("doc", [
    game(colour="red"), game(name=None), with_depot(2, type="Tableaux"),
    with_depot(2, acceptRule={"build": {"direction": "Down", "step": 13}}),
    game(decks=[{"back": 3}]), game(dealRules=[{"kind": "dealGroup"}]),
    game(winCondition={"kind": "allCardsIn", "depots": {"ofType": "Foundation", "names": ["x"]}}),
    {"schemaVersion": 2, "setup": game()},
])
def test_schema_refuses_what_it_can_see(validator, doc):
    assert _errors(validator, doc)


def test_any_case_pattern():
    import re
    pattern = re.compile(any_case(["faceUp", "None"])["pattern"])
    assert all(pattern.match(w) for w in ["faceUp", "FACEUP", "faceup", "none", "NONE"])
    assert not any(pattern.match(w) for w in ["face up", "nonee", "faceUpx"])


class _Moon:
    __name__ = "moon_plugin"

    @hookimpl
    def cardz_deal_steps(self, register):
        register("moonDeal", StepKind({"onto": Field("depots", required=True)}))


def test_schema_lists_a_plugin_step_kind():
    registry = build_registry([_Moon()], entry_points=False)
    validator = jsonschema.Draft202012Validator(build_schema(registry))
    doc = game(dealRules=[{"kind": "moonDeal", "onto": "column"}])
    assert _errors(validator, doc) == []
    assert _errors(jsonschema.Draft202012Validator(build_schema()), doc)
