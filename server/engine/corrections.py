"""Corrections: the floor voids the last actions of a hand and the hand is re-derived.

Nothing is edited in place: the table goes back to how it was before the hand and the hand's
recorded commands are played again, without the voided ones and what followed them.
"""

from __future__ import annotations

from collections.abc import Callable

from protocol.commands import Act, Command, Correction
from protocol.events import Corrected, Event
from server.engine.errors import Illegal
from server.engine.state import TableState

Emit = Callable[[Event], None]


def replay(t: TableState, keep: int) -> TableState:
    """The hand's state after its first ``keep`` recorded commands."""
    from server.engine import apply

    assert t.base is not None
    state = t.base
    for command in t.history[:keep]:
        state, _ = apply(state, command)
    return state


def describe(command: Command) -> str:
    if isinstance(command, Act):
        what = command.declare or "chips"
        amount = f" {command.amount:,}" if command.amount else ""
        chips = f" [{', '.join(f'{c:,}' for c in command.chips)}]" if command.chips else ""
        return f"seat {command.seat}: {what}{amount}{chips}"
    return type(command).__name__.lower()


def correct(t: TableState, cmd: Correction, emit: Emit) -> None:
    if t.base is None or t.phase == "idle":
        raise Illegal("24", "there is no hand in play to correct", code="no_hand")
    acts = [i for i, c in enumerate(t.history) if isinstance(c, Act)]
    if cmd.count < 1 or cmd.count > len(acts):
        raise Illegal("24", f"the hand has {len(acts)} actions; cannot void {cmd.count}")
    keep = acts[-cmd.count]
    undone = [describe(c) for c in t.history[keep:]]
    emit(
        Corrected(
            count=cmd.count,
            reason=cmd.reason,
            by=cmd.by,
            undone=undone,
            keep=keep,
            rules=["1"],
            text=f"Correction by the {cmd.by}: voided {'; '.join(undone)} ({cmd.reason})",
        )
    )
    from server.engine.flow import prompt_for

    if t.phase == "betting" and t.to_act is not None:
        s = t.seat(t.to_act)
        if s is not None:
            emit(prompt_for(t, s))
