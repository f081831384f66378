"""Every code the engine refuses with reaches the station as it is, so each is documented.

The engine's codes are the wire codes of its refusals (``server/tables.py`` passes them on):
a new code in a rule module without a line in the README fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _engine_codes() -> set[str]:
    codes = {"illegal"}
    for path in (ROOT / "server" / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.keyword)
                and node.arg == "code"
                and isinstance(node.value, ast.Constant)
                and isinstance(node.value.value, str)
            ):
                codes.add(node.value.value)
    return codes


def test_every_engine_refusal_code_is_in_the_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    missing = sorted(c for c in _engine_codes() if f"`{c}`" not in readme)
    assert len(_engine_codes()) > 5
    assert missing == [], f"engine codes the README does not name: {missing}"
