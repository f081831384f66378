"""The state of one tournament: its players, its tables' seats, its clock and its money.

Only :mod:`server.tournament.evolve` changes it, by applying an event, and it never changes a
list or dict in place (it puts a new one), so :meth:`TournamentState.clone` need copy only the
structs: the log always rebuilds the state.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from protocol.tournament import Structure

Status = Literal["registered", "alternate", "seated", "eliminated", "disqualified"]
ALIVE: tuple[Status, ...] = ("registered", "seated")


class Result(msgspec.Struct, array_like=True, gc=False):
    """How one entry ended: a place (0 until registration closes), or none (DQ, forfeit)."""

    entry: int
    how: Literal["eliminated", "disqualified", "forfeited", "won"]
    place: int = 0
    prize: int = 0


class Player(msgspec.Struct, gc=False):
    """A tournament-wide identity that follows the player from table to table."""

    player: str
    name: str
    status: Status
    entry: int = 0
    """The current entry's number: 1, then 2, 3 ... for re-entries; 0 for an alternate."""
    table: str | None = None
    seat: int | None = None
    stack: int = 0
    """The stack at the last hand boundary the tournament saw, and its changes since."""
    played: bool = False
    absent: bool = False
    rebuys: int = 0
    add_on: bool = False
    time_banks: int = 0
    bounties: int = 0
    """Bounty money won."""
    results: list[Result] = []


class Table(msgspec.Struct, gc=False):
    seats: int
    occupied: dict[int, str] = {}
    """Seat number -> player id."""


class Unplaced(msgspec.Struct, array_like=True, gc=False):
    """An entry out before registration closed: placed, by its group, when it closes (22)."""

    player: str
    entry: int
    started: int
    table: str
    hand: int


class Clock(msgspec.Struct, gc=False):
    started: bool = False
    running: bool = False
    step: int = 0
    """Index into the structure's levels (breaks included)."""
    ends_at: int = 0
    """When the step ends (ms), running; 0 for a level counted in hands or the last level."""
    remaining: int = 0
    """Time left in the step (ms) while paused."""
    hands_left: int = 0
    at: int = 0
    """The latest time the clock has seen."""


class TournamentState(msgspec.Struct, gc=False):
    id: str
    structure: Structure
    players: dict[str, Player] = {}
    tables: dict[str, Table] = {}
    clock: Clock = msgspec.field(default_factory=Clock)
    alternates: list[str] = []
    entries: int = 0
    rebuys: int = 0
    add_ons: int = 0
    removed: int = 0
    """Chips out of play: penalties, disqualifications, forfeits, color-up leftovers."""
    closed: bool = False
    prizes: list[int] = []
    """The payout table, fixed when registration closes: prizes[0] is first place."""
    unplaced: list[list[Unplaced]] = []
    finished: bool = False

    def clone(self) -> TournamentState:
        """A copy ``evolve`` may change: containers are replaced there, never mutated."""
        return msgspec.structs.replace(
            self,
            players={k: msgspec.structs.replace(p) for k, p in self.players.items()},
            tables={k: msgspec.structs.replace(t) for k, t in self.tables.items()},
            clock=msgspec.structs.replace(self.clock),
        )

    def alive(self) -> list[Player]:
        return [p for p in self.players.values() if p.status in ALIVE]

    def at_seat(self, table: str, seat: int) -> Player | None:
        t = self.tables.get(table)
        who = t.occupied.get(seat) if t else None
        return self.players.get(who) if who else None


def new_state(tournament: str, structure: Structure) -> TournamentState:
    return TournamentState(id=tournament, structure=structure)
