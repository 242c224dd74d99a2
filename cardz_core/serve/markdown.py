"""A game's ``description`` (Markdown) as HTML, safely: every character of the text is escaped
(``safe_text.markup``) before the few tags below are put around it, so nothing a file says
becomes a tag, an attribute or a link.

What is read: paragraphs (separated by blank lines), ``#`` headings, lists (``-``, ``*`` or
``+`` bullets, ``1.`` numbers; a line indented under an item continues it), fenced code blocks
(`````), inline ``code``, ``**strong**`` and ``*emphasis*`` (or ``_emphasis_``). Everything
else is shown as written.
"""

from __future__ import annotations

import re

from cardz_core.safe_text import markup

MAX_HEADING = 6
_BULLET = re.compile(r"^\s{0,3}([-*+])\s+(.*)$")
_NUMBER = re.compile(r"^\s{0,3}(\d{1,9})[.)]\s+(.*)$")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s{0,3}```")
# inline marks, on text already escaped (so `*`, `_` and backquotes are as written)
_CODE = re.compile(r"`([^`]+)`")
_STRONG = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_EM = re.compile(r"\*(?=\S)(.+?)(?<=\S)\*|(?<![\w])_(?=\S)(.+?)(?<=\S)_(?![\w])")


def inline(text: str) -> str:
    """One line or paragraph of text with its inline marks; code spans are kept as written."""
    parts = _CODE.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{markup(part)}</code>")
            continue
        escaped = markup(part)
        escaped = _STRONG.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", escaped)
        escaped = _EM.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", escaped)
        out.append(escaped)
    return "".join(out)


def to_html(text: str) -> str:
    """The HTML of Markdown ``text``: block elements, one per line."""
    blocks: list[str] = []
    paragraph: list[str] = []
    items: list[list[str]] = []
    list_tag = ""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    def flush() -> None:
        nonlocal list_tag
        if paragraph:
            blocks.append(f"<p>{inline(' '.join(paragraph))}</p>")
            paragraph.clear()
        if items:
            body = "".join(f"<li>{inline(' '.join(item))}</li>" for item in items)
            blocks.append(f"<{list_tag}>{body}</{list_tag}>")
            items.clear()
            list_tag = ""

    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if _FENCE.match(line):
            flush()
            code = []
            while i < len(lines) and not _FENCE.match(lines[i]):
                code.append(lines[i])
                i += 1
            i += 1  # the closing fence (or the end of the text)
            blocks.append(f"<pre><code>{markup(chr(10).join(code))}</code></pre>")
            continue
        if not line.strip():
            flush()
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            level = min(len(heading.group(1)), MAX_HEADING)
            blocks.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
            continue
        item = _BULLET.match(line) or _NUMBER.match(line)
        if item:
            tag = "ul" if item.re is _BULLET else "ol"
            if paragraph or (items and tag != list_tag):
                flush()
            list_tag = tag
            items.append([item.group(2)])
            continue
        if items and (line.startswith((" ", "\t")) or not paragraph):
            items[-1].append(line.strip())  # an item's continuation line
            continue
        paragraph.append(line.strip())
    flush()
    return "\n".join(blocks)
