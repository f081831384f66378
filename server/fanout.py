"""Fan-out: an instance follows the commits of the tournaments its stations watch and hands
each table's events to the stations watching it, in sequence order.

On Redis 7 and later the commits are published by sharded pub/sub and this instance subscribes
to a tournament's channel while one of its stations watches that tournament
(``server.shard_channels``); on an older Redis (the embedded one) every commit of every
tournament comes through one pattern subscription, as before.

The fan-out knows its stations only as :class:`Subscriber`: something that is offered frames,
told of new tables and told to resync. A delayed display (a token's ``delay``) is not sent a
frame by itself: frames for each delay go through one :class:`DelayLine` shared by every
station with that delay, and come out when the delay has passed since their commit.

A tournament's own log travels the same way, as the "table" ``TOURNAMENT_LOG``: its frames go
to the stations watching the whole tournament, as ``tournament_events``. A commit that changed
the tournament's clock carries its view; every station of that tournament, one-table stations
included, is sent the ``clock`` with the server's time.

An instance remembers the last event number it delivered per table of a watched tournament. A
jump in the numbers (a message lost while the subscription was down, a Redis restart) is filled
from the table's log before anything newer is delivered. When a tournament's sharded
subscription is confirmed, the last event of each watched log is read and offered, so what was
committed before the subscription was live reaches the stations too. A liveness probe — a
message this instance publishes to itself every second, or on sharded subscriptions a ping on
each connection — detects a subscription that went quiet; until it is repaired the instance
reports itself not ready.

Every index is kept both ways, so a station that subscribes, unsubscribes or leaves costs what
it watches, and a tournament's clock what that tournament's stations are: nothing here walks
every table or every station.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import defaultdict, deque
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

import msgspec

from protocol.tournament.tables import STAFF_ONLY
from protocol.tournament.views import ClockView
from protocol.wire import Clock, Events, TournamentEvents, encoder
from server import metrics
from server.keys import CHANNEL_PATTERN, TOURNAMENT_LOG, Published, channel, log_key, tables_key
from server.redis_connect import RedisClient, server_version
from server.shard_channels import ShardChannels
from server.store import Store
from server.tables import Applied
from server.views import public_events

log = logging.getLogger("tablewire.fanout")
_published = msgspec.json.Decoder(Published)
_clock = msgspec.json.Decoder(ClockView)
PROBE = "__probe__"
PROBE_EVERY = 1.0
PROBE_GRACE = 5.0
CHUNK = 500
SHARDED_SINCE = (7,)
"""The Redis version whose commit scripts publish with SPUBLISH (``server.store``)."""


class Frame:
    """One delivery of a table's events, encoded once per view and shared by all stations."""

    def __init__(
        self,
        tournament: str,
        table: str,
        seq: int,
        events: list[bytes],
        at: float,
        clock: bytes | None = None,
    ) -> None:
        self.tournament, self.table, self.seq, self.events, self.at = (
            tournament,
            table,
            seq,
            events,
            at,
        )
        self.clock = clock
        """The tournament's clock view (JSON) when this commit changed it."""
        self._full: bytes | None = None
        self._public: bytes | None = None

    @property
    def last(self) -> int:
        return self.seq + len(self.events) - 1

    def encoded(self, public: bool, start: int | None = None) -> bytes:
        """The ``events`` message; ``start`` drops the events before that number."""
        if start is not None and start > self.seq:
            events = self.events[start - self.seq :]
            return _events_message(self.tournament, self.table, start, events, public)
        if public:
            if self._public is None:
                self._public = _events_message(
                    self.tournament, self.table, self.seq, self.events, True
                )
            return self._public
        if self._full is None:
            self._full = _events_message(self.tournament, self.table, self.seq, self.events, False)
        return self._full


def _events_message(
    tournament: str, table: str, seq: int, events: list[bytes], public: bool
) -> bytes:
    if table == TOURNAMENT_LOG:
        # The room sees the tournament, but not the order in which tables break (12-C): a
        # display gets a ``withheld`` placeholder in its place, so the numbering still holds.
        shown = [_withheld(e) if public else msgspec.Raw(e) for e in events]
        return encoder.encode(TournamentEvents(tournament, seq, shown))
    body: list[Any] = public_events(events) if public else [msgspec.Raw(e) for e in events]
    return encoder.encode(Events(tournament, table, seq, body))


class _Tag(msgspec.Struct):
    type: str = ""


_tag = msgspec.json.Decoder(_Tag)
WITHHELD = msgspec.Raw(b'{"type":"withheld"}')


def _withheld(event: bytes) -> msgspec.Raw:
    return WITHHELD if _tag.decode(event).type in STAFF_ONLY else msgspec.Raw(event)


def committed_frames(tournament: str, table: str, applied: Applied) -> list[Frame]:
    """The frames a command's commit made: the table's, then the other logs of its step."""
    frames: list[Frame] = []
    if applied.events:
        first = applied.seq - len(applied.events) + 1
        frames.append(Frame(tournament, table, first, applied.events, applied.at))
    for logged in applied.more:
        frames.append(
            Frame(tournament, logged.table, logged.seq, logged.events, logged.at, logged.clock)
        )
    return frames


def frames_from(tournament: str, table: str, found: list[tuple[int, bytes]]) -> Iterable[Frame]:
    for i in range(0, len(found), CHUNK):
        part = found[i : i + CHUNK]
        yield Frame(tournament, table, part[0][0], [e for _, e in part], time.time())


Key = tuple[str, str]
"""(tournament, table)"""


class Subscriber(Protocol):
    """What the fan-out needs of a station."""

    @property
    def delay(self) -> float:
        """Seconds its frames are held back after their commit (0: live)."""

    def offer(self, key: Key, frame: Frame) -> None:
        """A table's frame, in sequence order."""

    def new_table(self, key: Key) -> None:
        """A table was created in a tournament it watches."""

    def resync(self, reason: str) -> None:
        """Events it is owed are lost: it must start again from a snapshot."""

    def clock(self, message: bytes) -> None:
        """The tournament's ``clock`` changed (sent at once, whatever the delay)."""


class DelayLine:
    """Frames held back ``delay`` seconds after their commit, once for all the stations with
    that delay; a display's delay costs the server the frames of ``delay`` seconds, whatever
    the number of displays."""

    def __init__(self, delay: float, release: Callable[[float, Frame], None]) -> None:
        self.delay = delay
        self.release = release
        self.held: deque[Frame] = deque()
        self.task: asyncio.Task[None] | None = None

    def put(self, frame: Frame) -> None:
        self.held.append(frame)
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            while self.held:
                due = self.held[0].at + self.delay
                await asyncio.sleep(max(0.0, due - time.time()))
                now = time.time()
                while self.held and self.held[0].at + self.delay <= now:
                    self.release(self.delay, self.held.popleft())
        finally:
            self.task = None

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
        self.held.clear()


class Fanout:
    def __init__(self, redis: RedisClient, store: Store, url: str = "") -> None:
        self.redis = redis
        self.store = store
        self.channels = ShardChannels(redis, url, self.handle, self.joined)
        """The tournaments this instance's stations watch, subscribed on Redis 7."""
        self.sharded = False
        """Events come by sharded pub/sub (Redis 7), not the pattern subscription."""
        self.clock_of: Callable[[str], Awaitable[bytes | None]] | None = None
        """The ``clock`` message of a tournament, sent when its subscription is confirmed."""
        self.by_table: dict[Key, set[Subscriber]] = defaultdict(set)
        self.by_tournament: dict[str, set[Subscriber]] = defaultdict(set)
        self.watched: dict[Subscriber, set[Key | str]] = defaultdict(set)
        """What each station watches, so a station that leaves is forgotten at once."""
        self.watched_tables: dict[str, set[Key]] = defaultdict(set)
        """The tables of each tournament that someone watches (its clock goes to them)."""
        self.lines: dict[float, DelayLine] = {}
        self.delayed: dict[float, int] = defaultdict(int)
        """Subscribers per delay: a delay line lives while a subscriber uses it."""
        self.last_seq: dict[Key, int] = {}
        self.delivered: dict[str, set[Key]] = defaultdict(set)
        """The keys of ``last_seq`` by tournament, forgotten with the tournament."""
        self.nonce = uuid.uuid4().hex
        self.probe_seen = 0.0
        self.subscribed = False
        self.last_frame_at = 0.0
        """When a frame was last delivered (``time.monotonic``): whether stations are being
        sent anything (``server.collector``)."""

    @property
    def healthy(self) -> bool:
        seen = self.channels.answered() if self.sharded else self.probe_seen
        return self.subscribed and time.monotonic() - seen < PROBE_GRACE

    def watches(self, tournament: str) -> bool:
        """Some station of this instance watches the tournament or one of its tables."""
        return tournament in self.by_tournament or tournament in self.watched_tables

    def watch(self, station: Subscriber, tournament: str, table: str | None) -> None:
        if not self.watched[station] and station.delay:
            self.delayed[station.delay] += 1
        if not self.watches(tournament):
            self.channels.want(tournament)
        if table is None:
            self.by_tournament[tournament].add(station)
            self.watched[station].add(tournament)
        else:
            self.by_table[(tournament, table)].add(station)
            self.watched[station].add((tournament, table))
            self.watched_tables[tournament].add((tournament, table))

    def unwatch(self, station: Subscriber, tournament: str, table: str | None) -> None:
        """Stop one subscription of the station; the others stay."""
        what: Key | str = tournament if table is None else (tournament, table)
        watched = self.watched.get(station)
        if watched is None or what not in watched:
            return
        watched.discard(what)
        self._drop(what, station)
        if not watched:
            del self.watched[station]
            if station.delay:
                self._line_left(station.delay)

    def forget(self, station: Subscriber) -> None:
        watched = self.watched.pop(station, set())
        for what in watched:
            self._drop(what, station)
        if watched and station.delay:
            self._line_left(station.delay)

    def _drop(self, what: Key | str, station: Subscriber) -> None:
        """``station`` no longer watches ``what``; an index left empty goes."""
        if isinstance(what, str):
            _discard(self.by_tournament, what, station)
        elif _discard(self.by_table, what, station):
            _discard(self.watched_tables, what[0], what)
        tournament = what if isinstance(what, str) else what[0]
        if not self.watches(tournament):
            self._unwatched(tournament)

    def _unwatched(self, tournament: str) -> None:
        """No station here watches the tournament any more: its channel and numbers go."""
        self.channels.drop(tournament)
        for key in self.delivered.pop(tournament, ()):
            self.last_seq.pop(key, None)

    def _line_left(self, delay: float) -> None:
        self.delayed[delay] -= 1
        if self.delayed[delay] <= 0:
            del self.delayed[delay]
            line = self.lines.pop(delay, None)
            if line is not None:
                line.stop()

    async def run(self) -> None:
        """Follow the commits forever, reconnecting and repairing after any failure."""
        while True:
            try:
                self.sharded = await server_version(self.redis) >= SHARDED_SINCE
                if self.sharded:
                    self.subscribed = True
                    await self.channels.run()
                else:
                    await self._follow_pattern()
            except* Exception as failure:
                log.warning("event subscription lost: %s", failure.exceptions[0])
            finally:
                self.subscribed = False
                metrics.RECONNECTS.inc()
            await asyncio.sleep(0.2)

    async def _follow_pattern(self) -> None:
        """Every commit of every tournament, through one pattern subscription (Redis < 7)."""
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        try:
            await pubsub.psubscribe(CHANNEL_PATTERN)
            self.subscribed = True
            self.probe_seen = time.monotonic()
            await self.repair()
            async with asyncio.TaskGroup() as group:
                group.create_task(self._probe())
                group.create_task(self._listen(pubsub))
        finally:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]

    async def joined(self, tournament: str) -> None:
        """The tournament's sharded subscription is live: offer the last event of each
        watched log (a station behind it catches up, one that has it drops it), tell the
        tournament's watchers of tables made before, and send its clock."""
        keys = sorted(
            self.watched_tables.get(tournament, set()) | self.delivered.get(tournament, set())
        )
        watchers = list(self.by_tournament.get(tournament, ()))
        async with self.redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.xrevrange(log_key(*key), count=1)
            if watchers:
                pipe.smembers(tables_key(tournament))
            found = await pipe.execute()
        for key, entries in zip(keys, found, strict=False):
            if entries:
                entry_id, fields = entries[0]
                last = [(int(entry_id.split(b"-")[0]), fields[b"e"])]
                for frame in frames_from(tournament, key[1], last):
                    await self.accept(frame)
        if watchers:
            tables = sorted(t.decode() for t in found[-1])
            for station in watchers:
                seen = self.watched.get(station, set())
                for table in tables:
                    if (tournament, table) not in seen:
                        station.new_table((tournament, table))
        clock = await self.clock_of(tournament) if self.clock_of is not None else None
        if clock is not None:
            for station in self._tournament_stations(tournament):
                station.clock(clock)

    async def _listen(self, pubsub: Any) -> None:
        async for message in pubsub.listen():
            if message.get("type") == "pmessage":
                await self.handle(message["data"])

    async def _probe(self) -> None:
        probe = channel(PROBE)
        while True:
            await self.redis.publish(
                probe, encoder.encode(Published(PROBE, self.nonce, 0, time.time(), []))
            )
            await asyncio.sleep(PROBE_EVERY)
            if time.monotonic() - self.probe_seen > PROBE_GRACE:
                raise ConnectionError("the liveness probe did not come back")

    async def handle(self, data: bytes) -> None:
        pub = _published.decode(data)
        if pub.tournament == PROBE:
            if pub.table == self.nonce:
                self.probe_seen = time.monotonic()
            return
        key = (pub.tournament, pub.table)
        if self.sharded and not self.watches(pub.tournament):
            return  # unsubscribed since it was sent
        if not pub.events:
            # A new table: tournament watchers get its snapshot.
            for station in self.by_tournament.get(pub.tournament, set()):
                station.new_table(key)
            return
        last = self.last_seq.get(key)
        if last is not None and pub.seq + len(pub.events) - 1 <= last:
            return  # delivered already (this instance's own commit, at once)
        clock = encoder.encode(pub.clock) if pub.clock is not None else None
        await self.accept(
            Frame(pub.tournament, pub.table, pub.seq, [bytes(e) for e in pub.events], pub.at, clock)
        )

    async def accept(self, frame: Frame) -> None:
        """Deliver a frame in sequence order: drop what was delivered, fill a gap first.

        Frames come from the subscription, and straight from this instance's own commits (so
        its stations do not wait for the round trip through Redis); each is delivered once.
        """
        key = (frame.tournament, frame.table)
        if self.sharded and not self.watches(frame.tournament):
            return  # nobody here to deliver to, and no subscription to keep numbers by
        last = self.last_seq.get(key)
        if last is not None:
            if frame.last <= last:
                return
            if frame.seq > last + 1:
                metrics.GAPS.inc()
                await self.fill(key, last, frame.seq - 1)
                if frame.last <= self.last_seq.get(key, last):
                    return
        self.deliver(frame)

    async def fill(self, key: Key, since: int, until: int | None = None) -> None:
        """Deliver the events after ``since`` from the log: up to ``until`` (the gap before a
        frame: a commit after it may still be waiting for its replicas), else all."""
        found = await self.store.events_since(key[0], key[1], since, until)
        if found is None:
            for station in self._stations(key):
                station.resync("events were missed and are no longer in the log")
            self.last_seq.pop(key, None)
            self.delivered[key[0]].discard(key)
            return
        for frame in frames_from(key[0], key[1], found):
            self.deliver(frame)

    async def repair(self) -> None:
        """After a reconnection, deliver what every watched table missed meanwhile."""
        for key, last in list(self.last_seq.items()):
            await self.fill(key, last)

    def _stations(self, key: Key) -> set[Subscriber]:
        return self.by_table.get(key, set()) | self.by_tournament.get(key[0], set())

    def deliver(self, frame: Frame) -> None:
        key = (frame.tournament, frame.table)
        if frame.last <= self.last_seq.get(key, 0):
            return
        if key not in self.last_seq:
            self.delivered[frame.tournament].add(key)
        self.last_seq[key] = frame.last
        self.last_frame_at = time.monotonic()
        metrics.FANOUT_LAG.observe(max(0.0, time.time() - frame.at))
        if frame.clock is not None:
            self._clock(frame.tournament, frame.clock)
        for station in self._stations(key):
            if not station.delay:
                station.offer(key, frame)
        for delay in self.delayed:
            line = self.lines.get(delay)
            if line is None:
                line = self.lines[delay] = DelayLine(delay, self._released)
            line.put(frame)

    def _clock(self, tournament: str, view: bytes) -> None:
        """Every station of the tournament gets the clock, stamped with the time now."""
        now = int(time.time() * 1000)
        message = encoder.encode(Clock(msgspec.structs.replace(_clock.decode(view), now=now)))
        for station in self._tournament_stations(tournament):
            station.clock(message)

    def _tournament_stations(self, tournament: str) -> set[Subscriber]:
        """The stations watching the tournament or any of its tables."""
        stations = set(self.by_tournament.get(tournament, set()))
        for key in self.watched_tables.get(tournament, set()):
            stations |= self.by_table[key]
        return stations

    def _released(self, delay: float, frame: Frame) -> None:
        key = (frame.tournament, frame.table)
        for station in self._stations(key):
            if station.delay == delay:
                station.offer(key, frame)


def _discard(index: dict[Any, set[Any]], what: Any, member: Any) -> bool:
    """Take ``member`` out of ``index[what]``; True when that left it empty (and gone)."""
    members = index.get(what)
    if members is None:
        return False
    members.discard(member)
    if members:
        return False
    del index[what]
    return True
