"""A table's configuration: the game, the level in force, the button and who sits where."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from protocol.types import Chips, Quantity, SeatNo, Text

Game = Literal["NLHE", "PLHE", "LHE", "NLO", "PLO", "PLO8", "LO8"]

#: Chips of a standard tournament set; a table without a ``chips`` list uses these.
DEFAULT_CHIPS: tuple[int, ...] = (25, 100, 500, 1000, 5000, 25000, 100000)


class Level(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The blinds and ante of one level (rule 25: a level applies from the next hand)."""

    blinds: tuple[Chips, Chips]
    ante: Chips = 0
    bba: bool = False

    def __post_init__(self) -> None:
        sb, bb = self.blinds
        if sb < 0 or bb <= 0 or sb > bb:
            raise ValueError("blinds must be [small, big] with 0 <= small <= big and big > 0")
        if self.ante < 0:
            raise ValueError("ante must not be negative")


class TableConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the replay format calls ``config``.

    ``seats`` maps seat numbers (1-10) to starting stacks. ``button`` is the seat holding the
    button for the first hand. ``cap`` is the number of bets and raises allowed on a street in
    the limit games (rule 50); ``heads_up_event`` lifts the cap once the whole event is down to
    two players.
    """

    game: Game
    blinds: tuple[Chips, Chips]
    seats: dict[SeatNo, Chips]
    button: SeatNo
    ante: Chips = 0
    bba: bool = False
    chips: Annotated[tuple[Chips, ...], msgspec.Meta(max_length=20)] = DEFAULT_CHIPS
    cap: Quantity = 4
    heads_up_event: bool = False
    names: dict[SeatNo, Text] = {}

    def __post_init__(self) -> None:
        Level(self.blinds, self.ante, self.bba)
        if not self.chips or any(c <= 0 for c in self.chips):
            raise ValueError("chips must list positive denominations")
        for seat, stack in self.seats.items():
            if not 1 <= seat <= 10:
                raise ValueError(f"seat {seat} is not a seat number (1-10)")
            if stack < 0:
                raise ValueError(f"seat {seat} has a negative stack")
        if not 1 <= self.button <= 10:
            raise ValueError("button must be a seat number (1-10)")
        if self.cap < 1:
            raise ValueError("cap must be at least 1")

    @property
    def level(self) -> Level:
        return Level(self.blinds, self.ante, self.bba)
