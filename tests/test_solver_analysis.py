"""What the rule analysis allows: symmetry classes, sinks, safe moves, tap runs, and when not."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from test_solver_games import FREECELL, VARIANTS, board, make

from cardz_core.engine import Move
from cardz_core.solver.analysis import Analysis


def full(game, **piles):
    """A board with these piles and every other card face-down in the stock."""
    used = {c.lstrip("~") for cards in piles.values() for c in cards.split()}
    rest = [str(c.card) for c in game.spec.cards if str(c.card) not in used]
    return board(game, stock=" ".join("~" + c for c in rest), **piles)


def names(game, an):
    return [sorted(game.depot_names[i] for i in c) for c in an.classes]


def test_freecell_classes_and_swapped_piles_share_a_key():
    g = make(FREECELL)
    an = Analysis(g.spec)
    assert sorted(map(len, an.classes)) == [4, 4, 8]
    a = full(g, column_1="AS 2D", column_2="3C", cell_1="KH")
    b = full(g, column_1="3C", column_3="AS 2D", cell_4="KH")
    c = full(g, column_1="AS 2D", column_2="3C", column_3="KH")  # KH in a column, not a cell
    assert an.key(a) == an.key(b) != an.key(c)


def test_order_sensitive_or_expression_games_get_no_symmetry():
    doc = copy.deepcopy(FREECELL)
    doc["depots"][3]["autoSend"] = "Foundation"  # columns send to "the first" foundation
    an = Analysis(make(doc).spec)
    assert all(len(c) != 4 or "foundation" not in str(c) for c in names(make(doc), an))
    assert not any(i in c for c in an.classes for i in an.matches(make(doc).spec.win.args["depots"]))
    assert an.safe is None  # automatic moves switch safe moves off


def cell_classes(when):
    """The symmetry classes of FreeCell with the cells' accept rule given ``when``."""
    doc = copy.deepcopy(FREECELL)
    doc["depots"][1]["acceptRule"]["when"] = when
    g = make(doc)
    an = Analysis(g.spec)
    assert an.safe is None and an.tap is None  # expressions switch these off
    return names(g, an)


CELLS = ["cell-1", "cell-2", "cell-3", "cell-4"]


def test_an_expression_that_reads_only_its_own_depot_keeps_the_class():
    assert CELLS in cell_classes("empty(depot)")


def test_an_expression_that_tells_depots_apart_splits_or_ends_the_classes():
    # folded per copy (cell-2's rule differs) or a copy named: that copy leaves the class
    for when in ("index(depot) != 2", 'count(depot("cell-2")) == 0 || empty(depot)'):
        assert ["cell-1", "cell-3", "cell-4"] in cell_classes(when)
    # each copy names its neighbour: no cell is left interchangeable
    assert not any(c[0].startswith("cell") for c in cell_classes("empty(neighbour(depot, 1)) || empty(depot)"))
    # a place read at run time: no symmetry at all
    assert cell_classes("index(source) == 1 || empty(depot)") == []


def test_acceptfrom_naming_some_copies_splits_a_class():
    doc = copy.deepcopy(FREECELL)
    doc["depots"][2]["acceptRule"] = {**doc["depots"][2]["acceptRule"], "acceptFrom": ["column-1", "column-2", "cell"]}
    g = make(doc)
    classes = names(g, Analysis(g.spec))
    assert ["column-1", "column-2"] in classes
    assert ["column-3", "column-4", "column-5", "column-6", "column-7", "column-8"] in classes


def test_safe_moves_wait_for_the_cards_that_could_use_the_card():
    g = make(FREECELL)
    an = Analysis(g.spec)
    col = g.depot_index["column-1"]
    # 2H goes home once AC and AS (the black cards that could sit on it) are home.
    s = full(g, column_1="2H", column_2="AC", foundation_1="AH", foundation_2="AS")
    from_2h = [m for m in g.legal_moves(s) if m.src == col]
    assert Move(col, 0, g.depot_index["foundation-1"]) in from_2h
    assert an.safe.find(s, from_2h) is None  # AC, which could sit on 2H, is still in play
    s = full(g, column_1="2H", foundation_1="AH", foundation_2="AS", foundation_3="AC")
    assert an.safe.find(s, g.legal_moves(s)) == Move(col, 0, g.depot_index["foundation-1"])
    # An Ace onto an empty foundation is safe at once: nothing can be placed on an Ace.
    s = full(g, column_1="AD")
    assert an.safe.find(s, g.legal_moves(s)) is not None


def test_sinks_keep_size_and_top():
    g = make(VARIANTS["golf-like"])
    an = Analysis(g.spec)
    f = g.depot_index["foundation"]
    assert an.sinks == (f,)
    a = full(g, foundation="AS 2S 3H", column_1="2H", column_2="4S")
    b = full(g, foundation="2S AS 3H", column_1="2H", column_2="4S")
    c = full(g, foundation="AS 3H 2S", column_1="2H", column_2="4S")
    assert an.key(a) == an.key(b) != an.key(c)


def nestor_doc():
    return json.loads(Path("rulesets/nestor.cardz").read_text())


def test_sinks_in_a_game_with_triggers():
    """Nestor's triggers move each pair onto the discard: no rule reads its cards, so the key keeps
    its size and top, and the order the pairs went there in is forgotten."""
    g = make(nestor_doc())
    an = Analysis(g.spec)
    discard = g.depot_index["discard"]
    assert discard in an.sinks
    a = full(g, discard="AS AH 2S 2H", column_1="3S", column_2="3H")
    b = full(g, discard="AH AS 2S 2H", column_1="3S", column_2="3H")
    c = full(g, discard="2S 2H AS AH", column_1="3S", column_2="3H")  # another top rank
    assert an.key(a) == an.key(b) != an.key(c)


def test_no_sinks_where_an_expression_reads_cards_or_a_step_takes_them():
    doc = nestor_doc()
    doc["depots"][2]["acceptRule"]["when"] = "card.rank == top.rank && count(discard) < 52"
    g = make(doc)
    assert g.depot_index["discard"] in Analysis(g.spec).sinks  # its size only
    doc["depots"][2]["acceptRule"]["when"] = "card.rank == top.rank && bottom(discard).rank != King"
    g = make(doc)
    assert g.depot_index["discard"] not in Analysis(g.spec).sinks  # an expression reads its cards
    doc = nestor_doc()
    doc["depots"][2]["triggers"][0]["do"].append({"kind": "move", "from": "discard", "to": "@self"})
    g = make(doc)
    assert g.depot_index["discard"] not in Analysis(g.spec).sinks  # a trigger takes from it


def test_a_card_that_can_go_only_home_blocks_the_earlier_cards_of_its_suit_below_it():
    g = make(VARIANTS["bakers-dozen"])
    safe = Analysis(g.spec).safe
    stuck = [str(g.identity[c]) for c, under in enumerate(safe.under) if under]
    assert sorted(stuck) == ["5H", "5S"]  # the top rank: no card to lie on, no empty column
    code = {str(card): i << 1 | 1 for i, card in enumerate(g.identity)}
    col = g.depot_index["column-1"]

    def piles(*cards):
        out = [()] * len(g.depot_names)
        out[col] = tuple(code[c] for c in cards)
        return tuple(out)

    assert safe.blocked(piles("2S", "4H", "5S"))  # 2S can go home only before 5S
    assert not safe.blocked(piles("5S", "2S"))  # the Five lies under: 2S leaves first
    assert not safe.blocked(piles("2H", "5S"))  # another suit
    assert not Analysis(make(VARIANTS["baker"]).spec).safe.blocked_depots  # columns that refill


def test_tap_runs_need_a_waste_that_refuses_drops():
    doc = copy.deepcopy(VARIANTS["klondike-draw-1"])
    assert Analysis(make(doc).spec).tap is not None
    doc["depots"][1]["acceptRule"] = {"single": True}
    an = Analysis(make(doc).spec)
    assert an.tap is None and any("taps searched one at a time" in n for n in an.notes)


def random_walk(game, *, deals, moves, seed):
    """Positions of random play from deals 0.. (each still playing), ``moves`` at most per deal."""
    import random

    rng = random.Random(seed)
    for n in range(deals):
        s = game.deal(n)
        for _ in range(moves):
            legal = game.legal_moves(s)
            if not legal or game.status(s) != 0:
                break
            yield s
            s = game.apply(s, rng.choice(legal))


def tap_orbit(game, state, tap):
    """The positions repeated taps lead to from ``state`` (itself first), until one repeats."""
    orbit, seen = [state], {state.piles}
    while True:
        moves = [m for m in game.legal_moves(orbit[-1]) if m.src == tap and m.index == -1]
        if not moves:
            return orbit
        t = game.apply(orbit[-1], moves[0])
        if t.piles in seen:
            return orbit
        seen.add(t.piles)
        orbit.append(t)


def test_the_stock_ring_merges_exactly_the_configurations_taps_cycle_between():
    # Two positions get one key only when taps lead from each to the other (docs/solver.md,
    # section 5): on the ring, the target holds whole draws; after a card has left the target
    # and before the next recycle, each configuration is its own.
    from cardz_core.cli.common import open_game

    checked = {True: 0, False: 0}
    for path, count in (("rulesets/klondike.cardz", 1), ("rulesets/klondike_draw3.cardz", 3)):
        g = open_game(path)
        an = Analysis(g.spec)
        assert an.cycle == (an.tap[0], an.tap[1], count)
        for s in random_walk(g, deals=6, moves=40, seed=7):
            orbit = tap_orbit(g, s, an.tap[0])
            for q in orbit[1:]:
                back = any(t.piles == s.piles for t in tap_orbit(g, q, an.tap[0]))
                assert (an.key(q) == an.key(s)) == back
                checked[back] += 1
    assert checked[True] > 100 and checked[False] > 100  # both kinds of pair were met


def test_no_ring_without_unlimited_recycles_or_with_cards_drawn_face_down():
    assert Analysis(make(VARIANTS["klondike-draw-2-once"]).spec).cycle is None
    doc = copy.deepcopy(VARIANTS["klondike-draw-3"])
    assert Analysis(make(doc).spec).cycle is not None
    doc["depots"][1]["landFace"] = "Down"
    assert Analysis(make(doc).spec).cycle is None


def test_a_recycled_target_is_no_sink_even_when_locked():
    doc = copy.deepcopy(VARIANTS["klondike-draw-1"])
    doc["depots"][1]["ejectRule"] = "locked"  # the waste gives cards back only by recycling
    an = Analysis(make(doc).spec)
    assert 1 not in an.sinks


def test_lazy_stock_children_build_on_every_stock_card_they_take():
    from cardz_core.cli.common import open_game
    from cardz_core.solver.problem import GameProblem

    g = open_game("rulesets/klondike.cardz")
    problem = GameProblem(g)
    waste, home = problem.ring_target, problem.an.win_set
    chains = 0
    for s in random_walk(g, deals=4, moves=30, seed=3):
        for line, _child in problem.successors(s):
            for i, m in enumerate(line):
                if m.src == waste and m.dst not in home:  # a stock card to a column ...
                    # ... is followed at once (after taps) by a card onto it
                    nxt = next(n for n in line[i + 1:] if n.index >= 0)
                    assert nxt.dst == m.dst
                    chains += nxt.src == waste
    assert chains > 0  # stock cards onto stock cards were met


def test_lazy_stock_needs_one_card_per_draw_and_columns_open_to_the_waste():
    assert Analysis(make(VARIANTS["klondike-draw-1"]).spec).lazy_stock
    an = Analysis(make(VARIANTS["klondike-draw-3"]).spec)
    assert not an.lazy_stock and any("draws 3 cards at a time" in n for n in an.notes)
    doc = copy.deepcopy(VARIANTS["klondike-draw-1"])
    doc["depots"][-1]["acceptRule"]["acceptFrom"] = "Tableau"
    an = Analysis(make(doc).spec)
    assert not an.lazy_stock and any("refuses cards from waste" in n for n in an.notes)


def test_every_try_shares_the_games_accept_tables():
    """The tables of which card lies on which (``GameProblem.fits``, ``stuck``, ``onto``) depend
    on the game alone: the first problem of an analysis builds them, every later try reads the
    same objects, whatever its order, and they hold what a fresh analysis builds."""
    from cardz_core.cli.common import open_game
    from cardz_core.solver.problem import ORDERINGS, GameProblem

    game = open_game("rulesets/klondike.cardz")
    an = Analysis(game)
    first, later = GameProblem(game, an), GameProblem(game, an, ORDERINGS[1], noise=3)
    assert first.fits and first.onto and first.fits.keys() == later.fits.keys()
    for i in first.fits:
        assert later.fits[i] is first.fits[i] and later.onto[i] is first.onto[i]
    assert later.stuck.keys() == first.stuck.keys()
    for i in first.stuck:
        assert later.stuck[i] is first.stuck[i]
    fresh = GameProblem(game, Analysis(game))
    assert (fresh.fits, fresh.stuck, fresh.onto) == (first.fits, first.stuck, first.onto)
    assert len(an.fit_tables) < len(first.fits)  # the columns' equal rules share one table
