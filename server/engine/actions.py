"""The general action event, and substantial action (rule 38).

Every module that makes a seat fold, check, call, bet or raise — in turn, out of turn, by the
clock, by a penalty or a correction of the floor — builds its event here, so the event reads
the same wherever the ruling came from.
"""

from __future__ import annotations

from protocol.events import ActionEvent, SubstantialAction
from server.engine import betting, words
from server.engine.errors import Illegal
from server.engine.moves import Emit
from server.engine.reading import Reading
from server.engine.state import Seat, TableState


def live_seat(t: TableState, number: int) -> Seat:
    """The seat a command names, which must hold a live hand."""
    s = t.seat(number)
    if s is None:
        raise Illegal("", f"there is no player in seat {number}", code="unknown_seat")
    if not s.live:
        raise Illegal("", f"seat {number} has no live hand")
    return s


def is_substantial(actions: int, with_chips: int) -> bool:
    """38: two actions of which one put chips in, or any three actions (blinds never count)."""
    return (actions >= 2 and with_chips >= 1) or actions >= 3


def check_substantial(t: TableState, emit: Emit) -> None:
    if not t.sa and is_substantial(t.actions, t.chip_actions):
        emit(SubstantialAction(text="Substantial action: no misdeal from here on (38)"))


def action_event(
    t: TableState, s: Seat, reading: Reading, extra: list[str], why: list[str], forced: bool = False
) -> ActionEvent:
    action = reading.action
    if action == "raise" and t.current_bet == 0:
        action = "bet"
    all_in = action != "fold" and reading.total == betting.all_in_to(s)
    rules = [*reading.rules, *extra]
    return ActionEvent(
        seat=s.number,
        action=action,  # type: ignore[arg-type]
        total=reading.total,
        all_in=all_in,
        returned=reading.returned,
        rules=rules,
        text=words.action_text(
            s.number, action, reading.total, all_in, reading.returned, rules, [*reading.why, *why]
        ),
        forced=forced,
    )
