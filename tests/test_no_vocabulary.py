"""No module of ``cardz_core`` names a word of the vocabulary (a depot type, step kind, condition
kind, expression function or card aid registered by the default registry) except in a message:
the core reads the facts the kinds declare (``cardz_core.kinds``), never their names.

Some vocabulary words are also words of the format's own grammar or of the documents the engine
writes (the function ``count`` and the property ``count``, the step kind ``move`` and a log
step's ``move``): a literal of such a homonym can't be told apart from the other meaning, so
homonyms are not scanned. Keys of dict literals are JSON document and schema keys, never kinds.
"""

from __future__ import annotations

import ast
from pathlib import Path

import attrs
import pytest

from cardz_core.engine.documents import BOARD_FIELDS
from cardz_core.engine.logs import LOG_STEP_FIELDS
from cardz_core.engine.movetext import MOVE_FIELDS
from cardz_core.expr import CONTEXTS, KINDS
from cardz_core.expr.contexts import CONTEXT_NAMES
from cardz_core.kinds import FIELD_KINDS
from cardz_core.registry import default_registry
from cardz_core.spec import model, tables

CORE = Path(__file__).resolve().parents[1] / "cardz_core"


MESSAGE_CALLS = frozenset({"CardzError", "Problem", "IllegalMove"})


def grammar_words() -> frozenset[str]:
    """The words the format and the engine's documents use for something else than a kind."""
    reg = default_registry()
    words = set(FIELD_KINDS) | set(CONTEXTS) | set(KINDS) | set(CONTEXT_NAMES)
    words |= BOARD_FIELDS | MOVE_FIELDS | LOG_STEP_FIELDS
    for value in vars(tables).values():  # property names and enum spellings
        if isinstance(value, (dict, tuple)):
            words.update(k for k in value if isinstance(k, str))
    for value in vars(model).values():  # the model's attribute names
        if isinstance(value, type) and attrs.has(value):
            words.update(f.name for f in attrs.fields(value))
    for table in (reg.deal_steps, reg.conditions):
        for kind in table.values():
            words.update(getattr(kind, "fields", {}))
    return frozenset(words)


def vocabulary() -> frozenset[str]:
    """The registered names scanned for: every name of the five tables that is no homonym."""
    reg = default_registry()
    names = {name for table in (reg.depot_types, reg.deal_steps, reg.conditions, reg.functions,
                                reg.aids) for name in table}
    return frozenset(names - grammar_words())


def _call_name(node: ast.Call) -> str:
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""


def _not_named(tree: ast.AST) -> set[int]:
    """The ids of the string constants that name nothing: docstrings, parts of f-strings,
    anything inside a ``raise`` or a call of an error or problem, dict keys and slot names."""
    out: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            out.update(id(n) for n in ast.walk(node) if isinstance(n, ast.Constant))

    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
        elif isinstance(node, (ast.Raise, ast.JoinedStr)):
            mark(node)
        elif isinstance(node, ast.Call) and _call_name(node) in MESSAGE_CALLS:
            mark(node)
        elif isinstance(node, ast.Dict):
            for key in node.keys:
                mark(key)
        elif isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets):
            mark(node.value)
    return out


def words_named(path: Path, words: frozenset[str]) -> list[tuple[int, str]]:
    """(line, word) for every string literal of ``path`` equal to a word, outside messages."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _not_named(tree)
    return sorted((n.lineno, n.value) for n in ast.walk(tree)
                  if isinstance(n, ast.Constant) and isinstance(n.value, str)
                  and n.value in words and id(n) not in skip)


def core_files() -> list[str]:
    return sorted(p.relative_to(CORE.parent).as_posix() for p in CORE.rglob("*.py"))


@pytest.mark.parametrize("rel", core_files())
def test_no_vocabulary_word_in_the_core(rel):
    assert words_named(CORE.parent / rel, vocabulary()) == []


def test_the_distinct_kind_names_are_scanned():
    assert {"Stock", "Cell", "Tableau", "dealGroup", "gather", "noLegalMoves", "allCardsIn",
            "coveredBy", "pairSum"} <= vocabulary()


def test_the_scan_finds_a_word_outside_messages(tmp_path):
    src = tmp_path / "m.py"
    src.write_text('"""Stock."""\nKIND = "gather"\nraise CardzError("no Stock")\n'
                   'text = f"{x} on Cell"\nProblem("", "Tableau")\nif t in ("Cell", "x"): pass\n'
                   'doc = {"Waste": 1}\n', encoding="utf-8")
    assert words_named(src, frozenset({"Stock", "gather", "Cell", "Tableau", "Waste"})) == [
        (2, "gather"), (6, "Cell")]
