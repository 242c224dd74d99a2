"""The program cache (cardz_core.spec.cache): a game's expression programs read back by the next
load of the same file, equal to those compiled; anything changed, corrupt or too big is ignored
and compiled again; the size and count limits at and past them; CARDZ_NO_CACHE."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import installed

import cardz_core.expr.api as api
from cardz_core import limits
from cardz_core.registry import build_registry, default_registry
from cardz_core.spec import cache, load, load_game

ROOT = Path(__file__).resolve().parents[1]
GAPS = ROOT / "rulesets" / "gaps.cardz"


@pytest.fixture()
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    where = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_DIR, str(where))
    monkeypatch.delenv(cache.ENV_OFF, raising=False)
    return where


@pytest.fixture()
def compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts of the expressions compiled from now on."""
    made: list[str] = []
    real = api.compile_program

    def counted(text: str, *args: Any, **kw: Any) -> Any:
        made.append(text)
        return real(text, *args, **kw)

    monkeypatch.setattr(api, "compile_program", counted)
    return made


def _game(tmp_path: Path, text: str | None = None) -> Path:
    path = tmp_path / "gaps.cardz"
    path.write_text(GAPS.read_text(encoding="utf-8") if text is None else text, encoding="utf-8")
    return path


def _programs(spec: Any) -> dict[Any, Any]:
    return dict(spec.programs.kept())


def _entries(where: Path) -> list[Path]:
    return sorted(where.glob("*" + cache.SUFFIX))


def test_a_second_load_compiles_nothing_and_has_the_same_programs(
        tmp_path: Path, folder: Path, compiles: list[str]) -> None:
    path = _game(tmp_path)
    first = load_game(path)
    assert compiles and len(_entries(folder)) == 1
    compiled = len(compiles)
    second = load_game(path)
    assert len(compiles) == compiled  # every program came from the entry
    assert _programs(second) == _programs(first)
    assert second == first


def test_another_text_or_registry_is_another_entry(tmp_path: Path, folder: Path,
                                                   compiles: list[str]) -> None:
    path = _game(tmp_path)
    load_game(path)
    compiled = len(compiles)
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    load_game(path)
    assert len(compiles) == 2 * compiled and len(_entries(folder)) == 2
    load_game(path, registry=build_registry(["example_turnabout"], entry_points=False))
    assert len(compiles) == 3 * compiled and len(_entries(folder)) == 3


def _plugin_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Path]:
    """A registry with the plugin module ``moon_cache_plugin`` of ``tmp_path`` (its file dated
    long before this process began, as an installed plugin's is)."""
    plugin = tmp_path / "moon_cache_plugin.py"
    plugin.write_text("X = 1\n")
    os.utime(plugin, ns=(10**9, 10**9))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "moon_cache_plugin", raising=False)  # another test's
    registry = build_registry(["moon_cache_plugin"], entry_points=False)
    assert registry.sources is not None and str(plugin) in registry.sources
    return registry, plugin


def test_the_key_follows_the_plugins_files_from_one_process_to_the_next(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_SOURCES", {})  # the walks of a new process
    registry, plugin = _plugin_registry(tmp_path, monkeypatch)
    before = cache.entry_key("{}", registry, False)
    assert before is not None and cache.unchanged_since_first_key(registry)
    assert cache.entry_key("{}", registry, True) != before
    os.utime(plugin, ns=(2 * 10**9, 2 * 10**9))
    # this process keeps its key (its code is what it imported) but writes nothing more ...
    assert cache.entry_key("{}", registry, False) == before
    assert not cache.unchanged_since_first_key(registry)
    monkeypatch.setattr(cache, "_SOURCES", {})  # ... and the next process has another key
    assert cache.entry_key("{}", registry, False) not in (before, None)


def test_a_source_changed_after_the_process_began_turns_the_cache_off(
        tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_SOURCES", {})
    registry, plugin = _plugin_registry(tmp_path, monkeypatch)
    os.utime(plugin)  # now: after this process began importing cardz
    assert cache.entry_key("{}", registry, False) is None
    load_game(_game(tmp_path), registry=registry)
    assert not folder.exists()


def test_a_source_changed_while_a_process_ran_is_not_written(
        tmp_path: Path, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "_SOURCES", {})
    registry, plugin = _plugin_registry(tmp_path, monkeypatch)
    load_game(_game(tmp_path), registry=registry)
    assert len(_entries(folder)) == 1
    os.utime(plugin, ns=(2 * 10**9, 2 * 10**9))
    other = tmp_path / "other.cardz"
    other.write_text(_game(tmp_path).read_text(encoding="utf-8") + " ", encoding="utf-8")
    load_game(other, registry=registry)  # compiled, and not written
    assert len(_entries(folder)) == 1


def test_a_new_process_compiles_again_after_a_plugin_changed(tmp_path: Path,
                                                             folder: Path) -> None:
    """End to end: an installed plugin (the default registry finds it by its entry point)
    changed between two commands: the second compiles its programs again."""
    site = tmp_path / "site"
    site.mkdir()
    installed(site, "moon-cache", "[cardz]\nmoon = moon_cache_plugin\n",
              {"moon_cache_plugin": "X = 1\n"})
    plugin = site / "moon_cache_plugin.py"
    os.utime(plugin, ns=(10**9, 10**9))
    code = ("import sys; from cardz_core.cli.main import main; code = main(sys.argv[1:]); "
            "print('lark' in sys.modules, file=sys.stderr); sys.exit(code)")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}

    def compiled() -> bool:
        done = subprocess.run([sys.executable, "-c", code, "check", str(GAPS)],
                              capture_output=True, cwd=ROOT, timeout=120, env=env, check=True)
        return done.stderr.strip().splitlines()[-1] == b"True"

    assert [compiled(), compiled()] == [True, False]
    plugin.write_text("X = 2\n")  # the same size; dated in the past, as an install may
    os.utime(plugin, ns=(3 * 10**9, 3 * 10**9))
    assert [compiled(), compiled()] == [True, False]


def test_a_plugin_made_at_run_time_is_never_cached(tmp_path: Path, folder: Path) -> None:
    class Plugin:
        pass

    registry = build_registry([Plugin()], entry_points=False)
    assert registry.sources is None and cache.entry_key("{}", registry, False) is None
    load_game(_game(tmp_path), registry=registry)
    assert not folder.exists()


def test_a_game_with_problems_or_without_expressions_writes_nothing(tmp_path: Path,
                                                                   folder: Path) -> None:
    broken = GAPS.read_text(encoding="utf-8").replace("top(neighbour(", "topp(neighbour(", 1)
    assert broken != GAPS.read_text(encoding="utf-8")
    spec, problems = load(_game(tmp_path, broken))
    assert spec is None and problems
    load_game(ROOT / "rulesets" / "klondike.cardz")
    assert not folder.exists()


@pytest.mark.parametrize("damage", [
    b"\xff\xfe not JSON", b"[]", b'{"format": 1}',
    b"programs: truncated",
])
def test_a_corrupt_entry_is_ignored_and_written_again(tmp_path: Path, folder: Path,
                                                      compiles: list[str], damage: bytes) -> None:
    path = _game(tmp_path)
    good = _programs(load_game(path))
    (entry,) = _entries(folder)
    entry.write_bytes(damage)
    compiled = len(compiles)
    assert _programs(load_game(path)) == good
    assert len(compiles) == 2 * compiled  # compiled again
    assert json.loads(entry.read_bytes())["key"] == entry.stem  # and written again


def test_an_entry_with_a_bad_program_or_another_key_is_ignored(tmp_path: Path, folder: Path,
                                                               compiles: list[str]) -> None:
    path = _game(tmp_path)
    good = _programs(load_game(path))
    (entry,) = _entries(folder)
    doc = json.loads(entry.read_bytes())
    doc["programs"][0][4]["root"] = ["exec", "import os"]
    entry.write_text(json.dumps(doc))
    assert _programs(load_game(path)) == good
    doc = json.loads(entry.read_bytes())
    doc["key"] = "0" * 64
    entry.write_text(json.dumps(doc))
    compiled = len(compiles)
    assert _programs(load_game(path)) == good
    assert len(compiles) > compiled


def test_the_entry_size_limit_at_and_past_it(tmp_path: Path, folder: Path,
                                             compiles: list[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = _game(tmp_path)
    load_game(path)
    (entry,) = _entries(folder)
    size = entry.stat().st_size
    entry.unlink()
    monkeypatch.setattr(limits, "MAX_CACHE_ENTRY_BYTES", size - 1)
    load_game(path)  # one byte past the limit: not written
    assert _entries(folder) == []
    monkeypatch.setattr(limits, "MAX_CACHE_ENTRY_BYTES", size)
    load_game(path)  # at the limit: written, and read back
    assert [e.stat().st_size for e in _entries(folder)] == [size]
    compiled = len(compiles)
    load_game(path)
    assert len(compiles) == compiled
    entry.write_bytes(entry.read_bytes() + b" ")  # past it on disk: not read
    load_game(path)
    assert len(compiles) > compiled


def test_the_folder_keeps_at_most_the_entry_limit(tmp_path: Path, folder: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_CACHE_ENTRIES", 2)
    text = GAPS.read_text(encoding="utf-8")
    paths = [tmp_path / f"gaps{i}.cardz" for i in range(3)]
    for i, path in enumerate(paths):
        path.write_text(text + " " * i, encoding="utf-8")
    load_game(paths[0])
    load_game(paths[1])
    first, second = (folder / (cache.entry_key(p.read_text(encoding="utf-8"), default_registry(),
                                                False) + cache.SUFFIX) for p in paths[:2])
    os.utime(first, ns=(1, 1))  # read longest ago
    load_game(paths[2])  # a third entry: the oldest goes
    assert len(_entries(folder)) == 2 and not first.exists() and second.exists()


def test_cardz_no_cache_turns_it_off(tmp_path: Path, folder: Path,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV_OFF, "1")
    load_game(_game(tmp_path))
    assert not folder.exists()


def test_an_unwritable_folder_leaves_the_command_working(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv(cache.ENV_DIR, str(blocker / "cache"))
    assert load_game(_game(tmp_path)).programs.kept()


def test_moves_read_from_the_cache_print_the_same_bytes_without_the_parser(tmp_path: Path,
                                                                          folder: Path) -> None:
    from cardz_core.rulesets import open_game

    game = open_game(GAPS)
    board = tmp_path / "board.json"
    board.write_text(json.dumps(game.board_document(game.deal(3))))
    for entry in _entries(folder):  # the first command below finds the cache empty
        entry.unlink()
    code = ("import sys; from cardz_core.cli.main import main; code = main(sys.argv[1:]); "
            "print('lark' in sys.modules, file=sys.stderr); sys.exit(code)")

    def moves(**env: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run([sys.executable, "-c", code, "moves", str(GAPS), "--board",
                               str(board)], capture_output=True, cwd=ROOT, timeout=120,
                              env={**os.environ, **env}, check=True)

    first, second = moves(), moves()
    off = moves(**{cache.ENV_OFF: "1"})
    assert first.stdout == second.stdout == off.stdout and first.stdout.count(b"\n") > 1
    assert (first.stderr, second.stderr, off.stderr) == (b"True\n", b"False\n", b"True\n")
