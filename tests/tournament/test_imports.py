"""The tournament engine's import contract, as the table engine's (tests/test_engine_imports):
no cycles, no imports inside functions, every module in the theory of operation, and never an
import of the table engine."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_engine_imports import _cycle

PACKAGE_DIR = Path(__file__).resolve().parents[2] / "server" / "tournament"
PACKAGE = "server.tournament"


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(), str(p)) for p in sorted(PACKAGE_DIR.glob("*.py"))}


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    return [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, tree in modules.items():
        edges: set[str] = set()
        for node in _imports(tree):
            if isinstance(node, ast.ImportFrom) and node.module == PACKAGE:
                edges |= {a.name if a.name in modules else "__init__" for a in node.names}
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(PACKAGE + "."):
                edges.add((node.module or "").removeprefix(PACKAGE + ".").split(".")[0])
        graph[name] = edges - {name}
    return graph


def test_no_import_inside_a_function() -> None:
    hidden = []
    for name, tree in _modules().items():
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top:
                hidden.append(f"{name}.py:{node.lineno}")
    assert hidden == []


def test_the_import_graph_is_acyclic() -> None:
    graph = _graph()
    assert graph.get("dispatch")
    assert _cycle(graph) is None, _cycle(graph)


def test_the_tournament_never_imports_the_table_engine() -> None:
    found = []
    for name, tree in _modules().items():
        for node in _imports(tree):
            targets = (
                [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else [a.name for a in node.names]
            )
            found += [f"{name}: {t}" for t in targets if t.startswith("server.engine")]
    assert found == []


def test_the_module_map_names_every_module() -> None:
    doc = ast.get_docstring(_modules()["__init__"]) or ""
    missing = [n for n in _modules() if n != "__init__" and f":mod:`{n}`" not in doc]
    assert missing == []
