"""Penalties (rule 74, RP-26): warnings, hands and rounds sat out, chips, disqualification.

A seat sitting out a penalty is dealt in and posts its blinds and antes; its hand is killed
after the first deal (74-C). The count goes down hand by hand — a misdeal's re-deal is the
same hand (37-C) — and the penalty ends by itself. A round penalty is the number of players
at the table when it is given (the player included) times the rounds (74-A).
"""

from __future__ import annotations

from protocol.commands import Penalty
from protocol.events import FloorCall, PenaltyEnded, PenaltyGiven
from server.engine import words
from server.engine.actions import action_event
from server.engine.errors import Illegal
from server.engine.moves import Emit
from server.engine.reading import Reading
from server.engine.state import TableState


def give(t: TableState, cmd: Penalty, emit: Emit) -> None:
    s = t.seat(cmd.seat)
    if s is None:
        raise Illegal("74", f"there is no player in seat {cmd.seat}", code="unknown_seat")
    who = f"Seat {cmd.seat}"
    reason = f" for {cmd.reason}" if cmd.reason else ""
    match cmd.kind:
        case "warning":
            emit(
                PenaltyGiven(
                    cmd.seat,
                    "warning",
                    reason=cmd.reason,
                    rules=["74-A"],
                    text=f"{who}: warning{reason} (74-A)",
                )
            )
        case "hands" | "rounds":
            if cmd.count < 1:
                raise Illegal("74-A", "a penalty of hands or rounds needs a count")
            hands = cmd.count * len(t.seats) if cmd.kind == "rounds" else cmd.count
            unit = "round" if cmd.kind == "rounds" else "hand"
            emit(
                PenaltyGiven(
                    cmd.seat,
                    cmd.kind,
                    hands_left=t.penalties.get(cmd.seat, 0) + hands,
                    reason=cmd.reason,
                    rules=["74-A", "74-C"],
                    text=f"{who}: {cmd.count} {unit}{'s' if cmd.count > 1 else ''} "
                    f"penalty{reason}, {hands} hands:"
                    " dealt in, posts, hand killed (74-A, 74-C)",
                )
            )
        case "chips":
            if t.phase != "idle":
                raise Illegal("RP-26", "a chip penalty is taken between hands", code="hand_in_play")
            removed = min(cmd.chips, s.stack)
            if removed < 1:
                raise Illegal("RP-26", "a chip penalty names the chips to take out of play")
            emit(
                PenaltyGiven(
                    cmd.seat,
                    "chips",
                    removed=removed,
                    reason=cmd.reason,
                    rules=["RP-26"],
                    text=f"{who}: {words.chips(removed)} chips taken out of play{reason} (RP-26)",
                )
            )
        case "disqualify":
            if t.phase != "idle":
                raise Illegal(
                    "74-D", "a disqualification takes effect between hands", code="hand_in_play"
                )
            emit(
                PenaltyGiven(
                    cmd.seat,
                    "disqualify",
                    removed=s.stack,
                    reason=cmd.reason,
                    rules=["74-D"],
                    text=f"{who}: disqualified{reason}; {words.chips(s.stack)} chips out of "
                    f"play (74-D)",
                )
            )


def consider(t: TableState, seat: int, rule: str, why: str, emit: Emit) -> None:
    """Raise a floor call on a possible penalty; the hand does not wait for it."""
    emit(
        FloorCall(
            seat=seat,
            rule=rule,
            options=["no_penalty", "warning", "penalty"],
            call=t.calls + 1,
            blocking=False,
            text=f"Floor, seat {seat}: {why}; subject to penalty ({rule})",
        )
    )


def kill_penalised(t: TableState, penalised: list[int], emit: Emit) -> None:
    """74-C: after the first deal the hands of seats sitting out a penalty are killed."""
    for n in penalised:
        s = t.seat(n)
        if s is None or not s.live:
            continue
        left = t.penalties.get(n, 0)
        emit(
            action_event(
                t,
                s,
                Reading("fold", s.bet, 0, ["74-C"]),
                [],
                [f"penalty, {left} more hands after this"],
                forced=True,
            )
        )


def end_served(t: TableState, emit: Emit) -> None:
    for n, left in sorted(t.penalties.items()):
        if left <= 0:
            emit(PenaltyEnded(n, text=f"Seat {n}: penalty served"))
