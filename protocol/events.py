"""What the engine says happened: the events every station sees.

Events that apply a TDA rule carry its 2026 number in ``rules`` ("45-A", "RP-11"), and a
``text`` a floor supervisor can read at a glance.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from protocol.commands import Act, Command
from protocol.config import GameLevel

ActionName = Literal["fold", "check", "call", "bet", "raise", "bring_in"]


class _Event(msgspec.Struct, frozen=True, tag_field="type", omit_defaults=False, gc=False):
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
    min_bet: int = 0
    dealt: list[int] = []
    posts: list[Post] = []
    cards: dict[int, list[str]] = {}
    redeal: bool = False
    rules: list[str] = []
    text: str = ""
    up: dict[int, list[str]] = {}
    """Stud: each seat's up-card (public); ``cards`` are then its down-cards."""
    bring_in: int = 0
    game: str = ""
    """The game this hand deals, when a mixed event changed it ("" when it stays)."""
    turn: int = 0
    orbit: int = 0
    """A mixed table by orbit: the hand starts game ``turn`` of the rotation (0 first), which
    deals ``orbit`` hands (0: the hand goes on with the game in play)."""
    absent: list[int] = []
    """Seats away at the deal, their hands killed (32), as ``start_hand`` said."""
    exposed: list[int] = []
    """Stud: seats whose up-card is an exposed down-card (RP-10-A), as ``start_hand`` said."""


class ActionEvent(_Event, tag="action", frozen=True):
    """A seat's action as ruled: what it became and the seat's total on the street."""

    seat: int
    action: ActionName
    total: int
    all_in: bool = False
    returned: int = 0
    rules: list[str] = []
    text: str = ""
    forced: bool = False
    """Not a player's action but a ruling on its hand (a kill, a correction): it does not
    count toward substantial action (38)."""


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
    bring_in: int = 0
    """Stud's bring-in, when the seat owes it (RP-10): the amount of its ``bring_in`` option."""


class FloorCall(_Event, tag="floor_call", frozen=True):
    """The TDA leaves this to the floor: the hand waits for a ruling among ``options``."""

    seat: int
    rule: str
    options: list[str]
    call: int = 0
    forfeit: int = 0
    pushed: int = 0
    blocking: bool = True
    """False for calls that do not stop the hand (a penalty to consider, 60, 61-A)."""
    text: str = ""


class RulingMade(_Event, tag="ruling", frozen=True):
    """The floor's answer to floor call ``call``."""

    call: int
    seat: int
    rule: str
    option: str
    text: str = ""
    by: str = ""
    """Who ruled (the floor's name from its token), or empty."""


class ExposeAll(_Event, tag="expose_all", frozen=True):
    """All hands face up: an all-in left no further betting possible (rule 17).

    ``cards`` are the exposed hands where the dealer entered them: public from now on."""

    seats: list[int] = []
    cards: dict[int, list[str]] = {}
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
    up: dict[int, list[str]] = {}
    """Stud: the street's up-cards by seat."""
    down: dict[int, list[str]] = {}
    """Stud's seventh street: the down-cards entered, by seat (never shown to displays)."""
    rules: list[str] = []
    text: str = ""
    """Stud's seventh street dealt from a short stub: the procedure (RP-10-H); a community
    card is the street's one card in ``cards`` and ``board``."""


class DrawPrompt(_Event, tag="draw_prompt", frozen=True):
    """The seat to draw: it stands pat or throws up to ``most`` cards (RP-25-D); ``stub`` is the
    cards left to deal from, so the dealer sees a short stub coming (RP-25)."""

    seat: int
    street: str
    most: int
    stub: int = 0
    text: str = ""


class Drawn(_Event, tag="drawn", frozen=True):
    """A seat drew ``count`` cards (0: stood pat), the count public; ``thrown`` and ``cards``
    (the discards and the cards dealt, when entered) are the seat's alone. ``stub`` and
    ``burns`` are what is left after it. A draw the stub could not serve names the procedure
    (RP-25 A-C) in ``rules`` and ``text``."""

    seat: int
    street: str
    count: int
    thrown: list[str] = []
    cards: list[str] = []
    stub: int = 0
    burns: int = 0
    rules: list[str] = []
    text: str = ""


class ShowdownOrder(_Event, tag="showdown", frozen=True):
    """Who shows first at a showdown without all-in (rule 18)."""

    order: list[int]
    rules: list[str] = msgspec.field(default_factory=lambda: ["18"])
    text: str = ""


class CardsShown(_Event, tag="shown", frozen=True):
    """A hand tabled (every hole card face up, 14-A), mucked, or ``partial``: some of its
    cards shown, ``cards`` being all of them face up so far; the dealer asks for the rest
    (16-A) and the hand is not read until it is tabled (13, 20)."""

    seat: int
    cards: list[str] = []
    mucked: bool = False
    partial: bool = False
    rules: list[str] = []
    text: str = ""


class PotAward(msgspec.Struct, frozen=True):
    """One pot (0 main, then side pots) and how it was split."""

    amount: int
    winners: list[int]
    pot: int = 0
    shares: dict[int, int] = {}
    eligible: list[int] = []
    rules: list[str] = []
    hands: dict[int, str] = {}
    """What each winner's cards make, in words ("flush, ace high"), when the cards are known."""


class Awarded(_Event, tag="award", frozen=True):
    """The dealer awarded one pot; the hand ends when every pot is awarded."""

    pot: int
    amount: int
    winners: list[int]
    shares: dict[int, int] = {}
    rules: list[str] = []
    hands: dict[int, str] = {}
    """What each winner's cards make, in words, when the board and their cards are known."""


class HandEnd(_Event, tag="hand_end", frozen=True):
    hand: int
    stacks: dict[int, int]
    pots: list[PotAward] = []
    busted: list[int] = []
    void: bool = False
    removed: int = 0
    text: str = ""


class PlayerAdded(_Event, tag="player_added", frozen=True):
    """A player sits down; during a hand, out of it and dealt in from the next (9-A, 11-A)."""

    seat: int
    stack: int
    name: str = ""
    rules: list[str] = []
    text: str = ""
    waits: bool = True
    """The next hand does not deal the newcomer in: seated between the small blind and the
    button, it waits for the button to pass (11-A); during a hand, until the hand ends."""


class PlayerRemoved(_Event, tag="player_removed", frozen=True):
    seat: int
    stack: int = 0


class LevelSet(_Event, tag="level", frozen=True):
    blinds: tuple[int, int]
    ante: int = 0
    bba: bool = False
    min_bet: int = 0
    rules: list[str] = msgspec.field(default_factory=lambda: ["25-A"])
    bring_in: int = 0
    game: str = ""
    """A mixed event's game from the next hand ("" when the game stays)."""
    rotation: list[GameLevel] = []
    """A mixed table by orbit: every game's limits from the next hand."""


class Recorded(_Event, tag="recorded", frozen=True):
    """What the dealer station recorded, exactly, before the ruling: the raw fact behind the
    events that follow, and what a correction replays."""

    command: Command


class SubstantialAction(_Event, tag="substantial_action", frozen=True):
    """Substantial action has happened this hand (38): no misdeal, a skipped seat is bound."""

    rules: list[str] = msgspec.field(default_factory=lambda: ["38"])
    text: str = ""


class OutOfTurn(_Event, tag="out_of_turn", frozen=True):
    """A seat acted out of turn (55); the action backs up to ``to_act``.

    ``action``/``total`` are what the seat's action will be if it binds.
    """

    seat: int
    to_act: int
    action: str
    total: int
    skipped: list[int] = []
    act: Act | None = None
    rules: list[str] = []
    text: str = ""


class OutOfTurnReleased(_Event, tag="out_of_turn_released", frozen=True):
    """The action to the seat changed: its out-of-turn action is not binding (55-A-1)."""

    seat: int
    rules: list[str] = msgspec.field(default_factory=lambda: ["55-A-1"])
    text: str = ""


class ActionLimited(_Event, tag="action_limited", frozen=True):
    """What the seat to act said or did binds it to some options for this action, and it is
    still to act: "check" facing a bet leaves call or fold (57); chips of an earlier bet
    pulled back facing a raise leave call or raise (48-B)."""

    seat: int
    options: list[str]
    rules: list[str] = []
    text: str = ""


class ClockStarted(_Event, tag="clock", frozen=True):
    """The clock is on ``seat``: 25 s to ``deadline``, then a 5 s countdown to ``expires`` (31)."""

    seat: int
    at: int
    deadline: int
    expires: int
    rules: list[str] = msgspec.field(default_factory=lambda: ["31"])
    text: str = ""


class Irregular(_Event, tag="irregularity", frozen=True):
    """An irregularity and the procedure that resolves it.

    ``reshuffle`` names the cards that go back into the stub before it is reshuffled,
    ``burn`` the card that becomes the burn; ``street`` what is to be dealt (again).
    """

    kind: str
    seat: int | None = None
    street: str = ""
    reshuffle: list[str] = []
    burn: str = ""
    board: list[str] = []
    total: int = 0
    correct: int = 0
    level: int = 0
    found: bool = False
    rules: list[str] = []
    text: str = ""


class Misdealt(_Event, tag="misdeal", frozen=True):
    """A misdeal: every chip of the hand goes back; the re-deal follows as a new hand_start
    with the same hand number, button and level (37-C)."""

    hand: int
    reason: str = ""
    rules: list[str] = msgspec.field(default_factory=lambda: ["37-A", "37-C"])
    text: str = ""


class PenaltyGiven(_Event, tag="penalty", frozen=True):
    """A penalty; ``hands_left`` counts down hand by hand; ``removed`` chips leave play."""

    seat: int
    kind: str
    hands_left: int = 0
    removed: int = 0
    reason: str = ""
    rules: list[str] = []
    text: str = ""


class PenaltyEnded(_Event, tag="penalty_end", frozen=True):
    seat: int
    text: str = ""


class Corrected(_Event, tag="correction", frozen=True):
    """The floor voided the last ``count`` actions; ``undone`` says what they were."""

    count: int
    reason: str
    by: str
    undone: list[str] = []
    keep: int = 0
    rules: list[str] = []
    text: str = ""
    events: list[Event] = []
    """The hand's events played again without the voided actions: applied after going back to
    the table as it was before the hand, they give the corrected hand."""


class Answer(_Event, tag="answer", frozen=True):
    """An answer to a player's information request, in the words of the rule (RP-24, 62)."""

    seat: int
    question: str
    answer: str
    amount: int | None = None
    rules: list[str] = []
    text: str = ""
    told: int | None = None


class ErrorEvent(_Event, tag="error", frozen=True):
    """The command was not accepted; nothing changed."""

    message: str
    rule: str = ""
    seat: int | None = None
    code: str = "illegal"


class ChipsAdded(_Event, tag="chips_added", frozen=True):
    """A rebuy or add-on reached the table: ``stack`` is the seat's stack with it (29)."""

    seat: int
    chips: int
    kind: str
    stack: int
    rules: list[str] = []
    text: str = ""


class ColoredUp(_Event, tag="colored_up", frozen=True):
    """A color-up: ``removed`` leftover chips came off the seats (26-C), ``stacks`` are every
    seat's stack after it and ``chips`` the denominations in play from now on."""

    removed: dict[int, int]
    chips: list[int]
    stacks: dict[int, int]
    rules: list[str] = []
    text: str = ""
    won: dict[int, int] = {}
    """Chips the race gave a seat: the raced chip, or the one a player raced out gets (26-A)."""


class HandsHeld(_Event, tag="hands_held", frozen=True):
    """No new hand starts at this table until ``hold`` is released (a hand in play finishes)."""

    hold: str
    reason: str = ""
    rules: list[str] = []
    text: str = ""


class HandsReleased(_Event, tag="hands_released", frozen=True):
    hold: str
    text: str = ""


class HandForHandSet(_Event, tag="hand_for_hand", frozen=True):
    """Hand-for-hand on or off at this table (RP-8)."""

    on: bool
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-8"])
    text: str = ""


class CardsHeld(_Event, tag="cards_held", frozen=True):
    """Hand-for-hand: an all-in and call; the cards of ``seats`` stay face down and no further
    card is dealt until the floor releases them (RP-8-F). It carries no card."""

    seats: list[int]
    next: str = ""
    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-8-F"])
    text: str = ""


class CardsReleased(_Event, tag="cards_released", frozen=True):
    """The floor released the held all-in: the hands are turned up next (17)."""

    rules: list[str] = msgspec.field(default_factory=lambda: ["RP-8-F"])
    text: str = ""


class ButtonSet(_Event, tag="button_set", frozen=True):
    """The next hand is dealt as the table's first, with the button on ``seat`` (RP-9)."""

    seat: int
    rules: list[str] = []
    text: str = ""


Event = (
    HandStart
    | ActionEvent
    | Prompt
    | FloorCall
    | RulingMade
    | ExposeAll
    | RoundEnd
    | Dealt
    | DrawPrompt
    | Drawn
    | ShowdownOrder
    | CardsShown
    | Awarded
    | HandEnd
    | PlayerAdded
    | PlayerRemoved
    | LevelSet
    | Recorded
    | SubstantialAction
    | OutOfTurn
    | OutOfTurnReleased
    | ActionLimited
    | ClockStarted
    | Irregular
    | Misdealt
    | PenaltyGiven
    | PenaltyEnded
    | Corrected
    | Answer
    | ErrorEvent
    | ChipsAdded
    | ColoredUp
    | HandsHeld
    | HandsReleased
    | HandForHandSet
    | CardsHeld
    | CardsReleased
    | ButtonSet
)
