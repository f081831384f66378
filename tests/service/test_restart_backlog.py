"""A room that knocks at once waits in the listen backlog (issue 14, acceptance 6).

After a restart every station of a room reconnects within a quarter of a second. The event loop
listened with its default backlog of 100, whatever the server asked: the connections past it
were dropped by the kernel and each waited a second or more for TCP to try again (the cold-start
benchmark: 1,881 dropped, the last station back 4.4 s after its instance was ready). A real
server process, stopped with SIGSTOP so that nothing is accepted while the room knocks: every
connection the kernel takes is in the backlog, and each must be answered once it goes on.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys

from prometheus_client.parser import text_string_to_metric_families

from tests.service.conftest import ServerProcess
from tests.service.test_file_limit import http_get

ROOM = 1200
"""Connections knocking at once: a thousand-table room's share of one instance, and more than
the event loop's default backlog (100) and the backlog the server used to ask for (625)."""
KNOCK_TIMEOUT = 3.0
"""A dropped connection waits 1 s, then 3 s, for TCP to try again; one in the backlog is
established at once, by the kernel, while the server is stopped."""


async def knock(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
    """A TCP connection, or None when the kernel did not take it within ``KNOCK_TIMEOUT``."""
    try:
        return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), KNOCK_TIMEOUT)
    except TimeoutError:
        return None


async def health(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bytes:
    writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    answer = await asyncio.wait_for(reader.read(), 30)
    writer.close()
    return answer.partition(b"\r\n")[0]


async def test_a_room_knocking_while_the_server_is_stopped_is_answered_once_it_goes_on(
    start_server,  # type: ignore[no-untyped-def]
) -> None:
    server: ServerProcess = start_server()
    status, body = await http_get(server.port, "/metrics")
    assert status == 200
    backlog = next(
        s.value
        for family in text_string_to_metric_families(body)
        for s in family.samples
        if s.name == "tablewire_listen_backlog"
    )
    assert backlog >= ROOM, f"the server asks for a backlog of {backlog:.0f}"
    assert server.process is not None
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        knocked = await asyncio.gather(*(knock(server.port) for _ in range(ROOM)))
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    taken = [k for k in knocked if k is not None]
    print(f"\n{len(taken)} of {ROOM} connections taken while the server was stopped")
    assert len(taken) == ROOM, f"{ROOM - len(taken)} connections dropped by a short backlog"
    answers = await asyncio.gather(*(health(*k) for k in taken))
    assert set(answers) == {b"HTTP/1.1 200 OK"}


def test_the_serve_command_listens_before_the_service_is_imported() -> None:
    """``tablewire serve`` binds its port, then imports the service and the engine (half a
    second): importing the command imports neither."""
    probe = (
        "import sys, server.cli;"
        "print(sorted(m for m in sys.modules if m.startswith(('server.engine', 'server.app'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]", out
