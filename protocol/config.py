"""A table's configuration: the game, the level in force, the button and who sits where."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from protocol.types import Chips, Quantity, SeatNo, Text

Game = Literal[
    "NLHE", "PLHE", "LHE", "NLO", "PLO", "PLO8", "LO8", "7S", "7S8", "RAZZ",
    "27TD", "27SD", "BADUGI",
]  # fmt: skip
"""The flop games, the stud games (7S, 7S8, RAZZ: RP-10) and the draw games (27TD, 27SD,
BADUGI: a button and blinds, no board, each hand drawing in turn, RP-17, RP-25)."""
STUD: frozenset[str] = frozenset({"7S", "7S8", "RAZZ"})
"""The stud games: no button or blinds, antes and a bring-in, up-cards (RP-10)."""

MOST_HANDS: dict[str, int] = {"7S": 8, "7S8": 8, "RAZZ": 8, "27TD": 9, "27SD": 9}
"""The most hands one deck deals in a game, where a ten-handed table is too many. Stud: eight;
nine would need 57 cards by sixth street, and the short stub's procedures cover seventh street
only (RP-10-H). 2-7 draw: nine; ten hands of five leave two cards, short of the first draw with
its burn, with nothing yet in the muck to shuffle in (RP-25)."""

#: Chips of a standard tournament set; a table without a ``chips`` list uses these.
DEFAULT_CHIPS: tuple[int, ...] = (25, 100, 500, 1000, 5000, 25000, 100000)


class LevelError(ValueError):
    """A level (or a config) no table can deal; ``field`` names the offending field (``$.blinds``).

    Decoding reports it with the path of the struct that holds the field (``- at `$.config```).
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"`{field}`: {message}")
        self.field = field
        self.why = message


class Level(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The blinds and ante of one level (rule 25: a level applies from the next hand).

    ``min_bet`` is the structure's bet unit: the smallest bet and raise (45-A), the small bet in
    limit. With a big blind it is the big blind (left 0, it becomes the big blind); an
    ante-only level (``blinds`` ``[0, 0]``) must name it, since nothing else does.

    ``bring_in`` is stud's forced opening bet (RP-10): the lowest up-card brings it in or
    completes to the small bet (``min_bet``); a stud level has no blinds.
    """

    blinds: tuple[Chips, Chips]
    ante: Chips = 0
    bba: bool = False
    min_bet: Chips = 0
    bring_in: Chips = 0

    def __post_init__(self) -> None:
        sb, bb = self.blinds
        if sb < 0 or bb < 0 or sb > bb:
            raise LevelError("$.blinds", "blinds are [small, big] with 0 <= small <= big")
        if self.ante < 0:
            raise LevelError("$.ante", "the ante must not be negative")
        if self.bring_in:
            _check_bring_in(self)
        if bb == 0:
            _check_ante_only(self)
        elif self.min_bet not in (0, bb):
            raise LevelError("$.min_bet", f"beside a big blind the minimum bet is it ({bb})")
        else:
            msgspec.structs.force_setattr(self, "min_bet", bb)

    @property
    def ante_only(self) -> bool:
        """No blinds: the betting opens left of the button, as on later streets."""
        return self.blinds[1] == 0


def _check_bring_in(level: Level) -> None:
    if level.blinds[1]:
        raise LevelError("$.bring_in", "a stud level has a bring-in and no blinds")
    if level.bring_in < 0 or level.bring_in > level.min_bet:
        raise LevelError("$.bring_in", "the bring-in is at most the small bet (min_bet)")
    if level.bba:
        raise LevelError("$.bba", "stud has no big blind to post an ante")


def _check_ante_only(level: Level) -> None:
    if not level.ante and not level.bring_in:
        raise LevelError("$.blinds", "a level needs a big blind, an ante or a bring-in")
    if level.bba:
        raise LevelError("$.bba", "a big blind ante is the big blind's to post (RP-11)")
    if level.min_bet <= 0:
        raise LevelError("$.min_bet", "an ante-only level must name its minimum bet")


class GameLevel(Level, frozen=True, forbid_unknown_fields=True):
    """A game of a mixed table's rotation at its limits: a level's fields and its ``game``."""

    game: Game = "NLHE"

    def __post_init__(self) -> None:
        super().__post_init__()
        if (self.game in STUD) != bool(self.bring_in):
            raise LevelError("$.bring_in", f"{self.game}: stud has a bring-in, the others none")

    @property
    def level(self) -> Level:
        return Level(self.blinds, self.ante, self.bba, self.min_bet, self.bring_in)


Rotation = Annotated[list[GameLevel], msgspec.Meta(max_length=20)]


class TableConfig(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the replay format calls ``config``.

    ``seats`` maps seat numbers (1-10) to starting stacks. ``button`` is the seat holding the
    button for the first hand. ``cap`` is the number of bets and raises allowed on a street in
    the limit games (rule 50); ``heads_up_event`` lifts the cap once the whole event is down to
    two players. ``min_bet`` is the level's (see :class:`Level`). ``dead_small_blind`` deals the
    first hand with no small blind (34): the first player left of the button posts the big
    blind, as after a small blind who busted as the last big blind.
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
    min_bet: Chips = 0
    dead_small_blind: bool = False
    bring_in: Chips = 0
    rotation: Rotation = []
    """A mixed table's games in order, each at its limits, the first being the table's
    ``game`` and level: each deals an orbit, then the next (12-B, RP-18)."""
    orbit: Quantity = 0
    """Hands each game of the ``rotation`` deals; 0: one orbit, as many hands as players are
    dealt in at its first hand."""

    def __post_init__(self) -> None:
        level = self.level
        if self.rotation and (self.rotation[0].game, self.rotation[0].level) != (self.game, level):
            raise LevelError(
                "$.rotation", "the rotation's first game is the table's game and level"
            )
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
        if (self.game in STUD) != bool(level.bring_in):
            raise LevelError(
                "$.bring_in", "stud deals with a bring-in, the flop games without one (RP-10)"
            )
        if self.dead_small_blind:
            if level.ante_only:
                raise LevelError("$.dead_small_blind", "an ante-only level has no blinds")
            if sum(1 for stack in self.seats.values() if stack > 0) < 3:
                raise LevelError(
                    "$.dead_small_blind", "heads-up the button posts the small blind (36-C)"
                )

    @property
    def level(self) -> Level:
        return Level(self.blinds, self.ante, self.bba, self.min_bet, self.bring_in)
