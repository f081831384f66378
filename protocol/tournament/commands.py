"""What the TD, the floor and the service tell a tournament: its commands.

Time and random draws are inputs: ``at`` (ms) is the time the command happened, ``draw`` the
random number a seat draw uses (8, 9-A), so a replay gives the same seats. Facts the tables
know (busted seats, stacks at the start of a hand) come in the commands that report them.
Every command may name its ``tournament``; one naming another tournament is refused.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from protocol.tournament.structure import TableSize
from protocol.tournament.tables import (
    BreakTable,
    ConfirmMove,
    DismissMove,
    FinalTable,
    ReleaseAllIn,
    ReleaseTables,
    StartHandForHand,
    WaiveStoppage,
)
from protocol.types import Chips, Id, Millis, SeatNo, Text

PlayerId = Id
TableId = Id
Draw = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
Delta = Annotated[int, msgspec.Meta(ge=-(10**9), le=10**9)]
Position = Annotated[int, msgspec.Meta(ge=0, le=10)]
"""A seat number, 0 when there is none (a table that has not dealt a hand)."""


class _TournamentCommand(
    msgspec.Struct,
    frozen=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
    kw_only=True,
    gc=False,
):
    """Base of every tournament command; ``type`` is its tag."""

    tournament: Id | None = None


class OpenTable(_TournamentCommand, tag="open_table", frozen=True):
    """A table joins the tournament: its seats 1..``seats`` join the seat pool (8)."""

    table: TableId
    seats: TableSize = 9
    button: SeatNo = 1
    """The seat of the first button."""


class CloseTable(_TournamentCommand, tag="close_table", frozen=True):
    """An empty table leaves the tournament and its seats leave the pool."""

    table: TableId


class Register(_TournamentCommand, tag="register", frozen=True):
    """A player buys in (entry 1); after the clock starts this is a late registration (9-A)."""

    player: PlayerId
    name: Text = ""
    at: Millis = 0


class Unregister(_TournamentCommand, tag="unregister", frozen=True):
    """A player who has not played a hand is refunded; a drawn seat returns to the pool."""

    player: PlayerId


class Alternate(_TournamentCommand, tag="alternate", frozen=True):
    """A player joins the alternate list; seated in list order, with a full stack (9-A)."""

    player: PlayerId
    name: Text = ""


class Reenter(_TournamentCommand, tag="reenter", frozen=True):
    """A new entry (a full stack, a new random seat, 9-A); with ``forfeit`` a player still
    holding chips gives them up, and they come out of play (9-B)."""

    player: PlayerId
    at: Millis = 0
    forfeit: bool = False


class SeatPlayer(_TournamentCommand, tag="seat", frozen=True):
    """Draw the player's table and seat from the seat pool with the random input ``draw``."""

    player: PlayerId
    draw: Draw


class MovePlayer(_TournamentCommand, tag="move", frozen=True):
    """The player moves, with the whole stack, to ``table``/``seat``: a player found at the wrong
    seat goes to the right one (8)."""

    player: PlayerId
    table: TableId
    seat: SeatNo


class HandEnded(_TournamentCommand, tag="hand_ended", frozen=True):
    """A table's ``hand_end``, as the tournament needs it: the stacks, the busted seats, the
    stacks at the start of the hand (after antes where the big blind ante is played: 22) and
    who took each busted seat's last chips (its bounty)."""

    table: TableId
    hand: int
    stacks: dict[SeatNo, Chips]
    busted: list[SeatNo] = []
    started: dict[SeatNo, Chips] = {}
    takers: dict[SeatNo, list[SeatNo]] = {}
    at: Millis = 0
    button: Position = 0
    """Where the next hand's button goes (34, 36-B), computed from the table by the driver."""
    small_blind: Position = 0
    """The seat of the next hand's small blind — the last big blind's seat, empty for a dead
    small blind (34)."""
    big_blind: Position = 0
    """The seat that posts the next big blind: the player next to be the big blind (12-A)."""
    waiting: list[SeatNo] = []
    """Seats not dealt the next hand: new players between the small blind and the button
    (9-A, 11-A)."""


class Rebuy(_TournamentCommand, tag="rebuy", frozen=True):
    """A rebuy announced before the table's next hand: it plays that hand holding the chips (29)."""

    player: PlayerId


class AddOn(_TournamentCommand, tag="add_on", frozen=True):
    """A player takes the structure's add-on."""

    player: PlayerId


class StartClock(_TournamentCommand, tag="start_clock", frozen=True):
    """Level 1 starts now (25-A)."""

    at: Millis = 0


class PauseClock(_TournamentCommand, tag="pause", frozen=True):
    at: Millis = 0


class ResumeClock(_TournamentCommand, tag="resume", frozen=True):
    at: Millis = 0


class AddTime(_TournamentCommand, tag="add_time", frozen=True):
    """Add (or, negative, remove) ``ms`` to the time left in the level or break."""

    ms: Delta
    at: Millis = 0


class NextLevel(_TournamentCommand, tag="next_level", frozen=True):
    """The floor moves the clock to the next level or break now."""

    at: Millis = 0


class PreviousLevel(_TournamentCommand, tag="previous_level", frozen=True):
    """The floor moves the clock back to the start of the previous step."""

    at: Millis = 0


class Tick(_TournamentCommand, tag="time", frozen=True):
    """The time now: a level or break whose time ran out ends and the next one starts (25-A)."""

    at: Millis = 0


class CloseRegistration(_TournamentCommand, tag="close_registration", frozen=True):
    """Registration closes: the payout table is fixed from the entries (and shown)."""

    at: Millis = 0


class MarkAbsent(_TournamentCommand, tag="absent", frozen=True):
    """The player has left the table; the chips keep posting until they are gone (RP-23-B)."""

    player: PlayerId


class MarkReturned(_TournamentCommand, tag="returned", frozen=True):
    player: PlayerId


class ChipPenalty(_TournamentCommand, tag="chip_penalty", frozen=True):
    """Chips taken from the player's stack and out of play (74-A, RP-26)."""

    player: PlayerId
    chips: Chips
    reason: Text = ""


class Disqualify(_TournamentCommand, tag="disqualify", frozen=True):
    """The player is disqualified; the chips come out of play (74-D, RP-23-A)."""

    player: PlayerId
    reason: Text = ""


class ColorUp(_TournamentCommand, tag="color_up", frozen=True):
    """After a chip race, the leftover chips (worth less than the smallest chip left) that
    came off each seat at ``table``, without compensation (26-C) — or, with ``draw``, the race
    itself run by the tournament from each seat's ``odd`` chips (26-A, 26-C)."""

    table: TableId
    removed: dict[SeatNo, Chips] = {}
    odd: dict[SeatNo, Chips] = {}
    """The race (26-A): what each seat holds in the raced denominations, as the dealer records
    it (a seat not named holds its stack's remainder below the new smallest chip)."""
    draw: Draw | None = None
    """With ``draw`` the tournament runs the race itself: the random input of its cards."""


class UseTimeBank(_TournamentCommand, tag="time_bank", frozen=True):
    """The player plays a time-bank card (RP-28)."""

    player: PlayerId


TournamentCommand = (
    OpenTable
    | CloseTable
    | Register
    | Unregister
    | Alternate
    | Reenter
    | SeatPlayer
    | MovePlayer
    | HandEnded
    | Rebuy
    | AddOn
    | StartClock
    | PauseClock
    | ResumeClock
    | AddTime
    | NextLevel
    | PreviousLevel
    | Tick
    | CloseRegistration
    | MarkAbsent
    | MarkReturned
    | ChipPenalty
    | Disqualify
    | ColorUp
    | UseTimeBank
    | ConfirmMove
    | DismissMove
    | WaiveStoppage
    | BreakTable
    | FinalTable
    | StartHandForHand
    | ReleaseTables
    | ReleaseAllIn
)
