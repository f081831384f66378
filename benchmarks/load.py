"""Load benchmark (issue acceptance 6): many tables live at once through the real service.

    python benchmarks/load.py                  # 1,000 tables, 500 commands/s paced, then saturation
    python benchmarks/load.py --quick          # 200 tables, 100 commands/s, 6 s phases
    python benchmarks/load.py --profile        # and py-spy the server during its saturation phase

What runs, all on 127.0.0.1:

- a real ``redis-server`` (``server.embedded_redis.EmbeddedRedis``, AOF, ``appendfsync always``)
  in a temporary directory (``--fsync everysec`` shows how much of the tail is the disk's);
- ``python -m server.cli serve`` as a subprocess on that Redis (``REDIS_URL`` and
  ``TABLEWIRE_SECRET`` in its environment);
- the load: client worker processes (``--workers``, default 2), separate from the server but on
  the same cores. For each of ``--tables`` tables there is one bot dealer (its own websocket,
  dealer token for its table) and one display subscribed to the table; besides, 10 floor
  monitors subscribe to the whole tournament. The tables (9 seats, NLHE 50/100, deep stacks so
  nobody busts) are created by an admin before the clock starts.
- afterwards the bare relay (``benchmarks/relay.py``: PUBLISH the dealer's frame, a pattern
  subscriber forwards it; no engine, no persistence) on the same Redis, driven by the same
  workers, bots and subscribers.

The bots play legal poker: ``start_hand`` with hole cards from a shuffled deck, then they
answer each prompt (check or call mostly, fold sometimes, a minimum bet or raise now and
then), deal the next street (with its cards) when ``round_end`` names one, show in the
showdown order, and start a new hand after ``hand_end``. Each bot keeps a mirror of its table
(the same pure engine, ``server.engine.apply``) so it knows the prompts, and so the event
numbers each command will get, before the server answers. That lets a dealer keep several
commands in flight (saturation) and lets latency be matched exactly: a command's events start
at the number after the table's previous event, and a subscriber's ``events`` frame names its
first number. Every acknowledgement is checked against the mirror (a mismatch or a refusal is
reported and stops that table).

Two phases per target, each ``--seconds`` long, the first ``--warmup`` seconds not counted:

- paced: each dealer sends at exponential (Poisson) intervals so the whole room makes
  ``--rate`` commands/s on average; one command in flight per dealer;
- saturation: every dealer keeps ``--depth`` commands in flight, as fast as acks come back.

The server runs as configured by default (a bounded, blocking Redis pool); ``--redis-pool N``
gives it a different pool size through ``REDIS_URL ?max_connections=N``.
Stations offer permessage-deflate as browsers do; ``--no-compression`` turns it off.

Latency is from the moment a dealer hands its command to the websocket (monotonic clock, which
all processes of the machine share) to the moment each subscriber — the table's display and
each of the 10 floor monitors — has read the ``events`` frame carrying the command's events.
Every (command, subscriber) pair is one sample; "all 11" is the latest of a command's
subscribers. Receive times include the load generator's own delays: it shares the 2 cores.
"""

from __future__ import annotations

import argparse
import array
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgspec  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from protocol import (  # noqa: E402
    Act,
    CardsShown,
    Deal,
    ErrorEvent,
    HandEnd,
    Prompt,
    RoundEnd,
    Show,
    ShowdownOrder,
    StartHand,
    TableConfig,
)
from protocol.commands import Command  # noqa: E402
from protocol.wire import CreateTable, CreateTournament, Hello, Ping, Send, Subscribe  # noqa: E402
from server import loop  # noqa: E402
from server.embedded_redis import EmbeddedRedis, free_port  # noqa: E402
from server.engine import TableState, apply, new_table  # noqa: E402
from server.health import wait_http  # noqa: E402
from server.tokens import Claims, Role, issue  # noqa: E402

TOURNAMENT = "bench"
FLOORS = 10
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
STREETS = ("flop", "turn", "river")
GOAL_P99_MS = 25.0
GOAL_RATE = 2000.0
GOAL_RELAY_RATIO = 0.5
PACED, SATURATION = 0, 1
PHASE_NAMES = ("paced", "saturation")
FLOOR_BASE = 1_000_000  # subscriber ids: a display is its table number, a floor FLOOR_BASE + i

_encode = msgspec.json.Encoder().encode


def table_config(seats: int) -> TableConfig:
    return TableConfig(
        game="NLHE",
        blinds=(50, 100),
        seats={s: 1_000_000 for s in range(1, seats + 1)},
        button=1,
    )


# --- the bot dealer ------------------------------------------------------------------------


class Bot:
    """One table's dealer: what to send next, from a mirror of the table (the pure engine)."""

    def __init__(self, config: TableConfig, seed: int) -> None:
        self.state: TableState = new_table(config)
        self.rng = random.Random(seed)
        self.pending: Command | None = None
        self.deck: list[str] = []
        self.next_card = 0
        self.show_order: list[int] = []
        self.hands = 0

    def _start(self) -> Command:
        deck = list(DECK)
        self.rng.shuffle(deck)
        self.deck = deck
        seats = [s.number for s in self.state.seats if s.stack > 0]
        self.next_card = 2 * len(seats)
        self.hands += 1
        return StartHand(cards={s: deck[2 * i : 2 * i + 2] for i, s in enumerate(seats)})

    def step(self) -> tuple[Command, int]:
        """The next command and how many events it makes; the mirror moves on."""
        command = self.pending if self.pending is not None else self._start()
        state, events = apply(self.state, command)
        if len(events) == 1 and isinstance(events[0], ErrorEvent):
            raise RuntimeError(f"the bot made an illegal move {command}: {events[0].message}")
        self.state = state
        self.pending = None
        for e in events:
            if isinstance(e, Prompt):
                self.pending = self._answer(e)
            elif isinstance(e, RoundEnd) and e.next in STREETS:
                count = 3 if e.next == "flop" else 1
                burn = self.next_card
                self.next_card += 1 + count
                self.pending = Deal(street=e.next, cards=self.deck[burn + 1 : burn + 1 + count])  # type: ignore[arg-type]
            elif isinstance(e, ShowdownOrder):
                self.show_order = list(e.order)
                self.pending = Show(seat=self.show_order.pop(0))
            elif isinstance(e, CardsShown) and self.show_order:
                self.pending = Show(seat=self.show_order.pop(0))
            elif isinstance(e, HandEnd):
                self.pending = None
        return command, len(events)

    def _answer(self, p: Prompt) -> Command:
        r = self.rng.random()
        if p.can_raise and p.min_raise_to and r < 0.04:
            return Act(seat=p.seat, declare="raise" if p.to_call else "bet", amount=p.min_raise_to)
        if "check" in p.options:
            return Act(seat=p.seat, declare="check")
        if r < 0.15:
            return Act(seat=p.seat, declare="fold")
        return Act(seat=p.seat, declare="call")


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


_reply = msgspec.json.Decoder(Reply).decode


@dataclass
class Records:
    send_table: array.array = field(default_factory=lambda: array.array("i"))
    send_key: array.array = field(default_factory=lambda: array.array("i"))
    send_phase: array.array = field(default_factory=lambda: array.array("b"))
    send_t: array.array = field(default_factory=lambda: array.array("d"))
    ack_t: array.array = field(default_factory=lambda: array.array("d"))
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
    def __init__(self, table: int, ws: ClientConnection, bot: Bot, rec: Records, tw: bool) -> None:
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
        data = _encode(Send(f"{self.table}-{self.sent}", TOURNAMENT, self.table_id, command))
        rec = self.rec
        rec.send_table.append(self.table)
        rec.send_key.append(key)
        rec.send_phase.append(phase)
        rec.ack_t.append(float("nan"))
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
                reply = _reply(raw)
                if reply.type == "ack" and self.outstanding:
                    index, expected = self.outstanding.popleft()
                    rec.ack_t[index] = now
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
                reply = _reply(raw)
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


async def open_station(url: str, secret: bytes, role: Role, table: str | None, deflate: bool):
    claims = Claims(role, TOURNAMENT, int(time.time()) + 3 * 3600, table)
    ws = await connect(
        url,
        max_size=2**24,
        open_timeout=30,
        ping_interval=None,
        compression="deflate" if deflate else None,
    )
    await ws.send(_encode(Hello(issue(secret, claims))), text=True)
    welcome = _reply(await ws.recv(decode=False))
    if welcome.type != "welcome":
        raise RuntimeError(f"sign-in refused: {welcome}")
    return ws


async def worker(spec: dict[str, Any]) -> None:
    """One client process: its share of dealers, displays and floor monitors."""
    tw = spec["target"] == "tablewire"
    secret = spec["secret"].encode()
    url = spec["url"]
    deflate = spec["deflate"]
    config = table_config(spec["seats"])
    rec = Records()
    gate = asyncio.Semaphore(64)
    tasks: list[asyncio.Task[None]] = []
    loop = asyncio.get_running_loop()

    async def subscriber(sub_id: int, role: Role, table: str | None) -> Subscriber:
        async with gate:
            ws = await open_station(url, secret, role, table, deflate)
            sub = Subscriber(sub_id, ws, rec)
            tasks.append(loop.create_task(sub.read()))
            await ws.send(_encode(Subscribe(TOURNAMENT, table)), text=True)
            await ws.send(_encode(Ping(sub_id)), text=True)
            await asyncio.wait_for(sub.pong.wait(), 60)  # frames are handled in order
            return sub

    async def dealer(table: int) -> Dealer:
        async with gate:
            ws = await open_station(url, secret, "dealer", str(table), deflate)
            d = Dealer(table, ws, Bot(config, spec["seed"] * 100_003 + table), rec, tw)
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


# --- orchestrator --------------------------------------------------------------------------


def cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, IndexError):
        return 0


def machine_busy() -> tuple[int, int]:
    parts = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


def wait_port(port: int, timeout: float = 30.0) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listening on port {port}")


async def fetch_metrics(port: int) -> dict[str, float]:
    """The server's Prometheus counters; empty if it does not answer within 5 s."""
    import urllib.request

    def get() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
            return r.read().decode()

    try:
        text = await asyncio.get_running_loop().run_in_executor(None, get)
    except OSError:
        return {}
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("tablewire_") and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            with contextlib.suppress(ValueError):
                out[name] = float(value)
    return out


async def create_tables(url: str, secret: bytes, count: int, seats: int) -> None:
    """The admin creates the tournament and the tables (several connections: 200 frames/s each)."""
    config = table_config(seats)
    per = 300
    claims = Claims("admin", TOURNAMENT, int(time.time()) + 3600)

    async def batch(tables: list[int], first: bool) -> None:
        async with connect(url, max_size=2**24) as ws:
            await ws.send(_encode(Hello(issue(secret, claims))), text=True)
            await ws.recv()
            if first:
                await ws.send(_encode(CreateTournament("t", TOURNAMENT, "Load")), text=True)
                await ws.recv()
            for t in tables:
                await ws.send(_encode(CreateTable(f"c{t}", TOURNAMENT, str(t), config)), text=True)
            for _ in tables:
                reply = _reply(await ws.recv(decode=False))
                if reply.type != "ack":
                    raise RuntimeError(f"creating a table failed: {reply}")

    tables = list(range(1, count + 1))
    await batch(tables[:per], True)
    rest = [tables[i : i + per] for i in range(per, count, per)]
    await asyncio.gather(*(batch(part, False) for part in rest))


@dataclass
class PhaseCpu:
    seconds: float
    procs: dict[str, float]
    machine: float


@dataclass
class TargetRun:
    name: str
    records: Records
    phases: list[tuple[int, float, float]]
    cpu: dict[int, PhaseCpu]
    metrics: dict[int, dict[str, float]]
    profile: str | None = None
    log_errors: Counter[str] = field(default_factory=Counter)
    idle: dict[str, float] = field(default_factory=dict)
    redis_latency: dict[int, list[tuple[str, int, int]]] = field(default_factory=dict)
    """Per phase, redis-server's own latency events: (event, seconds it occurred in, max ms)."""


REDIS_SPIKE_MS = 10


async def redis_latency(redis_url: str, reset: bool) -> list[tuple[str, int, int]]:
    """redis-server's latency monitor (events of ``REDIS_SPIKE_MS`` or more): an fsync that
    stalls the disk shows here as ``aof-fsync-always``. ``reset`` clears it afterwards."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url)
    try:
        found = []
        for name, *_ in await client.execute_command("LATENCY", "LATEST"):
            history = await client.execute_command("LATENCY", "HISTORY", name)
            top = max((int(v) for _, v in history), default=0)
            found.append((name.decode() if isinstance(name, bytes) else name, len(history), top))
        if reset:
            await client.execute_command("LATENCY", "RESET")
        return found
    finally:
        await client.aclose()


def log_errors(path: Path) -> Counter[str]:
    """The exceptions a server process logged, by their last traceback line."""
    found: Counter[str] = Counter()
    if not path.exists():
        return found
    for line in path.read_text(errors="replace").splitlines():
        text = line
        if line.startswith("{"):
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                if entry.get("level") not in ("error", "critical", "warning"):
                    continue
                text = entry.get("error", "").strip().splitlines()[-1:] or [entry["message"]]
                text = f"{entry['level']}: {entry['message']}: {text[0]}"
                found[text[:200]] += 1
            continue
        if line and not line.startswith(" ") and ("Error" in line or "Exception" in line):
            found[line[:200]] += 1
    return found


async def run_target(
    args: argparse.Namespace,
    name: str,
    url: str,
    secret: str,
    procs: dict[str, int],
    workdir: Path,
    metrics_port: int | None,
    redis_url: str,
) -> TargetRun:
    workers = []
    tables = list(range(1, args.tables + 1))
    phases = [PACED, SATURATION] if args.phases == "both" else [PHASE_NAMES.index(args.phases)]
    for w in range(args.workers):
        spec = {
            "target": name,
            "url": url,
            "secret": secret,
            "tables": tables[w :: args.workers],
            "tables_total": args.tables,
            "floors": list(range(FLOORS))[w :: args.workers],
            "seats": args.seats,
            "rate": args.rate,
            "seconds": args.seconds,
            "drain": args.drain,
            "max_drain": args.max_drain,
            "depth": args.depth,
            "phases": phases,
            "seed": args.seed,
            "deflate": not args.no_compression,
            "out": str(workdir / f"{name}-worker{w}.bin"),
        }
        spec_path = workdir / f"{name}-worker{w}.json"
        spec_path.write_text(json.dumps(spec))
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--worker",
            str(spec_path),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            cwd=ROOT,
        )
        workers.append(proc)
    try:
        for proc in workers:
            assert proc.stdout is not None
            line = await asyncio.wait_for(proc.stdout.readline(), 300)
            if line.strip() != b"ready":
                raise RuntimeError(f"a {name} worker did not start: {line!r}")
        all_procs = {**procs, **{f"client{i}": p.pid for i, p in enumerate(workers)}}
        # The cost of the connections alone (keepalive pings, the liveness probe): 3 s idle.
        hz = os.sysconf("SC_CLK_TCK")
        ticks = {k: cpu_ticks(p) for k, p in procs.items()}
        await asyncio.sleep(3.0)
        idle = {k: (cpu_ticks(p) - ticks[k]) / hz / 3.0 for k, p in procs.items()}
        t0 = time.monotonic() + 1.0
        for proc in workers:
            assert proc.stdin is not None
            proc.stdin.write(f"go {t0}\n".encode())
            await proc.stdin.drain()
        spec_like = {"phases": phases, "seconds": args.seconds, "drain": args.drain}
        timeline = spec_phases(spec_like, t0)
        cpu: dict[int, PhaseCpu] = {}
        metrics: dict[int, dict[str, float]] = {}
        profile = None
        spikes: dict[int, list[tuple[str, int, int]]] = {}
        for phase, start, end in timeline:
            begin = start + args.warmup
            await asyncio.sleep(max(0.0, begin - time.monotonic()))
            await redis_latency(redis_url, reset=True)
            ticks = {k: cpu_ticks(p) for k, p in all_procs.items()}
            busy0, total0 = machine_busy()
            wall0 = time.monotonic()
            before_task = asyncio.ensure_future(
                fetch_metrics(metrics_port) if metrics_port else asyncio.sleep(0, {})
            )
            spy = None
            if args.profile and name == "tablewire" and phase == SATURATION:
                spy = await start_profile(procs["server"], end - begin - 0.5, workdir)
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            wall = time.monotonic() - wall0
            busy1, total1 = machine_busy()
            after = await fetch_metrics(metrics_port) if metrics_port else {}
            before = await before_task
            if not before or not after:
                after = {}
            cpu[phase] = PhaseCpu(
                wall,
                {k: (cpu_ticks(p) - ticks[k]) / hz / wall for k, p in all_procs.items()},
                (busy1 - busy0) / max(1, total1 - total0),
            )
            metrics[phase] = {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after}
            spikes[phase] = await redis_latency(redis_url, reset=False)
            if spy is not None:
                profile = await finish_profile(spy, workdir)
        records = Records()
        for w, proc in enumerate(workers):
            await asyncio.wait_for(proc.wait(), args.drain + args.max_drain + 120)
            records.extend(Records.load((workdir / f"{name}-worker{w}.bin").read_bytes()))
        return TargetRun(
            name, records, timeline, cpu, metrics, profile, idle=idle, redis_latency=spikes
        )
    finally:
        for proc in workers:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


async def start_profile(pid: int, seconds: float, workdir: Path) -> asyncio.subprocess.Process:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    return await asyncio.create_subprocess_exec(
        spy,
        "record",
        "--pid",
        str(pid),
        "--duration",
        str(max(1, int(seconds))),
        "--rate",
        "200",
        "--nonblocking",
        "--format",
        "raw",
        "--output",
        str(workdir / "server-profile.txt"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def finish_profile(spy: asyncio.subprocess.Process, workdir: Path) -> str | None:
    await asyncio.wait_for(spy.wait(), 60)
    path = workdir / "server-profile.txt"
    return path.read_text() if path.exists() else None


PROFILE_PARTS = (
    ("fan-out: station writers (websocket send to every subscriber and the ack)", "Station.writer"),
    ("  of which permessage-deflate compression", "PerMessageDeflate.encode"),
    ("  of which socket writes (transport.write)", "_SelectorSocketTransport.write"),
    ("commands: Station._command (all of a command's handling)", "Station._command"),
    ("  Tables.apply (engine, encoding, commit)", "Tables.apply"),
    ("    engine apply", "apply (server/engine/__init__.py"),
    ("    Store.commit (redis-py EVALSHA round trip)", "Store.commit"),
    ("  logging (one JSON line per command)", "logging/__init__.py"),
    ("  prometheus metrics", "prometheus_client"),
    ("fan-out: Redis pub/sub listener (Fanout._listen)", "Fanout._listen"),
    ("  Fanout.handle (decode, queue to stations)", "Fanout.handle"),
    ("reading station frames (websocket receive)", "Assembler.get"),
    ("event loop: waiting in epoll", "EpollSelector.select"),
    ("event loop: socket reads", "_read_ready__data_received"),
)


def summarize_profile(collapsed: str, top: int = 20) -> list[str]:
    """Where the server's samples fall: named parts (inclusive), then the busiest functions."""
    parts: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in collapsed.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        total += count
        for label, key in PROFILE_PARTS:
            if key in stack:
                parts[label] += count
        own[_short(stack.rsplit(";", 1)[-1])] += count
    if not total:
        return ["(no samples)"]
    lines = [f"{total} samples (py-spy, 200 Hz); share of the server's samples, inclusive:"]
    lines += [f"  {100 * parts[label] / total:5.1f}%  {label}" for label, _ in PROFILE_PARTS]
    lines.append("busiest functions (self time):")
    lines += [f"  {100 * n / total:5.1f}%  {f}" for f, n in own.most_common(top)]
    return lines


def _short(frame: str) -> str:
    # "function (path/to/file.py:123)" -> "function (pkg/file.py)"
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    path = where.rsplit(":", 1)[0]
    parts = Path(path).parts
    for anchor in ("site-packages", "main", "python3.11", "python3.12", "python3.13"):
        if anchor in parts:
            parts = parts[parts.index(anchor) + 1 :]
            break
    return f"{name} ({'/'.join(parts[-3:])})" if parts else name


# --- analysis ------------------------------------------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


@dataclass
class PhaseResult:
    phase: int
    rate: float
    acked: int
    sent: int
    deliveries: int
    expected: int
    latency: list[float]
    worst: list[float]
    ack: list[float]
    by_second: dict[int, list[float]] = field(default_factory=dict)
    """Latency samples by the second (from the phase's counted start) their command was sent."""


def analyse(run: TargetRun, args: argparse.Namespace) -> dict[int, PhaseResult]:
    r = run.records
    windows = {p: (s + args.warmup, e) for p, s, e in run.phases}
    sent_at: dict[tuple[int, int], int] = {}
    for i, (t, k) in enumerate(zip(r.send_table, r.send_key, strict=True)):
        sent_at[(t, k)] = i
    per_command: dict[int, list[float]] = defaultdict(list)
    for table, seq, count, t in zip(r.recv_table, r.recv_seq, r.recv_count, r.recv_t, strict=True):
        for s in range(seq, seq + count):
            i = sent_at.get((table, s))
            if i is not None:
                per_command[i].append(t - r.send_t[i])
    subscribers = 1 + FLOORS
    results = {}
    for phase, (begin, end) in windows.items():
        span = end - begin
        acked = sent = deliveries = 0
        latency: list[float] = []
        worst: list[float] = []
        ack: list[float] = []
        by_second: dict[int, list[float]] = defaultdict(list)
        for i in range(len(r.send_t)):
            if r.send_phase[i] != phase:
                continue
            a = r.ack_t[i]
            if begin <= a <= end:
                acked += 1
            if not begin <= r.send_t[i] <= end:
                continue
            sent += 1
            if a == a:
                ack.append(a - r.send_t[i])
            got = per_command.get(i, [])
            deliveries += len(got)
            latency.extend(got)
            by_second[int(r.send_t[i] - begin)].extend(got)
            if len(got) >= subscribers:
                worst.append(max(got))
        latency.sort()
        worst.sort()
        ack.sort()
        results[phase] = PhaseResult(
            phase,
            acked / span,
            acked,
            sent,
            deliveries,
            sent * subscribers,
            latency,
            worst,
            ack,
            {k: sorted(v) for k, v in by_second.items()},
        )
    return results


def stalls(m: dict[str, float]) -> list[str]:
    """What the server's histograms say about its own stalls during a phase."""
    commands = m.get("tablewire_command_seconds_count", 0.0)
    quick = m.get('tablewire_command_seconds_bucket{le="0.025"}', 0.0)
    commits = m.get("tablewire_commit_seconds_count", 0.0)
    slow_commits = commits - m.get('tablewire_commit_seconds_bucket{le="0.01"}', 0.0)
    commit_bound = min(
        (
            float(k.split('le="')[1].rstrip('"}'))
            for k, v in m.items()
            if k.startswith("tablewire_commit_seconds_bucket") and v >= commits
        ),
        default=float("inf"),
    )
    gcs = {
        k.split('"')[1]: v for k, v in m.items() if k.startswith("tablewire_gc_pause_seconds_count")
    }
    long_gcs = {
        g: gcs[g] - m.get(f'tablewire_gc_pause_seconds_bucket{{generation="{g}",le="0.01"}}', 0.0)
        for g in gcs
    }
    gc_time = sum(v for k, v in m.items() if k.startswith("tablewire_gc_pause_seconds_sum"))
    return [
        f"{100 * quick / max(1.0, commands):.2f}% of commands acked within 25 ms of arrival;"
        f" Redis commits over 10 ms: {slow_commits:.0f} of {commits:.0f}"
        f" (all within {1000 * commit_bound:g} ms)",
        "garbage collections: "
        + ", ".join(f"gen {g} x{gcs[g]:.0f} ({long_gcs[g]:.0f} over 10 ms)" for g in sorted(gcs))
        + f"; {1000 * gc_time:.0f} ms in all",
    ]


def ms(x: float) -> str:
    return f"{1000 * x:7.1f}"


def report(
    args: argparse.Namespace, runs: dict[str, TargetRun], started: float, redis_version: str
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    analysed = {name: analyse(run, args) for name, run in runs.items()}
    print()
    print(
        f"== Tablewire load: {args.tables} tables x {args.seats} seats, a bot dealer and a display"
        f" per table, {FLOORS} floor monitors on the whole tournament"
    )
    print(
        f"   {os.cpu_count()} cores; redis-server {redis_version} (AOF, appendfsync"
        f" {args.fsync}, ext4 temp dir); websocket permessage-deflate"
        f" {'off' if args.no_compression else 'on'}"
    )
    print(
        f"   load generator: {args.workers} client processes, separate from the server process"
        f" but on the same {os.cpu_count()} cores (their CPU is shown below)"
    )
    print(
        f"   phases: {args.seconds:g} s each, first {args.warmup:g} s not counted; paced ="
        f" Poisson arrivals at {args.rate:g} commands/s in total, 1 in flight per dealer;"
        f" saturation = {args.depth} in flight per dealer"
    )
    print()
    header = (
        f"{'target':10} {'phase':10} {'cmd/s':>8} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}"
        f" {'all-11 p99':>10} {'ack p50':>8} {'ack p99':>8} {'delivered':>9}"
    )
    print("latency, ms: dealer sends -> each subscriber has the events (display + 10 floors)")
    print(header)
    for name, phases in analysed.items():
        for phase, res in phases.items():
            lat = res.latency
            print(
                f"{name:10} {PHASE_NAMES[phase]:10} {res.rate:8.0f} {ms(percentile(lat, 0.5))}"
                f" {ms(percentile(lat, 0.95))} {ms(percentile(lat, 0.99))}"
                f" {ms(lat[-1] if lat else float('nan'))}"
                f" {ms(percentile(res.worst, 0.99)):>10} {ms(percentile(res.ack, 0.5)):>8}"
                f" {ms(percentile(res.ack, 0.99)):>8}"
                f" {100 * res.deliveries / max(1, res.expected):8.2f}%"
            )
            out[f"{name}.{PHASE_NAMES[phase]}"] = {
                "commands_per_s": res.rate,
                "commands_acked": res.acked,
                "commands_sent_in_window": res.sent,
                "p50_ms": 1000 * percentile(lat, 0.5),
                "p95_ms": 1000 * percentile(lat, 0.95),
                "p99_ms": 1000 * percentile(lat, 0.99),
                "max_ms": 1000 * lat[-1] if lat else None,
                "all_subscribers_p99_ms": 1000 * percentile(res.worst, 0.99),
                "ack_p50_ms": 1000 * percentile(res.ack, 0.5),
                "ack_p99_ms": 1000 * percentile(res.ack, 0.99),
                "delivered_fraction": res.deliveries / max(1, res.expected),
            }
    print()
    print(
        "CPU during the counted part of each phase (1.0 = one core busy; other = the rest of the"
        " machine: other processes, kernel network work)"
    )
    noisy: list[str] = []
    for name, run in runs.items():
        for phase, c in run.cpu.items():
            parts = "  ".join(f"{k} {v:4.2f}" for k, v in c.procs.items())
            clients = sum(v for k, v in c.procs.items() if k.startswith("client"))
            other = max(0.0, c.machine * (os.cpu_count() or 1) - sum(c.procs.values()))
            print(
                f"  {name:10} {PHASE_NAMES[phase]:10} {parts}  (clients total {clients:4.2f});"
                f" machine {100 * c.machine:3.0f}% busy, other {other:4.2f}"
            )
            if other > 0.2:
                noisy.append(f"{name} {PHASE_NAMES[phase]} ({other:.2f} cores)")
            out[f"{name}.{PHASE_NAMES[phase]}"]["cpu"] = c.procs
            out[f"{name}.{PHASE_NAMES[phase]}"]["machine_busy"] = c.machine
    for name, run in runs.items():
        idle = "  ".join(f"{k} {v:4.2f}" for k, v in run.idle.items())
        print(f"  {name:10} {'idle':10} {idle}  (all stations connected, no commands)")
    print("server CPU per command (robust to other load on the machine):")
    for name, run in runs.items():
        proc = "server" if name == "tablewire" else "relay"
        results = analysed[name]
        for phase, c in run.cpu.items():
            rate = results[phase].rate
            if rate:
                per = c.procs.get(proc, 0.0) / rate
                with_redis = per + c.procs.get("redis", 0.0) / rate
                print(
                    f"  {name:10} {PHASE_NAMES[phase]:10} {1000 * per:5.3f} ms of {proc} CPU"
                    " a command"
                    f" ({1000 * with_redis:5.3f} with redis-server): one full core would carry"
                    f" about {1 / per if per else float('nan'):,.0f} commands/s"
                )
                out[f"{name}.{PHASE_NAMES[phase]}"]["server_cpu_ms_per_command"] = 1000 * per
    if noisy:
        print(
            f"  WARNING: the machine was busy with other work during {', '.join(noisy)}:"
            " those figures are pessimistic"
        )
    tw = runs.get("tablewire")
    if tw is not None:
        for phase, m in tw.metrics.items():
            count = m.get("tablewire_command_seconds_count", 0.0)
            lag = m.get("tablewire_fanout_lag_seconds_count", 0.0)
            if count:
                mean = m.get("tablewire_command_seconds_sum", 0.0) / count
                lag_mean = m.get("tablewire_fanout_lag_seconds_sum", 0.0) / max(1, lag)
                print(
                    f"  server's own metrics, {PHASE_NAMES[phase]}: command arrival -> ack mean"
                    f" {1000 * mean:.1f} ms over {count:.0f}; commit -> fan-out mean"
                    f" {1000 * lag_mean:.1f} ms"
                )
                for line in stalls(m):
                    print(f"    {line}")
    for name, run in runs.items():
        for phase, events in run.redis_latency.items():
            seen = ", ".join(f"{e} in {n} s (max {top} ms)" for e, n, top in events) or "none"
            print(
                f"  redis-server latency events of {REDIS_SPIKE_MS} ms or more, {name}"
                f" {PHASE_NAMES[phase]}: {seen}"
            )
    for name, phases in analysed.items():
        for phase, res in phases.items():
            worst_seconds = sorted(
                ((percentile(v, 0.99), k) for k, v in res.by_second.items() if v), reverse=True
            )[:3]
            listed = ", ".join(f"+{k} s p99 {1000 * p:.1f} ms" for p, k in worst_seconds)
            print(f"  {name} {PHASE_NAMES[phase]}: worst seconds {listed}")
    problems: Counter[str] = Counter()
    for name, run in runs.items():
        for k, v in run.records.problems.items():
            problems[f"{name}: {k}"] += v
        if run.records.late:
            print(f"  {name}: {run.records.late} paced sends waited for the previous ack")
    for name, run in runs.items():
        for k, v in run.log_errors.items():
            problems[f"{name} log: {k}"] += v
    if problems:
        print("problems:")
        for k, v in problems.most_common(20):
            print(f"  {v:6d}  {k}")
    print()
    print(
        "goals"
        + (
            " (smaller than the goals' setting of 1,000 tables at 500 commands/s: indicative only)"
            if args.tables < 1000 or args.rate < 500
            else ""
        )
    )
    goals = []
    tw_res = analysed.get("tablewire", {})
    relay_res = analysed.get("relay", {})
    if PACED in tw_res:
        p99 = 1000 * percentile(tw_res[PACED].latency, 0.99)
        rate = tw_res[PACED].rate
        delivered = tw_res[PACED].deliveries / max(1, tw_res[PACED].expected)
        ok = p99 < GOAL_P99_MS and rate >= 0.95 * args.rate and delivered >= 0.9999
        goals.append(ok)
        print(
            f"  p99 < {GOAL_P99_MS:g} ms at {args.rate:g} commands/s over {args.tables} tables:"
            f" p99 {p99:.1f} ms at {rate:.0f} commands/s achieved — {'MET' if ok else 'MISSED'}"
        )
        out["goal_latency_met"] = ok
    if SATURATION in tw_res:
        rate = tw_res[SATURATION].rate
        ok = rate >= GOAL_RATE
        goals.append(ok)
        print(
            f"  >= {GOAL_RATE:,.0f} commands/s sustained: {rate:,.0f} commands/s —"
            f" {'MET' if ok else 'MISSED'}"
        )
        out["goal_throughput_met"] = ok
        if SATURATION in relay_res:
            relay_rate = relay_res[SATURATION].rate
            ratio = rate / relay_rate if relay_rate else float("nan")
            ok = ratio >= GOAL_RELAY_RATIO
            goals.append(ok)
            print(
                f"  >= {GOAL_RELAY_RATIO:g} x the bare relay's throughput: {rate:,.0f} /"
                f" {relay_rate:,.0f} = {ratio:.2f} — {'MET' if ok else 'MISSED'}"
            )
            out["relay_ratio"] = ratio
            out["goal_relay_ratio_met"] = ok
    print(f"(run took {time.monotonic() - started:.0f} s)")
    return out


# --- main ----------------------------------------------------------------------------------


def start_server(redis_url: str, secret: str, workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    log = open(workdir / "server.log", "ab")  # noqa: SIM115 - the child owns it
    env = {**os.environ, "TABLEWIRE_SECRET": secret, "REDIS_URL": redis_url}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            str(workdir / "server"),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    wait_http(port, "/readyz")
    return proc, port


def start_relay(redis_url: str, workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    log = open(workdir / "relay.log", "ab")  # noqa: SIM115 - the child owns it
    proc = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "relay.py"),
            "--port",
            str(port),
            "--redis-url",
            redis_url,
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    wait_port(port)
    return proc, port


def stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def wait_quiet(limit: float, patience: float) -> float:
    """Wait (up to ``patience`` s) for the machine to be nearly idle; the busy share seen last."""
    deadline = time.monotonic() + patience
    while True:
        busy0, total0 = machine_busy()
        await asyncio.sleep(2.0)
        busy1, total1 = machine_busy()
        share = (busy1 - busy0) / max(1, total1 - total0)
        if share <= limit or time.monotonic() >= deadline:
            return share
        print(f"(machine {100 * share:.0f}% busy with other work: waiting)", flush=True)


async def orchestrate(args: argparse.Namespace) -> int:
    started = time.monotonic()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, 4 * args.tables + 1000))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    workdir = Path(tempfile.mkdtemp(prefix="tablewire-load-"))
    secret = secrets.token_hex(16)
    redis = EmbeddedRedis(workdir / "redis", fsync=args.fsync)
    server = relay = None
    runs: dict[str, TargetRun] = {}
    try:
        redis.start()
        assert redis.process is not None
        import redis as redis_lib

        info = redis_lib.Redis.from_url(redis.url).info("server")
        version = str(info.get("redis_version", "?"))
        redis_lib.Redis.from_url(redis.url).config_set("latency-monitor-threshold", REDIS_SPIKE_MS)
        targets = ["tablewire", "relay"] if args.target == "both" else [args.target]
        if "tablewire" in targets:
            server_url = redis.url
            if args.redis_pool:
                server_url += f"?max_connections={args.redis_pool}"
                print(f"tablewire: REDIS_URL={server_url}", flush=True)
            share = await wait_quiet(0.15, args.wait_quiet)
            print(f"tablewire: machine {100 * share:.0f}% busy before the start", flush=True)
            server, port = start_server(server_url, secret, workdir)
            url = f"ws://127.0.0.1:{port}/"
            t = time.monotonic()
            await create_tables(url, secret.encode(), args.tables, args.seats)
            print(
                f"tablewire: {args.tables} tables created in {time.monotonic() - t:.1f} s",
                flush=True,
            )
            procs = {"server": server.pid, "redis": redis.process.pid}
            runs["tablewire"] = await run_target(
                args, "tablewire", url, secret, procs, workdir, port, redis.url
            )
            print("tablewire: done", flush=True)
            if args.profile and runs["tablewire"].profile:
                Path(args.profile_out).write_text(runs["tablewire"].profile)
            stop(server)
            server = None
            runs["tablewire"].log_errors = log_errors(workdir / "server.log")
        if "relay" in targets:
            share = await wait_quiet(0.15, args.wait_quiet)
            print(f"relay: machine {100 * share:.0f}% busy before the start", flush=True)
            relay, port = start_relay(redis.url, workdir)
            procs = {"relay": relay.pid, "redis": redis.process.pid}
            runs["relay"] = await run_target(
                args, "relay", f"ws://127.0.0.1:{port}/", secret, procs, workdir, None, redis.url
            )
            print("relay: done", flush=True)
            stop(relay)
            relay = None
            runs["relay"].log_errors = log_errors(workdir / "relay.log")
        out = report(args, runs, started, version)
        tw = runs.get("tablewire")
        if tw is not None and tw.profile:
            print()
            print(
                "== where the server's time goes (py-spy, saturation phase;"
                f" raw: {args.profile_out})"
            )
            for line in summarize_profile(tw.profile):
                print(line)
        if args.json:
            Path(args.json).write_text(json.dumps(out, indent=2))
        return 0
    finally:
        stop(server)
        stop(relay)
        redis.stop()
        if args.keep:
            print(f"(kept {workdir})")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        spec = json.loads(Path(sys.argv[2]).read_text())
        loop.run(worker(spec))
        return
    parser = argparse.ArgumentParser(description="Tablewire load benchmark against a bare relay")
    parser.add_argument("--tables", type=int, help="tables (default 1000; quick 200)")
    parser.add_argument(
        "--rate", type=float, help="paced commands/s in total (default 500; quick 100)"
    )
    parser.add_argument("--seconds", type=float, help="length of each phase (default 20; quick 6)")
    parser.add_argument(
        "--warmup", type=float, help="seconds of each phase not counted (default 2; quick 1)"
    )
    parser.add_argument("--drain", type=float, default=3.0, help="pause after each phase")
    parser.add_argument(
        "--max-drain",
        type=float,
        default=60.0,
        help="at the end, wait at most this long for late acks and deliveries",
    )
    parser.add_argument(
        "--depth", type=int, default=3, help="commands in flight per dealer (saturation)"
    )
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--phases", choices=["both", "paced", "saturation"], default="both")
    parser.add_argument("--target", choices=["both", "tablewire", "relay"], default="both")
    parser.add_argument(
        "--no-compression", action="store_true", help="clients do not offer permessage-deflate"
    )
    parser.add_argument(
        "--quick", action="store_true", help="200 tables, 100 commands/s, 6 s phases"
    )
    parser.add_argument(
        "--profile", action="store_true", help="py-spy the server in its saturation phase"
    )
    parser.add_argument(
        "--profile-out", default=str(Path(tempfile.gettempdir()) / "tablewire-server-profile.txt")
    )
    parser.add_argument(
        "--fsync",
        choices=["always", "everysec"],
        default="always",
        help="redis-server's appendfsync (default always, as the service runs; everysec takes"
        " the disk's fsync stalls out of the acknowledgement path, to see the server's own share)",
    )
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--wait-quiet",
        type=float,
        default=0.0,
        help="before each target, wait up to this many seconds for the machine to be idle",
    )
    parser.add_argument(
        "--redis-pool",
        type=int,
        default=0,
        help="the server's Redis pool size, given as REDIS_URL ?max_connections= (0: its default)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary directory (logs, AOF)"
    )
    args = parser.parse_args()
    args.tables = args.tables or (200 if args.quick else 1000)
    args.rate = args.rate or (100.0 if args.quick else 500.0)
    args.seconds = args.seconds or (6.0 if args.quick else 20.0)
    args.warmup = args.warmup if args.warmup is not None else (1.0 if args.quick else 2.0)
    if args.seconds <= args.warmup:
        parser.error("--seconds must be longer than --warmup")
    sys.exit(asyncio.run(orchestrate(args)))


if __name__ == "__main__":
    main()
