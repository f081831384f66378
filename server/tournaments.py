"""Tournaments in the service: a tournament command, or a table's hand end, as one atomic step.

The shell around the pure tournament engine (:mod:`server.tournament`), the way
:mod:`server.tables` is the shell around the table engine. A step brings the tournament's clock
to the service's time (a ``time`` command: a level whose time has come starts first, 25-A),
rules on the command, applies what its events order each table (:mod:`server.tournament_glue`)
and commits the tournament's events and every touched table's in one script
(:mod:`server.tournament_store`). Another writer in between (a table moving on, another
instance) makes the commit fail as a whole; the step is then ruled on again from fresh states.

Time and random draws are inputs the service supplies: ``at`` is stamped with the service's
clock, and a new entry's seat is drawn (``seat`` with a random ``draw``) in the same step as the
registration, so the draw is recorded in the event and a replay seats everyone the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from dataclasses import dataclass

import msgspec
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from protocol import Clock as ClockCommand
from protocol import ErrorEvent, Event, HandEnd
from protocol.tournament import (
    ChipsMiscounted,
    ColorUp,
    HandCounted,
    Reenter,
    Register,
    SeatPlayer,
    ShotClock,
    Structure,
    TableOpened,
    Tick,
    TimeBankUsed,
    TournamentCommand,
    TournamentError,
    TournamentEvent,
    decode_tournament_event,
)
from protocol.tournament.views import ClockView
from protocol.wire import Clock, TournamentSnapshot, encoder
from server import metrics, tournament, tournament_glue
from server.batch import NotConfirmed
from server.engine import TableState
from server.keys import TOURNAMENT_LOG, Published
from server.store import KEEP, LOG_KEEP, NO_CLOCK
from server.tables import UNKNOWN_OUTCOME, Applied, Busy, Cached, Logged, Refused, Tables
from server.tournament import TournamentState
from server.tournament_glue import TableLine
from server.tournament_store import Step, TablePart, TournamentStore
from server.tournament_views import clock_view, tournament_view

log = logging.getLogger("tablewire.tournament")
ATTEMPTS = 8
NOT_KNOWN_FOR = 5.0
"""Seconds a tournament found without a structure is taken to have none."""
SNAPSHOT_EVERY = 100
"""The tournament's snapshot is rewritten every this many events at least, and every as many
events as it has players past that: a snapshot is ~140 bytes a player, so written once every
that many events it adds ~140 bytes to each event's share of the AOF, whatever the field. At
every tenth of the players (as before) a 5,000-player field wrote 690 KB every 500 events —
1.4 KB an event, more than the table's own commit — and each was one fsync of 690 KB that every
commit of that turn waited on. A load replays the events after the snapshot: 5,000 cost ~40 ms
(decode and apply), and loads are rare (a start, a failover, a step that failed). Never more
than half the log Redis keeps (``TABLEWIRE_LOG_KEEP``), so the log always reaches back to it."""
_state_decoder = msgspec.msgpack.Decoder(TournamentState)
_structure_decoder = msgspec.json.Decoder(Structure)
_packer = msgspec.msgpack.Encoder()
_json = msgspec.json.Encoder()


@dataclass
class Known:
    seq: int
    state: TournamentState
    snap_seq: int
    """The event number of the snapshot in Redis."""


def now_ms() -> int:
    return int(time.time() * 1000)


DRAWS = ("draw", "shuffle", "deal", "button_draw")
"""A command's random inputs (a seat draw, a table break's two-step draw, a final table's): the
service draws them, whatever a station sent, and the events record them."""


def stamped(command: TournamentCommand, at: int) -> TournamentCommand:
    """The command at the service's time and with the service's random draws: a station does
    not choose when things happened, nor a seat."""
    fields = command.__struct_fields__
    changes: dict[str, int] = {
        name: secrets.randbits(62)
        for name in DRAWS
        if name in fields and getattr(command, name) is not None  # None: no draw asked for
    }
    if "at" in fields:
        changes["at"] = at
    return msgspec.structs.replace(command, **changes) if changes else command


def hold_text(state: TournamentState, at: int) -> str:
    """The tournament's ``hold``: why no hand may start now, ``code|rule|message``, or ''."""
    held = tournament.hold(state, at)
    return "" if held is None else f"{held.code}|{held.rule}|{held.message}"


def deadline(state: TournamentState) -> str:
    c = state.clock
    return str(c.ends_at) if c.running and c.ends_at else NO_CLOCK


class Tournaments:
    def __init__(self, store: TournamentStore, tables: Tables) -> None:
        self.store = store
        self.tables = tables
        self.known: dict[str, Known] = {}
        self.structures: dict[str, float] = {}
        """Tournaments known to have a structure (``inf``) or not (until when, monotonic)."""
        self.names: dict[str, str] = {}
        self.shot_clocks: dict[str, ShotClock | None] = {}
        """Each tournament's shot clock (RP-28), from its structure, which never changes: asked
        at every table command, it must not wait for the tournament to be read."""
        self.loading: dict[str, asyncio.Future[Known | None]] = {}
        """The read of a tournament under way: whoever needs it meanwhile waits for that one
        (a dropped copy asked for by 500 tables' commands at once was read 500 times)."""
        self.locks: dict[str, asyncio.Lock] = {}
        """One step of a tournament at a time in this instance: its own steps never race each
        other for the tournament's log (only another instance's can)."""
        tables.hook = self

    # --- reading -----------------------------------------------------------------------

    async def structured(self, tournament_id: str) -> bool:
        """Whether the tournament has a structure (is run by the service). A structure is given
        at creation and never taken away; "no" is asked again after a few seconds, in case
        the tournament was created since by another instance."""
        until = self.structures.get(tournament_id)
        if until is not None and (until == math.inf or time.monotonic() < until):
            return until == math.inf
        found = await self.store.has_structure(tournament_id)
        self.structures[tournament_id] = math.inf if found else time.monotonic() + NOT_KNOWN_FOR
        return found

    async def shot_clock(self, tournament_id: str) -> ShotClock | None:
        """The structure's shot clock (RP-28), if it has one."""
        if tournament_id in self.shot_clocks:
            return self.shot_clocks[tournament_id]
        known = await self.current(tournament_id)
        return known.state.structure.shot_clock if known is not None else None

    async def load(self, tournament_id: str) -> Known | None:
        """The tournament as committed in Redis, read once for every caller waiting on it."""
        flight = self.loading.get(tournament_id)
        if flight is None:
            flight = asyncio.ensure_future(self._install(tournament_id))
            self.loading[tournament_id] = flight
            flight.add_done_callback(lambda done: self._landed(tournament_id, done))
        return await asyncio.shield(flight)

    def _landed(self, tournament_id: str, flight: asyncio.Future[Known | None]) -> None:
        if self.loading.get(tournament_id) is flight:
            del self.loading[tournament_id]
        if not flight.cancelled():
            flight.exception()  # retrieved: each waiter has its own failure to handle

    async def _install(self, tournament_id: str) -> Known | None:
        known = await self._read(tournament_id)
        if known is None:
            return None
        self.shot_clocks[tournament_id] = known.state.structure.shot_clock
        held = self.known.get(tournament_id)
        if held is None or held.seq <= known.seq:  # not over a copy a later commit left
            self.known[tournament_id] = known
        return known

    async def _read(self, tournament_id: str) -> Known | None:
        """The tournament as committed in Redis: its snapshot and the events after it."""
        stored = await self.store.load(tournament_id)
        if stored is None:
            return None
        state = _state_decoder.decode(stored.snap)
        seq = stored.snap_seq
        while seq < stored.seq:
            page = await self.tables.store.page(tournament_id, TOURNAMENT_LOG, seq, 500)
            if page is None or not page[0]:
                raise RuntimeError(f"tournament {tournament_id}: its log does not reach back")
            for entry in page[0]:
                tournament.evolve(state, decode_tournament_event(entry.event))
                seq = entry.seq
        return Known(seq, state, stored.snap_seq)

    async def _refresh(self, tournament_id: str, known: Known) -> None:
        """Another instance moved the tournament on: read only the events after ``known``
        (a whole reload decodes the snapshot, every player, and replays up to 100 events).
        A table that moved on leaves the tournament as it was: nothing to read."""
        if self.known.get(tournament_id) is not known:
            return  # dropped (a step changed it and did not commit): read again whole
        state, seq = known.state.clone(), known.seq
        while True:
            page = await self.tables.store.page(tournament_id, TOURNAMENT_LOG, seq, 500)
            if page is None:  # the log no longer reaches back (or is gone): reload it whole
                self.known.pop(tournament_id, None)
                return
            for entry in page[0]:
                tournament.evolve(state, decode_tournament_event(entry.event))
                seq = entry.seq
            if seq >= page[1]:
                break
        if self.known.get(tournament_id) is known:
            self.known[tournament_id] = Known(seq, state, known.snap_seq)

    async def _behind(self, tournament_id: str, known: Known) -> bool:
        """Whether the tournament moved on past ``known`` elsewhere; if so the copy is brought
        up to date. A refusal must be judged on the tournament as it is: the tables' copies
        follow the other instances' commits live, the tournament's only at its next commit, so
        a seat another instance filled is free to the tournament and taken at the table."""
        if await self.store.head(tournament_id) == known.seq:
            return False
        await self._refresh(tournament_id, known)
        return True

    async def current(self, tournament_id: str) -> Known | None:
        return self.known.get(tournament_id) or await self.load(tournament_id)

    async def snapshot_message(
        self, tournament_id: str, public: bool = True
    ) -> tuple[int, bytes] | None:
        """The tournament as committed now. The copy kept is used when it is the log's head and
        no step is under way (a step changes the copy in place before it commits); else it is
        read from Redis (another instance moved it on, or a step is changing it)."""
        name = self.names.get(tournament_id)
        if name is None:
            name = self.names[tournament_id] = await self.store.name(tournament_id)
        known = self.known.get(tournament_id)
        head = await self.store.head(tournament_id)
        if known is None or known.seq != head or self._lock(tournament_id).locked():
            known = await self._read(tournament_id)
        if known is None:
            return None
        view = tournament_view(known.state, name, now_ms(), public)
        return known.seq, encoder.encode(TournamentSnapshot(tournament_id, known.seq, view))

    async def clock_message(self, tournament_id: str) -> bytes | None:
        if not await self.structured(tournament_id):
            return None
        known = await self.current(tournament_id)
        if known is None:
            return None
        return encoder.encode(Clock(clock_view(known.state, now_ms())))

    # --- set-up ------------------------------------------------------------------------

    async def create(self, tournament_id: str, name: str, structure: Structure) -> bool:
        state = tournament.new_tournament(structure, tournament_id)
        created = await self.store.create(
            tournament_id,
            name,
            _packer.encode(state),
            _json.encode(structure),
            hold_text(state, now_ms()),
        )
        if created:
            self.names[tournament_id] = name
            self.structures[tournament_id] = math.inf
            self.known[tournament_id] = Known(0, state, 0)
            self.shot_clocks[tournament_id] = structure.shot_clock
        return created

    # --- steps -------------------------------------------------------------------------

    async def command(
        self, tournament_id: str, command_id: str, command: TournamentCommand
    ) -> Applied | Refused:
        """A station's tournament command, as one step with the tables it touches."""
        try:
            return await self._command(tournament_id, command_id, command)
        except NotConfirmed:
            return Refused("unknown_outcome", UNKNOWN_OUTCOME)
        except (RedisConnectionError, RedisTimeoutError):
            return Refused("unavailable", "Redis did not answer in time; nothing changed")

    def _lock(self, tournament_id: str) -> asyncio.Lock:
        return self.locks.setdefault(tournament_id, asyncio.Lock())

    async def _command(
        self, tournament_id: str, command_id: str, command: TournamentCommand
    ) -> Applied | Refused:
        """A command that rules on the tables' phases (a break, the final table, hand-for-hand,
        a move: ``tournament_glue.needs``) holds those tables first, as a table command does,
        so that none of this instance's table commands moves one on between the step's read
        and its commit. Without it a hand-for-hand announced in a busy room lost the race to
        some table eight times running and was refused ``busy``, again and again. The tables
        are taken before the tournament, in name order, the order a hand end takes them.

        A registration holds the table its seat is drawn at (the draw is made here, before
        the ruling it is recorded in): when that table's command committed first, the step
        failed and the tournament, changed in place, was read again whole — 5,000 players, a
        stall of every station, about one registration in fifty at 500 table commands/s."""
        known = self.known.get(tournament_id)
        needed = tournament_glue.needs(known.state, command) if known is not None else set()
        draw = secrets.randbits(62)
        if isinstance(command, Register | Reenter) and known is not None:
            drawn = tournament.drawn_seat(known.state, draw)
            needed = {drawn[0]} if drawn is not None else set()
        try:
            return await self._holding(tournament_id, command_id, command, draw, needed)
        except Busy:
            known = await self.current(tournament_id)
            if known is None:
                raise
            # Lost to tables it did not hold, eight times running: a step's events may touch
            # more tables than the command reads (a level the clock ends in the same step sets
            # every table's blinds). Held all, no command of this instance can move one on.
            every = set(known.state.in_play())
            return await self._holding(tournament_id, command_id, command, draw, every)

    async def _holding(
        self,
        tournament_id: str,
        command_id: str,
        command: TournamentCommand,
        draw: int,
        tables: set[str],
    ) -> Applied | Refused:
        """Rule on ``command`` holding ``tables`` (in name order, the order a hand end takes
        them), then the tournament."""
        async with contextlib.AsyncExitStack() as held:
            for name in sorted(tables):
                await held.enter_async_context(self.tables.lock(tournament_id, name))
            async with self._lock(tournament_id):
                return await self._command_locked(tournament_id, command_id, command, draw)

    async def _command_locked(
        self, tournament_id: str, command_id: str, command: TournamentCommand, draw: int
    ) -> Applied | Refused:
        for attempt in range(ATTEMPTS):
            known = await self.current(tournament_id)
            if known is None:
                return Refused("unknown_tournament", f"there is no tournament {tournament_id}")
            at = now_ms()
            commands = [stamped(command, at)]
            if isinstance(command, Register | Reenter) and tournament.has_seat(known.state):
                seat_draw = draw if attempt == 0 else secrets.randbits(62)
                commands.append(SeatPlayer(player=command.player, draw=seat_draw))
            result = await self._step(tournament_id, command_id, known, commands, at)
            if isinstance(result, Refused) and result.code != "unknown_outcome":
                # Ruled on again after it committed (its answer lost): the first result.
                done = await self.tables.store.seen(tournament_id, TOURNAMENT_LOG, command_id)
                if done is not None:
                    return Applied(done, duplicate=True)
            if isinstance(result, Refused) and await self._behind(tournament_id, known):
                metrics.STALE_RULINGS.inc()
                continue  # judged on a copy another instance had moved past: rule again
            if isinstance(result, Applied | Refused):
                return result
        raise Busy(f"tournament {tournament_id} kept changing; retry with the same command id")

    async def tick(self, tournament_id: str, expires: int) -> Applied | Refused | None:
        """The clock reached ``expires``: the level or break that ends there ends (25-A). The
        command id names the step and its end, so two instances ruling on it apply it once."""
        async with self._lock(tournament_id):
            return await self._tick(tournament_id, expires)

    async def _tick(self, tournament_id: str, expires: int) -> Applied | Refused | None:
        known = await self.load(tournament_id)
        if known is None or not known.state.clock.running or known.state.clock.ends_at != expires:
            return None
        at = max(now_ms(), expires)
        command_id = f"clock:{known.state.clock.step}:{expires}"
        for _ in range(ATTEMPTS):
            result = await self._step(tournament_id, command_id, known, [Tick(at=at)], at)
            if isinstance(result, Applied | Refused):
                return result
            known = await self.load(tournament_id)
            if known is None or known.state.clock.ends_at != expires:
                return None
        return None

    async def hand_step(
        self,
        tournament_id: str,
        table: str,
        command_id: str,
        before: Cached,
        after: TableState,
        events: list[Event],
        table_deadline: str,
    ) -> Applied | Refused | None:
        """A table command whose events end a hand: the tournament learns of it (eliminations,
        places, a level counted in hands) in the same commit as the table's events. None when
        the table moved on meanwhile (the caller rules on the command again)."""
        end = next(e for e in events if isinstance(e, HandEnd) and not e.void)
        started = tournament_glue.hand_started(before.state)
        async with self._lock(tournament_id):
            return await self._hand_step(
                tournament_id,
                table,
                command_id,
                before,
                after,
                events,
                table_deadline,
                end,
                started,
            )

    async def _hand_step(
        self,
        tournament_id: str,
        table: str,
        command_id: str,
        before: Cached,
        after: TableState,
        events: list[Event],
        table_deadline: str,
        end: HandEnd,
        started: tuple[int, dict[int, int]] | None,
    ) -> Applied | Refused | None:
        for _ in range(ATTEMPTS):
            known = await self.current(tournament_id)
            if known is None:
                return Refused("unknown_tournament", f"there is no tournament {tournament_id}")
            at = now_ms()
            ended = tournament_glue.hand_ended(table, end, started, at, after)
            origin = _Origin(table, before.seq, after, events, table_deadline)
            result = await self._step(tournament_id, command_id, known, [ended], at, origin)
            if isinstance(result, _TableMoved):
                return None
            if result is not None:
                return result
        raise Busy(f"tournament {tournament_id} kept changing; retry with the same command id")

    async def _step(
        self,
        tournament_id: str,
        command_id: str,
        known: Known,
        commands: list[TournamentCommand],
        at: int,
        origin: _Origin | None = None,
    ) -> Applied | Refused | _TableMoved | None:
        """Rule on the commands and commit; None when the tournament moved on (rule again).

        The known state is changed in place, not copied (a copy of 5,000 players cost more
        than the rest of a step): the lock keeps other steps out, and a step that applied
        events and then does not commit — refused, a conflict, Redis failing, cancelled —
        drops the known state, which the next step reads again from Redis."""
        applied: list[TournamentEvent] = []
        done = False
        try:
            result = await self._step_in_place(
                tournament_id, command_id, known, commands, at, origin, applied
            )
            done = isinstance(result, Applied) and not result.duplicate
            return result
        finally:
            if applied and not done and self.known.get(tournament_id) is known:
                del self.known[tournament_id]

    async def _step_in_place(
        self,
        tournament_id: str,
        command_id: str,
        known: Known,
        commands: list[TournamentCommand],
        at: int,
        origin: _Origin | None,
        applied: list[TournamentEvent],
    ) -> Applied | Refused | _TableMoved | None:
        state = known.state
        clock_before = clock_view(state)
        if state.clock.started and not state.finished:
            commands = [Tick(at=at), *commands]
        tables: dict[str, TableState] = {}
        expected: dict[str, int] = {}
        lines: list[TableLine] = []
        if origin is not None:
            tables[origin.table] = origin.state
            expected[origin.table] = origin.seq
            lines += [TableLine(origin.table, e) for e in origin.events]
        t_events: list[TournamentEvent] = []
        pending = list(commands)
        while pending:
            command = pending.pop(0)
            # A command that waits for tables between hands learns which are in a hand.
            for name in tournament_glue.needs(state, command) - tables.keys():
                cached = await self._table(tournament_id, name)
                if cached is not None:
                    tables[name], expected[name] = cached.state, cached.seq
            looked = tournament_glue.needs(state, command)
            command = tournament_glue.stamp(
                command, {k: v for k, v in tables.items() if k in looked}
            )
            events = tournament.apply_to(state, command, applied)
            if len(events) == 1 and isinstance(events[0], TournamentError):
                error = events[0]
                return Refused(error.code, error.message, error.rule)
            needed = tournament_glue.touched(state, events) | _banked(state, events)
            if isinstance(command, ColorUp):
                needed.add(command.table)  # its race changes the table, leftovers or none
            for name in needed - tables.keys():
                cached = await self._table(tournament_id, name)
                if cached is not None:
                    tables[name], expected[name] = cached.state, cached.seq
            before, first = dict(tables), len(lines)
            try:
                for event in events:
                    if isinstance(event, TableOpened):
                        expected[event.table] = -1
                    lines += tournament_glue.order(state, tables, event)
                if isinstance(command, ColorUp):
                    lines += tournament_glue.color_up(state, tables, command.table, events)
                lines += _time_banks(state, tables, events)
            except tournament_glue.Refused as refused:
                return Refused(
                    refused.error.code,
                    f"table {refused.table}: {refused.error.message}",
                    refused.error.rule,
                )
            t_events += events
            # A hand the orders ended (a hand-for-hand all-in the floor released, RP-8-F) is
            # counted like any other, in the same step and before the commands after it.
            pending[:0] = tournament_glue.ordered_hand_ends(before, tables, lines[first:], at)
        step = self._build(
            tournament_id,
            command_id,
            known,
            state,
            t_events,
            tables,
            expected,
            lines,
            origin,
            clock_before,
        )
        try:
            committed = await self.store.commit(step)
        except (RedisConnectionError, RedisTimeoutError):
            self.known.pop(tournament_id, None)
            for name in tables:
                self.tables.cache.pop((tournament_id, name), None)
            return Refused("unknown_outcome", UNKNOWN_OUTCOME)
        if committed.outcome == "conflict":
            metrics.CONFLICTS.inc()
            if not committed.reason and not applied:
                await self._refresh(tournament_id, known)
            for name in tables:
                self.tables.cache.pop((tournament_id, name), None)
            if origin is not None and committed.reason == origin.table:
                return _TableMoved()
            return None
        if committed.outcome == "duplicate":
            self.known.pop(tournament_id, None)
            return Applied(committed.seq, duplicate=True)
        if origin is not None:
            self._count(tournament_id, t_events, origin.table)
        return self._committed(tournament_id, known, state, step, tables, committed.seq)

    @staticmethod
    def _count(tournament_id: str, events: list[TournamentEvent], table: str) -> None:
        """At a hand boundary the tables' stacks add up to the chips in play, to the chip: the
        difference is a metric, and a miscount an error in the log (the floor sees the
        ``chips_miscounted`` event the hand end recorded). The engine counted at the hand end;
        its event, or its silence, says the difference (a count is a pass over every player)."""
        difference = 0
        for event in events:  # the last hand end's count
            if isinstance(event, HandCounted):
                difference = 0
            elif isinstance(event, ChipsMiscounted):
                difference = event.counted - event.in_play
        metrics.CHIPS_DIFFERENCE.labels(tournament_id).set(difference)
        if difference:
            log.error(
                "chips miscounted at a hand end",
                extra={"tournament": tournament_id, "table": table, "difference": difference},
            )

    async def _table(self, tournament_id: str, table: str) -> Cached | None:
        key = (tournament_id, table)
        return self.tables.cache.get(key) or await self.tables.state(tournament_id, table)

    def _build(
        self,
        tournament_id: str,
        command_id: str,
        known: Known,
        state: TournamentState,
        t_events: list[TournamentEvent],
        tables: dict[str, TableState],
        expected: dict[str, int],
        lines: list[TableLine],
        origin: _Origin | None,
        clock_before: ClockView,
    ) -> Step:
        at = time.time()
        blobs = [_json.encode(e) for e in t_events]
        last = known.seq + len(blobs)
        snap = b""
        every = min(max(SNAPSHOT_EVERY, len(state.players)), max(LOG_KEEP // 2, 1))
        if blobs and last - known.snap_seq >= every:
            snap = _packer.encode(state)
        now = clock_view(state)
        clock = now if now != clock_before else None
        published = _json.encode(
            Published(
                tournament_id,
                TOURNAMENT_LOG,
                known.seq + 1,
                at,
                [msgspec.Raw(b) for b in blobs],
                clock,
            )
        )
        by_table: dict[str, list[bytes]] = {}
        for line in lines:
            by_table.setdefault(line.table, []).append(_json.encode(line.event))
        parts: list[TablePart] = []
        for name, table_state in tables.items():
            events = by_table.get(name, [])
            seq = expected.get(name, -1)
            if not events and seq >= 0:
                continue
            first = max(seq, 0) + 1
            raw = [msgspec.Raw(b) for b in events]
            parts.append(
                TablePart(
                    table=name,
                    expected=seq,
                    snap=_packer.encode(table_state),
                    published=_json.encode(Published(tournament_id, name, first, at, raw)),
                    events=events,
                    deadline=(
                        origin.deadline
                        if origin is not None and name == origin.table
                        else _table_deadline(table_state)
                    ),
                    config=_json.encode(tournament_glue.table_config(state)) if seq < 0 else b"",
                    created=(
                        _json.encode(Published(tournament_id, name, 0, at, [])) if seq < 0 else b""
                    ),
                )
            )
        return Step(
            tournament=tournament_id,
            command_id=command_id,
            origin=origin.table if origin is not None else TOURNAMENT_LOG,
            expected=known.seq,
            snap=snap,
            hold=hold_text(state, now_ms()),
            deadline=deadline(state) if blobs else KEEP,
            published=published,
            events=blobs,
            at=at,
            tables=parts,
            clock=clock,
        )

    def _committed(
        self,
        tournament_id: str,
        known: Known,
        state: TournamentState,
        step: Step,
        tables: dict[str, TableState],
        seq: int,
    ) -> Applied:
        """Keep what was committed, and say what each log got for this instance's stations."""
        snap_seq = known.seq + len(step.events) if step.snap else known.snap_seq
        self.known[tournament_id] = Known(known.seq + len(step.events), state, snap_seq)
        logged: list[Logged] = []
        if step.events:
            clock = _json.encode(step.clock) if step.clock is not None else None
            logged.append(Logged(TOURNAMENT_LOG, known.seq + 1, step.events, step.at, clock))
        origin_events: list[bytes] | None = None
        for part in step.tables:
            first = max(part.expected, 0) + 1
            self.tables.cache[(tournament_id, part.table)] = Cached(
                first + len(part.events) - 1, tables[part.table]
            )
            if part.table == step.origin:
                origin_events = part.events
            elif part.events:
                logged.append(Logged(part.table, first, part.events, step.at))
        if step.origin == TOURNAMENT_LOG:
            return Applied(seq, events=None, at=step.at, more=logged)
        return Applied(seq, events=origin_events, at=step.at, more=logged)


@dataclass(frozen=True)
class _Origin:
    """The table command a hand-end step carries: the table's events are already decided."""

    table: str
    seq: int
    state: TableState
    events: list[Event]
    deadline: str


class _TableMoved:
    """The step's own table was written meanwhile: its command must be ruled on again."""


def _banked(state: TournamentState, events: list[TournamentEvent]) -> set[str]:
    """The tables of players who played a time-bank card."""
    found = set()
    for event in events:
        if isinstance(event, TimeBankUsed):
            table = state.players[event.player].table
            if table is not None:
                found.add(table)
    return found


def _time_banks(
    state: TournamentState, tables: dict[str, TableState], events: list[TournamentEvent]
) -> list[TableLine]:
    """A time-bank card extends the shot clock running on the player's seat (RP-28)."""
    lines: list[TableLine] = []
    for event in events:
        if not isinstance(event, TimeBankUsed):
            continue
        p = state.players[event.player]
        table = tables.get(p.table or "")
        clock = table.clock if table is not None else None
        if p.table is None or clock is None or clock.seat != p.seat:
            raise tournament_glue.Refused(
                p.table or "",
                ErrorEvent(
                    f"no clock is running on {p.name or p.player}", rule="RP-28", code="no_clock"
                ),
            )
        extended = ClockCommand(at=clock.expires, seat=clock.seat, seconds=event.seconds)
        lines += tournament_glue.to(tables, p.table, extended)
    return lines


def _table_deadline(state: TableState) -> str:
    return NO_CLOCK if state.clock is None else str(state.clock.expires)
