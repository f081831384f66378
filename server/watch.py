"""A watchdog on Redis: a stall is logged when it starts and when it ends, not only found later.

``/readyz`` and the commit-latency histogram tell an operator that Redis *was* slow once they
look. The watchdog pings Redis every ``EVERY`` seconds and logs one warning, "redis stalled",
as soon as a ping has gone unanswered for ``STALL_SECONDS`` (or failed), and one line, "redis
recovered after N s", when Redis answers again — so the log says when commands began to wait
and for how long, next to the commands that waited.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time

from server.redis_connect import RedisClient

log = logging.getLogger("tablewire.redis")
EVERY = 1.0
STALL_SECONDS = float(os.environ.get("TABLEWIRE_STALL_SECONDS", "2.0"))
"""A ping unanswered this long is a stall (commits normally take a few milliseconds)."""


class Watchdog:
    def __init__(self, redis: RedisClient, threshold: float = STALL_SECONDS) -> None:
        self.redis = redis
        self.threshold = threshold
        self.stalled_since: float | None = None
        """When the stall began (monotonic), while Redis is stalled."""

    async def run(self) -> None:
        while True:
            started = time.monotonic()
            ping = asyncio.ensure_future(self.redis.ping())
            try:
                await asyncio.wait_for(asyncio.shield(ping), self.threshold)
            except TimeoutError:
                self._stalled(started, f"no answer to a ping for {self.threshold:g} s")
                with contextlib.suppress(Exception):
                    await ping
            except Exception as failure:
                self._stalled(started, f"a ping failed: {failure}")
            if ping.done() and not ping.cancelled() and ping.exception() is None:
                self._answered()
            else:
                ping.cancel()
            await asyncio.sleep(EVERY)

    def _stalled(self, started: float, why: str) -> None:
        if self.stalled_since is None:
            self.stalled_since = started
            log.warning("redis stalled: %s", why)

    def _answered(self) -> None:
        if self.stalled_since is not None:
            lasted = time.monotonic() - self.stalled_since
            self.stalled_since = None
            log.warning("redis recovered after %.1f s", lasted)
