"""Eliminations and payouts (22): a table's ``hand_end`` that busts players puts them out.

The tournament learns the hand from the ``hand_ended`` command: every stack at the end, the
busted seats, the stacks at the start of the hand (after antes where the big blind ante is
played) and who took each busted seat's last chips. Entries out in one hand are placed by
those starting stacks (:mod:`places`); bounties are paid in the same order (22). With one entry
left after registration closed, it has won.

At every hand end the stacks of every table, each as of its own last hand end, must add up to
the chips in play (:func:`chips.chips_in_play`), to the chip; when they do not, the hand end
records ``chips_miscounted`` with both counts, an alert the floor sees (the service also
reports the difference as a metric).
"""

from __future__ import annotations

from protocol.tournament import BountyWon, ChipsMiscounted, Eliminated, HandCounted, HandEnded
from server.tournament import between, clock, words
from server.tournament.chips import chip_count
from server.tournament.errors import TournamentIllegal
from server.tournament.moves import Emit
from server.tournament.places import champion, rank
from server.tournament.state import TournamentState, Unplaced


def hand_ended(t: TournamentState, cmd: HandEnded, emit: Emit) -> None:
    tab = t.tables.get(cmd.table)
    if tab is None:
        raise TournamentIllegal("", f"no table {cmd.table}", code="unknown_table", field="$.table")
    for seat in [*cmd.stacks, *cmd.busted, *cmd.started]:
        if seat not in tab.occupied:
            raise TournamentIllegal(
                "7",
                f"table {cmd.table} seat {seat} holds no player of the tournament",
                code="unknown_seat",
                field="$.stacks",
            )
    for seat in cmd.busted:
        if cmd.stacks.get(seat, 0):
            raise TournamentIllegal("22", f"seat {seat} is not busted", field="$.busted")
        if seat not in cmd.started:
            raise TournamentIllegal(
                "22", f"the starting stack of busted seat {seat} is needed", field="$.started"
            )
    was_waiting = t.h4h is not None and cmd.table in t.h4h.waiting
    emit(
        HandCounted(
            table=cmd.table,
            hand=cmd.hand,
            stacks=dict(cmd.stacks),
            dealt=sorted(cmd.started),
            text=f"Table {cmd.table}, hand {cmd.hand} ended",
            button=cmd.button,
            small_blind=cmd.small_blind,
            big_blind=cmd.big_blind,
            waiting=sorted(cmd.waiting),
        )
    )
    if cmd.busted:
        _out(t, cmd, emit)
    counted, in_play = chip_count(t)
    if counted != in_play:
        emit(
            ChipsMiscounted(
                table=cmd.table,
                hand=cmd.hand,
                counted=counted,
                in_play=in_play,
                text=f"Chip count: the tables hold {words.chips(counted)}, chips in play are"
                f" {words.chips(in_play)} ({words.chips(abs(counted - in_play))}"
                f" {'over' if counted > in_play else 'short'}): count down the tables",
            )
        )
    clock.end_of_hands_level(t, cmd.at, emit)
    between.after_hand(t, cmd.table, was_waiting, cmd.at, emit)


def _out(t: TournamentState, cmd: HandEnded, emit: Emit) -> None:
    tab = t.tables[cmd.table]
    group = [
        Unplaced(
            tab.occupied[seat],
            t.players[tab.occupied[seat]].entry,
            cmd.started[seat],
            cmd.table,
            cmd.hand,
        )
        for seat in sorted(cmd.busted)
    ]
    seats = {tab.occupied[seat]: seat for seat in cmd.busted}
    worst = len(t.alive())
    # RP-8-A: in hand-for-hand the places wait for the hand to end at every table.
    h4h = t.h4h.hand if t.h4h is not None and t.closed else 0
    placed = t.closed and not h4h
    finishes = rank(group, worst, t.prizes if placed else [])
    several = len(group) > 1
    for f in finishes:
        p = t.players[f.out.player]
        where = f"finishes {words.place(f.place)}" if placed else "is out"
        if h4h:
            where += f" in hand-for-hand hand {h4h}: placed when it is over at every table"
        prize = f", wins {words.chips(f.prize)}" if f.prize else ""
        tied = " (tied: equal starting stacks, 22)" if f.tied and placed else ""
        emit(
            Eliminated(
                player=p.player,
                entry=p.entry,
                table=cmd.table,
                seat=seats[p.player],
                hand=cmd.hand,
                started=f.out.started,
                place=f.place if placed else 0,
                prize=f.prize if placed else 0,
                tied=f.tied if placed else [],
                rules=(["22"] if several else []) + (["RP-8-A"] if h4h else []),
                text=f"{p.name or p.player} (entry {p.entry}) {where}{prize}{tied}",
                h4h=h4h,
            )
        )
    if t.structure.bounty:
        for f in finishes:
            _bounty(t, cmd, f.out, seats[f.out.player], emit)
    if not h4h and (won := champion(t)) is not None:
        emit(won)


def _bounty(t: TournamentState, cmd: HandEnded, out: Unplaced, seat: int, emit: Emit) -> None:
    tab = t.tables[cmd.table]
    takers = [tab.occupied[s] for s in cmd.takers.get(seat, []) if s in tab.occupied]
    if not takers:
        return
    names = ", ".join(t.players[w].name or w for w in takers)
    emit(
        BountyWon(
            player=out.player,
            entry=out.entry,
            to=takers,
            amount=t.structure.bounty,
            text=f"Bounty on {t.players[out.player].name or out.player} "
            f"({words.chips(t.structure.bounty)}) to {names}",
        )
    )
