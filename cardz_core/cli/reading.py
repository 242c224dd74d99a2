"""Reading a document or move argument: a regular file, ``-`` for standard input, or the text
itself, always as UTF-8, within ``MAX_DOCUMENT_BYTES`` and ``MAX_NESTING``.

An argument that cannot name a file (a NUL byte, a name part over ``NAME_MAX`` bytes or a
whole over ``PATH_MAX``) is never tried as one; a directory, a device or a pipe given as a path
is refused before anything is read, so ``/dev/zero`` cannot fill the memory. JSON is read
strictly: a key written twice or a number that is not finite (``NaN``, ``1e999``) is refused,
naming its JSON pointer.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from typing import Any

from cardz_core.limits import MAX_DOCUMENT_BYTES, MAX_NESTING
from cardz_core.problems import CardzError, pointer
from cardz_core.spec.source import (BOM, JsonObject, json_fault, json_whole_number, pairs_hook,
                                     text_depth)

NAME_MAX = 255  # bytes in one part of a path (Linux, macOS)
PATH_MAX = 4096  # bytes in a whole path (Linux)


class _NotFinite(float):
    """A number JSON allows to be written but not held: ``NaN``, ``Infinity``, ``1e999``."""

    def __new__(cls, text: str) -> "_NotFinite":
        value = super().__new__(cls, "nan")
        value.text = text
        return value

    text: str


def _float(text: str) -> float:
    value = float(text)
    return value if value - value == 0 else _NotFinite(text)


def could_be_path(arg: str) -> bool:
    """Whether ``arg`` may name a file at all (so it is worth looking for one)."""
    if "\x00" in arg:
        return False
    try:
        raw = os.fsencode(arg)
    except UnicodeEncodeError:
        return False
    return 0 < len(raw) <= PATH_MAX and all(len(part) <= NAME_MAX for part in raw.split(b"/"))


def _bounded(data: bytes, what: str) -> str:
    if len(data) > MAX_DOCUMENT_BYTES:
        raise CardzError(f"{what} is over {MAX_DOCUMENT_BYTES:,} bytes (limits.MAX_DOCUMENT_BYTES)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CardzError(f"{what} is not UTF-8 text: byte {exc.start} is 0x{data[exc.start]:02x}") \
            from None


def read_file(path: str, what: str) -> str:
    """The text of the regular file at ``path``, bounded; anything else is refused."""
    try:
        info = os.stat(path)
    except OSError as exc:
        raise CardzError(f"{what} {path!r}: {exc.strerror.lower() if exc.strerror else exc}") \
            from None
    if stat.S_ISDIR(info.st_mode):
        raise CardzError(f"{what} {path!r} is a directory, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise CardzError(f"{what} {path!r} is not a regular file")
    if info.st_size > MAX_DOCUMENT_BYTES:
        raise CardzError(f"{what} {path!r} is over {MAX_DOCUMENT_BYTES:,} bytes "
                         "(limits.MAX_DOCUMENT_BYTES)")
    try:
        with open(path, "rb") as f:
            return _bounded(f.read(MAX_DOCUMENT_BYTES + 1), f"{what} {path!r}")
    except OSError as exc:
        raise CardzError(f"{what} {path!r}: cannot read: {exc.strerror}") from None


def read_stdin(what: str) -> str:
    """Standard input, bounded, as UTF-8."""
    where = f"{what} on standard input"
    binary = getattr(sys.stdin, "buffer", None)
    if binary is None:  # a text stream put in its place (tests, embedding)
        return _bounded(sys.stdin.read(MAX_DOCUMENT_BYTES + 1).encode("utf-8", "surrogatepass"),
                        where)
    return _bounded(binary.read(MAX_DOCUMENT_BYTES + 1), where)


def names_a_file(arg: str) -> bool:
    """Whether a document argument names a file: it is neither ``-`` (standard input) nor
    inline JSON."""
    return arg != "-" and not arg.lstrip().startswith(("{", "[", '"'))


def argument_text(arg: str, what: str, *, inline: bool) -> tuple[str, bool]:
    """The text an argument stands for, and whether it came from a file or standard input:
    ``-``, a file that exists, or (``inline``) the argument itself."""
    if arg == "-":
        return read_stdin(what), True
    if not names_a_file(arg):
        return arg, False
    if could_be_path(arg) and os.path.lexists(arg):
        return read_file(arg, what), True
    if inline:
        return arg, False
    raise CardzError(f"{what} {arg!r}: no such file, and not inline JSON")


def parse_document(text: str, what: str) -> Any:
    """``text`` as JSON, refusing what the file reader of game files refuses too: deeper than
    ``MAX_NESTING``, keys written twice, numbers that are not finite."""
    if len(text) > MAX_DOCUMENT_BYTES:
        raise CardzError(f"{what} is over {MAX_DOCUMENT_BYTES:,} bytes (limits.MAX_DOCUMENT_BYTES)")
    if text_depth(text) > MAX_NESTING:
        raise CardzError(f"{what} is nested deeper than {MAX_NESTING} levels (limits.MAX_NESTING)")
    text = text.removeprefix(BOM)
    try:
        data = json.loads(text, object_pairs_hook=pairs_hook, parse_float=_float,
                          parse_int=json_whole_number, parse_constant=_NotFinite)
    except json.JSONDecodeError as exc:
        raise CardzError(f"{what} is not valid JSON: {json_fault(text, exc)}") from None
    flaw = _first_flaw(data)
    if flaw is not None:
        raise CardzError(f"{what}: {flaw[1]}", flaw[0])
    return data


def _first_flaw(data: Any) -> tuple[str, str] | None:
    """(JSON pointer, message) of the first key written twice or number that is not finite."""
    stack: list[tuple[Any, tuple[object, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _NotFinite):
            return pointer(*path), f"{value.text} is not a finite number"
        if isinstance(value, JsonObject) and value.duplicates:
            key = value.duplicates[0]  # at the key's own pointer, as in a game file
            return pointer(*path, key), f"key {key!r} is written twice"
        if isinstance(value, dict):
            stack.extend((v, path + (k,)) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((v, path + (i,)) for i, v in reversed(list(enumerate(value))))
    return None


def read_document(arg: str, what: str) -> Any:
    """A board, move or log argument: a path, ``-`` for standard input, or inline JSON."""
    text, _ = argument_text(arg, what, inline=False)
    return parse_document(text, what)
