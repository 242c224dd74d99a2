"""Shared test setup: the template plugin on the import path, and builders used across tests."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# plugins/example_turnabout is a template, not an installed package: tests import it by its own
# name, as a third party's plugin would be imported.
sys.path.insert(0, str(ROOT / "plugins"))
