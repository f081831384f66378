"""Applying one tournament event to the state: the only place a tournament changes.

Containers are replaced, never changed in place, so a shallow clone is a safe copy.
"""

from __future__ import annotations

from protocol.tournament import (
    AbsenceMarked,
    AlternateListed,
    BountyWon,
    BreakStarted,
    ChipsAdded,
    ChipsRemoved,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    Disqualified,
    Eliminated,
    HandCounted,
    LevelStarted,
    Moved,
    Placed,
    Registered,
    RegistrationClosed,
    Seated,
    TableClosed,
    TableOpened,
    TimeBankUsed,
    TimeChanged,
    TournamentEvent,
    Unregistered,
    Winner,
)
from server.tournament.state import Player, Result, Table, TournamentState, Unplaced


def evolve(t: TournamentState, e: TournamentEvent) -> None:
    match e:
        case TableOpened():
            t.tables = {**t.tables, e.table: Table(seats=e.seats)}
        case TableClosed():
            t.tables = {k: v for k, v in t.tables.items() if k != e.table}
        case Registered():
            _registered(t, e)
        case Unregistered():
            _unregistered(t, e)
        case AlternateListed():
            t.players = {**t.players, e.player: Player(e.player, e.name, "alternate")}
            t.alternates = [*t.alternates, e.player]
        case Seated():
            _seat(t, e.player, e.table, e.seat)
            t.players[e.player].stack = e.stack
        case Moved():
            _unseat(t, e.player)
            _seat(t, e.player, e.table, e.seat)
        case HandCounted():
            _hand_counted(t, e)
        case Eliminated():
            _eliminated(t, e)
        case Placed():
            _placed(t, e)
        case BountyWon():
            for who in e.to:
                t.players[who].bounties += e.amount // len(e.to)
            t.players[e.to[0]].bounties += e.amount % len(e.to)
        case Winner():
            p = t.players[e.player]
            p.bounties += e.bounty
            p.results = [*p.results, Result(e.entry, "won", 1, e.prize)]
            t.finished = True
        case ClockStarted():
            t.clock.started = t.clock.running = True
            t.clock.at = e.at
        case LevelStarted():
            c = t.clock
            c.step, c.ends_at, c.hands_left, c.at = e.step, e.ends_at, e.hands, max(c.at, e.at)
        case BreakStarted():
            c = t.clock
            c.step, c.ends_at, c.hands_left, c.at = e.step, e.ends_at, 0, max(c.at, e.at)
        case ClockPaused():
            t.clock.running, t.clock.remaining, t.clock.at = False, e.remaining, e.at
        case ClockResumed():
            t.clock.running, t.clock.ends_at, t.clock.remaining = True, e.ends_at, 0
            t.clock.at = e.at
        case TimeChanged():
            t.clock.ends_at, t.clock.remaining, t.clock.at = e.ends_at, e.remaining, e.at
        case RegistrationClosed():
            t.closed, t.prizes, t.unplaced, t.alternates = True, list(e.prizes), [], []
        case ChipsAdded():
            p = t.players[e.player]
            p.stack += e.chips
            if e.kind == "rebuy":
                p.rebuys += 1
                t.rebuys += 1
            else:
                p.add_on = True
                t.add_ons += 1
        case ChipsRemoved():
            _chips_removed(t, e)
        case Disqualified():
            p = t.players[e.player]
            t.removed += e.chips
            _unseat(t, e.player)
            p.status, p.stack = "disqualified", 0
            p.results = [*p.results, Result(e.entry, "disqualified")]
        case AbsenceMarked():
            t.players[e.player].absent = e.absent
        case TimeBankUsed():
            t.players[e.player].time_banks = e.left
        case _:
            pass


def _registered(t: TournamentState, e: Registered) -> None:
    old = t.players.get(e.player)
    banks = t.structure.shot_clock.time_banks if t.structure.shot_clock else 0
    fresh = Player(e.player, e.name, "registered", entry=e.entry, time_banks=banks)
    if old is not None:
        fresh.results, fresh.bounties = old.results, old.bounties
    t.players = {**t.players, e.player: fresh}
    t.alternates = [a for a in t.alternates if a != e.player]
    t.entries += 1


def _unregistered(t: TournamentState, e: Unregistered) -> None:
    p = t.players[e.player]
    if p.status == "alternate":
        t.players = {k: v for k, v in t.players.items() if k != e.player}
        t.alternates = [a for a in t.alternates if a != e.player]
        return
    _unseat(t, e.player)
    t.entries -= 1
    if p.entry > 1:
        p.entry -= 1
        p.status, p.stack = "eliminated", 0
        return
    t.players = {k: v for k, v in t.players.items() if k != e.player}


def _seat(t: TournamentState, player: str, table: str, seat: int) -> None:
    tab = t.tables[table]
    tab.occupied = {**tab.occupied, seat: player}
    p = t.players[player]
    p.table, p.seat, p.status = table, seat, "seated"


def _unseat(t: TournamentState, player: str) -> None:
    p = t.players[player]
    if p.table is not None and p.table in t.tables:
        tab = t.tables[p.table]
        tab.occupied = {n: who for n, who in tab.occupied.items() if who != player}
    p.table = p.seat = None


def _hand_counted(t: TournamentState, e: HandCounted) -> None:
    for seat, stack in e.stacks.items():
        who = t.at_seat(e.table, seat)
        if who is not None:
            who.stack = stack
            who.played = who.played or seat in e.dealt
    if t.clock.hands_left:
        t.clock.hands_left -= 1


def _eliminated(t: TournamentState, e: Eliminated) -> None:
    p = t.players[e.player]
    _unseat(t, e.player)
    p.status, p.stack = "eliminated", 0
    p.results = [*p.results, Result(e.entry, "eliminated", e.place, e.prize)]
    if e.place:
        return
    out = Unplaced(e.player, e.entry, e.started, e.table, e.hand)
    last = t.unplaced[-1] if t.unplaced else []
    if last and (last[0].table, last[0].hand) == (e.table, e.hand):
        t.unplaced = [*t.unplaced[:-1], [*last, out]]
    else:
        t.unplaced = [*t.unplaced, [out]]


def _placed(t: TournamentState, e: Placed) -> None:
    """The place of an entry out before registration closed, known now."""
    p = t.players[e.player]
    p.results = [
        Result(r.entry, r.how, e.place, e.prize) if r.entry == e.entry else r for r in p.results
    ]


def _chips_removed(t: TournamentState, e: ChipsRemoved) -> None:
    p = t.players[e.player]
    t.removed += e.chips
    p.stack -= e.chips
    if e.kind == "forfeit":
        _unseat(t, e.player)
        p.status = "eliminated"
        p.results = [*p.results, Result(p.entry, "forfeited")]
