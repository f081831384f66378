"""A station's outbox: what the server has still to send one station, bounded in bytes.

Frames are written at the end of the current turn of the event loop, all those queued during
the turn in one socket write, with no task switch per frame. While the station's socket is
backed up (the station is not reading), frames wait here; once they add up to ``limit`` bytes
the station is too slow: the outbox closes and ``overflow`` is called, and nobody else waits
for it. Bytes, not frames, are counted: a catch-up of a long table is a few large frames, a
busy room many small ones, and memory is what a slow or hostile station must not take.

A station sent something every turn (a floor monitor, with the whole room's events) is written
to at most every ``SPACING`` seconds: its frames of the turns in between go in the same write.
A socket write costs the same for one frame or forty, and at 500 commands a second five
floors' writes were a tenth of the server. A station written to less often (a dealer, a
display of one table) is written to at the end of the turn, as before.

A catch-up waits on :meth:`below` before it reads the next page of the log, so a station
that asks for a long history gets it as fast as it reads it, and no faster.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from server.connection import Connection

SPACING = 0.003
"""Seconds between two writes to one station at the least."""


def _closed() -> None:
    """A closed outbox's overflow: nothing is queued any more."""


class Outbox:
    def __init__(self, ws: Connection, limit: int, overflow: Callable[[], None]) -> None:
        self.ws = ws
        self.limit = limit
        self.overflow = overflow
        self.closed = False
        self.size = 0
        """Bytes queued here and not yet handed to the socket."""
        self._ready: list[bytes] = []
        self._flush_due = False
        self._written = 0.0
        """When the last write was made (the loop's clock)."""
        self._waiting: asyncio.Task[None] | None = None
        self._room: asyncio.Future[None] | None = None
        """Made only while a catch-up waits for the outbox to empty (``below``): an idle
        station's outbox holds no event (with 18,000 of them that was 700 bytes each)."""

    def __len__(self) -> int:
        return len(self._ready)

    def put(self, data: bytes) -> None:
        if self.closed:
            return
        if self.size + len(data) > self.limit:
            overflow = self.overflow
            self.close()
            overflow()
            return
        self._ready.append(data)
        self.size += len(data)
        if not self._flush_due and self._waiting is None:
            self._flush_due = True
            loop = asyncio.get_running_loop()
            wait = self._written + SPACING - loop.time()
            if wait > 0:
                loop.call_later(wait, self._flush)
            else:
                loop.call_soon(self._flush)

    async def below(self, level: int) -> None:
        """Return once less than ``level`` bytes wait here and the socket takes data (or the
        outbox is closed)."""
        while not self.closed and (self.size >= level or not self.ws.writable):
            if self.size >= level:
                if self._room is None:
                    self._room = asyncio.get_running_loop().create_future()
                # Shielded: a waiter cancelled (its catch-up replaced) leaves the others be.
                await asyncio.shield(self._room)
            else:
                await self.ws.writable_again()

    def close(self) -> None:
        """Send nothing more; what is still waiting is dropped. The station's callback is let
        go: it ties the outbox and its station in a cycle only the collector could free."""
        self.closed = True
        self.overflow = _closed
        self._ready.clear()
        self.size = 0
        self._emptied()
        if self._waiting is not None:
            self._waiting.cancel()

    def _flush(self) -> None:
        self._flush_due = False
        if self.closed or not self._ready:
            return
        if not self.ws.writable:
            self._waiting = asyncio.get_running_loop().create_task(self._wait())
            return
        # The same list is written and emptied, not swapped for a new one: a new list per
        # write outlived the young collection for every station (``server.collector``).
        self.ws.write_frames(self._ready)
        self._ready.clear()
        self.size = 0
        self._emptied()
        self._written = asyncio.get_running_loop().time()

    def _emptied(self) -> None:
        room, self._room = self._room, None
        if room is not None and not room.done():
            room.set_result(None)

    async def _wait(self) -> None:
        await self.ws.writable_again()
        self._waiting = None
        self._flush()
