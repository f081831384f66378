"""What stations are shown of a tournament: its clock and its whole state, typed.

Built by the service (``server.tournament_views``) from the tournament engine's state, encoded
once and read by every station. Nothing in a tournament is secret from the room — the players,
their tables and seats, the stacks at the last hand end, places and payouts are what a clock
screen and a seating board show — so one view serves every role. Times are the server's clock
in milliseconds since the Unix epoch; ``now`` is the server's time when the view was sent, so a
screen counts down from ``ends_at - now`` by itself and agrees with every other screen.
"""

from __future__ import annotations

from typing import Literal

import msgspec

ClockState = Literal["not_started", "running", "paused", "break", "finished"]
PlayerStatus = Literal["registered", "alternate", "seated", "eliminated", "disqualified"]


class _View(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Base of the tournament views: fields are extended, never renamed."""


class LevelView(_View, frozen=True):
    """A level of the structure as the clock shows it; ``level`` counts levels only (from 1)."""

    level: int
    blinds: tuple[int, int]
    ante: int = 0
    bba: bool = False
    minutes: int = 0
    hands: int = 0
    game: str = ""
    """The game the level deals (the level's own in a mixed event, else the structure's)."""
    bring_in: int = 0
    """A stud level's bring-in (RP-10); its limits are then ``min_bet`` and twice it."""
    min_bet: int = 0
    """The level's smallest bet: the small bet of a limit game, stud's included."""


class ClockView(_View, frozen=True):
    """The clock: where it is, when the step ends, what comes next.

    ``ends_at`` is when the current step ends while it runs (0: paused, untimed or over);
    ``remaining`` the time left while paused. ``next_break_at`` is when the next break starts
    if the clock keeps running (0: none ahead or not running)."""

    tournament: str
    state: ClockState
    step: int = 0
    level: LevelView | None = None
    """The level in force (on a break: the level before it, 25-A/B)."""
    on_break: bool = False
    break_minutes: int = 0
    ends_at: int = 0
    remaining: int = 0
    hands_left: int = 0
    next_level: LevelView | None = None
    next_is_break: bool = False
    next_break_at: int = 0
    now: int = 0


class PlayerView(_View, frozen=True):
    """One player: the current entry and where it sits; ``place``/``prize`` once out."""

    player: str
    name: str
    status: PlayerStatus
    entry: int = 0
    table: str | None = None
    seat: int | None = None
    stack: int = 0
    place: int = 0
    prize: int = 0
    bounties: int = 0
    absent: bool = False


class TableSeatsView(_View, frozen=True):
    table: str
    seats: int
    players: int
    stopped: bool = False
    """Too short, its blinds affected: no new hand until players come or a waiver (12-D)."""
    waived: bool = False
    """The TD waived its stoppage while it stays short (12-D)."""


class MoveView(_View, frozen=True):
    """A balancing move proposed to the floor (``confirmed`` false), or confirmed and waiting for
    ``waiting`` to finish their hands (12-A): ``player`` from ``from_table``/``from_seat`` to
    ``table``/``seat``; ``reason`` why the tables need it."""

    proposal: int
    from_table: str
    player: str
    table: str
    seat: int
    from_seat: int = 0
    confirmed: bool = False
    waiting: list[str] = []
    reason: str = ""


class HandForHandView(_View, frozen=True):
    """Hand-for-hand (RP-8): the hand being played, the tables still in it (``waiting``), and
    ``ready`` once every table has finished and the floor releases the next hand."""

    hand: int = 1
    waiting: list[str] = []
    ready: bool = False


class TournamentView(_View, frozen=True):
    """The whole tournament as a TD's screen shows it."""

    tournament: str
    name: str
    clock: ClockView
    entries: int = 0
    players_left: int = 0
    average_stack: int = 0
    chips_in_play: int = 0
    prize_pool: int = 0
    payouts: list[int] = []
    """Prize by place (index 0 is first): fixed when registration closes, shown before."""
    registration_open: bool = True
    late_registration_until: int = 0
    players: list[PlayerView] = []
    tables: list[TableSeatsView] = []
    finished: bool = False
    moves: list[MoveView] = []
    """Balancing moves proposed or confirmed and not yet made (12-A)."""
    hand_for_hand: HandForHandView | None = None
    """Hand-for-hand while it is on (RP-8)."""
    next_break: str = ""
    """Staff only (12-C): the table proposed to break next (``break_proposed``), so a floor
    monitor opened after the proposal still has it; empty in what a display gets."""
    table_size: int = 0
    """The structure's seats per table: what a table opened for the tournament seats (eight
    with any stud game, RP-10-H)."""
