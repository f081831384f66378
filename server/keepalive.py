"""Keepalive pings for every station from one task, not a task per connection.

A station that vanished without closing (a tablet out of range, a TV switched off at the wall)
is found by the pings the server sends it every heartbeat: no pong by its next turn, a whole
heartbeat later, and the connection is closed with 1011, as the websockets library's own
keepalive does with the same interval and timeout. The library runs that keepalive as a task
per connection, each with its own timer; with 18,000 displays on one server those tasks were
10-27% of its time and over a kilobyte of every idle connection. Here one task walks the
connections in slices spread over the heartbeat, so the pings go out evenly, and a ping costs
one frame written and a future the library completes when the pong comes (nobody awaits it).

Only the library's documented API is used: ``ping()`` (which returns without suspending while
the connection is open and its writes are not paused) and ``close()``. A station whose socket
is backed up is not pinged until it drains: the outbox is already dealing with it.
"""

from __future__ import annotations

import asyncio
import logging
import math

from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from server import metrics
from server.connection import Connection

log = logging.getLogger("tablewire.keepalive")
SLICE = 0.1
"""Seconds between two slices of a round (a round is one heartbeat)."""


class Keepalive:
    """The connections to ping, and each one's last ping still waiting for its pong."""

    def __init__(self, interval: float) -> None:
        self.interval = interval
        self.watching: dict[Connection, asyncio.Future[float] | None] = {}
        self.closing: set[asyncio.Task[None]] = set()

    def add(self, ws: Connection) -> None:
        """Ping ``ws`` from the next round on (its first ping within two heartbeats)."""
        self.watching[ws] = None

    def discard(self, ws: Connection) -> None:
        self.watching.pop(ws, None)

    async def run(self) -> None:
        """Round after round: every connection known at a round's start gets its turn."""
        while True:
            due = list(self.watching)
            slices = max(1, math.ceil(self.interval / SLICE))
            size = max(1, math.ceil(len(due) / slices))
            for start in range(0, slices * size, size):
                await asyncio.sleep(self.interval / slices)
                for ws in due[start : start + size]:
                    await self.turn(ws)

    async def turn(self, ws: Connection) -> None:
        """Close ``ws`` if its last ping is still unanswered, else ping it again."""
        if ws not in self.watching:
            return  # gone since the round began
        waiting = self.watching[ws]
        if waiting is not None and not waiting.done():
            self.discard(ws)
            metrics.KEEPALIVE_TIMEOUTS.inc()
            log.info("no pong within a heartbeat: closing", extra={"remote": _peer(ws)})
            task = asyncio.get_running_loop().create_task(ws.close(1011, "keepalive ping timeout"))
            self.closing.add(task)
            task.add_done_callback(self.closing.discard)
            return
        if ws.protocol.state is not State.OPEN or ws.transport.is_closing():
            return
        if not ws.writable:
            return  # backed up: not pinged until it drains
        try:
            waiter = await ws.ping()
        except ConnectionClosed:
            self.discard(ws)
            return
        if ws in self.watching and isinstance(waiter, asyncio.Future):
            self.watching[ws] = waiter


def _peer(ws: Connection) -> str:
    address = ws.remote_address
    return f"{address[0]}:{address[1]}" if address else "?"
