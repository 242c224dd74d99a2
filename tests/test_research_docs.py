"""The examples of docs/research.md run as written, each in a fresh interpreter; the OpenSpiel
and Gymnasium ones need their extras (skipped without them)."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _blocks() -> list[str]:
    text = (ROOT / "docs" / "research.md").read_text(encoding="utf-8")
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


def _run(code: str, where: Path) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], cwd=where, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_there_are_three_examples() -> None:
    blocks = _blocks()
    assert len(blocks) == 3
    assert "Seat" in blocks[0] and "pyspiel" in blocks[1] and "gymnasium" in blocks[2]


def test_the_embedding_example_runs(tmp_path: Path) -> None:
    printed = _run(_blocks()[0], tmp_path)
    assert printed == ["tap stock", f"3 {1 / (45 * 44 * 43):.3g}", "20"]


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="extra openspiel")
def test_the_openspiel_example_runs(tmp_path: Path) -> None:
    printed = _run(_blocks()[1], tmp_path)
    waste = printed[0].split()
    assert waste[0] == "waste:" and len(waste) == 4 and "~?" not in waste


@pytest.mark.skipif(importlib.util.find_spec("gymnasium") is None, reason="extra gym")
def test_the_gymnasium_example_runs(tmp_path: Path) -> None:
    shape, reward = _run(_blocks()[2], tmp_path)[0].rsplit(" ", 1)
    assert shape == "(1459,)" and float(reward) in (0.0, 1.0)
