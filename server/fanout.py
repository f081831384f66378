"""Fan-out: every instance follows every commit through one Redis pattern subscription and
hands each table's events to the stations watching it, in sequence order.

An instance remembers the last event number it delivered per table. A jump in the numbers (a
message lost while the subscription was down, a Redis restart) is filled from the table's log
before anything newer is delivered. A liveness probe — a message this instance publishes to
itself every couple of seconds — detects a subscription that went quiet; until it is repaired
the instance reports itself not ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import defaultdict
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import msgspec
from redis.asyncio import Redis

from protocol.wire import Events, encoder
from server import metrics
from server.store import CHANNEL_PATTERN, Published, Store, channel
from server.views import public_events

if TYPE_CHECKING:
    from server.station import Station

log = logging.getLogger("tablewire.fanout")
_published = msgspec.json.Decoder(Published)
PROBE = "__probe__"
PROBE_EVERY = 1.0
PROBE_GRACE = 5.0
CHUNK = 500


class Frame:
    """One delivery of a table's events, encoded once per view and shared by all stations."""

    def __init__(
        self, tournament: str, table: str, seq: int, events: list[bytes], at: float
    ) -> None:
        self.tournament, self.table, self.seq, self.events, self.at = (
            tournament,
            table,
            seq,
            events,
            at,
        )
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
    body: list[Any] = public_events(events) if public else [msgspec.Raw(e) for e in events]
    return encoder.encode(Events(tournament, table, seq, body))


def frames_from(tournament: str, table: str, found: list[tuple[int, bytes]]) -> Iterable[Frame]:
    for i in range(0, len(found), CHUNK):
        part = found[i : i + CHUNK]
        yield Frame(tournament, table, part[0][0], [e for _, e in part], time.time())


class Fanout:
    def __init__(self, redis: Redis, store: Store) -> None:
        self.redis = redis
        self.store = store
        self.by_table: dict[tuple[str, str], set[Station]] = defaultdict(set)
        self.by_tournament: dict[str, set[Station]] = defaultdict(set)
        self.last_seq: dict[tuple[str, str], int] = {}
        self.nonce = uuid.uuid4().hex
        self.probe_seen = 0.0
        self.subscribed = False

    @property
    def healthy(self) -> bool:
        return self.subscribed and time.monotonic() - self.probe_seen < PROBE_GRACE

    def watch(self, station: Station, tournament: str, table: str | None) -> None:
        if table is None:
            self.by_tournament[tournament].add(station)
        else:
            self.by_table[(tournament, table)].add(station)

    def forget(self, station: Station) -> None:
        for stations in (*self.by_table.values(), *self.by_tournament.values()):
            stations.discard(station)

    async def run(self) -> None:
        """Follow the commits forever, reconnecting and repairing after any failure."""
        while True:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(CHANNEL_PATTERN)
                self.subscribed = True
                self.probe_seen = time.monotonic()
                await self.repair()
                async with asyncio.TaskGroup() as group:
                    group.create_task(self._probe())
                    group.create_task(self._listen(pubsub))
            except* Exception as failure:
                log.warning("event subscription lost: %s", failure.exceptions[0])
            finally:
                self.subscribed = False
                metrics.RECONNECTS.inc()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
            await asyncio.sleep(0.2)

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
        if not pub.events:
            # A new table: tournament watchers get its snapshot.
            for station in self.by_tournament.get(pub.tournament, set()):
                station.new_table(key)
            return
        await self.accept(
            Frame(pub.tournament, pub.table, pub.seq, [bytes(e) for e in pub.events], pub.at)
        )

    async def accept(self, frame: Frame) -> None:
        """Deliver a frame in sequence order: drop what was delivered, fill a gap first.

        Frames come from the subscription, and straight from this instance's own commits (so
        its stations do not wait for the round trip through Redis); each is delivered once.
        """
        key = (frame.tournament, frame.table)
        last = self.last_seq.get(key)
        if last is not None:
            if frame.last <= last:
                return
            if frame.seq > last + 1:
                metrics.GAPS.inc()
                await self.fill(key, last)
                if frame.last <= self.last_seq.get(key, last):
                    return
        self.deliver(frame)

    async def fill(self, key: tuple[str, str], since: int) -> None:
        found = await self.store.events_since(key[0], key[1], since)
        if found is None:
            for station in self._stations(key):
                station.resync("events were missed and are no longer in the log")
            self.last_seq.pop(key, None)
            return
        for frame in frames_from(key[0], key[1], found):
            self.deliver(frame)

    async def repair(self) -> None:
        """After a reconnection, deliver what every watched table missed meanwhile."""
        for key, last in list(self.last_seq.items()):
            await self.fill(key, last)

    def _stations(self, key: tuple[str, str]) -> set[Station]:
        return self.by_table.get(key, set()) | self.by_tournament.get(key[0], set())

    def deliver(self, frame: Frame) -> None:
        key = (frame.tournament, frame.table)
        if frame.last <= self.last_seq.get(key, 0):
            return
        self.last_seq[key] = frame.last
        metrics.FANOUT_LAG.observe(max(0.0, time.time() - frame.at))
        for station in self._stations(key):
            station.offer(key, frame)
