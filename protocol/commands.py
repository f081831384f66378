"""What the dealer station (and the floor) records: the commands the engine takes.

The same types drive the websocket API, the replay tool and the tests.
"""

from __future__ import annotations

from typing import Literal

import msgspec

Declaration = Literal["fold", "check", "call", "bet", "raise", "all_in", "complete", "pot"]
First = Literal["verbal", "chips", "together"]
Prior = Literal["left", "pulled", "partly_pulled"]
Street = Literal["flop", "turn", "river"]


class _Command(msgspec.Struct, frozen=True, tag_field="type", forbid_unknown_fields=True):
    """Base of every command; the subclass name in snake case is its ``type`` tag."""


class StartHand(_Command, tag="start_hand", frozen=True):
    """Begin the next hand. Hole cards are optional: a table without card entry still runs."""

    cards: dict[int, list[str]] = {}


class Act(_Command, tag="act", frozen=True):
    """What a seat did, as the dealer saw it (rules 42-48).

    ``declare`` is the verbal declaration, ``amount`` a spoken amount, ``chips`` the
    denominations pushed forward, ``first`` which of words and chips came first, ``prior``
    what happened to chips already in front of the seat from earlier on the street (rule 48).
    """

    seat: int
    declare: Declaration | None = None
    amount: int | None = None
    chips: list[int] = []
    first: First = "together"
    prior: Prior = "left"
    at: int | None = None
    """When the action happened (ms); with the clock running an action at the deadline counts (31)."""
    as_played: bool = False
    """Record the total exactly as it went in, uncorrected: an error found later is ruled by
    rule 54 when the floor is told (``irregularity`` ``under_raise`` / ``pot_miscount``)."""

    def __post_init__(self) -> None:
        if self.declare is None and self.amount is None and not self.chips:
            raise ValueError("an act needs a declaration, an amount or chips")
        if self.amount is not None and self.amount <= 0:
            raise ValueError("amount must be positive")
        if any(c <= 0 for c in self.chips):
            raise ValueError("chips must be positive denominations")


class Deal(_Command, tag="deal", frozen=True):
    """The dealer burns and turns the next street; the cards are optional.

    Dealt before the action was complete, it is an irregularity (RP-5); a flop of four cards
    or without a burn goes by rule 41.
    """

    street: Street
    cards: list[str] = []
    burned: bool = True


class Show(_Command, tag="show", frozen=True):
    """A seat tables its hand."""

    seat: int
    cards: list[str] = []


class Muck(_Command, tag="muck", frozen=True):
    """A seat mucks (or the dealer kills) its hand at showdown."""

    seat: int


class Award(_Command, tag="award", frozen=True):
    """The dealer awards a pot (0 is the main pot, then side pots in order) to its winners."""

    winners: list[int]
    pot: int = 0


class AddPlayer(_Command, tag="add_player", frozen=True):
    """Seat a new player between hands (rules 9, 11: not dealt in between SB and button)."""

    seat: int
    stack: int
    name: str = ""


class RemovePlayer(_Command, tag="remove_player", frozen=True):
    """Take a player off the table between hands (moved, disqualified, left)."""

    seat: int


class SetLevel(_Command, tag="level", frozen=True):
    """A new level is announced; it applies from the next hand (rule 25)."""

    blinds: tuple[int, int]
    ante: int = 0
    bba: bool = False


class Ruling(_Command, tag="ruling", frozen=True):
    """The floor answers a floor call with one of the options it offered."""

    call: int
    option: str


Command = (
    StartHand | Act | Deal | Show | Muck | Award | AddPlayer | RemovePlayer | SetLevel | Ruling
)
