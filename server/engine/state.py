"""The state of one table, as plain structs the engine copies, evolves and serialises.

Only :mod:`server.engine.evolve` changes a state, and only by applying an event; everything
else reads. That keeps the rule that a table can always be rebuilt from its event log.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from protocol.commands import Act, Command
from protocol.config import Game, GameLevel, Level

Phase = Literal["idle", "betting", "deal", "draw", "showdown", "floor", "over"]


class Seat(msgspec.Struct, array_like=True, gc=False):
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
    """Tabled: every hole card face up (14-A)."""
    mucked: bool = False
    face_up: tuple[str, ...] = ()
    """Cards shown of a hand not yet tabled: the dealer asks for the rest (14-A, 16-A)."""
    up: tuple[str, ...] = ()
    """Stud: the hand's up-cards, in the order dealt (``cards`` are then its down-cards)."""
    draws: tuple[int, ...] = ()
    """Draw games: the cards the seat drew in each draw so far, 0 standing pat (public)."""

    @property
    def live(self) -> bool:
        """Dealt in and still holding a hand."""
        return self.dealt and not self.folded and not self.mucked

    @property
    def all_in(self) -> bool:
        return self.live and self.stack == 0

    def clone(self) -> Seat:
        return msgspec.structs.replace(self)


class PendingCall(msgspec.Struct, array_like=True):
    """A floor call the hand is waiting on, and what each option would do."""

    call: int
    seat: int
    rule: str
    options: list[str]
    pushed: int = 0
    forfeit: int = 0


class PendingAct(msgspec.Struct, array_like=True):
    """An action out of turn, waiting to see whether the action to its seat changes (55)."""

    seat: int
    act: Act
    level: int
    """The bet the seat faced when it acted; a bet or raise since changes its action."""
    skipped: list[int] = []
    rule: str = "55-A-1"


FlagKind = Literal["under_raise", "pot_low", "pot_high"]


class Flagged(msgspec.Struct, array_like=True):
    """A bet recorded as played that the rules would have corrected (54), found or not yet."""

    seat: int
    kind: FlagKind
    street: str
    total: int
    correct: int
    level: int
    """The bet the seat faced when it made this bet."""
    actions: int
    """Actions counted when the bet was made: substantial action since ends 54-B."""
    chip_actions: int


class Clocked(msgspec.Struct, array_like=True):
    seat: int
    expires: int


class TableState(msgspec.Struct, array_like=True):
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
    floor: list[PendingCall] = []
    """Open floor calls; the first is the one the hand waits on."""
    notices: list[PendingCall] = []
    """Open floor calls the hand does not wait on (penalties to consider, 60, 61-A)."""
    calls: int = 0
    pending: list[PendingAct] = []
    skipped: dict[int, tuple[int, int]] = {}
    """Seats skipped by out-of-turn actions -> (actions, actions with chips) after them (55-A-2)."""
    told: dict[int, int] = {}
    """Seats told a count of an all-in this street -> the amount they were told (51, 62)."""
    no_raise: dict[int, str] = {}
    """Seats limited to call or fold for the rest of the street -> the rule (55-A-2, 55-B, 57)."""
    no_fold: dict[int, str] = {}
    """Seats bound to call or raise for their next action -> the rule (48-B)."""
    actions: int = 0
    chip_actions: int = 0
    street_actions: int = 0
    sa: bool = False
    """Substantial action (38): two actions in turn with chips in one of them, or three."""
    clock: Clocked | None = None
    penalties: dict[int, int] = {}
    """Seat -> hands still to sit out (74-A, 74-C)."""
    removed: int = 0
    """Chips taken out of play by chip penalties and disqualifications (74-D, RP-26)."""
    flagged: list[Flagged] = []
    button_error: int | None = None
    """Where the button belonged this hand, when the dealer put it elsewhere (36-A)."""
    base: TableState | None = None
    """The table as it was before this hand started: misdeals and corrections go back to it."""
    history: list[Command] = []
    """The commands of this hand since it started, as recorded."""
    started: bool = False
    awards: dict[int, list[int]] = {}
    shares: dict[int, int] = {}
    dead_small_blind: bool = False
    """The first hand has no small blind (34); read only before the first hand starts."""
    holds: dict[str, str] = {}
    """Why no new hand may start, by the hold's name: ``rule|reason`` (RP-8, 12-A, 11-B, 12-D)."""
    h4h: bool = False
    """Hand-for-hand: an all-in and call waits for the floor, face down (RP-8-F)."""
    cards_held: bool = False
    """A hand-for-hand all-in waits for the floor's release (RP-8-F)."""
    arrived: list[Seat] = []
    """Players who sat down while a hand was in play (9-A, 11-A): at the table, out of the hand,
    dealt in from the next hand (where 11-A allows). A correction replays the hand without them,
    and a misdeal's redeal re-creates the deal without them (37-C)."""
    stub: int = 0
    """Draw games: the cards left in the stub to draw from (RP-25)."""
    burns: int = 0
    """Draw games: the burn cards set aside this hand (RP-25-B mixes them into a short stub).
    """
    next_game: str = ""
    """A mixed event's game announced for the next hand (25), "" when it stays."""
    muck: tuple[str, ...] = ()
    """Draw games: the discards entered since the muck was last shuffled into the stub
    (RP-25-C): dealt again before that, one is a duplicate card (37-E)."""
    rotation: list[GameLevel] = []
    """A mixed table by orbit: its games in order, each at its limits (12-B, RP-18)."""
    orbit_hands: int = 0
    """The hands each game deals; 0: one orbit, the players dealt in at its first hand."""
    turn: int = 0
    """The game of the rotation in play (0 the first)."""
    orbit: int = 0
    """The hands the game in play deals before the next game."""
    played: int = 0
    """The hands the game in play has dealt."""
    next_rotation: list[GameLevel] = []
    """Every game's limits announced for the next hand (25)."""
    released: bool = False
    """Hand-for-hand: the floor released this hand's all-in (RP-8-F); in a draw game the draws
    go on face down, and nothing waits again. The last of the fields: snapshots are arrays,
    and one stored before a field was added still decodes."""

    def seat(self, number: int) -> Seat | None:
        for s in self.seats:
            if s.number == number:
                return s
        return None

    def live(self) -> list[Seat]:
        return [s for s in self.seats if s.dealt and not s.folded and not s.mucked]

    def live_count(self) -> int:
        count = 0
        for s in self.seats:
            if s.dealt and not s.folded and not s.mucked:
                count += 1
        return count

    def pot_total(self) -> int:
        """Chips in the middle and in front of the seats."""
        return self.dead + sum(s.paid for s in self.seats)

    def actions_on_street(self) -> int:
        return self.street_actions

    def waiting_on(self) -> str:
        """Whom the table waits on: a seat, the floor or the dealer (never nobody)."""
        if self.cards_held:
            return "floor: release the all-in (hand-for-hand, RP-8-F)"
        if self.phase == "floor":
            call = self.floor[0]
            seat = f", seat {call.seat}" if call.seat else ""
            return f"floor: call {call.call}{seat} ({call.rule})"
        if self.phase == "betting" and self.to_act is not None:
            return f"seat {self.to_act}"
        if self.phase == "deal":
            return f"dealer: deal the {self.next_street}"
        if self.phase == "draw" and self.to_act is not None:
            return f"seat {self.to_act} to draw"
        if self.phase == "showdown":
            return "dealer: show, muck or award"
        if self.phase == "idle" and self.holds:
            rule, _, reason = next(iter(self.holds.values())).partition("|")
            return f"held: {reason}" + (f" ({rule})" if rule else "")
        if self.phase == "idle":
            return "dealer: start the next hand"
        return ""

    def seats_between(self, first: int, last: int) -> list[int]:
        """Live seats clockwise strictly after ``first`` and before ``last``."""
        numbers = [s.number for s in self.seats if s.live]
        if first < last:
            return [n for n in numbers if first < n < last]
        return [n for n in numbers if n > first] + [n for n in numbers if n < last]

    def clone(self) -> TableState:
        """A copy the engine may evolve. It shares the original's seats, lists and dicts: an
        event replaces them rather than changing them (:mod:`server.engine.evolve`), so copying
        a table for each command copies none of its seats."""
        return msgspec.structs.replace(self)


def new_state(
    game: Game,
    level: Level,
    chips: tuple[int, ...],
    seats: dict[int, int],
    button: int,
    names: dict[int, str] | None = None,
    cap: int = 4,
    heads_up_event: bool = False,
    dead_small_blind: bool = False,
    rotation: list[GameLevel] | None = None,
    orbit_hands: int = 0,
) -> TableState:
    names = names or {}
    return TableState(
        rotation=list(rotation or []),
        orbit_hands=orbit_hands,
        game=game,
        level=level,
        chips=tuple(sorted(chips)),
        seats=[
            Seat(number=n, stack=stack, name=names.get(n, "")) for n, stack in sorted(seats.items())
        ],
        button=button,
        cap=cap,
        heads_up_event=heads_up_event,
        dead_small_blind=dead_small_blind,
    )
