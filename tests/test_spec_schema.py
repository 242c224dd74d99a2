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
    listed, matched = any_case(["faceUp", "None"])["anyOf"]
    assert listed == {"enum": ["faceUp", "None"]}  # what an editor offers
    pattern = re.compile(matched["pattern"])
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


def _walk(node, path=""):
    """Every (pointer, object) in the schema."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from _walk(v, f"{path}/{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, f"{path}/{i}")


def test_every_property_is_described_and_every_enum_listed():
    schema = build_schema()
    undescribed = [f"{path}/{name}" for path, node in _walk(schema)
                   if isinstance(node.get("properties"), dict)
                   for name, prop in node["properties"].items()
                   if not path.endswith("/properties") and "description" not in prop]
    assert undescribed == []
    depot = schema["$defs"]["depot"]["properties"]
    assert "Tableau" in depot["type"]["description"]
    assert {"Down", "Radial"} <= set(depot["fanDirection"]["anyOf"][0]["enum"])
    suit_rule = schema["$defs"]["game"]["properties"]["depotOnly"]["description"]
    assert "top level" in suit_rule  # says where it belongs
    kinds = {alt["properties"]["kind"]["anyOf"][0]["enum"][0]: alt
             for alt in schema["$defs"]["condition"]["anyOf"]}
    assert "depotOnly" in kinds["noLegalMoves"]["description"]
    patterns = [node for _, node in _walk(schema) if "pattern" in node
                and isinstance(node["pattern"], str) and node["pattern"].startswith("^(?:")]
    assert patterns  # every any-case pattern sits beside its listed enum
    for _, node in _walk(schema):
        if isinstance(node.get("anyOf"), list) and any(
                isinstance(a, dict) and str(a.get("pattern", "")).startswith("^(?:")
                for a in node["anyOf"]):
            assert "enum" in node["anyOf"][0]


def test_a_field_in_the_wrong_place_is_told_where_it_belongs():
    from cardz_core.spec import load

    doc = with_depot(0, seed="Ace")
    doc["lossCondition"] = {"kind": "noLegalMoves", "depotOnly": True}
    doc.pop("depotOnly", None)
    _, problems = load(doc)
    said = {p.path: p.message for p in problems}
    assert "'seed' belongs in a depot's acceptRule" in said["/depots/0/seed"]
    assert "'depotOnly' belongs at the game's top level" in said["/lossCondition/depotOnly"]
    assert said["/lossCondition"].endswith("needs \"depotOnly\": true at the game's top level")
