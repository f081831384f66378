"""Tables in Redis: an append-only event log and a snapshot per table, written atomically.

Key layout (all keys of a tournament share the hash tag ``{T}``, so the layout runs unchanged
on Redis Cluster):

- ``tw:{T}:tables`` — set of the tournament's table ids.
- ``tw:{T}:meta`` — hash: the tournament's name.
- ``tw:{T}:table:{id}:state`` — hash: ``seq`` (last event number), ``snap`` (the engine state,
  msgpack), ``config`` (the table configuration, JSON).
- ``tw:{T}:table:{id}:log`` — stream: one entry per event, entry id ``{seq}-0``, field ``e`` the
  event as JSON, field ``a`` the commit time (Unix seconds; a delayed display reads the log as
  of ``now - delay``). Trimmed to about ``LOG_KEEP`` entries; older gaps are served by a
  snapshot.
- ``tw:{T}:table:{id}:commands`` — hash: command id -> last event number of its result, so a
  retried command returns its first answer.
- ``tw:{T}:table:{id}:attempt:{command id}`` — string, kept ``ATTEMPT_KEEP_MS``: the token of
  the commit attempt that recorded the command, so the Redis client's own retry of that attempt
  (after a timeout, the script may have run) is told ``ok``, not ``duplicate``.
- ``tw:{T}:deadlines`` — sorted set: table id scored by its running clock's ``expires`` (ms),
  kept by the commit script; the service's timers rule on it (``server.timers``).
- ``tw:timed`` — set of the tournaments that ever had a clock: where the timers look.
- ``tw:{T}:tournament:state`` — hash, for a tournament with a structure: ``seq``, ``snap`` (the
  tournament engine's state, msgpack), ``structure`` (JSON), ``hold`` (why no hand may start
  now, ``code|rule|message``, empty when hands may start). ``tw:{T}:tournament:log`` is its
  event log, like a table's; the tournament's clock deadline is the member ``""`` of
  ``tw:{T}:deadlines``. In the functions below the tournament's log is the "table"
  ``TOURNAMENT_LOG`` (``""``), so catch-ups and the fan-out serve it as they serve a table's.
- channel ``tw:{T}:events`` — every commit publishes ``{table, seq, at, events}`` there.
- ``tw:{T}:table:{id}:hand:{N}`` — hash: hand N's record, written by the script that commits
  its ``hand_end`` (``server.archive_script``): ``hand``, ``from`` (the number of its first
  event), ``first`` (of the first one the log still had: ``from`` unless the hand outlived the
  trim), ``last`` (its ``hand_end``), ``at``, ``void``, ``base`` (the table before the hand,
  msgpack), ``events`` (a JSON array). Kept ``TABLEWIRE_HAND_KEEP`` (default: for ever).
  While a hand is in play the table's state hash holds ``hand_no``, ``hand_from`` and
  ``hand_base`` for it.
- ``tw:{T}:hands:unfiled`` — set of ``N:table``: archived hands whose file is not written yet.

A command is committed by one Lua script: check that the snapshot's sequence number is the one
the engine started from, append the events, replace the snapshot, record the command id and
publish — all or nothing.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from typing import cast

import msgspec
from redis.asyncio import Redis

from server import metrics
from server.archive_script import HAND_LUA, hand_keep_ms, hand_marks, unfiled_member
from server.batch import PUBLISH_LUA, NotConfirmed, ScriptBatch
from server.confirming import Confirmations
from server.hand_files import HandFiles
from server.keys import (
    ATTEMPT_KEEP_MS,
    TIMED,
    TOURNAMENT_LOG,
    Published,
    attempt_key,
    channel,
    commands_key,
    deadlines_key,
    hand_key,
    log_key,
    state_key,
    tables_key,
    tag,
    unfiled_key,
)
from server.reads import ReadBatch

LOG_KEEP = int(os.environ.get("TABLEWIRE_LOG_KEEP", "20000"))
"""Events kept per table log; a station further behind gets a snapshot."""

COMMIT = (
    PUBLISH_LUA
    + HAND_LUA
    + """
local done = redis.call('HGET', KEYS[3], ARGV[2])
if done then
  -- Written again: a WAIT after this answer then covers the first commit too.
  redis.call('HSET', KEYS[3], ARGV[2], done)
  if redis.call('GET', KEYS[6]) == ARGV[8] then return {'ok', done} end
  return {'duplicate', done}
end
local seq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '-1')
if seq ~= tonumber(ARGV[1]) then return {'conflict', tostring(seq)} end
local count = tonumber(ARGV[6])
if ARGV[12 + count] == '1' then
  local hold = redis.call('HGET', KEYS[7], 'hold')
  if hold and hold ~= '' then return {'held', hold} end
end
local at = ARGV[7]
local started, ended = ARGV[13 + count], ARGV[14 + count]
local before = false
if started ~= '' then before = redis.call('HGET', KEYS[1], 'snap') end
for i = 1, count do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[5], (seq + i) .. '-0', 'e', ARGV[11 + i], 'a', at)
end
local last = seq + count
if started ~= '' or ended ~= '' then
  mark_hand(KEYS[1], KEYS[2], KEYS[8], KEYS[9], seq, started, ended, before, at,
    ARGV[15 + count], ARGV[16 + count])
end
redis.call('HSET', KEYS[1], 'seq', last, 'snap', ARGV[3])
redis.call('HSET', KEYS[3], ARGV[2], last)
redis.call('SET', KEYS[6], ARGV[8], 'PX', ARGV[9])
if ARGV[10] == '-' then
  redis.call('ZREM', KEYS[5], ARGV[11])
elseif ARGV[10] ~= '' then
  redis.call('ZADD', KEYS[5], ARGV[10], ARGV[11])
end
publish(KEYS[4], ARGV[4])
return {'ok', tostring(last)}
"""
)
"""ARGV: expected seq, command id, snapshot, published message, log length, event count,
commit time, attempt token, how long to keep it (ms), the table's clock deadline (``''``
unchanged, ``'-'`` none, else ``expires`` in ms), the table id, the events, then ``'1'`` when
the command starts a hand in a tournament that has a structure: the tournament's ``hold``
(a break, a clock not started) refuses it, in the same script (``held``); then the hand
marks (``server.archive_script``: a hand starts, a hand ends), the archived hand's keep (ms) and
its member of the unfiled set, and last whether the batch publishes the events after its
``WAIT`` (``server.batch``). KEYS 8 and 9, only when a hand ends: its record, the unfiled set.

An earlier *request* with the command id answers ``duplicate``; the same attempt sent again
(the Redis client retries a call that timed out, and the first send may have run) answers
``ok`` with the number it committed."""

CLEAR_DEADLINE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call('ZREM', KEYS[1], ARGV[1])
end
return 0
"""
"""Forget a table's deadline, only if it is still the one ruled on (a newer clock stays)."""

ADD_TIMED = "return redis.call('SADD', KEYS[1], ARGV[1])"
"""Note a tournament among those with a clock: through the batch, so that the ``WAIT`` after it
covers it on its own node too (``tw:timed`` has no tournament's tag)."""

CREATE_TOURNAMENT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1])
return 1
"""

CREATE = (
    PUBLISH_LUA
    + """
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists'} end
redis.call('HSET', KEYS[1], 'seq', 0, 'snap', ARGV[1], 'config', ARGV[2])
redis.call('SADD', KEYS[2], ARGV[3])
publish(KEYS[3], ARGV[4])
return {'ok'}
"""
)


@dataclass(frozen=True)
class Stored:
    seq: int
    snap: bytes
    config: bytes


@dataclass(frozen=True)
class Logged:
    """One event of a table's log: its number, its commit time and the event's JSON."""

    seq: int
    at: float
    event: bytes


@dataclass(frozen=True)
class Committed:
    outcome: str
    """``ok``, ``conflict`` (another writer got there first), ``duplicate`` (an earlier
    request with this command id committed) or ``held`` (the tournament holds new hands)."""
    seq: int
    reason: str = ""


KEEP = ""
"""A commit's deadline argument: the table's clock did not change."""
NO_CLOCK = "-"
"""A commit's deadline argument: the table has no running clock any more."""


class Store:
    def __init__(self, redis: Redis, batch: ScriptBatch | None = None) -> None:
        self.redis = redis
        self.batch = batch or ScriptBatch(redis)
        """Every write a station is answered on goes through it (and its ``WAIT``)."""
        self.reads = ReadBatch(redis)
        """The reads a station waits on share a round trip with the others of the turn."""
        self.hand_keep_ms = hand_keep_ms()
        self.files = HandFiles(redis, HandFiles.directory_from_environment(), unfiled_key, hand_key)
        self.confirmations = Confirmations(redis, self.batch)
        self._commit = redis.register_script(COMMIT)
        self._add_timed = redis.register_script(ADD_TIMED)
        self._create = redis.register_script(CREATE)
        self._create_tournament = redis.register_script(CREATE_TOURNAMENT)
        self._clear_deadline = redis.register_script(CLEAR_DEADLINE)

    async def create_table(self, tournament: str, table: str, snap: bytes, config: bytes) -> bool:
        keys = [state_key(tournament, table), tables_key(tournament), channel(tournament)]
        created = msgspec.json.encode(Published(tournament, table, 0, time.time(), []))
        args: list[bytes | str] = [snap, config, table, created]
        found = await self.batch(self._create, keys, args, [(channel(tournament), created)])
        return bool(found[0] == b"ok")

    async def create_tournament(self, tournament: str, name: str) -> bool:
        """False, changing nothing, when the tournament exists already."""
        keys = [f"{tag(tournament)}:meta"]
        return bool(await self.batch(self._create_tournament, keys, [name]))

    async def tables(self, tournament: str) -> list[str]:
        members = cast(set[bytes], await self.redis.smembers(tables_key(tournament)))
        return sorted(t.decode() for t in members)

    async def last_numbers(self, tournament: str, tables: list[str]) -> list[int | None]:
        """Each table's last event number (None: no such table), in one round trip: a floor
        monitor coming back after a restart resumes a thousand tables, most of them with
        nothing new to read."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for table in tables:
                pipe.hget(state_key(tournament, table), "seq")
            found = cast(list[bytes | None], await pipe.execute())
        return [None if seq is None else int(seq) for seq in found]

    async def load(self, tournament: str, table: str) -> Stored | None:
        (fields,) = await self.reads(
            ("HMGET", state_key(tournament, table), "seq", "snap", "config")
        )
        seq, snap, config = fields
        if seq is None or snap is None:
            return None
        return Stored(int(seq), snap, config or b"")

    async def seen(self, tournament: str, table: str, command_id: str) -> int | None:
        """The last event number of the command's result, if it committed (confirmed by the
        replicas like a commit, its last event published again: ``server.confirming``)."""
        return await self.confirmations.seen(tournament, table, command_id)

    async def note_timed(self, tournament: str) -> None:
        """The tournament has a clock: the timers look at it from now on."""
        await self.batch(self._add_timed, [TIMED], [tournament])

    async def commit(
        self,
        tournament: str,
        table: str,
        expected: int,
        command_id: str,
        snap: bytes,
        published: bytes,
        events: list[bytes],
        at: float,
        deadline: str = KEEP,
        held: bool = False,
    ) -> Committed:
        """Commit one command's events; ``deadline`` is ``KEEP``, ``NO_CLOCK`` or the clock's
        ``expires`` (ms); ``held``: a hand starts, refused while the tournament holds hands
        (outcome ``held``, the hold's text as ``reason``). A Redis timeout or lost connection
        raises: the script may have run."""
        keys = [
            state_key(tournament, table),
            log_key(tournament, table),
            commands_key(tournament, table),
            channel(tournament),
            deadlines_key(tournament),
            attempt_key(tournament, table, command_id),
            state_key(tournament, TOURNAMENT_LOG),
        ]
        marks = hand_marks(events)
        if marks.ended:
            keys += [hand_key(tournament, table, marks.hand), unfiled_key(tournament)]
        args: list[bytes | str | int] = [
            expected,
            command_id,
            snap,
            published,
            LOG_KEEP,
            len(events),
            repr(at),
            secrets.token_hex(8),
            ATTEMPT_KEEP_MS,
            deadline,
            table,
            *events,
            "1" if held else "0",
            marks.started,
            marks.ended,
            self.hand_keep_ms,
            unfiled_member(table, marks.hand),
        ]
        if deadline not in (KEEP, NO_CLOCK):
            await self.note_timed(tournament)
        started = time.perf_counter()
        try:
            outcome, seq = await self.batch(
                self._commit, keys, args, [(channel(tournament), published)]
            )
        except NotConfirmed:
            last = (table, expected + len(events))
            self.confirmations.later(tournament, table, command_id, [last])
            raise
        metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
        if outcome == b"held":
            return Committed("held", -1, seq.decode())
        if outcome == b"ok":
            self.files.committed(tournament, bool(marks.ended))
        if outcome == b"duplicate":
            await self.confirmations.offer(tournament, [(table, int(seq))])
        return Committed(outcome.decode(), int(seq))

    async def deadlines_due(self, now_ms: int) -> list[tuple[str, str, int]]:
        """Every (tournament, table, expires) whose clock ran out before ``now_ms``."""
        members = cast(set[bytes], await self.redis.smembers(TIMED))
        tournaments = sorted(t.decode() for t in members)
        if not tournaments:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for tournament in tournaments:
                pipe.zrangebyscore(deadlines_key(tournament), "-inf", now_ms - 1, withscores=True)
            found = cast(list[list[tuple[bytes, float]]], await pipe.execute())
        return [
            (tournament, member.decode(), int(score))
            for tournament, due in zip(tournaments, found, strict=True)
            for member, score in due
        ]

    async def clear_deadline(self, tournament: str, table: str, expires: int) -> None:
        await self._clear_deadline(keys=[deadlines_key(tournament)], args=[table, expires])

    async def events_since(
        self, tournament: str, table: str, since: int, until: int | None = None
    ) -> list[tuple[int, bytes]] | None:
        """Events after number ``since`` (up to ``until``, else all); None when the log no
        longer reaches back that far."""
        logged, last = await self._read_log(tournament, table, since, until, None)
        found = [(entry.seq, entry.event) for entry in logged]
        if found and found[0][0] == since + 1:
            return found
        if last is None or last <= since:
            return []
        return None

    async def page(
        self, tournament: str, table: str, since: int, count: int
    ) -> tuple[list[Logged], int] | None:
        """Up to ``count`` events after number ``since`` and the table's last number; None when
        the log no longer reaches back that far. Catch-ups read the log page by page, so what a
        station is owed never sits in the server's memory at once."""
        found, known = await self._read_log(tournament, table, since, None, count)
        last = known or 0
        if since >= last:
            return [], last
        if not found or found[0].seq != since + 1:
            return None
        return found, last

    async def _read_log(
        self, tournament: str, table: str, since: int, until: int | None, count: int | None
    ) -> tuple[list[Logged], int | None]:
        """The log's entries after ``since`` and the table's last number. The number is read
        first, in the same pipeline: a commit landing between the two reads only adds entries
        past it (or trims the log, which the entries then show). Read the other way round, an
        empty page and then a later number looked like a trimmed log."""
        upto = "+" if until is None else f"{until}-0"
        page = ("COUNT", count) if count is not None else ()
        raw_last, entries = await self.reads(
            ("HGET", state_key(tournament, table), "seq"),
            ("XRANGE", log_key(tournament, table), f"{since + 1}-0", upto, *page),
        )
        logged = [
            Logged(int(entry_id.split(b"-")[0]), float(fields.get(b"a", b"0")), fields[b"e"])
            for entry_id, fields in cast(list[tuple[bytes, dict[bytes, bytes]]], entries)
        ]
        return logged, int(raw_last) if raw_last else None
