"""The Redis a run's server stands on (``benchmarks/load.py --redis``), and how the runs on
each compare.

- ``single``: one ``redis-server`` (``server.embedded_redis.EmbeddedRedis``), the service's
  default; no replica, so the server waits for none (``WAIT`` is sent only where the primary
  has a replica, ``server/replication.py``);
- ``replica``: the same with a replica of it (``REPLICAOF``): every commit now waits for one
  replica to have it, as on the cluster, so that the cluster's cost is seen apart from WAIT's;
- ``cluster``: a local Redis Cluster of 3 primaries and 3 replicas (``redis-server`` 7, the
  tests' ``LocalCluster``), ``REDIS_URL=redis+cluster://``; each commit waits for its
  primary's replica.

Every node runs with the run's ``--fsync`` (``appendfsync``), so the setups differ only in
what they are.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import redis as redis_lib

from loadgen.common import PHASE_NAMES
from loadgen.machine import REDIS_SPIKE_MS
from loadgen.report import PhaseResult, percentile
from server.embedded_redis import EmbeddedRedis
from tests.service.redis_cluster import PASSWORD, LocalCluster, redis7

KINDS = ("single", "replica", "cluster")
GOAL_RATIO = 0.8
"""The cluster's commands/s and p99 beside the single Redis's (issue 14, acceptance 5)."""


@dataclass
class Backend:
    kind: str
    url: str
    """The server's ``REDIS_URL``."""
    monitor_url: str
    """A plain ``redis://`` URL of one primary, for its latency monitor."""
    pids: dict[str, int] = field(default_factory=dict)
    version: str = "?"
    waits: str = "no replica: no WAIT"


def _prepare(url: str, fsync: str) -> str:
    """Set a node's ``appendfsync`` and latency threshold; its version."""
    node = redis_lib.Redis.from_url(url)
    node.config_set("appendfsync", fsync)
    node.config_set("latency-monitor-threshold", REDIS_SPIKE_MS)
    return str(node.info("server").get("redis_version", "?"))


@contextlib.contextmanager
def backend(kind: str, root: Path, fsync: str) -> Iterator[Backend]:
    """The Redis of ``kind`` started in ``root``, stopped afterwards."""
    if kind == "cluster":
        found = redis7()
        if found is None:
            raise RuntimeError("--redis cluster needs redis-server 7 and redis-cli")
        cluster = LocalCluster(root / "cluster", *found)
        try:
            cluster.create()
            nodes = [f"redis://:{PASSWORD}@127.0.0.1:{port}/0" for port in cluster.ports]
            version = [_prepare(url, fsync) for url in nodes][-1]
            yield Backend(
                kind,
                cluster.url,
                nodes[0],
                {f"redis{i}": p.pid for i, p in enumerate(cluster.processes)},
                version,
                "each commit waits for its primary's replica (WAIT 1)",
            )
        finally:
            cluster.stop()
        return
    primary = EmbeddedRedis(root / "redis", fsync=fsync)
    replica = EmbeddedRedis(root / "replica", fsync=fsync) if kind == "replica" else None
    try:
        primary.start()
        assert primary.process is not None
        pids = {"redis": primary.process.pid}
        version = _prepare(primary.url, fsync)
        waits = "no replica: no WAIT"
        if replica is not None:
            replica.start()
            assert replica.process is not None
            pids["replica"] = replica.process.pid
            node = redis_lib.Redis.from_url(replica.url)
            node.config_set("masterauth", primary.password)
            node.execute_command("REPLICAOF", "127.0.0.1", str(primary.port))
            _wait_in_sync(primary.url)
            waits = "each commit waits for the replica (WAIT 1)"
        yield Backend(kind, primary.url, primary.url, pids, version, waits)
    finally:
        if replica is not None:
            replica.stop()
        primary.stop()


def _wait_in_sync(primary_url: str, timeout: float = 30.0) -> None:
    """Until the primary lists a replica online (the server's ``auto`` then waits for it)."""
    node = redis_lib.Redis.from_url(primary_url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        info = node.info("replication")
        if info.get("connected_slaves") and "online" in str(info.get("slave0", {})):
            return
        time.sleep(0.1)
    raise RuntimeError("the replica did not come in sync within 30 s")


def compare(results: dict[str, dict[int, PhaseResult]], waits: dict[str, str]) -> list[str]:
    """Lines setting each setup's phases beside the single Redis's: commands/s, latency
    percentiles, the ratios (goal: the cluster's commands/s at least 0.8 x the single Redis's,
    and its p99 at most 1 / 0.8 x)."""
    lines = ["== the same phases on each Redis (dealer -> each subscriber, ms)"]
    lines += [f"   {kind}: {text}" for kind, text in waits.items()]
    base = results.get("single", {})
    for kind, phases in results.items():
        for phase, res in phases.items():
            lat, rate = res.latency, res.rate
            p99 = percentile(lat, 0.99)
            text = (
                f"  {kind:8} {PHASE_NAMES[phase]:10} {rate:7.0f} cmd/s  p50"
                f" {1000 * percentile(lat, 0.5):6.1f}  p95 {1000 * percentile(lat, 0.95):6.1f}"
                f"  p99 {1000 * p99:6.1f}  max {1000 * (lat[-1] if lat else float('nan')):7.1f}"
            )
            ref = base.get(phase)
            if ref is not None and kind != "single":
                ratio = rate / max(1e-9, ref.rate)
                ref_p99 = percentile(ref.latency, 0.99)
                text += f"  | {ratio:.2f} x single's cmd/s, p99 {p99 / ref_p99:.2f} x single's"
                if kind == "cluster":
                    met = ratio >= GOAL_RATIO and ref_p99 / p99 >= GOAL_RATIO
                    text += f" — goal >= {GOAL_RATIO:g} x: {'MET' if met else 'MISSED'}"
            lines.append(text)
    return lines
