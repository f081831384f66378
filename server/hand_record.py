"""An archived hand as a document: what the floor fetches, what the hand files hold, and what
``tablewire replay`` plays again.

The Redis record (``server.archive_script``) keeps the hand's events and the table before the
hand (the engine's snapshot). The document adds what follows from them: the commands of the
hand as the engine recorded them (``history``, what a misdeal or a correction plays again from
the table before the hand: the deal with its hole cards and every recorded dealer or floor
command) and the hand in PHH, or why PHH has no words for it. Replaying the commands from
``state`` through the engine gives the hand's events again, ending in the same ``hand_end``.

Limits, said in the document rather than hidden: ``complete`` is false when the hand outlived
the log's trim before it ended (its first events are gone: a hand longer than
``TABLEWIRE_LOG_KEEP`` events); a player seated or an order of the tournament during the hand
is in the events but not among the recorded commands.
"""

from __future__ import annotations

from typing import Any

import msgspec

from protocol.commands import Command
from protocol.events import Event, HandEnd
from server.engine import TableState, apply, evolve
from server.phh_export import Inexpressible, to_phh

FORMAT = "tablewire-hand/1"
"""The ``format`` of a hand document: how ``tablewire replay`` tells one from a scenario."""


class HandRecord(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """One archived hand (README: "The hand file format")."""

    format: str = FORMAT
    tournament: str
    table: str
    hand: int
    void: bool = False
    at: float = 0.0
    """When its ``hand_end`` was committed (Unix seconds)."""
    first: int
    """The number of its first event in the table's log."""
    last: int
    """The number of its ``hand_end``."""
    complete: bool = True
    """Every event from the hand's start is here (false: the log was trimmed before its end)."""
    state: TableState | None = None
    """The table before the hand: the engine's state (its snapshot format, as JSON)."""
    commands: list[Command] = []
    events: list[msgspec.Raw] = []
    """The hand's events as the log had them."""
    phh: str = ""
    """The hand in PHH (every game PHH has a variant for), or empty with ``phh_refused``
    saying why."""
    phh_refused: str = ""


_state = msgspec.msgpack.Decoder(TableState)
_events = msgspec.json.Decoder(list[Event])
_raw_events = msgspec.json.Decoder(list[msgspec.Raw])
_record = msgspec.json.Decoder(HandRecord)
_json = msgspec.json.Encoder()


def from_redis(tournament: str, table: str, fields: dict[bytes, bytes]) -> HandRecord:
    """The document of a record as the commit script wrote it (``HGETALL``)."""
    events = fields.get(b"events", b"[]")
    base = _state.decode(fields[b"base"]) if fields.get(b"base") else None
    typed = _events.decode(events)
    record = HandRecord(
        tournament=tournament,
        table=table,
        hand=int(fields[b"hand"]),
        void=fields.get(b"void") == b"1",
        at=float(fields.get(b"at", b"0")),
        first=int(fields[b"first"]),
        last=int(fields[b"last"]),
        complete=fields.get(b"first") == fields.get(b"from"),
        state=base,
        commands=recorded_commands(base, typed) if base is not None else [],
        events=_raw_events.decode(events),
    )
    if base is None or not record.complete:
        record.phh_refused = "the start of the hand is not archived"
        return record
    try:
        record.phh = to_phh(base, typed, tournament, table)
    except Inexpressible as refused:
        record.phh_refused = str(refused)
    return record


def recorded_commands(base: TableState, events: list[Event]) -> list[Command]:
    """The hand's commands as the engine recorded them, read off its events: the table before
    the hand, evolved up to the last ``hand_end``, holds them (``history``)."""
    state = base.clone()
    stop = max((i for i, e in enumerate(events) if isinstance(e, HandEnd)), default=len(events))
    for event in events[:stop]:
        evolve(state, event)
    return list(state.history)


def replay(record: HandRecord) -> list[Event]:
    """The hand's commands applied again from the table before it: its events, re-derived."""
    if record.state is None:
        return []
    state = record.state
    produced: list[Event] = []
    for command in record.commands:
        state, events = apply(state, command)
        produced.extend(events)
    return produced


def is_hand_document(data: bytes) -> bool:
    """Whether a replay file is an archived hand (its ``format`` says so)."""
    try:
        head = msgspec.json.decode(data, type=dict[str, Any])
    except msgspec.DecodeError:
        return False
    return head.get("format") == FORMAT


def decode(data: bytes) -> HandRecord:
    return _record.decode(data)


def encode(record: HandRecord) -> bytes:
    return _json.encode(record)
