"""At its open-files limit the server says so in its log, refuses websockets with a 503 that
gives the reason, keeps ``/readyz`` and ``/healthz`` answering, and admits stations again once
some have left (issue 14: it refused handshakes without a log line and ``/readyz`` stopped
answering). A real server process, started with a low ``RLIMIT_NOFILE``."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable

from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from tests.service.conftest import ServerProcess, token

LIMIT = 256
LINE = "websocket refused at the open-files limit"


async def signed_in(server: ServerProcess) -> ClientConnection:
    """A display that has signed in; ``InvalidStatus`` when the upgrade is refused."""
    ws = await connect(server.url, open_timeout=5)
    await ws.send(json.dumps({"type": "hello", "token": token("display")}))
    assert json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] == "welcome"
    return ws


async def http_get(port: int, path: str) -> tuple[int, str]:
    """One plain GET, answered within 5 s or the test fails (a timeout is not an answer)."""
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 5)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    answer = await asyncio.wait_for(reader.read(), 5)  # the server closes after an answer
    writer.close()
    head, _, body = answer.decode().partition("\r\n\r\n")
    return int(head.split(" ", 2)[1]), body


async def until(condition: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    return condition()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_at_the_limit_websockets_are_refused_cleanly_and_health_answers(
    start_server,  # type: ignore[no-untyped-def]
) -> None:
    server: ServerProcess = start_server(open_files=LIMIT)
    log = server.data_dir / f"server-{server.port}.log"
    admitted: list[ClientConnection] = []
    refusals: list[InvalidStatus] = []
    while not refusals:
        assert len(admitted) < LIMIT, "never refused: the limit did not apply"
        try:
            admitted.append(await signed_in(server))
        except InvalidStatus as refused:
            refusals.append(refused)
    for _ in range(5):
        try:
            admitted.append(await signed_in(server))
        except InvalidStatus as refused:
            refusals.append(refused)
    print(f"\nopen-files limit {LIMIT}: {len(admitted)} displays admitted, then refused")
    assert len(admitted) > LIMIT // 2, "refused long before the limit"
    assert len(refusals) == 6, "admitted again while nobody left"
    for refused in refusals:
        assert refused.response.status_code == 503
        assert b"open-files limit" in refused.response.body
        assert refused.response.headers["Retry-After"] == "1"

    for _ in range(20):
        assert await http_get(server.port, "/readyz") == (200, "ready\n")
        assert await http_get(server.port, "/healthz") == (200, "ok\n")
    status, body = await http_get(server.port, "/metrics")
    assert status == 200
    found = samples(body)
    assert found[("process_max_fds", ())] == LIMIT
    assert found[("tablewire_refused_connections_total", (("reason", "open_files"),))] == 6
    assert found[("tablewire_connections", (("role", "display"),))] == len(admitted)

    assert await until(lambda: LINE in log.read_text(), 5), "the refusal was not logged"
    lines = [line for line in log.read_text().splitlines() if LINE in line]
    assert len(lines) < len(refusals), f"one line per refusal, not per burst: {lines}"
    assert f"of {LIMIT} descriptors open" in lines[0]

    for ws in admitted[:10]:
        await ws.close()
    again: ClientConnection | None = None
    deadline = time.monotonic() + 10
    while again is None and time.monotonic() < deadline:
        try:
            again = await signed_in(server)
        except InvalidStatus:
            await asyncio.sleep(0.05)
    assert again is not None, "no station admitted after ten left"
    for ws in [again, *admitted[10:]]:
        await ws.close()
