"""The primary and replica that hold one tournament, on a local Redis Cluster or behind local
Sentinels, with what a failover test does to them: kill -9 the primary, stop and resume the
replica, make it the primary, wait until the new primary serves.

``fill_backlog`` makes a stopped replica fall behind for certain. kill -9 of a primary loses
only what it had not yet handed to the kernel: what sits in the sockets' buffers (megabytes on
loopback) still reaches the replica when it resumes. So the test writes filler to the
tournament's primary until the primary itself holds more than ``BACKLOG`` bytes for the
replica; every commit after that is behind it and dies with the primary unless the service
waited for the replica (``WAIT``) before acknowledging it.
"""

from __future__ import annotations

import signal
from dataclasses import dataclass
from typing import Any, Protocol

from redis import Redis

from tests.service.polling import NotYet, poll, wait_new_primary
from tests.service.redis_cluster import PASSWORD as CLUSTER_PASSWORD
from tests.service.redis_cluster import LocalCluster

BACKLOG = 1 << 20
"""Bytes the primary holds for its replica beyond the sockets' buffers (idle: ~20 KB)."""
FILLER = b"f" * (256 << 10)
FILLER_LIMIT = 64 << 20
"""Filler written at most (the replica's output buffer limit is 256 MB, 64 MB for 60 s)."""


class Shard(Protocol):
    """The Redis nodes that hold the tournament, as the failover tests use them."""

    @property
    def url(self) -> str: ...

    def create(self) -> None: ...

    def primary(self) -> int: ...

    def replica(self) -> int: ...

    def node(self, port: int) -> Redis: ...

    def async_client(self) -> Any: ...

    def kill_primary(self) -> int: ...

    def pause_replica(self) -> int: ...

    def resume(self, port: int) -> None: ...

    def promote(self, port: int) -> None: ...

    def wait_promoted(self, old: int, timeout: float = 30.0) -> int: ...

    def stop(self) -> None: ...


@dataclass
class ClusterShard:
    """The primary and replica of a local cluster that own the slot of ``tag``'s hash tag."""

    cluster: LocalCluster
    tag: str

    @property
    def url(self) -> str:
        return self.cluster.url

    def create(self, timeout: float = 60.0) -> None:
        """The cluster, once every node counts the slot's replica online (in sync: the nodes
        learn it by gossip, after the cluster says ok)."""
        self.cluster.create(timeout)
        poll(lambda: [self.replica(port) for port in self._alive()], timeout, "the replica")

    def node(self, port: int) -> Redis:
        return Redis("127.0.0.1", port, password=CLUSTER_PASSWORD, socket_timeout=5)

    def _alive(self) -> list[int]:
        return [
            port
            for port, process in zip(self.cluster.ports, self.cluster.processes, strict=True)
            if process.poll() is None
        ]

    def _holders(self, asked: int) -> tuple[int, int | None]:
        """The primary and replica (if any is online) of the tag's slot, as node ``asked``
        sees them."""
        with self.node(asked) as node:
            slot = int(node.execute_command("CLUSTER KEYSLOT", self.tag))
            shards = node.execute_command("CLUSTER SHARDS")
        for shard in shards:
            ranges = shard[b"slots"]
            if not any(ranges[i] <= slot <= ranges[i + 1] for i in range(0, len(ranges), 2)):
                continue
            online = [n for n in shard[b"nodes"] if n[b"health"] == b"online"]
            primaries = [int(n[b"port"]) for n in online if n[b"role"] == b"master"]
            replicas = [int(n[b"port"]) for n in online if n[b"role"] == b"replica"]
            if primaries:
                return primaries[0], replicas[0] if replicas else None
        raise NotYet(f"node {asked} sees no online primary for slot {slot}")

    def primary(self) -> int:
        return self._holders(self._alive()[0])[0]

    def replica(self, asked: int | None = None) -> int:
        """The slot's replica online, as node ``asked`` (or the first node alive) sees it."""
        replica = self._holders(asked or self._alive()[0])[1]
        if replica is None:
            raise NotYet(f"no replica of {{{self.tag}}} online")
        return replica

    def async_client(self) -> Any:
        return self.cluster.async_client()

    def _signal(self, port: int, number: signal.Signals) -> None:
        self.cluster.processes[self.cluster.ports.index(port)].send_signal(number)

    def kill_primary(self) -> int:
        port = self.primary()
        self._signal(port, signal.SIGKILL)
        self.cluster.processes[self.cluster.ports.index(port)].wait()
        return port

    def pause_replica(self) -> int:
        port = self.replica()
        self._signal(port, signal.SIGSTOP)
        return port

    def resume(self, port: int) -> None:
        self._signal(port, signal.SIGCONT)

    def promote(self, port: int) -> None:
        """``CLUSTER FAILOVER TAKEOVER`` on the replica: it takes the slots at once, without
        the other primaries' votes (the cluster would fail over by itself a little later)."""
        with self.node(port) as node:
            node.execute_command("CLUSTER FAILOVER", "TAKEOVER")

    def wait_promoted(self, old: int, timeout: float = 30.0) -> int:
        """Until every live node names the same new primary of the slot, and it says the
        cluster is ok; its port."""
        return wait_new_primary(self._agreed, self._objection, old, timeout)

    def _agreed(self) -> int:
        named = {self._holders(port)[0] for port in self._alive()}
        if len(named) != 1:
            raise NotYet(f"the nodes name {sorted(named)} the primary of {{{self.tag}}}")
        return named.pop()

    def _objection(self, port: int) -> str:
        with self.node(port) as node:
            state = node.execute_command("CLUSTER INFO")["cluster_state"]
        return "" if state == "ok" else f"the cluster is {state}"

    def stop(self) -> None:
        for port in self._alive():
            self.resume(port)  # a stopped process ends only once resumed
        self.cluster.stop()


def replica_backlog(node: Redis) -> int:
    """Bytes the primary holds in its own memory for its replicas (the largest)."""
    return max((int(c["omem"]) for c in node.client_list(_type="replica")), default=0)


def fill_backlog(shard: Shard, tag: str) -> int:
    """Write filler to the tag's primary until it holds ``BACKLOG`` bytes for its (stopped)
    replica; the bytes written."""
    written = 0
    with shard.node(shard.primary()) as node:
        while replica_backlog(node) <= BACKLOG:
            if written > FILLER_LIMIT:
                raise RuntimeError(f"the replica took {written} bytes: it is not stopped")
            node.set(f"failover-filler:{{{tag}}}:{written}", FILLER)
            written += len(FILLER)
    return written


def wait_replicated(shard: Shard, timeout: float = 10.0) -> None:
    """Until the replica has applied all that the primary had written when asked (before a
    test stops it, so that what was acknowledged before is surely on it)."""
    with shard.node(shard.primary()) as node:
        written = int(node.info("replication")["master_repl_offset"])
    replica = shard.replica()

    def applied() -> None:
        with shard.node(replica) as node:
            offset = int(node.info("replication")["slave_repl_offset"])
        if offset < written:
            raise NotYet(f"the replica is at offset {offset} of {written}")

    poll(applied, timeout, "the replica in step")
