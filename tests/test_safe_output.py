"""Text from a game file never acts on a terminal, a report or an SVG (cardz_core.safe_text)."""

from __future__ import annotations

import io
import json
import sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from cardz_core.cli.main import main
from cardz_core.safe_text import UNSAFE, json_text, markup, terminal

ROOT = Path(__file__).resolve().parents[1]
NAME = "Klondike\u001b[2J\u001b]0;owned\u0007 <script>alert(1)</script> \"q\" 'a'"
DESCRIPTION = "<script>alert('x')</script> \u009b1m \u202eevil"
WASTE = "wa\u001b[31mste\u202e"  # a depot name the rules refer to everywhere


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Path:
    text = (ROOT / "rulesets" / "klondike.cardz").read_text(encoding="utf-8")
    doc = json.loads(text.replace('"waste"', json.dumps(WASTE)))
    doc["name"], doc["description"] = NAME, DESCRIPTION
    path = tmp_path_factory.mktemp("hostile") / "hostile.cardz"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str = "") -> tuple[int, str]:
    """Exit code and everything written to standard output and error."""
    old, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = old
    out, err = capsys.readouterr()
    return code, out + err


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\r", "\x7f", "\x85", "\x9b", "\u202e",
                                  "\u2066", "\u2028", "\ufeff", "\ud800"])
def test_terminal_escapes_every_control_character(char: str) -> None:
    shown = terminal(f"a{char}b")
    assert not UNSAFE.search(shown)
    assert shown == f"a\\x{ord(char):02x}b" if ord(char) < 0x100 else f"a\\u{ord(char):04x}b"


def test_terminal_keeps_ordinary_text() -> None:
    text = "Pyramid ♠ 10H ~QS\tcolumn-2\n€ 日本 é"
    assert terminal(text) == text


def test_json_text_is_the_same_value_and_safe() -> None:
    value = {"name": NAME, "d": [DESCRIPTION, WASTE], "n": 3}
    shown = json_text(value)
    assert json.loads(shown) == value
    assert not UNSAFE.search(shown.replace("\n", ""))


def test_markup_escapes_tags_quotes_and_controls() -> None:
    assert markup('<b a="1">&\x1b') == "&lt;b a=&quot;1&quot;&gt;&amp;\\x1b"


def _assert_safe(output: str) -> None:
    assert not UNSAFE.search(output), repr(UNSAFE.search(output))


def test_every_text_command_escapes_file_text(hostile: Path, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    game = str(hostile)
    code, board = run(capsys, "deal", game, "--seed", "3")
    assert code == 0 and json.loads(board)["game"] == NAME  # JSON keeps the value exactly
    _assert_safe(board)
    b = tmp_path / "b.json"
    b.write_text(board, encoding="utf-8")
    commands = [
        ("check", game), ("check", game, "--json"),
        ("moves", game, "--board", str(b)), ("moves", game, "--board", str(b), "--json"),
        ("apply", game, "--board", str(b), "--move", "tap stock"),
        ("view", game, "--board", str(b)),
        ("outcomes", game, "--board", str(b), "--move", "tap stock", "--limit", "3"),
        ("outcomes", game, "--board", str(b), "--move", "tap stock", "--limit", "3", "--json"),
        ("hint", game, "--board", str(b)),
        ("eval", game, "--board", str(b), "count(foundation)"),
        ("solve", game, "--seed", "3", "--max-states", "300"),
        ("simulate", game, "--games", "2"),
    ]
    for argv in commands:
        code, output = run(capsys, *argv)
        _assert_safe(output)
        assert "Traceback" not in output, argv
    code, shown = run(capsys, "play", game, "--seed", "3", stdin="h\nu\nq\n")
    _assert_safe(shown)
    assert terminal(NAME) in shown and terminal(WASTE) in shown
    code, shown = run(capsys, "apply", game, "--board", str(b), "--move", "nonsense")
    _assert_safe(shown)


def test_an_error_naming_file_text_is_escaped(hostile: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    b = tmp_path / "b.json"
    code, board = run(capsys, "deal", str(hostile), "--seed", "3")
    b.write_text(board, encoding="utf-8")
    code, shown = run(capsys, "apply", str(hostile), "--board", str(b), "--move",
                      json.dumps({"from": "column-1", "index": 0, "to": WASTE}))
    assert code == 1
    _assert_safe(shown)
    assert f"{terminal(WASTE)} takes no cards" in shown


def test_svg_shows_file_text_literally(hostile: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, board = run(capsys, "deal", str(hostile), "--seed", "3")
    b, svg = tmp_path / "b.json", tmp_path / "b.svg"
    b.write_text(board, encoding="utf-8")
    assert run(capsys, "render", str(hostile), "--board", str(b), "-o", str(svg))[0] == 0
    tree = ET.parse(svg)  # well-formed XML: no raw control character survived
    texts = [el.text or "" for el in tree.iter() if el.tag.endswith("title")]
    assert terminal(NAME) in texts and terminal(WASTE) in texts
    assert not any(el.tag.endswith("script") for el in tree.iter())


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_report_shows_file_text_literally(hostile: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "r.html"
    code, _ = run(capsys, "simulate", str(hostile), "--games", "2", "--report", str(report))
    assert code == 0
    html = report.read_text(encoding="utf-8")
    _assert_safe(html.replace("\n", ""))
    parsed = _Tags()
    parsed.feed(html)
    assert "script" not in parsed.tags
    assert any(terminal(NAME) in t for t in parsed.text)
