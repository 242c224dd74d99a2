"""Two installed distributions declaring one entry-point name: refused, naming both, unless the
allow-list picks one as DISTRIBUTION:NAME (cardz_core.registry)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import installed

ROOT = Path(__file__).resolve().parents[1]
GAME = str(ROOT / "rulesets" / "klondike.cardz")

PLUGIN = '''from cardz_core.hookspecs import hookimpl
from cardz_core.kinds import DepotType


@hookimpl
def cardz_depot_types(register):
    register("{type}", DepotType("reserve"))
'''


def _distribution(site: Path, dist: str, module: str, depot_type: str) -> None:
    """A distribution declaring the entry point ``moon``: its dist-info and one module."""
    installed(site, dist, f"[cardz]\nmoon = {module}\n", {module: PLUGIN.format(type=depot_type)})


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    _distribution(tmp_path, "moon-a", "moon_a_plugin", "MoonA")
    _distribution(tmp_path, "moon-b", "moon_b_plugin", "MoonB")
    return tmp_path


def _run(site: Path, code: str, allow: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARDZ_")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    if allow is not None:
        env["CARDZ_PLUGINS"] = allow
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          cwd=site, timeout=120)


CHECK = f"import sys; from cardz_core.cli.main import main; sys.exit(main(['check', {GAME!r}]))"
OWNERS = ("from cardz_core.registry import build_registry; r = build_registry(); "
          "print(r.plugin_names[-1], r.owner('depot_types', 'MoonA'))")


@pytest.mark.parametrize("allow", [None, "moon"])
def test_a_clash_is_refused_in_one_line_naming_both(site: Path, allow: str | None) -> None:
    done = _run(site, CHECK, allow)
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for part in ("'moon'", "moon-a (module moon_a_plugin)", "moon-b (module moon_b_plugin)",
                 "CARDZ_PLUGINS=moon-a:moon"):
        assert part in lines[0]


def test_the_allow_list_picks_one_by_distribution(site: Path) -> None:
    done = _run(site, OWNERS, "moon-a:moon")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["moon-a:moon", "moon-a:moon"]
    other = _run(site, "from cardz_core.registry import build_registry; "
                       "print(sorted(build_registry().depot_types))", "Moon_B:moon")
    assert "MoonB" in other.stdout and "MoonA" not in other.stdout


def test_a_worker_rebuilds_the_same_registry(site: Path) -> None:
    code = ("from cardz_core.sim.job import rebuild_registry; "
            "r = rebuild_registry(('moon-b:moon',)); print(r.owner('depot_types', 'MoonB'))")
    done = _run(site, code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "moon-b:moon"


def test_one_distribution_loads_by_its_entry_point_name(site: Path) -> None:
    (site / "moon_b-1.0.dist-info" / "entry_points.txt").write_text("[cardz]\nsun = moon_b_plugin\n")
    done = _run(site, OWNERS, "moon")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["moon-a:moon", "moon-a:moon"]
    assert _run(site, CHECK).returncode == 0  # no allow-list: both load, no clash
