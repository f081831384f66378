"""Hand-for-hand (RP-8): every table plays one hand, then waits for the others.

The floor announces it ("finish the hand you are playing and wait: we are going hand-for-hand").
Every table is told (an all-in and call there keeps the cards face down until the floor
releases them, RP-8-F: the table engine holds the exposure) and held after its hand; the
tables still in a hand finish it — that is the first hand-for-hand hand, since prize
eligibility starts at the announcement (RP-8-A). When the last table finishes, the next hand
starts at every table together: released at once, or by the floor (the structure's
``hand_for_hand_release``).

Entries out in the same hand-for-hand hand, at any table, share the prizes of the places they
finish in (RP-8-A; the example: 50 paid, 52 left, 3 out in one hand share 50th place's
prize). They are placed when the hand is over at every table: when they all went out at one
table the usual order applies (the larger starting stack higher, 22), across tables they tie.

The clock stops at the announcement and loses the structure's minutes for each hand played
under hand-for-hand — 2 by default, never more than 3 (RP-8-B, RP-8-C) — so the levels go on
rising at hand boundaries (RP-8-D). It runs again when hand-for-hand ends.
"""

from __future__ import annotations

from protocol.tournament import (
    AllInReleased,
    ClockPaused,
    ClockResumed,
    HandForHandEnded,
    HandForHandRound,
    HandForHandStarted,
    Placed,
    ReleaseAllIn,
    ReleaseTables,
    StartHandForHand,
    TablesHeld,
    TablesReleased,
)
from server.tournament import clock, payouts, words
from server.tournament.errors import TournamentIllegal
from server.tournament.moves import Emit
from server.tournament.places import champion, rank
from server.tournament.state import TournamentState

HOLD = "h4h"


def tables(t: TournamentState) -> list[str]:
    """The tables that play the next hand-for-hand hand: in play, not stopped, two players."""
    return [n for n, tab in t.in_play().items() if len(tab.occupied) >= 2 and not tab.stopped]


def start(t: TournamentState, cmd: StartHandForHand, emit: Emit) -> None:
    if not cmd.on:
        stop(t, cmd.at, emit)
        return
    if t.h4h is not None:
        raise TournamentIllegal("RP-8", "hand-for-hand is already on", code="hand_for_hand")
    if not t.clock.started:
        raise TournamentIllegal("25-A", "the clock has not started", code="not_started")
    clock.advance(t, cmd.at, emit)
    every = tables(t)
    waiting = sorted(set(cmd.playing) & set(every))
    paused = t.clock.running
    if paused:
        remaining = max(0, t.clock.ends_at - cmd.at) if t.clock.ends_at else 0
        emit(
            ClockPaused(
                at=cmd.at,
                remaining=remaining,
                text=f"Hand-for-hand: the clock stops with {words.duration(remaining)} left",
            )
        )
    minutes = t.structure.hand_for_hand_minutes
    still = (
        f"; table {waiting[0]} finishes the hand in play"
        if len(waiting) == 1
        else f"; tables {', '.join(waiting)} finish the hands in play"
        if waiting
        else ""
    )
    emit(
        HandForHandStarted(
            at=cmd.at,
            tables=every,
            waiting=waiting,
            players=len(t.alive()),
            paid=len(t.prizes),
            minutes=minutes,
            paused=paused,
            text=f"Hand-for-hand with {len(t.alive())} players left: prize eligibility starts "
            f"now (RP-8-A); the clock loses {minutes} minutes a hand (RP-8-B, RP-8-C){still}",
        )
    )
    if waiting:
        emit(_hold(every))


def _hold(which: list[str]) -> TablesHeld:
    return TablesHeld(
        hold=HOLD,
        tables=which,
        reason="hand-for-hand: waiting for the other tables",
        rules=["RP-8"],
        text=f"Hand-for-hand: table {', '.join(which)} waits for the other tables",
    )


def after_hand(t: TournamentState, table: str, was_waiting: bool, at: int, emit: Emit) -> None:
    """A table finished its hand-for-hand hand: it waits, or it was the last one."""
    h = t.h4h
    if h is None or not was_waiting:
        return
    if h.waiting:
        emit(_hold([table]))
        return
    complete(t, at, emit, last=table)


def settle(t: TournamentState, at: int, emit: Emit) -> None:
    """The hand-for-hand hand is over once no table is still in it — also when the last one
    still in it was just broken or merged into the final table."""
    h = t.h4h
    if h is not None and not h.waiting and not h.ready:
        complete(t, at, emit)


def complete(t: TournamentState, at: int, emit: Emit, last: str = "") -> None:
    """The hand is over at every table: its eliminations placed together (RP-8-A), the clock's
    minutes off (RP-8-B/C/D), the next hand released (or held for the floor)."""
    h = t.h4h
    assert h is not None
    placed = _places(t)
    auto = t.structure.hand_for_hand_release == "auto"
    nxt = tables(t)
    out = [u.player for u in h.out]
    names = ", ".join(t.players[w].name or w for w in out)
    emit(
        HandForHandRound(
            hand=h.hand,
            at=at,
            out=out,
            tables=nxt,
            released=auto,
            text=f"Hand-for-hand hand {h.hand} is over at every table"
            + (f"; out: {names}" if out else "")
            + ("; the next hand starts at every table" if auto else "; the floor starts the next"),
        )
    )
    for event in placed:
        emit(event)
    if h.fresh and t.structure.hand_for_hand_minutes:
        clock.lose(t, at, t.structure.hand_for_hand_minutes * 60_000, emit)
    if auto:
        emit(_released(list(t.in_play())))
    elif last:
        emit(_hold([last]))
    if (won := champion(t)) is not None:
        emit(won)


def _released(which: list[str]) -> TablesReleased:
    return TablesReleased(
        hold=HOLD, tables=which, text="Hand-for-hand: the next hand starts at every table"
    )


def _places(t: TournamentState) -> list[Placed]:
    """RP-8-A: the entries out in this hand-for-hand hand share their places' prizes; all at one
    table, they are placed by their starting stacks (22)."""
    h = t.h4h
    assert h is not None
    out = h.out
    if not out:
        return []
    worst = len(t.alive()) + len(out)
    prizes = t.prizes
    first = worst - len(out) + 1
    if len({(u.table, u.hand) for u in out}) == 1:
        finishes = [(f.out, f.place, f.prize, f.tied) for f in rank(out, worst, prizes)]
        rules = ["RP-8-A", "22"] if len(out) > 1 else ["RP-8-A"]
    else:
        split = payouts.shares(prizes, first, len(out)) if prizes else [0] * len(out)
        tied = [u.player for u in out]
        finishes = [(u, first, split[i], tied) for i, u in enumerate(out)]
        rules = ["RP-8-A"]
    events = []
    for u, place, prize, tied in finishes:
        share = f" (shared by {len(tied)} out in the same hand-for-hand hand)" if tied else ""
        events.append(
            Placed(
                player=u.player,
                entry=u.entry,
                place=place,
                prize=prize,
                tied=tied,
                rules=rules,
                text=f"{t.players[u.player].name or u.player} (entry {u.entry}) finishes "
                f"{words.place(place)}" + (f", {words.chips(prize)}" if prize else "") + share,
            )
        )
    return events


def release(t: TournamentState, cmd: ReleaseTables, emit: Emit) -> None:
    h = t.h4h
    if h is None:
        raise TournamentIllegal("RP-8", "hand-for-hand is not on", code="not_hand_for_hand")
    if h.waiting:
        raise TournamentIllegal(
            "RP-8",
            f"table {', '.join(h.waiting)} is still in its hand: every table finishes first",
            code="hand_in_play",
        )
    if not h.ready:
        raise TournamentIllegal("RP-8", "the tables are already playing", code="released")
    emit(_released(tables(t)))


def release_all_in(t: TournamentState, cmd: ReleaseAllIn, emit: Emit) -> None:
    if cmd.table not in t.tables:
        raise TournamentIllegal("", f"no table {cmd.table}", code="unknown_table", field="$.table")
    emit(
        AllInReleased(
            table=cmd.table,
            text=f"Table {cmd.table}: the floor releases the all-in - cards up, deal on (RP-8-F)",
        )
    )


def stop(t: TournamentState, at: int, emit: Emit) -> None:
    h = t.h4h
    if h is None:
        raise TournamentIllegal("RP-8", "hand-for-hand is not on", code="not_hand_for_hand")
    placed = _places(t)
    for event in placed:
        emit(event)
    every = list(t.in_play())
    emit(HandForHandEnded(at=at, tables=every, text="Hand-for-hand is over: play on"))
    if h.paused and not t.clock.running and t.clock.started:
        ends = at + t.clock.remaining if t.clock.remaining else 0
        emit(ClockResumed(at=at, ends_at=ends, text="The clock runs again"))
    if (won := champion(t)) is not None:
        emit(won)
