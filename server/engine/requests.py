"""Information a player facing action may ask for (RP-24), and stack counts (62, 51).

Answers use the words of the rule and direct facts only: "5,000", not "only 5,000"; "yes" or
"no" — never advice.
"""

from __future__ import annotations

from protocol.commands import Act, Ask, Count
from protocol.events import Answer
from server.engine import betting, words
from server.engine.errors import Illegal
from server.engine.moves import Attempt, Emit
from server.engine.state import Seat, TableState


def _facing(t: TableState, seat: int, rule: str) -> Seat:
    if t.phase != "betting" or t.to_act != seat:
        raise Illegal(
            rule, f"only the player facing action may ask; the action is on seat {t.to_act}"
        )
    s = t.seat(seat)
    assert s is not None
    return s


def ask(t: TableState, cmd: Ask, emit: Emit, attempt: Attempt) -> None:
    """RP-24: answered by playing the call on a copy of the table (``attempt``)."""
    s = _facing(t, cmd.seat, "RP-24")
    if cmd.question == "call_amount":
        owed = betting.owed(t, s)
        emit(
            Answer(
                s.number,
                "call_amount",
                words.chips(owed),
                owed,
                ["RP-24"],
                f"Seat {s.number}: the call is {words.chips(owed)}",
            )
        )
        return
    about = t.seat(cmd.about) if cmd.about is not None else None
    if about is None or not about.live:
        raise Illegal("RP-24", "name the player the question is about")
    try:
        after, _ = attempt(t, Act(seat=s.number, declare="call"))
    except Illegal:
        after = t
    other = after.seat(about.number)
    yes = (
        other is not None
        and other.live
        and betting.can_raise(after, other)
        and betting.needs_to_act(after, other)
    )
    answer = "yes" if yes else "no"
    emit(
        Answer(
            s.number,
            "can_raise_if_call",
            answer,
            None,
            ["RP-24", "49-A"],
            f"Seat {s.number}: if you call, can seat {about.number} raise? {answer.capitalize()}",
        )
    )


def count(t: TableState, cmd: Count, emit: Emit) -> None:
    """62: a player facing an all-in, on their turn, may have it counted; 51 binds the count."""
    s = _facing(t, cmd.seat, "62")
    target = t.seat(cmd.of)
    if target is None or not target.all_in or target.bet <= s.bet:
        raise Illegal("62", f"seat {cmd.seat} does not face an all-in bet from seat {cmd.of}")
    told = cmd.told if cmd.told is not None else target.bet
    text = f"Seat {target.number} is all-in for {words.chips(target.bet)}"
    if told != target.bet:
        text += (
            f" (the count given was {words.chips(told)};"
            f" a call of it accepts the full {words.chips(target.bet)}, 51)"
        )
    emit(
        Answer(
            s.number,
            "count",
            words.chips(target.bet),
            target.bet,
            ["62"] + (["51"] if told != target.bet else []),
            text,
            told,
        )
    )
