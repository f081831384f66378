"""Applying one tournament event to the state: the only place a tournament changes.

The containers a clone copies (``players``, ``tables``: ``TournamentState.clone``) change in
place; the ones it shares (a table's seats, the proposals, the breaks, a player's results) are
replaced, never changed, so the clone is a safe copy. Copying 5,000 players' dict for every
registration was most of what a registration cost the engine.
"""

from __future__ import annotations

import msgspec

from protocol.tournament import (
    AbsenceMarked,
    AlternateListed,
    BountyWon,
    BreakAnnounced,
    BreakProposed,
    BreakStarted,
    ButtonFrozen,
    ButtonUnfrozen,
    ChipRace,
    ChipsAdded,
    ChipsRemoved,
    ClockPaused,
    ClockResumed,
    ClockStarted,
    Disqualified,
    Eliminated,
    FinalTableAnnounced,
    FinalTableDrawn,
    FinalTableProposed,
    HandCounted,
    HandForHandEnded,
    HandForHandRound,
    HandForHandStarted,
    LevelStarted,
    MoveConfirmed,
    Moved,
    MoveDismissed,
    MoveProposed,
    Placed,
    PlayStopped,
    Registered,
    RegistrationClosed,
    Seated,
    StoppageEnded,
    StoppageWaived,
    TableBroken,
    TableClosed,
    TableOpened,
    TablesReleased,
    TimeBankUsed,
    TimeChanged,
    TournamentEvent,
    Unregistered,
    Winner,
)
from server.tournament.state import (
    Facts,
    HandForHand,
    PendingBreak,
    PendingFinal,
    Player,
    Proposal,
    Result,
    Table,
    TournamentState,
    Unplaced,
)

replace = msgspec.structs.replace


def evolve(t: TournamentState, e: TournamentEvent) -> None:
    match e:
        case TableOpened():
            t.tables[e.table] = Table(seats=e.seats, button=e.button or 1)
        case TableClosed():
            t.tables.pop(e.table, None)
        case Registered():
            _registered(t, e)
        case Unregistered():
            _unregistered(t, e)
        case AlternateListed():
            t.players[e.player] = Player(e.player, e.name, "alternate")
            t.alternates = [*t.alternates, e.player]
        case Seated():
            _seat(t, e.player, e.table, e.seat)
            t.players[e.player].stack = e.stack
        case Moved():
            _unseat(t, e.player)
            _seat(t, e.player, e.table, e.seat)
            if e.proposal:
                t.proposals = {k: v for k, v in t.proposals.items() if k != e.proposal}
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
            _across(t, e)


def _across(t: TournamentState, e: TournamentEvent) -> None:
    """The events of the tournament across its tables: balancing, breaks, hand-for-hand, the
    final table, the chip race."""
    match e:
        case MoveProposed():
            old = t.proposals.get(e.proposal)
            new = Proposal(e.proposal, e.from_table, e.table, e.player, e.seat)
            if old is not None:
                new = replace(old, player=e.player, seat=e.seat)
            t.proposals = {**t.proposals, e.proposal: new}
            t.proposed = max(t.proposed, e.proposal)
        case MoveConfirmed():
            p = t.proposals[e.proposal]
            t.proposals = {
                **t.proposals,
                e.proposal: replace(
                    p,
                    confirmed=True,
                    player=e.player or p.player,
                    seat=e.seat or p.seat,
                    fixed_player=e.player is not None,
                    fixed_seat=e.seat is not None,
                    waiting=list(e.waiting),
                    held=bool(e.waiting),
                ),
            }
        case MoveDismissed():
            t.proposals = {k: v for k, v in t.proposals.items() if k != e.proposal}
        case PlayStopped():
            t.tables[e.table].stopped = True
        case StoppageWaived():
            tab = t.tables[e.table]
            tab.stopped, tab.waived = False, True
        case StoppageEnded():
            tab = t.tables[e.table]
            tab.stopped = tab.waived = False
        case ButtonFrozen():
            t.frozen = True
        case ButtonUnfrozen():
            t.frozen = False
        case BreakProposed():
            t.break_proposed = e.table
        case BreakAnnounced():
            pending = PendingBreak(
                e.table, list(e.pile), e.shuffle, e.deal, e.staff, list(e.waiting)
            )
            t.breaks = [*t.breaks, pending]
        case TableBroken():
            t.tables[e.table].broken = True
            t.breaks = [b for b in t.breaks if b.table != e.table]
            if t.break_proposed == e.table:
                t.break_proposed = ""
            _not_waiting(t, e.table)
        case FinalTableProposed():
            t.final_proposed = True
        case FinalTableAnnounced():
            t.final = PendingFinal(e.table, e.draw, e.button_draw, list(e.waiting))
        case FinalTableDrawn():
            _final_table(t, e)
        case HandForHandStarted():
            waiting = list(e.waiting) if e.waiting else list(e.tables)
            t.h4h = HandForHand(1, waiting, fresh=not e.waiting, paused=e.paused)
        case HandForHandRound() if t.h4h is not None:
            waiting = list(e.tables) if e.released else []
            t.h4h = replace(t.h4h, hand=e.hand + 1, waiting=waiting, out=[], fresh=True)
            t.h4h.ready = not e.released
        case TablesReleased() if e.hold == "h4h" and t.h4h is not None and t.h4h.ready:
            t.h4h = replace(t.h4h, waiting=list(e.tables), ready=False)
        case HandForHandEnded():
            t.h4h = None
        case ChipRace():
            for seat in {*e.removed, *e.won}:
                who = t.at_seat(e.table, seat)
                if who is not None:
                    who.stack += e.won.get(seat, 0) - e.removed.get(seat, 0)
            t.removed += sum(e.removed.values()) - sum(e.won.values())
        case _:
            pass


def _not_waiting(t: TournamentState, table: str) -> None:
    """A table that no longer plays is waited for by nothing."""
    if t.h4h is not None and table in t.h4h.waiting:
        t.h4h = replace(t.h4h, waiting=[w for w in t.h4h.waiting if w != table])


def _final_table(t: TournamentState, e: FinalTableDrawn) -> None:
    for who in e.came_from:
        _unseat(t, who)
    for who, seat in e.seats.items():
        _seat(t, who, e.table, seat)
    final = t.tables[e.table]
    final.facts, final.joined, final.button = None, [], e.button
    for name, tab in t.tables.items():
        if name != e.table and not tab.occupied and not tab.broken:
            tab.broken = True
            _not_waiting(t, name)
    t.final, t.break_proposed = None, ""


def _registered(t: TournamentState, e: Registered) -> None:
    old = t.players.get(e.player)
    banks = t.structure.shot_clock.time_banks if t.structure.shot_clock else 0
    fresh = Player(e.player, e.name, "registered", entry=e.entry, time_banks=banks)
    if old is not None:
        fresh.results, fresh.bounties = old.results, old.bounties
    t.players[e.player] = fresh
    t.alternates = [a for a in t.alternates if a != e.player]
    t.entries += 1


def _unregistered(t: TournamentState, e: Unregistered) -> None:
    p = t.players[e.player]
    if p.status == "alternate":
        del t.players[e.player]
        t.alternates = [a for a in t.alternates if a != e.player]
        return
    _unseat(t, e.player)
    t.entries -= 1
    if p.entry > 1:
        p.entry -= 1
        p.status, p.stack = "eliminated", 0
        return
    del t.players[e.player]


def _seat(t: TournamentState, player: str, table: str, seat: int) -> None:
    tab = t.tables[table]
    tab.occupied = {**tab.occupied, seat: player}
    tab.joined = [*tab.joined, seat]
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
    tab = t.tables[e.table]
    if (e.button or e.small_blind or e.big_blind) and not t.frozen:
        # 12-B: while the game is stud, the button stays where the next hold'em hand has it.
        tab.facts = Facts(e.button, e.small_blind, e.big_blind, list(e.waiting))
        tab.joined = []
    # Moves, breaks and the final table that waited for this table's hand to end.
    if any(e.table in p.waiting for p in t.proposals.values()):
        t.proposals = {
            k: replace(p, waiting=[w for w in p.waiting if w != e.table])
            for k, p in t.proposals.items()
        }
    if any(e.table in b.waiting for b in t.breaks):
        t.breaks = [replace(b, waiting=[w for w in b.waiting if w != e.table]) for b in t.breaks]
    if t.final is not None and e.table in t.final.waiting:
        t.final = replace(t.final, waiting=[w for w in t.final.waiting if w != e.table])
    _not_waiting(t, e.table)


def _eliminated(t: TournamentState, e: Eliminated) -> None:
    p = t.players[e.player]
    _unseat(t, e.player)
    p.status, p.stack = "eliminated", 0
    p.results = [*p.results, Result(e.entry, "eliminated", e.place, e.prize)]
    if e.place:
        return
    if e.h4h and t.h4h is not None:
        # RP-8-A: placed with everyone out in this hand-for-hand hand, when it is over.
        out = Unplaced(e.player, e.entry, e.started, e.table, e.hand)
        t.h4h = replace(t.h4h, out=[*t.h4h.out, out])
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
