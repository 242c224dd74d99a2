"""The program cache: a game file's expression programs, compiled once by the loader and read back
from disk by the next process that loads the same file, so that it imports neither the
expression parser (lark) nor the compiler: 80-90 ms of a command's start on a game with
expressions (docs/benchmarks.md, "Start-up").

An entry is found by a key, the SHA-256 of: the entry format, the game's text, ``lenient``,
the registry's plugin names, and the path, size and modification time of every file of the
``cardz_core`` package, of each plugin's package or module and of lark's package. Those files
are walked once per process, at its first key (about 1.7 ms, which a command loading many games
paid per game), so what is safe is said per process:

- a process started after any change to the game's file, to cardz, to a plugin or to lark has
  other keys than those written before it: a stale entry is never read (it ages out, below);
- a process in which one of those files is newer than its start (``cardz_core.began``)
  may run older code than the files hold: it neither reads nor writes entries;
- a process whose files changed after its first key (they are walked again before a write,
  which follows a compile anyway) writes nothing: its programs may come from code of either
  time.

A registry with a plugin that is not a module (an object made at run time, ``Registry.sources``
None) is never cached. An entry is written only for a game whose expressions all check clean,
and only when each program reads back from JSON equal to itself.

An entry is JSON (never pickle): ``{"format", "key", "programs": [[text, pointer, context,
self depot, program], ...]}``, each program read back by ``Program.from_json``, which refuses
what the compiler never writes. One that cannot be read, is not JSON of that shape, holds
another key or a bad program, or is over ``MAX_CACHE_ENTRY_BYTES`` is ignored, and the
programs are compiled and written again. A cache that cannot be written is left alone: the
command works as without it.

Where: ``CARDZ_CACHE_DIR``, else ``$XDG_CACHE_HOME/cardz``, else ``~/.cache/cardz`` (made
private to the user). ``CARDZ_NO_CACHE=1`` turns the cache off. The folder keeps at most
``MAX_CACHE_ENTRIES`` entries; writing one past that removes those read longest ago (reading an
entry marks it).
"""

from __future__ import annotations

import importlib.util
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Iterable

from cardz_core import limits
from cardz_core.began import IMPORTED_NS
from cardz_core.expr.api import Key, programs_for
from cardz_core.expr.check import expressions
from cardz_core.expr.program import Program, ProgramError
from cardz_core.problems import Problem

ENV_DIR = "CARDZ_CACHE_DIR"
ENV_OFF = "CARDZ_NO_CACHE"
ENTRY_FORMAT = 1
SUFFIX = ".json"
CARDZ_DIR = Path(__file__).resolve().parent.parent


def folder() -> Path | None:
    """The cache folder, or None when the cache is off."""
    if os.environ.get(ENV_OFF, "").strip() not in ("", "0"):
        return None
    named = os.environ.get(ENV_DIR)
    if named:
        return Path(named)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardz"


def _files(root: str) -> list[tuple[str, int, int]]:
    """(path, modification time in ns, size) of the file ``root`` or of every file under the
    folder ``root`` (bytecode folders left out), sorted."""
    out: list[tuple[str, int, int]] = []
    stack = [root]
    while stack:
        here = stack.pop()
        try:
            if not os.path.isdir(here):
                info = os.stat(here)
                out.append((here, info.st_mtime_ns, info.st_size))
                continue
            with os.scandir(here) as entries:
                for e in entries:
                    if e.is_dir(follow_symlinks=False):
                        if e.name != "__pycache__":
                            stack.append(e.path)
                    else:
                        info = e.stat()
                        out.append((e.path, info.st_mtime_ns, info.st_size))
        except OSError:
            out.append((here, -1, -1))  # gone or unreadable: still a part of the key
    return sorted(out)


def _lark_roots() -> list[str]:
    """Where lark is installed, found without importing it."""
    spec = importlib.util.find_spec("lark")
    return list(spec.submodule_search_locations or []) if spec is not None else []


def _walk(roots: tuple[str, ...]) -> tuple[bytes, int]:
    """A digest of the path, modification time and size of every file under ``roots``, and the
    latest of those modification times."""
    import hashlib  # for games with expressions only: OpenSSL's start is 4 ms

    h, latest = hashlib.sha256(), 0
    for root in roots:
        for path, mtime, size in _files(root):
            h.update(f"{path}\0{mtime}\0{size}\0".encode("utf-8", "surrogatepass"))
            latest = max(latest, mtime)
    return h.digest(), latest


# per process, by the registry's plugin sources: (the folders and files walked, their digest),
# or None when one of them changed after the process began importing cardz: the code it runs
# may then be older than the files, and it neither reads nor writes entries.
_SOURCES: dict[tuple[str, ...], tuple[tuple[str, ...], bytes] | None] = {}


def _sources(registry: Any) -> tuple[tuple[str, ...], bytes] | None:
    """The folders and files whose change must change every key of ``registry`` (cardz_core,
    each plugin, lark) and their digest, walked once per process; None when the registry's
    plugins are not all modules, or one of those files changed after this process began
    importing cardz (``cardz_core.began``)."""
    sources = getattr(registry, "sources", None)
    if sources is None:
        return None
    if sources not in _SOURCES:
        roots = (str(CARDZ_DIR), *sources, *_lark_roots())
        digest, latest = _walk(roots)
        _SOURCES[sources] = (roots, digest) if latest <= IMPORTED_NS else None
    return _SOURCES[sources]


def unchanged_since_first_key(registry: Any) -> bool:
    """Whether the sources of ``registry`` (``_sources``) are on disk as this process first
    walked them: else what it compiled may come from code of either time, and it writes no
    entry."""
    known = _sources(registry)
    return known is not None and _walk(known[0])[0] == known[1]


def entry_key(text: str, registry: Any, lenient: bool) -> str | None:
    """The key of the entry of a game with ``text``, loaded with ``registry``; None when the
    registry's plugins are not all modules or the process's sources changed after it began
    (``_sources``)."""
    import hashlib

    known = _sources(registry)
    if known is None:
        return None
    h = hashlib.sha256(f"cardz program cache {ENTRY_FORMAT}\0{int(lenient)}\0".encode())
    for name in registry.plugin_names:
        h.update(name.encode("utf-8", "surrogatepass") + b"\0")
    h.update(known[1])
    h.update(text.encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def _decode(data: Any, key: str) -> list[tuple[Key, Program]] | None:
    """The programs of an entry's JSON ``data``, or None when it is not a good entry of ``key``."""
    if not isinstance(data, dict) or data.get("format") != ENTRY_FORMAT or data.get("key") != key:
        return None
    items = data.get("programs")
    if not isinstance(items, list):
        return None
    out: list[tuple[Key, Program]] = []
    try:
        for text, ptr, context, self_depot, program in items:
            if not (isinstance(text, str) and isinstance(ptr, str) and isinstance(context, str)
                    and (self_depot is None or isinstance(self_depot, str))):
                return None
            out.append(((text, ptr, context, self_depot), Program.from_json(program)))
    except (ProgramError, KeyError, TypeError, ValueError):
        return None
    return out


def read_entry(where: Path, key: str) -> list[tuple[Key, Program]] | None:
    """The programs kept under ``key`` in the folder ``where``, or None (no good entry)."""
    path = where / (key + SUFFIX)
    try:
        with open(path, "rb") as f:
            if os.fstat(f.fileno()).st_size > limits.MAX_CACHE_ENTRY_BYTES:
                return None
            raw = f.read(limits.MAX_CACHE_ENTRY_BYTES + 1)
        data = json.loads(raw)
    except (OSError, ValueError):  # unreadable, not UTF-8 or not JSON
        return None
    if len(raw) > limits.MAX_CACHE_ENTRY_BYTES:
        return None
    found = _decode(data, key)
    if found is not None:
        try:
            os.utime(path)  # read now: the last to go when the folder is full
        except OSError:
            pass
    return found


def _encoded(key: str, programs: Iterable[tuple[Key, Program]]) -> bytes | None:
    """The entry's bytes, or None when a program does not read back from JSON as itself."""
    items = []
    for (text, ptr, context, self_depot), program in programs:
        doc = program.to_json()
        if Program.from_json(json.loads(json.dumps(doc))) != program:
            return None
        items.append([text, ptr, context, self_depot, doc])
    return json.dumps({"format": ENTRY_FORMAT, "key": key, "programs": items},
                      separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")


def _make_room(where: Path) -> None:
    """Remove the entries read or written longest ago until one more fits."""
    try:
        entries = [(e.stat().st_mtime_ns, e.path) for e in os.scandir(where)
                   if e.name.endswith(SUFFIX) and e.is_file(follow_symlinks=False)]
    except OSError:
        return
    entries.sort()
    for _, path in entries[:max(0, len(entries) - limits.MAX_CACHE_ENTRIES + 1)]:
        try:
            os.unlink(path)
        except OSError:
            pass


def write_entry(where: Path, key: str, programs: Iterable[tuple[Key, Program]]) -> bool:
    """Keep ``programs`` under ``key`` in the folder ``where``; whether the entry was written
    (not when it would be over ``MAX_CACHE_ENTRY_BYTES``, or the folder cannot be written)."""
    data = _encoded(key, programs)
    if data is None or len(data) > limits.MAX_CACHE_ENTRY_BYTES:
        return False
    try:
        where.mkdir(mode=0o700, parents=True, exist_ok=True)
        _make_room(where)
        fd, tmp = tempfile.mkstemp(dir=where, suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, where / (key + SUFFIX))  # whole or not at all, for a reader
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


def checked(spec: Any, registry: Any, text: str, lenient: bool,
            check: Callable[[Any, Any], Iterable[Problem]]) -> list[Problem]:
    """``check(spec, registry)``, the loader's expression check, with the programs of the
    cache's entry for the game put on the spec first (so the check compiles none of them), and
    the programs written to the cache when it had none and the check found no problem."""
    where = folder()
    has_expressions = next(iter(expressions(spec, registry)), None) is not None
    key = entry_key(text, registry, lenient) if where is not None and has_expressions else None
    programs = programs_for(spec, registry)
    found = read_entry(where, key) if where is not None and key is not None else None
    if found is not None:
        programs.keep_all(found)
    problems = list(check(spec, registry))
    if where is not None and key is not None and not problems:
        kept = programs.kept()
        if (found is None or len(kept) > len(found)) and unchanged_since_first_key(registry):
            write_entry(where, key, kept)
    return problems
