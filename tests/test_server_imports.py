"""The service's import contract: the shell's modules import one way, the fan-out knows only a
``Subscriber``, a station is handed its services instead of reaching through the app, and the
service depends on none of its clients (the demo and the bots are clients: the ``tablewire``
command finds the demo through an entry point).

Imports under ``TYPE_CHECKING`` count: a circle hidden there (app <-> station <-> fan-out) is
still a circle for whoever reads the code.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.test_engine_imports import _cycle

SERVER = Path(__file__).resolve().parents[1] / "server"


def _imports(tree: ast.Module) -> set[str]:
    """``server.X`` modules a module imports anywhere (TYPE_CHECKING blocks included)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "server":
                found |= {alias.name for alias in node.names}
            elif node.module.startswith("server.") and not node.module.startswith("server.engine"):
                found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("server.") and not alias.name.startswith("server.engine"):
                    found.add(alias.name.split(".")[1])
    return found


def _graph() -> dict[str, set[str]]:
    modules = {p.stem: ast.parse(p.read_text()) for p in SERVER.glob("*.py")}
    return {name: _imports(tree) & set(modules) - {name} for name, tree in modules.items()}


def test_the_service_modules_import_in_one_direction() -> None:
    graph = _graph()
    assert graph["app"], "the app imports the shell's modules"
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_fan_out_never_names_a_station() -> None:
    source = (SERVER / "fanout.py").read_text()
    assert "station" not in _graph()["fanout"]
    assert "Station" not in source


def test_a_station_is_handed_its_services_not_the_app() -> None:
    assert "app" not in _graph()["station"] and "app" not in _graph()["following"]


def _names(tree: ast.Module) -> set[str]:
    """Every module a module imports anywhere, as written (relative imports cannot leave
    ``server``)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def test_nothing_in_the_service_imports_its_clients() -> None:
    sources = sorted(SERVER.rglob("*.py"))
    assert SERVER / "cli.py" in sources and SERVER / "engine" / "__init__.py" in sources
    offenders = {
        str(path.relative_to(SERVER)): sorted(
            name for name in _names(ast.parse(path.read_text())) if name.split(".")[0] == "clients"
        )
        for path in sources
    }
    assert not {path: names for path, names in offenders.items() if names}
