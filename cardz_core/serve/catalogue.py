"""What a server offers: the bundled games, the game files given on the command line (a
``.cardz`` file, or every ``.cardz`` file in a folder) and the simulation reports among them
(a ``.html`` file, or every ``.html`` file in a folder).

The API names a game or a report by an id from this catalogue, never by a path, so a request
cannot make the server read any other file. A given file is read again each time a game is
started from it, so a designer editing the file sees the change on the next deal.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import attrs

from cardz_core.limits import MAX_DOCUMENT_BYTES, SERVE_MAX_GAMES
from cardz_core.problems import CardzError
from cardz_core.rulesets import SUFFIX, bundled, summary

if TYPE_CHECKING:
    from cardz_core.engine.game import Game

REPORT_SUFFIX = ".html"


@attrs.frozen
class Entry:
    """A game on offer: ``id`` as the API names it, the game's name and family as its file says
    (a file that cannot be read shows its file name; starting it reports why), and its path."""

    id: str
    name: str
    family: str | None
    source: str  # "bundled" or "file"
    path: Path

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"id": self.id, "name": self.name, "family": self.family,
                                  "source": self.source}
        if self.source == "file":
            out["file"] = str(self.path)
        return out

    def open(self) -> Game:
        """The game, loaded, checked and compiled afresh (a CardzError names every problem)."""
        from cardz_core.rulesets import open_game

        return open_game(self.path)


class Compiled:
    """Compiled games kept for reuse, since compiling a two-pack game takes a good part of a
    second: at most ``SERVE_MAX_GAMES``, the one used longest ago dropped first. A ``Game`` is not
    thread-safe, so each comes with the lock its users hold; a game file whose text changed is
    compiled again."""

    def __init__(self) -> None:
        self._kept: OrderedDict[str, tuple[Game, threading.Lock]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, entry: Entry) -> tuple[Game, threading.Lock]:
        try:
            text = entry.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            text = None  # open() says why
        with self._lock:
            kept = self._kept.get(entry.id)
            if kept is not None and text is not None and kept[0].spec.text == text:
                self._kept.move_to_end(entry.id)
                return kept
        made = (entry.open(), threading.Lock())
        with self._lock:
            self._kept[entry.id] = made
            while len(self._kept) > SERVE_MAX_GAMES:
                self._kept.popitem(last=False)
        return made


@attrs.frozen
class Report:
    id: str
    name: str
    path: Path

    def read(self) -> bytes:
        try:
            size = self.path.stat().st_size
            if size > MAX_DOCUMENT_BYTES:
                raise CardzError(f"report {self.name}: over {MAX_DOCUMENT_BYTES:,} bytes "
                                 "(limits.MAX_DOCUMENT_BYTES)")
            return self.path.read_bytes()
        except OSError as exc:
            raise CardzError(f"report {self.name}: cannot read: {exc.strerror}") from None


class Catalogue:
    """The games (bundled first, then the given files in the order given) and the reports."""

    def __init__(self, given: Sequence[str | Path] = ()) -> None:
        self.games: list[Entry] = [Entry(r.path.stem, r.name, r.family, "bundled", r.path)
                                   for r in bundled()]
        self.reports: list[Report] = []
        for path in _expand(given):
            if path.suffix == REPORT_SUFFIX:
                self.reports.append(Report(f"report-{len(self.reports) + 1}", path.name, path))
            else:
                name, family = _title(path)
                self.games.append(Entry(f"file-{sum(e.source == 'file' for e in self.games) + 1}",
                                        name, family, "file", path))
        self._games = {e.id: e for e in self.games}
        self.compiled = Compiled()
        self._reports = {r.id: r for r in self.reports}

    def game(self, ident: object) -> Entry:
        entry = self._games.get(ident) if isinstance(ident, str) else None
        if entry is None:
            raise CardzError(f"no game {ident!r} on this server (GET /api/games lists them)",
                             "/game")
        return entry

    def report(self, ident: str) -> Report | None:
        return self._reports.get(ident)


def _expand(given: Sequence[str | Path]) -> list[Path]:
    """The files the arguments stand for; an argument that is neither is refused with the
    reason, before the server starts."""
    out: list[Path] = []
    for arg in given:
        path = Path(arg)
        if path.is_dir():
            out.extend(p for p in sorted(path.iterdir())
                       if p.suffix in (SUFFIX, REPORT_SUFFIX) and p.is_file())
        elif path.is_file():
            if path.suffix not in (SUFFIX, REPORT_SUFFIX):
                raise CardzError(f"{arg}: neither a {SUFFIX} game file nor a {REPORT_SUFFIX} "
                                 "simulation report")
            out.append(path)
        else:
            raise CardzError(f"{arg}: no such file or folder")
    return out


def _title(path: Path) -> tuple[str, str | None]:
    """The name and family a game file gives, without checking the rest (as ``cardz games``)."""
    try:
        found = summary(path)
    except CardzError:
        return path.name, None
    return found.name, found.family
