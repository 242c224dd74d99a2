"""Short forms, case-insensitive reading, defaults, repeat expansion and pack expansion."""

from collections import Counter

import pytest
from spec_helpers import errors, game, with_depot

from cardz_core.cards import JOKER, Card
from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import Field, StepKind
from cardz_core.registry import build_registry
from cardz_core.spec import load, load_game
from cardz_core.spec.model import Expr, Pattern


def depot(doc, name):
    return load_game(doc).depot(name)


# --- case-insensitive names and values ----------------------------------------------------------

def test_property_names_and_enum_values_are_read_case_insensitively():
    doc = {"NAME": "Shouting", "DepotOnly": True, "COMPOUNDMOVES": "staged",
           "Depots": [{"Name": "stock", "TYPE": "stock", "Draw": {"TO": "pile"}, "EjectRule": "LOCKED"},
                      {"NAME": "pile", "type": "tableau", "fandirection": "RIGHT",
                       "acceptRule": {"Build": {"Direction": "down"}, "SUIT": "alternatecolor"},
                       "ejectRule": {"GATE": "faceup", "UNIT": {"KIND": "run",
                                                              "build": {"direction": "UP"}}}}],
           "WinCondition": {"KIND": "ALLCARDSIN", "Depots": {"OFTYPE": "tableau"}}}
    spec = load_game(doc)
    assert spec.name == "Shouting" and spec.compound_moves == "Staged"
    pile = spec.depot("pile")
    assert (pile.type, pile.fan_direction) == ("Tableau", "Right")
    assert pile.accept.build.direction == "Down" and pile.accept.suit == "AlternateColor"
    assert pile.eject.gate == "FaceUp" and pile.eject.unit.kind == "Run"
    assert spec.depot("stock").eject.gate == "Locked"
    assert spec.win.kind == "allCardsIn" and spec.win.args["depots"].of_type == "Tableau"


def test_pointers_keep_the_spelling_of_the_file():
    doc = with_depot(2, AcceptRule={"Build": {"Direction": "Down", "STEP": 99}})
    doc["depots"][2].pop("acceptRule")
    assert list(errors(doc)) == ["/depots/2/AcceptRule/Build/STEP"]


def test_depot_names_are_case_sensitive():
    assert list(errors(with_depot(0, draw={"to": "Waste"}))) == ["/depots/0/draw/to"]


def test_step_and_condition_kinds_are_case_insensitive():
    spec = load_game(game(dealRules=[{"KIND": "DEALGROUP", "To": "column"}],
                          winCondition={"kind": "allcardsfaceup"}))
    assert spec.deal[0].kind == "dealGroup" and spec.win.kind == "allCardsFaceUp"


# --- short forms --------------------------------------------------------------------------------

@pytest.mark.parametrize("text,gate", [("any", "Any"), ("faceUp", "FaceUp"), ("topOnly", "TopOnly"),
                                       ("locked", "Locked"), ("FACEUP", "FaceUp")])
def test_bare_gate(text, gate):
    eject = depot(with_depot(2, ejectRule=text), "column-1").eject
    assert eject.gate == gate and eject.unit is None


@pytest.mark.parametrize("unit,kind", [("single", "Single"), ("any", "Any"), ("pile", "Pile"),
                                       ("Single", "Single"), ({}, "Any"), ({"kind": "pile"}, "Pile")])
def test_bare_units(unit, kind):
    eject = depot(with_depot(2, ejectRule={"gate": "FaceUp", "unit": unit}), "column-2").eject
    assert eject.unit.kind == kind and eject.unit.build is None


def test_run_unit():
    unit = depot(with_depot(2, ejectRule={"gate": "FaceUp", "unit": {
        "kind": "Run", "build": {"direction": "Down"}, "suit": "Same"}}), "column-1").eject.unit
    assert (unit.kind, unit.build.direction, unit.build.step, unit.suit) == ("Run", "Down", 1, "Same")


def test_omitted_eject_and_accept_are_any():
    d = depot(with_depot(1, acceptRule=None, ejectRule=None), "waste")
    assert d.eject.gate == "Any" and d.eject.unit is None and d.eject.ptr == "/depots/1/ejectRule"
    assert not (d.accept.rejects_all or d.accept.empty_only or d.accept.single)
    assert d.accept.ptr == "/depots/1/acceptRule"


@pytest.mark.parametrize("text,rejects,empty", [("any", False, False), ("none", True, False),
                                                ("emptyOnly", False, True), ("EMPTYONLY", False, True)])
def test_accept_rule_words(text, rejects, empty):
    accept = depot(with_depot(1, acceptRule=text), "waste").accept
    assert (accept.rejects_all, accept.empty_only) == (rejects, empty)


def test_named_rules_for_accept_and_eject_case_insensitive_names():
    doc = with_depot(2, acceptRule="$Col", ejectRule="$lift")
    doc["rules"] = {"col": {"seed": "King", "build": {"direction": "Down"}},
                    "lift": {"gate": "FaceUp"}}
    col = depot(doc, "column-3")
    assert col.accept.seed == 13 and col.accept.ptr == "/rules/col"
    assert col.eject.gate == "FaceUp" and col.eject.ptr == "/rules/lift"


def test_named_rule_may_be_a_short_form():
    doc = with_depot(2, acceptRule="$cell", ejectRule="$top")
    doc["rules"] = {"cell": "emptyOnly", "top": "topOnly"}
    col = depot(doc, "column-1")
    assert col.accept.empty_only and col.eject.gate == "TopOnly"


@pytest.mark.parametrize("value,expected", [(True, "suit"), (False, "none"), ("FREE", "free"),
                                            ("transparent", "transparent")])
def test_wild_declares(value, expected):
    accept = depot(with_depot(2, acceptRule={"wildJoker": True, "wildDeclares": value}), "column-1").accept
    assert accept.wild_joker and accept.wild_declares == expected


def test_wild_declares_default_none():
    assert depot(game(), "column-1").accept.wild_declares == "none"


@pytest.mark.parametrize("seed,rank,none", [("none", None, True), ("None", None, True),
                                            ("King", 13, False), ("K", 13, False), ("k", 13, False),
                                            ("10", 10, False), ("T", 10, False), (12, 12, False),
                                            ("Ace", 1, False), ("a", 1, False)])
def test_seed_forms_and_rank_spellings(seed, rank, none):
    accept = depot(with_depot(2, acceptRule={"seed": seed}), "column-1").accept
    assert (accept.seed, accept.seed_none) == (rank, none)


@pytest.mark.parametrize("bad", ["13", "Kings", 0, 14, True, "Joker"])
def test_ranks_that_are_not_read(bad):
    assert list(errors(with_depot(2, acceptRule={"rankIs": bad}))) == ["/depots/2/acceptRule/rankIs"]


@pytest.mark.parametrize("value,expected", [
    ("Foundation", Pattern("Foundation", None, "/depots/2/autoSend")),
    ("FOUNDATION", Pattern("Foundation", None, "/depots/2/autoSend")),
    ("foundation", Pattern("Foundation", None, "/depots/2/autoSend")),  # a type, as the reference says
    (["waste"], Pattern(None, ("waste",), "/depots/2/autoSend")),
    ({"ofType": "cell"}, Pattern("Cell", None, "/depots/2/autoSend")),
    ({"names": "waste"}, Pattern(None, ("waste",), "/depots/2/autoSend")),
    ({"names": ["column", "waste"]},
     Pattern(None, ("column-1", "column-2", "column-3", "waste"), "/depots/2/autoSend")),
])
def test_patterns(value, expected):
    assert depot(with_depot(2, autoSend=value), "column-1").auto_send == expected


def test_a_bare_depot_name_is_refused_saying_to_write_a_list():
    problems = errors(with_depot(2, autoSend="column"))
    assert list(problems) == ["/depots/2/autoSend"]
    assert '["column"]' in problems["/depots/2/autoSend"]


def test_single_name_where_a_list_is_expected():
    spec = load_game(game(aliases="Other", decks=[{"suits": "Hearts", "ranks": "King"}],
                          dealRules=[{"kind": "dealGroup", "to": "waste"}]))
    assert spec.aliases == ("Other",) and spec.deal[0].args["to"] == ("waste",)
    assert [str(c.card) for c in spec.cards] == ["KH"]
    assert depot(with_depot(2, uncoveredBy="waste"), "column-1").uncovered_by == ("waste",)


def test_repeated_depot_name_means_its_copies_in_lists():
    spec = load_game(with_depot(3, uncoveredBy=["column", "waste"]))
    assert spec.depot("foundation-2").uncovered_by == ("column-1", "column-2", "column-3", "waste")
    spec = load_game(game(redealRules=[{"kind": "gather", "from": ["waste", "column"], "to": "stock"}]))
    assert spec.redeal[0].args["from"] == ("waste", "column-1", "column-2", "column-3")


def test_null_counts_as_omitted():
    spec = load_game(game(family=None, anchor=None) | {"tools": None})
    assert spec.tools == "Unset"


def test_wrapper_is_read_and_pointers_start_at_setup():
    spec = load_game({"schemaVersion": 1, "setup": game()})
    assert spec.ptr == "/setup" and spec.depots[0].ptr == "/setup/depots/0"
    assert spec.deal[0].ptr == "/setup/dealRules/0"


def test_text_is_kept():
    spec = load_game(game())
    assert spec.text.startswith('{"dealRules"')  # a dict becomes canonical JSON, sorted keys
    text = '{"name": "T", "depots": [{"name": "stock", "type": "Stock"}]}'
    assert load_game(text).text == text


# --- defaults -----------------------------------------------------------------------------------

def test_defaults():
    spec = load_game({"name": "Bare", "depots": [{"name": "stock", "type": "Stock"},
                                                  {"name": "t", "type": "Tableau"},
                                                  {"name": "hand", "type": "Reserve", "fanDirection": "Radial"}]})
    assert len(spec.cards) == 52 and spec.packs[0].to is None
    assert (spec.compound_moves, spec.tools, spec.anchor, spec.depot_only) == ("Free", "Unset",
                                                                               "TopCenter", False)
    assert spec.planner.enabled is None and spec.win is None and spec.max_redeals is None
    stock, t, hand = spec.depots
    assert stock.fan_direction == "None" and t.fan_direction == "Down"
    assert (hand.fan_direction, hand.fan_anchor, t.fan_anchor) == ("Radial", "Center", "Base")
    assert (t.col, t.row, t.x, t.y, t.index, t.group) == (0.0, 0.0, None, None, 0, None)


def test_step_field_defaults():
    spec = load_game(game(dealRules=[{"kind": "dealGroup", "to": "column"},
                                     {"kind": "move", "from": "stock", "to": "waste"}]))
    assert spec.deal[0].args == {"to": ("column-1", "column-2", "column-3"), "faceDown": 0,
                                 "faceUp": 1, "roundRobin": False, "from": None, "when": None}
    assert spec.deal[1].args == {"from": "stock", "to": "waste", "count": 1, "under": False}


def test_draw_build_scoring_planner_defaults():
    spec = load_game(game(scoring={"value": "moves"}, planner={"value": "count(waste)"}))
    assert spec.depot("stock").draw.count == 1 and not spec.depot("stock").draw.recycle
    build = spec.depot("column-1").accept.build
    assert (build.step, build.wrap) == (1, False)
    assert (spec.scoring.better, spec.scoring.keep) == ("High", "Won")
    assert spec.planner.enabled is True and spec.planner.value == Expr("count(waste)", "/planner/value")
    assert load_game(game(planner=False)).planner.enabled is False


# --- repeat and perRow --------------------------------------------------------------------------

def test_repeat_names_and_positions():
    spec = load_game(with_depot(2, col=2, row=1.5, repeat=3))
    cols = [d for d in spec.depots if d.group == "column"]
    assert [(d.name, d.index, d.col, d.row) for d in cols] == [
        ("column-1", 1, 2.0, 1.5), ("column-2", 2, 3.0, 1.5), ("column-3", 3, 4.0, 1.5)]
    assert all(d.ptr == "/depots/2" for d in cols)


def test_per_row_wraps_in_reading_order():
    spec = load_game(with_depot(2, col=1, row=2, repeat=5, perRow=2))
    cols = [(d.name, d.col, d.row) for d in spec.depots if d.group == "column"]
    assert cols == [("column-1", 1.0, 2.0), ("column-2", 2.0, 2.0), ("column-3", 1.0, 3.0),
                    ("column-4", 2.0, 3.0), ("column-5", 1.0, 4.0)]
    assert spec.groups["column"] == tuple(c[0] for c in cols)


def test_depot_order_is_file_order_after_expansion():
    spec = load_game(game())
    assert [d.name for d in spec.depots] == ["stock", "waste", "column-1", "column-2", "column-3",
                                             "foundation-1", "foundation-2", "foundation-3",
                                             "foundation-4"]


def test_x_and_y_placement():
    d = depot(with_depot(1, x=120, y=40.5), "waste")
    assert (d.x, d.y) == (120.0, 40.5)


# --- packs --------------------------------------------------------------------------------------

def _cards(decks):
    return load_game(game(decks=decks)).cards


def test_standard_and_double_deck():
    assert len(_cards([{}])) == 52 and len(_cards([{"count": 2}])) == 104


def test_spider_one_two_four_suits():
    one = _cards([{"suits": ["Spades"], "count": 8}])
    assert len(one) == 104 and {c.card.suit for c in one} == {3}
    assert Counter(c.card.rank for c in one) == {r: 8 for r in range(1, 14)}
    two = _cards([{"suits": ["Spades", "Hearts"], "count": 4}])
    assert Counter(c.card.suit for c in two) == {3: 52, 2: 52}
    four = _cards([{"count": 2}])
    assert Counter(c.card for c in four) == {Card(r, s): 2 for r in range(1, 14) for s in range(4)}


def test_stripped_deck_keeps_the_written_rank_order():
    ranks = ["Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King", "Ace"]
    stripped = _cards([{"ranks": ranks}])
    assert len(stripped) == 32
    assert [c.card.rank for c in stripped[:8]] == [7, 8, 9, 10, 11, 12, 13, 1]


def test_jokers_come_after_each_copy():
    cards = _cards([{"jokers": 2, "count": 2}])
    assert len(cards) == 108
    assert [i for i, c in enumerate(cards) if c.card == JOKER] == [52, 53, 106, 107]


def test_deck_order_and_backs():
    cards = _cards([{"count": 3}, {"suits": ["C"], "ranks": ["A"], "back": 2, "count": 2}])
    assert str(cards[0].card) == "AC" and str(cards[13].card) == "AD" and str(cards[51].card) == "KS"
    assert [cards[i].back for i in (0, 52, 104)] == [1, 2, 1]
    assert [(c.pack, c.copy, c.back) for c in cards[156:]] == [(1, 0, 2), (1, 1, 2)]


def test_separated_deck():
    doc = game(decks=[{"ranks": ["Jack", "Queen", "King"], "to": "waste", "back": 1},
                      {"ranks": ["Ace", "2", "3", "4", "5", "6", "7", "8", "9", "10"], "back": 1}])
    spec = load_game(doc)
    assert [p.to for p in spec.packs] == ["waste", None] and len(spec.cards) == 52
    assert {c.back for c in spec.cards} == {1}


# --- triggers, actions and expressions in steps -------------------------------------------------

def test_self_and_expressions_in_trigger_steps():
    doc = with_depot(2, triggers=[{"when": "true", "do": [
        {"kind": "move", "from": "@self", "to": "first(foundation, empty(it))", "count": "2"},
        {"kind": "flipTop", "depot": "neighbour(depot, 1)"},
        {"kind": "gather", "from": "@SELF", "to": "waste"}]}])
    spec = load_game(doc)
    for i, name in enumerate(["column-1", "column-2", "column-3"]):
        move, flip, gather = spec.depot(name).triggers[0].do
        assert move.self_depot == name and move.args["from"] == name
        assert move.args["to"] == Expr("first(foundation, empty(it))", "/depots/2/triggers/0/do/0/to")
        assert move.args["count"] == Expr("2", "/depots/2/triggers/0/do/0/count")
        assert flip.args["depot"] == Expr("neighbour(depot, 1)", "/depots/2/triggers/0/do/1/depot")
        assert gather.args["from"] == (name,)


def test_action_without_name_or_when():
    (action,) = depot(with_depot(1, actions=[{"do": [{"kind": "flipTop", "depot": "@self"}]}]),
                      "waste").actions
    assert action.name == "" and action.when is None and action.do[0].args == {"depot": "waste"}


# --- a plugin's step kind loads without touching the loader -------------------------------------

class _Moon:
    __name__ = "moon_plugin"

    @hookimpl
    def cardz_deal_steps(self, register):
        register("moonDeal", StepKind({"onto": Field("depots", required=True),
                                       "phases": Field("int", default=4, minimum=1),
                                       "waxing": Field("bool", default=True)}))


def test_plugin_step_kind_is_read_from_its_fields():
    registry = build_registry([_Moon()], entry_points=False)
    doc = game(dealRules=[{"kind": "moondeal", "onto": "column", "PHASES": 2}])
    spec, problems = load(doc, registry=registry)
    assert problems == []
    assert spec.deal[0].kind == "moonDeal"
    assert spec.deal[0].args == {"onto": ("column-1", "column-2", "column-3"), "phases": 2,
                                 "waxing": True}
    doc = game(dealRules=[{"kind": "moonDeal", "phases": 0}])
    assert set(errors(doc, registry=registry)) == {"/dealRules/0/onto", "/dealRules/0/phases"}


# --- the reference's canonical encodings, written as it writes them -----------------------------

def test_canonical_encodings():
    doc = {"name": "Encodings", "depotOnly": True, "compoundMoves": "Staged",
           "decks": [{"suits": ["Spades"], "count": 8}],
           "depots": [
               {"name": "stock", "type": "Stock", "offTable": True,
                "draw": {"to": "waste", "recycle": True, "maxRecycles": 1}},
               {"name": "waste", "type": "Waste"},
               {"name": "spider", "type": "Foundation", "repeat": 2,
                "acceptRule": {"emptyOnly": True, "seed": "King", "build": {"direction": "Down"},
                               "minCount": 13}},
               {"name": "canfield", "type": "Foundation",
                "acceptRule": {"seedFromDeal": True, "build": {"direction": "Up", "wrap": True},
                               "suit": "Same"}, "ejectRule": "locked"},
               {"name": "tableau", "type": "Tableau", "autoSend": "Foundation", "autoRefill": ["reserve"],
                "ejectRule": {"gate": "FaceUp", "unit": {"kind": "Run", "build": {"direction": "Down"}}}},
               {"name": "reserve", "type": "Reserve"},
               {"name": "discard", "type": "Reserve", "landFace": "down",
                "acceptRule": {"single": True, "rankIs": "K"}},
               {"name": "slot", "type": "Tableau", "ejectRule": "faceUp", "uncoveredBy": ["reserve", "discard"],
                "uncoveredByAny": True, "acceptRule": {"single": True, "seed": "none"}},
               {"name": "bouquet", "type": "Reserve", "acceptRule": "none", "ejectRule": {"unit": "single"},
                "looseOrder": True},
               {"name": "hour", "type": "Tableau", "repeat": 2, "landUnder": True,
                "acceptRule": {"rankIs": 12}},
               {"name": "cell", "type": "Cell", "acceptRule": {"emptyOnly": True, "single": True}},
           ],
           "winCondition": {"kind": "allCardsFaceUp"}, "lossCondition": {"kind": "noLegalMoves"}}
    spec = load_game(doc)
    assert len(spec.cards) == 104 and spec.compound_moves == "Staged"
    assert spec.depot("stock").off_table and spec.depot("stock").draw.max_recycles == 1
    spider = spec.depot("spider-2").accept
    assert (spider.empty_only, spider.seed, spider.min_count) == (True, 13, 13)
    canfield = spec.depot("canfield").accept
    assert canfield.seed_from_deal and canfield.build.wrap and canfield.suit == "Same"
    tableau = spec.depot("tableau")
    assert tableau.auto_send.of_type == "Foundation" and tableau.auto_refill.names == ("reserve",)
    assert tableau.eject.unit.build.direction == "Down"
    assert spec.depot("discard").land_face == "Down" and spec.depot("discard").accept.rank_is == 13
    slot = spec.depot("slot")
    assert slot.accept.seed_none and slot.uncovered_by_any and slot.uncovered_by == ("reserve", "discard")
    bouquet = spec.depot("bouquet")
    assert bouquet.loose_order and bouquet.eject.gate == "Any" and bouquet.eject.unit.kind == "Single"
    assert spec.depot("hour-2").land_under and spec.depot("hour-2").accept.rank_is == 12
    assert spec.loss.kind == "noLegalMoves"
