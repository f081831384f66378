"""Reads made in the same turn of the event loop go to Redis together, in one pipeline.

A room of stations coming back after a restart loads a table and reads a log page each: 2,000
round trips an instance one by one, each a pool checkout, a socket write and a read. Queued
for the turn they share one. The reads are plain commands, not scripts: a script is a write to
Redis (``CLIENT PAUSE WRITE``, which a failover uses, would hold every read back), and a read
of a few keys needs no atomicity when its commands are ordered (``Store._read_log``). On a
cluster the client's pipeline sends each node its commands, in order, on one connection.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from server.redis_connect import RedisClient
from server.turns import Turn


@dataclass
class _Read:
    commands: tuple[tuple[Any, ...], ...]
    future: asyncio.Future[list[Any]] = field(repr=False)


class ReadBatch:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis
        self._turn = Turn(self._run)

    def __call__(self, *commands: tuple[Any, ...]) -> asyncio.Future[list[Any]]:
        """The replies to ``commands`` (each a command's name and arguments), sent in order
        with the other reads of this turn; the first error of them is raised."""
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        self._turn.add(_Read(commands, future))
        return future

    async def _run(self, batch: list[_Read]) -> None:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for read in batch:
                    for command in read.commands:
                        pipe.execute_command(*command)
                replies = list(await pipe.execute(raise_on_error=False))
        except Exception as failure:  # Redis gone: every read of the batch fails with it
            for read in batch:
                if not read.future.done():
                    read.future.set_exception(failure)
            return
        for read in batch:
            mine, replies = replies[: len(read.commands)], replies[len(read.commands) :]
            if read.future.done():
                continue  # its caller was cancelled
            error = next((r for r in mine if isinstance(r, Exception)), None)
            if error is not None:
                read.future.set_exception(error)
            else:
                read.future.set_result(mine)
