"""How many replicas must hold a commit before the service acknowledges it (Redis ``WAIT``).

Redis replicates asynchronously: a primary that dies a millisecond after a commit can take the
commit with it, and the replica promoted in its place never had it. A station that was told
``ok`` would then hold an acknowledgement of a bet that no longer happened. So, where the
primary has replicas, every commit is followed by ``WAIT`` on the connection that sent it, and
the command is acknowledged only when the replica count came back; a shortfall (the timeout
passed first) answers ``unavailable``, and the station sends the command again with its id (the
commit scripts then answer ``duplicate`` — and rewrite the command's record, so that the ``WAIT``
after the retry covers the first commit too).

``TABLEWIRE_WAIT_REPLICAS`` (``tablewire serve --wait-replicas``):

- ``auto`` (the default): 1 on a primary that has a replica connected, 0 on one without (looked
  up at start-up and every ``REFRESH_SECONDS``; on a cluster, per primary). Just after a
  failover the promoted replica has no replica of its own until the old primary returns; while
  it has none its commits are acknowledged on it alone.
- a number N: always N; while fewer replicas answer, every command is refused ``unavailable``.

The events of a commit that waits are published only after the ``WAIT`` came back
(``server.batch``): a station never sees an event a failover can take back.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from redis.asyncio.cluster import RedisCluster

from server import metrics
from server.redis_connect import RedisClient

log = logging.getLogger("tablewire.replication")

REFRESH_SECONDS = 2.0
"""How often ``auto`` looks up each primary's connected replicas."""
SINGLE = ""
"""The node name of a single Redis (or Sentinel's primary)."""


class ReplicaWait:
    """The replica count each primary's commits wait for, and how long they wait."""

    def __init__(self, required: int | None, timeout_ms: int) -> None:
        if required is not None and required < 0:
            raise ValueError("the replicas to wait for are 0 or more")
        if timeout_ms <= 0:
            raise ValueError("the wait for replicas needs a timeout above 0 ms")
        self.required = required
        """None: ``auto``."""
        self.timeout_ms = timeout_ms
        self.connected: dict[str, int] = {}
        """``auto``: the replicas each primary had connected when last looked up."""

    @classmethod
    def from_environment(cls) -> ReplicaWait:
        wanted = os.environ.get("TABLEWIRE_WAIT_REPLICAS", "auto").strip() or "auto"
        timeout = float(os.environ.get("TABLEWIRE_WAIT_TIMEOUT", "2") or "2")
        if wanted == "auto":
            return cls(None, int(timeout * 1000))
        if not wanted.isdigit():
            raise ValueError(f"TABLEWIRE_WAIT_REPLICAS is 'auto' or a number, not {wanted!r}")
        return cls(int(wanted), int(timeout * 1000))

    def wanted(self, node: str) -> int:
        """How many replicas a commit on ``node`` waits for."""
        if self.required is not None:
            return self.required
        return min(1, self.connected.get(node, 0))

    def short(self, node: str, got: int) -> None:
        """A ``WAIT`` on ``node`` came back with ``got`` replicas, fewer than wanted: counted
        and logged (``auto`` stops waiting on a lost replica at its next look-up)."""
        metrics.REPLICA_SHORTFALLS.inc()
        log.warning(
            "a commit was not confirmed by the replicas it waits for",
            extra={"node": node or "redis", "replicas": got, "wanted": self.wanted(node)},
        )

    async def look_up(self, redis: RedisClient) -> None:
        """Read each primary's connected replicas (``auto`` only)."""
        if self.required is not None:
            return
        if isinstance(redis, RedisCluster):
            found: Any = await redis.info("replication", target_nodes=RedisCluster.PRIMARIES)
            infos = {"": found} if "connected_slaves" in found else dict(found)
            if "" in infos:
                # One primary answered alone: named by the client's only primary.
                infos = {redis.get_primaries()[0].name: infos[""]}
            self.connected = {
                name: int(info.get("connected_slaves", 0)) for name, info in infos.items()
            }
        else:
            info = await redis.info("replication")
            self.connected = {SINGLE: int(info.get("connected_slaves", 0))}

    async def run(self, redis: RedisClient) -> None:
        """Keep ``auto``'s replica counts current (a Redis that does not answer keeps the last
        ones: its commits fail anyway)."""
        while self.required is None:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.look_up(redis)
            except Exception as exc:  # Redis away: try again next time
                log.debug("replica look-up failed", extra={"error": str(exc)})
