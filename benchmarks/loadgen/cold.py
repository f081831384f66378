"""The cold-start benchmark's client process (``benchmarks/cold_start.py``): the stations of
its share of the tables, which play, lose their server, and come back as a station does.

Lines on stdin drive it: ``play N`` (every dealer makes N commands, one in flight, each checked
against its mirror; answered ``played``), ``restart`` (from now on a closed connection is a
server gone: reconnect every 250 ms with jitter, sign in, resubscribe from the last number seen,
and for a dealer send the next command; answered, once every station is back, with one JSON
line of what each took). Every time is ``time.monotonic()``, which the machine's processes
share, so the orchestrator measures from its own kill.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from clients.bots import Mirror
from loadgen.common import TOURNAMENT, table_config
from loadgen.stations import PLAY, decode_reply, encode
from protocol.wire import Hello, Ping, Send, Subscribe
from server.tokens import Claims, Role, issue

RETRY = 0.25
"""Seconds between a station's reconnection attempts, 20% either way at random so that the
room's stations do not knock in step: the browser station's first retry
(``clients/web/js/connection.js``), kept instead of doubling, so that the figure is the
service's and not the backoff's."""


class Station:
    """One dealer station (it sends) or subscriber (a display on its table, a floor on all)."""

    def __init__(
        self,
        url: str,
        token: str,
        role: Role,
        table: str | None,
        seed: int,
        tournament: str = TOURNAMENT,
    ) -> None:
        self.url, self.token, self.role, self.table = url, token, role, table
        self.tournament = tournament
        self.ws: ClientConnection | None = None
        self.seen: dict[str, int] = {}  # table -> the last event number read
        self.bot = Mirror(table_config(9), seed, PLAY) if role == "dealer" else None
        self.expected = 0  # a dealer's table number after its last command, as the mirror says
        self.sent = 0
        self.answer: asyncio.Future[Any] | None = None
        self.restarting = False
        self.attempts = 0
        self.resumed_at = 0.0
        self.connected_at = 0.0
        self.problems: list[str] = []

    async def sign_in(self) -> None:
        # proxy=None: left to itself the client reads the proxy settings from the environment
        # on every connection, a sixth of this process's time while the room came back.
        # compression=None: the server does not compress (a fifth of this process's time went
        # on building the offer it declines), as the load benchmark's clients without --deflate.
        self.ws = await connect(
            self.url,
            max_size=2**24,
            open_timeout=10,
            ping_interval=None,
            proxy=None,
            compression=None,
        )
        await self.ws.send(encode(Hello(self.token)), text=True)
        welcome = decode_reply(await self.ws.recv(decode=False))
        if welcome.type != "welcome":
            raise RuntimeError(f"sign-in refused: {welcome.type} {welcome.message}")

    async def follow(self) -> None:
        """Subscribe from the last numbers seen and wait for the pong that follows the
        catch-up (a station's frames are answered in order)."""
        assert self.ws is not None
        if self.role == "display":
            since = self.seen.get(self.table or "", 0)
            subscribe = Subscribe(self.tournament, self.table, since=since)
            await self.ws.send(encode(subscribe), text=True)
        elif self.role == "floor":
            subscribe = Subscribe(self.tournament, None, tables_since=dict(self.seen))
            await self.ws.send(encode(subscribe), text=True)
        await self.request(encode(Ping(1)), "pong")

    async def request(self, frame: bytes, answer: str) -> Any:
        assert self.ws is not None
        self.answer = asyncio.get_running_loop().create_future()
        await self.ws.send(frame, text=True)
        reply = await asyncio.wait_for(self.answer, 30)
        if reply.type != answer:
            raise RuntimeError(f"{answer} expected: {reply.type} {reply.code} {reply.message}")
        return reply

    async def command(self) -> None:
        """The dealer's next command, checked against its mirror."""
        assert self.bot is not None
        command, count = self.bot.step()
        self.sent += 1
        self.expected += count
        frame = encode(
            Send(f"{self.table}-{self.sent}", self.tournament, self.table or "", command)
        )
        reply = await self.request(frame, "ack")
        if reply.seq != self.expected:
            raise RuntimeError(f"table {self.table}: ack {reply.seq}, mirror {self.expected}")

    async def read(self) -> None:
        """Every frame until the connection closes; then, in a restart, come back."""
        while True:
            assert self.ws is not None
            try:
                async for raw in self.ws:
                    reply = decode_reply(raw)
                    if reply.type == "events" and reply.table is not None:
                        last = self.seen.get(reply.table, 0)
                        if reply.seq != last + 1 and last:
                            self.problems.append(f"gap on {reply.table}: {last} then {reply.seq}")
                        self.seen[reply.table] = reply.seq + len(reply.events) - 1
                    elif reply.type in ("ack", "pong", "error") and self._waiting():
                        assert self.answer is not None
                        self.answer.set_result(reply)
            except ConnectionClosed:
                pass
            if not self.restarting:
                return
            await self.come_back()

    def _waiting(self) -> bool:
        return self.answer is not None and not self.answer.done()

    async def come_back(self) -> None:
        while True:
            await asyncio.sleep(RETRY * (0.8 + 0.4 * random.random()))
            self.attempts += 1
            try:
                await self.sign_in()
            except (OSError, RuntimeError, TimeoutError, WebSocketException):
                continue  # not up yet, or its door full (refused before sign-in): again
            self.connected_at = time.monotonic()
            break
        asyncio.get_running_loop().create_task(self._resume())

    async def _resume(self) -> None:
        try:
            if self.role == "dealer":
                await self.command()
            else:
                await self.follow()
            self.resumed_at = time.monotonic()
        except (RuntimeError, TimeoutError, ConnectionClosed) as failed:
            self.problems.append(f"{self.role} {self.table}: {failed}")
            self.resumed_at = -1.0
        self.restarting = False


async def worker(spec: dict[str, Any]) -> None:
    secret = spec["secret"].encode()
    expires = int(time.time()) + 3600
    stations: list[Station] = []
    for n, table in enumerate(spec["tables"]):
        url = spec["urls"][n % len(spec["urls"])]
        for role in ("dealer", "display"):
            token = issue(secret, Claims(role, TOURNAMENT, expires, str(table)))
            stations.append(Station(url, token, role, str(table), spec["seed"] * 100_003 + table))
    for f in range(spec["floors"]):
        token = issue(secret, Claims("floor", TOURNAMENT, expires))
        stations.append(Station(spec["urls"][f % len(spec["urls"])], token, "floor", None, 0))
    gate = asyncio.Semaphore(64)
    loop = asyncio.get_running_loop()
    readers = []

    async def open_one(station: Station) -> None:
        async with gate:
            await station.sign_in()
            readers.append(loop.create_task(station.read()))
            if station.role != "dealer":
                await station.follow()

    await asyncio.gather(*(open_one(s) for s in stations))
    dealers = [s for s in stations if s.role == "dealer"]
    print("ready", flush=True)
    while line := (await loop.run_in_executor(None, sys.stdin.readline)).split():
        if line[0] == "play":
            for _ in range(int(line[1])):
                await asyncio.gather(*(d.command() for d in dealers))
            print("played", flush=True)
        elif line[0] == "restart":
            for s in stations:
                s.restarting = True
            print("armed", flush=True)
            while any(s.restarting for s in stations):
                await asyncio.sleep(0.05)
            print(
                json.dumps(
                    {
                        "resumed": _by_role(stations, lambda s: s.resumed_at),
                        "instance": _by_role(stations, lambda s: spec["urls"].index(s.url)),
                        "connected": _by_role(stations, lambda s: s.connected_at),
                        "attempts": _by_role(stations, lambda s: s.attempts),
                        "problems": [p for s in stations for p in s.problems],
                    }
                ),
                flush=True,
            )
    for task in readers:
        task.cancel()


def _by_role(stations: list[Station], value: Any) -> dict[str, list[Any]]:
    found: dict[str, list[Any]] = {}
    for s in stations:
        found.setdefault(s.role, []).append(value(s))
    return found
