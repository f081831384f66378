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


class Unplaced(msgspec.Struct, array_like=True, gc=False):
    """An entry out before registration closed: placed, by its group, when it closes (22)."""

    player: str
    entry: int
    started: int
    table: str
    hand: int


class Facts(msgspec.Struct, array_like=True, gc=False):
    """Where a table's next hand puts the button and the blinds, as its last hand end reported
    them (``hand_ended``): what balancing (12-A) and the stoppage (12-D) read."""

    button: int = 0
    small_blind: int = 0
    """The next small blind's seat: the last big blind's (empty for a dead small blind, 34)."""
    big_blind: int = 0
    waiting: list[int] = []
    """Seats not dealt the next hand (new players between the small blind and the button)."""


class Table(msgspec.Struct, gc=False):
    seats: int
    occupied: dict[int, str] = {}
    """Seat number -> player id."""
    facts: Facts | None = None
    """None until the table has dealt a hand (its first hand goes from ``button``)."""
    button: int = 1
    """The first hand's button: the table's first, or the final table's drawn one (RP-9)."""
    joined: list[int] = []
    """Seats taken since the facts were reported: new players there (9-A, 11-A)."""
    broken: bool = False
    """Broken (11-B) or merged into the final table (RP-9): no seats in the draw, no hands."""
    stopped: bool = False
    """Stopped: too short, its blinds affected (12-D)."""
    waived: bool = False
    """The TD waived its stoppage while it stays short (12-D)."""


class Proposal(msgspec.Struct, gc=False):
    """A balancing move proposed to the floor (12-A), and once confirmed the move waiting for
    ``waiting`` to finish their hands."""

    id: int
    from_table: str
    table: str
    player: str
    seat: int
    confirmed: bool = False
    fixed_player: bool = False
    fixed_seat: bool = False
    """The floor chose who moves, or where: kept when the move is made."""
    waiting: list[str] = []
    held: bool = False
    """Its tables were held for it (released when it is made or dismissed)."""


class PendingBreak(msgspec.Struct, gc=False):
    """A break waiting for ``waiting`` to finish their hands; its seat cards are drawn (11-B)."""

    table: str
    pile: list[tuple[str, int]]
    shuffle: int
    deal: int
    staff: str = ""
    waiting: list[str] = []


class PendingFinal(msgspec.Struct, gc=False):
    """The final table waiting for ``waiting`` to finish their hands (RP-9)."""

    table: str
    draw: int
    button_draw: int = 0
    waiting: list[str] = []


class HandForHand(msgspec.Struct, gc=False):
    """Hand-for-hand (RP-8): the hand being played at every table, the tables still in it and
    the entries out in it so far (they share their places, RP-8-A)."""

    hand: int = 1
    waiting: list[str] = []
    out: list[Unplaced] = []
    fresh: bool = True
    """Every hand of this round started under hand-for-hand: the clock loses its minutes."""
    ready: bool = False
    """Every table has finished: the floor releases the next hand."""
    paused: bool = False
    """Hand-for-hand stopped the clock: it runs again when hand-for-hand ends (RP-8-B)."""


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
    proposals: dict[int, Proposal] = {}
    """Balancing moves proposed or confirmed and not yet made (12-A), by id."""
    proposed: int = 0
    """The last proposal's id."""
    breaks: list[PendingBreak] = []
    final: PendingFinal | None = None
    final_proposed: bool = False
    break_proposed: str = ""
    """The table the tournament proposed to break (12-C), until it breaks or the count changes."""
    h4h: HandForHand | None = None
    frozen: bool = False
    """The game is stud: each table's button is frozen where the next hold'em hand has it (12-B)."""

    def clone(self) -> TournamentState:
        """A copy ``evolve`` may change: the players, the tables and the clock are copied (it
        changes them in place); every other container it replaces, never changes."""
        return msgspec.structs.replace(
            self,
            players={k: msgspec.structs.replace(p) for k, p in self.players.items()},
            tables={k: msgspec.structs.replace(t) for k, t in self.tables.items()},
            clock=msgspec.structs.replace(self.clock),
        )

    def alive(self) -> list[Player]:
        return [p for p in self.players.values() if p.status in ALIVE]

    def in_play(self) -> dict[str, Table]:
        """The tables that play: open and not broken."""
        return {k: v for k, v in self.tables.items() if not v.broken}

    def breaking(self) -> set[str]:
        """Tables whose break waits for hands to end (11-B)."""
        return {b.table for b in self.breaks}

    def reserved(self) -> set[tuple[str, int]]:
        """Seats promised and not yet taken: a waiting break's seat cards, the seats of the
        balancing moves confirmed and waiting for a hand to end (neither is drawn for anyone
        else, 8). A proposal not yet confirmed keeps no seat: it is read again when made."""
        seats = {(table, seat) for b in self.breaks for table, seat in b.pile}
        return seats | {(p.table, p.seat) for p in self.proposals.values() if p.confirmed}

    def at_seat(self, table: str, seat: int) -> Player | None:
        t = self.tables.get(table)
        who = t.occupied.get(seat) if t else None
        return self.players.get(who) if who else None


def new_state(tournament: str, structure: Structure) -> TournamentState:
    return TournamentState(id=tournament, structure=structure)
