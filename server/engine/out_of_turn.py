"""Action out of turn (rule 55) and substantial action (rule 38).

Multi-way (55-A-1) the action backs up to the seat whose turn it is; the out-of-turn action
waits, and binds when the action reaches its seat unchanged — a check, call or fold by the
seats before it changes nothing, a bet or raise does. An out-of-turn fold binds at once. A
seat that is skipped must speak up: once out-of-turn actions after it amount to substantial
action (38), they bind, the action backs up to the skipped seat and the floor rules on its
hand (55-A-2). Heads-up, a seat that checks out of turn may only call or fold to a bet (55-B).
An out-of-turn action is read again when it binds: an under-call is then ruled by 53-B, a
decision for the floor against a later raise multi-way.
"""

from __future__ import annotations

from protocol.commands import Act
from protocol.events import FloorCall, OutOfTurn, OutOfTurnReleased
from server.engine import betting, words
from server.engine.actions import action_event, check_substantial, is_substantial
from server.engine.errors import Illegal
from server.engine.moves import Emit, Move, ResumeAfter
from server.engine.penalties import consider
from server.engine.reading import FloorNeeded, Limited, Reading, read
from server.engine.state import PendingAct, Seat, TableState

SKIPPED_OPTIONS = ["all_options", "call_or_fold", "dead_hand"]


def _oot_reading(t: TableState, s: Seat, act: Act) -> Reading | FloorNeeded:
    """What the out-of-turn action would be if it binds now (the floor's, for an under-call)."""
    if act.declare == "check" and t.current_bet > s.bet:
        # 57: a check facing a bet leaves the seat call or fold; it stands as a passive action.
        return Reading("check", s.bet, 0, ["57"], ["a check facing a bet: call or fold only"])
    reading = read(t, s, act)
    if isinstance(reading, Limited):
        raise Illegal(reading.rule, f"seat {s.number} {reading.why}")
    return reading


def record(t: TableState, s: Seat, act: Act, emit: Emit) -> Move:
    """A seat acted out of turn; the action backs up to the seat whose turn it is."""
    to_act = t.to_act
    assert to_act is not None
    reading = _oot_reading(t, s, act)
    heads_up = len(t.live()) == 2
    skipped = [to_act] + [n for n in t.seats_between(to_act, s.number) if _still_to_act(t, n)]
    if isinstance(reading, FloorNeeded):
        emit(
            OutOfTurn(
                s.number,
                to_act,
                "call",
                s.bet + reading.pushed,
                skipped,
                act,
                ["55-A-1", reading.rule],
                f"Seat {s.number} acted out of turn ({reading.why}): action backs up to seat"
                f" {to_act}; if the action to seat {s.number} does not change, it binds and the"
                f" floor rules on it (55, {reading.rule})",
            )
        )
        return _after_recorded(t, skipped, to_act, emit)
    rule = "55-B" if heads_up and reading.action == "check" else "55-A-1"
    if reading.action == "fold":
        emit(
            OutOfTurn(
                s.number,
                to_act,
                "fold",
                s.bet,
                skipped,
                act,
                [rule, "60"],
                _text(s, reading, to_act, True),
            )
        )
        emit(action_event(t, s, reading, ["55-A-1", "60"], ["out of turn: a fold binds"]))
        consider(t, s.number, "60", "folded out of turn", emit)
    else:
        emit(
            OutOfTurn(
                s.number,
                to_act,
                reading.action,
                reading.total,
                skipped,
                act,
                [rule],
                _text(s, reading, to_act, False),
            )
        )
    return _after_recorded(t, skipped, to_act, emit)


def _after_recorded(t: TableState, skipped: list[int], to_act: int, emit: Emit) -> Move:
    """Back to the seat whose turn it is, unless the out-of-turn actions now bind (55-A-2)."""
    for seat in skipped:
        done, with_chips = t.skipped.get(seat, (0, 0))
        if is_substantial(done, with_chips):
            _skipped_seat_bound(t, seat, emit)
            return None
    return ResumeAfter(_before(t, to_act))


def _still_to_act(t: TableState, number: int) -> bool:
    s = t.seat(number)
    return s is not None and betting.needs_to_act(t, s)


def _before(t: TableState, seat: int) -> int:
    """A seat number just before ``seat``, so that the next to act from it is ``seat``."""
    return seat - 1 if seat > 1 else 0


def _text(s: Seat, reading: Reading, to_act: int, folded: bool) -> str:
    what = (
        reading.action
        if reading.action in ("fold", "check")
        else f"{reading.action} {words.chips(reading.total)}"
    )
    tail = (
        "the fold binds" if folded else f"binding if the action to seat {s.number} does not change"
    )
    return (
        f"Seat {s.number} acted out of turn ({what}): action backs up to seat {to_act}; {tail} (55)"
    )


def _skipped_seat_bound(t: TableState, seat: int, emit: Emit) -> None:
    """55-A-2: substantial action out of turn after a skipped seat binds; the floor decides."""
    for p in sorted(
        (p for p in t.pending if seat in p.skipped), key=lambda p: _clockwise(t, seat, p.seat)
    ):
        s = t.seat(p.seat)
        if s is None or not s.live:
            continue
        try:
            reading = _oot_reading(t, s, p.act)
        except Illegal:
            continue
        if isinstance(reading, FloorNeeded):
            continue  # 53-B: an under-call is put to the floor when its turn comes
        if reading.action == "check" and t.current_bet > s.bet:
            continue  # 57: it stays limited to call or fold when its turn comes
        emit(action_event(t, s, reading, ["55-A-2"], ["substantial action out of turn binds"]))
    check_substantial(t, emit)
    emit(
        FloorCall(
            seat=seat,
            rule="55-A-2",
            options=list(SKIPPED_OPTIONS),
            call=t.calls + 1,
            text=f"Floor, seat {seat}: skipped, and substantial action followed out of "
            f"turn; rule on its hand (55-A-2)",
        )
    )


def _clockwise(t: TableState, start: int, seat: int) -> int:
    return (seat - start) % 11


def on_turn(t: TableState, s: Seat, emit: Emit) -> bool:
    """The action reaches a seat that acted out of turn: bind it or release it.

    Returns True when the seat's action was bound (the hand moves on without a prompt, or
    waits on the floor's ruling on a bound under-call, 53-B).
    """
    if not t.pending:
        return False  # no action out of turn waits: asked before every prompt
    pending = next((p for p in t.pending if p.seat == s.number), None)
    if pending is None:
        return False
    if t.current_bet == pending.level:
        try:
            reading = _oot_reading(t, s, pending.act)
        except Illegal as refused:
            emit(
                OutOfTurnReleased(
                    s.number, ["55-A-1", refused.rule], f"Seat {s.number}: {refused.message}"
                )
            )
            return False
        if isinstance(reading, FloorNeeded):
            note = "; out of turn, and the action to it did not change (55-A-1)"
            emit(reading.event(t, s.number, note))
            return True
        if reading.action == "check" and t.current_bet > s.bet:
            emit(
                OutOfTurnReleased(
                    s.number,
                    ["55-A-1", "57"],
                    f"Seat {s.number}: checked facing a bet: call or fold (57)",
                )
            )
            return False
        why = ["the action did not change: the out-of-turn action binds"]
        emit(action_event(t, s, reading, [pending.rule], why))
        return True
    emit(
        OutOfTurnReleased(
            s.number,
            text=f"Seat {s.number}: the action changed; its out-of-turn action is not "
            f"binding, chips back, all options (55-A-1)",
        )
    )
    return False


def rule_on_skipped(t: TableState, seat: int, option: str, emit: Emit) -> None:
    """Carry out the floor's ruling on a skipped seat's hand (55-A-2)."""
    s = t.seat(seat)
    if s is None:
        raise Illegal("55-A-2", f"seat {seat} is not at the table")
    if option == "dead_hand":
        emit(
            action_event(
                t,
                s,
                Reading("fold", s.bet, 0, ["55-A-2"]),
                [],
                ["the floor ruled the hand dead"],
                forced=True,
            )
        )


def pending_for(t: TableState, seat: int) -> PendingAct | None:
    return next((p for p in t.pending if p.seat == seat), None)
