"""What a command's start leaves out (docs/benchmarks.md, "Start-up"): the entry-point search
of ``importlib.metadata`` when no installed distribution can declare a ``cardz`` plugin, and
the expression parser for a game without expressions. Behaviour only; the times are measured by
benchmarks/bench_startup.py."""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import installed

from cardz_core.registry import may_declare

ROOT = Path(__file__).resolve().parents[1]


def _declares(site: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[bool, bool]:
    """(``may_declare()``, whether importlib.metadata finds a ``cardz`` entry point), with
    ``site`` the whole of ``sys.path``."""
    monkeypatch.setattr(sys, "path", [str(site)])
    importlib.invalidate_caches()
    return may_declare(), bool(importlib.metadata.entry_points(group="cardz"))


@pytest.mark.parametrize("folder,text,gate,found", [
    ("moon-1.0.dist-info", "[cardz]\nmoon = moon_plugin\n", True, True),
    ("moon-1.0.dist-info", "[console_scripts]\ncardz = cardz_core.cli.main:main\n", False, False),
    ("moon-1.0.dist-info", "  [cardz]  \r\nmoon = moon_plugin\n", True, True),
    ("moon-1.0.dist-info", "[[cardz]]\nmoon = moon_plugin\n", True, True),  # as importlib reads it
    ("moon-1.0.dist-info", "[]cardz]\nmoon = moon_plugin\n", True, True),  # so is this
    ("moon-1.0.dist-info", "[ cardz ]\nmoon = moon_plugin\n", False, False),
    ("moon-1.0.dist-info", "[CARDZ]\nmoon = moon_plugin\n", False, False),  # names are exact
    ("Moon-1.0.EGG-INFO", "[cardz]\nmoon = moon_plugin\n", True, True),
    ("moon-1.0.dist-info", None, False, False),
    # the guard searches bytes: it may send a file that declares nothing to the real search
    ("moon-1.0.dist-info", "[console_scripts]\nmoon = moon:main [cardz]\n", True, False),
])
def test_the_guard_never_says_no_where_importlib_metadata_finds_one(
        tmp_path: Path, folder: str, text: str | None, gate: bool, found: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    installed(tmp_path, folder.split("-")[0], text, folder=folder)
    assert _declares(tmp_path, monkeypatch) == (gate, found)


def test_an_empty_path_declares_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _declares(tmp_path, monkeypatch) == (False, False)
    monkeypatch.setattr(sys, "path", [str(tmp_path / "missing")])
    assert may_declare() is False


def test_what_it_cannot_read_cheaply_sends_it_to_the_full_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    installed(tmp_path, "moon", b"[cardz]\n\xff = x\n")  # not UTF-8: its bytes are searched
    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    assert may_declare() is True
    archive = tmp_path / "plugins.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("x.txt", "")
    monkeypatch.setattr(sys, "path", [str(archive)])
    assert may_declare() is True


def test_another_distribution_finder_sends_it_to_the_full_search(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Finder:
        @staticmethod
        def find_distributions(context: object = None) -> list[object]:
            return []

    monkeypatch.setattr(sys, "path", [str(tmp_path)])
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, Finder])
    assert may_declare() is True


def _modules_after(argv: list[str]) -> set[str]:
    """The modules imported by the end of ``cardz ARGV`` in a fresh interpreter."""
    code = ("import sys, json; from cardz_core.cli.main import main; main(sys.argv[1:]); "
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True,
                          cwd=ROOT, timeout=120, check=True)
    return set(json.loads(done.stdout.strip().splitlines()[-1]))


def test_moves_of_a_game_without_expressions_imports_no_metadata_search_or_parser(
        tmp_path: Path) -> None:
    from cardz_core.rulesets import open_game

    game = open_game("klondike_draw3")
    board = tmp_path / "board.json"
    board.write_text(json.dumps(game.board_document(game.deal(1))))
    modules = _modules_after(["moves", "klondike_draw3", "--board", str(board)])
    assert "cardz_core.engine.game" in modules  # it did open and play the game
    assert not {"importlib.metadata", "lark", "cardz_core.expr.parse"} & modules
