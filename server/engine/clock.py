"""The clock on a player (rule 31): 25 seconds, then a 5-second countdown.

Time is an input: the command that starts the clock and the timer's ``time`` commands carry
it. When the time runs out a seat facing a bet has a dead hand; otherwise it checks. An action
at the very moment the time runs out counts. A shot clock (RP-28, ``seconds``) runs the same
way, for its own length and with no countdown.
"""

from __future__ import annotations

from protocol.commands import Clock, Time
from protocol.events import ClockStarted
from server.engine.actions import action_event
from server.engine.errors import Illegal
from server.engine.moves import Emit, Move, ResumeAfter
from server.engine.reading import Reading
from server.engine.state import TableState

THINKING_MS = 25_000
COUNTDOWN_MS = 5_000


def start(t: TableState, cmd: Clock, emit: Emit) -> None:
    if t.phase != "betting" or t.to_act is None:
        raise Illegal("31", "the clock is called on the seat to act", code="no_betting")
    seat = cmd.seat if cmd.seat is not None else t.to_act
    if seat != t.to_act:
        raise Illegal("31", f"the action is on seat {t.to_act}, not seat {seat}")
    if cmd.seconds is not None:
        expires = cmd.at + cmd.seconds * 1000
        emit(
            ClockStarted(
                seat=seat,
                at=cmd.at,
                deadline=expires,
                expires=expires,
                rules=["RP-28"],
                text=f"Shot clock on seat {seat}: {cmd.seconds} seconds (RP-28)",
            )
        )
        return
    deadline = cmd.at + THINKING_MS
    expires = deadline + COUNTDOWN_MS
    emit(
        ClockStarted(
            seat=seat,
            at=cmd.at,
            deadline=deadline,
            expires=expires,
            text=f"Clock on seat {seat}: 25 seconds, then a 5-second countdown (31)",
        )
    )


def expired(t: TableState, at: int | None) -> bool:
    return t.clock is not None and at is not None and at > t.clock.expires


def tick(t: TableState, cmd: Time, emit: Emit) -> Move:
    """The timer says what time it is; an expired clock is ruled on."""
    if not expired(t, cmd.at):
        return None
    assert t.clock is not None
    s = t.seat(t.clock.seat)
    if s is None or not s.live or t.to_act != s.number:
        return None

    if t.current_bet > s.bet:
        reading = Reading("fold", s.bet, 0, ["31"], ["time ran out facing a bet: the hand is dead"])
    else:
        reading = Reading("check", s.bet, 0, ["31"], ["time ran out: check"])
    emit(action_event(t, s, reading, [], []))
    return ResumeAfter(s.number)
