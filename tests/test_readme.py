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
