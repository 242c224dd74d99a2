"""The solver reads what kinds declare, never their names: a plugin kind with the same facts as a
builtin one gives the same analysis, notes, positions and answers (through the public plugin API)."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from cardz_core.engine import compile
from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import DepotType
from cardz_core.planners.solver import solve
from cardz_core.registry import build_registry
from cardz_core.solver.analysis import Analysis, analysis_of
from cardz_core.solver.problem import GameProblem
from cardz_core.spec import load_game
from cardz_vocabulary.conditions import CONDITION_KINDS

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


class Twins:
    """A third-party plugin: ``everyCardIn``, the facts (and test) of ``allCardsIn`` under
    another name, and ``Pocket``, a depot type of the cell role that parks like a free cell."""

    @hookimpl
    def cardz_conditions(self, register):
        register("everyCardIn", attrs.evolve(CONDITION_KINDS["allCardsIn"]))

    @hookimpl
    def cardz_depot_types(self, register):
        register("Pocket", DepotType("cell", parks="cell"))


REGISTRY = build_registry([Twins()], entry_points=False)


def game(name, edit=None):
    doc = json.loads((RULESETS / f"{name}.cardz").read_text())
    if edit is not None:
        edit(doc)
    return compile(load_game(doc, registry=REGISTRY), REGISTRY)


def rename_win(doc):
    assert doc["winCondition"]["kind"] == "allCardsIn"
    doc["winCondition"]["kind"] = "everyCardIn"


def pockets(doc):
    cells = [d for d in doc["depots"] if d["type"] == "Cell"]
    assert cells
    for d in cells:
        d["type"] = "Pocket"


def tables(an):
    """Everything the analysis and the problem derive, for comparison."""
    p = GameProblem(an.game, an)
    safe = an.safe and (an.safe.win, an.safe.needs, an.safe.sources, an.safe.seed_rank)
    return (an.notes, an.classes, an.win_set, an.empties, an.tap, an.cycle, an.sinks, safe,
            an.lazy_stock, an.lazy_streamline, an.key_recycles, p.win, p.to_empty, p.others,
            p.open, p.fits, p.steps)


def answers(g, seeds, states):
    out = []
    for seed in seeds:
        r = solve(g, g.deal(seed), max_states=states, timeout=600)
        out.append((r.result, r.states, r.line, r.notes))
    return out


@pytest.mark.parametrize("name", ["klondike", "freecell"])
def test_a_plugin_win_with_the_facts_of_allcardsin_is_read_alike(name):
    builtin, plugin = game(name), game(name, rename_win)
    assert plugin.spec.win.kind == "everyCardIn"
    assert tables(analysis_of(plugin)) == tables(analysis_of(builtin))
    assert "safe moves: a card to a locked foundation" in " ".join(analysis_of(plugin).notes)
    assert answers(plugin, range(3), 3000) == answers(builtin, range(3), 3000)


def test_a_plugin_pocket_of_the_cell_role_is_read_like_a_cell():
    builtin, plugin = game("freecell"), game("freecell", pockets)
    assert "Pocket" in plugin.types and "Cell" not in plugin.types
    assert tables(analysis_of(plugin)) == tables(analysis_of(builtin))
    assert "cell-1 cell-2 cell-3 cell-4" in analysis_of(plugin).notes[0]  # still interchangeable
    # FreeCell's Staged moves: the engine counts Pocket as a free cell by its `parks` fact
    assert answers(plugin, range(1, 4), 3000) == answers(builtin, range(1, 4), 3000)


def test_a_pocket_as_the_stock_target_stops_tap_runs_like_a_cell():
    def waste_as(kind):
        def edit(doc):
            for d in doc["depots"]:
                if d["type"] == "Waste":
                    d["type"] = kind
        return edit

    builtin, plugin = game("klondike", waste_as("Cell")), game("klondike", waste_as("Pocket"))
    assert tables(analysis_of(plugin)) == tables(analysis_of(builtin))
    assert "the stock or its target counts towards compound moves" in " ".join(analysis_of(plugin).notes)
    assert answers(plugin, range(2), 2000) == answers(builtin, range(2), 2000)
    assert analysis_of(game("klondike")).tap is not None  # with its Waste, taps run


class Fixed:
    """A plugin cell type whose copies may not be swapped."""

    @hookimpl
    def cardz_depot_types(self, register):
        register("FixedPocket", DepotType("cell", parks="cell", interchangeable=False))


def test_pockets_that_are_not_interchangeable_split_no_class_but_theirs():
    reg = build_registry([Twins(), Fixed()], entry_points=False)
    doc = json.loads((RULESETS / "freecell.cardz").read_text())
    for d in doc["depots"]:
        if d["type"] == "Cell":
            d["type"] = "FixedPocket"
    an = Analysis(compile(load_game(doc, registry=reg), reg))
    names = [sorted(an.game.depot_names[i] for i in c) for c in an.classes]
    assert not any(n.startswith("cell") for c in names for n in c)
    assert len(an.classes) == 2  # the foundations and the columns still are


def test_the_analysis_is_built_once_and_held_by_the_game():
    g = game("freecell")
    an = analysis_of(g)
    assert analysis_of(g) is an and GameProblem(g).an is an
    solve(g, g.deal(1), max_states=1000)
    assert analysis_of(g) is an and an.oneway is not None  # the solver's tables stay on it
    assert analysis_of(game("freecell")) is not an


class Counting:
    """A plugin win kind that says it reads the counters (as ``noLegalMoves`` does, without being
    a stalemate): the key would not keep what it reads."""

    @hookimpl
    def cardz_conditions(self, register):
        register("countedIn", attrs.evolve(CONDITION_KINDS["allCardsIn"],
                                           reads=frozenset({"piles", "counters"})))


def test_a_win_written_as_an_expression_is_searched_natively_a_counting_plugin_is_not():
    """An ``expr`` condition's expressions declare what they read, and the key keeps all of it, so
    the native search takes the game (``Analysis.known``); the reductions stay off, as in any
    game with expressions. A kind reading what the key may drop keeps the Python search."""
    from cardz_core.planners.solver import NATIVE_NOTE, PYTHON_NOTE

    # its win is ``count(discard) == 48``; on the native engine whichever engine the run defaults
    # to, since a game the Python engine plays gets the Python search whatever its analysis
    doc = json.loads((RULESETS / "aces_up.cardz").read_text())
    aces = compile(load_game(doc, registry=REGISTRY), REGISTRY, engine="native")
    an = analysis_of(aces)
    assert an.known and an.classes == () and an.sinks == () and an.safe is None
    assert NATIVE_NOTE in solve(aces, aces.deal(0), max_states=500, timeout=60).notes
    registry = build_registry([Counting()], entry_points=False)
    doc = json.loads((RULESETS / "freecell.cardz").read_text())
    doc["winCondition"]["kind"] = "countedIn"
    counted = compile(load_game(doc, registry=registry), registry)
    assert not analysis_of(counted).known
    assert PYTHON_NOTE in solve(counted, counted.deal(0), max_states=500, timeout=60).notes
