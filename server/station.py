"""One station's websocket connection: sign-in, subscriptions, commands, a bounded outbox.

Everything the server sends a station goes through its outbox (``server.outbox``). A station
too slow to keep up is told to resync and closed; nobody else waits for it. Frames are checked
against the station's role and scope before anything is done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from typing import TYPE_CHECKING, Any

import msgspec
from websockets.exceptions import ConnectionClosed

from protocol.commands import (
    AddPlayer,
    Command,
    Correction,
    Penalty,
    RemovePlayer,
    Ruling,
    SetLevel,
)
from protocol.wire import (
    Ack,
    CreateTable,
    CreateTournament,
    Error,
    Hello,
    Ping,
    Pong,
    Resync,
    Send,
    Snapshot,
    Subscribe,
    Unsubscribe,
    Welcome,
    client_decoder,
    encoder,
)
from server import metrics
from server.connection import Connection
from server.fanout import Frame, frames_from
from server.outbox import Outbox
from server.tables import Applied, Busy
from server.tokens import Claims, TokenError, verify
from server.views import table_view

if TYPE_CHECKING:
    from server.app import App

log = logging.getLogger("tablewire.station")
OUTBOX = int(os.environ.get("TABLEWIRE_OUTBOX", "2000"))
RATE = 200.0
BURST = 400.0
FLOOD_LIMIT = 2_000
HELLO_TIMEOUT = 10.0
FLOOR_ONLY = (Ruling, Penalty, Correction)
ADMIN_ONLY = (AddPlayer, RemovePlayer, SetLevel)
_path = re.compile(r" - at `(?:key` in `)?(\$[^`]*)`")


def refusal(code: str, message: str, **extra: Any) -> bytes:
    metrics.REFUSED_FRAMES.labels(code).inc()
    return encoder.encode(Error(code=code, message=message, **extra))


def permitted(claims: Claims, command: Command, table: str) -> str | None:
    """Why the role may not send this command to this table, or None when it may."""
    if claims.role == "display":
        return "a display is read-only"
    if claims.role == "dealer":
        if table != claims.table:
            return f"this dealer token is for table {claims.table}"
        if isinstance(command, FLOOR_ONLY + ADMIN_ONLY):
            return f"'{type(command).__name__}' is for the floor"
    if (
        claims.role == "floor"
        and isinstance(command, ADMIN_ONLY)
        and not isinstance(command, SetLevel)
    ):
        return f"'{type(command).__name__}' is for the tournament admin"
    return None


class Station:
    def __init__(self, ws: Connection, app: App) -> None:
        self.ws = ws
        self.app = app
        self.claims: Claims | None = None
        self.outbox = Outbox(ws, OUTBOX, lambda: self.resync("the station fell behind"))
        self.last_sent: dict[tuple[str, str], int] = {}
        self.catching_up: dict[tuple[str, str], list[Frame]] = {}
        self.closing = False
        self.closed_for_resync = asyncio.Event()
        self.tokens = BURST
        self.refill = time.monotonic()
        self.floods = 0

    @property
    def public(self) -> bool:
        return self.claims is not None and self.claims.role == "display"

    # --- outbox -------------------------------------------------------------------------

    def send(self, data: bytes) -> None:
        if not self.closing:
            self.outbox.put(data)

    def resync(self, reason: str) -> None:
        """Tell the station to resync and close it, without waiting on it."""
        if self.closing:
            return
        self.closing = True
        self.outbox.close()
        metrics.SLOW_CLIENTS.inc()
        asyncio.get_running_loop().create_task(self._close_for_resync(reason))

    async def _close_for_resync(self, reason: str) -> None:
        try:
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                await asyncio.wait_for(self.ws.send(encoder.encode(Resync(reason))), 1.0)
            await self.ws.close(1013, "resync")
        finally:
            self.closed_for_resync.set()

    def new_table(self, key: tuple[str, str]) -> None:
        """A table was created in a watched tournament: send its snapshot."""
        if key not in self.last_sent and not self.closing:
            asyncio.get_running_loop().create_task(self._catch_up(key, -1))

    def offer(self, key: tuple[str, str], frame: Frame) -> None:
        """A live frame from the fan-out."""
        if key in self.catching_up:
            self.catching_up[key].append(frame)
            return
        self._deliver(key, frame)

    def _deliver(self, key: tuple[str, str], frame: Frame) -> None:
        last = self.last_sent.get(key, 0)
        if frame.last <= last and key in self.last_sent:
            return
        start = last + 1 if key in self.last_sent and frame.seq <= last else None
        self.last_sent[key] = frame.last
        self.send(frame.encoded(self.public, start))

    # --- the connection -----------------------------------------------------------------

    async def run(self) -> None:
        try:
            if not await self._sign_in():
                return
            assert self.claims is not None
            metrics.CONNECTIONS.labels(self.claims.role).inc()
            self.outbox.delay = self.claims.delay
            try:
                await self._read()
            finally:
                metrics.CONNECTIONS.labels(self.claims.role).dec()
        except ConnectionClosed:
            pass
        finally:
            self.closing = True
            self.outbox.close()
            self.app.fanout.forget(self)

    async def _sign_in(self) -> bool:
        try:
            raw = await asyncio.wait_for(self.ws.recv(), HELLO_TIMEOUT)
        except TimeoutError:
            await self.ws.close(1008, "sign in first")
            return False
        try:
            hello = client_decoder.decode(raw)
        except (msgspec.DecodeError, RecursionError) as exc:
            await self.ws.send(
                refusal("bad_message", f"the first frame must be a hello: {exc}").decode()
            )
            await self.ws.close(1008, "sign in first")
            return False
        if not isinstance(hello, Hello):
            await self.ws.send(
                refusal("auth_required", "the first frame must be a hello with a token").decode()
            )
            await self.ws.close(1008, "sign in first")
            return False
        try:
            self.claims = verify(self.app.secret, hello.token, time.time())
        except TokenError as exc:
            await self.ws.send(refusal(exc.code, exc.message).decode())
            await self.ws.close(1008, exc.code)
            return False
        c = self.claims
        await self.ws.send(
            encoder.encode(
                Welcome(c.role, c.tournament, c.table, self.app.name, self.app.heartbeat)
            ).decode()
        )
        return True

    def _allowed_rate(self) -> bool:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.refill) * RATE)
        self.refill = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    async def _read(self) -> None:
        async for raw in self.ws:
            if self.closing:
                # Told to resync: let that close (1013) finish rather than closing here.
                await self.closed_for_resync.wait()
                return
            if self.app.draining:
                # Shutting down: the server closes every socket with 1001 once commands in
                # flight are done; nothing new is taken meanwhile.
                self.send(refusal("draining", "the server is shutting down; reconnect shortly"))
                continue
            if not self._allowed_rate():
                self.floods += 1
                self.send(refusal("rate_limited", "too many frames: slow down"))
                if self.floods > FLOOD_LIMIT:
                    await self.ws.close(1008, "flood")
                    return
                continue
            if isinstance(raw, bytes):
                self.send(refusal("bad_message", "frames are JSON text"))
                continue
            try:
                message = client_decoder.decode(raw)
            except msgspec.ValidationError as exc:
                found = _path.search(str(exc))
                self.send(refusal("bad_message", str(exc), field=found.group(1) if found else "$"))
                continue
            except (msgspec.DecodeError, RecursionError) as exc:
                self.send(refusal("bad_json", f"not JSON: {exc}"))
                continue
            try:
                await self._dispatch(message)
            except (ConnectionClosed, asyncio.CancelledError):
                raise
            except Exception:
                # A bug must not cost the station its connection: answer, log, go on.
                log.exception(
                    "frame failed", extra={"role": self.claims.role if self.claims else None}
                )
                self.send(
                    refusal(
                        "internal",
                        "the server could not handle this frame",
                        id=getattr(message, "id", None),
                    )
                )

    async def _dispatch(self, message: Any) -> None:
        match message:
            case Send():
                await self._command(message)
            case Subscribe():
                await self._subscribe(message)
            case Unsubscribe():
                self.app.fanout.forget(self)
            case Ping():
                self.send(encoder.encode(Pong(message.nonce)))
            case CreateTournament() | CreateTable():
                await self._admin(message)
            case Hello():
                self.send(refusal("bad_message", "already signed in"))

    def _in_scope(self, tournament: str, table: str | None) -> str | None:
        c = self.claims
        assert c is not None
        if c.tournament not in (tournament, "*"):
            return f"this token is for tournament {c.tournament}"
        if c.role == "dealer" and table != c.table:
            return f"this dealer token is for table {c.table}"
        return None

    async def _command(self, message: Send) -> None:
        assert self.claims is not None
        why = self._in_scope(message.tournament, message.table) or permitted(
            self.claims, message.command, message.table
        )
        if why:
            metrics.COMMANDS.labels("forbidden").inc()
            self.send(refusal("forbidden", why, id=message.id))
            return
        started = time.monotonic()
        self.app.in_flight += 1
        try:
            result = await self.app.tables.apply(
                message.tournament, message.table, message.id, message.command, message.after
            )
        except Busy as exc:
            metrics.COMMANDS.labels("busy").inc()
            self.send(refusal("busy", str(exc), id=message.id))
            return
        finally:
            self.app.in_flight -= 1
        metrics.COMMAND_SECONDS.observe(time.monotonic() - started)
        extra = {"tournament": message.tournament, "table": message.table, "command_id": message.id}
        if isinstance(result, Applied):
            metrics.COMMANDS.labels("duplicate" if result.duplicate else "applied").inc()
            log.debug("command applied", extra={**extra, "seq": result.seq})
            if result.events:
                first = result.seq - len(result.events) + 1
                frame = Frame(message.tournament, message.table, first, result.events, time.time())
                await self.app.fanout.accept(frame)
            ack = Ack(message.id, message.tournament, message.table, result.seq, result.duplicate)
            self.send(encoder.encode(ack))
        else:
            metrics.COMMANDS.labels(result.code).inc()
            log.debug("command refused", extra={**extra, "code": result.code})
            self.send(refusal(result.code, result.message, id=message.id, rule=result.rule or None))

    async def _subscribe(self, message: Subscribe) -> None:
        why = self._in_scope(message.tournament, message.table)
        if why:
            self.send(refusal("forbidden", why))
            return
        try:
            await self._follow(message)
        except Exception:
            # Redis is down or failed half-way: the station reconnects and subscribes again.
            log.warning("subscription failed", exc_info=True)
            self.resync("the subscription could not be served; subscribe again")

    async def _follow(self, message: Subscribe) -> None:
        store = self.app.store
        first = -1 if message.snapshot else 0
        if message.table is not None:
            tables = {message.table: -1 if message.snapshot else message.since}
            if await store.load(message.tournament, message.table) is None:
                self.send(refusal("unknown_table", f"there is no table {message.table}"))
                return
        else:
            names = await store.tables(message.tournament)
            tables = {t: message.tables_since.get(t, first) for t in names}
        # Every table buffers its live frames from now on, before the first catch-up awaits,
        # so none is delivered ahead of the events that come before it.
        keys = [(message.tournament, table) for table in tables]
        for key in keys:
            self.catching_up.setdefault(key, [])
            self.app.fanout.watch(self, *key)
        self.app.fanout.watch(self, message.tournament, message.table)
        for key, since in zip(keys, tables.values(), strict=True):
            await self._catch_up(key, since)

    async def _catch_up(self, key: tuple[str, str], since: int) -> None:
        self.catching_up.setdefault(key, [])
        self.app.fanout.watch(self, key[0], key[1])
        found = await self.app.store.events_since(key[0], key[1], since) if since >= 0 else None
        if found is None:
            cached = await self.app.tables.state(*key)
            if cached is not None:
                view = table_view(cached.state, self.public)
                self.send(encoder.encode(Snapshot(key[0], key[1], cached.seq, view)))
                self.last_sent[key] = cached.seq
        else:
            self.last_sent[key] = since
            for frame in frames_from(key[0], key[1], found):
                self._deliver(key, frame)
        for frame in self.catching_up.pop(key, []):
            self._deliver(key, frame)

    async def _admin(self, message: CreateTournament | CreateTable) -> None:
        assert self.claims is not None
        why = self._in_scope(message.tournament, None)
        if self.claims.role != "admin":
            why = "tournaments and tables are created by the admin"
        if why:
            self.send(refusal("forbidden", why, id=message.id))
            return
        if isinstance(message, CreateTournament):
            await self.app.store.create_tournament(message.tournament, message.name)
            self.send(encoder.encode(Ack(message.id, message.tournament, "", 0)))
            return
        created = await self.app.tables.create(message.tournament, message.table, message.config)
        if not created:
            self.send(refusal("exists", f"table {message.table} already exists", id=message.id))
            return
        self.send(encoder.encode(Ack(message.id, message.tournament, message.table, 0)))
