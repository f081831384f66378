"""Shared code of the service tests: a driver for the bot dealer (``clients.bots``, the one
the demo and the load benchmark use), stations that record every event they are handed, and
checks of what Redis holds.

The driver sends the bot's commands one at a time and keeps each with its id and the ``ack``
it got (or none). It retries a command it has no answer for with the SAME id until it is
acknowledged, across reconnections of its client, so that a test can check afterwards that
every acknowledged command is in the log exactly once and nothing was applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

import msgspec
from redis.asyncio import Redis
from websockets.exceptions import ConnectionClosed

from clients.bots import DealerBot, event_of
from clients.python import Client, CommandRefused
from protocol import Act, Command, Deal, FloorCall, Show, StartHand, TableConfig
from protocol.codec import decode_event
from protocol.wire import Events, Snapshot
from server.engine import TableState, rebuild
from server.keys import commands_key, log_key, state_key

RESEND = ("busy", "unavailable", "unknown_outcome", "disconnected")
"""Answers after which the same command id is sent again (a lost answer may hide a commit)."""


def deep_config(seats: int = 6, stack: int = 1_000_000) -> TableConfig:
    """Deep stacks and small blinds: nobody busts in the few hundred hands of a test."""
    return TableConfig(
        game="NLHE", blinds=(50, 100), seats={n: stack for n in range(1, seats + 1)}, button=1
    )


def as_dict(event: Any) -> dict[str, Any]:
    if isinstance(event, dict):
        return event
    return json.loads(bytes(event))


# --- clients whose messages are kept --------------------------------------------------------


@dataclass
class Received:
    """Everything a station was handed by its client, in order."""

    events: dict[str, list[tuple[int, dict[str, Any]]]] = field(default_factory=dict)
    snapshots: list[Snapshot] = field(default_factory=list)
    others: list[Any] = field(default_factory=list)
    arrived: dict[tuple[str, int], float] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def add(self, message: Any) -> None:
        now = time.monotonic()
        if isinstance(message, Events):
            rows = self.events.setdefault(message.table, [])
            for i, event in enumerate(message.events):
                rows.append((message.seq + i, as_dict(event)))
                self.arrived[(message.table, message.seq + i)] = now
        elif isinstance(message, Snapshot):
            self.snapshots.append(message)
        else:
            self.others.append(message)
        self.changed.set()

    def last(self, table: str) -> int:
        rows = self.events.get(table)
        if rows:
            return rows[-1][0]
        snaps = [s.seq for s in self.snapshots if s.table == table]
        return snaps[-1] if snaps else 0

    def seqs(self, table: str) -> list[int]:
        return [seq for seq, _ in self.events.get(table, [])]

    async def wait_for(self, predicate: Any, timeout: float, what: str = "") -> None:
        """Wait until ``predicate()`` holds, woken by every message; fail after ``timeout``."""
        deadline = time.monotonic() + timeout
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {what or predicate}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))


class Station:
    """A client plus a task that keeps everything the client hands out."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.received = Received()
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.task = asyncio.get_running_loop().create_task(self._pump())

    async def _pump(self) -> None:
        async for message in self.client.messages():
            self.received.add(message)
            self.queue.put_nowait(message)

    async def stop(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task


# --- a bot dealer -----------------------------------------------------------------------------


@dataclass
class Sent:
    id: str
    command: Command
    ack: int | None = None
    duplicate: bool = False
    attempts: int = 0
    acked_at: float = 0.0


class BotError(AssertionError):
    pass


class Bot:
    """Plays one table through one dealer client until told to stop: ``policy`` (the bot
    dealer, playing legal poker that never needs the floor) says what to send."""

    def __init__(
        self,
        station: Station,
        tournament: str,
        table: str,
        config: TableConfig,
        seed: int,
        ack_timeout: float = 3.0,
    ) -> None:
        self.station = station
        self.client = station.client
        self.tournament = tournament
        self.table = table
        self.policy = DealerBot(config, seed)
        self.sent: list[Sent] = []
        self.seen = 0
        self.ack_timeout = ack_timeout
        self.stopping = False
        self.retries = 0
        self.task: asyncio.Task[None] | None = None

    @property
    def acked(self) -> list[Sent]:
        return [s for s in self.sent if s.ack is not None]

    def start(self, limit: int, deadline: float) -> None:
        self.task = asyncio.get_running_loop().create_task(self.play(limit, deadline))

    async def play(self, limit: int, deadline: float) -> None:
        """Send at most ``limit`` commands, until ``stop()`` or the ``deadline`` (monotonic)."""
        for _ in range(limit):
            if self.stopping or time.monotonic() > deadline:
                return
            command = self.policy.pending
            if command is None:
                raise BotError(f"table {self.table}: the bot has nothing to do at {self.seen}")
            sent = Sent(self.client.next_id(), command)
            self.sent.append(sent)
            ack = await self.send(sent, deadline + 30)
            sent.ack, sent.duplicate, sent.acked_at = ack.seq, ack.duplicate, time.monotonic()
            await self.read_until(ack.seq, time.monotonic() + 30)

    def stop(self) -> None:
        self.stopping = True

    async def send(self, sent: Sent, deadline: float) -> Any:
        """Send until acknowledged, always under the same command id.

        An attempt is abandoned when the client's connection drops (the client answers the
        requests pending on it ``disconnected``) or after ``ack_timeout``; the next attempt
        waits until the client has signed in again."""
        while True:
            if time.monotonic() > deadline:
                raise BotError(f"table {self.table}: command {sent.id} never acknowledged")
            ws = self.client.ws
            sent.attempts += 1
            attempt = asyncio.get_running_loop().create_task(
                self.client.command(
                    self.tournament, self.table, sent.command, sent.id, timeout=self.ack_timeout
                )
            )
            while not attempt.done() and self.client.ws is ws and ws is not None:
                await asyncio.wait({attempt}, timeout=0.02)
            if not attempt.done():
                attempt.cancel()
            try:
                return await attempt
            except CommandRefused as refused:
                if refused.error.code in RESEND:
                    # Retry the same id (a failure may hide a commit whose answer was lost).
                    await asyncio.sleep(0.05)
                else:
                    raise BotError(
                        f"table {self.table}: {sent.command} refused at {self.seen}: "
                        f"{refused.error}"
                    ) from None
            except (ConnectionClosed, OSError, TimeoutError, ConnectionError):
                pass
            except asyncio.CancelledError:
                if asyncio.current_task().cancelling():  # type: ignore[union-attr]
                    raise
            self.retries += 1
            await self._connected(deadline)

    async def _connected(self, deadline: float) -> None:
        """Wait until the client has a live connection again (it reconnects by itself and
        sends its hello before anything else)."""
        while time.monotonic() < deadline:
            ws = self.client.ws
            if ws is not None and ws.state.name == "OPEN":
                return
            await asyncio.sleep(0.02)

    async def read_until(self, seq: int, deadline: float) -> None:
        while self.seen < seq:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotError(f"table {self.table}: event {seq} never arrived (at {self.seen})")
            try:
                message = await asyncio.wait_for(self.station.queue.get(), left)
            except TimeoutError:
                continue
            if isinstance(message, Events) and message.table == self.table:
                for i, event in enumerate(message.events):
                    number = message.seq + i
                    if number <= self.seen:
                        continue
                    if number != self.seen + 1:
                        raise BotError(f"table {self.table}: event {number} after {self.seen}")
                    typed = event_of(event)
                    if isinstance(typed, FloorCall) and typed.blocking:
                        raise BotError(f"table {self.table}: the bot played into {typed}")
                    self.policy.see(typed)
                    self.seen = number
            elif isinstance(message, Snapshot):
                raise BotError(f"table {self.table}: a dealer was sent a snapshot")


# --- what Redis holds ---------------------------------------------------------------------------

_state = msgspec.msgpack.Decoder(TableState)


@dataclass
class TableLog:
    seq: int
    snap: TableState
    config: TableConfig
    events: list[tuple[int, bytes]]
    commands: dict[str, int]

    def dicts(self) -> list[tuple[int, dict[str, Any]]]:
        return [(seq, json.loads(raw)) for seq, raw in self.events]


async def read_table(redis: Redis, tournament: str, table: str) -> TableLog:
    fields = await redis.hmget(state_key(tournament, table), ["seq", "snap", "config"])
    entries = await redis.xrange(log_key(tournament, table), "-", "+")
    commands = await redis.hgetall(commands_key(tournament, table))
    return TableLog(
        int(fields[0]),
        _state.decode(fields[1]),
        msgspec.json.decode(fields[2], type=TableConfig),
        [(int(i.split(b"-")[0]), f[b"e"]) for i, f in entries],
        {k.decode(): int(v) for k, v in commands.items()},
    )


def check_log(log: TableLog, sent: list[Sent], table: str) -> dict[str, int]:
    """The invariants of a table written by one bot; returns a few numbers about it.

    - the log is events 1..seq without a hole and the snapshot is at its last event;
    - replaying the log gives exactly the stored snapshot (nothing half-applied);
    - the command ids in the commands hash cut the log into consecutive runs, one per
      command, so no command was applied twice (a second application would leave a run of
      events no id points at);
    - every acknowledged command is there, at the seq of its ack, and its run holds what the
      bot sent under that id (the ``recorded`` event of a hand command).
    """
    seqs = [s for s, _ in log.events]
    assert seqs == list(range(1, log.seq + 1)), (
        f"table {table}: log is not 1..{log.seq}: {seqs[:3]}..{seqs[-3:]}"
    )
    rebuilt = rebuild(log.config, (decode_event(raw) for _, raw in log.events))
    assert rebuilt == log.snap, f"table {table}: the snapshot is not the state the log describes"
    ends = sorted(log.commands.values())
    assert len(set(ends)) == len(ends), f"table {table}: two command ids end at the same event"
    assert (ends[-1] if ends else 0) == log.seq, f"table {table}: events after the last command"
    by_id = {s.id: s for s in sent}
    starts = {}
    previous = 0
    for end in ends:
        starts[end] = previous + 1
        previous = end
    unknown = [cid for cid in log.commands if cid not in by_id]
    assert not unknown, f"table {table}: commands nobody sent: {unknown[:5]}"
    events = dict(log.events)
    for s in sent:
        if s.ack is None:
            continue
        assert log.commands.get(s.id) == s.ack, (
            f"table {table}: acknowledged command {s.id} (seq {s.ack}) is stored as "
            f"{log.commands.get(s.id)}"
        )
    for cid, end in log.commands.items():
        first = json.loads(events[starts[end]])
        expected = by_id[cid].command
        if isinstance(expected, StartHand):
            assert first["type"] == "hand_start", (table, cid, first)
            assert {int(k): v for k, v in first["cards"].items()} == expected.cards
        elif isinstance(expected, Act | Deal | Show):
            assert first["type"] == "recorded", (table, cid, first)
            assert first["command"] == msgspec.to_builtins(expected), (table, cid, first)
    return {"events": log.seq, "commands": len(log.commands)}


def public(event: dict[str, Any]) -> dict[str, Any]:
    """What a display may see of an event (written here, not taken from the server): no hole
    or down-card, no seventh-street down-card, no draw's discards or cards dealt."""
    if event["type"] == "hand_start":
        return {**event, "cards": {}}
    if event["type"] == "dealt" and event.get("down"):
        return {**event, "down": {}}
    if event["type"] == "drawn" and (event.get("thrown") or event.get("cards")):
        return {**event, "thrown": [], "cards": []}
    command = event.get("command") or {}
    if event["type"] != "recorded":
        return event
    if command.get("cards") and command["type"] not in ("deal", "show"):
        # Only the board (stud: a community card) and hands shown at the showdown are public.
        empty: Any = {} if isinstance(command["cards"], dict) else []
        command = {**command, "cards": empty}
    if command.get("down"):
        command = {**command, "down": {}}
    if command.get("thrown"):
        command = {**command, "thrown": []}
    return {**event, "command": command}


def check_received(
    received: Received,
    log: TableLog,
    table: str,
    display: bool,
    who: str,
) -> int:
    """A station was handed every event of the table exactly once, in order, as logged."""
    got = received.events.get(table, [])
    seqs = [s for s, _ in got]
    assert seqs == list(range(1, log.seq + 1)), (
        f"{who}: table {table}: handed {len(seqs)} events, not 1..{log.seq}; "
        f"first {seqs[:5]}, holes/duplicates at "
        f"{[b for a, b in itertools.pairwise(seqs) if b != a + 1][:5]}"
    )
    events = dict(log.events)
    for seq, event in got:
        expected = json.loads(events[seq])
        if display:
            expected = public(expected)
            assert not (event["type"] == "hand_start" and event["cards"]), (who, seq, event)
        assert event == expected, f"{who}: table {table} event {seq}: {event} != {expected}"
    return len(seqs)


# --- stations with any token, closed at the end of the test ------------------------------------


class Stations:
    def __init__(self) -> None:
        self.made: list[tuple[Station, asyncio.Task[None]]] = []

    async def open(
        self,
        url: str,
        token: str,
        subscribe: list[tuple[str, str | None]] | None = None,
        since: int | None = None,
    ) -> Station:
        client = Client(url, token)
        await client.connect()
        station = Station(client)
        self.made.append((station, asyncio.get_running_loop().create_task(client.run())))
        for tournament, table in subscribe or []:
            await client.subscribe(tournament, table, since)
        return station

    async def close(self) -> None:
        for station, task in self.made:
            station.client.reconnect = False
            with contextlib.suppress(Exception):
                await asyncio.wait_for(station.client.close(), 3)
            task.cancel()
            await station.stop()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


async def http_get(port: int, path: str, timeout: float = 5.0) -> tuple[int, str]:
    """One plain HTTP GET; the status and the body."""

    async def get() -> tuple[int, str]:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        length = 0
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":", 1)[1])
        body = await reader.readexactly(length)
        writer.close()
        return status, body.decode()

    return await asyncio.wait_for(get(), timeout)


async def wait_status(port: int, path: str, status: int, timeout: float) -> float:
    """Poll ``path`` until it answers ``status``; the seconds it took."""
    started = time.monotonic()
    while True:
        try:
            got, _ = await http_get(port, path, 1.0)
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            got = -1
        if got == status:
            return time.monotonic() - started
        if time.monotonic() - started > timeout:
            raise AssertionError(f"{path} on {port} did not answer {status} within {timeout}s")
        await asyncio.sleep(0.05)


async def setup_tables(
    url: str, admin_token: str, tournament: str, tables: list[str], config: TableConfig
) -> None:
    admin = Client(url, admin_token, reconnect=False)
    await admin.connect()
    task = asyncio.get_running_loop().create_task(admin.run())
    try:
        await admin.create_tournament(tournament, tournament)
        for table in tables:
            await admin.create_table(tournament, table, config)
    finally:
        await admin.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(task, 3)


async def dealer_bot(
    stations: Stations,
    url: str,
    dealer_token: str,
    tournament: str,
    table: str,
    config: TableConfig,
    seed: int,
) -> Bot:
    station = await stations.open(url, dealer_token, [(tournament, table)])
    return Bot(station, tournament, table, config, seed)


async def play(bot: Bot, count: int, timeout: float = 60.0) -> None:
    """Play exactly ``count`` commands (fails if the bot cannot)."""
    before = len(bot.acked)
    await asyncio.wait_for(bot.play(count, time.monotonic() + timeout), timeout + 5)
    assert len(bot.acked) == before + count
