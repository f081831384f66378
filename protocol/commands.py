"""What the dealer station (and the floor) records: the commands the engine takes.

The same types drive the websocket API, the replay tool and the tests.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from protocol.config import Game, Level, Rotation
from protocol.types import Card, Cards, Chips, Id, Millis, Quantity, SeatNo, Text

Declaration = Literal[
    "fold", "check", "call", "bet", "raise", "all_in", "complete", "pot", "bring_in"
]
First = Literal["verbal", "chips", "together"]
Prior = Literal["left", "pulled", "partly_pulled"]
Street = Literal["flop", "turn", "river", "fourth", "fifth", "sixth", "seventh"]
"""The board's streets of the flop games, and stud's streets after the first deal."""


class _Command(
    msgspec.Struct,
    frozen=True,
    tag_field="type",
    forbid_unknown_fields=True,
    omit_defaults=True,
    gc=False,
):
    """Base of every command; the subclass name in snake case is its ``type`` tag."""


class StartHand(_Command, tag="start_hand", frozen=True):
    """Begin the next hand. Hole cards are optional: a table without card entry still runs.

    ``button`` is where the dealer actually put the button, when that is not where the engine
    says it belongs: the hand is played as dealt and the error flagged (36-A).

    In stud ``cards`` are each seat's two down-cards (optional, as ever) and ``up`` its
    up-card, which every seat dealt in must have: the lowest brings it in (RP-10).
    """

    cards: dict[SeatNo, Cards] = {}
    button: SeatNo | None = None
    up: dict[SeatNo, Cards] = {}
    absent: list[SeatNo] = []
    exposed: list[SeatNo] = []
    """Stud: seats whose up-card is a down-card the dealer exposed, the third-street card dealt
    down instead (RP-10-A); in a flop game that is a misdeal (37-A-6), refused here."""
    """Seats whose player was not at the seat when the last card of the deal was dealt: the
    hands are killed, the posts stay in the pot, an absent stud bring-in posts it (32)."""


class Act(_Command, tag="act", frozen=True):
    """What a seat did, as the dealer saw it (rules 42-48).

    ``declare`` is the verbal declaration, ``amount`` a spoken amount, ``chips`` the
    denominations pushed forward, ``first`` which of words and chips came first, ``prior``
    what happened to chips already in front of the seat from earlier on the street (rule 48).
    """

    seat: SeatNo
    declare: Declaration | None = None
    amount: Chips | None = None
    chips: Annotated[list[Chips], msgspec.Meta(max_length=200)] = []
    first: First = "together"
    prior: Prior = "left"
    at: Millis | None = None
    """When the action happened (ms): with the clock running, one at the deadline counts (31)."""
    as_played: bool = False
    """Record the total exactly as it went in, uncorrected: an error found later is ruled by
    rule 54 when the floor is told (``irregularity`` ``under_raise`` / ``pot_miscount``)."""
    spoken: Text | None = None
    """The words of ``amount`` as said, when they came without a unit ("five"): the amount
    can mean several things and is read by rule 59. Without it a spoken amount is clear, and
    one below the minimum is an under-bet (54-A)."""

    def __post_init__(self) -> None:
        if self.declare is None and self.amount is None and not self.chips:
            raise ValueError("an act needs a declaration, an amount or chips")
        if self.spoken is not None and self.amount is None:
            raise ValueError("spoken gives the words of an amount: it needs the amount")
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
    cards: Cards = []
    burned: bool = True
    up: dict[SeatNo, Cards] = {}
    """Stud's fourth to sixth streets: the up-card of every live hand (the best board acts
    first, RP-10-D)."""
    down: dict[SeatNo, Cards] = {}
    """Stud's seventh street: each live hand's down-card, when the cards are entered."""


class Draw(_Command, tag="draw", frozen=True):
    """A seat's draw in a draw game, in turn from the left of the button: it throws ``count``
    cards and is dealt as many (0 stands pat). The dealer pushes the new cards and takes the
    discards together (RP-25-D). ``thrown`` (the discards) and ``cards`` (the cards dealt) are
    optional, as hole cards are: entered, they keep the hand known for the showdown.
    """

    seat: SeatNo
    count: Annotated[int, msgspec.Meta(ge=0, le=5)] = 0
    thrown: Annotated[list[Card], msgspec.Meta(max_length=5)] = []
    cards: Annotated[list[Card], msgspec.Meta(max_length=5)] = []

    def __post_init__(self) -> None:
        if self.thrown and len(self.thrown) != self.count:
            raise ValueError(f"thrown names {len(self.thrown)} cards for a draw of {self.count}")
        if self.cards and len(self.cards) != self.count:
            raise ValueError(f"cards names {len(self.cards)} cards for a draw of {self.count}")


class Show(_Command, tag="show", frozen=True):
    """A seat tables its hand."""

    seat: SeatNo
    cards: Cards = []


class Muck(_Command, tag="muck", frozen=True):
    """A seat mucks (or the dealer kills) its hand at showdown."""

    seat: SeatNo


class Award(_Command, tag="award", frozen=True):
    """The dealer awards a pot (0 is the main pot, then side pots in order) to its winners."""

    winners: Annotated[list[SeatNo], msgspec.Meta(min_length=1, max_length=10)]
    pot: Quantity = 0


class AddPlayer(_Command, tag="add_player", frozen=True):
    """Seat a new player between hands (rules 9, 11: not dealt in between SB and button)."""

    seat: SeatNo
    stack: Chips
    name: Text = ""


class RemovePlayer(_Command, tag="remove_player", frozen=True):
    """Take a player off the table between hands (moved, disqualified, left)."""

    seat: SeatNo


class SetLevel(_Command, tag="level", frozen=True):
    """A new level is announced; it applies from the next hand (rule 25).

    ``min_bet`` as in :class:`Level`: an ante-only level (``blinds`` ``[0, 0]``) must name it.
    ``game``: a mixed event's next game, dealt from the next hand at this level's limits (a
    stud game's level has its bring-in); hold'em to stud freezes the button (12-B).
    """

    blinds: tuple[Chips, Chips]
    ante: Chips = 0
    bba: bool = False
    min_bet: Chips = 0
    bring_in: Chips = 0
    game: Game | None = None
    rotation: Rotation = []
    """A mixed table by orbit: every game of its rotation at this level's limits, in the same
    order; the game in play goes on at its new limits from the next hand."""

    def __post_init__(self) -> None:
        Level(self.blinds, self.ante, self.bba, self.min_bet, self.bring_in)


class Ruling(_Command, tag="ruling", frozen=True):
    """The floor answers a floor call with one of the options it offered."""

    call: Quantity
    option: Text
    by: Text = ""
    """Who ruled: the service fills it from the name in a floor or admin token, overwriting
    whatever the station sent; a replay may give it."""


class Misdeal(_Command, tag="misdeal", frozen=True):
    """The dealer or floor declares a misdeal (37-A); refused after substantial action (37-D).

    The re-deal re-creates the hand (37-C); ``cards`` are the re-dealt hole cards, if entered.
    """

    reason: Text = ""
    cards: dict[SeatNo, Cards] = {}
    up: dict[SeatNo, Cards] = {}
    """Stud: the re-dealt up-cards (every seat's is needed, as at the start of a hand)."""


class FouledDeck(_Command, tag="fouled_deck", frozen=True):
    """A fouled deck (37-E): play stops and every bet goes back, whenever it is found."""

    reason: Text = ""


IrregularityKind = Literal[
    "short_card",
    "wrong_card_count",
    "flop_not_burned",
    "under_raise",
    "pot_miscount",
    "wrong_button",
    "premature_call",
    "conditional",
    "seventh_exposed",
    "up_cards_taken",
]


class Irregularity(_Command, tag="irregularity", frozen=True):
    """Something went wrong at the table and the dealer or floor reports it.

    ``short_card``: a seat was dealt a card short; ``wrong_card_count``: a seat holds the wrong
    number of cards, and ``cards`` (the cards it holds) tell short from extra. The button short
    a card gets it (39); any other wrong count is a misdeal before substantial action (37-A-5),
    a dead hand after it (40). ``flop_not_burned``
    (41-B). ``under_raise`` / ``pot_miscount``: a short raise or a miscounted pot-limit bet
    recorded ``as_played`` is found (54-A, 54-B). ``wrong_button``: the button was placed wrong
    (36-A). ``premature_call`` (61-B) and
    ``conditional`` statements (61-A) go to the floor. ``seventh_exposed``: stud's seventh-street
    card ``cards`` that the dealer exposed to ``seat`` (RP-10-B); ``up_cards_taken``: the stud
    ``seat`` took up its up-cards on its turn, a dead hand (68).
    """

    kind: IrregularityKind
    seat: SeatNo | None = None
    cards: Cards = []


class Clock(_Command, tag="clock", frozen=True):
    """The floor puts the clock on the seat to act at time ``at`` (ms): 25 s, then 5 (31).

    With ``seconds`` it is a shot clock (RP-28): the seat has that long, with no countdown; the
    service starts it at every prompt of an event with a shot clock, and a time-bank card
    extends it."""

    at: Millis
    seat: SeatNo | None = None
    seconds: Annotated[int, msgspec.Meta(ge=1, le=3600)] | None = None


class Time(_Command, tag="time", frozen=True):
    """The time now (ms), sent by the station's timer: an expired clock is ruled on (31)."""

    at: Millis


PenaltyKind = Literal["warning", "hands", "rounds", "chips", "disqualify"]


class Penalty(_Command, tag="penalty", frozen=True):
    """A penalty (74, RP-26): ``count`` hands or rounds, or ``chips`` taken out of play."""

    seat: SeatNo
    kind: PenaltyKind
    count: Quantity = 0
    chips: Chips = 0
    reason: Text = ""


class Correction(_Command, tag="correction", frozen=True):
    """The floor voids the last ``count`` actions of the hand; the state is re-derived."""

    reason: Text
    count: Quantity = 1
    by: Text = "floor"


Question = Literal["call_amount", "can_raise_if_call"]


class Ask(_Command, tag="ask", frozen=True):
    """A player facing action asks for information (RP-24); ``about`` names the other seat."""

    seat: SeatNo
    question: Question
    about: SeatNo | None = None


class Count(_Command, tag="count", frozen=True):
    """A player facing an all-in asks for its count (62); ``told`` is what the dealer said,
    when it differs from the true amount (accepted action, 51)."""

    seat: SeatNo
    of: SeatNo
    told: Chips | None = None


class CallFloor(_Command, tag="call_floor", frozen=True):
    """The dealer calls the floor to the table ("Floor!"): for anything a player or the dealer
    wants a floor person for that no other command names (1). The hand does not wait."""

    seat: SeatNo | None = None
    reason: Text = ""


ChipsKind = Literal["rebuy", "add_on"]


class AddChips(_Command, tag="add_chips", frozen=True):
    """A rebuy or add-on between hands: the seat's stack grows by ``chips`` (29). The player is
    not a new player, so the seat is dealt in as before; a rebuy announced before a hand plays
    that hand, so the tournament sends it before the deal."""

    seat: SeatNo
    chips: Chips
    kind: ChipsKind = "rebuy"


class ColorUp(_Command, tag="color_up", frozen=True):
    """After a chip race between hands: the leftover chips ``removed`` from each seat (26-C),
    and ``chips``, the denominations in play from now on, smallest first (26-A)."""

    chips: Annotated[list[Chips], msgspec.Meta(max_length=20)]
    removed: dict[SeatNo, Chips] = {}
    won: dict[SeatNo, Chips] = {}
    """Chips a seat gets in the race: the raced chip (at most one a player), or the one chip of
    the smallest denomination a player who lost the last chip is given (26-A)."""


class HoldHands(_Command, tag="hold_hands", frozen=True):
    """No new hand may start until ``hold`` is released; a hand in play finishes. The tournament
    holds a table for hand-for-hand (RP-8), a move or a break waiting on it (12-A, 11-B) and a
    stoppage (12-D); ``reason`` and ``rule`` are what the dealer station shows."""

    hold: Id
    reason: Text = ""
    rule: Text = ""


class ReleaseHands(_Command, tag="release_hands", frozen=True):
    """The hold ``hold`` is over (nothing happens when the table is not held for it)."""

    hold: Id


class HandForHand(_Command, tag="hand_for_hand", frozen=True):
    """Hand-for-hand is on (or off): an all-in and call keeps the cards face down and no further
    card is dealt until the floor releases them (RP-8-F)."""

    on: bool = True


class ReleaseCards(_Command, tag="release_cards", frozen=True):
    """The floor releases an all-in held during hand-for-hand: the hands are turned up (17) and
    the dealer deals on (RP-8-F)."""


class SetButton(_Command, tag="set_button", frozen=True):
    """Between hands: the next hand is dealt as a table's first, with the button on ``seat``
    (the final table's button drawn or placed by the structure, RP-9)."""

    seat: SeatNo


Command = (
    StartHand
    | Act
    | Deal
    | Draw
    | Show
    | Muck
    | Award
    | AddPlayer
    | RemovePlayer
    | SetLevel
    | Ruling
    | Misdeal
    | FouledDeck
    | Irregularity
    | Clock
    | Time
    | Penalty
    | Correction
    | Ask
    | Count
    | CallFloor
    | AddChips
    | ColorUp
    | HoldHands
    | ReleaseHands
    | HandForHand
    | ReleaseCards
    | SetButton
)
