"""A table as the stations see it: the ``state`` of a ``snapshot`` message.

A station that opens or reloads takes the table whole from this view, then follows the events.
The field names are a public contract the web stations read (``clients/web/js/table.js``):
extend them with new fields that have defaults, never rename one. Every field is named on the
wire (no positional arrays), so a station never depends on the order of a struct's fields.

There are two variants of one shape. ``TableView`` is what dealers and the floor see: every
hole card the dealer entered. ``PublicTableView`` is what a display sees: a seat's ``cards``
hold only what the rules have put face up for everyone — a hand shown at the showdown (14-A),
the cards of a hand shown so far (16-A), or a live hand turned up because an all-in left no
more betting (17). A folded or mucked hand stays face down even after such an exposure.
"""

from __future__ import annotations

import msgspec

from protocol.commands import Act
from protocol.config import Game
from protocol.events import DrawPrompt, Prompt


class _View(msgspec.Struct, frozen=True, kw_only=True):
    """Base of the view structs: named fields, unknown ones ignored (a newer server may add)."""


class SeatView(_View, frozen=True):
    """One seat and what its player has done this hand."""

    seat: int
    name: str
    stack: int
    bet: int
    """Chips in front of the seat on the current street."""
    in_hand: bool
    """Dealt in and still holding a hand."""
    all_in: bool
    folded: bool
    waiting: bool
    """A newcomer the next hand (or this one) does not deal in: seated between the small blind
    and the button, it waits until the button passes (11-A). Between hands only those seats;
    one seated where the next hand deals it (the big blind's, 12-A) is not waiting."""
    cards: list[str]
    """The hole cards; in the public view only those the rules exposed (see ``exposed``)."""
    shown: bool
    mucked: bool
    penalty: int
    """Hands still to sit out (74-A, 74-C)."""
    dealt: bool = False
    exposed: bool = False
    """The whole hand is face up for everyone: shown (14-A) or turned up all-in (17)."""
    face_up: list[str] = []
    """The cards of a hand shown so far, while the dealer waits for the rest (16-A)."""
    no_raise: str = ""
    """The rule limiting the seat to call or fold for the rest of the street (55-A-2, 55-B, 57)."""
    no_fold: str = ""
    """The rule binding the seat to call or raise on its next action (48-B)."""
    up: list[str] = []
    """Stud: the seat's up-cards, public from the deal; ``cards`` are then its down-cards."""
    draws: list[int] = []
    """Draw games: the cards the seat drew at each draw of this hand so far, in order (0: stood
    pat). Public: the players see how many each draws, never which cards (RP-25-D)."""


class FloorCallView(_View, frozen=True):
    """An open floor call. ``blocking``: the hand waits on it (else a penalty to consider)."""

    call: int
    seat: int
    rule: str
    options: list[str]
    pushed: int = 0
    forfeit: int = 0
    blocking: bool = True


class OutOfTurnView(_View, frozen=True):
    """An action out of turn, binding unless the action to its seat changes (55)."""

    seat: int
    act: Act
    rule: str
    skipped: list[int] = []


class ClockView(_View, frozen=True):
    """The clock on a seat (31): its action is due by ``expires`` (ms)."""

    seat: int
    expires: int


class LevelView(_View, frozen=True):
    """The blinds and ante of a level (25)."""

    blinds: tuple[int, int]
    ante: int = 0
    bba: bool = False
    min_bet: int = 0
    bring_in: int = 0
    """Stud's bring-in (RP-10)."""
    game: str = ""
    """A mixed event's game announced for the next hand (``level.game``), "" when it stays."""


class _Table(_View, frozen=True, tag_field="view"):
    """The fields both variants share; ``view`` on the wire names the variant."""

    game: Game
    hand: int
    phase: str
    """``idle``, ``betting``, ``deal``, ``showdown``, ``floor`` or ``over``."""
    street: str
    blinds: tuple[int, int]
    ante: int
    bba: bool
    chips: list[int]
    next_level: LevelView | None
    """The level announced for the next hand (25)."""
    button: int
    small_blind: int | None
    big_blind: int
    board: list[str]
    to_act: int | None
    current_bet: int
    pots: list[int]
    """The pots formed so far (main first), bets in front of the seats not included."""
    pot_total: int
    """Chips in the middle, bets in front of the seats not included."""
    seats: list[SeatView]
    waiting_on: str
    """Whom the table waits on, in words: a seat, the floor or the dealer."""
    prompt: Prompt | None
    """The options of the seat to act, while a betting round waits on it."""
    floor: list[FloorCallView]
    """Open floor calls: the blocking ones first, the first being the one the hand waits on."""
    substantial_action: bool
    clock: ClockView | None
    exposed: bool
    """All hands were turned up because an all-in left no more betting (17)."""
    next_street: str = ""
    """The street the dealer deals next, while the table waits for it."""
    min_bet: int = 0
    """The smallest bet and raise of the level (45-A)."""
    out_of_turn: list[OutOfTurnView] = []
    """Actions out of turn waiting on the action to their seats (55)."""
    bring_in: int = 0
    """Stud's bring-in (RP-10)."""
    seventh: str = ""
    """Stud, while the dealer waits to deal seventh street: the procedure of a short stub
    (RP-10-H) — ``A`` (the burns mixed in, a card to each hand), ``B`` or ``C`` (one community
    card) — or "" when the stub is enough (as sixth street's ``round_end`` says)."""
    stub: int = 0
    """Draw games: the cards left in the stub to draw from (RP-25), as the last ``draw_prompt``
    or ``drawn`` said; 0 in the other games."""
    draw_prompt: DrawPrompt | None = None
    """Draw games, while a draw waits on a seat: the ``draw_prompt`` event it was given (the
    seat, the draw, the most it may throw, the stub), so a station loaded mid-draw knows
    whose draw it is. None otherwise."""
    rotation: list[str] = []
    """A mixed table by orbit (``config.rotation``): its games in order (12-B, RP-18)."""
    turn: int = 0
    """The game of the rotation in play (0 the first)."""
    orbit: int = 0
    """The hands the game in play deals (``hand_start.orbit`` of its first hand)."""
    played: int = 0
    """The hands the game in play has dealt: with ``orbit`` dealt, the next hand deals the
    rotation's next game."""


class TableView(_Table, frozen=True, tag="staff"):
    """The table as dealers and the floor see it: every hole card entered."""

    muck: list[str] = []
    """The cards entered into the muck this hand: a draw's discards (RP-25), which the staff's
    ``drawn`` events named; a folded hand's cards stay with its seat. A station picking the
    table up from this view knows every card in play, as one that followed the events does."""


class PublicTableView(_Table, frozen=True, tag="public"):
    """The table as a display sees it: only the hole cards the rules exposed."""


AnyTableView = TableView | PublicTableView
