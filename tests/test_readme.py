"""The README's Python example runs as written, from a folder outside the source tree (so the
bundled game it opens by name comes from the installed package data)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _python_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


def test_readme_python_example_runs(tmp_path):
    blocks = _python_blocks()
    assert len(blocks) == 1 and "open_game" in blocks[0]
    done = subprocess.run([sys.executable, "-c", blocks[0]], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.splitlines()
    assert printed[0].startswith("State(playing, piles=[")
    assert printed[1] == "Move(tap 0) tap stock"


def test_the_readme_plays_a_deal_the_solver_wins() -> None:
    from cardz_core.planners.solver import solve
    from cardz_core.rulesets import open_game

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    seeds = {int(s) for s in re.findall(r"^cardz (?:deal|play) klondike --seed (\d+)", text,
                                        flags=re.M)}
    assert len(seeds) == 1
    game = open_game("klondike")
    state = game.deal(seeds.pop())
    assert solve(game, state, max_states=5000, timeout=120).result == "won"
    card_move = re.search(r'--move "(\w+>[\w-]+)"', text)
    assert card_move is not None
    game.apply(state, game.parse_move(card_move.group(1), board=state))  # legal as written
