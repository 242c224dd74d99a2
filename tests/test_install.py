"""The package installs anywhere: a built wheel, and ``pip install .`` (not editable), each into a
fresh virtualenv that cannot see the source tree, give a working ``cardz`` with the bundled games
and the builtin plugins; an installed third-party plugin is found through its entry point.

The wheel test builds with pip's own build isolation (it fetches setuptools, as any user's build
does). ``pip install .`` with a plugin distribution beside it is the long run (``CARDZ_LONG=1``).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from conftest import LONG

ROOT = Path(__file__).resolve().parents[1]
NAMES = {"cardz_core", "cardz_vocabulary", "cardz_deck", "cardz_rulesets"}
TIMEOUT = 300
# a build compiles the Rust crate from nothing: minutes on 2 loaded cores, so it gets longer
BUILD_TIMEOUT = 1200


def _source_copy(into: Path) -> Path:
    """The project as a user downloads it: no build output, no caches, no git, no installs."""
    junk = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
                                  ".hypothesis", ".mypy_cache", "out", "target", "_native*.so")
    return Path(shutil.copytree(ROOT, into / "cardz", ignore=junk))


def _env(**extra: str) -> dict[str, str]:
    """The environment of the commands run here: the suite's with ``extra``, but no
    ``PYTHONPATH`` (a worktree's would reach the fresh venv and import the tree it must not see)."""
    return {**{k: v for k, v in os.environ.items() if k != "PYTHONPATH"}, **extra}


def _run(*argv: str | Path, cwd: Path, env: dict[str, str] | None = None,
         timeout: int = TIMEOUT) -> str:
    done = subprocess.run([str(a) for a in argv], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=_env() if env is None else env)
    assert done.returncode == 0, f"{argv}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _fresh_venv(where: Path) -> Path:
    """A virtualenv with the dependencies from the interpreter running the tests (so nothing is
    downloaded for them) but not cardz itself, nor this source tree; its python."""
    _run(sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", where, cwd=where.parent)
    return where / "bin" / "python"


def _pip(python: Path, *argv: str | Path, cwd: Path) -> None:
    """Install into ``python``'s venv; ``pip install .`` of a source tree builds the crate."""
    _run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", *argv,
         cwd=cwd, timeout=BUILD_TIMEOUT)


def _check_installed(python: Path, work: Path) -> None:
    """The installed ``cardz`` from a folder outside the source tree."""
    bindir = python.parent
    where = json.loads(_run(python, "-c", "import json, cardz_core, cardz_vocabulary, cardz_deck, "
                                          "cardz_rulesets as r; print(json.dumps([m.__file__ for m in "
                                          "(cardz_core, cardz_vocabulary, cardz_deck, r)]))", cwd=work))
    assert all(Path(f).is_relative_to(python.parents[1]) for f in where), where
    files = json.loads(_run(python, "-c", "import json, importlib.metadata as m; print(json.dumps("
                                          "[str(f) for f in m.distribution('cardz').files]))", cwd=work))
    tops = {Path(f).parts[0] for f in files if not Path(f).parts[0].endswith(".dist-info")}
    assert tops - {"..", "bin"} == NAMES  # no generic top-level package such as plugins
    assert {"cardz_core/py.typed", "cardz_vocabulary/py.typed", "cardz_deck/py.typed",
            "cardz_core/expr/grammar.lark", "cardz_rulesets/klondike_draw3.cardz",
            "cardz_core/serve/static/index.html", "cardz_core/serve/static/app.js",
            "cardz_core/serve/static/app.css", "cardz_core/cli/starter.cardz",
            "cardz_core/ratings_data/freecell.json.gz",
            "cardz_core/winnability_data.json"} <= set(files)
    games = json.loads(_run(bindir / "cardz", "games", "--json", cwd=work))
    assert len(games) == len(list((ROOT / "rulesets").glob("*.cardz")))
    freecell = next(g for g in games if g["name"] == "FreeCell")
    assert freecell["winnability"]["deals"] > 0 and freecell["measured"]["deals"] > 0
    assert all(Path(g["file"]).is_relative_to(python.parents[1]) for g in games)
    summary = json.loads(_run(bindir / "cardz", "simulate", "klondike_draw3", "--games", "2",
                              "--workers", "2", "--json", cwd=work))
    assert summary["game"] == "Klondike (draw 3)"
    assert sum(p["games"] for p in summary["planners"].values()) == 2
    # the planners of the builtin cardz_deck plugin, and a game that needs the builtin
    # vocabulary's functions and conditions
    played = json.loads(_run(bindir / "cardz", "play", "freecell", "--seed", "3", "--planner",
                             "expectimax", "--nodes", "50", "--json", cwd=work))
    assert played["result"] in ("won", "lost", "unfinished") and played["moves"] > 0
    assert _run(bindir / "cardz", "check", "Pyramid", cwd=work) == ""
    assert json.loads(_run(bindir / "cardz", "new", "Mine", "-o", "-", cwd=work))["name"] == "Mine"


def test_the_package_list_names_every_package():
    """``pyproject.toml`` lists the packages one by one (the plugins and rule sets install from
    other folders): a package added to the tree must be added there too."""
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    in_tree = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "cardz_core").rglob("__init__.py")
               if "__pycache__" not in p.parts}
    assert set(tool["packages"]) == in_tree | (NAMES - {"cardz_core"})
    for name, folder in tool["package-dir"].items():
        assert (ROOT / folder / "__init__.py").is_file(), name
    assert not (ROOT / "plugins" / "__init__.py").exists()  # plugins/ is a folder, not a package


def test_the_wheel_in_a_fresh_venv(tmp_path):
    source = _source_copy(tmp_path)
    # Cargo builds in the tree's own target folder, where the install that runs these tests
    # built the crate: the copy's sources are the same files, so it compiles only what changed
    # (a build from nothing, minutes on 2 cores, is what that install and the long run check).
    env = _env(CARGO_TARGET_DIR=str(ROOT / "target"))
    _run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp_path / "dist", source,
         cwd=tmp_path, env=env, timeout=BUILD_TIMEOUT)
    (wheel,) = (tmp_path / "dist").glob("cardz-*.whl")
    shutil.rmtree(source)  # nothing may come from the tree it was built from
    python = _fresh_venv(tmp_path / "venv")
    _pip(python, wheel, cwd=tmp_path)
    work = tmp_path / "elsewhere"
    work.mkdir()
    _check_installed(python, work)


PLUGIN_PYPROJECT = """\
[build-system]
requires = ["setuptools>=68"]
build-backend = "setuptools.build_meta"

[project]
name = "cardz-turnabout"
version = "0.1.0"

[project.entry-points.cardz]
turnabout = "example_turnabout"

[tool.setuptools]
packages = ["example_turnabout"]
"""


@pytest.mark.skipif(not LONG, reason="long run: set CARDZ_LONG=1")
def test_pip_install_dot_and_an_installed_plugin(tmp_path):
    source = _source_copy(tmp_path)
    python = _fresh_venv(tmp_path / "venv")
    _pip(python, source, cwd=tmp_path)
    work = tmp_path / "elsewhere"
    work.mkdir()
    _check_installed(python, work)
    # the template plugin as its own distribution: cardz finds it by its entry point, in the
    # main process and in the simulation's worker processes
    plugin = tmp_path / "turnabout"
    shutil.copytree(ROOT / "plugins" / "example_turnabout", plugin / "example_turnabout",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (plugin / "pyproject.toml").write_text(PLUGIN_PYPROJECT)
    game = plugin / "example_turnabout" / "turnabout.cardz"
    cardz = python.parent / "cardz"
    env = _env(CARDZ_NO_ENTRYPOINTS="0")
    refused = subprocess.run([str(cardz), "check", str(game)], cwd=work, capture_output=True,
                             text=True, timeout=TIMEOUT, env=env)
    assert refused.returncode == 1 and "unknown step kind 'reverse'" in refused.stdout
    _pip(python, plugin, cwd=tmp_path)
    assert _run(cardz, "check", game, cwd=work, env=env) == ""
    summary = json.loads(_run(cardz, "simulate", game, "--games", "2", "--workers", "2", "--json",
                              cwd=work, env=env))
    assert sum(p["games"] for p in summary["planners"].values()) == 2
