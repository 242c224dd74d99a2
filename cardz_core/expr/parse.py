"""Parsing expression text with the grammar in ``grammar.lark``; syntax errors become messages
with the column (1-based character position in the expression)."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files

from lark import Lark, Tree
from lark import lexer as lark_lexer
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from cardz_core.limits import MAX_EXPR_CHARS, MAX_EXPR_DEPTH
from cardz_core.signature import RESERVED_WORDS

_HINTS = {
    "and": "`and` is a reserved word: write &&",
    "or": "`or` is a reserved word: write ||",
    "not": "`not` is a reserved word: write !",
}
_WORDS = {"NAME": "a name", "INT": "a number", "STRING": "a quoted depot name",
          "COMPOP": "a comparison", "ADDOP": "+ or -", "MULOP": "* or %", "$END": "the end"}


class ExprSyntaxError(Exception):
    def __init__(self, column: int, message: str) -> None:
        super().__init__(f"column {column}: {message}")
        self.column = column
        self.message = message


def build_parser(strict: bool) -> Lark:
    """The expression parser. ``strict`` makes lark refuse a grammar with a shift/reduce conflict
    or two terminals whose patterns may match the same text. The grammar is a fixed file, so
    the tests build it strict (tests/test_expr_language.py) and a command builds it without
    those checks: a grammar that passes them gives the same parser either way. Lark compares
    the terminals' patterns whenever ``interegular`` is installed, strict or not, only to warn
    when it is not strict; that comparison (of lark's own grammar of grammars too) is nine
    tenths of building the parser, 250 ms (docs/benchmarks.md, "Start-up"), so the non-strict
    build turns it off for the while."""
    grammar = files("cardz_core.expr").joinpath("grammar.lark").read_text(encoding="utf-8")
    compare = getattr(lark_lexer, "has_interegular", False)  # a lark that never compares
    lark_lexer.has_interegular = compare and strict
    try:
        return Lark(grammar, parser="lalr", strict=strict, propagate_positions=True,
                    maybe_placeholders=True)
    finally:
        lark_lexer.has_interegular = compare


@lru_cache(maxsize=1)
def parser() -> Lark:
    return build_parser(strict=False)


@lru_cache(maxsize=4096)
def parse(text: str) -> Tree:
    """The syntax tree of ``text``; raises ExprSyntaxError for anything the grammar refuses,
    an expression longer than MAX_EXPR_CHARS or nested deeper than MAX_EXPR_DEPTH. Cached: the
    copies of a repeated depot share their rules' text, and trees are never changed."""
    if len(text) > MAX_EXPR_CHARS:
        raise ExprSyntaxError(MAX_EXPR_CHARS + 1, f"the expression is {len(text)} characters long; "
                                                  f"at most {MAX_EXPR_CHARS} are allowed")
    if not text.strip():
        raise ExprSyntaxError(1, "the expression is empty")
    try:
        tree = parser().parse(text)
    except UnexpectedInput as exc:
        raise _syntax_error(text, exc) from None
    _check_depth(tree)
    return tree


def _check_depth(tree: Tree) -> None:
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_EXPR_DEPTH:
            col = (node.meta.start_pos + 1) if not node.meta.empty else 1
            raise ExprSyntaxError(col, f"the expression nests more than {MAX_EXPR_DEPTH} levels deep")
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))


def _syntax_error(text: str, exc: UnexpectedInput) -> ExprSyntaxError:
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0  # lark types it optional; a character error always has it
        word = _word_at(text, pos)
        if word in RESERVED_WORDS:
            return ExprSyntaxError(pos + 1, _HINTS.get(word, f"`{word}` is a reserved word, not a name"))
        ch = text[pos]
        if ch == "=":
            return ExprSyntaxError(pos + 1, "unexpected '=': compare with ==")
        if ch in "&|":
            return ExprSyntaxError(pos + 1, f"unexpected {ch!r}: write {ch * 2}")
        if ch == "/":
            return ExprSyntaxError(pos + 1, "there is no division; % gives the remainder")
        return ExprSyntaxError(pos + 1, f"unexpected character {ch!r}")
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = _expected(exc.expected)
        if tok.type == "$END":
            return ExprSyntaxError(len(text) + 1, f"the expression ends too soon; expected {expected}")
        pos = tok.start_pos if tok.start_pos is not None else len(text)
        if tok.type == "COMPOP":
            return ExprSyntaxError(pos + 1, f"unexpected {str(tok)!r}: comparisons don't chain; "
                                            "join them with &&")
        if str(tok) == "=":
            return ExprSyntaxError(pos + 1, "unexpected '=': compare with ==")
        return ExprSyntaxError(pos + 1, f"unexpected {str(tok)!r}; expected {expected}")
    return ExprSyntaxError(1, "the expression can't be read")


def _word_at(text: str, pos: int) -> str:
    end = pos
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    return text[pos:end]


def _expected(names: set[str]) -> str:
    shown = set()
    for name in names:
        if name in _WORDS:
            shown.add(_WORDS[name])
            continue
        term = next((t for t in parser().terminals if t.name == name), None)
        pattern = getattr(term, "pattern", None)
        shown.add(repr(pattern.value) if pattern is not None and pattern.type == "str" else name)
    return ", ".join(sorted(shown))
