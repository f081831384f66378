"""Archiving a hand inside the commit scripts: what the server tells them, and the Lua they share.

A table's log is trimmed (``LOG_KEEP``), so a multi-day event would lose its early hands. Every
hand is therefore copied out of the log by the very script that commits its ``hand_end``: the
copy and the commit are one Redis script, so no acknowledged hand can be trimmed away
unarchived, whatever happens to the server after the commit (kill -9 included).

The server marks the commits that matter, from the events it is about to append:

- a commit whose events hold a ``hand_start`` of a new hand number keeps, in the table's state
  hash, where the hand starts (``hand_from``), its number (``hand_no``) and the table as it was
  before it (``hand_base``, the snapshot the commit replaces: the engine's ``base``). A misdeal's
  re-deal, or the deal after a void hand, has the same number and changes nothing;
- a commit whose events hold a ``hand_end`` writes the hand's record
  (``tw:{T}:table:{id}:hand:{N}``: ``server.store.hand_key``) from the log (``hand_from``
  through the ``hand_end``), marks it for the hand files (``tw:{T}:hands:unfiled``) and, unless
  the hand was void (it is dealt again under its number), forgets the hand in play.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import msgspec


def seconds(text: str) -> int:
    """``30``, ``90s``, ``45m``, ``12h``, ``30d`` in seconds."""
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    if text[-1:] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


def hand_keep_ms() -> int:
    """How long Redis keeps an archived hand (``TABLEWIRE_HAND_KEEP``, read when a store is
    made); 0: until the tournament's keys are deleted. The hand files are kept regardless."""
    return seconds(os.environ.get("TABLEWIRE_HAND_KEEP", "0") or "0") * 1000


HAND_LUA = """
local function hand_started(state, seq, mark, before)
  local i, hand = string.match(mark, '^(%d+):(%d+)$')
  if redis.call('HGET', state, 'hand_no') ~= hand then
    redis.call('HSET', state, 'hand_no', hand, 'hand_from', seq + tonumber(i),
      'hand_base', before or '')
  end
end

local function hand_ended(state, log, record, unfiled, seq, mark, at, keep, member)
  local i, hand, void = string.match(mark, '^(%d+):(%d+):(%d)$')
  local last = seq + tonumber(i)
  local kept = redis.call('HMGET', state, 'hand_no', 'hand_from', 'hand_base')
  local from, base = last, ''
  if kept[1] == hand then from, base = tonumber(kept[2]), kept[3] end
  local entries = redis.call('XRANGE', log, from .. '-0', last .. '-0')
  local events = {}
  for k, entry in ipairs(entries) do events[k] = entry[2][2] end
  local first = last
  if entries[1] then first = tonumber(string.match(entries[1][1], '^(%d+)')) end
  redis.call('HSET', record, 'hand', hand, 'from', from, 'first', first, 'last', last,
    'at', at, 'void', void, 'base', base, 'events', '[' .. table.concat(events, ',') .. ']')
  if tonumber(keep) > 0 then
    redis.call('PEXPIRE', record, keep)
  else
    redis.call('PERSIST', record)
  end
  redis.call('SADD', unfiled, member)
  if void == '0' then redis.call('HDEL', state, 'hand_no', 'hand_from', 'hand_base') end
end

local function mark_hand(state, log, record, unfiled, seq, started, ended, before, at, keep,
                         member)
  local s = tonumber(string.match(started, '^(%d+)') or '0')
  local e = tonumber(string.match(ended, '^(%d+)') or '0')
  if e > 0 and e < s then
    hand_ended(state, log, record, unfiled, seq, ended, at, keep, member)
    e = 0
  end
  if s > 0 then hand_started(state, seq, started, before) end
  if e > 0 then hand_ended(state, log, record, unfiled, seq, ended, at, keep, member) end
end
"""
"""Prepended to the commit scripts. ``mark_hand`` runs after the commit's events are appended
(the hand's record reads them back from the log); ``before`` is the table's snapshot as it was
before the commit, read by the script before it replaced it."""


class _Numbered(msgspec.Struct):
    hand: int
    void: bool = False


_numbered = msgspec.json.Decoder(_Numbered)
_START = b'{"type":"hand_start"'
_END = b'{"type":"hand_end"'


@dataclass(frozen=True)
class HandMarks:
    """What a commit's events do to the hand in play, as the scripts read it: ``started`` is
    ``"i:N"`` (event i of the commit, counting from 1, starts hand N), ``ended`` ``"i:N:v"``
    (event i ends hand N, v 1 when void); empty when the commit does neither."""

    started: str = ""
    ended: str = ""
    hand: int = 0
    """The hand number ended (0: none): its record's key goes with the commit."""


NO_MARKS = HandMarks()


def hand_marks(events: list[bytes]) -> HandMarks:
    """The marks of one table's events (JSON as the log keeps them: the tag comes first)."""
    started = ended = ""
    hand = 0
    for i, event in enumerate(events, 1):
        if not started and event.startswith(_START):
            started = f"{i}:{_numbered.decode(event).hand}"
        elif event.startswith(_END):
            end = _numbered.decode(event)
            ended, hand = f"{i}:{end.hand}:{int(end.void)}", end.hand
    if not started and not ended:
        return NO_MARKS
    return HandMarks(started, ended, hand)


def unfiled_member(table: str, hand: int) -> str:
    """A hand waiting for its file, in ``tw:{T}:hands:unfiled``: ``N:table``."""
    return f"{hand}:{table}"
