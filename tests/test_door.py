"""One door: planners, the harness, the CLI and the views know a game through ``Game``, ``State``,
``View``, ``Move`` and ``Outcome``. They read the spec or the registry only where listed here: to
show something, to find a plugin by name, or (marked "until") where the compiled game does not
hold the fact yet (docs/design.md, "One door")."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

CORE = Path(__file__).parent.parent / "cardz_core"
DOOR_USERS = [*sorted((CORE / "planners").glob("*.py")), *sorted((CORE / "sim").glob("*.py")),
              *sorted((CORE / "cli").glob("*.py")), CORE / "view.py"]
OUTSIDE = {CORE / "planners" / "solver.py"}  # the solver's entry point, kept by the solver
READ = re.compile(r"\bgame\.(spec|registry)\b")
NEVER = re.compile(r"\btap_moves\b|\bid\((game|spec)\)")

ALLOWED = {
    # the planner plugin found by name; the game's name in a refusal
    ("planners/__init__.py", "registry"): 3, ("planners/__init__.py", "spec"): 1,
    # the deck model plugin found by name
    ("view.py", "registry"): 1,
    # the game's name and whether it keeps a score, shown with the board
    ("cli/cmd_play.py", "spec"): 3,
    # the planner's registered name, shown in the summary
    ("cli/cmd_simulate.py", "registry"): 1,
    # `cardz eval` compiles the user's expression against the spec, as the loader does
    ("cli/cmd_eval.py", "spec"): 1, ("cli/cmd_eval.py", "registry"): 1,
}


def test_nothing_outside_the_engine_reads_the_spec_or_registry_beyond_the_listed_uses() -> None:
    found: Counter[tuple[str, str]] = Counter()
    for path in DOOR_USERS:
        if path in OUTSIDE:
            continue
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(CORE).as_posix()
        assert not NEVER.search(text), f"{name} reads the engine's move table or keys by id()"
        for m in READ.finditer(text):
            found[(name, m.group(1))] += 1
    assert dict(found) == ALLOWED
