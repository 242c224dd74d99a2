"""Every structural check, each asserted at its exact JSON pointer."""

import json

import pytest
from spec_helpers import BASE, errors, game, only_error, with_depot

from cardz_core.problems import CardzError
from cardz_core.spec import load, load_game


def test_base_game_is_valid():
    assert errors(game()) == {}


# --- JSON ---------------------------------------------------------------------------------------

def test_json_that_does_not_parse_names_line_and_column():
    path, message = only_error('{\n  "name": "x",\n  oops\n}')
    assert path == "" and "line 3 column 3" in message


def test_json_nan_is_refused():
    path, message = only_error('{"name": NaN}')
    assert path == "" and "NaN" in message


def test_key_written_twice_in_text():
    text = json.dumps(game()).replace('"name": "Test"', '"name": "A", "name": "B"', 1)
    assert only_error(text) == ("/name", "property 'name' is written twice")


def test_key_written_twice_in_different_case():
    doc = game()
    doc["NAME"] = "again"
    path, message = only_error(doc)
    assert path == "/NAME" and "case-insensitively" in message


# --- required fields ----------------------------------------------------------------------------

@pytest.mark.parametrize("doc,ptr", [
    (game(name=None), "/name"),
    (game(depots=None), "/depots"),
    (with_depot(2, type=None), "/depots/2/type"),
    (with_depot(0, name=None), "/depots/0/name"),
    (with_depot(0, draw={"count": 2}), "/depots/0/draw/to"),
    (with_depot(2, acceptRule={"build": {"step": 2}}), "/depots/2/acceptRule/build/direction"),
    (game(dealRules=[{"to": "column"}]), "/dealRules/0/kind"),
    (game(dealRules=[{"kind": "flipTop"}]), "/dealRules/0/depot"),
    (game(winCondition={"kind": "allCardsIn"}), "/winCondition/depots"),
    (game(winCondition={"kind": "allOf"}), "/winCondition/of"),
    (game(scoring={"better": "Low"}), "/scoring/value"),
    (with_depot(1, triggers=[{"do": []}]), "/depots/1/triggers/0/when"),
    (with_depot(1, actions=[{"name": "x"}]), "/depots/1/actions/0/do"),
    (with_depot(2, ejectRule={"unit": {"kind": "Run"}}), "/depots/2/ejectRule/unit/build"),
    ({"schemaVersion": 1}, "/setup"),
    ({"setup": game()}, "/schemaVersion"),
])
def test_missing_required_property_is_reported_where_it_would_be(doc, ptr):
    path, message = only_error(doc)
    assert path == ptr and "missing" in message


def test_place_needs_rank_and_suit_or_joker():
    assert only_error(game(dealRules=[{"kind": "place", "to": "waste", "rank": "Ace"}]))[0] == \
        "/dealRules/0/rank"
    assert errors(game(dealRules=[{"kind": "place", "to": "waste", "joker": True}])) == {}
    assert errors(game(dealRules=[{"kind": "place", "to": "waste", "rank": "A", "suit": "S"}])) == {}


# --- unknown properties -------------------------------------------------------------------------

@pytest.mark.parametrize("doc,ptr", [
    (game(colour="red"), "/colour"),
    (with_depot(0, colour="red"), "/depots/0/colour"),
    (with_depot(2, acceptRule={"sead": "King"}), "/depots/2/acceptRule/sead"),
    (game(dealRules=[{"kind": "dealGroup", "to": "column", "faceup": 1, "extra": 1}]),
     "/dealRules/0/extra"),
    (game(winCondition={"kind": "allCardsFaceUp", "depots": "Tableau"}), "/winCondition/depots"),
    (game(decks=[{"suit": ["Spades"]}]), "/decks/0/suit"),
    ({"schemaVersion": 1, "setup": game(), "extra": 1}, "/extra"),
])
def test_unknown_property_is_an_error(doc, ptr):
    path, message = only_error(doc)
    assert path == ptr and "unknown property" in message


def test_unknown_property_suggests_the_close_spelling():
    assert "did you mean 'autoFlipTop'" in only_error(with_depot(2, autoFlipTops=True))[1]


def test_lenient_turns_unknown_properties_into_warnings():
    spec, problems = load(with_depot(0, colour="red"), lenient=True)
    assert spec is not None
    assert [(p.path, p.severity) for p in problems] == [("/depots/0/colour", "warning")]


# --- types and enum values ----------------------------------------------------------------------

@pytest.mark.parametrize("doc,ptr", [
    (game(name=3), "/name"),
    (game(depotOnly="yes"), "/depotOnly"),
    (game(depots={"a": 1}), "/depots"),
    (game(depots=[{"name": "stock", "type": "Stock"}, 7]), "/depots/1"),
    (with_depot(1, col="left"), "/depots/1/col"),
    (with_depot(2, repeat=2.5), "/depots/2/repeat"),
    (with_depot(2, repeat=True), "/depots/2/repeat"),
    (with_depot(2, fanDirection="Sideways"), "/depots/2/fanDirection"),
    (with_depot(2, type="Tableaux"), "/depots/2/type"),
    (with_depot(2, landFace="Left"), "/depots/2/landFace"),
    (with_depot(2, ejectRule="stuck"), "/depots/2/ejectRule"),
    (with_depot(2, ejectRule={"gate": "Open"}), "/depots/2/ejectRule/gate"),
    (with_depot(2, ejectRule={"unit": "Run"}), "/depots/2/ejectRule/unit"),
    (with_depot(2, ejectRule={"unit": 3}), "/depots/2/ejectRule/unit"),
    (with_depot(2, acceptRule="all"), "/depots/2/acceptRule"),
    (with_depot(2, acceptRule=5), "/depots/2/acceptRule"),
    (with_depot(2, acceptRule={"suit": "Alternate"}), "/depots/2/acceptRule/suit"),
    (with_depot(2, acceptRule={"single": "true"}), "/depots/2/acceptRule/single"),
    (with_depot(2, acceptRule={"wildDeclares": "some"}), "/depots/2/acceptRule/wildDeclares"),
    (with_depot(2, acceptRule={"when": 3}), "/depots/2/acceptRule/when"),
    (with_depot(2, acceptRule={"when": "  "}), "/depots/2/acceptRule/when"),
    (game(compoundMoves="Fast"), "/compoundMoves"),
    (game(tools="All"), "/tools"),
    (game(anchor="Middle"), "/anchor"),
    (game(planner="yes"), "/planner"),
    (game(scoring={"value": "1", "better": "Higher"}), "/scoring/better"),
    (game(dealRules={"kind": "shuffle", "depot": "stock"}), "/dealRules"),
    (game(dealRules=["shuffle"]), "/dealRules/0"),
    (game(dealRules=[{"kind": "deal", "to": "column"}]), "/dealRules/0/kind"),
    (game(dealRules=[{"kind": "dealGroup", "to": "column", "roundRobin": 1}]),
     "/dealRules/0/roundRobin"),
    (game(dealRules=[{"kind": "move", "from": "stock", "to": "waste", "count": "2"}]),
     "/dealRules/0/count"),
    (game(winCondition="allCardsFaceUp"), "/winCondition"),
    (game(winCondition={"kind": "allOf", "of": {"kind": "allCardsFaceUp"}}), "/winCondition/of"),
    (game(aliases=[1]), "/aliases/0"),
    (game(values=[1]), "/values"),
    (game(rules=[1]), "/rules"),
])
def test_wrong_type_or_enum_value(doc, ptr):
    assert only_error(doc)[0] == ptr


def test_enum_error_lists_the_choices():
    message = only_error(with_depot(2, fanDirection="Sideways"))[1]
    assert "None, Down, Up, Left, Right, Radial" in message


# --- ranges -------------------------------------------------------------------------------------

@pytest.mark.parametrize("step,ok", [(0, True), (12, True), (13, False), (-1, False)])
def test_build_step_range(step, ok):
    doc = with_depot(2, acceptRule={"build": {"direction": "Down", "step": step}})
    if ok:
        assert errors(doc) == {}
    else:
        assert only_error(doc)[0] == "/depots/2/acceptRule/build/step"


@pytest.mark.parametrize("doc,ptr", [
    (game(decks=[{"count": -1}]), "/decks/0/count"),
    (game(decks=[{"jokers": -1}]), "/decks/0/jokers"),
    (game(decks=[{"back": 3}]), "/decks/0/back"),
    (game(decks=[{"back": 0}]), "/decks/0/back"),
    (game(maxRedeals=-1), "/maxRedeals"),
    (with_depot(0, draw={"to": "waste", "maxRecycles": -1}), "/depots/0/draw/maxRecycles"),
    (with_depot(0, draw={"to": "waste", "count": 0}), "/depots/0/draw/count"),
    (with_depot(2, acceptRule={"minCount": -1}), "/depots/2/acceptRule/minCount"),
    (with_depot(2, repeat=0), "/depots/2/repeat"),
    (with_depot(2, perRow=0), "/depots/2/perRow"),
    (with_depot(2, fanWindow=-2), "/depots/2/fanWindow"),
    (game(dealRules=[{"kind": "dealGroup", "to": "column", "faceUp": -1}]), "/dealRules/0/faceUp"),
    (game(dealRules=[{"kind": "move", "from": "stock", "to": "waste", "count": -1}]),
     "/dealRules/0/count"),
])
def test_out_of_range(doc, ptr):
    assert only_error(doc)[0] == ptr


@pytest.mark.parametrize("doc", [
    game(decks=[{"count": 0}, {}]), game(decks=[{"back": 2, "jokers": 0}]), game(maxRedeals=0),
    with_depot(0, draw={"to": "waste", "maxRecycles": 0}),
])
def test_range_edges_are_accepted(doc):
    assert errors(doc) == {}


# --- references ---------------------------------------------------------------------------------

@pytest.mark.parametrize("doc,ptr", [
    (with_depot(0, draw={"to": "wastes"}), "/depots/0/draw/to"),
    (with_depot(0, draw={"to": "column"}), "/depots/0/draw/to"),
    (with_depot(2, acceptRule={"acceptFrom": ["waste", "hand"]}), "/depots/2/acceptRule/acceptFrom/1"),
    (with_depot(2, acceptRule={"acceptFrom": {"names": "hand"}}), "/depots/2/acceptRule/acceptFrom/names"),
    (with_depot(2, acceptRule={"acceptFrom": {"ofType": "Hand"}}),
     "/depots/2/acceptRule/acceptFrom/ofType"),
    (with_depot(2, acceptRule={"acceptFrom": "Hand"}), "/depots/2/acceptRule/acceptFrom"),
    (with_depot(2, autoSend="Foundations"), "/depots/2/autoSend"),
    (with_depot(2, autoRefill=["reserve"]), "/depots/2/autoRefill/0"),
    (game(winCondition={"kind": "depotsEmpty", "depots": ["stock", "pile"]}), "/winCondition/depots/1"),
    (game(dealRules=[{"kind": "dealGroup", "to": "columns"}]), "/dealRules/0/to"),
    (game(dealRules=[{"kind": "dealGroup", "to": ["column-1", "column-9"]}]), "/dealRules/0/to/1"),
    (game(dealRules=[{"kind": "dealGroup", "to": "column", "from": "deck"}]), "/dealRules/0/from"),
    (game(dealRules=[{"kind": "flipTop", "depot": "@self"}]), "/dealRules/0/depot"),
    (game(redealRules=[{"kind": "gather", "from": ["column", "x"], "to": "stock"}]),
     "/redealRules/0/from/1"),
    (with_depot(2, uncoveredBy=["column-1", "nothing"]), "/depots/2/uncoveredBy/1"),
    (with_depot(2, uncoveredBy="nothing"), "/depots/2/uncoveredBy"),
    (game(decks=[{"to": "stok"}]), "/decks/0/to"),
    (with_depot(2, acceptRule="$column"), "/depots/2/acceptRule"),
    (with_depot(2, ejectRule="$column"), "/depots/2/ejectRule"),
    (with_depot(1, actions=[{"do": [{"kind": "compact", "group": "waste"}]}]),
     "/depots/1/actions/0/do/0/group"),
])
def test_every_reference_is_checked(doc, ptr):
    assert only_error(doc)[0] == ptr


def test_unknown_depot_suggests_a_name():
    assert "did you mean 'waste'" in only_error(with_depot(0, draw={"to": "wastes"}))[1]


def test_pack_without_to_needs_a_stock():
    doc = game(depots=[{"name": "pile", "type": "Reserve"}], dealRules=None, winCondition=None)
    assert only_error(doc)[0] == "/decks"
    doc["decks"] = [{"to": "pile"}, {"suits": ["Spades"]}]
    assert only_error(doc)[0] == "/decks/1/to"


def test_rule_in_rules_cannot_name_another_rule():
    doc = with_depot(2, acceptRule="$a")
    doc["rules"] = {"a": "$b", "b": "any"}
    found = errors(doc)
    assert list(found) == ["/rules/a"]


def test_unused_rule_is_a_warning():
    spec, problems = load(game(rules={"spare": {"single": True}}))
    assert spec is not None
    assert [(p.path, p.severity) for p in problems] == [("/rules/spare", "warning")]


def test_problems_inside_a_shared_rule_are_reported_once_at_the_rule():
    doc = with_depot(2, acceptRule="$col")
    doc["depots"][3]["acceptRule"] = "$col"
    doc["rules"] = {"col": {"seed": "Kong"}}
    spec, problems = load(doc)
    assert [p.path for p in problems] == ["/rules/col/seed"]


# --- names --------------------------------------------------------------------------------------

def test_depot_names_are_unique():
    doc = game()
    doc["depots"].append({"name": "waste", "type": "Reserve"})
    path, message = only_error(doc)
    assert path == "/depots/4/name" and "/depots/1/name" in message


def test_a_plain_depot_and_a_repeated_one_cannot_share_a_name():
    doc = game()
    doc["depots"].append({"name": "column", "type": "Reserve"})
    assert only_error(doc)[0] == "/depots/4/name"


@pytest.mark.parametrize("name", ["free-cell", ""])
def test_depot_name_without_dash_and_not_empty(name):
    doc = game()
    doc["depots"].append({"name": name, "type": "Cell"})
    assert only_error(doc)[0] == "/depots/4/name"


# --- patterns -----------------------------------------------------------------------------------

@pytest.mark.parametrize("pattern", [{"ofType": "Foundation", "names": ["waste"]}, {}])
def test_pattern_sets_exactly_one_of_of_type_and_names(pattern):
    path, message = only_error(game(winCondition={"kind": "allCardsIn", "depots": pattern}))
    assert path == "/winCondition/depots" and "exactly one" in message


# --- cards, ranks, suits, values ----------------------------------------------------------------

def test_at_most_208_cards():
    assert errors(game(decks=[{"count": 4}])) == {}
    path, message = only_error(game(decks=[{"count": 4, "jokers": 1}]))
    assert path == "/decks" and "212" in message and "208" in message
    assert only_error(game(decks=[{"count": 2}, {"count": 2}, {"ranks": ["Ace"]}]))[0] == "/decks"


@pytest.mark.parametrize("doc,ptr", [
    (game(decks=[{"suits": ["Spades", "Stars"]}]), "/decks/0/suits/1"),
    (game(decks=[{"suits": ["Spades", "spades"]}]), "/decks/0/suits/1"),
    (game(decks=[{"ranks": ["Eleven"]}]), "/decks/0/ranks/0"),
    (game(decks=[{"ranks": "Kings"}]), "/decks/0/ranks"),
    (game(decks=[{"ranks": 14}]), "/decks/0/ranks"),
    (with_depot(3, acceptRule={"seed": "Kong"}), "/depots/3/acceptRule/seed"),
    (with_depot(3, acceptRule={"rankIs": 0}), "/depots/3/acceptRule/rankIs"),
    (with_depot(3, acceptRule={"wildRank": "Joker"}), "/depots/3/acceptRule/wildRank"),
    (game(dealRules=[{"kind": "place", "to": "waste", "rank": "A", "suit": "Stars"}]),
     "/dealRules/0/suit"),
    (game(values={"Z": 3}), "/values/Z"),
    (game(values={"K": "ten"}), "/values/K"),
    (game(values={"K": 10, "King": 11}), "/values/King"),
])
def test_rank_suit_and_values_words(doc, ptr):
    assert only_error(doc)[0] == ptr


# --- conditions and steps in their place --------------------------------------------------------

def test_no_legal_moves_needs_depot_only():
    doc = game(depotOnly=None, lossCondition={"kind": "noLegalMoves"})
    path, message = only_error(doc)
    assert path == "/lossCondition" and "depotOnly" in message
    assert errors(game(lossCondition={"kind": "noLegalMoves"})) == {}


def test_no_legal_moves_needs_depot_only_inside_any_of():
    doc = game(depotOnly=False, lossCondition={"kind": "anyOf", "of": [{"kind": "noLegalMoves"}]})
    assert only_error(doc)[0] == "/lossCondition/of/0"


def test_no_legal_moves_is_only_a_loss_condition():
    assert only_error(game(winCondition={"kind": "noLegalMoves"}))[0] == "/winCondition/kind"


def test_compact_only_inside_triggers_and_actions():
    path, message = only_error(game(dealRules=[{"kind": "compact", "group": "column"}]))
    assert path == "/dealRules/0/kind" and "triggers and actions" in message
    doc = with_depot(1, actions=[{"name": "tidy", "do": [{"kind": "compact", "group": "column"}]}])
    assert errors(doc) == {}


def test_expression_is_refused_outside_triggers():
    doc = game(dealRules=[{"kind": "move", "from": "stock", "to": "first(column, empty(it))"}])
    assert only_error(doc)[0] == "/dealRules/0/to"


def test_per_row_needs_repeat():
    assert only_error(with_depot(1, perRow=2))[0] == "/depots/1/perRow"


def test_unit_build_only_on_a_run():
    doc = with_depot(2, ejectRule={"unit": {"kind": "Single", "build": {"direction": "Down"}}})
    assert only_error(doc)[0] == "/depots/2/ejectRule/unit/build"
    doc = with_depot(2, ejectRule={"unit": {"build": {"direction": "Down"}}})
    assert only_error(doc)[0] == "/depots/2/ejectRule/unit/kind"


def test_export_wrapper_version_and_pointers():
    assert only_error({"schemaVersion": 2, "setup": game()})[0] == "/schemaVersion"
    assert only_error({"schemaVersion": 1, "setup": with_depot(2, type="X")})[0] == \
        "/setup/depots/2/type"


# --- several problems at once -------------------------------------------------------------------

def test_several_problems_in_one_file_are_all_reported():
    doc = game(name=None, colour="red", decks=[{"back": 3}])
    doc["depots"][0]["draw"] = {"to": "nowhere"}
    doc["depots"][2]["acceptRule"] = {"build": {"direction": "Down", "step": 20}}
    doc["depots"][3]["type"] = "Foundations"
    doc["dealRules"][0]["faceUp"] = "one"
    assert set(errors(doc)) == {"/name", "/colour", "/decks/0/back", "/depots/0/draw/to",
                                "/depots/2/acceptRule/build/step", "/depots/3/type",
                                "/dealRules/0/faceUp"}


def test_load_game_raises_with_every_problem():
    with pytest.raises(CardzError) as err:
        load_game(game(name=None, colour="red"), file="g.cardz")
    assert {(p.file, p.path) for p in err.value.problems} == {("g.cardz", "/name"),
                                                              ("g.cardz", "/colour")}


def test_base_is_not_modified_by_helpers():
    assert "colour" not in BASE and BASE["depots"][0]["draw"] == {"to": "waste"}


def test_a_dashed_name_does_not_hide_other_reference_problems():
    doc = game()
    doc["depots"].append({"name": "free-cell", "type": "Cell"})
    doc["depots"][0]["draw"] = {"to": "wast", "count": 0}
    doc["depots"][1]["autoSend"] = ["free-cell"]
    assert set(errors(doc)) == {"/depots/4/name", "/depots/0/draw/to", "/depots/0/draw/count"}


def test_a_depot_without_a_name_silences_unknown_names_only():
    doc = game()
    doc["depots"].append({"type": "Cell"})
    doc["depots"][0]["draw"] = {"to": "cell", "count": 0}
    assert set(errors(doc)) == {"/depots/4/name", "/depots/0/draw/count"}


# --- expressions --------------------------------------------------------------------------------

def test_expression_problems_come_at_the_field_pointer_with_or_without_structural_errors():
    doc = with_depot(2, acceptRule={"when": "card.rank == Kong"})
    path, message = only_error(doc)
    assert path == "/depots/2/acceptRule/when" and "column" in message
    doc["colour"] = "red"
    assert list(errors(doc)) == ["/colour", "/depots/2/acceptRule/when"]


def test_expression_problems_carry_the_file_name():
    spec, problems = load(with_depot(2, acceptRule={"when": "card.rank == Kong"}), file="g.cardz")
    assert [p.file for p in problems] == ["g.cardz"]


# --- aids, values, planner, redeal --------------------------------------------------------------

def test_aids():
    assert load(game(aids={"PAIRSUM": 13}))[0].aids == {"pairSum": 13}
    assert list(errors(game(aids={"pairSum": "13"}))) == ["/aids/pairSum"]
    assert list(errors(game(aids={"pairSums": 13}))) == ["/aids/pairSums"]
    spec, problems = load(game(aids={"glow": 1}), lenient=True)
    assert spec is not None and [(p.path, p.severity) for p in problems] == [("/aids/glow", "warning")]


def test_values_keys_any_way_a_rank_is_written():
    spec = load_game(game(values={"king": 10, "Q": 10, "JOKER": 25, "1": 11}))
    assert spec.values == {"K": 10, "Q": 10, "joker": 25, "A": 11}


def test_planner_and_redeal_when():
    assert list(errors(game(planner={"value": 5}))) == ["/planner/value"]
    assert list(errors(game(planner={"valeu": "1"}))) == ["/planner/valeu"]
    spec = load_game(game(redealWhen={"kind": "depotsNonEmpty", "depots": ["waste"]}, maxRedeals=2))
    assert spec.redeal_when.kind == "depotsNonEmpty" and spec.max_redeals == 2
    assert list(errors(game(redealWhen={"kind": "noLegalMoves"}))) == ["/redealWhen/kind"]


@pytest.mark.parametrize("decks", [[{"count": 0}], [], [{"ranks": [], "jokers": 0}],
                                   [{"count": 0}, {"count": 0, "jokers": 0}]])
def test_packs_that_hold_no_cards_are_refused(decks):
    # the solver would call such a game won before a move, check --play lost at once
    assert errors(game(decks=decks)) == {"/decks": "the packs hold no cards: a game needs at "
                                                   "least one"}
    assert errors(game(decks=[*decks, {"ranks": ["Ace"], "suits": ["Spades"]}])) == {}


@pytest.mark.parametrize("text, said", [
    ("", "not valid JSON: it is empty: no JSON value at all"),
    (" \n", "not valid JSON: it is empty: no JSON value at all"),
    ('{\n  "name": "x",\n  "a": [1, 2,\n  ]\n}', "not valid JSON: line 3 column 13: a comma before "
                                            "the closing ']' (JSON allows none after the last item)"),
    ('{"name": "x",}', "not valid JSON: line 1 column 13: a comma before the closing '}'"),
    ('{"name": 1', "not valid JSON: line 1 column 11: the text ends before the JSON value does"),
    ('{"name": "abc', "not valid JSON: line 1 column 10: a string begins here and is never closed"),
    ('{"name": 1 2}', "not valid JSON: line 1 column 12: Expecting ',' delimiter"),
])
def test_text_that_is_not_json_is_explained_where_it_goes_wrong(text, said):
    path, message = only_error(text)
    assert path == "" and message.startswith(said)


def test_a_byte_order_mark_before_the_json_is_skipped():
    doc = json.dumps(game())
    assert load_game("\ufeff" + doc) == load_game(doc)


@pytest.mark.parametrize("text", ["null", "3", '"game"', "[]"])
def test_json_that_is_not_an_object(text):
    path, message = only_error(text)
    assert path == "" and "expected the game object" in message  # the whole document


def test_build_reports_every_bad_field_at_once():
    spec, problems = load({"name": "X", "depots": [
        {"name": "stock", "type": "Stock"},
        {"name": "waste", "type": "Waste",
         "acceptRule": {"build": {"direction": "Sideways", "step": 13}}}]})
    assert spec is None
    assert sorted(p.path for p in problems) == ["/depots/1/acceptRule/build/direction",
                                                "/depots/1/acceptRule/build/step"]


def test_run_unit_reports_bad_suit_beside_missing_build():
    spec, problems = load({"name": "X", "depots": [
        {"name": "stock", "type": "Stock"},
        {"name": "t", "type": "Tableau",
         "ejectRule": {"gate": "FaceUp", "unit": {"kind": "Run", "suit": "Purple"}}}]})
    assert spec is None
    assert sorted(p.path for p in problems) == ["/depots/1/ejectRule/unit/build",
                                                "/depots/1/ejectRule/unit/suit"]


def test_expression_syntax_is_reported_beside_structural_errors():
    spec, problems = load({"name": "X", "depotOnly": "yes", "depots": [
        {"name": "stock", "type": "Stock"}],
        "scoring": {"value": "count(stock) +"}})
    assert spec is None
    by_path = {p.path: p.message for p in problems}
    assert set(by_path) == {"/depotOnly", "/scoring/value"}
    assert by_path["/scoring/value"].startswith("column 15:")
