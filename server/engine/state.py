"""The state of one table, as plain structs the engine copies, evolves and serialises.

Only :mod:`server.engine.evolve` changes a state, and only by applying an event; everything
else reads. That keeps the rule that a table can always be rebuilt from its event log.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from protocol.config import Game, Level

Phase = Literal["idle", "betting", "deal", "showdown", "floor", "over"]
STREETS = ("preflop", "flop", "turn", "river")


class Seat(msgspec.Struct, omit_defaults=True):
    """One seat at the table and what its player has done this hand."""

    number: int
    stack: int
    name: str = ""
    bet: int = 0
    """Chips in front of the seat on the current street (its total on the street)."""
    paid: int = 0
    """Everything the seat put in this hand, antes included: the basis of the side pots."""
    dealt: bool = False
    folded: bool = False
    acted: bool = False
    """Acted voluntarily on this street (posting a blind is not acting)."""
    waiting: bool = False
    """Seated between the small blind and the button: not dealt in until the button passes."""
    cards: tuple[str, ...] = ()
    shown: bool = False
    mucked: bool = False

    @property
    def live(self) -> bool:
        """Dealt in and still holding a hand."""
        return self.dealt and not self.folded and not self.mucked

    @property
    def all_in(self) -> bool:
        return self.live and self.stack == 0

    def clone(self) -> Seat:
        return msgspec.structs.replace(self)


class PendingCall(msgspec.Struct, omit_defaults=True):
    """A floor call the hand is waiting on, and what each option would do."""

    call: int
    seat: int
    rule: str
    options: list[str]
    pushed: int = 0
    forfeit: int = 0


class TableState(msgspec.Struct, omit_defaults=True):
    """Everything the engine knows about one table, between and during hands."""

    game: Game
    level: Level
    chips: tuple[int, ...]
    seats: list[Seat]
    button: int
    cap: int = 4
    heads_up_event: bool = False
    next_level: Level | None = None
    hand: int = 0
    phase: Phase = "idle"
    street: str = "preflop"
    small_blind: int | None = None
    sb_pos: int = 0
    """Where the small blind is, even when it is dead: next hand's button goes there."""
    big_blind: int = 0
    to_act: int | None = None
    current_bet: int = 0
    last_full: int = 0
    """The largest full bet or raise increment on the street: the minimum raise (45-A)."""
    full_bet: int = 0
    """The total of the last full bet or raise (limit raises go on top of it, 49-B)."""
    open_bet: int = 0
    """The opening bet of the street; pre-flop the big blind (53-B)."""
    bets: int = 0
    """Bets and raises on the street, the posted big blind counting as the first (50, 53-B)."""
    aggressor: int | None = None
    dead: int = 0
    """Dead money in the main pot (a big-blind ante)."""
    board: list[str] = []
    next_street: str = ""
    exposed: bool = False
    floor: PendingCall | None = None
    calls: int = 0
    started: bool = False
    awards: dict[int, list[int]] = {}
    shares: dict[int, int] = {}

    def seat(self, number: int) -> Seat | None:
        for s in self.seats:
            if s.number == number:
                return s
        return None

    def live(self) -> list[Seat]:
        return [s for s in self.seats if s.dealt and not s.folded and not s.mucked]

    def pot_total(self) -> int:
        """Chips in the middle and in front of the seats."""
        return self.dead + sum(s.paid for s in self.seats)

    def clone(self) -> TableState:
        """A copy the engine may evolve; the board and floor call are replaced, never mutated."""
        replace = msgspec.structs.replace
        twin = replace(self, seats=[replace(s) for s in self.seats])
        if self.awards:
            twin.awards = dict(self.awards)
            twin.shares = dict(self.shares)
        return twin


def new_state(
    game: Game,
    level: Level,
    chips: tuple[int, ...],
    seats: dict[int, int],
    button: int,
    names: dict[int, str] | None = None,
    cap: int = 4,
    heads_up_event: bool = False,
) -> TableState:
    names = names or {}
    return TableState(
        game=game,
        level=level,
        chips=tuple(sorted(chips)),
        seats=[
            Seat(number=n, stack=stack, name=names.get(n, "")) for n, stack in sorted(seats.items())
        ],
        button=button,
        cap=cap,
        heads_up_event=heads_up_event,
    )
