"""The websocket protocol between the stations and the server.

Every frame is one JSON object tagged by ``type``: ``ClientMessage`` from a station,
``ServerMessage`` from the server. Engine commands and events travel inside them unchanged —
the same types the replay tool reads and prints.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from protocol.commands import Command
from protocol.config import TableConfig
from protocol.tournament.commands import TournamentCommand
from protocol.tournament.structure import Structure
from protocol.tournament.views import ClockView, TournamentView
from protocol.types import Id, Nonce, Seq, Text
from protocol.views import AnyTableView

HandNo = Annotated[int, msgspec.Meta(ge=1, le=2**53)]
"""A hand's number at its table (the first hand is 1)."""


class _Message(
    msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True, omit_defaults=True
):
    """Base of every websocket message."""


# --- station -> server ---------------------------------------------------------------------


class Hello(_Message, tag="hello", frozen=True):
    """The first frame: the station's signed token (see ``tablewire token``)."""

    token: str


class Subscribe(_Message, tag="subscribe", frozen=True):
    """Follow a table (``table``) or a whole tournament (no ``table``).

    ``since`` is the last sequence number the station saw of that table (0: none); for a
    tournament, ``tables_since`` maps table ids to their last sequence numbers. A tournament
    subscriber is also sent a snapshot of every table created later.
    """

    tournament: Id
    table: Id | None = None
    since: Seq = 0
    tables_since: dict[Id, Seq] = {}
    snapshot: bool = False
    """Start from a snapshot of each table (its seats, stacks and prompt), then live events;
    ``since: -1`` asks the same for one table."""
    tournament_since: Seq = -1
    """A whole tournament that has a structure: the last tournament event the station saw
    (-1: start from a ``tournament_snapshot``). Every subscriber of such a tournament, of a
    table or of the whole, is also sent its ``clock``."""


class Unsubscribe(_Message, tag="unsubscribe", frozen=True):
    tournament: Id
    table: Id | None = None


class Send(_Message, tag="command", frozen=True):
    """A command for a table. ``id`` is the station's command id: sending the same id again
    returns the original result instead of applying the command twice."""

    id: Id
    tournament: Id
    table: Id
    command: Command
    after: Seq | None = None
    """Apply only if the table's last event is still number ``after``: a station that acted on
    an older view of the table is told its command is stale instead of having it misread."""


class CreateTournament(_Message, tag="create_tournament", frozen=True):
    """A new tournament; with a ``structure`` it is a tournament the service runs (clock,
    registration and seating, eliminations and payouts), without one a set of tables."""

    id: Id
    tournament: Id
    name: Text = ""
    structure: Structure | None = None


class SendTournament(_Message, tag="tournament_command", frozen=True):
    """A command for a tournament that has a structure. Like ``command``, ``id`` makes it
    idempotent. The service stamps ``at`` with its own clock and draws the seat of a new entry
    (``register``, ``reenter``) itself; the tables it touches change in the same commit."""

    id: Id
    tournament: Id
    command: TournamentCommand


class CreateTable(_Message, tag="create_table", frozen=True):
    id: Id
    tournament: Id
    table: Id
    config: TableConfig


class Ping(_Message, tag="ping", frozen=True):
    nonce: Nonce = 0


class FetchHand(_Message, tag="fetch_hand", frozen=True):
    """An archived hand of a table, by its number (the floor and the admin): answered ``hand``,
    or ``error`` ``unknown_hand``."""

    id: Id
    tournament: Id
    table: Id
    hand: HandNo


ClientMessage = (
    Hello
    | Subscribe
    | Unsubscribe
    | Send
    | SendTournament
    | CreateTournament
    | CreateTable
    | Ping
    | FetchHand
)


# --- server -> station ---------------------------------------------------------------------


class Welcome(_Message, tag="welcome", frozen=True):
    role: str
    tournament: str
    table: str | None = None
    server: str = ""
    heartbeat: float = 15.0


class Events(_Message, tag="events", frozen=True):
    """Events of one table, numbered: ``seq`` is the number of the first, the rest follow."""

    tournament: str
    table: str
    seq: int
    events: list[Any]


class Snapshot(_Message, tag="snapshot", frozen=True):
    """The table as of ``seq``, sent when the events a station missed are no longer kept.

    ``state`` is the typed view of :mod:`protocol.views`: the public variant for displays."""

    tournament: str
    table: str
    seq: int
    state: AnyTableView


class Ack(_Message, tag="ack", frozen=True):
    """A command was applied and stored: ``seq`` is the table's last event number after it."""

    id: str
    tournament: str
    table: str
    seq: int
    duplicate: bool = False


class Error(_Message, tag="error", frozen=True):
    """A frame or command was refused; nothing changed. ``field`` is the path of a bad field."""

    code: str
    message: str
    id: str | None = None
    field: str | None = None
    rule: str | None = None


class Resync(_Message, tag="resync", frozen=True):
    """The station fell behind: it must reconnect and subscribe again from its last ``seq``."""

    reason: str


class Pong(_Message, tag="pong", frozen=True):
    nonce: Nonce = 0


class TournamentEvents(_Message, tag="tournament_events", frozen=True):
    """Events of a tournament's own log, numbered like a table's: ``seq`` is the first's."""

    tournament: str
    seq: int
    events: list[Any]


class TournamentSnapshot(_Message, tag="tournament_snapshot", frozen=True):
    """The tournament as of its event ``seq``: the typed view of
    :mod:`protocol.tournament.views`."""

    tournament: str
    seq: int
    state: TournamentView


class HandArchived(_Message, tag="hand", frozen=True):
    """An archived hand, as the hand files hold it (README: "The hand file format"): its
    events, the table before it, its commands and its PHH."""

    id: str
    tournament: str
    table: str
    hand: int
    record: Any


class Clock(_Message, tag="clock", frozen=True):
    """The tournament clock, sent on subscribing and whenever it changes; ``clock.now`` is the
    server's time, so a screen counts down by itself."""

    clock: ClockView


ServerMessage = (
    Welcome
    | Events
    | Snapshot
    | Ack
    | Error
    | Resync
    | Pong
    | TournamentEvents
    | TournamentSnapshot
    | Clock
    | HandArchived
)

client_decoder = msgspec.json.Decoder(ClientMessage)
server_decoder = msgspec.json.Decoder(ServerMessage)
encoder = msgspec.json.Encoder()
