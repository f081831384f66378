"""How many replicas must hold a commit before the service acknowledges it (Redis ``WAIT``).

Redis replicates asynchronously: a primary that dies a millisecond after a commit can take the
commit with it, and the replica promoted in its place never had it. A station that was told
``ok`` would then hold an acknowledgement of a bet that no longer happened. So, where the
primary has replicas, every commit is followed by ``WAIT`` on the connection that sent it, and
the command is acknowledged only when the replica count came back; a shortfall (the timeout
passed first) answers ``unknown_outcome``, and the station sends the command again with its id (the
commit scripts then answer ``duplicate`` — and rewrite the command's record, so that the ``WAIT``
after the retry covers the first commit too).

``TABLEWIRE_WAIT_REPLICAS`` (``tablewire serve --wait-replicas``):

- ``auto`` (the default): 1 on a primary that has a replica in sync, 0 on one without (looked
  up at start-up and every ``REFRESH_SECONDS``; on a cluster, per primary). Just after a
  failover the promoted replica has no replica of its own until the old primary returns; while
  it has none its commits are acknowledged on it alone.
- a number N: always N; while fewer replicas answer, every command is answered
  ``unknown_outcome`` (it may have committed on the primary alone).

The events of a commit that waits are published only after the ``WAIT`` came back
(``server.batch``): no live event shows a commit a failover can take back.
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


def online_replicas(info: dict[str, Any]) -> int:
    """The replicas of ``INFO replication`` that are in sync (``slaveN: state=online``)."""
    return sum(
        1
        for name, value in info.items()
        if name.startswith("slave")
        and name[5:].isdigit()
        and isinstance(value, dict)
        and value.get("state") == "online"
    )


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
        """``auto``: the replicas in sync each primary had when last looked up."""

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
        """Read each primary's replicas in sync (``auto`` only). A replica still loading its
        first copy of the data counts among Redis's ``connected_slaves`` but not for ``WAIT``,
        so only those ``online`` count here. On a cluster each primary is asked on its own: one
        that does not answer keeps its last count."""
        if self.required is not None:
            return
        if not isinstance(redis, RedisCluster):
            self.connected = {SINGLE: online_replicas(await redis.info("replication"))}
            return
        await redis.initialize()  # the slot map: which nodes are the primaries
        for node in redis.get_primaries():
            try:
                found: Any = await redis.info("replication", target_nodes=node)
            except Exception as exc:  # that primary away: the others are still looked up
                log.debug("replica look-up failed", extra={"node": node.name, "error": str(exc)})
                continue
            info = found.get(node.name, found) if "role" not in found else found
            self.connected[node.name] = online_replicas(info)

    async def run(self, redis: RedisClient) -> None:
        """Keep ``auto``'s replica counts current (a Redis that does not answer keeps the last
        ones: its commits fail anyway)."""
        while self.required is None:
            await asyncio.sleep(REFRESH_SECONDS)
            try:
                await self.look_up(redis)
            except Exception as exc:  # Redis away: try again next time
                log.debug("replica look-up failed", extra={"error": str(exc)})
