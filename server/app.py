"""The service: websockets for the stations, HTTP for operations, Redis underneath.

``/healthz`` says the process is up; ``/readyz`` that Redis answers and this instance's event
subscription is live (a server that stopped receiving a table's events is not ready);
``/metrics`` serves Prometheus metrics. SIGTERM stops new connections, lets commands in flight
finish and closes every socket cleanly.

Every HTTP request is checked before anything else is done with it: the path is short, has few
segments and names a route or a station file (the files are listed once, at start-up, so a
request never walks the file system); anything else is a plain-text 400/404/405/414 and never a
traceback in the log. Every answer carries the security headers (``SECURITY_HEADERS``). A
websocket upgrade is taken at ``/`` only, from a page of this server's own origin or one allowed
by ``--allow-origin`` (a client that sends no ``Origin``, not a browser, is let in), and only
while the ``Door`` has room for another connection waiting to sign in and the ``FileBudget``
has descriptors to spare beyond the reserve that keeps the health checks answering.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import re
import secrets
import signal
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import anyio
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server import metrics
from server.admission import Door, FileBudget
from server.batch import ScriptBatch
from server.collector import Collector
from server.connection import Connection
from server.descriptors import listen, raise_open_files_limit
from server.embedded_redis import (
    DataDirInUse,
    EmbeddedRedis,
    lock_data_dir,
    private_dir,
    write_private,
)
from server.fanout import Fanout
from server.keepalive import Keepalive
from server.lease import Lease
from server.redis_connect import RedisClient, connect
from server.replication import ReplicaWait
from server.station import Gate, Services, Station
from server.store import Store
from server.tables import Tables
from server.timers import LEASE_KEY, Timers
from server.tournament_store import TournamentStore
from server.tournaments import Tournaments
from server.watch import Watchdog

log = logging.getLogger("tablewire.server")
MAX_FRAME = 64 * 1024
REDIS_CONNECTIONS = 256
MAX_PATH = 512
"""Longest request target (path and query) answered; longer is 414."""
MAX_SEGMENTS = 4
"""Most path segments a route or a station file has; more is 404 without looking further."""
_SAFE_PATH = re.compile(r"(?:/[A-Za-z0-9_-][A-Za-z0-9._-]*)*/?")
ROUTES = ("/healthz", "/readyz", "/metrics")
CONTENT_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
}
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self' ws: wss:; object-src 'none'; base-uri 'none'; "
        "form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
}
"""Sent with every HTTP answer: no sniffing, only this origin's scripts and styles, websockets
to any host (the stations name theirs), never framed, no token-bearing address in a Referer."""


class StartupError(Exception):
    """The service cannot start (port in use, data dir held by another process): the message
    says why, and what was started is stopped again."""


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
    allowed_origins: tuple[str, ...] = ()
    """Origins (``scheme://host[:port]``, or ``*``) allowed to open a websocket besides the
    server's own."""
    max_unsigned: int = 256
    max_unsigned_per_address: int = 16
    hello_timeout: float = 3.0
    extra: dict[str, Any] = field(default_factory=dict)


def load_secret(settings: Settings) -> bytes:
    """The token secret: given, or kept in the data directory so tokens outlive restarts."""
    if settings.secret:
        return settings.secret.encode()
    path = settings.data_dir / "secret"
    if not path.exists():
        private_dir(settings.data_dir)
        write_private(path, secrets.token_hex(32))
    return path.read_text().strip().encode()


class App:
    def __init__(
        self,
        settings: Settings,
        redis: RedisClient,
        redis_url: str = "",
        replicas: ReplicaWait | None = None,
        listening: socket.socket | None = None,
    ) -> None:
        self.settings = settings
        self.name = settings.name
        self.heartbeat = settings.heartbeat
        self.keepalive = Keepalive(settings.heartbeat)
        self.files = static_files(settings.static_dir)
        self.secret = load_secret(settings)
        self.redis = redis
        # The cluster client has the single client's command API; the stores name the latter.
        commands = cast(Redis, redis)
        # Every write a station is answered on goes through one batch, and its WAIT.
        self.replicas = replicas or ReplicaWait(0, 1)
        batch = ScriptBatch(redis, self.replicas)
        self.store = Store(commands, batch)
        # A few of the pool's connections (of each node's, on a cluster) are left to catch-ups
        # and health checks.
        pool = getattr(redis, "connection_pool", None)
        pool_size = getattr(pool, "max_connections", REDIS_CONNECTIONS)
        self.tables = Tables(self.store, slots=max(1, pool_size * 15 // 16))
        self.fanout = Fanout(redis, self.store, redis_url)
        self.tournaments = Tournaments(TournamentStore(commands, batch), self.tables)
        self.fanout.clock_of = self.tournaments.clock_message
        self.gate = Gate()
        self.descriptors = FileBudget(listening)
        self.last_arrival = 0.0
        """When the last station connected (``time.monotonic``): a room coming in is not a
        quiet moment for the collector."""
        self.services = Services(
            self.tables,
            self.fanout,
            self.store,
            self.tournaments,
            self.secret,
            self.name,
            self.heartbeat,
            self.gate,
        )

    async def handle(self, ws: ServerConnection) -> None:
        assert isinstance(ws, Connection)  # serve() makes every connection one of ours
        # The handshake's headers were checked and answered; nothing reads them again, and
        # kept they were a fifth of an idle station. (The request itself stays: the library
        # reads "a request was received" from it.)
        if ws.request is not None:
            ws.request.headers.clear()
        ws.response = None
        self.last_arrival = time.monotonic()
        self.keepalive.add(ws)
        try:
            await Station(ws, self.services).run()
        finally:
            self.keepalive.discard(ws)
            self.services.door.leave(ws)

    async def ready(self) -> bool:
        try:
            await asyncio.wait_for(self.redis.ping(), 1.0)
        except Exception:
            return False
        return self.fanout.healthy and not self.gate.draining

    async def http(self, connection: ServerConnection, request: Request) -> Response | None:
        """Answer a plain HTTP request, or let a websocket upgrade through (None). The checks
        come cheapest first, so a bad request costs next to nothing."""
        if len(request.path) > MAX_PATH:
            return connection.respond(414, "the address is too long\n")
        path = request.path.partition("?")[0]
        if path.count("/") > MAX_SEGMENTS or not _SAFE_PATH.fullmatch(path):
            return connection.respond(404, "not found\n")
        if request.method not in ("GET", "HEAD"):
            refused = connection.respond(405, f"{request.method} is not answered here\n")
            refused.headers["Allow"] = "GET, HEAD"
            return refused
        if _header(request.headers, "Upgrade").lower() == "websocket":
            return self.upgrade(connection, request, path)
        response = await self.route(connection, path)
        if request.method == "HEAD":
            return dataclasses.replace(response, body=b"")  # the GET's headers, no body
        return response

    def upgrade(self, connection: ServerConnection, request: Request, path: str) -> Response | None:
        """Let a websocket through to sign in, or say why not."""
        if path != "/":
            return connection.respond(404, "websockets are served at /\n")
        origins = request.headers.get_all("Origin")
        if origins and not self.origin_allowed(origins, _header(request.headers, "Host")):
            return connection.respond(403, f"origin {origins[0]} may not open a websocket here\n")
        why = self.descriptors.refusal()
        reason = "open_files"
        if why is None:
            why = self.services.door.admit(connection, _client_address(connection, request))
            reason = "too_many_unsigned"
        if why is not None:
            metrics.REFUSED_CONNECTIONS.labels(reason).inc()
            refused = connection.respond(503, why + "\n")
            refused.headers["Retry-After"] = "1"
            return refused
        return None

    def origin_allowed(self, origins: list[str], host: str) -> bool:
        """One ``Origin``: the server's own (its host and port are the ``Host`` asked for), or
        one of ``--allow-origin``."""
        if len(origins) != 1:
            return False
        origin = origins[0]
        allowed = self.settings.allowed_origins
        if "*" in allowed or origin.rstrip("/") in allowed:
            return True
        parts = urlsplit(origin)
        return parts.scheme in ("http", "https") and bool(host) and parts.netloc == host.lower()

    def process_response(
        self, connection: ServerConnection, request: Request, response: Response
    ) -> None:
        """Every answer gets the security headers; a connection not upgraded waits no more,
        and is closed once its answer has left, not when the client gets round to it (a flood
        that never closes would otherwise keep every descriptor it was answered on)."""
        if response.status_code != 101:
            self.services.door.leave(connection)
            asyncio.get_running_loop().call_soon(_close_when_sent, connection.transport)
        for name, value in SECURITY_HEADERS.items():
            if name not in response.headers:
                response.headers[name] = value

    async def route(self, connection: ServerConnection, path: str) -> Response:
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
        return self.static(connection, path)

    def static(self, connection: ServerConnection, path: str) -> Response:
        found = self.files.get("/index.html" if path == "/" else path)
        try:
            body = found.read_bytes() if found is not None else None
        except OSError:  # removed since start-up
            body = None
        if found is None or body is None:
            return connection.respond(404, "not found\n")
        headers = Headers(
            [
                ("Content-Type", CONTENT_TYPES[found.suffix] + "; charset=utf-8"),
                ("Content-Length", str(len(body))),
                ("Cache-Control", "no-cache"),
            ]
        )
        return Response(200, "OK", headers, body)


def static_files(root: Path | None) -> dict[str, Path]:
    """The station files that may be served, by their path on the server: listed once, so
    a request is a dictionary look-up and never a walk of the file system."""
    if root is None:
        return {}
    found = {}
    for file in _walk(root.resolve(), MAX_SEGMENTS):
        name = "/" + file.relative_to(root.resolve()).as_posix()
        if file.suffix in CONTENT_TYPES and _SAFE_PATH.fullmatch(name):
            found[name] = file
    return found


def _walk(folder: Path, depth: int) -> Iterator[Path]:
    for entry in sorted(folder.iterdir()):
        if entry.is_symlink():
            continue
        if entry.is_file():
            yield entry
        elif entry.is_dir() and depth > 1:
            yield from _walk(entry, depth - 1)


def _close_when_sent(transport: asyncio.Transport) -> None:
    """Close a connection whose HTTP answer is written; until then look again shortly (the
    library's own close timeout ends it anyway)."""
    if transport.is_closing():
        return
    if transport.get_write_buffer_size() == 0:
        transport.abort()
    else:
        asyncio.get_running_loop().call_later(0.05, _close_when_sent, transport)


def _header(headers: Headers, name: str) -> str:
    """The first value of a header, "" without one (a repeated header is no error here)."""
    values = headers.get_all(name)
    return values[0] if values else ""


LOOPBACK = re.compile(r"^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$")


def _client_address(connection: ServerConnection, request: Request) -> str | None:
    """Whose connection this is, for the per-address cap: the peer, or behind a proxy on this
    machine the address it forwarded (the last ``X-Forwarded-For`` entry, the one the proxy
    added); None for this machine itself, which counts in the total only."""
    peer = connection.remote_address
    host = str(peer[0]) if peer else ""
    if not LOOPBACK.match(host):
        return host
    forwarded = request.headers.get_all("X-Forwarded-For")
    if forwarded:
        return forwarded[-1].split(",")[-1].strip() or None
    return None


async def run(
    settings: Settings,
    started: asyncio.Event | None = None,
    listening: socket.socket | None = None,
) -> None:
    """Serve until SIGTERM or SIGINT; then drain and close. ``StartupError`` when the service
    cannot start, with whatever it started stopped again. ``listening``: the socket
    ``tablewire serve`` bound before importing the service (``server.descriptors``), with the
    open-files limit raised; else both are done here, before anything else starts, so a port
    in use stops the start-up at once."""
    if listening is None:
        raise_open_files_limit()
    with contextlib.ExitStack() as started_here:
        embedded: EmbeddedRedis | None = None
        url = settings.redis_url
        if url is None:
            try:
                started_here.enter_context(lock_data_dir(settings.data_dir))
            except DataDirInUse as exc:
                raise StartupError(str(exc)) from None
        sock = listening or listen_on(settings.host, settings.port)
        started_here.callback(sock.close)
        if url is None:
            embedded = EmbeddedRedis(settings.data_dir / "redis", fsync=settings.fsync, tied=True)
            started_here.callback(embedded.stop)
            embedded.start()
            url = embedded.url
        await _serve(settings, started, url, embedded, sock)


def listen_on(host: str, port: int) -> socket.socket:
    """``server.descriptors.listen``, its failure a ``StartupError`` that says why."""
    try:
        return listen(host, port)
    except OSError as exc:
        raise StartupError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


async def _serve(
    settings: Settings,
    started: asyncio.Event | None,
    url: str,
    embedded: EmbeddedRedis | None,
    sock: socket.socket,
) -> None:
    # One server or a cluster (``server.redis_connect``); the event subscription has
    # connections of its own.
    redis = connect(url, REDIS_CONNECTIONS)
    replicas = ReplicaWait.from_environment()
    app = App(settings, redis, url, replicas, sock)
    try:
        await replicas.look_up(redis)
    except (RedisConnectionError, RedisTimeoutError) as exc:
        log.warning("replicas not looked up yet", extra={"error": str(exc)})
    door = Door(settings.max_unsigned, settings.max_unsigned_per_address, settings.hello_timeout)
    app.services.door = door
    await app.services.sessions.refresh(redis)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    fanout = loop.create_task(app.fanout.run())
    sessions = loop.create_task(app.services.sessions.run(redis))
    # Service-side work: the Redis stall watchdog on every instance, and the clocks on players
    # run by whichever instance holds the timers lease (server.lease, server.timers).
    watchdog = loop.create_task(Watchdog(redis).run())
    lateness = loop.create_task(metrics.watch_loop())
    following_replicas = loop.create_task(replicas.run(redis))
    timers = Timers(app.store, app.tables, app.fanout, app.tournaments)
    lease = Lease(redis, LEASE_KEY, f"{settings.name}:{os.getpid()}:{secrets.token_hex(4)}")
    timing = loop.create_task(lease.run(timers.run))
    keepalive = loop.create_task(app.keepalive.run())
    supervisor = loop.create_task(_supervise(embedded)) if embedded else None
    collector = Collector(lambda: max(app.fanout.last_frame_at, app.last_arrival))
    async with serve(
        app.handle,
        sock=sock,
        # The loop listens again as it starts serving, with 100 unless told (uvloop).
        backlog=app.descriptors.backlog,
        process_request=app.http,
        process_response=app.process_response,
        open_timeout=door.hello_timeout,
        max_size=MAX_FRAME,
        ping_interval=None,  # server.keepalive pings every station from one task
        ping_timeout=None,
        max_queue=64,
        close_timeout=2,
        compression=None,
        create_connection=Connection,
    ) as server:
        # The collector runs often and small; what survives is frozen (server.collector).
        collector.start()
        collecting = loop.create_task(collector.run())
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
    timing.cancel()
    collecting.cancel()
    keepalive.cancel()
    watchdog.cancel()
    lateness.cancel()
    following_replicas.cancel()
    await asyncio.gather(timing, watchdog, lateness, following_replicas, return_exceptions=True)
    fanout.cancel()
    sessions.cancel()
    if supervisor:
        supervisor.cancel()
    await redis.aclose()


async def _supervise(embedded: EmbeddedRedis) -> None:
    while True:
        await asyncio.sleep(1.0)
        if embedded.alive():
            continue
        # Started from this (the main) thread: the child dies with the server, not with
        # a worker thread that happened to start it.
        embedded.spawn()
        await anyio.to_thread.run_sync(embedded.wait_ready)
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


_PASSWORD = re.compile(r"^([A-Za-z0-9+.-]+://[^:@/]*:)[^@/]*@")


def _without_password(url: str) -> str:
    """The Redis URL as it may be logged: a password in it is masked (a cluster's seed list
    is no ``host:port``, so the URL is not parsed as one)."""
    return _PASSWORD.sub(r"\1***@", url)
