"""The security review of docs/security.md, kept true by tests: no code of cardz passes anything
to ``eval``, ``exec``, ``pickle``, a shell or an import but at the sites reviewed there; the
plugin allow-list and the switch that turns third-party plugins off do what they say; a game
file's names make no file."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import installed

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "cardz_core").rglob("*.py")) + sorted((ROOT / "plugins").rglob("*.py"))

# calls that run code or a shell, or read objects that can run code: none anywhere
FORBIDDEN_CALLS = {"eval", "exec", "__import__", "breakpoint", "input"}
FORBIDDEN_MODULES = {"pickle", "marshal", "shelve", "subprocess", "pty", "dill", "cloudpickle"}
FORBIDDEN_ATTRS = {("os", "system"), ("os", "popen"), ("os", "execv"), ("os", "execve"),
                   ("os", "spawnv"), ("yaml", "load")}
# every import by a computed name, each reviewed in docs/security.md: none takes a name from a
# game file, a board, a move or a log
IMPORT_SITES = {
    "cardz_core/__init__.py",  # the lazy exports: names from the module's own table
    "cardz_core/cli/main.py",  # the cmd_* modules of the cli package
    "cardz_core/native.py",  # cardz_core._native, the native extension
    "cardz_core/planners/__init__.py",  # the builtin planners' modules, named in its own table
    "cardz_core/registry.py",  # builtin plugins, and module names the caller passes in code
    "cardz_core/sim/job.py",  # a job's factory, set by the simulation's own code
    "cardz_core/spec/__init__.py",  # cardz_core.expr
}


def calls(tree: ast.AST) -> list[tuple[str, int]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Name) and f.id in FORBIDDEN_CALLS:
                found.append((f.id, node.lineno))
            elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and \
                    (f.value.id, f.attr) in FORBIDDEN_ATTRS:
                found.append((f"{f.value.id}.{f.attr}", node.lineno))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            found += [(n, node.lineno) for n in names if n.split(".")[0] in FORBIDDEN_MODULES]
    return found


def test_nothing_runs_code_or_a_shell() -> None:
    found = {}
    for path in SOURCES:
        got = calls(ast.parse(path.read_text(encoding="utf-8")))
        if got:
            found[str(path.relative_to(ROOT))] = got
    assert found == {}


def test_imports_by_computed_name_are_only_the_reviewed_sites() -> None:
    sites = set()
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr in ("import_module", "load") and \
                    isinstance(node.func.value, ast.Name) and node.func.value.id == "importlib":
                sites.add(str(path.relative_to(ROOT)))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                    node.func.attr == "import_module":
                sites.add(str(path.relative_to(ROOT)))
    assert sites == IMPORT_SITES


def test_the_expression_language_is_interpreted_not_evaluated() -> None:
    """A game's expression that would be Python runs nothing: it is refused as cardz's own
    language (no attribute reaches Python objects)."""
    from cardz_core.spec import load

    for text in ("__import__('os').system('touch pwned')", "().__class__.__bases__",
                 "open('x', 'w')", "card.__class__", "exec('1')"):
        doc = {"name": "t", "depots": [{"name": "stock", "type": "Stock"}],
               "winCondition": {"kind": "expr", "when": text}}
        spec, problems = load(doc)
        assert spec is None and problems and all(p.path.startswith("/") for p in problems), text
    assert not Path("pwned").exists() and not Path("x").exists()


def test_names_from_a_game_file_make_no_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from cardz_core.cli.main import main

    game = json.loads((ROOT / "rulesets" / "golf.cardz").read_text(encoding="utf-8"))
    game["name"] = "../../escaped"
    path = tmp_path / "work" / "g.cardz"
    path.parent.mkdir()
    path.write_text(json.dumps(game), encoding="utf-8")
    here = os.getcwd()
    os.chdir(path.parent)
    try:
        for argv in (["check", "g.cardz"], ["deal", "g.cardz", "--seed", "1"],
                     ["play", "g.cardz", "--seed", "1", "--planner", "usual", "--quiet"]):
            assert main(argv) == 0
    finally:
        os.chdir(here)
    capsys.readouterr()
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["g.cardz", "work"]


# -- the plugin switches -----------------------------------------------------------------------------
PLUGIN = '''from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import DepotType


@hookimpl
def cardz_depot_types(register):
    register("{type}", DepotType("reserve"))
'''


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    """Two installed distributions, entry points ``sun`` and ``moon``, each adding a depot type."""
    for dist, name, depot_type in (("sun-dist", "sun", "Sunny"), ("moon-dist", "moon", "Moony")):
        installed(tmp_path, dist, f"[cardz]\n{name} = {name}_plugin\n",
                  {f"{name}_plugin": PLUGIN.format(type=depot_type)})
    return tmp_path


def types_loaded(site: Path, **env: str) -> set[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("CARDZ_")}
    clean.update(env, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    done = subprocess.run(
        [sys.executable, "-c", "from cardz_core.registry import build_registry; "
                               "print(' '.join(sorted(build_registry().depot_types)))"],
        capture_output=True, text=True, env=clean, cwd=site, timeout=120)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split()) & {"Sunny", "Moony"}


def test_installed_plugins_load_by_default(site: Path) -> None:
    assert types_loaded(site) == {"Sunny", "Moony"}


def test_the_allow_list_loads_only_what_it_names(site: Path) -> None:
    assert types_loaded(site, CARDZ_PLUGINS="sun") == {"Sunny"}
    assert types_loaded(site, CARDZ_PLUGINS="moon-dist:moon") == {"Moony"}
    assert types_loaded(site, CARDZ_PLUGINS="") == set()
    assert types_loaded(site, CARDZ_PLUGINS="nosuch") == set()


def test_no_entry_points_loads_no_third_party_plugin(site: Path) -> None:
    assert types_loaded(site, CARDZ_NO_ENTRYPOINTS="1") == set()
    assert types_loaded(site, CARDZ_NO_ENTRYPOINTS="1", CARDZ_PLUGINS="sun,moon") == set()
    assert types_loaded(site, CARDZ_NO_ENTRYPOINTS="0") == {"Sunny", "Moony"}
