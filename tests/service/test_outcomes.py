"""Outcomes a station can trust while Redis hangs: real ``tablewire serve`` processes, a real
redis-server frozen with SIGSTOP (its sockets stay open, nothing is answered — a hung disk or a
paused VM), real websockets.

- a first-time command whose commit Redis answers only after the client's socket timeout (the
  Redis client sent the script again) is acknowledged as applied, not as a duplicate;
- a commit Redis never confirmed is answered ``unknown_outcome``, not an error that would say
  nothing changed; the same id sent again learns the outcome, and the Python client does that by
  itself; the command is applied once;
- the server logs the stall as it begins and its recovery with its length.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect as ws_connect

from protocol import Act, StartHand
from protocol.wire import Send, encoder
from server.embedded_redis import EmbeddedRedis
from tests.service.bots import deep_config, read_table, setup_tables
from tests.service.conftest import token

T = "main"
CONFIG = deep_config(seats=6)
SOCKET_TIMEOUT = 5.0
"""The Redis client's socket timeout (redis-py's default, which the server keeps)."""
LOG = "tablewire.redis"
"""The logger of the server's Redis watchdog."""


@contextlib.contextmanager
def frozen(redis_server: EmbeddedRedis) -> Iterator[None]:
    """redis-server stopped (SIGSTOP) for the block, and always continued after it."""
    assert redis_server.process is not None
    pid = redis_server.process.pid
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def log_lines(path: Path, logger: str) -> list[dict[str, Any]]:
    """The server's JSON log lines from ``logger`` so far."""
    found = []
    for line in path.read_text().splitlines():
        with contextlib.suppress(ValueError):
            entry = json.loads(line)
            if isinstance(entry, dict) and entry.get("logger") == logger:
                found.append(entry)
    return found


async def until(predicate: Any, timeout: float, what: str) -> float:
    """Poll ``predicate()`` until it holds; the seconds it took."""
    started = time.monotonic()
    while not predicate():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.05)
    return time.monotonic() - started


def calls(log: Any) -> list[int]:
    """The numbers of the events where seat 4 called: one per call applied."""
    return [
        seq
        for seq, event in log.dicts()
        if event["type"] == "action" and event["seat"] == 4 and event["action"] == "call"
    ]


CALL = Act(seat=4, declare="call")
"""Under the gun's call, the first action of the hand: its commit is the only Redis call it
needs once the instance has the table (it started the hand)."""


async def test_a_first_time_command_answered_after_the_socket_timeout_is_acked_not_duplicate(
    start_server: Any, connect: Any, redis_server: EmbeddedRedis, aredis: Any
) -> None:
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1"], CONFIG)
    dealer = await connect(server, "dealer", table="1")
    await dealer.command(T, "1", StartHand())
    stall = SOCKET_TIMEOUT + 3.0
    with frozen(redis_server):
        sent = time.monotonic()
        command = asyncio.create_task(dealer.command(T, "1", CALL, command_id="first", timeout=60))
        # The stall under test: longer than the socket timeout, so the Redis client gives up
        # on its first send of the commit and sends it again; both reach Redis when it wakes.
        await asyncio.sleep(stall)
        assert not command.done()
    ack = await asyncio.wait_for(command, 30)
    took = time.monotonic() - sent
    log = await read_table(aredis, T, "1")
    print(f"stalled {stall:.1f}s; acked after {took:.1f}s: {ack}")
    assert ack.duplicate is False, "a first-time command was acknowledged as a duplicate"
    assert len(calls(log)) == 1 and log.commands["first"] == ack.seq == log.seq


async def test_a_commit_redis_never_confirmed_is_unknown_outcome_and_the_same_id_learns_it(
    start_server: Any, connect: Any, redis_server: EmbeddedRedis, aredis: Any
) -> None:
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1", "2"], CONFIG)
    client = await connect(server, "floor")
    for table in ("1", "2"):
        await client.command(T, table, StartHand())
    async with ws_connect(server.url, open_timeout=5) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token("floor")}))
        assert json.loads(await asyncio.wait_for(ws.recv(), 5))["type"] == "welcome"
        call = encoder.encode(Send("a", T, "1", CALL)).decode()
        with frozen(redis_server):
            sent = time.monotonic()
            await ws.send(call)
            resending = asyncio.create_task(
                client.command(T, "2", CALL, command_id="b", timeout=60)
            )
            reply = json.loads(await asyncio.wait_for(ws.recv(), 60))
            answered = time.monotonic() - sent
            print(f"answered after {answered:.1f}s with Redis still stopped: {reply}")
            assert (reply["type"], reply.get("code"), reply.get("id")) == (
                "error",
                "unknown_outcome",
                "a",
            ), reply
            assert "same command id" in reply["message"]
            # The Python client, told the same, sends its command again by itself.
            await until(lambda: client.resent >= 1, 30, "the Python client to resend")
            assert not resending.done()
        ack_b = await asyncio.wait_for(resending, 60)
        await ws.send(call)
        ack_a = json.loads(await asyncio.wait_for(ws.recv(), 30))
    print(f"after Redis woke: a {ack_a}; b seq {ack_b.seq} duplicate {ack_b.duplicate}")
    assert (ack_a["type"], ack_a["id"], ack_a["duplicate"]) == ("ack", "a", True)
    for table, ack_seq, cid in (("1", ack_a["seq"], "a"), ("2", ack_b.seq, "b")):
        log = await read_table(aredis, T, table)
        assert len(calls(log)) == 1, f"table {table}: the call was applied at {calls(log)}"
        assert log.commands[cid] == ack_seq == log.seq


async def test_a_stalled_redis_is_logged_as_it_stalls_and_when_it_recovers(
    start_server: Any, redis_server: EmbeddedRedis, tmp_path: Path
) -> None:
    server = start_server()
    path = tmp_path / f"server-{server.port}.log"
    with frozen(redis_server):
        stopped = time.monotonic()
        seen = await until(
            lambda: any(e["message"].startswith("redis stalled") for e in log_lines(path, LOG)),
            10,
            "a 'redis stalled' line while Redis is stopped",
        )
        # Still stopped: the line was written during the stall, not found afterwards.
        await until(lambda: time.monotonic() - stopped > 4.0, 5, "a stall of 4 s")
        stall = time.monotonic() - stopped
    await until(
        lambda: any(e["message"].startswith("redis recovered") for e in log_lines(path, LOG)),
        10,
        "a 'redis recovered' line",
    )
    lines = log_lines(path, LOG)
    print(f"stopped {stall:.1f}s; 'stalled' logged {seen:.1f}s in; lines: {lines}")
    stalled = [e for e in lines if e["message"].startswith("redis stalled")]
    recovered = [e for e in lines if e["message"].startswith("redis recovered")]
    assert len(stalled) == 1 and len(recovered) == 1 and stalled[0]["level"] == "warning"
    lasted = float(recovered[0]["message"].split("after ")[1].split(" s")[0])
    assert stall - 1.5 <= lasted <= stall + 1.5, (lasted, stall)
