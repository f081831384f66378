"""A local Redis Sentinel set-up for the failover tests: one primary, one replica and three
Sentinels (quorum 2), all real ``redis-server`` (7) processes on 127.0.0.1 in a temporary
directory, the data nodes with AOF and a password.

The Sentinels notice a dead primary after ``down-after-milliseconds`` (1 s here, 30 s by
default) and promote the replica; the tests kill -9 the primary and wait for that, or stop the
replica (SIGSTOP) to make it fall behind first. The service reaches the primary through
``url`` (``redis+sentinel://:password@sentinel,sentinel,sentinel/SERVICE``), as an operator
would configure it.
"""

from __future__ import annotations

import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from redis import Redis
from redis.asyncio import Redis as AsyncRedis
from redis.exceptions import ResponseError

from server.embedded_redis import free_port
from tests.service.polling import NotYet, poll, wait_new_primary

PASSWORD = "sentinel-test-password"
SERVICE = "tablewire"
"""The name the Sentinels monitor the primary under (the URL's path)."""
DOWN_AFTER_MS = 1000
FAILOVER_TIMEOUT_MS = 3000
"""Small, so that a failover that stalls is tried again soon (and the next one may follow)."""


def _free_ports(count: int) -> list[int]:
    ports: list[int] = []
    while len(ports) < count:
        port = free_port()
        if port not in ports:
            ports.append(port)
    return ports


@dataclass
class LocalSentinel:
    """The primary and replica (``data_ports``, the first starts as primary) and three
    Sentinels (``sentinel_ports``); ``processes`` maps each port to its process."""

    root: Path
    server: str
    data_ports: list[int] = field(default_factory=lambda: _free_ports(2))
    sentinel_ports: list[int] = field(default_factory=lambda: _free_ports(3))
    processes: dict[int, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def url(self) -> str:
        sentinels = ",".join(f"127.0.0.1:{port}" for port in self.sentinel_ports)
        return f"redis+sentinel://:{PASSWORD}@{sentinels}/{SERVICE}"

    def create(self, timeout: float = 60.0) -> None:
        """Start the primary, its replica, then the Sentinels; wait until all agree."""
        primary, replica = self.data_ports
        self._spawn_data(primary, [])
        self._spawn_data(replica, [f"replicaof 127.0.0.1 {primary}"])
        for port in self.sentinel_ports:
            self._spawn_sentinel(port, primary)
        self.wait_ready(timeout)

    def _spawn_data(self, port: int, extra: list[str]) -> None:
        self._spawn(
            port,
            [
                f"port {port}",
                "appendonly yes",
                "appendfsync everysec",
                'save ""',
                # The replica's first sync starts at once (Redis waits 5 s for more replicas).
                "repl-diskless-sync-delay 0",
                f"requirepass {PASSWORD}",
                f"masterauth {PASSWORD}",
                *extra,
            ],
            sentinel=False,
        )

    def _spawn_sentinel(self, port: int, primary: int) -> None:
        self._spawn(
            port,
            [
                f"port {port}",
                f"sentinel monitor {SERVICE} 127.0.0.1 {primary} 2",
                f"sentinel auth-pass {SERVICE} {PASSWORD}",
                f"sentinel down-after-milliseconds {SERVICE} {DOWN_AFTER_MS}",
                f"sentinel failover-timeout {SERVICE} {FAILOVER_TIMEOUT_MS}",
                f"sentinel parallel-syncs {SERVICE} 1",
            ],
            sentinel=True,
        )

    def _spawn(self, port: int, lines: list[str], sentinel: bool) -> None:
        folder = self.root / str(port)
        folder.mkdir(parents=True, exist_ok=True)
        conf = folder / ("sentinel.conf" if sentinel else "redis.conf")
        conf.write_text("\n".join(["bind 127.0.0.1", f"dir {folder}", *lines, ""]))
        log = open(folder / "redis.log", "ab")  # noqa: SIM115 - the child owns it
        command = [self.server, str(conf), *(["--sentinel"] if sentinel else [])]
        self.processes[port] = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every Sentinel names the same primary, knows the other two Sentinels and sees
        the replica up and in sync."""
        poll(self._ready, timeout, "the Sentinels and their replica")

    def _ready(self) -> None:
        for port, process in self.processes.items():
            if process.poll() is not None:
                raise RuntimeError(f"redis-server on port {port} exited ({process.returncode})")
        primary, replica = self.primary(), self.replica()
        objection = self._objection(primary)
        if objection:
            raise NotYet(f"the primary {primary}: {objection}")
        with self.node(replica) as node:
            link = node.info("replication").get("master_link_status")
        if link != "up":
            raise NotYet(f"replica {replica}: link to the primary {link}")
        for port in self.sentinel_ports:
            with Redis("127.0.0.1", port, socket_timeout=1) as sentinel:
                replicas = sentinel.sentinel_slaves(SERVICE)
                others = sentinel.sentinel_sentinels(SERVICE)
            if not [r for r in replicas if r["port"] == replica and not r["is_sdown"]]:
                raise NotYet(f"sentinel {port}: replica {replica} not known, or down")
            if len(others) < len(self.sentinel_ports) - 1:
                raise NotYet(f"sentinel {port}: knows {len(others)} other Sentinels")

    def primary(self) -> int:
        """The port of the primary, as every Sentinel reports it (they must agree)."""
        named: set[int] = set()
        for port in self.sentinel_ports:
            with Redis("127.0.0.1", port, socket_timeout=1) as sentinel:
                found = sentinel.sentinel_get_master_addr_by_name(SERVICE)
            if found is None:
                raise NotYet(f"sentinel {port} names no primary")
            named.add(int(found[1]))
        if len(named) != 1:
            raise NotYet(f"the Sentinels disagree on the primary: {sorted(named)}")
        return named.pop()

    def replica(self) -> int:
        """The data node that is not the primary."""
        primary = self.primary()
        return next(port for port in self.data_ports if port != primary)

    def node(self, port: int) -> Redis:
        return Redis("127.0.0.1", port, password=PASSWORD, socket_timeout=5)

    def async_client(self) -> AsyncRedis:
        """An asyncio client of the primary the Sentinels name now."""
        return AsyncRedis(host="127.0.0.1", port=self.primary(), password=PASSWORD)

    def kill_primary(self) -> int:
        """kill -9 of the primary; its port."""
        port = self.primary()
        process = self.processes[port]
        process.send_signal(signal.SIGKILL)
        process.wait()
        return port

    def pause_replica(self) -> int:
        """SIGSTOP of the replica (it still looks connected to the primary); its port."""
        port = self.replica()
        self.processes[port].send_signal(signal.SIGSTOP)
        return port

    def resume(self, port: int) -> None:
        """SIGCONT of a stopped node."""
        self.processes[port].send_signal(signal.SIGCONT)

    def promote(self, port: int, timeout: float = 20.0) -> None:
        """``SENTINEL FAILOVER``: a Sentinel promotes the replica now rather than after
        ``down-after-milliseconds``. It refuses while it still counts the replica down (just
        resumed), so it is asked again until it accepts, or has begun one by itself."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                with Redis("127.0.0.1", self.sentinel_ports[0], socket_timeout=5) as sentinel:
                    sentinel.execute_command("SENTINEL FAILOVER", SERVICE)
                return
            except ResponseError as refused:
                if "INPROG" in str(refused):
                    return
                if time.monotonic() > deadline:
                    raise
            time.sleep(0.05)

    def wait_promoted(self, old: int, timeout: float = 30.0) -> int:
        """Until every Sentinel names a primary other than ``old`` and that node says it is the
        primary; its port."""
        return wait_new_primary(self.primary, self._objection, old, timeout)

    def _objection(self, port: int) -> str:
        with self.node(port) as node:
            role = node.info("replication")["role"]
        return "" if role == "master" else f"it is still a {role}"

    def stop(self) -> None:
        for process in self.processes.values():
            if process.poll() is None:
                process.send_signal(signal.SIGCONT)  # a stopped process ends only once resumed
                process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
