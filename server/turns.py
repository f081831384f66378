"""What is asked of Redis in one turn of the event loop goes together once the turn is over.

The commits (``server.batch``) and the reads (``server.reads``) of a turn each share one
round trip: the first item of a turn schedules the send, the others join it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

Item = TypeVar("Item")


class Turn(Generic[Item]):
    def __init__(self, send: Callable[[list[Item]], Coroutine[Any, Any, None]]) -> None:
        self._send = send
        self._waiting: list[Item] = []
        self._sending: set[asyncio.Task[None]] = set()
        """The sends under way, held so that none is collected before it is done."""

    def add(self, item: Item) -> None:
        """Queue ``item`` for the send at the end of this turn."""
        if not self._waiting:
            asyncio.get_running_loop().call_soon(self._flush)
        self._waiting.append(item)

    def _flush(self) -> None:
        batch, self._waiting = self._waiting, []
        task = asyncio.get_running_loop().create_task(self._send(batch))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)
