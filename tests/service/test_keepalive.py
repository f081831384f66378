"""Keepalive pings from the server's one keepalive task (``server.keepalive``): a station that
stops answering (a tablet gone out of range: its socket open, nothing read) is closed with 1011
and counted, one that answers stays, however long it is quiet; the heartbeat in the welcome is
the one the server pings at."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from tests.service.bots import http_get
from tests.service.conftest import token

HEARTBEAT = 0.5


async def signed_in(url: str) -> tuple[ClientConnection, dict[str, object]]:
    ws = await ws_connect(url, ping_interval=None, proxy=None)
    await ws.send(json.dumps({"type": "hello", "token": token("display", table="1")}))
    return ws, json.loads(await asyncio.wait_for(ws.recv(), 5))


async def timeouts(port: int) -> float:
    _, body = await http_get(port, "/metrics")
    for line in body.splitlines():
        if line.startswith("tablewire_keepalive_timeouts_total "):
            return float(line.split()[1])
    return 0.0


async def until(probe, timeout: float, what: str) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not await probe():
        assert time.monotonic() < deadline, f"not within {timeout} s: {what}"
        await asyncio.sleep(0.05)


async def go_silent(url: str) -> ClientConnection:
    """A station signed in whose socket is then never read: its pings are never answered."""
    ws, _ = await signed_in(url)
    assert isinstance(ws.transport, asyncio.Transport)
    ws.transport.pause_reading()
    return ws


async def close_code(ws: ClientConnection) -> int | None:
    assert isinstance(ws.transport, asyncio.Transport)
    ws.transport.resume_reading()
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    return closed.value.rcvd.code if closed.value.rcvd is not None else None


async def test_a_station_that_stops_answering_pings_is_closed_one_that_answers_stays(
    start_server,
) -> None:  # type: ignore[no-untyped-def]
    server = start_server(TABLEWIRE_HEARTBEAT=str(HEARTBEAT))
    answering, welcome = await signed_in(server.url)
    assert welcome["type"] == "welcome" and welcome["heartbeat"] == HEARTBEAT
    for count in (1, 2):  # one silent station after the other: several rounds of pings
        silent = await go_silent(server.url)
        started = time.monotonic()

        async def closed(n: int = count) -> bool:
            return await timeouts(server.port) >= n

        await until(closed, 20 * HEARTBEAT, f"silent station {count} closed for its ping")
        # Its first ping comes within two heartbeats; its next turn, a heartbeat later,
        # finds no pong.
        assert time.monotonic() - started >= HEARTBEAT
        assert await close_code(silent) == 1011
    # The station that answers (its client's reader answers every ping) lived through all
    # those rounds, was never closed, and is still served.
    assert await timeouts(server.port) == 2
    for nonce in range(1, 4):
        await answering.send(json.dumps({"type": "ping", "nonce": nonce}))
        reply = json.loads(await asyncio.wait_for(answering.recv(), 5))
        assert reply == {"type": "pong", "nonce": nonce}
    await answering.close()
