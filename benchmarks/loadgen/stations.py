"""The load workers: dealer stations whose bot (``clients.bots.Mirror``: legal poker from a
mirror of the table) says what to send and what event numbers it gets, displays and floor
monitors that time every ``events`` frame they read."""

from __future__ import annotations

import array
import asyncio
import contextlib
import random
import sys
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from clients.bots import Mirror, Style
from loadgen.common import FLOOR_BASE, PACED, SATURATION, TOURNAMENT, table_config
from protocol.wire import Hello, Ping, Send, Subscribe
from server.tokens import Claims, Role, issue

encode = msgspec.json.Encoder().encode


PLAY = Style(bet=0.04, fold=0.11, raise_=0.04)
"""Check or call mostly, fold sometimes, a minimum bet or raise now and then."""


# --- worker: the stations ------------------------------------------------------------------


class Reply(msgspec.Struct):
    """Any server frame, read only as far as the benchmark needs."""

    type: str
    id: str | None = None
    table: str | None = None
    seq: int = 0
    nonce: int = 0
    code: str | None = None
    message: str | None = None
    events: list[msgspec.Raw] = []
    reason: str | None = None


decode_reply = msgspec.json.Decoder(Reply).decode


@dataclass
class Records:
    send_table: array.array = field(default_factory=lambda: array.array("i"))
    send_key: array.array = field(default_factory=lambda: array.array("i"))
    send_phase: array.array = field(default_factory=lambda: array.array("b"))
    send_t: array.array = field(default_factory=lambda: array.array("d"))
    ack_t: array.array = field(default_factory=lambda: array.array("d"))
    ack_seq: array.array = field(default_factory=lambda: array.array("i"))
    """The table's last number after each command (0: not acknowledged)."""
    recv_sub: array.array = field(default_factory=lambda: array.array("i"))
    recv_table: array.array = field(default_factory=lambda: array.array("i"))
    recv_seq: array.array = field(default_factory=lambda: array.array("i"))
    recv_count: array.array = field(default_factory=lambda: array.array("i"))
    recv_t: array.array = field(default_factory=lambda: array.array("d"))
    problems: Counter[str] = field(default_factory=Counter)
    late: int = 0

    def dump(self) -> bytes:
        arrays = {k: v.tobytes() for k, v in vars(self).items() if isinstance(v, array.array)}
        return msgspec.msgpack.encode(
            {"arrays": arrays, "problems": dict(self.problems), "late": self.late}
        )

    @classmethod
    def load(cls, data: bytes) -> Records:
        raw = msgspec.msgpack.decode(data)
        rec = cls()
        for k, b in raw["arrays"].items():
            getattr(rec, k).frombytes(b)
        rec.problems.update(raw["problems"])
        rec.late = raw["late"]
        return rec

    def extend(self, other: Records) -> None:
        for k, v in vars(self).items():
            if isinstance(v, array.array):
                v.extend(getattr(other, k))
        self.problems.update(other.problems)
        self.late += other.late


class Dealer:
    def __init__(
        self, table: int, ws: ClientConnection, bot: Mirror, rec: Records, tw: bool
    ) -> None:
        self.table = table
        self.table_id = str(table)
        self.ws = ws
        self.bot = bot
        self.rec = rec
        self.tw = tw  # against Tablewire (numbers count events) or the relay (commands)
        self.seq = 0  # the table's last number, as the mirror predicts it
        self.sent = 0
        self.outstanding: deque[tuple[int, int]] = deque()  # (record index, expected seq)
        self.moved = asyncio.Event()
        self.dead = False

    async def send_one(self, phase: int) -> None:
        try:
            command, count = self.bot.step()
        except RuntimeError as exc:
            self.rec.problems[str(exc)] += 1
            self.dead = True
            return
        key = self.seq + 1
        self.seq += count if self.tw else 1
        self.sent += 1
        data = encode(Send(f"{self.table}-{self.sent}", TOURNAMENT, self.table_id, command))
        rec = self.rec
        rec.send_table.append(self.table)
        rec.send_key.append(key)
        rec.send_phase.append(phase)
        rec.ack_t.append(float("nan"))
        rec.ack_seq.append(0)
        self.outstanding.append((len(rec.send_t), self.seq))
        rec.send_t.append(time.monotonic())
        try:
            await self.ws.send(data, text=True)
        except ConnectionClosed:
            self.dead = True

    async def read(self) -> None:
        rec = self.rec
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                now = time.monotonic()
                reply = decode_reply(raw)
                if reply.type == "ack" and self.outstanding:
                    index, expected = self.outstanding.popleft()
                    rec.ack_t[index] = now
                    rec.ack_seq[index] = reply.seq
                    if reply.seq != expected:
                        rec.problems[f"ack seq differs from the mirror ({self.table})"] += 1
                        self.dead = True
                elif reply.type == "error":
                    rec.problems[f"refused: {reply.code}: {reply.message}"] += 1
                    if reply.id is not None and self.outstanding:
                        self.outstanding.popleft()
                    self.dead = True
                elif reply.type == "resync":
                    rec.problems[f"dealer told to resync: {reply.reason}"] += 1
                self.moved.set()
        except msgspec.DecodeError as exc:
            rec.problems[f"dealer could not read a frame: {exc}"] += 1
            self.dead = True
            self.moved.set()
        except ConnectionClosed as exc:
            rec.problems[f"dealer connection closed: {exc}"] += 1
            self.dead = True
            self.moved.set()

    async def wait_below(self, limit: int, deadline: float) -> bool:
        """Until fewer than ``limit`` commands are in flight; False if the deadline passed."""
        while len(self.outstanding) >= limit and not self.dead:
            self.moved.clear()
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.moved.wait(), left)
        return not self.dead

    async def paced(self, start: float, end: float, mean: float, rng: random.Random) -> None:
        at = start + rng.expovariate(1.0 / mean)
        while at < end and not self.dead:
            delay = at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if self.outstanding:
                self.rec.late += 1
                if not await self.wait_below(1, end):
                    return
            await self.send_one(PACED)
            at += rng.expovariate(1.0 / mean)

    async def saturate(self, end: float, depth: int) -> None:
        while not self.dead and time.monotonic() < end:
            if len(self.outstanding) >= depth and not await self.wait_below(depth, end):
                return
            await self.send_one(SATURATION)


class Subscriber:
    def __init__(self, sub_id: int, ws: ClientConnection, rec: Records) -> None:
        self.sub_id = sub_id
        self.ws = ws
        self.rec = rec
        self.pong = asyncio.Event()

    async def read(self) -> None:
        rec = self.rec
        sub = self.sub_id
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                now = time.monotonic()
                reply = decode_reply(raw)
                if reply.type == "events":
                    rec.recv_sub.append(sub)
                    rec.recv_table.append(int(reply.table or 0))
                    rec.recv_seq.append(reply.seq)
                    rec.recv_count.append(len(reply.events))
                    rec.recv_t.append(now)
                elif reply.type == "pong":
                    self.pong.set()
                elif reply.type in ("resync", "error", "snapshot"):
                    rec.problems[
                        f"subscriber got {reply.type}: {reply.reason or reply.message}"
                    ] += 1
        except msgspec.DecodeError as exc:
            rec.problems[f"subscriber could not read a frame: {exc}"] += 1
        except ConnectionClosed as exc:
            rec.problems[f"subscriber connection closed: {exc}"] += 1


async def open_station(
    url: str, secret: bytes, role: Role, table: str | None, deflate: bool, delay: float = 0.0
):
    claims = Claims(role, TOURNAMENT, int(time.time()) + 3 * 3600, table, delay=delay)
    ws = await connect(
        url,
        max_size=2**24,
        open_timeout=30,
        ping_interval=None,
        proxy=None,
        compression="deflate" if deflate else None,
    )
    await ws.send(encode(Hello(issue(secret, claims))), text=True)
    welcome = decode_reply(await ws.recv(decode=False))
    if welcome.type != "welcome":
        raise RuntimeError(f"sign-in refused: {welcome}")
    return ws


async def worker(spec: dict[str, Any]) -> None:
    """One client process: its share of dealers, displays and floor monitors."""
    tw = spec["target"] == "tablewire"
    secret = spec["secret"].encode()
    url = spec["url"]
    deflate = spec["deflate"]
    config = table_config(spec["seats"], spec.get("game", "NLHE"))
    rec = Records()
    gate = asyncio.Semaphore(64)
    tasks: list[asyncio.Task[None]] = []
    loop = asyncio.get_running_loop()

    async def subscriber(sub_id: int, role: Role, table: str | None) -> Subscriber:
        async with gate:
            ws = await open_station(url, secret, role, table, deflate)
            sub = Subscriber(sub_id, ws, rec)
            tasks.append(loop.create_task(sub.read()))
            await ws.send(encode(Subscribe(TOURNAMENT, table)), text=True)
            await ws.send(encode(Ping(sub_id)), text=True)
            await asyncio.wait_for(sub.pong.wait(), 60)  # frames are handled in order
            return sub

    async def dealer(table: int) -> Dealer:
        async with gate:
            ws = await open_station(url, secret, "dealer", str(table), deflate)
            bot = Mirror(config, spec["seed"] * 100_003 + table, PLAY)
            d = Dealer(table, ws, bot, rec, tw)
            tasks.append(loop.create_task(d.read()))
            return d

    floors = [await subscriber(FLOOR_BASE + f, "floor", None) for f in spec["floors"]]
    displays = await asyncio.gather(*(subscriber(t, "display", str(t)) for t in spec["tables"]))
    dealers = await asyncio.gather(*(dealer(t) for t in spec["tables"]))
    print("ready", flush=True)

    line = await loop.run_in_executor(None, sys.stdin.readline)
    t0 = float(line.split()[1])
    mean = spec["tables_total"] / spec["rate"]  # seconds between one table's commands
    for phase, start, end in spec_phases(spec, t0):
        delay = start - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if phase == PACED:
            await asyncio.gather(
                *(d.paced(start, end, mean, random.Random(d.table)) for d in dealers)
            )
        else:
            await asyncio.gather(*(d.saturate(end, spec["depth"]) for d in dealers))
    # Let every command be acknowledged and every subscriber go quiet (bounded).
    deadline = time.monotonic() + spec["max_drain"]
    await asyncio.sleep(spec["drain"])
    while time.monotonic() < deadline and any(d.outstanding and not d.dead for d in dealers):
        await asyncio.sleep(0.1)
    while time.monotonic() < deadline and rec.recv_t and time.monotonic() - rec.recv_t[-1] < 1.0:
        await asyncio.sleep(0.2)
    rec.problems.update(
        {"dealer stopped (refusal, mismatch or closed)": sum(d.dead for d in dealers)}
        if any(d.dead for d in dealers)
        else {}
    )
    Path(spec["out"]).write_bytes(rec.dump())
    for t in tasks:
        t.cancel()
    for s in (*floors, *displays, *dealers):
        with contextlib.suppress(Exception):
            await asyncio.wait_for(s.ws.close(), 0.5)
    print("done", flush=True)


def spec_phases(spec: dict[str, Any], t0: float) -> list[tuple[int, float, float]]:
    phases = []
    at = t0
    for phase in spec["phases"]:
        phases.append((phase, at, at + spec["seconds"]))
        at += spec["seconds"] + spec["drain"]
    return phases
