"""Events of commits the replicas confirmed late: found again in the log and published.

A batch that waits for replicas publishes its events only after the ``WAIT`` (``server.batch``).
When the ``WAIT`` falls short, nothing is published and the station is told the outcome is
unknown; the commit may still be on the primary and reach the replica a moment later. Then no
instance's stations would see it until a later commit of the table made them fill the gap, and
a station that does not send the command again (the browser stations drop an unknown outcome)
would never learn it. So:

- a command found committed (``seen``: its record rewritten through the batch, so that the
  ``WAIT`` after it covers the commit) has its last event published again;
- after a shortfall, :meth:`Confirmations.later` asks that again in the background, with a
  growing pause, until the commit is confirmed (its events published) or found absent (lost
  with a failover: nothing to publish). One pending confirmation per log: the last event of a
  log is enough, every instance fills what comes before it from the log.

What is published is the entry the log holds at that number, never the message the commit
meant to publish: a number that holds another event after a failover is that event, which the
log then has.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import cast

import msgspec
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.batch import ScriptBatch
from server.keys import Published, channel, commands_key, log_key

log = logging.getLogger("tablewire.confirming")

SEEN = """
local done = redis.call('HGET', KEYS[1], ARGV[1])
if done then redis.call('HSET', KEYS[1], ARGV[1], done) end
return done
"""
"""The last event number of a command's result, if it committed: written again, so the
``WAIT`` after it covers that commit (an answer read from a primary is confirmed like one
written)."""

PAUSES = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 15.0, 30.0)
"""Between the background confirmations of one commit; then it is left to the gap fills."""
PENDING_MAX = 10_000
"""Logs waiting for a confirmation at once, at most (one task each)."""

Mark = tuple[str, int]
"""A log (a table id, or ``TOURNAMENT_LOG``) and the number of an event in it."""


class Confirmations:
    def __init__(self, redis: Redis, batch: ScriptBatch) -> None:
        self.redis = redis
        self.batch = batch
        self._seen = redis.register_script(SEEN)
        self._pending: dict[tuple[str, str], asyncio.Task[None]] = {}

    @property
    def waits(self) -> bool:
        """Whether commits may be published late: only where a batch can wait for replicas."""
        return self.batch.wait is not None and self.batch.wait.required != 0

    async def seen(self, tournament: str, origin: str, command_id: str) -> int | None:
        """The last event number of the command's result if it committed, confirmed by the
        replicas like a commit; that event is published again."""
        done = await self.batch(self._seen, [commands_key(tournament, origin)], [command_id])
        if done is None:
            return None
        await self.offer(tournament, [(origin, int(done))])
        return int(done)

    async def offer(self, tournament: str, marks: Sequence[Mark]) -> None:
        """Publish the log entry at each mark (one that has it drops it; one behind it fills
        the gap from the log). ``-1`` is the log's last entry."""
        if not self.waits:
            return
        for table, seq in marks:
            key = log_key(tournament, table)
            if seq < 0:
                found = await self.redis.xrevrange(key, count=1)
            else:
                found = await self.redis.xrange(key, min=f"{seq}-0", max=f"{seq}-0")
            entries = cast(list[tuple[bytes, dict[bytes, bytes]]], found)
            if not entries:
                continue
            entry_id, fields = entries[0]
            again = Published(
                tournament,
                table,
                int(entry_id.split(b"-")[0]),
                float(fields.get(b"a", b"0")),
                [msgspec.Raw(fields[b"e"])],
            )
            await self.batch.announce(channel(tournament), msgspec.json.encode(again))

    def later(self, tournament: str, origin: str, command_id: str, marks: Sequence[Mark]) -> None:
        """After a shortfall: confirm the command in the background; once confirmed, publish
        the entries at ``marks`` (the commit's last event in each log it wrote)."""
        if not self.waits:
            return
        for table, _ in marks:
            running = self._pending.pop((tournament, table), None)
            if running is not None:
                running.cancel()  # the newer commit's last event covers the older's
        if len(self._pending) >= PENDING_MAX:
            log.warning("too many commits waiting for their replicas; left to the gap fills")
            return
        task = asyncio.get_running_loop().create_task(
            self._confirm(tournament, origin, command_id, list(marks))
        )
        for table, _ in marks:
            self._pending[(tournament, table)] = task
        task.add_done_callback(lambda done: self._forget(tournament, marks, done))

    def _forget(self, tournament: str, marks: Sequence[Mark], task: asyncio.Task[None]) -> None:
        for table, _ in marks:
            if self._pending.get((tournament, table)) is task:
                del self._pending[(tournament, table)]

    async def _confirm(
        self, tournament: str, origin: str, command_id: str, marks: list[Mark]
    ) -> None:
        for pause in PAUSES:
            await asyncio.sleep(pause)
            try:
                done = await self.seen(tournament, origin, command_id)
            except (RedisConnectionError, RedisTimeoutError):
                continue  # not confirmed yet (or Redis away): ask again later
            if done is not None:
                with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
                    await self.offer(tournament, marks)
            return
        log.warning(
            "a commit's replicas never confirmed it; its events are left to the gap fills",
            extra={"tournament": tournament, "command": command_id},
        )
