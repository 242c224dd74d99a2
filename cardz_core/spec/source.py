"""Turning a source (a path, JSON text, or a parsed dict) into JSON data, within the limits."""

from __future__ import annotations

import json
import stat
from pathlib import Path
from typing import Any

from cardz_core.limits import MAX_FILE_BYTES, MAX_NESTING
from cardz_core.problems import Problem

_NAME_CHARS = 4096  # longer text is taken for a broken game, not a mistyped path


class JsonObject(dict):
    """A parsed JSON object that remembers keys written twice (json.loads keeps only the last)."""

    duplicates: tuple[str, ...] = ()


def pairs_hook(pairs: list[tuple[str, Any]]) -> JsonObject:
    obj = JsonObject()
    dups = []
    for key, value in pairs:
        if key in obj:
            dups.append(key)
        obj[key] = value
    if dups:
        obj.duplicates = tuple(dups)
    return obj


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def json_whole_number(text: str) -> int:
    """A JSON whole number. Python converts none of more than 4,300 digits; a longer one is
    read as a power of ten of its size, so the loader refuses it at its pointer as past the
    limit, named by its size."""
    digits = len(text.lstrip("-"))
    if digits <= 1000:
        return int(text)
    return (-1 if text.startswith("-") else 1) * 10 ** (digits - 1)


def text_depth(text: str) -> int:
    """The deepest nesting of brackets outside strings, found without parsing."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _data_depth(value: Any) -> int:
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, (list, tuple)):
            children = list(item)
        else:
            continue
        deepest = max(deepest, depth)
        if depth > MAX_NESTING:
            break
        stack.extend((child, depth + 1) for child in children)
    return deepest


BOM = "\ufeff"  # what some editors write first in a UTF-8 file; JSON readers may skip it


def json_fault(text: str, exc: json.JSONDecodeError) -> str:
    """Why ``text`` is not JSON, where, in a reader's words rather than the parser's: an empty
    text, a comma after the last item (at the comma), a text cut short, a string never closed
    (where it began)."""
    if not text.strip():
        return "it is empty: no JSON value at all"
    if exc.pos < len(text) and text[exc.pos] in "}]" and exc.msg in (
            "Expecting property name enclosed in double quotes", "Expecting value"):
        comma = len(text[:exc.pos].rstrip()) - 1
        if comma >= 0 and text[comma] == ",":
            line = text.count("\n", 0, comma) + 1
            column = comma - text.rfind("\n", 0, comma)
            return (f"line {line} column {column}: a comma before the closing "
                    f"'{text[exc.pos]}' (JSON allows none after the last item)")
    if exc.pos >= len(text.rstrip()):
        return (f"line {exc.lineno} column {exc.colno}: the text ends before the JSON value "
                "does (a closing '}' or ']' missing?)")
    if exc.msg.startswith("Unterminated string"):
        return f"line {exc.lineno} column {exc.colno}: a string begins here and is never closed"
    return f"line {exc.lineno} column {exc.colno}: {exc.msg}"


def _looks_like_a_name(text: str) -> bool:
    """Whether text that is not JSON reads as a file path or a game's name: one short line that
    does not open a JSON value."""
    t = text.strip()
    return 0 < len(t) <= _NAME_CHARS and "\n" not in t and not t.startswith(("{", "[", '"'))


def read_source(source: Path | str | dict, file: str) -> tuple[Any, str, list[Problem]]:
    """Return ``(data, text, problems)``; any problem means the source could not be read at all."""
    if isinstance(source, dict):
        if _data_depth(source) > MAX_NESTING:
            return None, "", [Problem("", f"nested deeper than {MAX_NESTING} levels", file=file)]
        try:
            text = json.dumps(source, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        except (TypeError, ValueError) as exc:
            return None, "", [Problem("", f"not JSON data: {exc}", file=file)]
        return source, text, []
    if isinstance(source, Path):
        try:
            info = source.stat()
            if stat.S_ISDIR(info.st_mode):
                return None, "", [Problem("", "is a directory, not a game file", file=file)]
            if not stat.S_ISREG(info.st_mode):  # a device (/dev/zero) or a pipe never ends
                return None, "", [Problem("", "not a regular file", file=file)]
            if info.st_size > MAX_FILE_BYTES:
                return None, "", [Problem("", f"file is {info.st_size} bytes; the limit is "
                                              f"{MAX_FILE_BYTES}", file=file)]
            with source.open("rb") as f:  # bounded: the file may grow while it is read
                text = f.read(MAX_FILE_BYTES + 1).decode("utf-8")
        except UnicodeDecodeError as exc:  # the words every command uses, not the codec's
            return None, "", [Problem("", f"not UTF-8 text (byte {exc.start})", file=file)]
        except OSError as exc:
            return None, "", [Problem("", f"cannot read the file: {exc.strerror}", file=file)]
    elif isinstance(source, str):
        text = source
    else:
        return None, "", [Problem("", f"cannot read a game from {type(source).__name__}", file=file)]
    text = text.removeprefix(BOM)
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_FILE_BYTES:
        return None, text, [Problem("", f"file is {size} bytes; the limit is {MAX_FILE_BYTES}", file=file)]
    if text_depth(text) > MAX_NESTING:
        return None, text, [Problem("", f"nested deeper than {MAX_NESTING} levels", file=file)]
    try:
        data = json.loads(text, object_pairs_hook=pairs_hook, parse_constant=_no_constant,
                          parse_int=json_whole_number)
    except json.JSONDecodeError as exc:
        if isinstance(source, str) and _looks_like_a_name(text):
            return None, text, [Problem("", f"{text!r} is not JSON text: a string is read as the "
                                            "game's JSON; to open a file or a bundled game by "
                                            "name, use cardz_core.open_game (or pass a Path)",
                                        file=file)]
        return None, text, [Problem("", f"not valid JSON: {json_fault(text, exc)}", file=file)]
    except (RecursionError, ValueError) as exc:
        return None, text, [Problem("", f"not valid JSON: {exc}", file=file)]
    return data, text, []
