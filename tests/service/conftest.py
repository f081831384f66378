"""Fixtures for the service tests: a real redis-server, real ``tablewire serve`` processes and
real websocket clients. Nothing is mocked."""

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

import pytest
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from clients.python import Client
from server.embedded_redis import EmbeddedRedis, free_port
from server.health import wait_http
from server.tokens import Claims, Role, issue
from tests.service.bots import Stations

SECRET = "test-secret-not-for-production"
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A real redis-server with AOF (appendfsync always) in a temporary directory."""
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
        wait_http(self.port, "/readyz")
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
    redis_server: EmbeddedRedis, tmp_path: Path
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
def redis_client(redis_server: EmbeddedRedis) -> Iterator[Redis]:
    client = Redis.from_url(redis_server.url)
    yield client
    client.close()


@pytest.fixture
async def aredis(redis_server: EmbeddedRedis) -> AsyncIterator[AsyncRedis]:
    client = AsyncRedis.from_url(redis_server.url)
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
