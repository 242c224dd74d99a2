"""One door: planners, the harness, the CLI and the views know a game through ``Game``, ``State``,
``View``, ``Move`` and ``Outcome``. They read the spec or the registry only where listed here: to
show something, to find a plugin by name, or (marked "until") where the compiled game does not
hold the fact yet (docs/design.md, "One door")."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from cardz_core.engine import Game
from cardz_core.planners.solver import solve
from cardz_core.rulesets import open_game
from cardz_core.solver.analysis import Analysis
from cardz_core.solver.oneway import OneWay

CORE = Path(__file__).parent.parent / "cardz_core"
SOLVER = sorted((CORE / "solver").glob("*.py"))
DOOR_USERS = [*sorted((CORE / "planners").glob("*.py")), *sorted((CORE / "sim").glob("*.py")),
              *sorted((CORE / "cli").glob("*.py")), CORE / "view.py", *SOLVER]
READ = re.compile(r"\bgame\.(spec|registry)\b")
NEVER = re.compile(r"\btap_moves\b|\bid\((game|spec)\)")

ALLOWED = {
    # the planner plugin found by name (to make it, or to read the options it takes); the game's
    # name in a refusal
    ("planners/__init__.py", "registry"): 5, ("planners/__init__.py", "spec"): 1,
    # the deck model plugin found by name
    ("view.py", "registry"): 1,
    # the game's name and whether it keeps a score, shown with the board
    ("cli/cmd_play.py", "spec"): 2,
    # the planner's registered name, shown in the summary
    ("cli/cmd_simulate.py", "registry"): 1,
    # `cardz eval` compiles the user's expression against the spec, as the loader does
    ("cli/cmd_eval.py", "spec"): 1, ("cli/cmd_eval.py", "registry"): 1,
}


def test_nothing_outside_the_engine_reads_the_spec_or_registry_beyond_the_listed_uses() -> None:
    found: Counter[tuple[str, str]] = Counter()
    for path in DOOR_USERS:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(CORE).as_posix()
        assert not NEVER.search(text), f"{name} reads the engine's move table or keys by id()"
        for m in READ.finditer(text):
            found[(name, m.group(1))] += 1
    assert dict(found) == ALLOWED


# what the solver read of the spec and the registry before the compiled game held it
SOLVER_NEVER = re.compile(r"\.lookup\(|\bspec\.(depots|win|loss|redeal|max_redeals|uses_expressions)"
                          r"\b|\brule_reads\(spec|\b_Kinds\b")


def test_the_solver_reads_only_the_compiled_game_and_the_engine_tables() -> None:
    for path in SOLVER:
        found = SOLVER_NEVER.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{path.name} reads {found.group(0)!r}"


def test_nothing_in_the_core_hands_the_analysis_a_spec() -> None:
    # ``Analysis(spec)`` compiles first, for tests; the core builds it from a game (``derive``)
    calls = [path.relative_to(CORE).as_posix() for path in sorted(CORE.rglob("*.py"))
             if re.search(r"\bAnalysis\(", path.read_text(encoding="utf-8"))]
    assert calls == []


class Sealed:
    """Stands for a game's spec and registry: any read of them fails."""

    def __getattr__(self, name: str) -> None:
        raise AssertionError(f"the solver read {name!r} of the spec or the registry")


@pytest.mark.parametrize("name", ["klondike", "freecell", "golf", "spider", "cruel"])
def test_the_solver_analyses_and_solves_with_the_spec_and_registry_sealed(name: str) -> None:
    sealed, game = open_game(name), open_game(name)
    state = game.deal(1)
    sealed.spec = sealed.registry = Sealed()  # type: ignore[assignment]
    def derived(g: Game) -> tuple[object, ...]:
        an = Analysis(g)
        oneway = OneWay(an)
        return (an.notes, an.classes, an.win_set, an.tap, an.sinks, an.safe is None, oneway.reason)

    assert derived(sealed) == derived(game)
    got, want = solve(sealed, state, max_states=1500), solve(game, state, max_states=1500)
    assert (got.result, got.states, got.line) == (want.result, want.states, want.line)
