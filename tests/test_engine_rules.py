"""The engine plays each rule of the vocabulary as docs/engine.md says: one small hand-made game
and board per rule."""

from __future__ import annotations

import pytest

from cardz_core.engine import LOST, PLAYING, WON, IllegalMove, Move, State, compile
from cardz_core.engine import rng
from cardz_core.limits import MAX_CASCADE
from cardz_core.problems import CardzError
from cardz_core.spec import load_game
from conftest import board, move_texts, mv, pile, tap

STOCK = {"name": "stock", "type": "Stock", "acceptRule": "none", "ejectRule": "locked"}


def game(depots: list, **doc) -> object:
    doc.setdefault("name", "test")
    return compile(load_game({**doc, "depots": depots}))


def moves(g, state) -> set[str]:
    return move_texts(g, g.legal_moves(state))


def two(accept=None, eject="any", **extra) -> list:
    """A source `a` that releases anything and a target `b` with the given accept rule."""
    b = {"name": "b", "type": "Tableau", "ejectRule": "locked", **extra}
    if accept is not None:
        b["acceptRule"] = accept
    return [STOCK, {"name": "a", "type": "Tableau", "ejectRule": eject, "acceptRule": "none"}, b]


# -- random numbers and the deal ----------------------------------------------------------------
def test_splitmix64_is_pinned():
    state, out = rng.next_u64(0)
    assert out == 0xE220A8397B1DCDAF
    items = list(range(10))
    rng.shuffle(rng.seed_state(42), items)
    assert items == [0, 9, 5, 8, 6, 4, 7, 2, 1, 3]  # pinned: every platform deals the same


def test_deal_is_deterministic_and_seed_dependent():
    g = game([STOCK])
    assert g.deal(7) == g.deal(7)
    assert g.deal(7).piles != g.deal(8).piles
    assert sorted(c >> 1 for c in g.deal(7).piles[0]) == list(range(52))
    assert all(not c & 1 for c in g.deal(7).piles[0])


def test_packs_shuffle_into_their_to_depot():
    g = game([STOCK, {"name": "monsters", "type": "Reserve"}],
             decks=[{"ranks": ["J", "Q", "K"], "to": "monsters"}, {"ranks": ["A", "2"]}])
    s = g.deal(3)
    assert sorted(g.identity[c >> 1].rank for c in s.piles[1]) == [11] * 4 + [12] * 4 + [13] * 4
    assert len(s.piles[0]) == 8


def test_deal_group_face_down_then_up_filling_each_depot():
    g = game([STOCK, {"name": "col", "type": "Tableau", "repeat": 2}],
             dealRules=[{"kind": "dealGroup", "to": "col", "faceDown": 2, "faceUp": 1}])
    s0 = g.deal(1)
    stock = game([STOCK]).deal(1).piles[0]
    # cards come off the stock's top: col-1 gets the first three, col-2 the next three
    assert s0.piles[1] == (stock[-1] & ~1, stock[-2] & ~1, stock[-3] | 1)
    assert s0.piles[2] == (stock[-4] & ~1, stock[-5] & ~1, stock[-6] | 1)


def test_deal_group_round_robin():
    g = game([STOCK, {"name": "col", "type": "Tableau", "repeat": 2}],
             dealRules=[{"kind": "dealGroup", "to": "col", "faceDown": 1, "faceUp": 1,
                         "roundRobin": True}])
    s = g.deal(1)
    stock = game([STOCK]).deal(1).piles[0]
    assert s.piles[1] == (stock[-1] & ~1, stock[-3] | 1)
    assert s.piles[2] == (stock[-2] & ~1, stock[-4] | 1)


def test_deal_group_from_and_when_and_running_out():
    g = game([STOCK, {"name": "res", "type": "Reserve"}, {"name": "col", "type": "Tableau", "repeat": 3}],
             decks=[{"ranks": ["A", "2"], "suits": ["Spades"], "to": "res"}, {"ranks": ["3"]}],
             dealRules=[{"kind": "dealGroup", "to": ["col-1", "col-2"], "from": "res", "faceUp": 2},
                        {"kind": "dealGroup", "to": "col", "faceUp": 1, "when": "empty(depot)"}])
    s = g.deal(5)
    # res ran out after col-1's two cards; then only the empty columns got one from the stock
    assert [len(p) for p in s.piles] == [2, 0, 2, 1, 1]


def test_place_move_flip_shuffle_steps():
    g = game([STOCK, {"name": "f", "type": "Foundation"}, {"name": "t", "type": "Tableau"}],
             decks=[{"ranks": ["A", "2", "3"], "suits": ["Hearts"], "jokers": 1}],
             dealRules=[{"kind": "place", "rank": "Ace", "suit": "Hearts", "to": "f"},
                        {"kind": "place", "joker": True, "to": "t"},
                        {"kind": "move", "from": "stock", "to": "t"},
                        {"kind": "flipTop", "depot": "t"},
                        {"kind": "shuffle", "depot": "stock"}])
    s = g.deal(2)
    assert g.deal(2) == s  # the shuffle step draws from the deal's own generator
    assert pile(g, s, "f") == ["AH"]
    assert pile(g, s, "t")[0] == "JK" and pile(g, s, "t")[1][0] != "~"
    assert len(s.piles[0]) == 1


def test_gather_turns_each_pile_over_face_down_with_when():
    g = game([STOCK, {"name": "cell", "type": "Cell", "repeat": 2}, {"name": "aces", "type": "Foundation"}],
             dealRules=[{"kind": "gather", "from": ["cell"], "to": "aces",
                         "when": "top(depot).rank == Ace"}])
    # the deal's gather is checked on a board built by hand through the step executor
    s = board(g, {"cell-1": ["2S", "AS"], "cell-2": ["AH", "3C"]})
    from cardz_core.engine.work import Work
    w = Work(s)
    for step in g.deal_steps:
        step(w)
    out = g._freeze(w, s)
    assert pile(g, out, "aces") == ["~AS", "~2S"]
    assert pile(g, out, "cell-2") == ["AH", "3C"]


def test_opening_deal_makes_no_automatic_moves():
    g = game([STOCK, {"name": "t", "type": "Tableau", "autoSend": "Foundation", "autoFlipTop": True},
              {"name": "f", "type": "Foundation", "acceptRule": {"seed": "Ace", "build": {"direction": "Up"}}}],
             decks=[{"ranks": ["A"], "suits": ["Spades"]}, {"ranks": ["K"]}],
             dealRules=[{"kind": "place", "rank": "A", "suit": "S", "to": "t"}])
    s = g.deal(0)
    assert pile(g, s, "t") == ["AS"] and pile(g, s, "f") == []
    after = g.apply(s, tap_or_first(g, s))
    assert pile(g, after, "f") == ["AS"]


def tap_or_first(g, s):
    return g.legal_moves(s)[0]


# -- picking up: ejectRule and uncoveredBy ---------------------------------------------------------
@pytest.mark.parametrize("gate,expected", [
    ("any", {"a@0>b", "a@1>b", "a@2>b"}),
    ("faceUp", {"a@1>b", "a@2>b"}),
    ("topOnly", {"a@2>b"}),
    ("locked", set()),
])
def test_gates(gate, expected):
    g = game(two({"allowFaceDown": True}, eject=gate))
    s = board(g, {"a": ["~2S", "3H", "4C"]})
    assert moves(g, s) == expected


def test_unit_single_leaves_the_cards_above():
    g = game(two(eject={"gate": "Any", "unit": "Single"}))
    s = board(g, {"a": ["2S", "3H", "4C"]})
    out = g.apply(s, mv(g, "a", 1, "b"))
    assert pile(g, out, "a") == ["2S", "4C"] and pile(g, out, "b") == ["3H"]


def test_loose_order_picks_only_the_selected_card():
    g = game([STOCK, {"name": "a", "type": "Reserve", "looseOrder": True, "acceptRule": "none"},
              {"name": "b", "type": "Tableau"}])
    out = g.apply(board(g, {"a": ["2S", "3H", "4C"]}), mv(g, "a", 0, "b"))
    assert pile(g, out, "a") == ["3H", "4C"] and pile(g, out, "b") == ["2S"]


def test_default_unit_checks_each_card_and_declared_unit_vouches():
    rule = {"build": {"direction": "Down"}, "suit": "AlternateColor"}
    g = game(two(rule))
    s = board(g, {"a": ["5H", "9C", "8H"], "b": ["10D"]})
    assert moves(g, s) == {"a@1>b"}  # 9C on 10D, then 8H on 9C
    g2 = game(two(rule, eject={"unit": "any"}))
    s2 = board(g2, {"a": ["5H", "9S", "3H"], "b": ["10D"]})
    assert "a@1>b" in moves(g2, s2)  # Any vouches: only 9S is compared with 10D
    g3 = game(two(rule))
    s3 = board(g3, {"a": ["5H", "9S", "3H"], "b": ["10D"]})
    assert "a@1>b" not in moves(g3, s3)


def test_default_unit_group_passes_card_by_card():
    g = game(two({"build": {"direction": "Down"}, "suit": "AlternateColor"}))
    s = board(g, {"a": ["5H", "9C", "8H"], "b": ["10H"]})
    assert moves(g, s) == {"a@1>b"}


def test_unit_run_with_its_own_build_and_suit():
    g = game(two(eject={"gate": "FaceUp", "unit": {"kind": "Run", "build": {"direction": "Down"},
                                                   "suit": "Same"}}))
    s = board(g, {"a": ["~KS", "9S", "8H", "7H", "6H"]})
    assert moves(g, s) == {"a@2>b", "a@3>b", "a@4>b"}


def test_unit_pile_moves_everything_listed_once():
    g = game(two(eject={"gate": "TopOnly", "unit": "pile"}))
    s = board(g, {"a": ["2S", "3H", "4C"]})
    assert moves(g, s) == {"a@2>b"}
    out = g.apply(s, mv(g, "a", 2, "b"))
    assert pile(g, out, "b") == ["2S", "3H", "4C"] and pile(g, out, "a") == []
    assert g.illegal_reason(s, mv(g, "a", 0, "b")) is not None


def test_uncovered_by_and_any_and_auto_flip_uncovered():
    base = [STOCK, {"name": "x", "type": "Tableau", "acceptRule": "none"},
            {"name": "y", "type": "Tableau", "acceptRule": "none"},
            {"name": "b", "type": "Foundation"}]
    g = game(base + [{"name": "p", "type": "Tableau", "uncoveredBy": ["x", "y"], "acceptRule": "none",
                      "autoFlipUncovered": True}])
    s = board(g, {"x": ["2C"], "y": ["3C"], "p": ["~AS"]})
    assert not any(m.startswith("p@") for m in moves(g, s))
    s = g.apply(s, mv(g, "x", 0, "b"))
    assert pile(g, s, "p") == ["~AS"]
    s = g.apply(s, mv(g, "y", 0, "b"))
    assert pile(g, s, "p") == ["AS"] and "p@0>b" in moves(g, s)
    g2 = game(base + [{"name": "p", "type": "Tableau", "uncoveredBy": ["x", "y"],
                       "uncoveredByAny": True, "acceptRule": "none"}])
    s2 = board(g2, {"x": ["2C"], "y": ["3C"], "p": ["AS"]})
    assert "p@0>b" not in moves(g2, s2)
    assert "p@0>b" in moves(g2, g2.apply(s2, mv(g2, "x", 0, "b")))


# -- landing: acceptRule ------------------------------------------------------------------------------
def accepts(rule, src, dst=(), **kw) -> bool:
    g = game(two(rule, **kw))
    s = board(g, {"a": list(src), "b": list(dst)})
    return any(m.startswith("a@0>b") for m in moves(g, s))


def test_accept_none_any_and_empty_only():
    assert not accepts("none", ["AS"])
    assert not accepts({"rejectsAll": True}, ["AS"])
    assert accepts("any", ["AS"], ["KD"])
    assert accepts("emptyOnly", ["AS"]) and not accepts("emptyOnly", ["AS"], ["KD"])


def test_accept_single_and_min_count():
    assert not accepts({"single": True}, ["AS", "2S"])
    assert accepts({"single": True}, ["AS"])
    assert not accepts({"minCount": 3}, ["AS", "2S"])
    assert accepts({"minCount": 3}, ["AS", "2S", "3S"])


def test_accept_from():
    g = game(two({"acceptFrom": ["c"]}) + [{"name": "c", "type": "Reserve", "acceptRule": "none"}])
    s = board(g, {"a": ["AS"], "c": ["2S"]})
    assert moves(g, s) == {"c@0>b"}
    assert "takes no cards from a" in g.illegal_reason(s, mv(g, "a", 0, "b"))


def test_seed_and_seed_none():
    assert accepts({"seed": "King"}, ["KH"]) and not accepts({"seed": "King"}, ["QH"])
    assert not accepts({"seedNone": True}, ["KH"])
    assert accepts({"seedNone": True}, ["KH"], ["2C"])


def test_seed_from_deal_seeds_every_such_depot():
    rule = {"seedFromDeal": True, "build": {"direction": "Up", "wrap": True}, "suit": "Same"}
    g = game([STOCK, {"name": "f", "type": "Foundation", "repeat": 2, "acceptRule": rule,
                      "ejectRule": "locked"},
              {"name": "t", "type": "Tableau", "acceptRule": "none"}],
             decks=[{"ranks": ["7", "8"], "suits": ["Spades", "Hearts"]}],
             dealRules=[{"kind": "place", "rank": "7", "suit": "S", "to": "f-1"}])
    s = g.deal(0)
    assert s.seed_rank == 7
    s = board(g, {"f-1": ["7S"], "t": ["7H", "8S"]}, seed_rank=7)
    assert moves(g, s) == {"t@1>f-1"}
    s = board(g, {"f-1": ["7S"], "t": ["8S", "7H"]}, seed_rank=7)
    assert moves(g, s) == {"t@1>f-2"}
    s = board(g, {"t": ["8S", "7H"]}, seed_rank=0)
    assert moves(g, s) == set()  # no face-up seed: empty foundations refuse


def test_rank_is_checks_every_card():
    assert accepts({"rankIs": "Queen"}, ["QH"], ["2C"])
    assert not accepts({"rankIs": "Queen"}, ["QH", "KH"])
    assert not accepts({"rankIs": "Queen"}, ["QH", "KH"], eject={"unit": "any"})
    assert accepts({"rankIs": "Queen"}, ["QH", "QS"], eject={"unit": "any"})


@pytest.mark.parametrize("build,below,card,ok", [
    ({"direction": "Up"}, "5S", "6S", True), ({"direction": "Up"}, "5S", "4S", False),
    ({"direction": "Down"}, "5S", "4S", True), ({"direction": "Either"}, "5S", "4S", True),
    ({"direction": "Either"}, "5S", "6S", True), ({"direction": "Up", "step": 2}, "5S", "7S", True),
    ({"direction": "Up", "step": 0}, "5S", "5H", True), ({"direction": "Up", "step": 0}, "5S", "6H", False),
    ({"direction": "Up"}, "KS", "AS", False), ({"direction": "Up", "wrap": True}, "KS", "AS", True),
    ({"direction": "Down", "wrap": True}, "AS", "KS", True), ({"direction": "Down", "step": 12}, "KS", "AS", True),
])
def test_build(build, below, card, ok):
    assert accepts({"build": build}, [card], [below]) == ok


@pytest.mark.parametrize("suit,below,card,ok", [
    ("Same", "5S", "6S", True), ("Same", "5S", "6C", False),
    ("AlternateColor", "5S", "6H", True), ("AlternateColor", "5S", "6C", False),
    ("SameColor", "5S", "6C", True), ("SameColor", "5S", "6D", False), ("Any", "5S", "6D", True),
])
def test_suit(suit, below, card, ok):
    assert accepts({"suit": suit}, [card], [below]) == ok


def test_follow_rank_or_suit_and_not_while_empty():
    assert accepts({"follow": True}, ["5H"], ["5S"]) and accepts({"follow": True}, ["9S"], ["5S"])
    assert not accepts({"follow": True}, ["9H"], ["5S"])
    assert accepts({"follow": True}, ["9H"])


def test_wild_rank_and_wild_joker():
    rule = {"build": {"direction": "Down"}, "suit": "Same", "wildRank": "Eight"}
    assert accepts(rule, ["8H"], ["KS"]) and not accepts(rule, ["9H"], ["KS"])
    joker_deck = [{"jokers": 2}]
    g = game(two({"build": {"direction": "Down"}, "wildJoker": True}), decks=joker_deck)
    s = board(g, {"a": ["JK"], "b": ["KS"]})
    assert moves(g, s) == {"a@0>b"}
    g = game(two({"build": {"direction": "Down"}}), decks=joker_deck)
    assert moves(g, board(g, {"a": ["JK"], "b": ["KS"]})) == set()


@pytest.mark.parametrize("declares,card,ok", [
    ("none", "9S", False), ("none", "QS", False),  # a joker as printed: nothing follows it
    ("free", "3D", True),
    ("transparent", "JS", True), ("transparent", "JH", False),  # the joker reads as QS
])
def test_wild_declares_after_a_joker(declares, card, ok):
    g = game(two({"build": {"direction": "Down"}, "suit": "Same", "wildJoker": True,
                  "wildDeclares": declares}), decks=[{"jokers": 1}])
    s = board(g, {"a": [card], "b": ["KS", "JK"]})
    assert (moves(g, s) == {"a@0>b"}) == ok


def test_wild_declares_suit_lists_a_move_per_called_suit():
    g = game(two({"follow": True, "wildRank": "Eight", "wildDeclares": "suit"}))
    s = board(g, {"a": ["8C"], "b": ["5H"]})
    assert moves(g, s) == {f"a@0>b={suit}" for suit in "CDHS"}
    assert "call a suit" in g.illegal_reason(s, mv(g, "a", 0, "b"))
    after = g.apply(s, mv(g, "a", 0, "b", declare=2))
    assert after.declared[g.depot_index["b"]] == 2
    g_src = board(g, {"a": ["2H"], "b": ["5H", "8C"]}, declared=(-1, -1, 2))
    assert moves(g, g_src) == {"a@0>b"}
    g_src = board(g, {"a": ["2S"], "b": ["5H", "8C"]}, declared=(-1, -1, 2))
    assert moves(g, g_src) == set()


def test_allow_face_down_skips_identity_checks():
    assert not accepts({"seed": "King"}, ["~2S"])
    assert accepts({"seed": "King", "allowFaceDown": True}, ["~2S"])


def test_when_and_reason():
    rule = {"when": "card.rank > top.rank || empty(depot)", "reason": "Climb higher"}
    g = game(two(rule))
    s = board(g, {"a": ["3H"], "b": ["4C"]})
    assert moves(g, s) == set()
    assert g.illegal_reason(s, mv(g, "a", 0, "b")) == "Climb higher"
    s = board(g, {"a": ["5H"], "b": ["4C"]})
    assert moves(g, s) == {"a@0>b"}


def test_staged_compound_moves_limit():
    cols = {"name": "col", "type": "Tableau", "repeat": 4, "ejectRule": "faceUp",
            "acceptRule": {"build": {"direction": "Down"}, "suit": "AlternateColor"}}
    g = game([STOCK, cols, {"name": "cell", "type": "Cell", "repeat": 2,
                            "acceptRule": {"emptyOnly": True, "single": True}}],
             compoundMoves="Staged")
    run = ["9S", "8H", "7S", "6H", "5S"]
    s = board(g, {"col-1": run, "col-2": ["10H"], "col-3": ["KS"], "col-4": ["KH"],
                  "cell-1": ["2C"], "cell-2": ["3C"]})
    assert g.staged_limit(s.piles, g.depot_index["col-2"]) == 1
    assert "col-1@0>col-2" not in moves(g, s) and "col-1@4>col-2" not in moves(g, s)
    s = board(g, {"col-1": run, "col-2": ["10H"], "col-3": ["KS"], "col-4": []})
    # (1 + 2 cells) * 2^1 = 6 >= 5
    assert "col-1@0>col-2" in moves(g, s)
    s = board(g, {"col-1": run, "col-2": ["10H"], "col-3": ["KS"], "col-4": [], "cell-1": ["2C"]})
    assert "col-1@0>col-2" not in moves(g, s) and "col-1@1>col-2" not in moves(g, s)
    # onto the empty column itself: it does not count
    assert g.staged_limit(s.piles, g.depot_index["col-4"]) == 2


def test_staged_moves_park_only_on_empty_depots_that_take_any_card():
    kings = {"name": "col", "type": "Tableau", "repeat": 5, "ejectRule": "faceUp",
             "acceptRule": {"seed": "King", "build": {"direction": "Down"}}}
    picky = {"name": "cell", "type": "Cell", "repeat": 2,
             "acceptRule": {"emptyOnly": True, "single": True, "when": "card.value < 5"}}
    free = {"name": "spare", "type": "Cell", "acceptRule": {"emptyOnly": True, "single": True}}
    g = game([STOCK, kings, picky, free], compoundMoves="Staged")
    run = ["9S", "8S", "7S"]
    s = board(g, {"col-1": run, "col-2": ["10H"], "col-3": ["9H"], "col-4": [], "col-5": []})
    # Seahaven Towers: an empty column that takes only Kings cannot hold the middle of the run,
    # nor can a cell that judges what it takes; only the spare cell counts: (1 + 1) * 2^0
    assert g.staged_limit(s.piles, g.depot_index["col-2"]) == 2
    assert "col-1@1>col-3" in moves(g, s) and "col-1@0>col-2" not in moves(g, s)
    assert g.illegal_reason(s, mv(g, "col-1", 0, "col-2")) == "only 2 cards can move at once now"


def test_no_move_onto_its_own_depot():
    g = game(two("any"))
    s = board(g, {"a": ["AS"], "b": ["2S"]})
    assert all(m.src != m.dst for m in g.legal_moves(s))
    assert g.illegal_reason(s, mv(g, "a", 0, "a")) is not None


# -- taps ----------------------------------------------------------------------------------------
def draw_game(**draw):
    return game([{"name": "stock", "type": "Stock", "draw": {"to": "waste", **draw},
                  "ejectRule": "locked"},
                 {"name": "waste", "type": "Waste", "acceptRule": "none", "ejectRule": "topOnly"}])


def test_draw_count_short_stock_and_recycle_reversed_face_down():
    g = draw_game(count=3, recycle=True)
    s = board(g, {"stock": ["~AS", "~2S", "~3S", "~4S"]})
    s = g.apply(s, tap(g, "stock"))
    assert pile(g, s, "waste") == ["4S", "3S", "2S"] and s.moves == 1
    s = g.apply(s, tap(g, "stock"))
    assert pile(g, s, "waste") == ["4S", "3S", "2S", "AS"] and pile(g, s, "stock") == []
    s = g.apply(s, tap(g, "stock"))
    assert pile(g, s, "stock") == ["~AS", "~2S", "~3S", "~4S"] and s.recycles[0] == 1
    assert s.recycles_total == 1


def test_max_recycles_and_no_recycle():
    g = draw_game(recycle=True, maxRecycles=1)
    s = board(g, {"waste": ["AS"]}, recycles=(1, 0))
    assert moves(g, s) == set()
    assert moves(g, board(g, {"waste": ["AS"]})) == {"tap stock"}
    g = draw_game()
    assert moves(g, board(g, {"waste": ["AS"]})) == set()


def test_draw_when():
    g = draw_game(when="empty(waste)")
    assert moves(g, board(g, {"stock": ["~AS"], "waste": ["2S"]})) == set()
    assert moves(g, board(g, {"stock": ["~AS"]})) == {"tap stock"}


def test_actions_first_whose_when_holds_and_draw_first():
    g = game([{"name": "stock", "type": "Stock", "draw": {"to": "waste"}, "ejectRule": "locked",
               "actions": [{"name": "one", "when": "count(waste) > 5", "do": [{"kind": "flipTop", "depot": "@self"}]},
                           {"name": "two", "do": [{"kind": "move", "from": "waste", "to": "@self"}]}]},
              {"name": "waste", "type": "Waste", "acceptRule": "none", "ejectRule": "locked"}])
    s = g.apply(board(g, {"stock": ["~AS"], "waste": ["2S"]}), tap(g, "stock"))
    assert pile(g, s, "waste") == ["2S", "AS"]  # the draw comes first
    s = g.apply(s, tap(g, "stock"))  # empty stock: the action "two" moves the waste top back
    assert pile(g, s, "stock") == ["AS"] and pile(g, s, "waste") == ["2S"]


def test_tap_listed_only_when_it_does_something():
    g = game([{"name": "loop", "type": "Reserve", "acceptRule": "none", "ejectRule": "locked",
               "actions": [{"name": "look", "do": [{"kind": "flipTop", "depot": "@self"}]}]}],
             decks=[{"to": "loop"}])
    assert moves(g, board(g, {"loop": ["~AS"]})) == {"tap loop"}
    assert moves(g, board(g, {"loop": ["AS"]})) == set()
    with pytest.raises(IllegalMove, match="does nothing"):
        g.apply(board(g, {"loop": ["AS"]}), tap(g, "loop"))


def redeal_game(**top):
    return game([STOCK, {"name": "col", "type": "Tableau", "repeat": 2}],
                redealRules=[{"kind": "dealGroup", "to": "col", "faceUp": 1}], **top)


def test_redeal_by_tapping_its_stock_and_max_redeals():
    g = redeal_game(maxRedeals=1)
    s = board(g, {"stock": ["~AS", "~2S", "~3S"]})
    s = g.apply(s, tap(g, "stock"))
    assert pile(g, s, "col-1") == ["3S"] and pile(g, s, "col-2") == ["2S"] and s.redeals == 1
    assert "tap stock" not in moves(g, s)


def test_max_redeals_is_shared_by_every_stock_a_redeal_deals_from():
    g = game([STOCK, {"name": "stock2", "type": "Stock", "acceptRule": "none", "ejectRule": "locked"},
              {"name": "col", "type": "Tableau", "repeat": 2}],
             redealRules=[{"kind": "dealGroup", "to": ["col-1"], "faceUp": 1},
                          {"kind": "dealGroup", "to": ["col-2"], "from": "stock2", "faceUp": 1}],
             maxRedeals=1)
    s = board(g, {"stock": ["~AS", "~2S"], "stock2": ["~3S", "~4S"]})
    assert {"tap stock", "tap stock2"} <= moves(g, s)
    s = g.apply(s, tap(g, "stock2"))
    assert pile(g, s, "col-1") == ["2S"] and pile(g, s, "col-2") == ["4S"]
    assert not {"tap stock", "tap stock2"} & moves(g, s)


def test_redeal_when():
    g = redeal_game(redealWhen={"kind": "depotsNonEmpty", "depots": ["col"]})
    s = board(g, {"stock": ["~AS", "~2S", "~3S"], "col-1": ["4S"]})
    assert "tap stock" not in moves(g, s)
    s = board(g, {"stock": ["~AS", "~2S", "~3S"], "col-1": ["4S"], "col-2": ["5S"]})
    assert "tap stock" in moves(g, s)


def test_gather_redeal_into_an_empty_stock_is_tapped_like_a_recycle():
    g = game([{"name": "stock", "type": "Stock", "draw": {"to": "waste"}, "ejectRule": "locked"},
              {"name": "waste", "type": "Waste", "acceptRule": "none", "ejectRule": "locked"}],
             redealRules=[{"kind": "gather", "from": ["waste"], "to": "stock"},
                          {"kind": "flipTop", "depot": "stock"}], maxRedeals=2)
    s = board(g, {"stock": ["~AS"], "waste": ["2S", "3S"]})
    s = g.apply(s, tap(g, "stock"))  # a draw while the stock has cards
    assert s.redeals == 0
    s = g.apply(s, tap(g, "stock"))
    assert pile(g, s, "stock") == ["~AS", "~3S", "2S"] and s.redeals == 1


# -- apply: landing, flips, automatic moves, triggers ---------------------------------------------
def test_land_face_and_land_under():
    g = game(two("any", landFace="Down", landUnder=True))
    s = g.apply(board(g, {"a": ["AS"], "b": ["2H"]}), mv(g, "a", 0, "b"))
    assert pile(g, s, "b") == ["~AS", "2H"]


def test_auto_flip_top_after_a_card_leaves():
    g = game([STOCK, {"name": "a", "type": "Tableau", "autoFlipTop": True, "ejectRule": "faceUp"},
              {"name": "b", "type": "Tableau"}])
    s = g.apply(board(g, {"a": ["~AS", "2H"]}), mv(g, "a", 1, "b"))
    assert pile(g, s, "a") == ["AS"]


def test_auto_send_largest_group_first_accepting_target():
    g = game([STOCK, {"name": "a", "type": "Tableau", "acceptRule": "any",
                      "ejectRule": {"gate": "FaceUp", "unit": {"kind": "Run", "build": {"direction": "Down"}}},
                      "autoSend": "Foundation"},
              {"name": "src", "type": "Reserve", "acceptRule": "none"},
              {"name": "f", "type": "Foundation", "repeat": 2,
               "acceptRule": {"emptyOnly": True, "minCount": 3}}])
    s = board(g, {"a": ["9S", "3H", "2H"], "src": ["AH"]})
    s = g.apply(s, mv(g, "src", 0, "a"))
    assert pile(g, s, "f-1") == ["3H", "2H", "AH"] and pile(g, s, "a") == ["9S"]


def test_auto_refill_while_empty():
    g = game([STOCK, {"name": "t", "type": "Tableau", "autoRefill": ["reserve"]},
              {"name": "reserve", "type": "Reserve", "acceptRule": "none", "ejectRule": "topOnly"},
              {"name": "f", "type": "Foundation"}])
    s = g.apply(board(g, {"t": ["KS"], "reserve": ["AS", "2S"]}), mv(g, "t", 0, "f"))
    assert pile(g, s, "t") == ["2S"] and pile(g, s, "reserve") == ["AS"]


def test_cascade_limit_at_and_past(monkeypatch):
    import cardz_core.engine.play as game_module
    import cardz_core.limits as limits

    # both engines read the limit when the game is compiled (the native one from its plan)
    monkeypatch.setattr(game_module, "MAX_CASCADE", 3)
    monkeypatch.setattr(limits, "MAX_CASCADE", 3)
    g = game([STOCK, {"name": "src", "type": "Reserve", "acceptRule": "none"},
              {"name": "x", "type": "Tableau", "acceptRule": "any", "ejectRule": "locked"},
              {"name": "y", "type": "Foundation", "acceptRule": "none", "ejectRule": "locked",
               "triggers": [{"when": "!empty(x)", "do": [{"kind": "move", "from": "x", "to": "@self"}]}]}])
    at = g.apply(board(g, {"src": ["AS"], "x": ["2S", "3S"]}), mv(g, "src", 0, "x"))
    assert pile(g, at, "y") == ["AS", "3S", "2S"]  # three trigger runs: at the limit
    # a fourth run would be past it: the cascade ends after the third, and the move stands
    past = g.apply(board(g, {"src": ["AS"], "x": ["2S", "3S", "4S"]}), mv(g, "src", 0, "x"))
    assert pile(g, past, "y") == ["AS", "4S", "3S"] and pile(g, past, "x") == ["2S"]
    assert past.moves == 1 and past.status == PLAYING


def test_two_depots_refilling_each_other_stop_at_the_cascade_limit():
    """Issue 22, departure 5: the reference loops "until the cascade limit"; the move is legal
    and the board the cascade stops on is a position that plays on."""
    g = game([STOCK, {"name": "x", "type": "Tableau", "autoRefill": ["y"]},
              {"name": "y", "type": "Tableau", "autoRefill": ["x"]},
              {"name": "z", "type": "Tableau", "autoFlipTop": True}])
    start = board(g, {"z": ["~2S", "AS"]})
    move = mv(g, "z", 1, "x")
    assert move in g.legal_moves(start)
    after = g.apply(start, move)
    assert MAX_CASCADE % 2 == 0 and MAX_CASCADE >= 1000
    # an even number of refills brings the Ace back to x; z's new top was turned up
    assert pile(g, after, "x") == ["AS"] and pile(g, after, "y") == [] and pile(g, after, "z") == ["2S"]
    assert after.status == PLAYING
    again = g.legal_moves(after)  # the position plays on: the Ace may go back and loop again
    assert mv(g, "x", 0, "z") in again and g.apply(after, mv(g, "x", 0, "z")).moves == 2


def test_triggers_with_self_count_under_and_expression_depots():
    g = game([STOCK, {"name": "cell", "type": "Cell", "repeat": 3, "acceptRule": "any",
                      "triggers": [{"when": "count(depot) >= 2",
                                    "do": [{"kind": "move", "from": "@self", "count": "count(depot) - 1",
                                            "to": "neighbour(depot, 1)", "under": True}]}]}])
    s = g.apply(board(g, {"cell-1": ["AS"], "cell-2": ["2S"]}), mv(g, "cell-2", 0, "cell-1"))
    assert pile(g, s, "cell-1") == ["AS"] and pile(g, s, "cell-2") == ["2S"]


def test_compact_closes_gaps_and_refills_from():
    g = game([STOCK, {"name": "cell", "type": "Cell", "repeat": 3, "acceptRule": "any"},
              {"name": "bin", "type": "Foundation",
               "triggers": [{"when": "!empty(depot)",
                             "do": [{"kind": "compact", "group": "cell", "from": "stock"},
                                    {"kind": "move", "from": "@self", "to": "stock", "under": True}]}]}])
    s = board(g, {"stock": ["~9D"], "cell-1": ["AS"], "cell-2": ["2S"], "cell-3": ["3S"]})
    s = g.apply(s, mv(g, "cell-1", 0, "bin"))
    assert pile(g, s, "cell-1") == ["2S"] and pile(g, s, "cell-2") == ["3S"]
    assert pile(g, s, "cell-3") == ["9D"] and pile(g, s, "stock") == ["AS"]  # a move keeps faces


def test_every_face_up_turn_goes_through_reveal_on_views():
    g = game([STOCK, {"name": "a", "type": "Tableau", "autoFlipTop": True, "ejectRule": "faceUp"},
              {"name": "b", "type": "Tableau"}])
    s = board(g, {"a": ["AS", "2H"]})
    view = State(((), (-2, 3 << 1 | 1), ()), (-1,) * 3, (0,) * 3, declared=(-1,) * 3)
    asked = []
    out = g.apply(view, Move(1, 1, 2), reveal=lambda pool: asked.append(pool) or 7)
    assert asked == [0] and out.piles[1] == (7 << 1 | 1,)
    with pytest.raises(CardzError, match="reveal"):
        g.apply(view, Move(1, 1, 2))
    assert s.piles  # the real board needs no reveal
    assert g.legal_moves(view) == g.legal_moves(board(g, {"a": ["~AS", "4S"]}))


def test_came_from_and_counters():
    g = game(two("any"))
    s = g.apply(board(g, {"a": ["AS"]}), mv(g, "a", 0, "b"))
    assert s.came_from[g.depot_index["b"]] == g.depot_index["a"] and s.moves == 1


def test_rules_off_frees_every_depot_and_voids_the_score():
    g = game(two("none", eject="locked"), winCondition={"kind": "depotsEmpty", "depots": ["a"]},
             scoring={"value": "count(b)"})
    s = board(g, {"a": ["AS"], "b": ["2S"]})
    assert moves(g, s) == set()
    off = g.set_rules(s, False)
    assert moves(g, off) == {"a@0>stock", "a@0>b", "b@0>stock", "b@0>a"}
    played = g.apply(off, mv(g, "a", 0, "b"))
    assert played.status == PLAYING and g.score(played) is None
    on = g.set_rules(played, True)
    assert on.status == WON and g.score(on) is None and g.score_value(on) == 2


# -- ends, scores, aids, undo ----------------------------------------------------------------------
def end_game(win=None, loss=None, **top):
    depots = [STOCK, {"name": "t", "type": "Tableau", "acceptRule": "none", "ejectRule": "topOnly"},
              {"name": "f", "type": "Foundation"}]
    extra = {}
    if win:
        extra["winCondition"] = win
    if loss:
        extra["lossCondition"] = loss
    return game(depots, depotOnly=True, **extra, **top)


@pytest.mark.parametrize("cond,piles,status", [
    ({"kind": "allCardsIn", "depots": "Foundation"}, {"f": ["AS", "2S"]}, WON),
    ({"kind": "allCardsIn", "depots": "Foundation"}, {"f": ["AS"], "t": ["2S"]}, PLAYING),
    ({"kind": "allCardsFaceUp"}, {"t": ["AS", "2S"]}, WON),
    ({"kind": "allCardsFaceUp"}, {"t": ["~AS", "2S"]}, PLAYING),
    ({"kind": "depotsEmpty", "depots": ["t"]}, {"f": ["AS"]}, WON),
    ({"kind": "depotsNonEmpty", "depots": ["t", "f"]}, {"f": ["AS"], "t": ["2S"]}, WON),
    ({"kind": "allOf", "of": [{"kind": "allCardsFaceUp"}, {"kind": "depotsEmpty", "depots": ["t"]}]},
     {"f": ["AS"]}, WON),
    ({"kind": "anyOf", "of": [{"kind": "depotsEmpty", "depots": ["f"]},
                              {"kind": "depotsEmpty", "depots": ["t"]}]}, {"f": ["AS"], "t": ["2S"]}, PLAYING),
    ({"kind": "expr", "when": "count(f) == 1"}, {"f": ["AS"]}, WON),
])
def test_win_conditions(cond, piles, status):
    g = end_game(win=cond, decks=[{"ranks": ["A", "2"], "suits": ["Spades"]}])
    s = board(g, piles)
    assert g._judge(s) == status


def test_status_checked_after_each_move_and_no_moves_after_the_end():
    g = end_game(win={"kind": "allCardsIn", "depots": "Foundation"}, decks=[{"ranks": ["A"], "suits": ["Spades"]}])
    s = g.apply(board(g, {"t": ["AS"]}), mv(g, "t", 0, "f"))
    assert s.status == WON and g.legal_moves(s) == []
    assert g.illegal_reason(s, mv(g, "f", 0, "t")) == "the game is over"


def test_no_legal_moves_loss_and_the_land_under_rule():
    g = game([STOCK, {"name": "h", "type": "Tableau", "repeat": 2, "landUnder": True,
                      "ejectRule": "topOnly", "autoFlipTop": True}],
             depotOnly=True, lossCondition={"kind": "noLegalMoves"})
    revealing = board(g, {"h-1": ["~AS", "2S"], "h-2": ["3S"]})
    assert g.loss(revealing) is False  # h-1's top leaving turns AS up
    cycling = board(g, {"h-1": ["AS", "2S"], "h-2": ["3S"]})
    assert g.loss(cycling) is True
    assert g._judge(cycling) == LOST
    s = board(g, {"h-1": ["AS", "2S", "4S"], "h-2": ["3S"]})
    lost = g.apply(s, mv(g, "h-1", 2, "h-2"))
    assert lost.status == LOST and g.legal_moves(lost) == []
    with pytest.raises(IllegalMove, match="over"):  # though the cycling move was seen by the check
        g.apply(lost, mv(g, "h-1", 1, "h-2"))


def test_scoring_value_better_keep_and_facts():
    g = end_game(win={"kind": "depotsEmpty", "depots": ["t"]},
                 loss={"kind": "expr", "when": "count(f) == 0 && count(t) == 0"},
                 scoring={"value": "100 - moves + 10 * count(f) - undos"})
    s = board(g, {"t": ["AS", "2S"]})
    assert g.score(s) == 100
    s = g.apply(s, mv(g, "t", 1, "f"))
    assert g.score(s) == 109
    lost = board(g, {}, status=LOST)
    assert g.score(lost) is None
    g2 = end_game(win={"kind": "depotsEmpty", "depots": ["t"]}, scoring={"value": "7", "keep": "Over"})
    assert g2.score(board(g2, {}, status=LOST)) == 7
    g3 = end_game(scoring={"value": "7"})
    assert g3.score(board(g3, {})) is None  # no winCondition: no score is kept


def test_values_and_pair_sum_aid():
    g = game([STOCK], values={"J": 10, "Q": 10, "K": 10}, aids={"pairSum": 13})
    by_name = {str(card): cid for cid, card in enumerate(g.identity)}
    assert g.card_value[by_name["KS"]] == 10
    assert g.aid("pairSum", by_name["10H"]) == 3
    assert g.aid("pairSum", by_name["3H"]) is None  # 10, J, Q and K all make 13 with it
    g = game([STOCK], aids={"pairSum": 13})
    by_name = {str(card): cid for cid, card in enumerate(g.identity)}
    assert g.aid("pairSum", by_name["10H"]) == 3
    assert g.aid("pairSum", by_name["KH"]) is None
    assert g.aid("pairSum", by_name["6C"]) == 7


def test_undo_restores_before_and_counts():
    g = draw_game()
    before = board(g, {"stock": ["~AS"]})
    after = g.apply(before, tap(g, "stock"))
    back = g.undo(before, after)
    assert back.piles == before.piles and back.moves == 1 and back.undos == 1


def test_illegal_move_says_why():
    g = game(two({"seed": "King"}))
    s = board(g, {"a": ["QS"]})
    with pytest.raises(IllegalMove, match="must start with King"):
        g.apply(s, mv(g, "a", 0, "b"))
