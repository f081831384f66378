"""What the tournament says happened. Every event carries the 2026 TDA ``rules`` it applies and
a ``text`` a tournament director reads at a glance.

Some events are orders to tables: ``seated`` becomes the table's ``add_player``, ``moved`` its
``remove_player`` and ``add_player``, ``level_started`` a ``level`` at every table, ``chips_added``
(rebuy, add-on), ``chips_removed`` (chip penalty, forfeit) and ``disqualified`` its ``penalty``.
The service commits them with the table's events in one step.
"""

from __future__ import annotations

import msgspec

from protocol.tournament.tables import (
    AllInReleased,
    BreakAnnounced,
    BreakProposed,
    ButtonFrozen,
    ButtonUnfrozen,
    ChipRace,
    FinalTableAnnounced,
    FinalTableDrawn,
    FinalTableProposed,
    HandForHandEnded,
    HandForHandRound,
    HandForHandStarted,
    MoveConfirmed,
    MoveDismissed,
    MoveProposed,
    PlayStopped,
    StoppageEnded,
    StoppageWaived,
    TableBroken,
    TablesHeld,
    TablesReleased,
)


class _TournamentEvent(msgspec.Struct, frozen=True, tag_field="type", gc=False):
    """Base of every tournament event; ``type`` is its tag."""


class TableOpened(_TournamentEvent, tag="table_opened", frozen=True):
    table: str
    seats: int
    rules: list[str] = msgspec.field(default_factory=lambda: ["8"])
    text: str = ""
    button: int = 0
    """The seat of the table's first button (0: seat 1)."""


class TableClosed(_TournamentEvent, tag="table_closed", frozen=True):
    table: str
    text: str = ""


class Registered(_TournamentEvent, tag="registered", frozen=True):
    """A new entry: ``entry`` 1 for a registration, 2, 3 ... for re-entries; ``late`` after the
    clock started (9-A); ``alternate`` from the alternate list."""

    player: str
    name: str
    entry: int
    late: bool = False
    reentry: bool = False
    alternate: bool = False
    pool: int = 0
    """The prize pool with this entry (buy-ins, rebuys, add-ons; the guarantee not included)."""
    rules: list[str] = []
    text: str = ""


class Unregistered(_TournamentEvent, tag="unregistered", frozen=True):
    player: str
    table: str | None = None
    seat: int | None = None
    pool: int = 0
    text: str = ""


class AlternateListed(_TournamentEvent, tag="alternate_listed", frozen=True):
    player: str
    name: str
    position: int
    rules: list[str] = msgspec.field(default_factory=lambda: ["9-A"])
    text: str = ""


class Seated(_TournamentEvent, tag="seated", frozen=True):
    """A seat drawn from ``free`` seats with ``draw``: the table's ``add_player`` (8, 9-A, 11-A)."""

    player: str
    name: str
    entry: int
    table: str
    seat: int
    stack: int
    draw: int
    free: int
    rules: list[str] = []
    text: str = ""


class Moved(_TournamentEvent, tag="moved", frozen=True):
    """The player goes to ``table``/``seat`` with the whole stack (8). ``kind``: ``balance``
    (12-A, ``proposal``), ``break`` (11-B), ``final`` (RP-9), or empty (the floor's ``move``);
    ``by`` is who carried the chips of an ``absent`` player (RP-16)."""

    player: str
    from_table: str
    from_seat: int
    table: str
    seat: int
    rules: list[str] = msgspec.field(default_factory=lambda: ["8"])
    text: str = ""
    kind: str = ""
    proposal: int = 0
    absent: bool = False
    by: str = ""


class Eliminated(_TournamentEvent, tag="eliminated", frozen=True):
    """An entry is out. ``place`` is 0 until registration closes (places count the entries);
    ``tied`` names the entries sharing the places (equal starting stacks, 22)."""

    player: str
    entry: int
    table: str
    seat: int
    hand: int
    started: int = 0
    place: int = 0
    prize: int = 0
    tied: list[str] = []
    rules: list[str] = []
    text: str = ""
    h4h: int = 0
    """The hand-for-hand hand it went out in: placed when that hand is over at every table,
    sharing the places with every entry out in it (RP-8-A); 0 outside hand-for-hand."""


class Placed(_TournamentEvent, tag="placed", frozen=True):
    """The place (and prize) of an entry out before registration closed, known now."""

    player: str
    entry: int
    place: int
    prize: int = 0
    tied: list[str] = []
    rules: list[str] = []
    text: str = ""


class BountyWon(_TournamentEvent, tag="bounty", frozen=True):
    """A busted entry's bounty goes to who took its last chips; simultaneous busts go by the
    stack at the start of the hand (22)."""

    player: str
    entry: int
    to: list[str]
    amount: int
    rules: list[str] = msgspec.field(default_factory=lambda: ["22"])
    text: str = ""


class Winner(_TournamentEvent, tag="winner", frozen=True):
    player: str
    entry: int
    prize: int
    bounty: int = 0
    text: str = ""


class ClockStarted(_TournamentEvent, tag="clock_started", frozen=True):
    at: int
    text: str = ""


class LevelStarted(_TournamentEvent, tag="level_started", frozen=True):
    """Level ``level`` is in force from each table's next hand (25-A, 25-B): a hand already
    started finishes at the old level. ``ends_at`` is 0 for a level counted in hands."""

    level: int
    step: int
    blinds: tuple[int, int]
    ante: int = 0
    bba: bool = False
    min_bet: int = 0
    at: int = 0
    ends_at: int = 0
    hands: int = 0
    rules: list[str] = msgspec.field(default_factory=lambda: ["25-A", "25-B"])
    text: str = ""
    game: str = ""
    bring_in: int = 0
    """A stud level's bring-in (RP-10)."""
    """The level's game when the structure names one (mixed games, 12-B)."""


class BreakStarted(_TournamentEvent, tag="break_started", frozen=True):
    """No new hand starts until ``ends_at``; ``color_up`` names the chips raced off (26)."""

    step: int
    at: int
    ends_at: int
    color_up: list[int] = []
    rules: list[str] = []
    text: str = ""


class ClockPaused(_TournamentEvent, tag="clock_paused", frozen=True):
    at: int
    remaining: int
    text: str = ""


class ClockResumed(_TournamentEvent, tag="clock_resumed", frozen=True):
    at: int
    ends_at: int
    text: str = ""


class TimeChanged(_TournamentEvent, tag="time_changed", frozen=True):
    at: int
    ms: int
    ends_at: int
    remaining: int
    text: str = ""


class RegistrationClosed(_TournamentEvent, tag="registration_closed", frozen=True):
    """The payout table is fixed from the entries: ``prizes[0]`` is first place (shown before)."""

    at: int
    entries: int
    pool: int
    guarantee: int = 0
    prizes: list[int] = []
    rules: list[str] = msgspec.field(default_factory=lambda: ["9-A"])
    text: str = ""


class ChipsAdded(_TournamentEvent, tag="chips_added", frozen=True):
    """A rebuy or add-on: the seat plays its next hand holding ``chips`` more (29)."""

    player: str
    table: str
    seat: int
    chips: int
    kind: str
    price: int = 0
    pool: int = 0
    rules: list[str] = []
    text: str = ""


class ChipsRemoved(_TournamentEvent, tag="chips_removed", frozen=True):
    """Chips out of play: a chip penalty (74-A, RP-26), a forfeit (9-B), a color-up (26-C)."""

    player: str
    table: str
    seat: int
    chips: int
    kind: str
    reason: str = ""
    rules: list[str] = []
    text: str = ""


class Disqualified(_TournamentEvent, tag="disqualified", frozen=True):
    """The player is out without a place; the stack comes out of play (74-D, RP-23-A)."""

    player: str
    entry: int
    table: str | None
    seat: int | None
    chips: int
    reason: str = ""
    rules: list[str] = msgspec.field(default_factory=lambda: ["74-D", "RP-23-A"])
    text: str = ""


class AbsenceMarked(_TournamentEvent, tag="absence", frozen=True):
    """Absent (``absent``) or back: an absent player keeps posting until the chips are gone."""

    player: str
    absent: bool
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-23-B"])
    text: str = ""


class TimeBankUsed(_TournamentEvent, tag="time_bank_used", frozen=True):
    player: str
    seconds: int
    left: int
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-28"])
    text: str = ""


class HandCounted(_TournamentEvent, tag="hand_counted", frozen=True):
    """A table's hand ended: the stacks the tournament now knows for it."""

    table: str
    hand: int
    stacks: dict[int, int]
    dealt: list[int] = []
    text: str = ""
    button: int = 0
    small_blind: int = 0
    big_blind: int = 0
    waiting: list[int] = []
    """The next hand's button, small blind seat, big blind and seats not dealt (12-A, 12-D)."""


class ChipsMiscounted(_TournamentEvent, tag="chips_miscounted", frozen=True):
    """At a hand boundary the stacks of every table (each as of its last hand end) did not add
    up to the chips in play: a floor alert, with both counts. Nothing is changed by it; the
    floor counts down the tables."""

    table: str
    hand: int
    counted: int
    in_play: int
    text: str = ""


class TournamentError(_TournamentEvent, tag="tournament_error", frozen=True):
    """The command was refused; nothing changed. ``field`` names a bad field, ``rule`` a rule."""

    message: str
    code: str = "illegal"
    rule: str = ""
    field: str = ""


TournamentEvent = (
    TableOpened
    | TableClosed
    | Registered
    | Unregistered
    | AlternateListed
    | Seated
    | Moved
    | Eliminated
    | Placed
    | BountyWon
    | Winner
    | ClockStarted
    | LevelStarted
    | BreakStarted
    | ClockPaused
    | ClockResumed
    | TimeChanged
    | RegistrationClosed
    | ChipsAdded
    | ChipsRemoved
    | Disqualified
    | AbsenceMarked
    | TimeBankUsed
    | HandCounted
    | ChipsMiscounted
    | TournamentError
    | MoveProposed
    | MoveConfirmed
    | MoveDismissed
    | TablesHeld
    | TablesReleased
    | PlayStopped
    | StoppageWaived
    | StoppageEnded
    | ButtonFrozen
    | ButtonUnfrozen
    | BreakProposed
    | BreakAnnounced
    | TableBroken
    | FinalTableProposed
    | FinalTableAnnounced
    | FinalTableDrawn
    | HandForHandStarted
    | HandForHandRound
    | HandForHandEnded
    | AllInReleased
    | ChipRace
)
