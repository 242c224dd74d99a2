"""Shared test setup: the template plugin on the import path, and the builders tests share
(``from conftest import board, mv, ...``)."""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any, Iterable

import pytest

ROOT = Path(__file__).resolve().parents[1]

# plugins/example_turnabout is a template, not an installed package: tests import it by its own
# name, as a third party's plugin would be imported.
sys.path.insert(0, str(ROOT / "plugins"))

# the program cache (cardz_core.spec.cache) of a test run is its own folder, never the user's;
# the run reads back what it wrote, so most loads of a game go through an entry
_CACHE = tempfile.mkdtemp(prefix="cardz-test-cache-")
os.environ["CARDZ_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

from cardz_core.cards import format_card, parse_card  # noqa: E402
from cardz_core.engine import Move, State  # noqa: E402

LONG = os.environ.get("CARDZ_LONG", "") not in ("", "0")  # the long runs: CARDZ_LONG=1


def board(g: Any, piles: dict[str, list[str]], **fields: Any) -> State:
    """A position of game ``g`` from card notation, bottom first; cards not listed are simply
    not on the board. ``fields`` set other State fields (``moves=3``)."""
    used: set[int] = set()
    out: list[tuple[int, ...]] = [()] * g.n_depots
    for name, cards in piles.items():
        codes = []
        for text in cards:
            card, up = parse_card(text)
            cid = next(i for i, c in enumerate(g.identity) if c == card and i not in used)
            used.add(cid)
            codes.append(cid << 1 | up)
        out[g.depot_index[name]] = tuple(codes)
    n = g.n_depots
    state = State(tuple(out), (-1,) * n, (0,) * n, declared=(-1,) * n, cards=g.identity)
    for key, value in fields.items():
        setattr(state, key, value)
    return state


def pile(g: Any, state: State, name: str) -> list[str]:
    """Depot ``name``'s cards in notation, bottom first."""
    return [format_card(g.identity[c >> 1], bool(c & 1)) for c in state.piles[g.depot_index[name]]]


def mv(g: Any, src: str, index: int, dst: str, declare: int = -1) -> Move:
    """The move of the card at ``index`` of depot ``src`` onto depot ``dst``, by names."""
    return Move(g.depot_index[src], index, g.depot_index[dst], declare)


def tap(g: Any, name: str) -> Move:
    return Move(g.depot_index[name], -1, -1)


def move_texts(g: Any, moves: Iterable[Move]) -> set[str]:
    """The moves in their text form (``column-1@2>foundation-1``, ``tap stock``)."""
    return {g.move_text(m) for m in moves}


def installed(site: Path, dist: str, entry_points: str | bytes | None = None,
              modules: dict[str, str] | None = None, folder: str | None = None) -> Path:
    """A distribution laid out in the folder ``site`` as an installer leaves it: its metadata
    folder (``folder``, else ``DIST-1.0.dist-info``) with ``entry_points`` as its
    ``entry_points.txt`` (text, or bytes as they are; None: no such file), and each of
    ``modules`` (name: source) as a module beside it. The one way the tests fake an installed
    plugin: with ``site`` on the path (``monkeypatch.syspath_prepend``, or ``PYTHONPATH`` for a
    child process) both ``registry.may_declare`` and ``importlib.metadata`` find it."""
    info = site / (folder or f"{dist.replace('-', '_')}-1.0.dist-info")
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    if isinstance(entry_points, str):
        (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    elif entry_points is not None:
        (info / "entry_points.txt").write_bytes(entry_points)
    for name, source in (modules or {}).items():
        (site / f"{name}.py").write_text(source, encoding="utf-8")
    return info


def run_cli(capsys: Any, *argv: str) -> tuple[int, str, str]:
    """``cardz ARGV...`` in this process: exit code, standard output, standard error."""
    from cardz_core.cli.main import main

    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="session")
def _state_home(tmp_path_factory: Any) -> Path:
    return Path(tmp_path_factory.mktemp("state"))


@pytest.fixture(autouse=True)
def _saved_games_in_tmp(_state_home: Path, monkeypatch: Any) -> None:
    """`cardz play` saves on quit under $XDG_STATE_HOME: keep every test's saves out of $HOME."""
    monkeypatch.setenv("XDG_STATE_HOME", str(_state_home))


def benchmark(name: str) -> ModuleType:
    """``benchmarks/NAME.py`` as a module, loaded once and kept in ``sys.modules`` under its
    name (so that worker processes it starts find it, and one benchmark may import another)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
