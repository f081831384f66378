"""A station's outbox over a real websocket: what it writes, and when.

A floor monitor is sent something in nearly every turn of the event loop; each socket write
costs the same for one frame or forty, so its frames are written at most every
``outbox.SPACING`` seconds, those of the turns between in one write. A station sent one frame
after a quiet spell has it written at the end of that turn.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest
from websockets.asyncio.client import connect
from websockets.asyncio.server import serve

from server import outbox
from server.connection import Connection
from server.outbox import Outbox


class Counted(Connection):
    """The server's connection, counting its writes."""

    writes = 0

    def write_frames(self, frames: list[bytes]) -> None:
        type(self).writes += 1
        super().write_frames(frames)


@pytest.fixture
async def station() -> AsyncIterator[tuple[Outbox, asyncio.Queue[str], list[str]]]:
    """An outbox on the server side of a real websocket; the client's frames as they come."""
    opened: asyncio.Future[Outbox] = asyncio.get_running_loop().create_future()
    closed = asyncio.Event()
    received: list[str] = []
    arrived: asyncio.Queue[str] = asyncio.Queue()

    async def handler(ws: Connection) -> None:
        opened.set_result(Outbox(ws, 1 << 20, lambda: None))
        await closed.wait()

    Counted.writes = 0
    async with serve(handler, "127.0.0.1", 0, create_connection=Counted) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as client:

            async def read() -> None:
                async for message in client:
                    assert isinstance(message, str)
                    received.append(message)
                    await arrived.put(message)

            reader = asyncio.create_task(read())
            yield await opened, arrived, received
            closed.set()
            reader.cancel()


async def test_frames_sent_every_turn_are_written_together_in_order(
    station: tuple[Outbox, asyncio.Queue[str], list[str]],
) -> None:
    box, arrived, received = station
    loop = asyncio.get_running_loop()
    start = loop.time()
    turns = 60
    for n in range(turns):
        box.put(json.dumps({"n": n}).encode())
        await asyncio.sleep(0)  # one turn of the loop
    elapsed = loop.time() - start
    async with asyncio.timeout(10):
        while len(received) < turns:
            await arrived.get()
    assert [json.loads(m)["n"] for m in received] == list(range(turns))
    # At most one write per SPACING, plus the first and the last.
    assert Counted.writes <= elapsed / outbox.SPACING + 2
    assert Counted.writes < turns


async def test_a_frame_after_a_quiet_spell_is_written_in_its_turn(
    station: tuple[Outbox, asyncio.Queue[str], list[str]],
) -> None:
    box, arrived, _ = station
    box.put(b'{"n": 1}')
    await asyncio.sleep(0)  # the turn ends: the write is made
    assert Counted.writes == 1
    async with asyncio.timeout(10):
        assert json.loads(await arrived.get()) == {"n": 1}
