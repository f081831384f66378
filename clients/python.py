"""A Python station: typed messages, commands acknowledged by id, reconnect and resume.

The client remembers the last event number it saw of every table. When the connection drops
it reconnects (with backoff), signs in again and subscribes from those numbers, so the
stream it hands out has every event exactly once, in order. Used by the demo's bot dealers,
the load benchmark and the service tests.

A command whose outcome is not known — answered ``unknown_outcome`` (Redis did not confirm the
commit) or cut off by a dropped connection — is sent again under the same id until the server
answers with an ack or a definite error: a retry of a command that did commit is acknowledged
(``duplicate``), never applied twice.
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

import anyio
import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol.commands import Command
from protocol.config import TableConfig
from protocol.tournament import Structure, TournamentCommand
from protocol.wire import (
    Ack,
    CreateTable,
    CreateTournament,
    Error,
    Events,
    FetchHand,
    HandArchived,
    Hello,
    Resync,
    Send,
    SendTournament,
    ServerMessage,
    Snapshot,
    Subscribe,
    TournamentEvents,
    TournamentSnapshot,
    Welcome,
    encoder,
    server_decoder,
)

RETRIED = ("unknown_outcome", "unavailable", "rate_limited", "disconnected")
"""Answers after which the command is sent again under the same id: its outcome is unknown
(``unknown_outcome``, ``disconnected``), or it was not applied and nothing changed (Redis did
not answer: ``unavailable``; too many frames: ``rate_limited``)."""


class CommandRefused(Exception):
    def __init__(self, error: Error) -> None:
        super().__init__(f"{error.code}: {error.message}")
        self.error = error


class Client:
    def __init__(self, url: str, token: str, *, reconnect: bool = True) -> None:
        self.url = url
        self.token = token
        self.reconnect = reconnect
        self.ws: ClientConnection | None = None
        self.welcome: Welcome | None = None
        self.seen: dict[tuple[str, str], int] = {}
        self.tournament_seen: dict[str, int] = {}
        """The last event number seen of each tournament's own log."""
        self.subscriptions: list[tuple[str, str | None]] = []
        self._ids = itertools.count(1)
        self._prefix = uuid.uuid4().hex[:8]
        self._waiting: dict[str, tuple[anyio.Event, list[ServerMessage]]] = {}
        self._inbox_send, self._inbox = anyio.create_memory_object_stream[ServerMessage](10_000)
        self.reconnects = 0
        self.resent = 0
        """Commands sent again because their outcome was unknown."""

    async def connect(self) -> Welcome:
        self.ws = await connect(self.url, max_size=2**24, open_timeout=10)
        await self.ws.send(encoder.encode(Hello(self.token)).decode())
        reply = server_decoder.decode(await self.ws.recv())
        if isinstance(reply, Error):
            raise CommandRefused(reply)
        assert isinstance(reply, Welcome), reply
        self.welcome = reply
        for tournament, table in self.subscriptions:
            await self._send_subscribe(tournament, table)
        return reply

    async def close(self) -> None:
        self.reconnect = False
        if self.ws is not None:
            await self.ws.close()

    async def _send_subscribe(self, tournament: str, table: str | None) -> None:
        assert self.ws is not None
        if table is None:
            since = {t: seq for (tr, t), seq in self.seen.items() if tr == tournament}
            message = Subscribe(
                tournament,
                None,
                0,
                since,
                tournament_since=self.tournament_seen.get(tournament, -1),
            )
        else:
            message = Subscribe(tournament, table, self.seen.get((tournament, table), 0))
        await self.ws.send(encoder.encode(message).decode())

    async def subscribe(
        self, tournament: str, table: str | None = None, since: int | None = None
    ) -> None:
        if since is not None and table is not None:
            self.seen[(tournament, table)] = since
        self.subscriptions.append((tournament, table))
        await self._send_subscribe(tournament, table)

    def next_id(self) -> str:
        return f"{self._prefix}-{next(self._ids)}"

    async def _request(self, message: Any, request_id: str, timeout: float) -> ServerMessage:
        done = anyio.Event()
        box: list[ServerMessage] = []
        self._waiting[request_id] = (done, box)
        try:
            if self.ws is None:
                raise ConnectionError("not connected: the client is reconnecting")
            await self.ws.send(encoder.encode(message).decode())
            with anyio.fail_after(timeout):
                await done.wait()
        finally:
            self._waiting.pop(request_id, None)
        reply = box[0]
        if isinstance(reply, Error):
            raise CommandRefused(reply)
        return reply

    async def command(
        self,
        tournament: str,
        table: str,
        command: Command,
        command_id: str | None = None,
        timeout: float = 10,
        after: int | None = None,
        patience: float = 120,
    ) -> Ack:
        """Send a command and wait for its acknowledgement; retrying with the same id is safe.

        ``after`` makes it conditional on the table's last event number (else ``stale``).
        While the outcome is unknown (``RETRIED``, or the client is reconnecting) the command is
        sent again, same id, for up to ``patience`` seconds; ``timeout`` bounds one attempt
        (a ``TimeoutError`` also leaves the outcome unknown: send the same id again)."""
        cid = command_id or self.next_id()
        return await self._acked(
            Send(cid, tournament, table, command, after), cid, timeout, patience
        )

    async def tournament_command(
        self,
        tournament: str,
        command: TournamentCommand,
        command_id: str | None = None,
        timeout: float = 10,
        patience: float = 120,
    ) -> Ack:
        """A tournament command (``tournament_command``), retried like :meth:`command`; the
        ack's ``seq`` is the tournament log's last event number."""
        cid = command_id or self.next_id()
        return await self._acked(SendTournament(cid, tournament, command), cid, timeout, patience)

    async def _acked(self, message: Any, cid: str, timeout: float, patience: float) -> Ack:
        give_up = time.monotonic() + patience
        delay = 0.1
        while True:
            try:
                reply = await self._request(message, cid, timeout)
            except CommandRefused as refused:
                if refused.error.code not in RETRIED or not self._may_resend(give_up, delay):
                    raise
            except (ConnectionError, ConnectionClosed):
                if not self._may_resend(give_up, delay):
                    raise
            else:
                assert isinstance(reply, Ack)
                return reply
            self.resent += 1
            await anyio.sleep(delay)
            delay = min(delay * 2, 2.0)

    def _may_resend(self, give_up: float, delay: float) -> bool:
        """A client that does not reconnect cannot learn more; nor once patience runs out."""
        return self.reconnect and time.monotonic() + delay < give_up

    async def create_tournament(
        self, tournament: str, name: str = "", structure: Structure | None = None
    ) -> None:
        cid = self.next_id()
        await self._request(CreateTournament(cid, tournament, name, structure), cid, 10)

    async def create_table(self, tournament: str, table: str, config: TableConfig) -> None:
        cid = self.next_id()
        await self._request(CreateTable(cid, tournament, table, config), cid, 10)

    async def hand(self, tournament: str, table: str, hand: int) -> Any:
        """An archived hand of the table (floor and admin): its record, as the hand files hold
        it; raises ``CommandRefused`` (``unknown_hand``, ``forbidden``)."""
        cid = self.next_id()
        reply = await self._request(FetchHand(cid, tournament, table, hand), cid, 10)
        assert isinstance(reply, HandArchived)
        return reply.record

    def _note(self, message: ServerMessage) -> ServerMessage | None:
        """Track sequence numbers; drop events already seen (exactly once, in order)."""
        if isinstance(message, Events):
            key = (message.tournament, message.table)
            last = self.seen.get(key, 0)
            end = message.seq + len(message.events) - 1
            if end <= last:
                return None
            if message.seq <= last:
                message = Events(
                    message.tournament,
                    message.table,
                    last + 1,
                    message.events[last + 1 - message.seq :],
                )
            elif message.seq != last + 1 and last:
                raise ConnectionError(f"gap in {key}: expected {last + 1}, got {message.seq}")
            self.seen[key] = end
        elif isinstance(message, Snapshot):
            self.seen[(message.tournament, message.table)] = message.seq
        elif isinstance(message, TournamentEvents):
            last = self.tournament_seen.get(message.tournament, 0)
            end = message.seq + len(message.events) - 1
            if end <= last:
                return None
            if message.seq <= last:
                message = TournamentEvents(
                    message.tournament, last + 1, message.events[last + 1 - message.seq :]
                )
            self.tournament_seen[message.tournament] = end
        elif isinstance(message, TournamentSnapshot):
            self.tournament_seen[message.tournament] = message.seq
        return message

    async def run(self) -> None:
        """Read frames until closed; reconnect and resume when the connection drops."""
        delay = 0.1
        while True:
            try:
                if self.ws is None:
                    await self.connect()
                assert self.ws is not None
                async for raw in self.ws:
                    delay = 0.1
                    message = server_decoder.decode(raw)
                    request_id = getattr(message, "id", None)
                    if request_id is not None and request_id in self._waiting:
                        done, box = self._waiting[request_id]
                        box.append(message)
                        done.set()
                        continue
                    if isinstance(message, Resync):
                        raise ConnectionError(message.reason)
                    kept = self._note(message)
                    if kept is not None:
                        await self._inbox_send.send(kept)
                raise ConnectionClosed(None, None)
            except (OSError, ConnectionClosed, ConnectionError, TimeoutError, msgspec.DecodeError):
                self.ws = None
                self._fail_waiting()
                if not self.reconnect:
                    await self._inbox_send.aclose()
                    return
                self.reconnects += 1
                await anyio.sleep(delay)
                delay = min(delay * 2, 2.0)

    def _fail_waiting(self) -> None:
        """Requests in flight get their answer now: the connection is gone (retry, same id)."""
        for done, box in list(self._waiting.values()):
            box.append(
                Error(code="disconnected", message="the connection dropped; retry with the same id")
            )
            done.set()

    async def messages(self) -> AsyncIterator[ServerMessage]:
        async for message in self._inbox:
            yield message
