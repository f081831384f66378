"""A tournament's step in Redis: its own log and every table it touches, in one script.

A tournament command that seats a player, moves one or starts a level changes tables too; a
table's hand end changes the tournament (eliminations, places). Either way the step's events —
the tournament's and each touched table's — are committed by one Lua script: every log's
expected last number is checked first, then every log is appended, every snapshot replaced,
the command id recorded and each log's events published. No table ever holds a seat the
tournament does not know, or the reverse. All keys carry the tournament's hash tag
(``server.store``), so the script runs unchanged on Redis Cluster.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import cast

from redis.asyncio import Redis

from protocol.tournament.views import ClockView
from server import metrics
from server.archive_script import HAND_LUA, hand_keep_ms, hand_marks, unfiled_member
from server.batch import PUBLISH_LUA, NotConfirmed, ScriptBatch
from server.confirming import Confirmations, Mark
from server.hand_files import HandFiles
from server.keys import (
    ATTEMPT_KEEP_MS,
    TIMED,
    TOURNAMENT_LOG,
    attempt_key,
    channel,
    commands_key,
    deadlines_key,
    hand_key,
    log_key,
    state_key,
    tables_key,
    unfiled_key,
)
from server.store import ADD_TIMED, LOG_KEEP, Committed

STEP = (
    PUBLISH_LUA
    + HAND_LUA
    + """
local done = redis.call('HGET', KEYS[3], ARGV[1])
if done then
  -- Written again: a WAIT after this answer then covers the first commit too.
  redis.call('HSET', KEYS[3], ARGV[1], done)
  if redis.call('GET', KEYS[6]) == ARGV[2] then return {'ok', done} end
  return {'duplicate', done}
end
local tseq = tonumber(redis.call('HGET', KEYS[1], 'seq') or '-1')
if tseq ~= tonumber(ARGV[6]) then return {'conflict', ''} end
local tcount = tonumber(ARGV[10])
local n = tonumber(ARGV[12])
local parts = {}
local i = 14 + tcount
for k = 1, n do
  local p = {expected = tonumber(ARGV[i]), snap = ARGV[i + 1], config = ARGV[i + 2],
             deadline = ARGV[i + 3], table = ARGV[i + 4], created = ARGV[i + 5],
             published = ARGV[i + 6], started = ARGV[i + 7], ended = ARGV[i + 8],
             record = tonumber(ARGV[i + 9]), keep = ARGV[i + 10], member = ARGV[i + 11],
             count = tonumber(ARGV[i + 12]), first = i + 13}
  local seq = tonumber(redis.call('HGET', KEYS[6 + 2 * k], 'seq') or '-1')
  if seq ~= p.expected then return {'conflict', p.table} end
  parts[k] = p
  i = p.first + p.count
end
local at = ARGV[5]
local last = {tseq}
if tcount > 0 then
  for e = 1, tcount do
    redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[4], (tseq + e) .. '-0',
      'e', ARGV[13 + e], 'a', at)
  end
  last[1] = tseq + tcount
  redis.call('HSET', KEYS[1], 'seq', last[1], 'hold', ARGV[8])
  if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'snap', ARGV[7], 'snap_seq', last[1]) end
  if ARGV[9] == '-' then
    redis.call('ZREM', KEYS[5], '')
  elseif ARGV[9] ~= '' then
    redis.call('ZADD', KEYS[5], ARGV[9], '')
  end
  publish(KEYS[4], ARGV[11])
end
for k = 1, n do
  local p = parts[k]
  local state, log = KEYS[6 + 2 * k], KEYS[7 + 2 * k]
  local seq = p.expected
  local before = false
  if p.started ~= '' then before = redis.call('HGET', state, 'snap') end
  if seq < 0 then
    redis.call('HSET', state, 'seq', 0, 'snap', p.snap, 'config', p.config)
    redis.call('SADD', KEYS[7], p.table)
    publish(KEYS[4], p.created)
    seq = 0
  end
  for e = 1, p.count do
    redis.call('XADD', log, 'MAXLEN', '~', ARGV[4], (seq + e) .. '-0',
      'e', ARGV[p.first + e - 1], 'a', at)
  end
  if p.started ~= '' or p.ended ~= '' then
    mark_hand(state, log, KEYS[p.record], KEYS[#KEYS], seq, p.started, p.ended, before, at,
      p.keep, p.member)
  end
  if p.count > 0 then
    redis.call('HSET', state, 'seq', seq + p.count, 'snap', p.snap)
    publish(KEYS[4], p.published)
  end
  if p.deadline == '-' then
    redis.call('ZREM', KEYS[5], p.table)
  elseif p.deadline ~= '' then
    redis.call('ZADD', KEYS[5], p.deadline, p.table)
  end
  last[k + 1] = seq + p.count
end
local origin = tonumber(ARGV[13]) + 1
redis.call('HSET', KEYS[3], ARGV[1], last[origin])
redis.call('SET', KEYS[6], ARGV[2], 'PX', ARGV[3])
return {'ok', tostring(last[origin])}
"""
)
"""KEYS: the tournament's state, log, the command ids of the step's origin (the tournament's or
the table's that sent the command), the events channel, the deadlines, the attempt's key, the
tournament's table set, then each table's state and log; then the record of each hand a
table's events end, and last, when there is one, the unfiled set (``server.archive_script``).

ARGV: command id, attempt token, its keep (ms), log length, commit time, the tournament's
expected number, snapshot (``''``: the one stored stays; a load replays the log after it),
hold, clock deadline (``''`` unchanged, ``'-'`` none, else ms), event count, published
message, the table count, the origin (0: the tournament, k: table k), the tournament's events;
then per table: expected number (-1: a new table), snapshot, config (new tables), clock
deadline, table id, its creation message, published message, the hand marks (a hand starts,
a hand ends), the index in KEYS of the ended hand's record (0: none), the archived hand's
keep (ms), its member of the unfiled set, event count, events; and last whether the batch
publishes the events after its ``WAIT`` (``server.batch``).
"""

CREATE = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if redis.call('SCARD', KEYS[3]) > 0 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1])
redis.call('HSET', KEYS[2], 'seq', 0, 'snap', ARGV[2], 'snap_seq', 0, 'structure', ARGV[3],
  'hold', ARGV[4])
return 1
"""


@dataclass
class TablePart:
    """One table's share of a step."""

    table: str
    expected: int
    """Its last event number the step was ruled on; -1 for a table the step creates."""
    snap: bytes
    published: bytes
    events: list[bytes]
    deadline: str = ""
    config: bytes = b""
    created: bytes = b""


@dataclass
class Step:
    """Everything one step commits."""

    tournament: str
    command_id: str
    origin: str
    """``TOURNAMENT_LOG`` or the table whose command this is: where the command id is kept."""
    expected: int
    snap: bytes
    hold: str
    deadline: str
    published: bytes
    events: list[bytes]
    at: float
    """The commit time (Unix seconds), as the published messages carry it."""
    tables: list[TablePart] = field(default_factory=list)
    clock: ClockView | None = None
    """The clock as the step leaves it, when the step changed it (published with its events)."""


def _last_events(step: Step) -> list[Mark]:
    """The number of the step's last event in each log it writes."""
    marks = [(TOURNAMENT_LOG, step.expected + len(step.events))] if step.events else []
    for part in step.tables:
        if part.events:
            marks.append((part.table, max(part.expected, 0) + len(part.events)))
    return marks


def _published(step: Step) -> list[tuple[str, bytes]]:
    """What the step's script publishes, in its order: the tournament's events, then each
    table's creation and events."""
    events_channel = channel(step.tournament)
    messages = [step.published] if step.events else []
    for part in step.tables:
        if part.expected < 0:
            messages.append(part.created)
        if part.events:
            messages.append(part.published)
    return [(events_channel, message) for message in messages]


@dataclass(frozen=True)
class StoredTournament:
    seq: int
    snap: bytes
    snap_seq: int
    """The event number the snapshot is as of: the log after it is replayed on load."""
    structure: bytes


class TournamentStore:
    def __init__(self, redis: Redis, batch: ScriptBatch | None = None) -> None:
        self.redis = redis
        self.batch = batch or ScriptBatch(redis)
        self.confirmations = Confirmations(redis, self.batch)
        self._add_timed = redis.register_script(ADD_TIMED)
        self.hand_keep_ms = hand_keep_ms()
        self.files = HandFiles(redis, HandFiles.directory_from_environment(), unfiled_key, hand_key)
        self._step = redis.register_script(STEP)
        self._create = redis.register_script(CREATE)

    async def create(
        self, tournament: str, name: str, snap: bytes, structure: bytes, hold: str
    ) -> bool:
        """False, changing nothing, when the tournament exists already (or has tables: they
        were made without the structure's level and seat pool)."""
        await self.batch(self._add_timed, [TIMED], [tournament])
        keys = [
            f"tw:{{{tournament}}}:meta",
            state_key(tournament, TOURNAMENT_LOG),
            tables_key(tournament),
        ]
        return bool(await self.batch(self._create, keys, [name, snap, structure, hold]))

    async def load(self, tournament: str) -> StoredTournament | None:
        fields = cast(
            list[bytes | None],
            await self.redis.hmget(
                state_key(tournament, TOURNAMENT_LOG), ["seq", "snap", "snap_seq", "structure"]
            ),
        )
        seq, snap, snap_seq, structure = fields
        if seq is None or snap is None:
            return None
        return StoredTournament(int(seq), snap, int(snap_seq or 0), structure or b"")

    async def name(self, tournament: str) -> str:
        found = await self.redis.hget(f"tw:{{{tournament}}}:meta", "name")
        return found.decode() if isinstance(found, bytes) else ""

    async def head(self, tournament: str) -> int:
        """The tournament log's last event number (0: none, or no tournament)."""
        found = await self.redis.hget(state_key(tournament, TOURNAMENT_LOG), "seq")
        return int(found) if found is not None else 0

    async def has_structure(self, tournament: str) -> bool:
        return bool(await self.redis.exists(state_key(tournament, TOURNAMENT_LOG)))

    async def commit(self, step: Step) -> Committed:
        """Commit the step. A ``conflict`` names, as its ``reason``, the table that moved on
        (empty: the tournament). A Redis timeout or lost connection raises: the script may
        have run."""
        t = step.tournament
        origin = 0
        keys = [
            state_key(t, TOURNAMENT_LOG),
            log_key(t, TOURNAMENT_LOG),
            commands_key(t, step.origin),
            channel(t),
            deadlines_key(t),
            attempt_key(t, step.origin, step.command_id),
            tables_key(t),
        ]
        parts: list[bytes | str | int] = []
        records: list[str] = []
        for k, part in enumerate(step.tables, start=1):
            keys += [state_key(t, part.table), log_key(t, part.table)]
            if part.table == step.origin:
                origin = k
            marks = hand_marks(part.events)
            record = 0
            if marks.ended:
                records.append(hand_key(t, part.table, marks.hand))
                record = 7 + 2 * len(step.tables) + len(records)
            parts += [
                part.expected,
                part.snap,
                part.config,
                part.deadline,
                part.table,
                part.created,
                part.published,
                marks.started,
                marks.ended,
                record,
                self.hand_keep_ms,
                unfiled_member(part.table, marks.hand),
                len(part.events),
                *part.events,
            ]
        if records:
            keys += [*records, unfiled_key(t)]
        args: list[bytes | str | int] = [
            step.command_id,
            secrets.token_hex(8),
            ATTEMPT_KEEP_MS,
            LOG_KEEP,
            repr(step.at),
            step.expected,
            step.snap,
            step.hold,
            step.deadline,
            len(step.events),
            step.published,
            len(step.tables),
            origin,
            *step.events,
            *parts,
        ]
        started = time.perf_counter()
        try:
            outcome, seq = await self.batch(self._step, keys, args, _published(step))
        except NotConfirmed:
            self.confirmations.later(t, step.origin, step.command_id, _last_events(step))
            raise
        metrics.COMMIT_SECONDS.observe(time.perf_counter() - started)
        if outcome == b"conflict":
            return Committed("conflict", -1, seq.decode())
        if outcome == b"ok":
            self.files.committed(t, bool(records))
        if outcome == b"duplicate":
            # The first commit's last event in its origin's log is known; in the other logs it
            # wrote, their last events (the fan-out fills what comes before).
            others = [(log, -1) for log, _ in _last_events(step) if log != step.origin]
            await self.confirmations.offer(t, [(step.origin, int(seq)), *others])
        return Committed(outcome.decode(), int(seq))
