"""A lease held in Redis: one instance at a time does a job, another takes over if it dies.

Work that must run once for the whole service — the clocks on players (``server.timers``), and
the tournament clock later — runs under a lease: a Redis key set with ``SET key owner NX PX``
and renewed by its holder every third of its lifetime. The holder that stops renewing (killed,
cut off from Redis) loses it when the key expires, and the next instance to try takes it: a
takeover within about ``ttl * 4 / 3`` seconds. A holder that cannot renew in time stops its
work before the lease can have passed to another instance; one that shuts down cleanly gives
the lease back at once.

A lease narrows, it does not guarantee, "only one": a holder paused past its lease (a long GC,
SIGSTOP) may act once more after another took over. Work under a lease is therefore written to
be safe if two run at once (the timers apply each expiry with a deterministic command id).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from server.redis_connect import RedisClient

log = logging.getLogger("tablewire.lease")

RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Lease:
    def __init__(self, redis: RedisClient, key: str, owner: str, ttl: float = 5.0) -> None:
        self.redis = redis
        self.key = key
        self.owner = owner
        """Unique to this instance (two instances may share a name)."""
        self.ttl = ttl
        self._renew = redis.register_script(RENEW)
        self._release = redis.register_script(RELEASE)

    async def run(self, work: Callable[[], Awaitable[None]]) -> None:
        """Forever: wait for the lease, then run ``work`` while it is held; stop it when lost."""
        try:
            while True:
                if await self._acquire():
                    await self._hold(work)
                await asyncio.sleep(self.ttl / 3)
        finally:
            # Stopped (shutdown): give the lease back so another instance need not wait for it
            # to expire; only the holder's own key is deleted.
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._release(keys=[self.key], args=[self.owner]), 1.0)

    async def _acquire(self) -> bool:
        try:
            taken = await asyncio.wait_for(
                self.redis.set(self.key, self.owner, nx=True, px=int(self.ttl * 1000)),
                self.ttl / 3,
            )
        except Exception:
            return False
        return bool(taken)

    async def _hold(self, work: Callable[[], Awaitable[None]]) -> None:
        valid_until = time.monotonic() + self.ttl
        log.info("lease %s acquired by %s", self.key, self.owner)
        task = asyncio.ensure_future(work())
        try:
            while not task.done():
                await asyncio.wait([task], timeout=self.ttl / 3)
                if task.done():
                    break
                sent = time.monotonic()
                try:
                    renewed = await asyncio.wait_for(
                        self._renew(keys=[self.key], args=[self.owner, int(self.ttl * 1000)]),
                        max(0.01, valid_until - sent - self.ttl / 6),
                    )
                except Exception:
                    renewed = None  # no answer: the lease may still be ours until valid_until
                if renewed == 0:
                    log.warning("lease %s lost by %s", self.key, self.owner)
                    break
                if renewed is not None:
                    valid_until = sent + self.ttl
                elif time.monotonic() >= valid_until - self.ttl / 6:
                    log.warning(
                        "lease %s given up by %s: Redis did not answer", self.key, self.owner
                    )
                    break
            if task.done() and not task.cancelled() and task.exception() is not None:
                log.warning("work under lease %s failed", self.key, exc_info=task.exception())
        finally:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
