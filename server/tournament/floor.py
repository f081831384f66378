"""The floor's records of a player: absent and back (RP-23), time-bank cards (RP-28).

An absent player who is not disqualified keeps the chips on the table and keeps posting blinds
and antes until they are gone (RP-23-B, 74-A); the table already deals such a seat in, so the
mark is the floor's record only. Time-bank cards are counted here; the service runs the timer.
"""

from __future__ import annotations

from protocol.tournament import (
    AbsenceMarked,
    MarkAbsent,
    MarkReturned,
    ShotClock,
    TimeBankUsed,
    UseTimeBank,
)
from server.tournament.errors import TournamentIllegal
from server.tournament.moves import Emit
from server.tournament.registration import seated
from server.tournament.state import TournamentState


def action_seconds(shot_clock: ShotClock, first: bool) -> int:
    """The time for an action: the first action of a hand may have less (RP-28-A)."""
    return shot_clock.first_action if first and shot_clock.first_action else shot_clock.action


def absent(t: TournamentState, cmd: MarkAbsent, emit: Emit) -> None:
    p = seated(t, cmd.player)
    if p.absent:
        raise TournamentIllegal("RP-23", f"{p.name or p.player} is already marked absent")
    emit(
        AbsenceMarked(
            player=p.player,
            absent=True,
            text=f"{p.name or p.player} absent: the chips stay and post until gone (RP-23-B)",
        )
    )


def returned(t: TournamentState, cmd: MarkReturned, emit: Emit) -> None:
    p = seated(t, cmd.player)
    if not p.absent:
        raise TournamentIllegal("RP-23", f"{p.name or p.player} is not marked absent")
    emit(AbsenceMarked(player=p.player, absent=False, text=f"{p.name or p.player} is back"))


def time_bank(t: TournamentState, cmd: UseTimeBank, emit: Emit) -> None:
    shot = t.structure.shot_clock
    if shot is None or not shot.time_banks:
        raise TournamentIllegal("RP-28", "this event has no time banks", code="no_time_bank")
    p = seated(t, cmd.player)
    if p.time_banks < 1:
        raise TournamentIllegal(
            "RP-28", f"{p.name or p.player} has no time-bank card left", code="no_time_bank"
        )
    left = p.time_banks - 1
    emit(
        TimeBankUsed(
            player=p.player,
            seconds=shot.bank_seconds,
            left=left,
            text=f"{p.name or p.player}: time bank, {shot.bank_seconds} s ({left} left)",
        )
    )
