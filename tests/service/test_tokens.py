"""Tokens on live connections, against real ``tablewire serve`` processes on a real Redis.

- A token that expires while connected ends the connection (4001), not at the next sign-in.
- ``tablewire token revoke ID`` (kept in Redis) refuses the token on every instance and closes
  the stations using it (4003), without changing the secret; other tokens go on working.
- A ``--table`` claim confines a floor or display token to that table.
- The secret never goes on a command line: ``--secret`` is refused, ``--secret-file`` works.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed

from clients.python import CommandRefused
from protocol import StartHand
from server.embedded_redis import EmbeddedRedis
from server.tokens import verify
from tests.service.bots import deep_config
from tests.service.conftest import ROOT, SECRET, token

T = "main"


def tablewire(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=60,
    )


async def signed_in(url: str, token_text: str) -> ClientConnection:
    ws = await ws_connect(url, open_timeout=5)
    await ws.send(json.dumps({"type": "hello", "token": token_text}))
    welcome = json.loads(await asyncio.wait_for(ws.recv(), 5))
    assert welcome["type"] == "welcome", welcome
    return ws


async def closed_with(ws: ClientConnection, within: float) -> tuple[list[dict[str, Any]], int]:
    """The frames received until the server closes, and its close code."""
    frames = []
    with pytest.raises(ConnectionClosed) as closed:
        async with asyncio.timeout(within):
            while True:
                frames.append(json.loads(await ws.recv()))
    assert closed.value.rcvd is not None, closed.value
    return frames, closed.value.rcvd.code


async def test_a_token_that_expires_while_connected_is_closed_with_4001(start_server) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    ws = await signed_in(server.url, token("display", ttl=2))
    await ws.send(json.dumps({"type": "subscribe", "tournament": T}))
    frames, code = await closed_with(ws, 6.0)
    assert code == 4001
    assert frames[-1]["type"] == "error" and frames[-1]["code"] == "token_expired", frames
    assert "sign in again" in frames[-1]["message"]


async def test_a_revoked_token_is_refused_and_its_stations_closed_on_every_instance(
    start_server, redis_server: EmbeddedRedis
) -> None:  # type: ignore[no-untyped-def]
    one, two = start_server(), start_server()
    issued = tablewire(
        "token", "--role", "floor", "--tournament", T, env={"TABLEWIRE_SECRET": SECRET}
    )
    assert issued.returncode == 0, issued.stderr
    text = issued.stdout.strip()
    token_id = verify(SECRET.encode(), text, time.time()).id
    assert token_id and token_id in issued.stderr, issued.stderr

    revoked = [await signed_in(one.url, text), await signed_in(two.url, text)]
    other = await signed_in(one.url, token("floor"))
    done = tablewire("token", "revoke", token_id, env={"REDIS_URL": redis_server.url})
    assert done.returncode == 0 and "revoked" in done.stdout, done.stdout + done.stderr
    started = time.monotonic()
    for ws in revoked:
        frames, code = await closed_with(ws, 3.0)
        assert code == 4003 and frames[-1]["code"] == "token_revoked", (code, frames)
    print(f"\nrevoked token closed on two instances within {time.monotonic() - started:.2f} s")

    for server in (one, two):
        async with ws_connect(server.url, open_timeout=5) as ws:
            await ws.send(json.dumps({"type": "hello", "token": text}))
            reply = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert reply["code"] == "token_revoked", reply
    await other.send(json.dumps({"type": "ping", "nonce": 7}))
    assert json.loads(await asyncio.wait_for(other.recv(), 5)) == {"type": "pong", "nonce": 7}
    await other.close()
    again = tablewire("token", "revoke", token_id, env={"REDIS_URL": redis_server.url})
    assert "already" in again.stdout


async def test_a_table_claim_confines_floor_and_display_tokens(start_server, connect) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    admin = await connect(server, "admin")
    await admin.create_tournament(T, "Main Event")
    for table in ("1", "2"):
        await admin.create_table(T, table, deep_config(seats=6))
    floor = await connect(server, "floor", table="1")
    await floor.command(T, "1", StartHand())
    with pytest.raises(CommandRefused) as refused:
        await floor.command(T, "2", StartHand())
    assert refused.value.error.code == "forbidden" and "table 1" in refused.value.error.message

    for role in ("floor", "display"):
        ws = await signed_in(server.url, token(role, table="1"))  # type: ignore[arg-type]
        for table in ("2", None):
            ask = {"type": "subscribe", "tournament": T, **({"table": table} if table else {})}
            await ws.send(json.dumps(ask))
            reply = json.loads(await asyncio.wait_for(ws.recv(), 5))
            assert reply["type"] == "error" and reply["code"] == "forbidden", (role, table, reply)
        await ws.send(json.dumps({"type": "subscribe", "tournament": T, "table": "1"}))
        reply = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert reply["type"] in ("events", "snapshot") and reply["table"] == "1", (role, reply)
        await ws.close()


def test_the_secret_is_never_taken_from_the_command_line(tmp_path: Path) -> None:
    for command in (("serve", "--port", "1"), ("token", "--role", "admin", "--tournament", T)):
        refused = tablewire(*command, "--secret", "s3cret", "--data-dir", str(tmp_path))
        assert refused.returncode == 2, refused
        assert "ps" in refused.stderr and "--secret-file" in refused.stderr, refused.stderr
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text("from-a-file\n")
    issued = tablewire(
        "token", "--role", "admin", "--tournament", T, "--secret-file", str(secret_file),
        "--data-dir", str(tmp_path / "unused"),
    )
    assert issued.returncode == 0, issued.stderr
    assert verify(b"from-a-file", issued.stdout.strip(), time.time()).role == "admin"
    from_env = tablewire(
        "token", "--role", "admin", "--tournament", T, "--data-dir", str(tmp_path / "unused"),
        env={"TABLEWIRE_SECRET": "from-the-environment"},
    )
    assert verify(b"from-the-environment", from_env.stdout.strip(), time.time()).role == "admin"
