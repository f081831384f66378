"""A local Redis Cluster for the tests: six real ``redis-server`` (7) processes on 127.0.0.1,
three primaries and three replicas, joined by ``redis-cli --cluster create``.

It stands where the tests' single Redis stands (``url``, ``process``, ``start``, ``stop``):
``process.kill()`` kills all six at once and ``start()`` starts them again from their own
directories (AOF and ``nodes.conf``), so a test that restarts "Redis" restarts the cluster.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis import Redis
from redis.asyncio.cluster import ClusterNode as AsyncClusterNode
from redis.asyncio.cluster import RedisCluster as AsyncRedisCluster
from redis.cluster import ClusterNode, RedisCluster

from server.embedded_redis import free_port

PASSWORD = "cluster-test-password"
NODES = 6
BUS_OFFSET = 10_000
"""Redis Cluster's bus port is the client port plus this."""


def redis7() -> tuple[str, str] | None:
    """``redis-server`` and ``redis-cli`` of Redis 7 or later (PATH, then Debian's), or None."""
    for folder in (None, "/usr/bin"):
        server = shutil.which("redis-server", path=folder)
        cli = shutil.which("redis-cli", path=folder)
        if server and cli and _major(server) >= 7:
            return server, cli
    return None


def _major(server: str) -> int:
    """The major version of a ``redis-server`` binary ("Redis server v=7.0.15 sha=...")."""
    try:
        out = subprocess.run([server, "--version"], capture_output=True, text=True, timeout=10)
    except OSError:
        return 0
    for word in out.stdout.split():
        if word.startswith("v="):
            return int(word[2:].split(".")[0])
    return 0


def _ports() -> list[int]:
    """Free client ports whose bus ports (+10000) are free too."""
    ports: list[int] = []
    while len(ports) < NODES:
        port = free_port()
        if port + BUS_OFFSET < 65536 and port not in ports and _free(port + BUS_OFFSET):
            ports.append(port)
    return ports


def _free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class WholeCluster(AsyncRedisCluster):
    """The cluster answering what the tests ask of "the Redis": ``INFO commandstats`` counts,
    ``CLIENT ...`` commands and the client list are every primary's (the keys of a test's
    tournament are on one of them)."""

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        if args and str(args[0]).upper() == "CLIENT" and "target_nodes" not in kwargs:
            name = f"CLIENT {args[1]}".upper()
            return await super().execute_command(name, *args[2:], target_nodes=self.PRIMARIES)
        return await super().execute_command(*args, **kwargs)

    async def info(self, section: Any = None, *args: Any, **kwargs: Any) -> Any:
        if section != "commandstats" or "target_nodes" in kwargs:
            return await super().info(section, *args, **kwargs)
        await self.initialize()  # the nodes are known once the client has started
        summed: dict[str, dict[str, int]] = {}
        for node in self.get_primaries():
            found = await super().info(section, target_nodes=node)
            for command, stats in found.items():
                into = summed.setdefault(command, {"calls": 0})
                into["calls"] += int(stats.get("calls", 0))
        return summed

    async def client_list(self, *args: Any, **kwargs: Any) -> list[dict[str, str]]:
        await self.initialize()
        clients: list[dict[str, str]] = []
        for node in self.get_primaries():
            clients += await super().client_list(*args, target_nodes=node, **kwargs)
        return clients


class NodeExited(RuntimeError):
    """A node's redis-server ended while the cluster was being started."""

    def __init__(self, port: int, log: str) -> None:
        super().__init__(f"redis-server on port {port} exited at start-up: {log}")


class _AllNodes:
    """The cluster's processes as one: what a test does to "the Redis process"."""

    def __init__(self, cluster: LocalCluster) -> None:
        self.cluster = cluster

    def kill(self) -> None:
        for process in self.cluster.processes:
            process.kill()

    def wait(self) -> None:
        for process in self.cluster.processes:
            process.wait()


@dataclass
class LocalCluster:
    root: Path
    server: str
    cli: str
    ports: list[int] = field(default_factory=_ports)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    node_timeout_ms: int = 5000
    """How long a node is unreachable before the others fail it over (a failover test wants
    it shorter)."""

    @property
    def url(self) -> str:
        seeds = ",".join(f"127.0.0.1:{port}" for port in self.ports[:3])
        return f"redis+cluster://:{PASSWORD}@{seeds}"

    @property
    def process(self) -> _AllNodes:
        return _AllNodes(self)

    def create(self, timeout: float = 60.0) -> None:
        """Start the six servers and join them: three primaries, a replica each.

        The ports were free when they were picked, but this machine's ephemeral range is where
        every test's connections take their own ports too, so one (or its bus port, +10000)
        can be taken before its server binds it: that server exits at once. Then all six
        start again on ports picked afresh (CI saw it twice in one run)."""
        for attempt in range(3):
            self._spawn()
            try:
                self._wait_answering(timeout)
                break
            except NodeExited:
                self.stop()
                if attempt == 2:
                    raise
                self.ports = _ports()
        joined = subprocess.run(
            [
                self.cli,
                "-a",
                PASSWORD,
                "--no-auth-warning",
                "--cluster",
                "create",
                *(f"127.0.0.1:{port}" for port in self.ports),
                "--cluster-replicas",
                "1",
                "--cluster-yes",
            ],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if joined.returncode:
            raise RuntimeError(f"redis-cli --cluster create failed: {joined.stdout[-2000:]}")
        self.wait_ready(timeout)

    def _wait_answering(self, timeout: float) -> None:
        """Until each server answers a PING (before they are joined)."""
        deadline = time.monotonic() + timeout
        for process, port in zip(self.processes, self.ports, strict=True):
            while True:
                if process.poll() is not None:
                    raise NodeExited(port, self._log_tail(port))
                try:
                    with Redis("127.0.0.1", port, password=PASSWORD, socket_timeout=1) as node:
                        node.ping()
                    break
                except Exception:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)

    def _log_tail(self, port: int) -> str:
        log = self.root / str(port) / "redis.log"
        return log.read_text(errors="replace")[-300:] if log.exists() else ""

    def start(self, timeout: float = 60.0) -> None:
        """Start the six servers again (after ``process.kill()``) and wait for the cluster."""
        self._spawn()
        self.wait_ready(timeout)

    def _spawn(self) -> None:
        self.processes = []
        for port in self.ports:
            folder = self.root / str(port)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "redis.conf").write_text(
                "\n".join(
                    [
                        "bind 127.0.0.1",
                        f"port {port}",
                        f"dir {folder}",
                        "cluster-enabled yes",
                        "cluster-config-file nodes.conf",
                        f"cluster-node-timeout {self.node_timeout_ms}",
                        "appendonly yes",
                        "appendfsync everysec",
                        'save ""',
                        f"requirepass {PASSWORD}",
                        f"masterauth {PASSWORD}",
                        "",
                    ]
                )
            )
            log = open(folder / "redis.log", "ab")  # noqa: SIM115 - the child owns it
            self.processes.append(
                subprocess.Popen(
                    [self.server, str(folder / "redis.conf")], stdout=log, stderr=subprocess.STDOUT
                )
            )

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every node says ``cluster_state:ok`` with all 16384 slots served."""
        deadline = time.monotonic() + timeout
        waiting = "no node answered"
        while time.monotonic() < deadline:
            waiting = self._not_ready()
            if not waiting:
                return
            time.sleep(0.1)
        raise RuntimeError(f"the Redis Cluster is not ready after {timeout:g} s: {waiting}")

    def _not_ready(self) -> str:
        """Why the cluster is not ready yet ("" once it is)."""
        for process, port in zip(self.processes, self.ports, strict=True):
            if process.poll() is not None:
                raise RuntimeError(f"redis-server on port {port} exited ({process.returncode})")
            try:
                with Redis("127.0.0.1", port, password=PASSWORD, socket_timeout=1) as node:
                    info = node.execute_command("CLUSTER INFO")
                    replication = node.info("replication")
            except Exception as exc:
                return f"port {port}: {exc}"
            state, served = info.get("cluster_state"), info.get("cluster_slots_ok")
            if state != "ok" or int(served or 0) != 16384:
                return f"port {port}: cluster_state {state}, {served} slots served"
            if replication["role"] == "master" and not replication["connected_slaves"]:
                return f"port {port}: a primary without a replica yet"
            if replication["role"] == "slave" and replication["master_link_status"] != "up":
                return f"port {port}: a replica not in sync yet"
        return ""

    def client(self) -> RedisCluster:
        return RedisCluster(
            startup_nodes=[ClusterNode("127.0.0.1", port) for port in self.ports],
            password=PASSWORD,
        )

    def async_client(self) -> WholeCluster:
        return WholeCluster(
            startup_nodes=[AsyncClusterNode("127.0.0.1", port) for port in self.ports],
            password=PASSWORD,
        )

    def flush(self) -> None:
        """Empty every primary (the replicas follow), between tests."""
        with self.client() as cluster:
            cluster.flushall(target_nodes=RedisCluster.PRIMARIES)

    def alive(self) -> bool:
        return bool(self.processes) and all(p.poll() is None for p in self.processes)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
