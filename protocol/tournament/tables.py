"""The tournament across its tables: the commands and events of balancing and stoppage (12-A,
12-B, 12-D), table breaks (11-B, 12-C, RP-16), hand-for-hand (RP-8), the final table (RP-9) and
the chip race (26-A, 26-C). Part of the tournament's protocol; the same contract (extended,
never renamed).

Some facts only the tables know: which of them has a hand in play. A command that must wait for
a table to be between hands carries ``playing``, the tables with a hand in play when it was
given — filled by the replay driver or the service from the tables (``tournament_glue.stamp``),
never by a station, the way ``hand_ended`` carries a table's hand end.

Events marked staff-only (:data:`STAFF_ONLY`) are for the floor's screens: the order in which
tables break is never announced (12-C), so a public view drops them (:func:`public`).
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from protocol.types import Id, Millis, SeatNo, Text

TableId = Id
Draw = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]
Proposal = Annotated[int, msgspec.Meta(ge=1, le=10**9)]


class _Command(
    msgspec.Struct,
    frozen=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
    kw_only=True,
    gc=False,
):
    tournament: Id | None = None


class _Event(msgspec.Struct, frozen=True, tag_field="type", gc=False):
    pass


# --- commands -------------------------------------------------------------------------------


class ConfirmMove(_Command, tag="confirm_move", frozen=True):
    """The floor confirms balancing proposal ``proposal``, or changes it: ``player`` (who moves)
    and ``seat`` (where, at the proposal's table) override the proposal. The move is made at
    once when both tables are between hands, else when the last of their hands ends (12-A)."""

    proposal: Proposal
    player: Id | None = None
    seat: SeatNo | None = None
    playing: list[TableId] = []
    at: Millis = 0


class DismissMove(_Command, tag="dismiss_move", frozen=True):
    """The floor turns a balancing proposal down (or takes back a confirmed move not yet made)."""

    proposal: Proposal
    reason: Text = ""


class WaiveStoppage(_Command, tag="waive_stoppage", frozen=True):
    """The TD waives a table's stoppage (12-D): play goes on; a waiver is not a misdeal."""

    table: TableId
    by: Text = ""
    reason: Text = ""


class BreakTable(_Command, tag="break_table", frozen=True):
    """The floor breaks ``table``: its players get new tables and seats by the two-step random
    procedure (11-B, addendum 11). ``shuffle`` shuffles the free seat cards into a pile, ``deal``
    deals each player a card face up; from the highest card (suits counting) each takes the next
    seat card. ``staff`` names who moves the chips of players away from the table (RP-16)."""

    table: TableId
    shuffle: Draw
    deal: Draw
    staff: Text = ""
    playing: list[TableId] = []
    at: Millis = 0


class FinalTable(_Command, tag="final_table", frozen=True):
    """The last tables come together at ``table`` (RP-9): ``draw`` draws every player's seat,
    ``button_draw`` deals the high card for the button when the structure draws for it."""

    table: TableId
    draw: Draw
    button_draw: Draw = 0
    playing: list[TableId] = []
    at: Millis = 0


class StartHandForHand(_Command, tag="hand_for_hand", frozen=True):
    """The floor announces hand-for-hand (``on``), or ends it: "finish the hand you are playing
    and wait; we are going hand-for-hand". Prize eligibility starts now (RP-8-A)."""

    on: bool = True
    playing: list[TableId] = []
    at: Millis = 0


class ReleaseTables(_Command, tag="release_hands", frozen=True):
    """Hand-for-hand: the floor starts the next hand at every table (all of them have finished)."""

    at: Millis = 0


class ReleaseAllIn(_Command, tag="release_cards", frozen=True):
    """Hand-for-hand: the floor lets the all-in at ``table`` be turned up and dealt (RP-8-F)."""

    table: TableId


# --- events ---------------------------------------------------------------------------------


class MoveProposed(_Event, tag="move_proposed", frozen=True):
    """A balancing move for the floor to confirm, change or dismiss: ``player`` (the next big
    blind at ``from_table``) to ``seat`` at ``table``, the seat there that takes the big blind
    soonest, never the small blind (12-A). ``counts`` are the tables' players; ``revised`` when
    the tables' hands have moved the blinds since it was first proposed."""

    proposal: int
    from_table: str
    from_seat: int
    player: str
    table: str
    seat: int
    reason: str
    counts: dict[str, int] = {}
    revised: bool = False
    rules: list[str] = msgspec.field(default_factory=lambda: ["12-A"])
    text: str = ""


class MoveConfirmed(_Event, tag="move_confirmed", frozen=True):
    """The floor confirmed a move that waits for ``waiting`` to finish their hands."""

    proposal: int
    player: str | None = None
    seat: int | None = None
    waiting: list[str] = []
    rules: list[str] = msgspec.field(default_factory=lambda: ["12-A"])
    text: str = ""


class MoveDismissed(_Event, tag="move_dismissed", frozen=True):
    """A proposal or a confirmed move that will not be made; ``by`` is empty when the
    tournament withdrew it itself (the tables balanced on their own, the player is out)."""

    proposal: int
    reason: str = ""
    by: str = ""
    text: str = ""


class TablesHeld(_Event, tag="tables_held", frozen=True):
    """An order: no new hand at ``tables`` until ``hold`` is released (a hand in play finishes)."""

    hold: str
    tables: list[str]
    reason: str = ""
    rules: list[str] = []
    text: str = ""


class TablesReleased(_Event, tag="tables_released", frozen=True):
    """An order: the hold ``hold`` at ``tables`` is over."""

    hold: str
    tables: list[str]
    text: str = ""


class PlayStopped(_Event, tag="play_stopped", frozen=True):
    """A table ``short`` players short of the fullest table stops: its blinds are affected
    (12-D). It waits for a move, or the TD's waiver."""

    table: str
    players: int
    fullest: int
    short: int
    reason: str = ""
    rules: list[str] = msgspec.field(default_factory=lambda: ["12-D"])
    text: str = ""


class StoppageWaived(_Event, tag="stoppage_waived", frozen=True):
    """The TD waived a table's stoppage: play goes on, and the waiver is not a misdeal (12-D)."""

    table: str
    by: str = ""
    reason: str = ""
    rules: list[str] = msgspec.field(default_factory=lambda: ["12-D"])
    text: str = ""


class StoppageEnded(_Event, tag="stoppage_ended", frozen=True):
    """The table is no longer short enough to stop (12-D)."""

    table: str
    rules: list[str] = msgspec.field(default_factory=lambda: ["12-D"])
    text: str = ""


class ButtonFrozen(_Event, tag="button_frozen", frozen=True):
    """Mixed games: the game goes from hold'em to stud; each table's button stays where it would
    be for the next hold'em hand (``buttons``) until hold'em comes back (12-B)."""

    buttons: dict[str, int]
    game: str = ""
    rules: list[str] = msgspec.field(default_factory=lambda: ["12-B"])
    text: str = ""


class ButtonUnfrozen(_Event, tag="button_unfrozen", frozen=True):
    """Hold'em again: each table's button starts where it was frozen (12-B)."""

    buttons: dict[str, int]
    rules: list[str] = msgspec.field(default_factory=lambda: ["12-B"])
    text: str = ""


class BreakProposed(_Event, tag="break_proposed", frozen=True):
    """Staff only: the next table to break by the predetermined order (12-C), which is never
    announced; ``free`` seats at the other tables take its ``players``."""

    table: str
    players: int
    free: int
    reason: str = ""
    rules: list[str] = msgspec.field(default_factory=lambda: ["12-C"])
    text: str = ""


class BreakAnnounced(_Event, tag="break_announced", frozen=True):
    """A break that waits for ``waiting`` to finish their hands; ``pile`` is the shuffled seat
    cards ``[table, seat]`` (11-B), drawn now with ``shuffle``; the players' cards are dealt when
    the break is made, with ``deal``."""

    table: str
    pile: list[tuple[str, int]]
    shuffle: int
    deal: int
    staff: str = ""
    waiting: list[str] = []
    rules: list[str] = msgspec.field(default_factory=lambda: ["11-B"])
    text: str = ""


class TableBroken(_Event, tag="table_broken", frozen=True):
    """The two-step draw of a break (11-B, addendum 11): the seat cards shuffled into ``pile``
    with ``shuffle``; ``cards`` dealt face up to the players with ``deal``; from the highest card
    (suits counting) each took the next seat card: ``seats`` [table, seat]. The ``moved`` events
    that follow carry each player there (11-A, RP-16)."""

    table: str
    pile: list[tuple[str, int]]
    cards: dict[str, str]
    seats: dict[str, tuple[str, int]]
    shuffle: int = 0
    deal: int = 0
    staff: str = ""
    rules: list[str] = msgspec.field(default_factory=lambda: ["11-B"])
    text: str = ""


class FinalTableProposed(_Event, tag="final_table_proposed", frozen=True):
    """The players left fit one final table of ``size`` (RP-9): the floor brings them together."""

    tables: list[str]
    players: int
    size: int
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-9"])
    text: str = ""


class FinalTableAnnounced(_Event, tag="final_table_announced", frozen=True):
    """The final table waits for ``waiting`` to finish their hands; its draws are recorded and
    made when they have (RP-9)."""

    table: str
    draw: int
    button_draw: int = 0
    waiting: list[str] = []
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-9"])
    text: str = ""


class FinalTableDrawn(_Event, tag="final_table", frozen=True):
    """Every player left drawn to a seat of ``table`` with ``draw``; ``came_from`` [table, seat]
    where each sat; the button on ``button`` by the structure's policy (``button_by``: a high
    card ``cards`` dealt with ``button_draw``, or the big blind's continuity) (RP-9)."""

    table: str
    seats: dict[str, int]
    came_from: dict[str, tuple[str, int]]
    button: int
    button_by: str
    draw: int = 0
    button_draw: int = 0
    cards: dict[str, str] = {}
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-9"])
    text: str = ""


class HandForHandStarted(_Event, tag="hand_for_hand", frozen=True):
    """Hand-for-hand (RP-8): every table of ``tables`` plays hand-for-hand; ``waiting`` are
    still in the hand they were playing (the first hand-for-hand hand, RP-8-A). Prize
    eligibility starts now; the clock stops and loses ``minutes`` each hand (RP-8-B/C/D)."""

    at: int
    tables: list[str]
    waiting: list[str] = []
    players: int = 0
    paid: int = 0
    minutes: int = 2
    paused: bool = False
    """The announcement stopped the clock (it runs again when hand-for-hand ends)."""
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-8-A", "RP-8-B", "RP-8-C"])
    text: str = ""


class HandForHandRound(_Event, tag="hand_for_hand_hand", frozen=True):
    """Hand-for-hand hand ``hand`` is over at every table: ``out`` (entries out in it, across
    tables, share their places' prizes, RP-8-A); the next one starts at ``tables`` when they
    are released (``released``: at once; else by the floor's ``release_hands``)."""

    hand: int
    at: int
    out: list[str] = []
    tables: list[str] = []
    released: bool = True
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-8"])
    text: str = ""


class HandForHandEnded(_Event, tag="hand_for_hand_ended", frozen=True):
    at: int
    tables: list[str] = []
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-8"])
    text: str = ""


class AllInReleased(_Event, tag="all_in_released", frozen=True):
    """An order: the hand-for-hand all-in at ``table`` is turned up and dealt on (RP-8-F)."""

    table: str
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-8-F"])
    text: str = ""


class ChipRace(_Event, tag="chip_race", frozen=True):
    """A color-up's race at ``table`` (26-A, 26-C). Each seat's ``odd`` chips (what is left in the
    raced denominations once they are exchanged at full value for ``unit`` chips) race: a card
    dealt face up to each, from seat 1 (``cards``, with ``draw``); the highest cards, suits
    counting, win one ``unit`` chip each (``winners``, at most one a player) for as many whole
    units as the odd chips make; a player who would lose the last chip gets one (``rescued``,
    26-A); the ``remainder`` below a unit leaves play without compensation (26-C). ``removed``
    and ``won`` are what each seat gives and gets; ``chips`` the denominations in play now."""

    table: str
    unit: int
    chips: list[int]
    odd: dict[int, int]
    cards: dict[int, str]
    winners: list[int]
    rescued: list[int]
    removed: dict[int, int]
    won: dict[int, int]
    remainder: int
    draw: int = 0
    rules: list[str] = msgspec.field(default_factory=lambda: ["26-A", "26-C"])
    text: str = ""


STAFF_ONLY = frozenset({"break_proposed"})
"""Events a public view never shows: the break order (12-C)."""


def public(event: msgspec.Struct) -> bool:
    """Whether a tournament event may be shown to the room (displays, the clock screen)."""
    return type(event).__struct_config__.tag not in STAFF_ONLY


__all__ = [
    "STAFF_ONLY",
    "AllInReleased",
    "BreakAnnounced",
    "BreakProposed",
    "BreakTable",
    "ButtonFrozen",
    "ButtonUnfrozen",
    "ChipRace",
    "ConfirmMove",
    "DismissMove",
    "FinalTable",
    "FinalTableAnnounced",
    "FinalTableDrawn",
    "FinalTableProposed",
    "HandForHandEnded",
    "HandForHandRound",
    "HandForHandStarted",
    "MoveConfirmed",
    "MoveDismissed",
    "MoveProposed",
    "PlayStopped",
    "ReleaseAllIn",
    "ReleaseTables",
    "StartHandForHand",
    "StoppageEnded",
    "StoppageWaived",
    "TableBroken",
    "TablesHeld",
    "TablesReleased",
    "WaiveStoppage",
    "public",
]
