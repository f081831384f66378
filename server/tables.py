"""Applying a command to a table: one engine call, one atomic commit, retried on a race.

Each server instance keeps the tables it has touched in memory with their sequence numbers.
The engine computes the new state and events; the store commits them only if nobody else has
written the table since. If another instance got there first, the table is reloaded and the
command applied again to the fresh state.

A commit that Redis did not answer (a timeout, a lost connection) may still have run: its
outcome is unknown, and the station is told so (``unknown_outcome``) rather than given an error,
which would say that nothing changed. Sending the same command id again learns the outcome. The
commit is never tried again here with another snapshot.

After each commit the table's running clock deadline (rule 31) is kept in the tournament's
deadlines, in the same script, so the service's timers (``server.timers``) rule on it.

A table of a tournament that has a structure belongs to it (:mod:`server.tournaments`, the
``hook``): seats, levels and chips come from the tournament, so those commands are refused
here; a ``start_hand`` is refused in the commit script while the tournament holds new hands (a
break, the clock not started); and a command that ends a hand is committed by the tournament,
with what the hand end does to it, in one step. Where its structure has a shot clock (RP-28),
every new prompt starts the seat's clock in the same commit: the service's timers rule on it
like a clock the floor called (31).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Protocol

import msgspec
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from protocol import Clock, Command, ErrorEvent, Event, HandEnd, StartHand, TableConfig
from protocol.tournament import ShotClock
from server import metrics
from server.batch import NotConfirmed
from server.engine import TableState, apply, new_table
from server.keys import Published
from server.store import KEEP, NO_CLOCK, Store
from server.tournament_glue import ordered_only

_state_decoder = msgspec.msgpack.Decoder(TableState)
_config_decoder = msgspec.json.Decoder(TableConfig)
_packer = msgspec.msgpack.Encoder()
_json = msgspec.json.Encoder()
ATTEMPTS = 8
UNKNOWN_OUTCOME = "the outcome is unknown: send the same command id again to learn it"
UNAVAILABLE = "Redis did not answer in time; nothing changed: send the command again"


@dataclass
class Cached:
    seq: int
    state: TableState


@dataclass(frozen=True)
class Logged:
    """Events a step committed to another log (the tournament's, or another table's)."""

    table: str
    seq: int
    events: list[bytes]
    at: float
    clock: bytes | None = None
    """The tournament's clock view (JSON), when the step changed it."""


@dataclass(frozen=True)
class Applied:
    seq: int
    duplicate: bool = False
    events: list[bytes] | None = None
    """The committed events (JSON), for this instance's own stations at once."""
    at: float = 0.0
    """When they were committed (Unix seconds), as the log records it."""
    more: list[Logged] = field(default_factory=list)
    """What the same step committed to other logs (a tournament step)."""


@dataclass(frozen=True)
class Refused:
    code: str
    message: str
    rule: str = ""


class Busy(Exception):
    """The table kept changing under us; the station may retry with the same command id."""


class TournamentHook(Protocol):
    """What a table needs of its tournament (:class:`server.tournaments.Tournaments`)."""

    async def structured(self, tournament: str) -> bool: ...

    async def shot_clock(self, tournament: str) -> ShotClock | None: ...

    async def hand_step(
        self,
        tournament_id: str,
        table: str,
        command_id: str,
        before: Cached,
        after: TableState,
        events: list[Event],
        table_deadline: str,
    ) -> Applied | Refused | None: ...


class Tables:
    def __init__(self, store: Store, slots: int) -> None:
        self.store = store
        self.cache: dict[tuple[str, str], Cached] = {}
        self.locks: dict[tuple[str, str], asyncio.Lock] = {}
        self.hook: TournamentHook | None = None
        """The tournaments, when the service runs them."""
        self.slots = asyncio.Semaphore(slots)
        """Commands being applied at once. Past that, commands wait here in arrival order: the
        Redis pool's own wait lets a newcomer overtake a woken waiter, so under a burst some
        commands would wait until they time out while later ones go through."""

    async def create(self, tournament: str, table: str, config: TableConfig) -> bool:
        state = new_table(config)
        return await self.store.create_table(
            tournament, table, _packer.encode(state), _json.encode(config)
        )

    async def _load(self, key: tuple[str, str]) -> Cached | None:
        stored = await self.store.load(*key)
        if stored is None:
            return None
        cached = Cached(stored.seq, _state_decoder.decode(stored.snap))
        self.cache[key] = cached
        return cached

    async def state(self, tournament: str, table: str) -> Cached | None:
        """The table as stored now (fresh from Redis)."""
        return await self._load((tournament, table))

    def lock(self, tournament: str, table: str) -> asyncio.Lock:
        """The table's lock: one command of this instance at a time on it (a tournament step
        that rules on the table's phase takes it too)."""
        return self.locks.setdefault((tournament, table), asyncio.Lock())

    async def apply(
        self,
        tournament: str,
        table: str,
        command_id: str,
        command: Command,
        after: int | None = None,
    ) -> Applied | Refused:
        key = (tournament, table)
        async with self.lock(tournament, table), self.slots:
            try:
                return await self._apply(key, command_id, command, after)
            except NotConfirmed:
                # A look-up that rewrote a commit's record was not confirmed: it may stand.
                return Refused("unknown_outcome", UNKNOWN_OUTCOME)
            except (RedisConnectionError, RedisTimeoutError):
                # Only reads failed here (a failed commit answers unknown_outcome itself).
                return Refused("unavailable", UNAVAILABLE)

    async def _apply(
        self, key: tuple[str, str], command_id: str, command: Command, after: int | None
    ) -> Applied | Refused:
        tournament, table = key
        for _ in range(ATTEMPTS):
            cached = self.cache.get(key) or await self._load(key)
            if cached is None:
                return Refused(
                    "unknown_table", f"there is no table {table} in tournament {tournament}"
                )
            run_by_tournament = self.hook is not None and await self.hook.structured(tournament)
            if run_by_tournament and (why := ordered_only(command)):
                return Refused("tournament_only", why)
            if after is not None and after != cached.seq:
                done = await self.store.seen(tournament, table, command_id)
                if done is not None:
                    return Applied(done, duplicate=True)
                fresh = await self._load(key)
                if fresh is not None and after != fresh.seq:
                    return Refused(
                        "stale",
                        f"table {table} has moved on to event {fresh.seq};"
                        f" the command was based on {after}",
                    )
                continue
            state, events = apply(cached.state, command)
            if len(events) == 1 and isinstance(events[0], ErrorEvent):
                done = await self.store.seen(tournament, table, command_id)
                if done is not None:
                    return Applied(done, duplicate=True)
                fresh = await self._load(key)
                if fresh is not None and fresh.seq != cached.seq:
                    continue  # another instance moved the table on: judge it afresh
                error = events[0]
                # The engine's own code ("hand_in_play", "awaiting_floor", ...) is the wire
                # code: one vocabulary from the rules to the station (README, errors).
                return Refused(error.code, error.message, error.rule)
            if run_by_tournament:
                assert self.hook is not None
                shot = await self.hook.shot_clock(tournament)
                if shot is not None:
                    state, events = _shot_clock(shot, cached.state, state, events)
            if run_by_tournament and any(isinstance(e, HandEnd) and not e.void for e in events):
                assert self.hook is not None
                ended = await self.hook.hand_step(
                    tournament,
                    table,
                    command_id,
                    cached,
                    state,
                    events,
                    _deadline(cached.state, state),
                )
                if ended is not None:
                    return ended
                continue  # the table moved on meanwhile: judge the command afresh
            blobs = [_json.encode(e) for e in events]
            at = time.time()
            raw = [msgspec.Raw(b) for b in blobs]
            published = _json.encode(Published(tournament, table, cached.seq + 1, at, raw))
            try:
                result = await self.store.commit(
                    tournament,
                    table,
                    cached.seq,
                    command_id,
                    _packer.encode(state),
                    published,
                    blobs,
                    at,
                    _deadline(cached.state, state),
                    held=run_by_tournament and isinstance(command, StartHand),
                )
            except (RedisConnectionError, RedisTimeoutError):
                self.cache.pop(key, None)
                return Refused("unknown_outcome", UNKNOWN_OUTCOME)
            if result.outcome == "ok":
                self.cache[key] = Cached(result.seq, state)
                return Applied(result.seq, events=blobs, at=at)
            if result.outcome == "duplicate":
                self.cache.pop(key, None)
                return Applied(result.seq, duplicate=True)
            if result.outcome == "held":
                code, rule, message = result.reason.split("|", 2)
                return Refused(code, message, rule)
            metrics.CONFLICTS.inc()
            self.cache.pop(key, None)
        raise Busy(f"table {table} kept changing; retry with the same command id")


def _shot_clock(
    shot: ShotClock, before: TableState, after: TableState, events: list[Event]
) -> tuple[TableState, list[Event]]:
    """A new prompt starts the shot clock on its seat (RP-28): shorter for a player's first
    action of the hand where the structure says so (RP-28-A)."""
    seat = after.to_act
    if after.phase != "betting" or seat is None:
        return after, events
    moved = (before.to_act, before.hand, before.street, before.actions) != (
        after.to_act,
        after.hand,
        after.street,
        after.actions,
    )
    if not moved:
        return after, events
    found = after.seat(seat)
    first = after.street == "preflop" and found is not None and not found.acted
    seconds = shot.first_action if first and shot.first_action else shot.action
    if seconds <= 0:
        return after, events
    clocked, more = apply(after, Clock(at=int(time.time() * 1000), seat=seat, seconds=seconds))
    if any(isinstance(e, ErrorEvent) for e in more):
        return after, events
    return clocked, [*events, *more]


def _deadline(before: TableState, after: TableState) -> str:
    """The commit's deadline argument: the clock's ``expires`` when one started, ``NO_CLOCK``
    when it stopped, ``KEEP`` when the command left it as it was."""
    if after.clock == before.clock:
        return KEEP
    return NO_CLOCK if after.clock is None else str(after.clock.expires)
