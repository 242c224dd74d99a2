"""Whole games: each example game of the format reference and Klondike draw 3 played on
hand-made boards, and property tests over random play on every bundled rule set."""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest

from cardz_core.cards import unknown_code
from cardz_core.engine import LOST, PLAYING, WON, IllegalMove, Move, compile
from cardz_core.spec import load_game
from conftest import board, move_texts, mv, pile, tap

RULESETS = sorted((Path(__file__).resolve().parent.parent / "rulesets").glob("*.cardz"))

# The four example games of the format reference, as written there (descriptions left out).
POCKET_PATIENCE = """
{
  "name": "Pocket Patience",
  "depotOnly": true,
  "rules": {"foundation": {"seed": "Ace", "build": {"direction": "Up", "step": 1}, "suit": "Same"}, "column": {"seed": "King", "build": {"direction": "Down", "step": 1}, "suit": "AlternateColor"}},
  "depots": [
    {"name": "stock", "type": "Stock", "col": 0, "row": 0, "draw": {"to": "waste", "count": 1, "recycle": true}, "landFace": "Down", "ejectRule": "locked"},
    {"name": "waste", "type": "Waste", "col": 1, "row": 0, "acceptRule": "none", "ejectRule": "topOnly"},
    {"name": "foundation", "type": "Foundation", "col": 3, "row": 0, "repeat": 4, "acceptRule": "$foundation", "ejectRule": "locked"},
    {"name": "column", "type": "Tableau", "col": 0, "row": 1, "repeat": 4, "autoFlipTop": true, "acceptRule": "$column", "ejectRule": "faceUp"}
  ],
  "dealRules": [
    {"kind": "dealGroup", "to": "column", "faceDown": 2, "faceUp": 1}
  ],
  "winCondition": {"kind": "allCardsIn", "depots": "Foundation"}
}
"""

CLIMB_TO_TEN = """
{
  "name": "Climb to Ten",
  "depotOnly": true,
  "decks": [
    {"ranks": ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"]}
  ],
  "depots": [
    {"name": "stock", "type": "Stock", "col": 0, "row": 0, "draw": {"to": "hand", "count": 3, "when": "empty(hand)"}, "landFace": "Down", "acceptRule": "none", "ejectRule": "locked"},
    {"name": "hand", "type": "Waste", "col": 1, "row": 0, "fanDirection": "Right", "looseOrder": true, "acceptRule": "none", "ejectRule": {"gate": "Any", "unit": "Single"}},
    {"name": "tower", "type": "Foundation", "col": 0, "row": 1, "repeat": 3, "acceptRule": {"single": true, "acceptFrom": ["hand"], "when": "empty(depot) || card.value > top.value || card.value + top.value == 10", "reason": "Climb higher, or make ten with the top card"}, "ejectRule": "locked"},
    {"name": "discard", "type": "Reserve", "col": 4, "row": 0, "fanDirection": "Down", "acceptRule": {"single": true, "acceptFrom": ["hand"]}, "ejectRule": "locked"}
  ],
  "winCondition": {"kind": "expr", "when": "empty(stock) && empty(hand) && count(discard) < 5"},
  "lossCondition": {"kind": "expr", "when": "count(discard) >= 5"}
}
"""

ROUND_THE_LOOP = """
{
  "name": "Round the Loop",
  "depotOnly": true,
  "decks": [
    {"ranks": ["Ace", "Two", "Three", "Four", "Five"], "to": "loop"}
  ],
  "depots": [
    {"name": "loop", "type": "Reserve", "col": 0, "row": 0, "acceptRule": "none", "ejectRule": "locked", "actions": [{"name": "look", "when": "!empty(depot) && !top(depot).faceUp", "do": [{"kind": "flipTop", "depot": "@self"}]}, {"name": "travel", "when": "!empty(depot) && top(depot).faceUp", "do": [{"kind": "move", "from": "@self", "to": "@self", "count": "top(depot).value", "under": true}]}], "triggers": [{"when": "!empty(depot) && top(depot).faceUp && top(depot).rank == Ace", "do": [{"kind": "move", "from": "@self", "to": "aces"}]}]},
    {"name": "aces", "type": "Foundation", "col": 2, "row": 0, "acceptRule": "none", "ejectRule": "locked"}
  ],
  "winCondition": {"kind": "expr", "when": "count(aces) == 4"}
}
"""

UNDER_TWENTY_ONE = """
{
  "name": "Under Twenty-One",
  "depotOnly": true,
  "depots": [
    {"name": "stock", "type": "Stock", "col": 0, "row": 0, "draw": {"to": "hand", "count": 1, "when": "empty(hand)"}, "landFace": "Down", "acceptRule": "none", "ejectRule": "locked"},
    {"name": "hand", "type": "Waste", "col": 1, "row": 0, "acceptRule": "none", "ejectRule": {"gate": "Any", "unit": "Single"}},
    {"name": "column", "type": "Tableau", "col": 0, "row": 1, "repeat": 3, "acceptRule": {"single": true, "acceptFrom": ["hand"], "when": "sum(depot) + card.value <= 21", "reason": "A column holds 21 at most"}, "ejectRule": "locked"},
    {"name": "discard", "type": "Reserve", "col": 4, "row": 0, "fanDirection": "Down", "acceptRule": {"single": true, "acceptFrom": ["hand"]}, "ejectRule": "locked"}
  ],
  "values": {"J": 10, "Q": 10, "K": 10},
  "winCondition": {"kind": "expr", "when": "empty(stock) && empty(hand)"},
  "scoring": {"value": "sum(column)"}
}
"""

KLONDIKE_DRAW3 = {
    "name": "Klondike draw 3",
    "depotOnly": True,
    "rules": {
        "foundation": {"seed": "Ace", "build": {"direction": "Up"}, "suit": "Same", "single": True},
        "column": {"seed": "King", "build": {"direction": "Down"}, "suit": "AlternateColor"},
    },
    "depots": [
        {"name": "stock", "type": "Stock", "draw": {"to": "waste", "count": 3, "recycle": True},
         "landFace": "Down", "acceptRule": "none", "ejectRule": "locked"},
        {"name": "waste", "type": "Waste", "acceptRule": "none", "ejectRule": "topOnly"},
        {"name": "foundation", "type": "Foundation", "repeat": 4, "acceptRule": "$foundation",
         "ejectRule": "topOnly"},
        {"name": "column", "type": "Tableau", "repeat": 7, "autoFlipTop": True,
         "acceptRule": "$column", "ejectRule": "faceUp"},
    ],
    "dealRules": [{"kind": "dealGroup", "to": f"column-{i}", "faceDown": i - 1, "faceUp": 1}
                  for i in range(1, 8)],
    "winCondition": {"kind": "allCardsIn", "depots": "Foundation"},
}


def load(source) -> object:
    return compile(load_game(source))


# -- Pocket Patience -----------------------------------------------------------------------------
def test_pocket_patience_deal():
    g = load(POCKET_PATIENCE)
    s = g.deal(11)
    for k in range(1, 5):
        assert [c & 1 for c in s.piles[g.depot_index[f"column-{k}"]]] == [0, 0, 1]
    assert len(s.piles[0]) == 40 and s.status == PLAYING


def test_pocket_patience_play():
    g = load(POCKET_PATIENCE)
    s = board(g, {"stock": ["~5C", "~AH"], "waste": ["QD"], "column-1": ["~2S", "KS"],
                  "column-2": ["~3D", "AS"], "column-3": [], "column-4": ["~4H", "QH"]})
    assert move_texts(g, g.legal_moves(s)) == {
        "column-1@1>column-3", "column-2@1>foundation-1", "column-2@1>foundation-2",
        "column-2@1>foundation-3", "column-2@1>foundation-4", "waste@0>column-1",
        "column-4@1>column-1", "tap stock"}
    s = g.apply(s, mv(g, "column-2", 1, "foundation-1"))
    assert pile(g, s, "column-2") == ["3D"]  # autoFlipTop
    s = g.apply(s, mv(g, "waste", 0, "column-1"))
    s = g.apply(s, tap(g, "stock"))
    assert pile(g, s, "waste") == ["AH"] and pile(g, s, "stock") == ["~5C"]
    s = g.apply(s, tap(g, "stock"))
    s = g.apply(s, tap(g, "stock"))  # recycle: the waste back, reversed and face-down
    assert pile(g, s, "stock") == ["~5C", "~AH"] and s.recycles[0] == 1
    with pytest.raises(IllegalMove):
        g.apply(s, mv(g, "column-4", 1, "column-3"))  # only a King fills an empty column


def test_pocket_patience_win():
    g = load(POCKET_PATIENCE)
    found = [[f"{r}{s}" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]]
             for s in "CDHS"]
    found[3] = found[3][:-1]
    s = board(g, {"foundation-1": found[0], "foundation-2": found[1], "foundation-3": found[2],
                  "foundation-4": found[3], "column-1": ["KS"]})
    s = g.apply(s, mv(g, "column-1", 0, "foundation-4"))
    assert s.status == WON and g.legal_moves(s) == []


# -- Round the Loop -------------------------------------------------------------------------------
def test_round_the_loop_deal_and_actions():
    g = load(ROUND_THE_LOOP)
    s = g.deal(4)
    assert len(s.piles[0]) == 20 and all(not c & 1 for c in s.piles[0])
    assert move_texts(g, g.legal_moves(s)) == {"tap loop"}
    s = board(g, {"loop": ["~AH", "~4S", "2C"]})
    s = g.apply(s, tap(g, "loop"))  # travel: the face-up 2 sends two cards under
    assert pile(g, s, "loop") == ["~4S", "2C", "~AH"]
    s = g.apply(s, tap(g, "loop"))  # look turns the Ace up; the trigger takes it
    assert pile(g, s, "loop") == ["~4S", "2C"] and pile(g, s, "aces") == ["AH"]
    assert s.moves == 2


def test_round_the_loop_win():
    g = load(ROUND_THE_LOOP)
    s = board(g, {"loop": ["~2C", "~AS"], "aces": ["AH", "AD", "AC"]})
    s = g.apply(s, tap(g, "loop"))
    assert s.status == WON


# -- Under Twenty-One ---------------------------------------------------------------------------
def test_under_twenty_one():
    g = load(UNDER_TWENTY_ONE)
    s = board(g, {"stock": ["~5C", "~KH"], "column-1": ["KS", "5H"], "column-2": ["2C"]})
    assert move_texts(g, g.legal_moves(s)) == {"tap stock"}
    s = g.apply(s, tap(g, "stock"))
    assert pile(g, s, "hand") == ["KH"]
    assert move_texts(g, g.legal_moves(s)) == {"hand@0>column-2", "hand@0>column-3", "hand@0>discard"}
    assert g.illegal_reason(s, mv(g, "hand", 0, "column-1")) == "A column holds 21 at most"
    s = g.apply(s, mv(g, "hand", 0, "column-2"))
    assert g.score_value(s) == 27
    s = g.apply(s, tap(g, "stock"))
    s = g.apply(s, mv(g, "hand", 0, "column-1"))
    assert s.status == WON and g.score(s) == 32


# -- Climb to Ten -------------------------------------------------------------------------------
def test_climb_to_ten():
    g = load(CLIMB_TO_TEN)
    s = g.deal(2)
    assert len(s.piles[0]) == 40
    s = g.apply(s, tap(g, "stock"))
    assert len(s.piles[1]) == 3 and all(c & 1 for c in s.piles[1])
    assert "tap stock" not in move_texts(g, g.legal_moves(s))  # play the hand out first
    s = board(g, {"stock": ["~2C"], "hand": ["6H", "3S"], "tower-1": ["7D"], "tower-2": ["4S"]})
    ok = move_texts(g, g.legal_moves(s))
    assert "hand@1>tower-1" in ok  # 3 + 7 makes ten
    assert "hand@0>tower-2" in ok and "hand@1>tower-2" not in ok  # climb higher
    s = board(g, {"stock": ["~2C"], "hand": ["6H"], "discard": ["AC", "AD", "AH", "AS"]})
    s = g.apply(s, mv(g, "hand", 0, "discard"))
    assert s.status == LOST


# -- Klondike draw 3 ------------------------------------------------------------------------------
def test_klondike_deal_and_draw_three():
    g = load(KLONDIKE_DRAW3)
    s = g.deal(5)
    for k in range(1, 8):
        col = s.piles[g.depot_index[f"column-{k}"]]
        assert len(col) == k and [c & 1 for c in col] == [0] * (k - 1) + [1]
    assert len(s.piles[0]) == 24
    stock = s.piles[0]
    s = g.apply(s, tap(g, "stock"))
    assert s.piles[1] == (stock[-1] | 1, stock[-2] | 1, stock[-3] | 1)


def test_klondike_moves_and_win():
    g = load(KLONDIKE_DRAW3)
    s = board(g, {"column-1": ["~3C", "8D", "7S", "6H"], "column-2": ["9C"], "waste": ["AS"]})
    assert move_texts(g, g.legal_moves(s)) >= {"column-1@1>column-2", "waste@0>foundation-1"}
    assert "column-1@2>column-2" not in move_texts(g, g.legal_moves(s))
    s = g.apply(s, mv(g, "column-1", 1, "column-2"))
    assert pile(g, s, "column-1") == ["3C"] and pile(g, s, "column-2") == ["9C", "8D", "7S", "6H"]
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    full = {f"foundation-{k + 1}": [r + suit for r in ranks] for k, suit in enumerate("CDHS")}
    full["foundation-4"] = full["foundation-4"][:-1]
    s = board(g, {**full, "waste": ["KS"]})
    assert g.apply(s, mv(g, "waste", 0, "foundation-4")).status == WON


# -- properties over random play ------------------------------------------------------------------
GAMES = [("pocket", POCKET_PATIENCE), ("loop", ROUND_THE_LOOP), ("u21", UNDER_TWENTY_ONE),
         ("climb", CLIMB_TO_TEN), ("klondike", json.dumps(KLONDIKE_DRAW3))] + \
    [(p.stem, p) for p in RULESETS]


def _random_play(g, seed: int, steps: int):
    rnd = random.Random(seed)
    s = g.deal(seed)
    all_cards = Counter(range(g.n_cards))
    yield s
    for _ in range(steps):
        moves = g.legal_moves(s)
        if not moves:
            return
        assert len(set(moves)) == len(moves)
        before = s
        s = g.apply(s, moves[rnd.randrange(len(moves))])
        assert Counter(c >> 1 for p in s.piles for c in p) == all_cards  # nothing lost or doubled
        back = g.undo(before, s)
        assert back.piles == before.piles and back.key()[6:] == before.key()[6:]
        assert (back.moves, back.undos) == (s.moves, s.undos + 1)
        yield s


@pytest.mark.parametrize("name,source", GAMES, ids=[n for n, _ in GAMES])
def test_random_play_properties(name, source):
    g = load(source)
    rnd = random.Random(9)
    for s in _random_play(g, 1, 40):
        moves = g.legal_moves(s)
        view = s.copy()  # the same board with every face-down card unknown
        view.piles = tuple(tuple(c if c & 1 else unknown_code(0) for c in p) for p in s.piles)
        assert g.legal_moves(view) == moves
        for m in rnd.sample(moves, min(len(moves), 4)):
            assert g.illegal_reason(s, m) is None, f"listed but illegal: {m}"
            g.apply(s, m)  # every listed move applies


@pytest.mark.parametrize("name,source", GAMES, ids=[n for n, _ in GAMES])
def test_listed_moves_are_exactly_the_legal_ones(name, source):
    g = load(source)
    for s in _random_play(g, 3, 25):
        if s.status != PLAYING:
            break
        # a Pile unit's pick at any position is the same move: the list names the lowest
        low = {src: g.ejects[src].picks(s.piles, s.piles[src])[:1] for src in range(g.n_depots)
               if g.ejects[src].unit == "Pile"}
        brute = {Move(src, low[src][0] if src in low else i, d)
                 for src in range(g.n_depots) for i in range(len(s.piles[src]))
                 for d in range(g.n_depots) if g.illegal_reason(s, Move(src, i, d)) is None}
        brute |= {Move(d, -1, -1) for d in range(g.n_depots)
                  if g.illegal_reason(s, Move(d, -1, -1)) is None}
        assert set(g.legal_moves(s)) == brute


@pytest.mark.long
@pytest.mark.skipif(not os.environ.get("CARDZ_LONG"), reason="long run: set CARDZ_LONG=1")
@pytest.mark.parametrize("name,source", GAMES, ids=[n for n, _ in GAMES])
def test_long_random_play(name, source):
    g = load(source)
    for seed in range(20):
        for _ in _random_play(g, seed, 500):
            pass


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_moves_from_some_depots_are_the_legal_moves_from_them(path: Path) -> None:
    game = compile(load_game(path, file=str(path)))
    rng = random.Random(11)
    state = game.deal(3)
    for _ in range(40):
        moves = game.legal_moves(state)
        picks = rng.sample(range(game.n_depots), k=min(2, game.n_depots))
        for depots in ((picks[0],), tuple(picks), tuple(range(game.n_depots))):
            assert game.moves_from(state, depots) == [m for m in moves if m.src in depots]
        if not moves:
            break
        state = game.apply(state, rng.choice(moves))
    assert game.moves_from(state.copy(), (0,)) == [m for m in game.legal_moves(state)
                                                    if m.src == 0]


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_move_is_available_exactly_when_one_is_listed(path: Path) -> None:
    """``move_available`` (what ``noLegalMoves`` asks after every move, cheapest first) says
    whether the listing has a move, on every position of a random game and on each position
    a listed move leads to."""
    game = compile(load_game(path, file=str(path)), engine="python")
    rng = random.Random(5)
    state = game.deal(4)
    for _ in range(40):
        moves = game.legal_moves(state)
        if not moves:
            break
        for move in rng.sample(moves, min(3, len(moves))):
            after = game.apply(state, move)
            if after.status == PLAYING:
                fresh = after.copy()  # a new object: nothing remembered about it
                assert game.move_available(fresh) == bool(game.legal_moves(fresh)), move
        state = game.apply(state, rng.choice(moves))


def test_a_redeals_trial_runs_once_a_position(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gaps' stock may redeal while a redeal is left: the trial run that says the redeal
    changes the board is made once for a position, by the loss check of the move that made it
    or by its listing, however often they ask."""
    gaps = next(p for p in RULESETS if p.stem == "gaps")
    game = compile(load_game(gaps), engine="python")
    trials: Counter[int] = Counter()
    held = []  # every state tried, kept so that no id is reused
    real = game._trial

    def counted(state, steps, d):
        held.append(state)
        trials[id(state)] += 1
        return real(state, steps, d)

    monkeypatch.setattr(game, "_trial", counted)
    rng = random.Random(2)
    state = game.deal(2)
    for _ in range(30):
        moves = game.legal_moves(state)
        assert game.legal_moves(state) == moves and game.tap_available(state) == (
            tap(game, "stock") in moves)
        if not moves:
            break
        state = game.apply(state, rng.choice(moves))
    assert trials and max(trials.values()) == 1
