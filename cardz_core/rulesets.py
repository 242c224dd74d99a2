"""The bundled rule sets, shipped as the package data of ``cardz_rulesets`` (the source folder
``rulesets/``), and opening a game by path or by bundled name.

``bundled()`` lists each game's name, family and file without compiling anything: it reads only
the top-level ``name``, ``family`` and ``aliases`` of each file, so a listing stays fast and a
file with rule problems still appears (``cardz check`` reports those).

A bundled game is named by its file name without ``.cardz`` (``klondike_draw3``), its name
(``Klondike (draw 3)``) or one of its aliases, compared case-insensitively. ``open_game`` and
every CLI command that takes a game file take such a name as well as a path.
"""

from __future__ import annotations

import json
import os
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

import attrs

from cardz_core.problems import CardzError

if TYPE_CHECKING:
    from cardz_core.engine import Game
    from cardz_core.registry import Registry

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


def summary(path: Path) -> Ruleset:
    """The name, family and aliases a game file gives, without checking the rest."""
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
    return sorted((summary(p) for p in ruleset_paths(folder)), key=lambda r: (r.name.lower(), r.path.name))



def find(name: str, folder: Path | None = None) -> Ruleset | None:
    """The bundled game ``name`` names, or None. An alias shared by two games names neither: a
    CardzError lists them."""
    key = name.strip().lower()
    # a file name reads only that file (start time); names and aliases read every file
    named = [p for p in ruleset_paths(folder) if p.stem.lower() == key]
    if len(named) == 1:
        return summary(named[0])
    games = bundled(folder)
    by_file = [g for g in games if g.path.stem.lower() == key]
    if by_file:
        return by_file[0]
    by_name = [g for g in games if g.name.lower() == key]
    if by_name:
        return by_name[0]
    by_alias = [g for g in games if key in (a.lower() for a in g.aliases)]
    if len(by_alias) > 1:
        listed = ", ".join(f"{g.name} ({g.path.stem})" for g in by_alias)
        raise CardzError(f"{name!r} is another name of more than one bundled game: {listed}; "
                         "give the file name")
    return by_alias[0] if by_alias else None


def game_file(path_or_name: str | os.PathLike[str]) -> Path:
    """``path_or_name`` when it is a file, else the file of the bundled game it names."""
    if not isinstance(path_or_name, (str, os.PathLike)) or not str(os.fspath(path_or_name)):
        # Path("") is the current folder, and Path(None) a TypeError from inside pathlib
        raise CardzError(f"a game is a file path or a bundled game's name, not {path_or_name!r}")
    path = Path(path_or_name)
    try:
        is_file = path.is_file()
    except OSError:  # a name no file can have (too long for the file system): not a file
        is_file = False
    if is_file:
        return path
    found = find(str(path_or_name))
    if found is not None:
        return found.path
    try:
        there = path.exists()  # a folder or a device: there, but no game file
    except OSError:
        there = False
    if there:
        why = "is a directory, not a game file" if path.is_dir() else "is not a regular file"
        raise CardzError(f"{path_or_name}: {why}")
    raise CardzError(f"{path_or_name}: {no_game(path_or_name)}")


def no_game(path_or_name: str | os.PathLike[str]) -> str:
    """The one wording, in every command, for a game argument that names nothing."""
    import difflib  # for a name that names nothing only (start time)

    words = [g.path.stem for g in bundled()]
    close = difflib.get_close_matches(str(path_or_name).lower(), words, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else " ('cardz games' lists them)"
    return f"no such game file, and no bundled game of that name{hint}"


def open_game(path_or_name: str | os.PathLike[str], *, registry: Registry | None = None) -> Game:
    """Load, check and compile a game: a ``.cardz`` file, or a bundled game by name (see the
    module docstring). Raises CardzError carrying every problem. ``registry`` defaults to the
    builtin and installed plugins."""
    from cardz_core.engine import compile
    from cardz_core.registry import default_registry
    from cardz_core.spec import load_game

    path = game_file(path_or_name)
    registry = registry or default_registry()
    return compile(load_game(path, registry=registry, file=str(path)), registry)
