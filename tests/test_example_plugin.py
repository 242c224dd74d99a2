"""The example third-party plugin adds a step kind and a function through the public hooks, and
a game that uses both loads, checks and plays; without the plugin the same file is refused."""

from pathlib import Path

from cardz_core.engine import compile
from cardz_core.registry import build_registry
from cardz_core.spec import load, load_game

GAME = Path(__file__).parents[1] / "plugins" / "example_turnabout" / "turnabout.cardz"


def _registry():
    return build_registry(["example_turnabout"], entry_points=False)


def test_unknown_without_the_plugin():
    spec, problems = load(GAME, registry=build_registry(entry_points=False))
    assert spec is None
    # the unknown function is reported beside the unknown step kind, not once that is fixed
    assert [(p.path, "unknown step kind 'reverse'" in p.message or
             "unknown function `ringGap`" in p.message) for p in problems] == [
        ("/depots/0/actions/0/do/0/kind", True), ("/depots/2/acceptRule/when", True)]


def test_plugin_step_and_function_play():
    reg = _registry()
    assert reg.owner("deal_steps", "reverse") == "example_turnabout"
    assert reg.owner("functions", "ringGap") == "example_turnabout"
    game = compile(load_game(GAME, registry=reg), reg)
    state = game.deal(7)
    stock = game.depot_index["stock"]
    before = state.piles[stock]
    assert len(before) == 44 and before[-1] & 1  # dealt 8, top flipped
    tap = next(m for m in game.legal_moves(state) if m.index == -1)
    after = game.apply(state, tap)
    pile = after.piles[stock]
    # reversed end over end (faces kept), then the new top turned up
    assert [c >> 1 for c in pile] == [c >> 1 for c in before[::-1]]
    assert pile[-1] & 1 and pile[0] & 1  # the old top, still face-up, is now at the bottom


def test_plugin_function_decides_landing():
    reg = _registry()
    game = compile(load_game(GAME, registry=reg), reg)
    state = game.deal(3)
    tables_rank = {i: c.card.rank for i, c in enumerate(game.spec.cards)}
    stock = game.depot_index["stock"]
    top_rank = tables_rank[state.piles[stock][-1] >> 1]
    for move in game.legal_moves(state):
        if move.index >= 0:
            target_rank = tables_rank[state.piles[move.dst][-1] >> 1]
            gap = abs(top_rank - target_rank)
            assert min(gap, 13 - gap) == 1
    for d, name in enumerate(game.depot_names):
        if name.startswith("pile-"):
            gap = abs(top_rank - tables_rank[state.piles[d][-1] >> 1])
            legal = any(m.dst == d for m in game.legal_moves(state))
            assert legal == (min(gap, 13 - gap) == 1)
