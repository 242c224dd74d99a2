"""No import cycle anywhere in ``cardz_core``: every import statement counts, at module level,
inside functions and under ``TYPE_CHECKING`` alike (a cycle a type checker or a lazy import
hides is still a cycle of the design)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]

# cycles other parts are removing on their own branches; the merge empties this list
def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imported(node: ast.Import | ast.ImportFrom, package: str, modules: set[str]) -> set[str]:
    """The ``cardz_core`` modules an import statement imports: ``from a import b`` imports
    the module ``a.b`` when there is one, else ``a``."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in modules}
    base = node.module or ""
    if node.level:
        up = package.split(".")[:len(package.split(".")) - node.level + 1]
        base = ".".join(up + ([node.module] if node.module else []))
    out = set()
    for alias in node.names:
        full = f"{base}.{alias.name}"
        if full in modules:
            out.add(full)
        elif base in modules:
            out.add(base)
    return out


def import_graph(root: Path = ROOT) -> nx.DiGraph:
    """Module -> the modules it imports, over the ``cardz_core`` package under ``root``."""
    paths = {module_name(p, root): p for p in (root / "cardz_core").rglob("*.py")}
    modules = set(paths)
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph.add_edges_from((name, t) for t in imported(node, package, modules) if t != name)
    return graph


def cycles(graph: nx.DiGraph) -> list[frozenset[str]]:
    """The modules of each strongly connected component with more than one module."""
    return [frozenset(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]


def test_no_import_cycle_in_cardz_core():
    assert sorted(sorted(c) for c in cycles(import_graph())) == []


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    pkg = tmp_path / "cardz_core"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "a.py").write_text("from cardz_core import b\n", encoding="utf-8")
    (pkg / "b.py").write_text("def f():\n    from cardz_core.a import x\n", encoding="utf-8")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from cardz_core import a\n", encoding="utf-8")
    graph = import_graph(tmp_path)
    assert cycles(graph) == [frozenset({"cardz_core.a", "cardz_core.b"})]
    assert graph.has_edge("cardz_core.c", "cardz_core.a")
