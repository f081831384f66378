"""The service: websockets for the stations, HTTP for operations, Redis underneath.

``/healthz`` says the process is up; ``/readyz`` that Redis answers and this instance's event
subscription is live (a server that stopped receiving a table's events is not ready);
``/metrics`` serves Prometheus metrics. SIGTERM stops new connections, lets commands in flight
finish and closes every socket cleanly.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import secrets
import signal
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import anyio
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server import metrics
from server.connection import Connection
from server.embedded_redis import EmbeddedRedis
from server.fanout import Fanout
from server.station import Gate, Services, Station
from server.store import Store
from server.tables import Tables

log = logging.getLogger("tablewire.server")
MAX_FRAME = 64 * 1024
REDIS_CONNECTIONS = 256


@dataclass
class Settings:
    host: str = "127.0.0.1"
    port: int = 8765
    data_dir: Path = Path("data")
    redis_url: str | None = None
    secret: str | None = None
    name: str = "tablewire"
    heartbeat: float = 15.0
    static_dir: Path | None = None
    fsync: str = "always"
    extra: dict[str, Any] = field(default_factory=dict)


def load_secret(settings: Settings) -> bytes:
    """The token secret: given, or kept in the data directory so tokens outlive restarts."""
    if settings.secret:
        return settings.secret.encode()
    path = settings.data_dir / "secret"
    if not path.exists():
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip().encode()


class App:
    def __init__(self, settings: Settings, redis: Redis) -> None:
        self.settings = settings
        self.name = settings.name
        self.heartbeat = settings.heartbeat
        self.secret = load_secret(settings)
        self.redis = redis
        self.store = Store(redis)
        # A few of the pool's connections are left to subscriptions, catch-ups and health checks.
        pool_size = getattr(redis.connection_pool, "max_connections", REDIS_CONNECTIONS)
        self.tables = Tables(self.store, slots=max(1, pool_size * 15 // 16))
        self.fanout = Fanout(redis, self.store)
        self.gate = Gate()
        self.services = Services(
            self.tables, self.fanout, self.store, self.secret, self.name, self.heartbeat, self.gate
        )

    async def handle(self, ws: ServerConnection) -> None:
        assert isinstance(ws, Connection)  # serve() makes every connection one of ours
        await Station(ws, self.services).run()

    async def ready(self) -> bool:
        try:
            await asyncio.wait_for(self.redis.ping(), 1.0)
        except Exception:
            return False
        return self.fanout.healthy and not self.gate.draining

    async def http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?")[0]
        if path == "/healthz":
            return connection.respond(200, "ok\n")
        if path == "/readyz":
            ok = await self.ready()
            return connection.respond(200 if ok else 503, "ready\n" if ok else "not ready\n")
        if path == "/metrics":
            body = generate_latest()
            headers = Headers(
                [("Content-Type", CONTENT_TYPE_LATEST), ("Content-Length", str(len(body)))]
            )
            return Response(200, "OK", headers, body)
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        return self.static(connection, path)

    def static(self, connection: ServerConnection, path: str) -> Response:
        root = self.settings.static_dir
        if root is None:
            return connection.respond(404, "not found\n")
        target = (root / path.lstrip("/")).resolve()
        if path in ("/", ""):
            target = root / "index.html"
        if (
            root.resolve() not in target.parents and target != root.resolve()
        ) or not target.is_file():
            return connection.respond(404, "not found\n")
        kind = {
            ".html": "text/html",
            ".js": "text/javascript",
            ".css": "text/css",
            ".svg": "image/svg+xml",
        }
        body = target.read_bytes()
        headers = Headers(
            [
                (
                    "Content-Type",
                    kind.get(target.suffix, "application/octet-stream") + "; charset=utf-8",
                ),
                ("Content-Length", str(len(body))),
                ("Cache-Control", "no-cache"),
            ]
        )
        return Response(200, "OK", headers, body)


async def run(settings: Settings, started: asyncio.Event | None = None) -> None:
    """Serve until SIGTERM or SIGINT; then drain and close."""
    embedded: EmbeddedRedis | None = None
    url = settings.redis_url
    if url is None:
        embedded = EmbeddedRedis(settings.data_dir / "redis", fsync=settings.fsync)
        embedded.start()
        url = embedded.url
    # A bounded pool that waits for a free connection rather than failing under a burst; the
    # event subscription has a connection of its own (redis-py's pubsub takes one from it).
    # Commands are idempotent by id, so a command on a connection that went stale (a Redis
    # restart) is simply tried again.
    pool = BlockingConnectionPool.from_url(
        url,
        max_connections=REDIS_CONNECTIONS,
        timeout=10,
        retry=Retry(ExponentialBackoff(cap=1.0, base=0.05), 3),
        retry_on_error=[RedisConnectionError, RedisTimeoutError],
    )
    redis = Redis(connection_pool=pool, socket_keepalive=True)
    app = App(settings, redis)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    fanout = loop.create_task(app.fanout.run())
    supervisor = loop.create_task(_supervise(embedded)) if embedded else None
    async with serve(
        app.handle,
        settings.host,
        settings.port,
        process_request=app.http,
        max_size=MAX_FRAME,
        ping_interval=settings.heartbeat,
        ping_timeout=settings.heartbeat,
        max_queue=64,
        close_timeout=2,
        compression=None,
        create_connection=Connection,
    ) as server:
        # Long-lived objects (connections, tables) are frozen out of the collector's full
        # passes, and young collections run less often: fewer pauses under load.
        gc.collect()
        gc.freeze()
        gc.set_threshold(20_000, 20, 20)
        metrics.time_collections()
        port = server.sockets[0].getsockname()[1] if server.sockets else settings.port
        settings.port = port
        log.info("serving", extra={"remote": f"ws://{settings.host}:{port}/"})
        _announce(settings, url, embedded is not None)
        if started is not None:
            started.set()
        await stop.wait()
        app.gate.draining = True
        server.close(close_connections=False)
        for _ in range(100):
            if app.gate.in_flight == 0:
                break
            await asyncio.sleep(0.05)
        await asyncio.gather(
            *(ws.close(1001, "server shutting down") for ws in list(server.connections)),
            return_exceptions=True,
        )
    fanout.cancel()
    if supervisor:
        supervisor.cancel()
    await redis.aclose()
    if embedded:
        embedded.stop()


async def _supervise(embedded: EmbeddedRedis) -> None:
    while True:
        await asyncio.sleep(1.0)
        if await anyio.to_thread.run_sync(embedded.ensure_running):
            log.warning("embedded redis-server restarted")


def _announce(settings: Settings, redis_url: str, embedded: bool) -> None:
    ws = f"ws://{settings.host}:{settings.port}/"
    http = f"http://{settings.host}:{settings.port}"
    where_data = f" (embedded, data in {settings.data_dir / 'redis'})" if embedded else ""
    print(f"Tablewire is up: {ws}  (health {http}/healthz, metrics {http}/metrics)")
    print(f"Redis: {_without_password(redis_url)}{where_data}")
    print("Connect a station with a token, e.g.:")
    print(f"  tablewire token --data-dir {settings.data_dir} --role admin --tournament main")
    print('then send {"type": "hello", "token": "..."} as the first websocket frame.', flush=True)


def _without_password(url: str) -> str:
    """The Redis URL as it may be logged: a password in it is masked."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))
