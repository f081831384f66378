"""A station's outbox: what the server has still to send one station, bounded.

Frames are written at the end of the current turn of the event loop, all those queued during
the turn in one socket write, with no task switch per frame. While the station's socket is
backed up (the station is not reading), frames wait here; once ``limit`` are waiting the
station is too slow: the outbox closes and ``overflow`` is called, and nobody else waits for
it. A display with a delay has each frame held back for that long first.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Callable

from server.connection import Connection


class Outbox:
    def __init__(self, ws: Connection, limit: int, overflow: Callable[[], None]) -> None:
        self.ws = ws
        self.limit = limit
        self.overflow = overflow
        self.delay = 0.0
        self.closed = False
        self._ready: list[bytes] = []
        self._held: deque[tuple[float, bytes]] = deque()
        self._flush_due = False
        self._waiting: asyncio.Task[None] | None = None
        self._releasing: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._ready) + len(self._held)

    def put(self, data: bytes) -> None:
        if self.closed:
            return
        if len(self) >= self.limit:
            self.close()
            self.overflow()
            return
        if self.delay:
            self._held.append((time.monotonic() + self.delay, data))
            if self._releasing is None:
                self._releasing = asyncio.get_running_loop().create_task(self._release())
            return
        self._queue(data)

    def close(self) -> None:
        """Send nothing more; what is still waiting is dropped."""
        self.closed = True
        self._ready.clear()
        self._held.clear()
        for task in (self._waiting, self._releasing):
            if task is not None:
                task.cancel()

    def _queue(self, data: bytes) -> None:
        self._ready.append(data)
        if not self._flush_due and self._waiting is None:
            self._flush_due = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        if self.closed or not self._ready:
            return
        if not self.ws.writable:
            self._waiting = asyncio.get_running_loop().create_task(self._wait())
            return
        frames, self._ready = self._ready, []
        self.ws.write_frames(frames)

    async def _wait(self) -> None:
        await self.ws.writable_again()
        self._waiting = None
        self._flush()

    async def _release(self) -> None:
        """Move held frames to the socket as their delay runs out."""
        while self._held:
            due, _ = self._held[0]
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            now = time.monotonic()
            while self._held and self._held[0][0] <= now:
                self._queue(self._held.popleft()[1])
        self._releasing = None
