"""The crowd run's client process (``benchmarks/load.py --displays-per-table N``): whole
tables, each its bot dealer and its N displays, spread over the instances.

A table's dealer and displays live in the same process so that each display's frame is timed
against its command's send time here, into histograms, and no sample leaves the process: with
tens of thousands of displays that is what keeps the load generator light. Lines on stdin and
stdout drive it as they drive ``loadgen.stations.worker`` (``ready``, ``go T0``, ``done``).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, WebSocketException

from clients.bots import Mirror
from loadgen.common import TOURNAMENT, table_config
from loadgen.histogram import Histogram
from loadgen.stations import PLAY, Dealer, Records, decode_reply, encode, open_station, spec_phases
from protocol.wire import Ping, Subscribe
from server.tokens import Role


class Tally:
    """Every display frame of the counted window, timed from its command's send: each
    (command, display) pair, and per command the latest of its table's displays ("every")."""

    def __init__(self, rec: Records, displays: int) -> None:
        self.rec = rec
        self.displays = displays
        self.begin = self.end = float("inf")  # the counted window, once the clock is known
        self.known = 0  # sends already indexed
        self.sent: dict[tuple[int, int], int] = {}  # (table, first event number) -> send index
        self.waiting: dict[int, list[float]] = {}  # send index -> [displays seen, latest]
        self.each = Histogram()
        self.every = Histogram()
        self.frames = 0  # display frames read within the window
        self.unmatched = 0

    def frame(self, table: int, seq: int, count: int, now: float) -> None:
        rec = self.rec
        while self.known < len(rec.send_t):
            self.sent[(rec.send_table[self.known], rec.send_key[self.known])] = self.known
            self.known += 1
        if self.begin <= now <= self.end:
            self.frames += 1
        for number in range(seq, seq + count):
            index = self.sent.get((table, number))
            if index is None:
                continue
            sent_at = rec.send_t[index]
            if not self.begin <= sent_at <= self.end:
                return
            latency = now - sent_at
            self.each.add(latency)
            seen = self.waiting.setdefault(index, [0, 0.0])
            seen[0] += 1
            seen[1] = max(seen[1], latency)
            if seen[0] == self.displays:
                self.every.add(seen[1])
                del self.waiting[index]
            return
        self.unmatched += 1

    def result(self) -> dict[str, Any]:
        rec = self.rec
        acks = Histogram()
        counted = 0
        for sent_at, acked_at in zip(rec.send_t, rec.ack_t, strict=True):
            if self.begin <= sent_at <= self.end:
                counted += 1
                if acked_at == acked_at:
                    acks.add(acked_at - sent_at)
        return {
            "each": self.each.dump(),
            "every": self.every.dump(),
            "ack": acks.dump(),
            "commands": counted,
            "acked_in_window": sum(self.begin <= a <= self.end for a in rec.ack_t),
            "short": len(self.waiting),
            "frames": self.frames,
            "unmatched": self.unmatched,
            "problems": dict(rec.problems),
            "late": rec.late,
        }


RETRY = 0.25
"""Seconds before a refused sign-in is tried again, as a station does (20% either way)."""
TRIES = 40


async def sign_in(
    url: str, secret: bytes, role: Role, table: int, deflate: bool, rec: Records
) -> ClientConnection:
    """A station signed in, tried again like a station whose connection was refused or
    closed unanswered: under a storm of sign-ins an instance answers some handshakes after
    its ``open_timeout`` and closes them (counted in ``problems``)."""
    attempt = 0
    while True:
        try:
            return await open_station(url, secret, role, str(table), deflate)
        except (OSError, TimeoutError, WebSocketException) as exc:
            attempt += 1
            rec.problems[f"{role} sign-in tried again: {type(exc).__name__}"] += 1
            if attempt >= TRIES:
                raise
            await asyncio.sleep(RETRY * (0.8 + 0.4 * random.random()))


async def display(
    url: str, secret: bytes, table: int, tally: Tally, rec: Records, deflate: bool
) -> tuple[ClientConnection, asyncio.Task[None]]:
    """A display signed in and subscribed to its table (the pong after the subscription says
    the catch-up is done), reading into ``tally`` until cancelled."""
    ws = await sign_in(url, secret, "display", table, deflate, rec)
    pong = asyncio.Event()

    async def read() -> None:
        try:
            while True:
                raw = await ws.recv(decode=False)
                now = time.monotonic()
                reply = decode_reply(raw)
                if reply.type == "events":
                    tally.frame(table, reply.seq, len(reply.events), now)
                elif reply.type == "pong":
                    pong.set()
                elif reply.type in ("resync", "error", "snapshot"):
                    rec.problems[f"display got {reply.type}: {reply.reason or reply.message}"] += 1
        except msgspec.DecodeError as exc:
            rec.problems[f"display could not read a frame: {exc}"] += 1
        except ConnectionClosed as exc:
            rec.problems[f"display connection closed: {exc}"] += 1

    task = asyncio.get_running_loop().create_task(read())
    await ws.send(encode(Subscribe(TOURNAMENT, str(table))), text=True)
    await ws.send(encode(Ping(table)), text=True)
    await asyncio.wait_for(pong.wait(), 120)
    return ws, task


async def crowd_worker(spec: dict[str, Any]) -> None:
    """Connect every station of this process's tables, say ``ready``, play the paced phase
    from ``go T0``, drain, write the tallies to ``spec["out"]`` and say ``done``."""
    secret = spec["secret"].encode()
    urls: list[str] = spec["urls"]
    per_table: int = spec["displays"]
    rec = Records()
    tally = Tally(rec, per_table)
    gate = asyncio.Semaphore(spec["gate"])
    loop = asyncio.get_running_loop()
    config = table_config(spec["seats"], spec.get("game", "NLHE"))
    sockets: list[ClientConnection] = []
    tasks: list[asyncio.Task[None]] = []

    async def one_display(table: int, n: int) -> None:
        async with gate:
            ws, task = await display(
                urls[(table + n) % len(urls)], secret, table, tally, rec, spec["deflate"]
            )
            sockets.append(ws)
            tasks.append(task)

    async def dealer(table: int) -> Dealer:
        async with gate:
            ws = await sign_in(
                urls[table % len(urls)], secret, "dealer", table, spec["deflate"], rec
            )
            d = Dealer(table, ws, Mirror(config, spec["seed"] * 100_003 + table, PLAY), rec, True)
            sockets.append(ws)
            tasks.append(loop.create_task(d.read()))
            return d

    tables: list[int] = spec["tables"]
    await asyncio.gather(*(one_display(t, n) for n in range(per_table) for t in tables))
    dealers = await asyncio.gather(*(dealer(t) for t in tables))
    # The clients are the instruments: a pause of their own collector (a pass over thousands
    # of client connections takes hundreds of milliseconds) would be timed as the server's
    # latency. Their objects are frozen and the collector is off until the phase is over.
    gc.collect()
    gc.freeze()
    gc.disable()
    print("ready", flush=True)

    line = await loop.run_in_executor(None, sys.stdin.readline)
    t0 = float(line.split()[1])
    ((_, start, end),) = spec_phases(spec, t0)
    tally.begin, tally.end = start + spec["warmup"], end
    mean = spec["tables_total"] / spec["rate"]
    await asyncio.sleep(max(0.0, start - time.monotonic()))
    await asyncio.gather(*(d.paced(start, end, mean, random.Random(d.table)) for d in dealers))
    deadline = time.monotonic() + spec["max_drain"]
    await asyncio.sleep(spec["drain"])
    while time.monotonic() < deadline and (
        any(d.outstanding and not d.dead for d in dealers) or tally.waiting
    ):
        await asyncio.sleep(0.1)
    if any(d.dead for d in dealers):
        rec.problems["dealer stopped (refusal, mismatch or closed)"] += sum(d.dead for d in dealers)
    gc.enable()
    Path(spec["out"]).write_text(json.dumps(tally.result()))
    for task in tasks:
        task.cancel()
    with contextlib.suppress(TimeoutError):  # what is still open closes with the process
        await asyncio.wait_for(asyncio.gather(*(ws.close() for ws in sockets)), 10)
    print("done", flush=True)
