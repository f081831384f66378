"""Applying an event to a state: the only place a table changes.

The engine decides which events a command produces, and each is applied here the moment it is
emitted; replaying a table's event log through :func:`evolve` therefore rebuilds exactly the
state the engine had. Every branch is bookkeeping — the rules were applied when the event was
decided. Lists, dicts and seats of the state are replaced, never changed in place, because a
copied state shares them with its original: a seat an event changes is copied first
(:func:`_own`), so that copying the state for each command copies no seat.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from protocol.commands import StartHand
from protocol.config import Level
from protocol.events import (
    ActionEvent,
    ActionLimited,
    Answer,
    Awarded,
    ButtonSet,
    CardsHeld,
    CardsReleased,
    CardsShown,
    ChipsAdded,
    ClockStarted,
    ColoredUp,
    Corrected,
    Dealt,
    Drawn,
    DrawPrompt,
    Event,
    ExposeAll,
    FloorCall,
    HandEnd,
    HandForHandSet,
    HandsHeld,
    HandsReleased,
    HandStart,
    Irregular,
    LevelSet,
    Misdealt,
    OutOfTurn,
    OutOfTurnReleased,
    PenaltyEnded,
    PenaltyGiven,
    PlayerAdded,
    PlayerRemoved,
    Prompt,
    Recorded,
    RoundEnd,
    RulingMade,
    SubstantialAction,
)
from server.engine import betting, games
from server.engine.state import (
    Clocked,
    Flagged,
    FlagKind,
    PendingAct,
    PendingCall,
    Seat,
    TableState,
)

CHIP_ACTIONS = frozenset({"call", "bet", "raise"})
ONE_ACTION = frozenset({"57", "48-B"})
"""Limits that bind only the action they were said or done for: "check" facing a bet (57),
chips pulled back facing a raise (48-B)."""


def evolve(t: TableState, e: Event) -> None:
    hot = _HOT.get(type(e))
    if hot is not None:
        hot(t, e)
        return
    match e:
        case DrawPrompt():
            t.to_act = e.seat
            t.phase = "draw"
        case Drawn():
            _drawn(t, e)
        case ExposeAll():
            t.exposed = True
        case SubstantialAction():
            t.sa = True
        case OutOfTurn():
            _out_of_turn(t, e)
        case ActionLimited():
            _limited(t, e)
        case OutOfTurnReleased():
            t.pending = [p for p in t.pending if p.seat != e.seat]
        case FloorCall():
            call = PendingCall(e.call, e.seat, e.rule, list(e.options), e.pushed, e.forfeit)
            t.calls = e.call
            if e.blocking:
                t.floor = [*t.floor, call]
                t.phase = "floor"
                t.to_act = None
            else:
                t.notices = [*t.notices, call]
        case RulingMade():
            if any(c.call == e.call for c in t.notices):
                t.notices = [c for c in t.notices if c.call != e.call]
                return
            t.floor = [c for c in t.floor if c.call != e.call]
            if e.option == "call_or_fold":
                t.no_raise = {**t.no_raise, e.seat: e.rule}
            t.phase = "floor" if t.floor else "betting"
        case ClockStarted():
            t.clock = Clocked(e.seat, e.expires)
        case Irregular():
            _irregular(t, e)
        case Awarded():
            t.awards = {**t.awards, e.pot: list(e.winners)}
            t.shares = {n: t.shares.get(n, 0) + e.shares.get(n, 0) for n in {*t.shares, *e.shares}}
        case HandEnd():
            _hand_end(t, e)
        case Misdealt():
            _restore(t)
        case Corrected():
            _restore(t)
            for redone in e.events:
                evolve(t, redone)
        case PenaltyGiven():
            _penalty(t, e)
        case Answer() if e.told is not None and e.told != e.amount:
            t.told = {**t.told, e.seat: e.told}
        case PenaltyEnded():
            t.penalties = {n: k for n, k in t.penalties.items() if n != e.seat}
        case PlayerAdded():
            seat = Seat(number=e.seat, stack=e.stack, name=e.name, waiting=True)
            if t.phase == "idle":
                t.seats = sorted([*t.seats, seat], key=_number)
            else:
                t.arrived = sorted([*t.arrived, seat], key=_number)
        case PlayerRemoved() if any(s.number == e.seat for s in t.arrived):
            t.arrived = [s for s in t.arrived if s.number != e.seat]
        case PlayerRemoved():
            # The seat's penalty leaves with its player (who serves it elsewhere, 74-A).
            t.seats = [s for s in t.seats if s.number != e.seat]
            t.penalties = {n: k for n, k in t.penalties.items() if n != e.seat}
        case ChipsAdded():
            _own(t, e.seat).stack = e.stack
        case ColoredUp():
            for s in _own_all(t):
                s.stack = e.stacks.get(s.number, s.stack)
            t.chips = tuple(e.chips)
        case LevelSet():
            t.next_level = Level(e.blinds, e.ante, e.bba, e.min_bet, e.bring_in)
            t.next_game = e.game or t.next_game
            t.next_rotation = list(e.rotation) or t.next_rotation
        case HandsHeld():
            reason = f"{e.rules[0] if e.rules else ''}|{e.reason}"
            t.holds = {**t.holds, e.hold: reason}
        case HandsReleased():
            t.holds = {k: v for k, v in t.holds.items() if k != e.hold}
        case HandForHandSet():
            t.h4h = e.on
        case CardsHeld():
            t.cards_held = True
        case CardsReleased():
            t.cards_held, t.released = False, True
        case ButtonSet():
            # Dealt as a table's first hand from this button (RP-9): the rotation starts anew.
            t.button, t.started, t.dead_small_blind = e.seat, False, False
            t.small_blind, t.sb_pos, t.big_blind = None, 0, 0
        case _:
            pass


def _prompt(t: TableState, e: Prompt) -> None:
    t.to_act = e.seat
    t.phase = "betting"


def _recorded(t: TableState, e: Recorded) -> None:
    t.history = [*t.history, e.command]


def _cards_shown(t: TableState, e: CardsShown) -> None:
    """A hand mucked, partly shown (its cards face up so far) or tabled (14-A)."""
    s = _own(t, e.seat)
    if e.mucked:
        s.mucked = True
    elif e.partial:
        s.face_up = tuple(e.cards)
    else:
        s.shown, s.face_up = True, ()
        if e.cards:
            s.cards = tuple(e.cards)


def _number(s: Seat) -> int:
    return s.number


def _seat(t: TableState, number: int) -> Seat:
    s = t.seat(number)
    assert s is not None, f"event names seat {number}, which is not at the table"
    return s


def _own(t: TableState, number: int) -> Seat:
    """The seat, copied into a new list of seats for this state to change: the seat and the
    list may be shared with the state this one was copied from."""
    seats = t.seats.copy()
    for i, s in enumerate(seats):
        if s.number == number:
            seats[i] = mine = msgspec.structs.replace(s)
            t.seats = seats
            return mine
    raise AssertionError(f"event names seat {number}, which is not at the table")


def _own_all(t: TableState) -> list[Seat]:
    """Every seat, copied for this state to change (as :func:`_own`)."""
    t.seats = [msgspec.structs.replace(s) for s in t.seats]
    return t.seats


def _become(t: TableState, other: TableState) -> None:
    for name in t.__struct_fields__:
        setattr(t, name, getattr(other, name))


def _restore(t: TableState) -> None:
    """Back to the table as it was before the hand: every chip returns (misdeal, 37-C)."""
    assert t.base is not None, "no hand to undo"
    announced, game, holds, h4h, arrived = t.next_level, t.next_game, t.holds, t.h4h, t.arrived
    limits = t.next_rotation
    _become(t, msgspec.structs.replace(t.base))
    t.next_level, t.next_game = announced or t.next_level, game or t.next_game
    t.next_rotation = limits or t.next_rotation
    # Holds and hand-for-hand are the tournament's orders, and players who sat down during the
    # hand are not in it: none of them is part of the hand undone.
    t.holds, t.h4h, t.arrived = holds, h4h, arrived


def _seat_arrived(t: TableState) -> None:
    """Players who sat down during the hand take their seats for the next hand (9-A, 11-A); not
    for a misdeal's redeal nor a void hand dealt again, which re-create the deal (37-C)."""
    if t.arrived:
        t.seats = sorted([*t.seats, *t.arrived], key=_number)
        t.arrived = []


def _hand_start(t: TableState, e: HandStart) -> None:
    base = msgspec.structs.replace(t, history=[], base=None)
    t.base = base
    # The deal as the dealer recorded it: a correction plays the hand again from it (24).
    t.history = [
        StartHand(cards=e.cards, button=e.button, up=e.up, absent=e.absent, exposed=e.exposed)
    ]
    if e.game:
        t.game, t.next_game = e.game, ""  # type: ignore[assignment]
    t.hand = e.hand
    if t.next_rotation:
        t.rotation, t.next_rotation = t.next_rotation, []
    if e.orbit:
        t.turn, t.orbit, t.played = e.turn, e.orbit, 1
    else:
        t.played += 1
    if t.game not in games.STUD:
        # A dead small blind sits where the last big blind was; on a table's first hand (34,
        # ``dead_small_blind``) there was none, and the next button stays where this one is.
        # Stud leaves the rotation as the last flop hand left it: the button is frozen where
        # the next flop hand has it (12-B).
        dead_at = t.big_blind if t.started else e.button
        t.sb_pos = e.small_blind if e.small_blind is not None else dead_at
        t.started, t.button = True, e.button
        t.small_blind, t.big_blind = e.small_blind, e.big_blind
    level = Level(e.blinds, e.ante, e.bba, e.min_bet, e.bring_in)
    if not e.redeal or t.next_level == level:
        t.next_level = None
    t.level = level
    dealt = set(e.dealt)
    for s in _own_all(t):
        s.bet = s.paid = 0
        s.dealt = s.number in dealt
        s.folded = s.acted = s.shown = s.mucked = False
        s.cards, s.face_up = tuple(e.cards.get(s.number, ())), ()
        s.up = tuple(e.up.get(s.number, ()))
        s.draws = ()
        if s.dealt:
            s.waiting = False
    if t.penalties:
        # 74-A: a penalty counts down hand by hand. A misdeal first restores the table as it
        # was before the hand, so the deal and the re-deal count once (37-C).
        t.penalties = {n: k - 1 if n in dealt else k for n, k in t.penalties.items()}
    t.dead = 0
    for p in e.posts:
        s = _seat(t, p.seat)
        s.stack -= p.amount
        if p.kind != "ante":
            s.bet += p.amount
            s.paid += p.amount
        elif e.bba:
            t.dead += p.amount
        else:
            s.paid += p.amount
    bb = e.blinds[1]
    t.street, t.board, t.next_street = games.streets(t.game)[0], [], ""
    # The big blind is the opening bet and the first of the capped bets (50, 53-B); an
    # ante-only level opens with no bet, like a later street.
    t.current_bet = t.full_bet = t.open_bet = bb
    t.last_full = level.min_bet
    t.bets = 1 if bb else 0
    t.aggressor = None
    t.phase, t.to_act, t.exposed, t.floor = "betting", None, False, []
    t.awards, t.shares = {}, {}
    t.pending, t.no_raise, t.flagged, t.clock = [], {}, [], None
    t.no_fold = {}
    t.skipped, t.told, t.button_error = {}, {}, None
    t.actions = t.chip_actions = t.street_actions = 0
    t.sa = False
    # Draw games: the stub is what the deal left (RP-25).
    t.stub = games.DECK - games.hole_count(t.game) * len(dealt) if t.game in games.DRAW else 0
    t.burns, t.muck, t.released = 0, (), False


def _drawn(t: TableState, e: Drawn) -> None:
    """A seat drew: the new cards replace the discards when both were entered and the hand
    was known; otherwise the hand is unknown until it is tabled."""
    s = _own(t, e.seat)
    if "RP-25-C" in e.rules:
        # The muck, folded hands included, went back into the stub: none of it is out now.
        t.muck = ()
        for other in t.seats:
            if other.dealt and not other.live:
                _own(t, other.number).cards = ()
    t.muck = (*t.muck, *(c for c in e.thrown if c != "??"))
    s.draws = (*s.draws, e.count)
    if e.count and s.cards:
        kept = [c for c in s.cards if c not in e.thrown]
        known = e.thrown and e.cards and "??" not in (*e.thrown, *e.cards)
        s.cards = (*kept, *e.cards) if known and len(kept) + e.count == len(s.cards) else ()
    t.stub, t.burns = e.stub, e.burns
    t.to_act = None


def _action(t: TableState, e: ActionEvent) -> None:
    s = _own(t, e.seat)
    put = e.total - s.bet
    s.stack -= put
    s.paid += put
    s.bet = e.total
    if not e.forced:
        t.to_act = None
    if t.pending:
        t.pending = [p for p in t.pending if p.seat != e.seat]
    if t.skipped:
        t.skipped = {n: c for n, c in t.skipped.items() if n != e.seat}
    if t.clock is not None and t.clock.seat == e.seat:
        t.clock = None
    if t.no_raise.get(e.seat) in ONE_ACTION or e.seat in t.no_fold:
        t.no_raise = {n: r for n, r in t.no_raise.items() if n != e.seat or r not in ONE_ACTION}
        t.no_fold = {n: r for n, r in t.no_fold.items() if n != e.seat}
    if not e.forced:
        # Substantial action counts the players' actions, not kills or corrections (38).
        t.actions += 1
        t.street_actions += 1
        if e.action in CHIP_ACTIONS and put > 0:
            t.chip_actions += 1
    if e.action == "fold":
        s.folded = True
        return
    if e.action == "bring_in":
        # RP-10: the bring-in opens the street short of a full bet; completing it is one. A
        # seat away at the deal posts it too (forced, 32), and its hand is killed.
        s.acted = s.acted or not e.forced
        t.current_bet = t.open_bet = e.total
        return
    if e.forced:
        return
    s.acted = True
    if e.total <= t.current_bet:
        return
    increment = e.total - t.current_bet
    if betting.is_limit(t):
        unit = betting.bet_unit(t)
        full = increment * 2 >= unit or e.total >= t.full_bet + unit
    else:
        full = increment >= t.last_full
        if full:
            t.last_full = increment
    if t.current_bet == 0:
        # 53-B: the opening bet is the first bet with chips, a short all-in included.
        t.open_bet = e.total
    if full:
        t.full_bet = e.total
        t.bets += 1
    t.current_bet = e.total
    t.aggressor = e.seat


def _out_of_turn(t: TableState, e: OutOfTurn) -> None:
    if e.act is not None and e.action != "fold":
        pending = PendingAct(e.seat, e.act, t.current_bet, list(e.skipped), e.rules[0])
        t.pending = [*t.pending, pending]
    chips = e.action in CHIP_ACTIONS
    counts = dict(t.skipped)
    for n in e.skipped:
        done, with_chips = counts.get(n, (0, 0))
        counts[n] = (done + 1, with_chips + chips)
    t.skipped = counts
    if "55-B" in e.rules:
        t.no_raise = {**t.no_raise, e.seat: "55-B"}
    elif e.action == "check" and t.current_bet > _seat(t, e.seat).bet:
        t.no_raise = {**t.no_raise, e.seat: "57"}


def _limited(t: TableState, e: ActionLimited) -> None:
    """57: "check" facing a bet leaves call or fold; 48-B: pulled-back chips leave call or
    raise. The seat stays to act."""
    rule = e.rules[0] if e.rules else ""
    if "raise" not in e.options:
        t.no_raise = {**t.no_raise, e.seat: rule}
    if "fold" not in e.options:
        t.no_fold = {**t.no_fold, e.seat: rule}


def _irregular(t: TableState, e: Irregular) -> None:
    if e.kind in ("under_raise", "pot_miscount") and e.seat is not None:
        if not e.found:
            kind: FlagKind = "under_raise" if e.kind == "under_raise" else "pot_low"
            if e.correct < e.total:
                kind = "pot_high"
            flag = Flagged(
                e.seat, kind, t.street, e.total, e.correct, e.level, t.actions, t.chip_actions
            )
            t.flagged = [*t.flagged, flag]
            return
        t.flagged = [f for f in t.flagged if f.seat != e.seat]
        if e.correct != e.total:
            _correct_level(t, e)
    elif e.kind == "wrong_button":
        t.button_error = None if e.found else e.correct
    elif e.kind == "seventh_exposed" and e.reshuffle and e.seat is not None:
        # RP-10-B: the exposed card went back into the stub; the seat's new card is unknown.
        s = _own(t, e.seat)
        s.cards = tuple("??" if c in e.reshuffle else c for c in s.cards)
    elif e.kind == "flop_not_burned" and e.burn:
        # 41-B: one of the three becomes the burn; the flop is completed from the stub.
        t.board = list(e.board)
        t.phase, t.next_street, t.street = "deal", "flop", "preflop"


def _correct_level(t: TableState, e: Irregular) -> None:
    """54: the street's bet becomes the right amount; the bettors' chips follow as actions."""
    if e.level == 0:
        t.open_bet = e.correct  # the corrected bet opened the street (53-B)
    if e.correct > e.total:
        increment = e.correct - e.level
        if increment >= t.last_full:
            t.last_full = increment
            t.full_bet = e.correct
            t.bets += 1 if e.kind == "under_raise" else 0
    else:
        t.last_full = min(t.last_full, max(e.correct - e.level, t.level.min_bet))
    t.current_bet = e.correct


def _penalty(t: TableState, e: PenaltyGiven) -> None:
    if e.hands_left:
        t.penalties = {**t.penalties, e.seat: e.hands_left}
    if e.removed:
        s = _own(t, e.seat)
        s.stack -= e.removed
        t.removed += e.removed
    if e.kind == "disqualify":
        t.seats = [s for s in t.seats if s.number != e.seat]
        t.penalties = {n: k for n, k in t.penalties.items() if n != e.seat}


def _round_end(t: TableState, e: RoundEnd) -> None:
    for seat, amount in e.returned.items():
        s = _own(t, seat)
        s.stack += amount
        s.paid -= amount
        s.bet -= amount
    t.to_act = None
    t.pending, t.skipped, t.told = [], {}, {}
    t.clock = None
    t.next_street = e.next
    t.phase = "showdown" if e.next == "showdown" else ("over" if e.next == "" else "deal")


def _dealt(t: TableState, e: Dealt) -> None:
    for s in _own_all(t):
        s.bet = 0
        s.acted = False
        if s.number in e.up:
            s.up = (*s.up, *e.up[s.number])
        if s.number in e.down and s.cards:
            # Seventh street's down-card joins the down-cards entered; a hand whose first two
            # were not entered stays unknown until it is tabled.
            s.cards = (*s.cards, *e.down[s.number])
    t.board = list(e.board)
    t.street = e.street
    t.current_bet = t.full_bet = t.open_bet = t.bets = 0
    t.last_full = t.level.min_bet
    t.aggressor = None
    t.next_street = ""
    t.no_raise = {}
    t.street_actions = 0
    t.phase = "betting"


def _hand_end(t: TableState, e: HandEnd) -> None:
    if e.void:
        # A fouled deck voids the hand: every bet goes back and the same hand is dealt again.
        _restore(t)
        return
    busted = set(e.busted)
    for s in _own_all(t):
        s.stack = e.stacks.get(s.number, s.stack)
        s.bet = s.paid = 0
        s.dealt = s.folded = s.acted = s.shown = s.mucked = False
        s.cards, s.face_up, s.up, s.draws = (), (), (), ()
    t.seats = [s for s in t.seats if s.number not in busted]
    t.muck = ()
    _seat_arrived(t)
    t.phase, t.to_act, t.floor, t.dead = "idle", None, [], 0
    t.current_bet = t.bets = 0
    t.awards, t.shares = {}, {}
    t.pending, t.no_raise, t.flagged, t.clock = [], {}, [], None
    t.no_fold = {}
    t.skipped, t.told, t.button_error = {}, {}, None
    t.base, t.history = None, []


_HOT: dict[type[Event], Callable[[TableState, Any], None]] = {
    ActionEvent: _action,
    Prompt: _prompt,
    Recorded: _recorded,
    HandStart: _hand_start,
    RoundEnd: _round_end,
    Dealt: _dealt,
    CardsShown: _cards_shown,
}
"""The events of every hand, applied by their exact type (no event subclasses another): a
``match`` tries its class patterns in turn, and each one that misses costs an
``isinstance`` through msgspec's metaclass, three of them for every command's ``Recorded``."""
