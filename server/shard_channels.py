"""The tournaments' event channels by sharded pub/sub (Redis 7): each instance subscribes only
to the tournaments its own stations watch.

A commit publishes its events with ``SPUBLISH`` on ``tw:{T}:events``, which Redis Cluster
delivers only on the node that owns the tournament's slot (a plain ``PUBLISH`` goes to every
node of the cluster). This instance ``SSUBSCRIBE``\\ s to a tournament when the first of its
stations starts watching it and ``SUNSUBSCRIBE``\\ s when the last one leaves, so its fan-out
work grows with its own stations, not with the whole festival.

One connection per node that owns a watched tournament (one in all on a single Redis), each
with a reader. A subscription is live once Redis confirms it; the fan-out is then told
(``joined``), and it reads what the tournament's logs committed before that moment, so no
commit between a station's catch-up and the confirmation is missed. Every connection is
pinged each ``PROBE_EVERY`` seconds on the subscription itself.

Any failure — a connection lost, a ping unanswered for ``PROBE_GRACE`` seconds, a refusal
(``MOVED`` after a failover), or Redis ending a subscription itself (the slot moved to
another node) — ends :meth:`ShardChannels.run` with the error: the fan-out reconnects, the
cluster's map of slots is read again and every wanted tournament is subscribed and joined
again, its gaps filled from the logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster

from server.keys import channel
from server.redis_connect import RedisClient, subscriber

PROBE_EVERY = 1.0
PROBE_GRACE = 5.0
_PREFIX, _SUFFIX = channel("\0").encode().split(b"\0")


class SubscriptionEnded(ConnectionError):
    """Redis ended a subscription this instance still wants, or stopped answering on it."""


def tournament_of(name: bytes) -> str:
    """The tournament whose channel ``name`` is."""
    return name[len(_PREFIX) : len(name) - len(_SUFFIX)].decode()


@dataclass
class _Node:
    """One subscription connection: to a cluster node, or to the one Redis."""

    name: str
    client: Redis
    pubsub: PubSub
    answered: float = field(default_factory=time.monotonic)
    """When the last ping on this connection was answered (monotonic)."""


class ShardChannels:
    def __init__(
        self,
        redis: RedisClient,
        url: str,
        receive: Callable[[bytes], Awaitable[None]],
        joined: Callable[[str], Coroutine[Any, Any, None]],
    ) -> None:
        self.redis = redis
        self.url = url
        self.receive = receive
        """Called with each message published on a subscribed channel."""
        self.joined = joined
        """Called with a tournament once its subscription is confirmed."""
        self.wanted: set[str] = set()
        self.nodes: dict[str, _Node] = {}
        self.on: dict[str, str] = {}
        """The node each subscribed tournament is subscribed on."""
        self.leaving: defaultdict[bytes, int] = defaultdict(int)
        """Unsubscriptions sent and not yet confirmed, per channel."""
        self.changed = asyncio.Event()

    def want(self, tournament: str) -> None:
        if tournament not in self.wanted:
            self.wanted.add(tournament)
            self.changed.set()

    def drop(self, tournament: str) -> None:
        if tournament in self.wanted:
            self.wanted.discard(tournament)
            self.changed.set()

    def answered(self) -> float:
        """When the connection answered longest ago last answered (now, with none open)."""
        return min((node.answered for node in self.nodes.values()), default=time.monotonic())

    async def run(self) -> None:
        """Keep the subscriptions to the wanted tournaments and deliver their messages until
        one fails; then close every connection and raise."""
        if isinstance(self.redis, RedisCluster):
            await self.redis.nodes_manager.initialize()
        try:
            async with asyncio.TaskGroup() as group:
                group.create_task(self._probe())
                while True:
                    self.changed.clear()
                    await self._settle(group)
                    await self.changed.wait()
        finally:
            nodes, self.nodes = list(self.nodes.values()), {}
            self.on.clear()
            self.leaving.clear()
            for node in nodes:
                await _close(node)

    async def _settle(self, group: asyncio.TaskGroup) -> None:
        """Subscribe to what is wanted and not subscribed, unsubscribe from the reverse."""
        for tournament in [t for t in self.on if t not in self.wanted]:
            name = channel(tournament)
            self.leaving[name.encode()] += 1
            await self.nodes[self.on.pop(tournament)].pubsub.sunsubscribe(name)
        for tournament in [t for t in self.wanted if t not in self.on]:
            name = channel(tournament)
            node = self._node_for(name)
            fresh = node.name not in self.nodes
            try:
                await node.pubsub.ssubscribe(name)
            except BaseException:
                if fresh:
                    await _close(node)
                raise
            self.on[tournament] = node.name
            if fresh:
                self.nodes[node.name] = node
                group.create_task(self._read(node, group))

    def _node_for(self, name: str) -> _Node:
        """The connection to the node that owns channel ``name``'s slot (made if new)."""
        if isinstance(self.redis, RedisCluster):
            owner = self.redis.get_node_from_key(name)
            if owner is None:
                raise SubscriptionEnded(f"no node of the cluster owns {name}")
            key, host, port = owner.name, owner.host, int(owner.port)
        else:
            key, host, port = "redis", "", 0
        known = self.nodes.get(key)
        if known is not None:
            return known
        client = subscriber(self.url, host or None, port or None)
        return _Node(key, client, client.pubsub())

    async def _read(self, node: _Node, group: asyncio.TaskGroup) -> None:
        while True:
            message: dict[str, Any] | None = await node.pubsub.get_message(timeout=None)
            if message is None:
                continue
            kind = message["type"]
            if kind == "smessage":
                await self.receive(message["data"])
            elif kind == "pong":
                node.answered = time.monotonic()
            elif kind == "ssubscribe":
                tournament = tournament_of(message["channel"])
                if self.on.get(tournament) == node.name:
                    group.create_task(self.joined(tournament))
            elif kind == "sunsubscribe":
                name = message["channel"]
                if self.leaving.get(name, 0) <= 0:
                    raise SubscriptionEnded(f"Redis ended the subscription to {name.decode()}")
                self.leaving[name] -= 1
                if not self.leaving[name]:
                    del self.leaving[name]

    async def _probe(self) -> None:
        while True:
            for node in list(self.nodes.values()):
                await node.pubsub.ping()
            await asyncio.sleep(PROBE_EVERY)
            for node in list(self.nodes.values()):
                if time.monotonic() - node.answered > PROBE_GRACE:
                    raise SubscriptionEnded(f"node {node.name} did not answer its subscription")


async def _close(node: _Node) -> None:
    with contextlib.suppress(Exception):
        await node.pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]
    with contextlib.suppress(Exception):
        await node.client.aclose()
