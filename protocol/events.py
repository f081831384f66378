"""What the engine says happened: the events every station sees.

Events that apply a TDA rule carry its 2026 number in ``rules`` ("45-A", "RP-11"), and a
``text`` a floor supervisor can read at a glance.
"""

from __future__ import annotations

from typing import Literal

import msgspec

ActionName = Literal["fold", "check", "call", "bet", "raise"]


class _Event(msgspec.Struct, frozen=True, tag_field="type", omit_defaults=False):
    """Base of every event; ``type`` is its tag."""


class Post(msgspec.Struct, frozen=True):
    """A forced bet posted at the start of a hand."""

    seat: int
    kind: Literal["small_blind", "big_blind", "ante"]
    amount: int
    all_in: bool = False


class HandStart(_Event, tag="hand_start", frozen=True):
    hand: int
    button: int
    small_blind: int | None
    big_blind: int
    blinds: tuple[int, int] = (0, 0)
    ante: int = 0
    bba: bool = False
    dealt: list[int] = []
    posts: list[Post] = []
    cards: dict[int, list[str]] = {}
    rules: list[str] = []
    text: str = ""


class ActionEvent(_Event, tag="action", frozen=True):
    """A seat's action as ruled: what it became and the seat's total on the street."""

    seat: int
    action: ActionName
    total: int
    all_in: bool = False
    returned: int = 0
    rules: list[str] = []
    text: str = ""


class Prompt(_Event, tag="prompt", frozen=True):
    """The legal options of the seat to act.

    ``min_raise_to``/``max_raise_to`` are totals on the street (None when it may not raise);
    ``all_in_to`` is the seat's total if it goes all-in.
    """

    seat: int
    to_call: int
    can_raise: bool
    min_raise_to: int | None
    max_raise_to: int | None
    all_in_to: int = 0
    options: list[str] = []
    text: str = ""


class FloorCall(_Event, tag="floor_call", frozen=True):
    """The TDA leaves this to the floor: the hand waits for a ruling among ``options``."""

    seat: int
    rule: str
    options: list[str]
    call: int = 0
    forfeit: int = 0
    pushed: int = 0
    text: str = ""


class RulingMade(_Event, tag="ruling", frozen=True):
    """The floor's answer to floor call ``call``."""

    call: int
    seat: int
    rule: str
    option: str
    text: str = ""


class ExposeAll(_Event, tag="expose_all", frozen=True):
    """All hands face up: an all-in left no further betting possible (rule 17)."""

    seats: list[int] = []
    rules: list[str] = msgspec.field(default_factory=lambda: ["17"])
    text: str = ""


class RoundEnd(_Event, tag="round_end", frozen=True):
    """A betting round is complete; bets are pulled into the pots."""

    street: str
    pots: list[int] = []
    returned: dict[int, int] = {}
    next: str = ""
    rules: list[str] = []
    text: str = ""


class Dealt(_Event, tag="dealt", frozen=True):
    street: str
    cards: list[str] = []
    board: list[str] = []


class ShowdownOrder(_Event, tag="showdown", frozen=True):
    """Who shows first at a showdown without all-in (rule 18)."""

    order: list[int]
    rules: list[str] = msgspec.field(default_factory=lambda: ["18"])
    text: str = ""


class CardsShown(_Event, tag="shown", frozen=True):
    seat: int
    cards: list[str] = []
    mucked: bool = False


class PotAward(msgspec.Struct, frozen=True):
    """One pot (0 main, then side pots) and how it was split."""

    amount: int
    winners: list[int]
    pot: int = 0
    shares: dict[int, int] = {}
    eligible: list[int] = []
    rules: list[str] = []


class Awarded(_Event, tag="award", frozen=True):
    """The dealer awarded one pot; the hand ends when every pot is awarded."""

    pot: int
    amount: int
    winners: list[int]
    shares: dict[int, int] = {}
    rules: list[str] = []


class HandEnd(_Event, tag="hand_end", frozen=True):
    hand: int
    stacks: dict[int, int]
    pots: list[PotAward] = []
    busted: list[int] = []
    text: str = ""


class PlayerAdded(_Event, tag="player_added", frozen=True):
    seat: int
    stack: int
    name: str = ""
    rules: list[str] = []


class PlayerRemoved(_Event, tag="player_removed", frozen=True):
    seat: int
    stack: int = 0


class LevelSet(_Event, tag="level", frozen=True):
    blinds: tuple[int, int]
    ante: int = 0
    bba: bool = False
    rules: list[str] = msgspec.field(default_factory=lambda: ["25-A"])


class ErrorEvent(_Event, tag="error", frozen=True):
    """The command was not accepted; nothing changed."""

    message: str
    rule: str = ""
    seat: int | None = None
    code: str = "illegal"


Event = (
    HandStart
    | ActionEvent
    | Prompt
    | FloorCall
    | RulingMade
    | ExposeAll
    | RoundEnd
    | Dealt
    | ShowdownOrder
    | CardsShown
    | Awarded
    | HandEnd
    | PlayerAdded
    | PlayerRemoved
    | LevelSet
    | ErrorEvent
)
