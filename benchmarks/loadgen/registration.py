"""The tournament benchmark's workers (``benchmarks/tournament.py``; read its docstring first):
dealer stations at tournament tables, whose bot (``clients.bots.DealerBot``) is fed the table's
events as the station reads them; floor monitors on the whole tournament; and the admin (the
TD) registering players. Every frame that matters is timed on the monotonic clock, which all
processes of the machine share; the orchestrator matches sends to deliveries afterwards."""

from __future__ import annotations

import array
import asyncio
import contextlib
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from clients.bots import DealerBot, Style
from protocol import Event, PlayerAdded, StartHand, TableConfig
from protocol.tournament import Register, Structure
from protocol.wire import Hello, Ping, Send, SendTournament, Subscribe
from server.engine import TableState, new_table
from server.engine.buttons import next_positions
from server.engine.evolve import evolve
from server.tokens import Claims, Role, issue

TOURNAMENT = "mtt"
FLOOR_BASE = 1_000_000
"""Subscriber ids: a dealer station is its table number, a floor FLOOR_BASE + i."""
PLAY = Style(bet=0.04, fold=0.11, raise_=0.04)
"""Check or call mostly, fold sometimes, a minimum bet or raise now and then (as load.py)."""
TABLE_RETRIED = ("stale", "busy", "unavailable", "rate_limited", "unknown_outcome")
"""A dealer's refusals after which it goes on (the bot decides again from the events)."""
REGISTER_RETRIED = ("hand_in_play", "busy", "unavailable", "rate_limited", "unknown_outcome")
"""A registration's refusals after which the admin sends it again, same command id (a refusal
records nothing, so the service draws a new seat)."""
DEADLINE_FACTOR, DEADLINE_GRACE = 1.2, 5.0
"""The admin gives up on registrations still refused ``FACTOR x`` the schedule's length plus
``GRACE`` seconds after the start, so a run ends in bounded time; they are counted."""

encode = msgspec.json.Encoder().encode


def structure_spec(table_size: int) -> dict[str, Any]:
    """One tournament: long levels, late registration open, no bust-outs during the run."""
    return {
        "name": "Benchmark main event",
        "starting_stack": 1_000_000,
        "buy_in": 100,
        "fee": 10,
        "late_registration_until": 3,
        "table_size": table_size,
        "levels": [
            {"blinds": [50, 100], "minutes": 240},
            {"blinds": [100, 200], "minutes": 240},
            {"blinds": [200, 400], "minutes": 240},
        ],
        "payouts": {"curve": "standard"},
    }


def structure(table_size: int) -> Structure:
    return msgspec.convert(structure_spec(table_size), Structure)


def bot_config(s: Structure) -> TableConfig:
    """The table as the tournament opens it: level 1, no one seated yet."""
    first = s.levels[0]
    return TableConfig(
        game=s.game, blinds=first.blinds, ante=first.ante, bba=first.bba, seats={}, button=1,
        chips=s.chips, min_bet=first.min_bet,
    )  # fmt: skip


class Reply(msgspec.Struct):
    """Any server frame, read only as far as the benchmark needs."""

    type: str
    id: str | None = None
    table: str | None = None
    seq: int = 0
    code: str | None = None
    message: str | None = None
    events: list[msgspec.Raw] = []
    reason: str | None = None


class TEvent(msgspec.Struct):
    """A tournament event, read only as far as the benchmark needs."""

    type: str
    player: str = ""
    table: str = ""


decode_reply = msgspec.json.Decoder(Reply).decode
decode_event = msgspec.json.Decoder(Event).decode
decode_tevent = msgspec.json.Decoder(TEvent).decode


def player_number(text: str) -> int:
    """``p17`` or ``Player 17`` -> 17; -1 for anything else."""
    digits = text.rsplit(" ", 1)[-1].lstrip("p")
    return int(digits) if digits.isdigit() else -1


def _d() -> array.array[float]:
    return array.array("d")


def _i() -> array.array[int]:
    return array.array("q")


@dataclass
class Records:
    # table commands, one row per send
    cmd_table: array.array[int] = field(default_factory=_i)
    cmd_key: array.array[int] = field(default_factory=_i)
    """The number its first event gets if applied (the table's last number seen + 1)."""
    cmd_t: array.array[float] = field(default_factory=_d)
    cmd_ack_t: array.array[float] = field(default_factory=_d)
    cmd_ack_seq: array.array[int] = field(default_factory=_i)
    """The table's last number after it (0: refused, or no answer)."""
    # table ``events`` frames read by a subscriber (a dealer station or a floor)
    fr_sub: array.array[int] = field(default_factory=_i)
    fr_table: array.array[int] = field(default_factory=_i)
    fr_seq: array.array[int] = field(default_factory=_i)
    fr_count: array.array[int] = field(default_factory=_i)
    fr_t: array.array[float] = field(default_factory=_d)
    # ``seated`` read by a floor, ``player_added`` read by the seat's dealer station
    st_sub: array.array[int] = field(default_factory=_i)
    st_player: array.array[int] = field(default_factory=_i)
    st_table: array.array[int] = field(default_factory=_i)
    st_t: array.array[float] = field(default_factory=_d)
    pa_table: array.array[int] = field(default_factory=_i)
    pa_player: array.array[int] = field(default_factory=_i)
    pa_t: array.array[float] = field(default_factory=_d)
    # registrations, one row per player (the admin)
    rg_player: array.array[int] = field(default_factory=_i)
    rg_due_t: array.array[float] = field(default_factory=_d)
    """When its arrival was due (it waits there for a free admin connection)."""
    rg_first_t: array.array[float] = field(default_factory=_d)
    rg_last_t: array.array[float] = field(default_factory=_d)
    """The send of the attempt that was applied."""
    rg_ack_t: array.array[float] = field(default_factory=_d)
    rg_attempts: array.array[int] = field(default_factory=_i)
    rg_ok: array.array[int] = field(default_factory=_i)
    # once a second, per dealer process: tables with 2+ players, tables in a hand
    smp_t: array.array[float] = field(default_factory=_d)
    smp_two: array.array[int] = field(default_factory=_i)
    smp_hand: array.array[int] = field(default_factory=_i)
    problems: Counter[str] = field(default_factory=Counter)
    notes: Counter[str] = field(default_factory=Counter)
    """What the load generator worked around (not the service's doing)."""
    refusals: Counter[str] = field(default_factory=Counter)
    """Refusals by what was refused and its code: ``table: stale``, ``register: hand_in_play``."""
    late: int = 0
    """Arrivals that had to wait (a registration for a free admin connection)."""
    missed: int = 0
    """Table-command arrivals that found no table ready (none playing, or all in flight)."""

    def dump(self) -> bytes:
        arrays = {k: v.tobytes() for k, v in vars(self).items() if isinstance(v, array.array)}
        rest = {
            "problems": dict(self.problems),
            "notes": dict(self.notes),
            "refusals": dict(self.refusals),
        }
        return msgspec.msgpack.encode(
            {"arrays": arrays, **rest, "late": self.late, "missed": self.missed}
        )

    @classmethod
    def load(cls, data: bytes) -> Records:
        raw = msgspec.msgpack.decode(data)
        rec = cls()
        for k, b in raw["arrays"].items():
            getattr(rec, k).frombytes(b)
        rec.problems.update(raw["problems"])
        rec.notes.update(raw["notes"])
        rec.refusals.update(raw["refusals"])
        rec.late, rec.missed = raw["late"], raw["missed"]
        return rec

    def extend(self, other: Records) -> None:
        for k, v in vars(self).items():
            if isinstance(v, array.array):
                v.extend(getattr(other, k))
        self.problems.update(other.problems)
        self.notes.update(other.notes)
        self.refusals.update(other.refusals)
        self.late += other.late
        self.missed += other.missed


async def open_station(
    url: str, secret: bytes, role: Role, table: str | None, deflate: bool
) -> ClientConnection:
    claims = Claims(role, TOURNAMENT, int(time.time()) + 3 * 3600, table)
    ws = await connect(
        url,
        max_size=2**26,
        open_timeout=60,
        ping_interval=None,
        proxy=None,
        compression="deflate" if deflate else None,
    )
    await ws.send(encode(Hello(issue(secret, claims))), text=True)
    welcome = decode_reply(await ws.recv(decode=False))
    if welcome.type != "welcome":
        raise RuntimeError(f"sign-in refused: {welcome}")
    return ws


async def ask(ws: ClientConnection, message: Any) -> None:
    """Send a set-up command and wait for its answer: anything but an ack stops the run."""
    await ws.send(encode(message), text=True)
    reply = decode_reply(await ws.recv(decode=False))
    if reply.type != "ack":
        raise RuntimeError(f"set-up refused: {reply.code}: {reply.message}")


# --- dealer stations ---------------------------------------------------------------------


class Ready:
    """The dealers that may send now, for a uniform random pick in O(1)."""

    def __init__(self) -> None:
        self.items: list[Dealer] = []
        self.where: dict[int, int] = {}

    def __len__(self) -> int:
        return len(self.items)

    def add(self, d: Dealer) -> None:
        if d.table not in self.where:
            self.where[d.table] = len(self.items)
            self.items.append(d)

    def discard(self, d: Dealer) -> None:
        i = self.where.pop(d.table, None)
        if i is None:
            return
        last = self.items.pop()
        if last is not d:
            self.items[i] = last
            self.where[last.table] = i

    def pick(self, rng: random.Random) -> Dealer:
        return self.items[rng.randrange(len(self.items))]


class Dealer:
    """One tournament table's dealer station: subscribed to its table, it feeds the bot every
    event it reads (the tournament's ``player_added`` included) and sends the bot's next
    command, conditional on the last event it read (``after``), when the pacer picks it."""

    def __init__(
        self,
        table: int,
        ws: ClientConnection,
        bot: DealerBot,
        config: TableConfig,
        rec: Records,
        ready: Ready,
        gap: float,
    ) -> None:
        self.table = table
        self.gap = gap
        """The least time between two of this table's commands (a dealer's hands are only
        so fast): the room's pace does not pile onto the few tables already playing."""
        self.next_at = 0.0
        self.timer: asyncio.TimerHandle | None = None
        self.table_id = str(table)
        self.ws = ws
        self.bot = bot
        self.rec = rec
        self.ready = ready
        self.seq = 0
        """The table's last event number read."""
        self.state: TableState = new_table(config)
        """The table rebuilt from the events read (``server.engine.evolve``): who is dealt in."""
        self.flight: int | None = None
        """The record index of the command in flight."""
        self.acked = 0
        """The table's number its ack gave: the command is done once the events are read."""
        self.sent = 0
        self.dead = False
        self.subscribed = asyncio.Event()

    @property
    def players(self) -> int:
        return sum(1 for chips in self.bot.stacks.values() if chips > 0)

    def settle(self) -> None:
        if self.flight is not None and self.acked and self.seq >= self.acked:
            self.flight = None
            self.acked = 0
        pending = self.bot.pending
        if (
            not self.dead
            and self.flight is None
            and pending is not None
            and (not isinstance(pending, StartHand) or next_positions(self.state) is not None)
        ):
            wait = self.next_at - time.monotonic()
            if wait <= 0:
                self.ready.add(self)
            elif self.timer is None:
                self.timer = asyncio.get_running_loop().call_later(wait, self._due)
        else:
            self.ready.discard(self)

    def _due(self) -> None:
        self.timer = None
        self.settle()

    async def send(self) -> None:
        command = self.bot.pending
        assert command is not None and self.flight is None
        rec = self.rec
        if isinstance(command, StartHand):
            command = self._dealt_in(command)
        self.sent += 1
        self.flight = len(rec.cmd_t)
        self.ready.discard(self)
        rec.cmd_table.append(self.table)
        rec.cmd_key.append(self.seq + 1)
        rec.cmd_ack_t.append(float("nan"))
        rec.cmd_ack_seq.append(0)
        data = encode(
            Send(f"{self.table}-{self.sent}", TOURNAMENT, self.table_id, command, after=self.seq)
        )
        now = time.monotonic()
        rec.cmd_t.append(now)
        self.next_at = now + self.gap
        try:
            await self.ws.send(data, text=True)
        except ConnectionClosed:
            self.dead = True
            self.ready.discard(self)

    def _dealt_in(self, command: StartHand) -> StartHand:
        """The bot's start_hand without cards for a seat that waits for the button to pass
        (9-A, 11-A): ``DealerBot`` deals every seat with chips, so a player the tournament
        seated between the small blind and the button would be refused ("cards given for seat
        N, which is not dealt in"); counted in the notes."""
        where = next_positions(self.state)
        if where is None or not command.cards:
            return command
        cards = {seat: c for seat, c in command.cards.items() if seat in where.dealt}
        if len(cards) == len(command.cards):
            return command
        self.rec.notes["bot's start_hand dealt a seat waiting for the button (trimmed)"] += 1
        return StartHand(cards=cards)

    async def read(self) -> None:
        rec = self.rec
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                now = time.monotonic()
                reply = decode_reply(raw)
                kind = reply.type
                if kind == "events":
                    self._events(reply, now)
                elif kind == "ack" and self.flight is not None:
                    rec.cmd_ack_t[self.flight] = now
                    rec.cmd_ack_seq[self.flight] = reply.seq
                    self.acked = reply.seq
                elif kind == "error":
                    rec.refusals[f"table: {reply.code}"] += 1
                    if reply.id is not None and self.flight is not None:
                        self.flight = None
                        self.acked = 0
                    if reply.code not in TABLE_RETRIED:
                        rec.problems[f"dealer refused: {reply.code}: {reply.message}"] += 1
                        self.dead = True
                elif kind == "pong":
                    self.subscribed.set()
                elif kind in ("resync", "snapshot"):
                    rec.problems[f"dealer got {kind}: {reply.reason or ''}"] += 1
                    self.dead = True
                self.settle()
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            rec.problems[f"dealer could not read a frame: {exc}"] += 1
        except ConnectionClosed as exc:
            rec.problems[f"dealer connection closed: {exc}"] += 1
        self.dead = True
        self.ready.discard(self)

    def _events(self, reply: Reply, now: float) -> None:
        rec = self.rec
        first = reply.seq
        if first <= self.seq:
            rec.problems["dealer read an event twice"] += 1
            return
        if first != self.seq + 1:
            rec.problems["dealer missed events (a gap)"] += 1
            self.dead = True
        rec.fr_sub.append(self.table)
        rec.fr_table.append(self.table)
        rec.fr_seq.append(first)
        rec.fr_count.append(len(reply.events))
        rec.fr_t.append(now)
        see = self.bot.see
        for raw in reply.events:
            event = decode_event(raw)
            if isinstance(event, PlayerAdded):
                rec.pa_table.append(self.table)
                rec.pa_player.append(player_number(event.name))
                rec.pa_t.append(now)
            evolve(self.state, event)
            see(event)
        self.seq = first + len(reply.events) - 1


class Floor:
    """A floor monitor on the whole tournament: every table's events and the tournament's."""

    def __init__(self, sub_id: int, ws: ClientConnection, rec: Records) -> None:
        self.sub_id = sub_id
        self.ws = ws
        self.rec = rec
        self.tseq = -1
        self.subscribed = asyncio.Event()

    async def read(self) -> None:
        rec = self.rec
        sub = self.sub_id
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                now = time.monotonic()
                reply = decode_reply(raw)
                kind = reply.type
                if kind == "events":
                    rec.fr_sub.append(sub)
                    rec.fr_table.append(int(reply.table or 0))
                    rec.fr_seq.append(reply.seq)
                    rec.fr_count.append(len(reply.events))
                    rec.fr_t.append(now)
                elif kind == "tournament_events":
                    if self.tseq >= 0 and reply.seq != self.tseq + 1:
                        rec.problems["floor: a gap in the tournament's events"] += 1
                    self.tseq = reply.seq + len(reply.events) - 1
                    for e in reply.events:
                        ev = decode_tevent(e)
                        if ev.type == "seated":
                            rec.st_sub.append(sub)
                            rec.st_player.append(player_number(ev.player))
                            rec.st_table.append(int(ev.table))
                            rec.st_t.append(now)
                elif kind == "tournament_snapshot":
                    self.tseq = reply.seq
                elif kind == "pong":
                    self.subscribed.set()
                elif kind in ("resync", "error", "snapshot"):
                    rec.problems[f"floor got {kind}: {reply.reason or reply.message}"] += 1
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            rec.problems[f"floor could not read a frame: {exc}"] += 1
        except ConnectionClosed as exc:
            rec.problems[f"floor connection closed: {exc}"] += 1


async def stdin_line() -> str:
    return await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)


async def pace(
    ready: Ready, rec: Records, rng: random.Random, rate: float, t0: float, stop_at: list[float]
) -> None:
    """Poisson arrivals at ``rate`` a second from ``t0`` until ``stop_at[0]`` (which a reader
    may lower meanwhile); each sends the next command of a ready table picked at random, or is
    counted as missed when none is ready."""
    while rate <= 0 and stop_at[0] == float("inf"):  # no table commands: the stations listen
        await asyncio.sleep(0.1)
    at = t0 + rng.expovariate(rate) if rate > 0 else float("inf")
    while at < stop_at[0]:
        delay = at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
            if at >= stop_at[0]:
                break
        if ready:
            await ready.pick(rng).send()
        else:
            rec.missed += 1
        at += rng.expovariate(rate)


async def drain(dealers: Sequence[Dealer], rec: Records, wait: float, longest: float) -> None:
    """Let every command be answered and every subscriber go quiet (at most ``longest`` s);
    what is still unanswered then, and the dealers that stopped, are problems."""
    deadline = time.monotonic() + longest
    await asyncio.sleep(wait)
    while time.monotonic() < deadline and any(d.flight is not None and not d.dead for d in dealers):
        await asyncio.sleep(0.1)
    while time.monotonic() < deadline and rec.fr_t and time.monotonic() - rec.fr_t[-1] < 1.0:
        await asyncio.sleep(0.2)
    unanswered = sum(1 for d in dealers if d.flight is not None and not d.dead)
    if unanswered:
        rec.problems["dealer commands still unanswered at the end"] += unanswered
    dead = sum(1 for d in dealers if d.dead)
    if dead:
        rec.problems["dealer stopped (refusal, gap or closed)"] += dead


async def dealer_worker(spec: dict[str, Any]) -> None:
    """One client process: its share of the dealer stations and floor monitors."""
    secret = spec["secret"].encode()
    url, deflate = spec["url"], spec["deflate"]
    config = bot_config(structure(spec["table_size"]))
    rec = Records()
    ready = Ready()
    gate = asyncio.Semaphore(64)
    tasks: list[asyncio.Task[None]] = []
    loop = asyncio.get_running_loop()

    async def floor(f: int) -> Floor:
        async with gate:
            ws = await open_station(url, secret, "floor", None, deflate)
            fl = Floor(FLOOR_BASE + f, ws, rec)
            tasks.append(loop.create_task(fl.read()))
            await ws.send(encode(Subscribe(TOURNAMENT)), text=True)
            await ws.send(encode(Ping(1)), text=True)
            await asyncio.wait_for(fl.subscribed.wait(), 120)
            return fl

    async def dealer(table: int) -> Dealer:
        async with gate:
            ws = await open_station(url, secret, "dealer", str(table), deflate)
            bot = DealerBot(config, spec["seed"] * 100_003 + table, PLAY)
            d = Dealer(table, ws, bot, config, rec, ready, 1.0 / spec["table_max_rate"])
            tasks.append(loop.create_task(d.read()))
            await ws.send(encode(Subscribe(TOURNAMENT, str(table))), text=True)
            await ws.send(encode(Ping(1)), text=True)
            await asyncio.wait_for(d.subscribed.wait(), 120)
            return d

    floors = [await floor(f) for f in spec["floors"]]
    dealers = await asyncio.gather(*(dealer(t) for t in spec["tables"]))
    print("ready", flush=True)

    line = await stdin_line()
    t0 = float(line.split()[1])
    stop_at = [float("inf")]

    async def stop_reader() -> None:
        line = await stdin_line()
        if line.startswith("stop"):
            stop_at[0] = float(line.split()[1])

    tasks.append(loop.create_task(stop_reader()))

    async def sample() -> None:
        while True:
            rec.smp_t.append(time.monotonic())
            rec.smp_two.append(sum(1 for d in dealers if d.players >= 2))
            rec.smp_hand.append(sum(1 for d in dealers if not d.bot.between_hands))
            await asyncio.sleep(1.0)

    await asyncio.sleep(max(0.0, t0 - time.monotonic()))
    tasks.append(loop.create_task(sample()))
    await pace(ready, rec, random.Random(spec["seed"]), spec["rate"], t0, stop_at)
    await drain(dealers, rec, spec["drain"], spec["max_drain"])
    Path(spec["out"]).write_bytes(rec.dump())
    for t in tasks:
        t.cancel()
    for ws in [f.ws for f in floors] + [d.ws for d in dealers]:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 0.5)
    print("done", flush=True)


# --- the admin ---------------------------------------------------------------------------


async def register(
    ws: ClientConnection,
    player: int,
    due: float,
    rec: Records,
    retry_after: float,
    give_up: float,
) -> None:
    """Register ``player`` (its seat drawn and taken by the service in the same commit); sent
    again under the same id after a refusal that changed nothing and may pass next time, until
    the monotonic time ``give_up``."""
    data = encode(
        SendTournament(
            f"r{player}", TOURNAMENT, Register(player=f"p{player}", name=f"Player {player}")
        )
    )
    first = last = time.monotonic()
    attempts, ok, ack_t = 0, 0, float("nan")
    if time.monotonic() >= give_up:
        rec.problems["registration not sent before the deadline (queued for the admin)"] += 1
    while time.monotonic() < give_up:
        attempts += 1
        last = time.monotonic()
        await ws.send(data, text=True)
        reply = decode_reply(await ws.recv(decode=False))
        if reply.type == "ack":
            ok, ack_t = 1, time.monotonic()
            break
        if reply.type != "error":
            rec.problems[f"admin got {reply.type}"] += 1
            continue
        rec.refusals[f"register: {reply.code}"] += 1
        if reply.code not in REGISTER_RETRIED:
            rec.problems[f"registration refused: {reply.code}: {reply.message}"] += 1
            break
        if reply.code in ("unavailable", "rate_limited"):
            await asyncio.sleep(max(0.05, retry_after))
        elif retry_after:
            await asyncio.sleep(retry_after)
    else:
        if attempts:
            rec.problems["registration given up at the deadline (still refused)"] += 1
    rec.rg_player.append(player)
    rec.rg_due_t.append(due)
    rec.rg_first_t.append(first)
    rec.rg_last_t.append(last)
    rec.rg_ack_t.append(ack_t)
    rec.rg_attempts.append(attempts)
    rec.rg_ok.append(ok)


async def admin_worker(spec: dict[str, Any]) -> None:
    """The TD: registers ``players`` players at ``rate`` a second (Poisson or even arrivals),
    each on a free one of ``admins`` connections (one registration in flight on each; an
    arrival waits for one)."""
    secret = spec["secret"].encode()
    rec = Records()
    conns = [
        await open_station(spec["url"], secret, "admin", None, spec["deflate"])
        for _ in range(spec["admins"])
    ]
    free: asyncio.Queue[ClientConnection] = asyncio.Queue()
    for ws in conns:
        free.put_nowait(ws)
    print("ready", flush=True)
    t0 = float((await stdin_line()).split()[1])
    rng = random.Random(spec["seed"] + 7)
    rate = spec["rate"]
    poisson = spec["pacing"] == "poisson"
    give_up = t0 + DEADLINE_FACTOR * spec["players"] / rate + DEADLINE_GRACE
    await asyncio.sleep(max(0.0, t0 - time.monotonic()))
    running: set[asyncio.Task[None]] = set()

    async def one(ws: ClientConnection, player: int, due: float) -> None:
        try:
            await register(ws, player, due, rec, spec["retry_after"], give_up)
        except ConnectionClosed as exc:
            rec.problems[f"admin connection closed: {exc}"] += 1
            return
        free.put_nowait(ws)

    at = t0
    for player in range(1, spec["players"] + 1):
        at += rng.expovariate(rate) if poisson else 1.0 / rate
        delay = at - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if free.empty():
            rec.late += 1
        ws = await free.get()
        task = asyncio.ensure_future(one(ws, player, at))
        running.add(task)
        task.add_done_callback(running.discard)
    if running:
        await asyncio.wait(running)
    print(f"registered {time.monotonic()}", flush=True)
    Path(spec["out"]).write_bytes(rec.dump())
    for ws in conns:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 0.5)
    print("done", flush=True)
