"""What one station follows, and catching it up: paged, replaceable, bounded.

Catching a station up is paged: the log is read ``PAGE`` events at a time, and the next page
only once the station has taken the last one, so a station that asks for a long history again
and again (or never reads) costs one page and its outbox, no more. A subscription replaces the
same one still catching up. A history longer than ``REPLAY_MAX`` events, or a ``since`` that the
table has not reached, is answered with a snapshot. Live frames that arrive during a catch-up
wait for it, up to ``HOLD_BYTES``; past that they are dropped and read from the log instead.
A delayed display reads the log as of ``now - delay`` (:class:`server.fanout.DelayLine`).

A tournament that has a structure has its own log, followed as the "table" ``TOURNAMENT_LOG``
by stations watching the whole tournament (from ``tournament_since``, or a
``tournament_snapshot``); every station of such a tournament is sent its ``clock``.

:class:`Following` is what the fan-out knows of a station (its ``Subscriber``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol

from protocol.wire import Subscribe, Unsubscribe
from server import metrics
from server.fanout import Fanout, Frame, frames_from
from server.keys import TOURNAMENT_LOG
from server.store import Store
from server.tables import Tables
from server.views import snapshot_message

log = logging.getLogger("tablewire.station")
PAGE = 200
"""Events read from the log at a time when catching a station up."""
REPLAY_MAX = int(os.environ.get("TABLEWIRE_REPLAY_MAX", "5000"))
"""A station further behind than this many events gets a snapshot instead."""
HOLD_BYTES = 1024 * 1024
"""Live frames held for a station while it catches up; past that they are read from the log."""
Key = tuple[str, str]


class TournamentViews(Protocol):
    """What a station's subscriptions need of the tournaments (``server.tournaments``)."""

    async def structured(self, tournament: str) -> bool: ...

    async def clock_message(self, tournament_id: str) -> bytes | None: ...

    async def snapshot_message(
        self, tournament_id: str, public: bool = True
    ) -> tuple[int, bytes] | None: ...


@dataclass
class _CatchUp:
    """A table being caught up, and the live frames that wait for it."""

    task: asyncio.Task[None] | None = None
    held: list[Frame] = field(default_factory=list)
    held_bytes: int = 0
    dropped: bool = False


class Following:
    """The subscriptions of one station and what it was last sent of each table."""

    def __init__(
        self,
        tables: Tables,
        fanout: Fanout,
        store: Store,
        send: Callable[[bytes], None],
        refusal: Callable[[str, str], bytes],
        resync: Callable[[str], None],
        below: Callable[[int], Awaitable[None]],
        closed: Callable[[], bool],
        public: bool,
        delay: float,
        tournaments: TournamentViews,
    ) -> None:
        self.tables, self.fanout, self.store = tables, fanout, store
        self.tournaments = tournaments
        self.send, self.refusal, self.resync, self.below, self.closed = (
            send,
            refusal,
            resync,
            below,
            closed,
        )
        self.public = public
        self.delay = delay
        self.last_sent: dict[Key, int] = {}
        self.catching_up: dict[Key, _CatchUp] = {}
        self.tasks: dict[tuple[str, str | None], asyncio.Task[None]] = {}
        """The task serving each subscription, replaced by the same subscription again."""

    def stop(self) -> None:
        """The station is gone: every catch-up stops and the fan-out forgets it."""
        for task in self.tasks.values():
            task.cancel()
        for waiting in self.catching_up.values():
            if waiting.task is not None:
                waiting.task.cancel()
                # A cancelled task keeps its CancelledError, whose traceback holds the
                # catch-up's frame, which holds this hold: let go of the task, or the two
                # stay in a cycle only the collector frees.
                waiting.task = None
        self.tasks.clear()
        self.catching_up.clear()
        self.fanout.forget(self)

    def clock(self, message: bytes) -> None:
        if not self.closed():
            self.send(message)

    def new_table(self, key: Key) -> None:
        """A table was created in a watched tournament: send its snapshot."""
        if key not in self.last_sent and not self.closed():
            self._start_catch_up(key, -1)

    def offer(self, key: Key, frame: Frame) -> None:
        """A live frame from the fan-out."""
        waiting = self.catching_up.get(key)
        if waiting is not None:
            if waiting.dropped:
                return
            size = sum(len(e) for e in frame.events)
            if waiting.held_bytes + size > HOLD_BYTES:
                waiting.held, waiting.held_bytes, waiting.dropped = [], 0, True
                return
            waiting.held.append(frame)
            waiting.held_bytes += size
            return
        if key in self.last_sent and frame.seq > self.last_sent[key] + 1:
            # Frames in between never came this way (a delay line started late): read them.
            self._start_catch_up(key, self.last_sent[key], [frame])
            return
        self._deliver(key, frame)

    def _deliver(self, key: Key, frame: Frame) -> None:
        last = self.last_sent.get(key, 0)
        if frame.last <= last and key in self.last_sent:
            return
        start = last + 1 if key in self.last_sent and frame.seq <= last else None
        self.last_sent[key] = frame.last
        self.send(frame.encoded(self.public, start))

    async def subscribe(self, message: Subscribe) -> None:
        """Follow a table or a tournament (the station checked its scope).

        What the subscription covers is settled before the next frame is read — an unknown
        table is answered in the order of the frames, and an unsubscribe sent right after it
        finds it; the catch-ups then run on their own."""
        metrics.CATCH_UPS.inc()
        scope = (message.tournament, message.table)
        previous = self.tasks.pop(scope, None)
        if previous is not None:
            previous.cancel()
        try:
            tables = await self._tables(message)
            clock = await self.tournaments.clock_message(message.tournament) if tables else None
        except Exception:
            # Redis is down or failed half-way: the station reconnects and subscribes again.
            log.warning("subscription failed", exc_info=True)
            self.resync("the subscription could not be served; subscribe again")
            return
        if tables is None:
            self.send(self.refusal("unknown_table", f"there is no table {message.table}"))
            return
        # Every table holds its live frames from now on, before the first catch-up awaits,
        # so none is delivered ahead of the events that come before it.
        keys = [(message.tournament, table) for table in tables]
        for key in keys:
            self._hold(key)
            self.fanout.watch(self, *key)
        self.fanout.watch(self, message.tournament, message.table)
        if clock is not None:
            self.send(clock)
        pending = list(zip(keys, tables.values(), strict=True))
        task = asyncio.get_running_loop().create_task(self._follow(pending))
        self.tasks[scope] = task
        task.add_done_callback(lambda done: self._followed(scope, done))

    async def _tables(self, message: Subscribe) -> dict[str, int] | None:
        """The tables a subscription covers and where each starts (-1: a snapshot); None
        when it names a table that does not exist."""
        if message.table is not None:
            if await self.store.load(message.tournament, message.table) is None:
                return None
            return {message.table: -1 if message.snapshot else message.since}
        first = -1 if message.snapshot else 0
        names = await self.store.tables(message.tournament)
        covered = {t: message.tables_since.get(t, first) for t in names}
        if await self.tournaments.structured(message.tournament):
            covered = {TOURNAMENT_LOG: message.tournament_since, **covered}
        return covered

    def _followed(self, scope: tuple[str, str | None], task: asyncio.Task[None]) -> None:
        if self.tasks.get(scope) is task:
            del self.tasks[scope]
        self._caught_up(task)

    def unsubscribe(self, message: Unsubscribe) -> None:
        """Stop following one table (or one tournament); every other subscription stays."""
        fanout = self.fanout
        task = self.tasks.pop((message.tournament, message.table), None)
        if task is not None:
            task.cancel()
        fanout.unwatch(self, message.tournament, message.table)
        still = fanout.watched.get(self, set())
        for key in [k for k in self.last_sent.keys() | self.catching_up.keys()]:
            if key[0] != message.tournament or key in still:
                continue
            if message.table is not None and key[1] != message.table:
                continue
            self.last_sent.pop(key, None)
            waiting = self.catching_up.pop(key, None)
            if waiting is not None and waiting.task is not None:
                waiting.task.cancel()

    async def _follow(self, pending: list[tuple[Key, int]]) -> None:
        """Catch the tables up one after the other; those with nothing after ``since`` go
        live at once, found in one read of every table's last number."""
        try:
            if len(pending) > 1:
                pending = await self._current(pending)
            while pending:
                key, since = pending[0]
                task = self._start_catch_up(key, since)
                pending.pop(0)
                await asyncio.shield(task)
        finally:
            # Replaced or stopped half-way: the tables not begun yet still catch up, alone.
            for key, since in pending:
                self._start_catch_up(key, since)

    async def _current(self, pending: list[tuple[Key, int]]) -> list[tuple[Key, int]]:
        """Go live on every table whose last number is ``since``; the others, to catch up.

        The tables' live frames are held from before this read, so a commit after it arrives
        as a held frame, and one before it shows in the number (and the table is read)."""
        tournament = pending[0][0][0]
        holds = [self.catching_up.get(key) for key, _ in pending]
        lasts = await self.store.last_numbers(tournament, [key[1] for key, _ in pending])
        behind = []
        for (key, since), last, held in zip(pending, lasts, holds, strict=True):
            if last != since or not self._live_from(key, since, held):
                behind.append((key, since))
        return behind

    def _live_from(self, key: Key, since: int, waiting: _CatchUp | None) -> bool:
        """Deliver what ``waiting`` held for ``key`` after ``since`` and go live, when it
        joins up and is still this table's hold (a later subscription may have replaced it
        while the numbers were read: see ``_still``)."""
        if waiting is None or self.catching_up.get(key) is not waiting:
            return False
        if waiting.task is not None:
            return False
        held = _joining(waiting, since)
        if held is None:
            return False
        del self.catching_up[key]
        self.last_sent[key] = since
        for frame in held:
            self._deliver(key, frame)
        return True

    def _hold(self, key: Key) -> _CatchUp:
        """Hold ``key``'s live frames for a catch-up; a catch-up still running for it stops."""
        old = self.catching_up.pop(key, None)
        if old is not None and old.task is not None:
            old.task.cancel()
        self.last_sent.pop(key, None)
        waiting = self.catching_up[key] = _CatchUp()
        return waiting

    def _start_catch_up(
        self, key: Key, since: int, held: list[Frame] | None = None
    ) -> asyncio.Task[None]:
        waiting = self.catching_up.get(key)
        if waiting is None or waiting.task is not None:
            waiting = self._hold(key)
            if since >= 0:
                self.last_sent[key] = since
        waiting.held.extend(held or ())
        task = asyncio.get_running_loop().create_task(self._catch_up(key, since, waiting))
        waiting.task = task
        task.add_done_callback(self._caught_up)
        return task

    def _caught_up(self, task: asyncio.Task[None]) -> None:
        if task.cancelled() or task.exception() is None:
            return
        log.warning("catch-up failed", exc_info=task.exception())
        self.resync("the subscription could not be served; subscribe again")

    async def _catch_up(self, key: Key, since: int, waiting: _CatchUp) -> None:
        """Bring ``key`` up to date from number ``since`` (-1: from a snapshot), page by page,
        then deliver the live frames held meanwhile and go live."""
        while not self.closed():
            before = since
            since = await self._pages(key, since, waiting)
            if since < 0:
                break  # the table is gone
            held = _joining(waiting, since)
            if held is None:
                # Live frames were dropped, or do not join up yet: read on from the log.
                waiting.held = [f for f in waiting.held if f.last > since]
                waiting.held_bytes, waiting.dropped = 0, False
                if since == before:
                    await asyncio.sleep(0.2)  # the log has nothing visible yet (a delay)
                continue
            for frame in held:
                self._deliver(key, frame)
            break
        if self.catching_up.get(key) is waiting:
            del self.catching_up[key]

    def _still(self, key: Key, waiting: _CatchUp) -> None:
        """Stop a catch-up another one replaced while it waited for Redis.

        Cancelling it is not enough: the Redis client may finish the call it was cancelled
        in and return normally (seen with redis-py 8.1 under load), and a replaced catch-up
        that goes on sends the frames of an older subscription and moves ``last_sent`` past
        what the new one must send (a floor monitor's history after a reload never came)."""
        if self.catching_up.get(key) is not waiting:
            raise asyncio.CancelledError

    async def _pages(self, key: Key, since: int, waiting: _CatchUp) -> int:
        """Send the log after ``since`` as far as this station may see it now; the number of
        the last event sent (-1 when the table does not exist)."""
        store = self.store
        while not self.closed():
            found = await store.page(key[0], key[1], since, PAGE) if since >= 0 else None
            self._still(key, waiting)
            if found is not None and (since > found[1] or found[1] - since > REPLAY_MAX):
                found = None  # ahead of the table (another Redis), or too far behind
            if found is None:
                since = await self._snapshot(key, waiting)
                if since < 0:
                    return -1
                continue
            entries = found[0]
            cutoff = time.time() - self.delay
            visible = [e for e in entries if not self.delay or e.at <= cutoff]
            self.last_sent.setdefault(key, since)
            if visible:
                for frame in frames_from(key[0], key[1], [(e.seq, e.event) for e in visible]):
                    self._deliver(key, frame)
                since = visible[-1].seq
                await self.below(HOLD_BYTES)
                self._still(key, waiting)
            if len(visible) < PAGE:
                return since
        return since

    async def _snapshot(self, key: Key, waiting: _CatchUp) -> int:
        """Send the table as it is now; a delayed display gets it once the delay has passed
        since its last event."""
        if key[1] == TOURNAMENT_LOG:
            view = await self.tournaments.snapshot_message(key[0], self.public)
            self._still(key, waiting)
            if view is None:
                return -1
            self.send(view[1])
            self.last_sent[key] = view[0]
            return view[0]
        cached = await self.tables.state(*key)
        self._still(key, waiting)
        if cached is None:
            return -1
        if self.delay and cached.seq > 0:
            found = await self.store.page(key[0], key[1], cached.seq - 1, 1)
            if found and found[0]:
                await asyncio.sleep(max(0.0, found[0][0].at + self.delay - time.time()))
            self._still(key, waiting)
        self.send(snapshot_message(key[0], key[1], cached.seq, cached.state, self.public))
        self.last_sent[key] = cached.seq
        return cached.seq


def _joining(waiting: _CatchUp, since: int) -> list[Frame] | None:
    """The live frames held after ``since``, when they follow on from it with none dropped;
    None when the log must be read on first."""
    held = [f for f in waiting.held if f.last > since]
    if waiting.dropped or (held and held[0].seq > since + 1):
        return None
    return held
