"""``tablewire tournament create|register|start|status`` against a running server, as an
operator scripts it: real processes, the admin token in the environment (never on the
command line)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.service.conftest import ROOT, ServerProcess, token
from tests.service.test_tournament_service import STRUCTURE


def tablewire(
    server: ServerProcess, *args: str, role: str = "admin"
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TABLEWIRE_TOKEN": token(role), "TABLEWIRE_URL": server.url}  # type: ignore[arg-type]
    return subprocess.run(
        [sys.executable, "-m", "server.cli", "tournament", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_tournament_is_set_up_registered_started_and_shown_from_the_command_line(
    start_server: Any, tmp_path: Path
) -> None:
    server: ServerProcess = start_server()
    structure = tmp_path / "structure.json"
    structure.write_text(json.dumps(STRUCTURE))
    made = tablewire(server, "create", "main", str(structure), "--tables", "2", "--seats", "9")
    assert made.returncode == 0, made.stderr
    assert "2 tables open" in made.stdout
    registered = tablewire(server, "register", "main", "Ann Lee", "Bo Chen")
    assert registered.returncode == 0, registered.stderr
    lines = registered.stdout.splitlines()
    assert lines[0].startswith("Ann Lee (ann-lee): table ") and " seat " in lines[0]
    again = tablewire(server, "register", "main", "Ann Lee")
    assert again.returncode == 1 and "already registered" in again.stderr and "9-A" in again.stderr
    started = tablewire(server, "start", "main")
    assert started.returncode == 0, started.stderr
    status = tablewire(server, "status", "main")
    assert status.returncode == 0, status.stderr
    shown = status.stdout
    assert "running" in shown and "level 1: 50/100" in shown
    assert "players 2 of 2 entries" in shown and "prize pool 200" in shown
    assert "Ann Lee [ann-lee] table" in shown
    print(shown)


def test_a_floor_token_cannot_register_and_a_token_is_never_an_argument(
    start_server: Any, tmp_path: Path
) -> None:
    server: ServerProcess = start_server()
    structure = tmp_path / "structure.json"
    structure.write_text(json.dumps(STRUCTURE))
    assert tablewire(server, "create", "main", str(structure), "--tables", "1").returncode == 0
    refused = tablewire(server, "register", "main", "Ann Lee", role="floor")
    assert refused.returncode == 1 and "forbidden" in refused.stderr
    helped = tablewire(server, "--help")
    assert "--token " not in helped.stdout
