"""The engine's import contract: no cycles, and no imports hidden inside functions.

Rule modules hand what they decided back to the dispatcher (``server.engine.moves``) instead of
calling up into ``flow``; this test keeps it so. It reads the source, so a cycle fails here even
when Python would have resolved it by importing inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "server" / "engine"
PACKAGE = "server.engine"


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(), str(p)) for p in sorted(ENGINE.glob("*.py"))}


def _engine_targets(node: ast.Import | ast.ImportFrom, names: set[str]) -> set[str]:
    """The engine modules an import statement brings in (the package itself as ``__init__``)."""
    found: set[str] = set()
    if isinstance(node, ast.ImportFrom):
        module = node.module or ""
        if module == PACKAGE:
            for alias in node.names:
                found.add(alias.name if alias.name in names else "__init__")
        elif module.startswith(PACKAGE + "."):
            found.add(module.removeprefix(PACKAGE + ".").split(".")[0])
    else:
        for alias in node.names:
            if alias.name.startswith(PACKAGE + "."):
                found.add(alias.name.removeprefix(PACKAGE + ".").split(".")[0])
            elif alias.name == PACKAGE:
                found.add("__init__")
    return found


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    names = set(modules)
    graph: dict[str, set[str]] = {}
    for name, tree in modules.items():
        edges: set[str] = set()
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                edges |= _engine_targets(node, names)
        graph[name] = edges - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path, or None."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_the_engine_has_no_import_inside_a_function_or_class() -> None:
    hidden = []
    for name, tree in _modules().items():
        top = {id(n) for n in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top:
                hidden.append(f"{name}.py:{node.lineno}")
    assert hidden == [], f"imports inside functions hide import cycles: {hidden}"


def test_the_engine_import_graph_is_acyclic() -> None:
    graph = _graph()
    assert graph.get("table"), "the dispatcher imports the rule modules"
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_only_the_dispatcher_and_the_package_import_flow() -> None:
    """Rule modules return a Move; moving the hand on is flow's, called from table alone."""
    importers = sorted(n for n, edges in _graph().items() if "flow" in edges)
    assert importers == ["table"]


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_the_module_map_names_every_engine_module() -> None:
    doc = ast.get_docstring(_modules()["__init__"]) or ""
    missing = [n for n in _modules() if n != "__init__" and f":mod:`{n}`" not in doc]
    assert missing == [], f"modules missing from the theory of operation: {missing}"
