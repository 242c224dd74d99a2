"""Text from a game file made safe for where it is shown: a terminal, JSON, HTML or SVG.

A game file may hold any Unicode in its names, descriptions and reasons, including characters
that a terminal obeys rather than shows (ESC starts a sequence that can clear the screen or set
the window title), characters that reorder what is shown (bidirectional overrides), and
characters XML refuses. Everything the CLI writes goes through ``terminal`` (``SafeStream``
applies it to every write), JSON goes through ``json_text``, and markup through ``markup``; each
turns such a character into its visible escape (``\\x1b``, ``\\u202e``), so the text is shown
literally and nothing from a file acts on the reader's screen or document.
"""

from __future__ import annotations

import json
import re
import sys
from contextlib import contextmanager
from html import escape
from typing import IO, Any, Iterator

# C0 controls but tab and newline, DEL and the C1 controls, the bidirectional marks, embeddings,
# overrides and isolates, the line and paragraph separators, the byte-order mark, lone
# surrogates (they cannot be encoded) and the two non-characters XML refuses.
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069"
                    "\ufeff\ud800-\udfff\ufffe\uffff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _json_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def terminal(text: str) -> str:
    """``text`` with every character a terminal would act on written as its escape."""
    return UNSAFE.sub(_visible, text)


def markup(text: str) -> str:
    """``text`` for HTML or SVG: the terminal escapes, then ``&``, ``<``, ``>`` and quotes."""
    return escape(terminal(text), quote=True)


def json_text(value: Any, indent: int | None = 2) -> str:
    """``value`` as JSON with non-ASCII text kept readable, but every unsafe character written
    as a ``\\uXXXX`` escape (``json.dumps`` escapes only C0 controls), so the text is still the
    same JSON value and safe on a terminal."""
    return UNSAFE.sub(_json_escape, json.dumps(value, indent=indent, ensure_ascii=False))


class SafeStream:
    """A text stream that writes everything through ``terminal``; other attributes are the
    wrapped stream's (``raw`` is that stream, for writers such as a progress bar that send
    their own control sequences)."""

    def __init__(self, raw: IO[str]) -> None:
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(terminal(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def raw_stream(stream: Any) -> Any:
    """The stream under a ``SafeStream`` (or the stream itself)."""
    return stream.raw if isinstance(stream, SafeStream) else stream


@contextmanager
def safe_output() -> Iterator[None]:
    """Standard output and error as ``SafeStream``s for the duration, restored after."""
    out, err = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = SafeStream(out), SafeStream(err)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err
