"""The moves benchmark's tournament (``benchmarks/tournament_moves.py``; read its docstring
first): the tournament's set-up, and its client process — a dealer station (``registration``'s,
which a trial stops at a hand's end) and a display on every table, the admin, and the floor,
which confirms the balancing proposals and breaks tables one trial at a time, and times each
to the last station of the tables it touched."""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import random
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from clients.bots import DealerBot, Style
from loadgen.registration import (
    FLOOR_BASE,
    TOURNAMENT,
    Dealer,
    Ready,
    Records,
    Reply,
    ask,
    bot_config,
    decode_reply,
    drain,
    encode,
    open_station,
    pace,
    register,
    stdin_line,
    structure_spec,
)
from protocol import StartHand
from protocol.tournament import (
    BreakTable,
    ConfirmMove,
    MovePlayer,
    OpenTable,
    StartClock,
    Structure,
)
from protocol.tournament.commands import TournamentCommand
from protocol.wire import CreateTournament, Ping, SendTournament, Subscribe

TABLES, SEATS, PLAYERS = 9, 10, 73
DISPLAY_BASE = 2_000_000
"""Subscriber ids: a dealer station is its table number, a display DISPLAY_BASE + it."""
SEAT_CHANGES = (b'"player_removed"', b'"player_added"')
FAST = Style(bet=0.04, fold=0.3, raise_=0.04)
"""Short hands (many folds), so the tables of a trial reach a hand's end soon."""
HAND_WAIT, ARRIVAL_WAIT = 30.0, 10.0
"""Seconds a trial waits for its tables to finish their hands, then for every station."""


def moves_structure() -> Structure:
    return msgspec.convert({**structure_spec(SEATS), "stoppage": 0}, Structure)


async def set_up(url: str, secret: bytes) -> None:
    """The tournament, its 9 tables and the clock (the players come in the worker)."""
    async with await open_station(url, secret, "admin", None, True) as ws:
        await ask(ws, CreateTournament("t", TOURNAMENT, "Moves benchmark", moves_structure()))
        for t in range(1, TABLES + 1):
            await open_table(ws, t)
        await ask(ws, SendTournament("clock", TOURNAMENT, StartClock()))


async def open_table(ws: ClientConnection, table: int) -> None:
    command = OpenTable(table=str(table), seats=SEATS)
    await ask(ws, SendTournament(f"open{table}", TOURNAMENT, command))


# --- the worker: the tournament's stations and the floor's trials ------------------------


class Arrivals:
    """When each station read a frame with a seat change, by table: what a move is timed by."""

    def __init__(self) -> None:
        self.by_table: dict[int, list[tuple[int, float]]] = defaultdict(list)
        self.changed = asyncio.Event()

    def note(self, table: int, sub: int, at: float, events: list[msgspec.Raw]) -> None:
        if any(key in bytes(e) for e in events for key in SEAT_CHANGES):
            self.by_table[table].append((sub, at))
            self.changed.set()

    def first(self, table: int, sub: int, since: float) -> float | None:
        return next((t for s, t in self.by_table[table] if s == sub and t >= since), None)


class MovingDealer(Dealer):
    """``registration``'s dealer station, which a trial can stop before its next hand, and
    whose frames with a seat change are noted."""

    def __init__(self, *args: Any, arrivals: Arrivals, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals = arrivals
        self.paused = False
        self.broken = False

    def settle(self) -> None:
        super().settle()
        if self.paused and isinstance(self.bot.pending, StartHand):
            self.ready.discard(self)

    @property
    def idle(self) -> bool:
        """Between hands with nothing in flight: the server's table is between hands too."""
        return self.dead or (self.flight is None and self.bot.between_hands)

    def _events(self, reply: Reply, now: float) -> None:
        super()._events(reply, now)
        self.arrivals.note(self.table, self.table, now, reply.events)


class Station:
    """A subscriber that reads every frame as it comes, timed; a pong says it has caught up."""

    name = "station"

    def __init__(self, ws: ClientConnection, rec: Records) -> None:
        self.ws, self.rec = ws, rec
        self.subscribed = asyncio.Event()

    async def read(self) -> None:
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                now = time.monotonic()
                reply = decode_reply(raw)
                if reply.type == "pong":
                    self.subscribed.set()
                else:
                    self.take(reply, now)
        except (msgspec.DecodeError, ConnectionClosed) as exc:
            self.rec.problems[f"{self.name} stopped: {exc}"] += 1

    def take(self, reply: Reply, now: float) -> None:
        raise NotImplementedError


class Display(Station):
    """A display on one table: its frames timed (table commands) and its seat changes noted."""

    name = "display"

    def __init__(self, table: int, ws: ClientConnection, rec: Records, arrivals: Arrivals) -> None:
        super().__init__(ws, rec)
        self.table = table
        self.sub = DISPLAY_BASE + table
        self.arrivals = arrivals

    def take(self, reply: Reply, now: float) -> None:
        if reply.type == "events":
            timed(self.rec, self.sub, self.table, reply, now)
            self.arrivals.note(self.table, self.sub, now, reply.events)
        elif reply.type in ("resync", "error", "snapshot"):
            self.rec.problems[f"display got {reply.type}: {reply.reason or reply.message}"] += 1


def timed(rec: Records, sub: int, table: int, reply: Reply, now: float) -> None:
    """An ``events`` frame a subscriber read, as ``registration`` records them."""
    rec.fr_sub.append(sub)
    rec.fr_table.append(table)
    rec.fr_seq.append(reply.seq)
    rec.fr_count.append(len(reply.events))
    rec.fr_t.append(now)


class TEvent(msgspec.Struct):
    """A tournament event, read as far as the floor needs."""

    type: str
    proposal: int = 0
    from_table: str = ""
    table: str = ""
    kind: str = ""
    player: str | None = None
    seats: Any = None
    """``table_broken``'s: each player's [table, seat] (other events' ``seats`` differ)."""


decode_tevent = msgspec.json.Decoder(TEvent).decode


@dataclass
class Trial:
    kind: str
    """``break``, ``move`` (a balancing proposal confirmed) or ``seat`` (the floor's own move)."""
    subject: int
    """The table broken, the proposal confirmed, or the table the floor moves a player to."""
    player: str = ""
    """Who the floor moves (``seat``)."""
    waited: float = math.nan
    """Seconds its tables took to finish their hands."""
    sent: float = math.nan
    ack: float = math.nan
    floor: float = math.nan
    """When the floor read the tournament's ``table_broken`` or ``moved``."""
    touched: list[int] = field(default_factory=list)
    last: float = math.nan
    """When the last station of the touched tables read the move's frame."""
    why: str = ""
    """Empty when complete; else why it is not counted."""


class Floor(Station):
    """The floor monitor on the whole tournament: every table's frames timed, the proposals
    followed, and the moves it sends (one at a time) answered."""

    name = "floor"

    def __init__(self, ws: ClientConnection, rec: Records) -> None:
        super().__init__(ws, rec)
        self.proposals: dict[int, tuple[int, int]] = {}
        self.where: dict[str, int] = {}
        """Each player's table."""
        self.trial: Trial | None = None
        self.answer: asyncio.Future[Reply] | None = None

    def take(self, reply: Reply, now: float) -> None:
        rec = self.rec
        if reply.type == "events":
            timed(rec, FLOOR_BASE, int(reply.table or 0), reply, now)
        elif reply.type == "tournament_events":
            for e in reply.events:
                event = decode_tevent(e)
                rec.notes[f"the floor read {event.type}"] += 1
                self._take(event, now)
        elif reply.type in ("ack", "error"):
            if self.answer and not self.answer.done():
                self.answer.set_result(reply)
            else:
                rec.problems[f"floor: an answer nobody waited for: {reply.type} {reply.id}"] += 1
        elif reply.type == "snapshot":
            rec.notes["the floor read a (new) table's snapshot"] += 1
        elif reply.type == "resync":
            rec.problems[f"floor got {reply.type}: {reply.reason}"] += 1

    def _take(self, e: TEvent, now: float) -> None:
        trial = self.trial
        if e.type == "move_proposed":
            self.proposals[e.proposal] = (int(e.from_table), int(e.table))
        elif e.type == "move_dismissed":
            self.proposals.pop(e.proposal, None)
            if trial and trial.kind == "move" and trial.subject == e.proposal and not trial.touched:
                trial.why = "withdrawn by the tournament"
        elif e.type == "seated" and e.player:
            self.where[e.player] = int(e.table)
        elif e.type == "moved" and e.player:
            self.where[e.player] = int(e.table)
            if e.kind == "balance":
                self.proposals.pop(e.proposal, None)
            if trial and (
                (trial.kind == "move" and e.kind == "balance" and trial.subject == e.proposal)
                or (trial.kind == "seat" and trial.player == e.player)
            ):
                trial.floor, trial.touched = now, [int(e.from_table), int(e.table)]
        elif e.type == "table_broken" and trial and trial.kind == "break":
            tables = {int(e.table), *(int(t) for t, _ in e.seats.values())}
            trial.floor, trial.touched = now, sorted(tables)

    async def send(self, cid: str, command: TournamentCommand) -> Reply:
        self.answer = asyncio.get_running_loop().create_future()
        await self.ws.send(encode(SendTournament(cid, TOURNAMENT, command)), text=True)
        return await asyncio.wait_for(self.answer, ARRIVAL_WAIT)


class Room:
    """The worker's tournament: its stations, and the floor's trials one at a time."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = spec
        self.secret = spec["secret"].encode()
        self.rec = Records()
        self.ready = Ready()
        self.arrivals = Arrivals()
        self.config = bot_config(moves_structure())
        self.dealers: dict[int, MovingDealer] = {}
        self.tasks: list[asyncio.Task[None]] = []
        self.trials: list[Trial] = []
        self.others: list[Display] = []
        self.until = math.inf
        """When the trials stop (the pacer stops soon after: a paused table would wait)."""

    async def station(self, role: Any, table: int | None) -> ClientConnection:
        return await open_station(
            self.spec["url"], self.secret, role, None if table is None else str(table), True
        )

    async def add_table(self, table: int) -> None:
        """The table's dealer station and display, subscribed (a ping answered: caught up)."""
        loop_ = asyncio.get_running_loop()
        ws = await self.station("dealer", table)
        bot = DealerBot(self.config, self.spec["seed"] * 100_003 + table, FAST)
        d = MovingDealer(
            table, ws, bot, self.config, self.rec, self.ready, 1.0 / self.spec["table_rate"],
            arrivals=self.arrivals,
        )  # fmt: skip
        shown = Display(table, await self.station("display", table), self.rec, self.arrivals)
        self.others.append(shown)
        for reader, socket in ((d.read, ws), (shown.read, shown.ws)):
            self.tasks.append(loop_.create_task(reader()))
            await socket.send(encode(Subscribe(TOURNAMENT, str(table))), text=True)
            await socket.send(encode(Ping(1)), text=True)
        await asyncio.wait_for(asyncio.gather(d.subscribed.wait(), shown.subscribed.wait()), 60)
        self.dealers[table] = d

    def active(self) -> dict[int, int]:
        """Players at each table not broken."""
        return {t: d.players for t, d in self.dealers.items() if not d.broken}

    async def trial(self, floor: Floor, trial: Trial, tables: list[int], command: Any) -> None:
        """Stop ``tables`` at their hands' ends, send ``command``, time every station."""
        paused = [self.dealers[t] for t in tables]
        for d in paused:
            d.paused = True
            d.settle()
        started = time.monotonic()
        give_up = min(started + HAND_WAIT, self.until)
        while not all(d.idle for d in paused) and time.monotonic() < give_up:
            await asyncio.sleep(0.005)
        floor.trial = trial
        try:
            if not all(d.idle for d in paused):
                trial.why = (
                    "the run ended while its tables played"
                    if time.monotonic() >= self.until
                    else "its tables did not finish their hands"
                )
                return
            trial.waited = time.monotonic() - started
            trial.sent = time.monotonic()
            try:
                reply = await floor.send(f"{trial.kind}{len(self.trials)}", command)
            except TimeoutError:
                trial.why = f"no answer in {ARRIVAL_WAIT:g} s"
                return
            trial.ack = time.monotonic()
            if reply.type != "ack":
                trial.why = f"refused: {reply.code}: {reply.message}"
                return
            while time.monotonic() - trial.sent < ARRIVAL_WAIT and not trial.why:
                if trial.touched and (last := self._last(trial)) is not None:
                    trial.last = last
                    return
                self.arrivals.changed.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.arrivals.changed.wait(), 0.05)
            trial.why = trial.why or "a station did not get the move's events"
        finally:
            floor.trial = None
            self.trials.append(trial)
            for d in paused:
                d.paused = False
                d.settle()

    async def seat(self, floor: Floor, table: int, seat: int) -> None:
        """The floor moves a player of the fullest table to ``table``/``seat``."""
        counts = self.active()
        src = max((t for t in counts if t != table), key=lambda t: counts[t])
        who = next(p for p, t in floor.where.items() if t == src)
        command = MovePlayer(player=who, table=str(table), seat=seat)
        await self.trial(floor, Trial("seat", table, player=who), [src, table], command)

    def _last(self, trial: Trial) -> float | None:
        found = [
            self.arrivals.first(t, sub, trial.sent)
            for t in trial.touched
            for sub in (t, DISPLAY_BASE + t)
        ]
        return None if None in found else max(t for t in found if t is not None)

    async def floor_work(self, floor: Floor, admin: ClientConnection, until: float) -> None:
        """Confirm every proposal; break the table of 9 once the 9 tables are balanced, then
        open a new one and seat its first two players (``move``); until ``until`` or the
        breaks asked for.

        The floor seats the first two itself because the tournament proposes a move to a table
        that has not dealt yet one at a time, and none to one with a single player on its
        button seat (``server/tournament/positions.py`` ``worst_seat``: before the first hand,
        every seat from the button to the small blind is dropped, and with one player the small
        blind is the button's own seat, so that is all of them)."""
        breaks, table = 0, TABLES
        self.until = until
        while time.monotonic() < until and breaks < self.spec["breaks"]:
            counts = self.active()
            if floor.proposals:
                number = min(floor.proposals)
                src, dst = floor.proposals[number]
                await self.trial(
                    floor, Trial("move", number), [src, dst], ConfirmMove(proposal=number)
                )
            elif (
                len(counts) == TABLES
                and max(counts.values()) - min(counts.values()) <= 1
                and (nine := [t for t, n in counts.items() if n == SEATS - 1])
            ):
                command = BreakTable(table=str(nine[0]), shuffle=0, deal=0)
                await self.trial(floor, Trial("break", nine[0]), list(counts), command)
                if self.trials[-1].why:
                    continue
                breaks += 1
                self.dealers[nine[0]].broken = True
                table += 1
                await open_table(admin, table)
                await self.add_table(table)
                for seat in (1, 2):
                    await self.seat(floor, table, seat)
            else:
                await asyncio.sleep(0.05)


async def moves_worker(spec: dict[str, Any]) -> None:
    room = Room(spec)
    loop_ = asyncio.get_running_loop()
    admin = await room.station("admin", None)
    floor = Floor(await room.station("floor", None), room.rec)
    room.tasks.append(loop_.create_task(floor.read()))
    await floor.ws.send(encode(Subscribe(TOURNAMENT)), text=True)
    await floor.ws.send(encode(Ping(1)), text=True)
    await asyncio.wait_for(floor.subscribed.wait(), 60)
    for t in range(1, TABLES + 1):
        await room.add_table(t)
    for player in range(1, spec["players"] + 1):
        await register(admin, player, time.monotonic(), room.rec, 0.0, time.monotonic() + 60)
    await asyncio.sleep(1.0)  # every dealer station has read its players
    print("ready", flush=True)
    t0 = float((await stdin_line()).split()[1])
    await asyncio.sleep(max(0.0, t0 - time.monotonic()))
    end = t0 + spec["seconds"]
    rng = random.Random(spec["seed"])
    pacer = loop_.create_task(pace(room.ready, room.rec, rng, spec["rate"], t0, [end]))
    await room.floor_work(floor, admin, end - ARRIVAL_WAIT / 2)
    await pacer
    await drain(list(room.dealers.values()), room.rec, spec["drain"], spec["max_drain"])
    Path(spec["out"]).write_bytes(room.rec.dump())
    Path(spec["trials"]).write_text(json.dumps([asdict(t) for t in room.trials]))
    for task in room.tasks:
        task.cancel()
    sockets = [
        admin,
        floor.ws,
        *(d.ws for d in room.dealers.values()),
        *(s.ws for s in room.others),
    ]
    for ws in sockets:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 0.5)
    print("done", flush=True)
