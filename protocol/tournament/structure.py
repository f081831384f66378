"""A tournament's structure: what the TD prints on the structure sheet before the first card.

Levels and breaks, the starting stack, the buy-in, the registration periods (9-A), rebuys and
add-ons (29), the payouts, the shot clock and time banks (RP-28), bounties (22) and the table
size. Decoding validates it: a structure no tournament could run is refused naming its field,
``$.levels[2].blinds``, before any player registers.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated, Literal

import msgspec

from protocol.config import DEFAULT_CHIPS, MOST_HANDS, Game, Level, LevelError
from protocol.types import Chips, Quantity, Text

Minutes = Annotated[int, msgspec.Meta(ge=0, le=24 * 60)]
Seconds = Annotated[int, msgspec.Meta(ge=0, le=3600)]
Percent = Annotated[float, msgspec.Meta(ge=0, le=100)]
Place = Annotated[int, msgspec.Meta(ge=1, le=100_000)]
TableSize = Annotated[int, msgspec.Meta(ge=2, le=10)]
LevelGame = Literal[
    "NLHE", "PLHE", "LHE", "NLO", "PLO", "PLO8", "LO8", "7S", "7S8", "RAZZ",
    "27TD", "27SD", "BADUGI", "STUD", "STUD8",
]  # fmt: skip
"""A level's game in a mixed event: any game a table deals (12-B freezes the button for stud);
``STUD`` and ``STUD8`` are the older names of ``7S`` and ``7S8``."""
STUD_GAMES = frozenset({"7S", "7S8", "RAZZ", "STUD", "STUD8"})
ALIASES: dict[str, Game] = {"STUD": "7S", "STUD8": "7S8"}


def table_game(game: str) -> Game:
    """The table's name of a level's game (``STUD`` is ``7S``)."""
    return ALIASES.get(game) or game  # type: ignore[return-value]


Players = Annotated[int, msgspec.Meta(ge=0, le=10)]


class Step(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One line of the structure sheet: a level (blinds, ante, for ``minutes`` or ``hands``) or a
    break (``break`` minutes, with an optional color-up of the ``color_up`` denominations, 26).

    A level starts when the clock reaches it (25-A); a break stops new hands from starting.
    """

    blinds: tuple[Chips, Chips] = (0, 0)
    ante: Chips = 0
    bba: bool = False
    min_bet: Chips = 0
    minutes: Minutes = 0
    hands: Quantity = 0
    pause: Minutes = msgspec.field(default=0, name="break")
    color_up: Annotated[list[Chips], msgspec.Meta(max_length=10)] = []
    game: LevelGame | None = None
    """The level's game in a mixed event (the structure's ``game`` when not named); going from
    hold'em to stud freezes the button (12-B)."""
    bring_in: Chips = 0
    """A stud level's bring-in (RP-10): the tables deal it at this level's ante and small bet
    (``min_bet``); without one they deal no hand (``game_not_dealt``)."""

    @property
    def is_break(self) -> bool:
        return self.pause > 0

    @property
    def level(self) -> Level:
        return Level(self.blinds, self.ante, self.bba, self.min_bet, self.bring_in)

    @property
    def length_ms(self) -> int:
        """How long the clock runs on this step; 0 for a level counted in hands."""
        return (self.pause or self.minutes) * 60_000


class Prize(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """Place ``place`` (through ``to``, each the same) pays ``percent`` of the pool or an
    ``amount``."""

    place: Place
    to: Annotated[int, msgspec.Meta(ge=0, le=100_000)] = 0
    percent: Percent = 0.0
    amount: Chips = 0

    @property
    def last(self) -> int:
        return max(self.place, self.to)


class Bracket(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The payout table used from ``entries`` entries up (until the next bracket's)."""

    entries: Annotated[int, msgspec.Meta(ge=1, le=1_000_000)]
    places: list[Prize]


class Payouts(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One of: a fixed table of ``places``; tables ``by_entries``; the ``standard`` curve."""

    places: list[Prize] = []
    by_entries: list[Bracket] = []
    curve: Literal["standard"] | None = None


class ShotClock(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """RP-28: seconds for a player's first action of a hand (may be shorter) and for the others;
    ``time_banks`` cards per entry, each worth ``bank_seconds``. The service runs the timers."""

    action: Seconds
    first_action: Seconds = 0
    time_banks: Quantity = 0
    bank_seconds: Seconds = 0


class Structure(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """The whole structure sheet. Level numbers count levels only (breaks have none), from 1.

    ``late_registration_until`` / ``reentry_until`` / ``rebuy_until`` / ``add_on_until`` are
    the last level (number) in which they are allowed, 0 for never; ``forfeit_reentry`` lets a
    player still holding chips re-enter, the chips coming out of play (9-B).
    """

    levels: list[Step]
    starting_stack: Annotated[int, msgspec.Meta(ge=1, le=10**15)]
    payouts: Payouts
    name: Text = ""
    game: Game = "NLHE"
    chips: Annotated[tuple[Chips, ...], msgspec.Meta(max_length=20)] = DEFAULT_CHIPS
    table_size: TableSize = 9
    buy_in: Chips = 0
    fee: Chips = 0
    bounty: Chips = 0
    guarantee: Chips = 0
    late_registration_until: Quantity = 0
    reentry_until: Quantity = 0
    forfeit_reentry: bool = False
    rebuy_until: Quantity = 0
    rebuy_stack: Chips = 0
    rebuy_price: Chips = 0
    rebuy_max_stack: Chips = 0
    max_rebuys: Quantity = 0
    add_on_until: Quantity = 0
    add_on_stack: Chips = 0
    add_on_price: Chips = 0
    shot_clock: ShotClock | None = None
    seating: Literal["even", "any"] = "even"
    """The seat pool a new entry is drawn from (8, 9-A): ``even``, the free seats of the tables
    with the fewest players, so tables fill evenly and nobody is balanced or stopped for what
    seating did (12-A, 12-D); ``any``, every free seat."""
    balance: Annotated[int, msgspec.Meta(ge=1, le=9)] = 1
    """Tables more than this many players apart are unbalanced: a move is proposed (12-A)."""
    stoppage: Players | None = None
    """A table this many players short of the fullest stops when its blinds are affected (12-D);
    0 never; by default 3 for tables of 8 or more, and never for shorter ones (TD's call)."""
    break_order: Annotated[
        list[Annotated[str, msgspec.Meta(min_length=1, max_length=100)]],
        msgspec.Meta(max_length=1000),
    ] = []
    """The predetermined order tables break in (12-C): staff only, never announced. By default
    the table with the fewest players, the last opened on a tie."""
    final_table: Players = 0
    """Players at the final table; 0: by RP-9 (9 for 8- and 9-handed tables, 7 for 6- and
    7-handed, else the table size), never more than a deck deals in the structure's games
    (eight with stud, :attr:`most_hands`)."""
    final_button: Literal["high_card", "big_blind"] = "high_card"
    """The final table's first button (RP-9): a high-card draw, or where it keeps the big
    blind's continuity (the player next to be the big blind at the largest table posts it)."""
    hand_for_hand_minutes: Annotated[int, msgspec.Meta(ge=0, le=3)] = 2
    """Minutes the clock loses each hand-for-hand hand: at most 3, 2 by default (RP-8-B/C)."""
    hand_for_hand_release: Literal["auto", "floor"] = "auto"
    """Who starts the next hand-for-hand hand once every table has finished: the last table
    to finish (``auto``) or the floor (``release_hands``)."""

    def __post_init__(self) -> None:
        _check_levels(self)
        _check_periods(self)
        _check_payouts(self.payouts)

    @property
    def level_count(self) -> int:
        return sum(1 for step in self.levels if not step.is_break)

    @property
    def games(self) -> set[str]:
        """Every game the structure deals (the tables' names: ``STUD`` is ``7S``)."""
        return {self.game, *(table_game(step.game) for step in self.levels if step.game)}

    @property
    def most_hands(self) -> int:
        """The most hands one deck deals in every game of the structure (stud eight, 2-7
        nine), or 10, the most seats of a table."""
        return min((MOST_HANDS.get(game, 10) for game in self.games), default=10)

    @property
    def final_size(self) -> int:
        """Seats at the final table: RP-9's nine from 8- and 9-handed tables, seven from 6- and
        7-handed ones, no more than one deck deals in the structure's games (eight in stud)."""
        if self.final_table:
            return self.final_table
        size = {8: 9, 9: 9, 6: 7, 7: 7}.get(self.table_size, self.table_size)
        return min(size, self.most_hands)

    @property
    def stop_short(self) -> int:
        """Players short of the fullest table that stop a table (12-D); 0 never."""
        if self.stoppage is not None:
            return self.stoppage
        return 3 if self.table_size >= 8 else 0

    def game_at(self, index: int) -> str:
        """The game of step ``index`` (a break: of the level before it)."""
        while index > 0 and self.levels[index].is_break:
            index -= 1
        return self.levels[index].game or self.game

    def level_number(self, index: int) -> int:
        """The number of the level at step ``index`` (a break: of the level before it)."""
        return sum(1 for step in self.levels[: index + 1] if not step.is_break)


def _check_levels(structure: Structure) -> None:
    levels = structure.levels
    if not any(not step.is_break for step in levels):
        raise LevelError("$.levels", "a structure needs at least one level")
    if levels[0].is_break:
        raise LevelError("$.levels[0]", "a tournament starts with a level, not a break")
    previous: Level | None = None
    for i, step in enumerate(levels):
        where = f"$.levels[{i}]"
        if step.is_break:
            if step.minutes or step.hands or step.blinds != (0, 0) or step.ante:
                raise LevelError(f"{where}.break", "a break has minutes and a color-up only")
            for chip in step.color_up:
                if chip not in structure.chips:
                    raise LevelError(f"{where}.color_up", f"{chip} is not a chip of `$.chips`")
            continue
        if (step.minutes > 0) == (step.hands > 0):
            raise LevelError(f"{where}.minutes", "a level lasts `minutes` or `hands`, one of them")
        try:
            level = step.level
        except LevelError as bad:
            raise LevelError(
                where + bad.field.removeprefix("$"), str(bad).split(": ", 1)[1]
            ) from None
        if step.game in STUD_GAMES:
            continue  # stud has antes and bring-ins, not blinds: hold'em levels compare alone
        if previous is not None and (
            level.blinds[1] < previous.blinds[1] or level.blinds[0] < previous.blinds[0]
        ):
            raise LevelError(f"{where}.blinds", "the blinds must not go down from level to level")
        previous = level


def check_table_size(structure: Structure) -> None:
    """A new tournament's tables, the final one too, seat no more hands than the deck deals in
    each game of its structure: a mixed event with stud is eight-handed (RP-10-H), one with 2-7
    at most nine (RP-25); else its tables would stop dealing when the game comes round.

    Checked when a structure is given (a tournament created, a structure or scenario file
    read), not whenever one is decoded: a tournament stored before this check keeps loading."""
    most = structure.most_hands
    game = min(sorted(structure.games), key=lambda g: MOST_HANDS.get(g, 10))
    sizes = {"table_size": structure.table_size, "final_table": structure.final_size}
    for field, size in sizes.items():
        if size > most:
            raise LevelError(
                f"$.{field}",
                f"{game} deals at most {most} hands from one deck: tables of {size} could not"
                " deal it (stud RP-10-H, 2-7 draw RP-25)",
            )


def _check_periods(structure: Structure) -> None:
    count = structure.level_count
    for field in ("late_registration_until", "reentry_until", "rebuy_until", "add_on_until"):
        if getattr(structure, field) > count:
            raise LevelError(f"$.{field}", f"there are only {count} levels")
    if structure.reentry_until > structure.late_registration_until:
        raise LevelError("$.reentry_until", "re-entry ends with late registration at the latest")
    if structure.rebuy_until and structure.rebuy_stack <= 0:
        raise LevelError("$.rebuy_stack", "rebuys need the chips they buy (29)")
    if structure.add_on_until and structure.add_on_stack <= 0:
        raise LevelError("$.add_on_stack", "add-ons need the chips they buy")
    if structure.forfeit_reentry and not structure.reentry_until:
        raise LevelError("$.forfeit_reentry", "a forfeit re-entry needs `reentry_until` (9-B)")
    if any(c <= 0 for c in structure.chips) or not structure.chips:
        raise LevelError("$.chips", "chips must list positive denominations")


def _check_payouts(payouts: Payouts) -> None:
    chosen = [bool(payouts.places), bool(payouts.by_entries), payouts.curve is not None]
    if sum(chosen) != 1:
        raise LevelError("$.payouts", "give one of `places`, `by_entries` or `curve`")
    if payouts.places:
        check_places(payouts.places, "$.payouts.places")
    last = 0
    for i, bracket in enumerate(payouts.by_entries):
        if bracket.entries <= last:
            raise LevelError(f"$.payouts.by_entries[{i}].entries", "brackets go up in entries")
        check_places(bracket.places, f"$.payouts.by_entries[{i}].places")
        last = bracket.entries


def check_places(places: list[Prize], where: str) -> None:
    """Places run 1, 2, 3 ... without a gap; percentages add up to 100, or all are amounts."""
    if not places:
        raise LevelError(where, "a payout table pays at least one place")
    expected = 1
    for i, prize in enumerate(places):
        if prize.place != expected or (prize.to and prize.to < prize.place):
            raise LevelError(f"{where}[{i}].place", f"places run on without gaps: {expected} next")
        if (prize.percent > 0) == (prize.amount > 0):
            raise LevelError(f"{where}[{i}]", "a place pays a `percent` or an `amount`")
        expected = prize.last + 1
    if any(p.percent for p in places):
        if not all(p.percent for p in places):
            raise LevelError(where, "percentages and amounts do not mix in one table")
        total = sum(Fraction(str(p.percent)) * (p.last - p.place + 1) for p in places)
        if total != 100:
            raise LevelError(where, f"the percentages add up to {float(total):g}, not 100")
