"""One station's websocket connection: sign-in, subscriptions, commands, a bounded outbox.

Everything the server sends a station goes through its outbox (``server.outbox``), bounded in
bytes. A station too slow to keep up is told to resync and closed; nobody else waits for it.
Frames are checked against the station's role and scope before anything is done. What the
station follows, and catching it up, is :mod:`server.following`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from websockets.exceptions import ConnectionClosed

from protocol.codec import one_path
from protocol.commands import (
    AddChips,
    AddPlayer,
    ColorUp,
    Command,
    Correction,
    Penalty,
    RemovePlayer,
    Ruling,
    SetLevel,
)
from protocol.config import LevelError
from protocol.tournament import (
    AddTime,
    ChipPenalty,
    Disqualify,
    HandEnded,
    MarkAbsent,
    MarkReturned,
    MovePlayer,
    NextLevel,
    PauseClock,
    PreviousLevel,
    ResumeClock,
    StartClock,
    Tick,
    TournamentCommand,
    UseTimeBank,
    check_table_size,
)
from protocol.tournament import (
    ColorUp as ColorUpTournament,
)
from protocol.tournament.tables import (
    BreakTable,
    ConfirmMove,
    DismissMove,
    FinalTable,
    ReleaseAllIn,
    ReleaseTables,
    StartHandForHand,
    WaiveStoppage,
)
from protocol.wire import (
    Ack,
    CreateTable,
    CreateTournament,
    Error,
    FetchHand,
    Hello,
    Ping,
    Pong,
    Resync,
    Send,
    SendTournament,
    Subscribe,
    Unsubscribe,
    Welcome,
    client_decoder,
    encoder,
)
from server import archive, metrics
from server.admission import Door, Sessions
from server.connection import Connection
from server.fanout import Fanout, committed_frames
from server.following import Following
from server.outbox import Outbox
from server.store import Store
from server.tables import UNKNOWN_OUTCOME, Applied, Busy, Refused, Tables
from server.tokens import CLOSE_CODES, Claims, TokenError, verify
from server.tournaments import Tournaments

log = logging.getLogger("tablewire.station")
OUTBOX_BYTES = int(os.environ.get("TABLEWIRE_OUTBOX_BYTES", str(4 * 1024 * 1024)))
"""Bytes waiting for one station before it is told to resync."""
RATE = 200.0
BURST = 400.0
FLOOD_LIMIT = 2_000
HELLO_TIMEOUT = 3.0
"""Seconds a new connection has to send its hello (``Door.hello_timeout`` when configured)."""
FLOOR_ONLY = (Ruling, Penalty, Correction)
ADMIN_ONLY = (AddPlayer, RemovePlayer, SetLevel, AddChips, ColorUp)
FLOOR_TOURNAMENT = (
    StartClock,
    PauseClock,
    ResumeClock,
    AddTime,
    NextLevel,
    PreviousLevel,
    MarkAbsent,
    MarkReturned,
    ChipPenalty,
    Disqualify,
    MovePlayer,
    ColorUpTournament,
    UseTimeBank,
    ConfirmMove,
    DismissMove,
    WaiveStoppage,
    BreakTable,
    FinalTable,
    StartHandForHand,
    ReleaseTables,
    ReleaseAllIn,
)
"""Tournament commands of the floor: the clock and the floor's rulings; the admin (the TD) has
every command (set-up, registration)."""
SERVICE_ONLY = (HandEnded, Tick)
"""Told to a tournament by the service itself: hand ends by the tables, time by its clock."""
_path = re.compile(r" - at `(?:key` in `)?(\$[^`]*)`")
Key = tuple[str, str]


class _Id(msgspec.Struct):
    """Just the request id of a frame: the command a flood answer dropped, or a frame refused
    as not a message of the protocol (``bad_message``), is named by it."""

    id: str | None = None


_id_decoder = msgspec.json.Decoder(_Id)


def _frame_id(raw: str | bytes) -> str | None:
    try:
        found = _id_decoder.decode(raw).id
    except (msgspec.DecodeError, RecursionError):
        return None
    return found if found is None or len(found) <= 128 else None


@dataclass
class Gate:
    """The service's admission: closed while draining for SIGTERM; commands in flight."""

    draining: bool = False
    in_flight: int = 0


@dataclass
class Services:
    """What a station works with, handed to it by the app."""

    tables: Tables
    fanout: Fanout
    store: Store
    tournaments: Tournaments
    secret: bytes
    name: str
    heartbeat: float
    gate: Gate = field(default_factory=Gate)
    door: Door = field(default_factory=lambda: Door(hello_timeout=HELLO_TIMEOUT))
    sessions: Sessions = field(default_factory=Sessions)


def refusal(code: str, message: str, **extra: Any) -> bytes:
    metrics.REFUSED_FRAMES.labels(code).inc()
    return encoder.encode(Error(code=code, message=message, **extra))


def permitted(claims: Claims, command: Command, table: str) -> str | None:
    """Why the role may not send this command to this table, or None when it may."""
    if claims.role == "display":
        return "a display is read-only"
    if claims.table is not None and table != claims.table:
        return f"this {claims.role} token is for table {claims.table}"
    if claims.role == "dealer" and isinstance(command, Correction):
        # The dealer's undo of its last action; the engine refuses any other (24, 1).
        return None if command.by == "dealer" else "a dealer's correction is by the dealer"
    if claims.role == "dealer" and isinstance(command, FLOOR_ONLY + ADMIN_ONLY):
        return f"'{type(command).__name__}' is for the floor"
    if (
        claims.role == "floor"
        and isinstance(command, ADMIN_ONLY)
        and not isinstance(command, SetLevel)
    ):
        return f"'{type(command).__name__}' is for the tournament admin"
    return None


def tournament_permitted(claims: Claims, command: TournamentCommand) -> str | None:
    """Why the role may not send this tournament command, or None when it may."""
    if isinstance(command, SERVICE_ONLY):
        return "hand ends come from the tables and time from the service's clock"
    if claims.table is not None:
        return f"this {claims.role} token is for table {claims.table}"
    if claims.role == "admin":
        return None
    if claims.role == "floor" and isinstance(command, FLOOR_TOURNAMENT):
        return None
    return f"'{type(command).__name__}' is for the tournament director"


def signed(claims: Claims, command: Command) -> Command:
    """The command as the token's holder sent it: a ruling is recorded as ruled by the name in
    the token (empty without one), whatever ``by`` the station gave."""
    if isinstance(command, Ruling) and command.by != claims.name:
        return msgspec.structs.replace(command, by=claims.name)
    return command


class Station:
    def __init__(self, ws: Connection, services: Services) -> None:
        self.ws = ws
        self.services = services
        self.claims: Claims | None = None
        self.outbox = Outbox(ws, OUTBOX_BYTES, lambda: self.resync("the station fell behind"))
        self.following: Following | None = None
        """What the station follows; made once it has signed in (its role says what it sees)."""
        self.closing = False
        self.closed_for_resync: asyncio.Event | None = None
        """Set once the server's own close of this station (a resync, a token that ended) is
        done; made when that close begins, so an idle station carries no event."""
        self.tokens = BURST
        self.refill = time.monotonic()
        self.floods = 0

    @property
    def public(self) -> bool:
        return self.claims is not None and self.claims.role == "display"

    @property
    def delay(self) -> float:
        return self.claims.delay if self.claims is not None and self.public else 0.0

    # --- outbox -------------------------------------------------------------------------

    def send(self, data: bytes) -> None:
        if not self.closing:
            self.outbox.put(data)

    def _begin_closing(self) -> None:
        self.closing = True
        self.closed_for_resync = asyncio.Event()
        self.outbox.close()

    def resync(self, reason: str) -> None:
        """Tell the station to resync and close it, without waiting on it."""
        if self.closing:
            return
        self._begin_closing()
        metrics.SLOW_CLIENTS.inc()
        asyncio.get_running_loop().create_task(self._close_for_resync(reason))

    async def _close_for_resync(self, reason: str) -> None:
        try:
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                await asyncio.wait_for(self.ws.send(encoder.encode(Resync(reason))), 1.0)
            await self.ws.close(1013, "resync")
        finally:
            assert self.closed_for_resync is not None
            self.closed_for_resync.set()

    # --- the connection -----------------------------------------------------------------

    async def run(self) -> None:
        try:
            if not await self._sign_in():
                return
            assert self.claims is not None
            metrics.CONNECTIONS.labels(self.claims.role).inc()
            services = self.services
            self.following = Following(
                services.tables,
                services.fanout,
                services.store,
                self.send,
                refusal,
                self.resync,
                self.outbox.below,
                lambda: self.closing,
                self.public,
                self.delay,
                services.tournaments,
            )
            try:
                await self._read()
            finally:
                metrics.CONNECTIONS.labels(self.claims.role).dec()
        except ConnectionClosed:
            pass
        finally:
            # Leaving costs what the station held, nothing more: its subscriptions, its
            # catch-ups, its place among the signed-in (the WeakSet would keep it until the
            # collector frees it, and the token sweep would go on checking it meanwhile).
            self.closing = True
            self.outbox.close()
            self.services.sessions.live.discard(self)
            if self.following is not None:
                self.following.stop()
                # It holds the station's bound methods: let it go, so the two are freed by
                # reference counting when the connection ends, not by the collector.
                self.following = None

    async def _sign_in(self) -> bool:
        door = self.services.door
        try:
            return await self._hello(door.hello_timeout)
        finally:
            door.leave(self.ws)

    async def _hello(self, timeout: float) -> bool:
        try:
            raw = await asyncio.wait_for(self.ws.recv(), timeout)
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
        sessions = self.services.sessions
        try:
            claims = verify(self.services.secret, hello.token, time.time())
            revoked = sessions.refusal(claims, time.time())
            if revoked is not None:
                raise revoked
        except TokenError as exc:
            await self.ws.send(refusal(exc.code, exc.message).decode())
            await self.ws.close(1008, exc.code)
            return False
        self.claims = c = claims
        sessions.join(self)
        await self.ws.send(
            encoder.encode(
                Welcome(c.role, c.tournament, c.table, self.services.name, self.services.heartbeat)
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
                assert self.closed_for_resync is not None  # made as the closing began
                await self.closed_for_resync.wait()
                return
            if self.services.gate.draining:
                # Shutting down: the server closes every socket with 1001 once commands in
                # flight are done; nothing new is taken meanwhile.
                self.send(refusal("draining", "the server is shutting down; reconnect shortly"))
                continue
            if not self._allowed_rate():
                self.floods += 1
                dropped = _frame_id(raw)
                why = "too many frames: slow down"
                if dropped is not None:
                    why += f"; command {dropped} was not applied: send it again"
                self.send(refusal("rate_limited", why, id=dropped))
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
                # The request's id when the frame has a readable one, so the station can tell
                # which of its requests was refused.
                why = one_path(str(exc))
                found = _path.search(why)
                field = found.group(1) if found else "$"
                self.send(refusal("bad_message", why, field=field, id=_frame_id(raw)))
                continue
            except (msgspec.DecodeError, RecursionError) as exc:
                self.send(refusal("bad_json", f"not JSON: {exc}"))
                continue
            ended = self.claims and self.services.sessions.refusal(self.claims, time.time())
            if ended:
                # Expired or revoked since the last frame: nothing more is taken.
                await self.end_session(ended)
                return
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
            case SendTournament():
                await self._tournament_command(message)
            case Subscribe():
                why = self._in_scope(message.tournament, message.table)
                if why:
                    self.send(refusal("forbidden", why))
                elif self.following is not None:
                    await self.following.subscribe(message)
            case Unsubscribe():
                if self.following is not None:
                    self.following.unsubscribe(message)
            case Ping():
                self.send(encoder.encode(Pong(message.nonce)))
            case CreateTournament() | CreateTable():
                await self._admin(message)
            case Hello():
                self.send(refusal("bad_message", "already signed in"))
            case FetchHand():
                assert self.claims is not None
                why = self._in_scope(message.tournament, message.table)
                store = self.services.store
                self.send(
                    refusal("forbidden", why, id=message.id)
                    if why
                    else await archive.answer(
                        store.redis, self.claims.role, message, store.files.directory
                    )
                )

    def _in_scope(self, tournament: str, table: str | None) -> str | None:
        """Why the token does not reach this tournament or table (None: the whole tournament),
        or None when it does. A token naming a table, whatever its role, reaches only it."""
        c = self.claims
        assert c is not None
        if c.tournament not in (tournament, "*"):
            return f"this token is for tournament {c.tournament}"
        if c.table is not None and table != c.table:
            return f"this {c.role} token is for table {c.table}"
        return None

    async def end_session(self, error: TokenError) -> None:
        """The token stopped being valid while connected: say why and close with the code that
        tells the station to sign in again rather than reconnect with the same token."""
        if self.closing:
            return
        self._begin_closing()
        try:
            with contextlib.suppress(TimeoutError, ConnectionClosed):
                message = refusal(error.code, error.message).decode()
                await asyncio.wait_for(self.ws.send(message), 1.0)
            await self.ws.close(CLOSE_CODES.get(error.code, 1008), error.code)
        finally:
            assert self.closed_for_resync is not None
            self.closed_for_resync.set()  # a read waiting on this close ends too

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
        gate = self.services.gate
        gate.in_flight += 1
        try:
            result = await self.services.tables.apply(
                message.tournament,
                message.table,
                message.id,
                signed(self.claims, message.command),
                message.after,
            )
        except Busy as exc:
            metrics.COMMANDS.labels("busy").inc()
            self.send(refusal("busy", str(exc), id=message.id))
            return
        finally:
            gate.in_flight -= 1
        metrics.COMMAND_SECONDS.observe(time.monotonic() - started)
        extra = {"tournament": message.tournament, "table": message.table, "command_id": message.id}
        await self._answer(message.id, message.tournament, message.table, result, extra)

    async def _answer(
        self,
        command_id: str,
        tournament: str,
        table: str,
        result: Applied | Refused,
        extra: dict[str, str],
    ) -> None:
        if isinstance(result, Applied):
            metrics.COMMANDS.labels("duplicate" if result.duplicate else "applied").inc()
            log.debug("command applied", extra={**extra, "seq": result.seq})
            for frame in committed_frames(tournament, table, result):
                await self.services.fanout.accept(frame)
            ack = Ack(command_id, tournament, table, result.seq, result.duplicate)
            self.send(encoder.encode(ack))
        else:
            metrics.COMMANDS.labels(result.code).inc()
            log.debug("command refused", extra={**extra, "code": result.code})
            self.send(refusal(result.code, result.message, id=command_id, rule=result.rule or None))

    async def _tournament_command(self, message: SendTournament) -> None:
        assert self.claims is not None
        why = self._in_scope(message.tournament, None) or tournament_permitted(
            self.claims, message.command
        )
        if why:
            metrics.COMMANDS.labels("forbidden").inc()
            self.send(refusal("forbidden", why, id=message.id))
            return
        gate = self.services.gate
        gate.in_flight += 1
        try:
            result = await self.services.tournaments.command(
                message.tournament, message.id, message.command
            )
        except Busy as exc:
            metrics.COMMANDS.labels("busy").inc()
            self.send(refusal("busy", str(exc), id=message.id))
            return
        finally:
            gate.in_flight -= 1
        extra = {"tournament": message.tournament, "command_id": message.id}
        await self._answer(message.id, message.tournament, "", result, extra)

    async def _admin(self, message: CreateTournament | CreateTable) -> None:
        try:
            await self._create(message)
        except (RedisConnectionError, RedisTimeoutError):
            # Redis gone mid-creation, or the replicas did not confirm it: it may exist.
            self.send(refusal("unknown_outcome", UNKNOWN_OUTCOME, id=message.id))

    async def _create(self, message: CreateTournament | CreateTable) -> None:
        assert self.claims is not None
        why = self._in_scope(message.tournament, None)
        if self.claims.role != "admin":
            why = "tournaments and tables are created by the admin"
        if why:
            self.send(refusal("forbidden", why, id=message.id))
            return
        if isinstance(message, CreateTournament):
            if message.structure is not None:
                try:
                    check_table_size(message.structure)
                except LevelError as bad:
                    field = f"$.structure{bad.field[1:]}"
                    why = f"{bad.why} - at `{field}`"
                    self.send(refusal("bad_message", why, field=field, id=message.id))
                    return
                created = await self.services.tournaments.create(
                    message.tournament, message.name, message.structure
                )
            else:
                created = await self.services.store.create_tournament(
                    message.tournament, message.name
                )
            if not created:
                self.send(
                    refusal(
                        "exists", f"tournament {message.tournament} already exists", id=message.id
                    )
                )
                return
            self.send(encoder.encode(Ack(message.id, message.tournament, "", 0)))
            return
        if await self.services.tournaments.structured(message.tournament):
            self.send(
                refusal(
                    "tournament_only",
                    "a tournament's tables are opened by its `open_table` command"
                    " (its seats join the draw, 8)",
                    id=message.id,
                )
            )
            return
        created = await self.services.tables.create(
            message.tournament, message.table, message.config
        )
        if not created:
            self.send(refusal("exists", f"table {message.table} already exists", id=message.id))
            return
        self.send(encoder.encode(Ack(message.id, message.tournament, message.table, 0)))
