"""Applying an event to a state: the only place a table changes.

The engine decides which events a command produces, and each is applied here the moment it is
emitted; replaying a table's event log through :func:`evolve` therefore rebuilds exactly the
state the engine had. Every branch is bookkeeping — the rules were applied when the event was
decided.
"""

from __future__ import annotations

from protocol.config import Level
from protocol.events import (
    ActionEvent,
    Awarded,
    CardsShown,
    Dealt,
    Event,
    ExposeAll,
    FloorCall,
    HandEnd,
    HandStart,
    LevelSet,
    PlayerAdded,
    PlayerRemoved,
    Prompt,
    RoundEnd,
    RulingMade,
)
from server.engine import betting
from server.engine.state import PendingCall, Seat, TableState


def evolve(t: TableState, e: Event) -> None:
    match e:
        case ActionEvent():
            _action(t, e)
        case Prompt():
            t.to_act = e.seat
            t.phase = "betting"
        case HandStart():
            _hand_start(t, e)
        case RoundEnd():
            _round_end(t, e)
        case Dealt():
            _dealt(t, e)
        case CardsShown():
            s = _seat(t, e.seat)
            if e.mucked:
                s.mucked = True
            else:
                s.shown = True
                if e.cards:
                    s.cards = tuple(e.cards)
        case ExposeAll():
            t.exposed = True
        case FloorCall():
            t.floor = PendingCall(e.call, e.seat, e.rule, list(e.options), e.pushed, e.forfeit)
            t.calls = e.call
            t.phase = "floor"
            t.to_act = None
        case RulingMade():
            t.floor = None
            t.phase = "betting"
        case Awarded():
            t.awards = {**t.awards, e.pot: list(e.winners)}
            t.shares = {n: t.shares.get(n, 0) + e.shares.get(n, 0) for n in {*t.shares, *e.shares}}
        case HandEnd():
            _hand_end(t, e)
        case PlayerAdded():
            t.seats.append(Seat(number=e.seat, stack=e.stack, name=e.name, waiting=True))
            t.seats.sort(key=lambda s: s.number)
        case PlayerRemoved():
            t.seats = [s for s in t.seats if s.number != e.seat]
        case LevelSet():
            t.next_level = Level(e.blinds, e.ante, e.bba)
        case _:
            pass


def _seat(t: TableState, number: int) -> Seat:
    s = t.seat(number)
    assert s is not None, f"event names seat {number}, which is not at the table"
    return s


def _hand_start(t: TableState, e: HandStart) -> None:
    t.sb_pos = e.small_blind if e.small_blind is not None else t.big_blind
    t.hand, t.started, t.button = e.hand, True, e.button
    t.small_blind, t.big_blind = e.small_blind, e.big_blind
    t.level = Level(e.blinds, e.ante, e.bba)
    t.next_level = None
    dealt = set(e.dealt)
    for s in t.seats:
        s.bet = s.paid = 0
        s.dealt = s.number in dealt
        s.folded = s.acted = s.shown = s.mucked = False
        s.cards = tuple(e.cards.get(s.number, ()))
        if s.dealt:
            s.waiting = False
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
    t.street, t.board, t.next_street = "preflop", [], ""
    t.current_bet = t.last_full = t.full_bet = t.open_bet = bb
    t.bets = 1
    t.aggressor = None
    t.phase, t.to_act, t.exposed, t.floor = "betting", None, False, None
    t.awards, t.shares = {}, {}


def _action(t: TableState, e: ActionEvent) -> None:
    s = _seat(t, e.seat)
    put = e.total - s.bet
    s.stack -= put
    s.paid += put
    s.bet = e.total
    t.to_act = None
    if e.action == "fold":
        s.folded = True
        return
    s.acted = True
    if e.total <= t.current_bet:
        return
    increment = e.total - t.current_bet
    if betting.is_limit(t):
        full = increment * 2 >= betting.bet_unit(t)
    else:
        full = increment >= t.last_full
        if full:
            t.last_full = increment
    if t.bets == 0:
        t.open_bet = e.total
    if full:
        t.full_bet = e.total
        t.bets += 1
    t.current_bet = e.total
    t.aggressor = e.seat


def _round_end(t: TableState, e: RoundEnd) -> None:
    for seat, amount in e.returned.items():
        s = _seat(t, seat)
        s.stack += amount
        s.paid -= amount
    for s in t.seats:
        s.bet = 0
        s.acted = False
    t.current_bet = 0
    t.to_act = None
    t.next_street = e.next
    t.phase = "showdown" if e.next == "showdown" else ("over" if e.next == "" else "deal")


def _dealt(t: TableState, e: Dealt) -> None:
    t.board = list(e.board)
    t.street = e.street
    t.current_bet = t.full_bet = t.open_bet = t.bets = 0
    t.last_full = t.level.blinds[1]
    t.aggressor = None
    t.next_street = ""
    t.phase = "betting"


def _hand_end(t: TableState, e: HandEnd) -> None:
    busted = set(e.busted)
    for s in t.seats:
        s.stack = e.stacks.get(s.number, s.stack)
        s.bet = s.paid = 0
        s.dealt = s.folded = s.acted = s.shown = s.mucked = False
        s.cards = ()
    t.seats = [s for s in t.seats if s.number not in busted]
    t.phase, t.to_act, t.floor, t.dead = "idle", None, None, 0
    t.current_bet = t.bets = 0
    t.awards, t.shares = {}, {}
