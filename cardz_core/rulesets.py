"""The bundled rule sets, shipped as the package data of ``cardz_rulesets`` (the source folder
``rulesets/``), and opening a game by path or by bundled name.

``bundled()`` lists each game's name, family and file without compiling anything: it reads only
the top-level ``name``, ``family`` and ``aliases`` of each file, so a listing stays fast and a
file with rule problems still appears (``cardz check`` reports those).
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import attrs

from cardz_core.problems import CardzError

# a regular package on disk, so its folder is a real Path (wheel, sdist and editable installs)
RULESETS_DIR = Path(str(resources.files("cardz_rulesets")))
SUFFIX = ".cardz"


@attrs.frozen
class Ruleset:
    name: str
    family: str | None
    aliases: tuple[str, ...]
    path: Path

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "family": self.family, "aliases": list(self.aliases),
                "file": str(self.path)}


def ruleset_paths(folder: Path | None = None) -> list[Path]:
    """Every ``.cardz`` file in the folder (the bundled one by default), sorted by file name."""
    folder = RULESETS_DIR if folder is None else folder
    if not folder.is_dir():
        raise CardzError(f"no rule-set folder at {folder}")
    return sorted(folder.glob("*" + SUFFIX))


def _summary(path: Path) -> Ruleset:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CardzError(f"{path}: cannot be read as JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("setup"), dict):
        data = data["setup"]  # the export wrapper {"schemaVersion": 1, "setup": {...}}
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise CardzError(f"{path}: a game file is an object with a 'name'")
    family = data.get("family")
    aliases = data.get("aliases")
    return Ruleset(name=data["name"], family=family if isinstance(family, str) else None,
                   aliases=tuple(a for a in aliases if isinstance(a, str)) if isinstance(aliases, list) else (),
                   path=path)


def bundled(folder: Path | None = None) -> list[Ruleset]:
    """The games in the folder, sorted by name (case-insensitively)."""
    return sorted((_summary(p) for p in ruleset_paths(folder)), key=lambda r: (r.name.lower(), r.path.name))

