"""Corrections: the floor voids the last actions of a hand and the hand is re-derived (24).

The dealer may undo its own last action (``by="dealer"``, ``count`` 1) while it is the last
command recorded in the hand; anything else is the floor's to correct. A seat's draw in a draw
game is one of its actions: a draw recorded wrong is voided like a bet.

Nothing is edited in place: the hand's recorded commands are played again from the table as it
was before the hand, without the voided ones and what followed them. The ``correction`` event
carries the events of that re-derived hand, so applying it is bookkeeping: back to the table
before the hand, then those events. A log therefore rebuilds without running today's rules,
and a station applies a correction as it applies any other event.
"""

from __future__ import annotations

from protocol.commands import Act, Command, Correction, Draw
from protocol.events import Corrected, ErrorEvent, Event
from server.engine.errors import Illegal
from server.engine.moves import Attempt, Emit, Move, PromptAgain
from server.engine.state import TableState


def rederive(base: TableState, commands: list[Command], attempt: Attempt) -> list[Event]:
    """The events of a hand played again from ``base``; refused commands add nothing."""
    state = base
    events: list[Event] = []
    for command in commands:
        try:
            state, more = attempt(state, command)
        except Illegal:
            continue
        events.extend(e for e in more if not isinstance(e, ErrorEvent))
    return events


ACTIONS = (Act, Draw)
"""What a seat decides, and a correction voids: its actions and its draws."""


def describe(command: Command) -> str:
    if isinstance(command, Draw):
        return f"seat {command.seat}: {f'draw {command.count}' if command.count else 'pat'}"
    if isinstance(command, Act):
        what = command.declare or "chips"
        amount = f" {command.amount:,}" if command.amount else ""
        chips = f" [{', '.join(f'{c:,}' for c in command.chips)}]" if command.chips else ""
        return f"seat {command.seat}: {what}{amount}{chips}"
    return type(command).__name__.lower()


def dealer_may_undo(t: TableState, cmd: Correction) -> None:
    """A dealer's undo voids one action, the last command recorded in the hand (24, 1)."""
    last = t.history[-1] if t.history else None
    if cmd.count != 1 or not isinstance(last, ACTIONS):
        raise Illegal(
            "24",
            "the dealer may undo only the last action, while nothing has been recorded since;"
            " the floor must correct it (24, 1)",
            code="floor_must_correct",
        )


def correct(t: TableState, cmd: Correction, emit: Emit, attempt: Attempt) -> Move:
    if t.base is None or t.phase == "idle":
        raise Illegal("24", "there is no hand in play to correct", code="no_hand")
    if cmd.by == "dealer":
        dealer_may_undo(t, cmd)
    acts = [i for i, c in enumerate(t.history) if isinstance(c, ACTIONS)]
    if cmd.count < 1 or cmd.count > len(acts):
        raise Illegal("24", f"the hand has {len(acts)} actions; cannot void {cmd.count}")
    keep = acts[-cmd.count]
    undone = [describe(c) for c in t.history[keep:]]
    what = "Undo by the dealer" if cmd.by == "dealer" else f"Correction by the {cmd.by}"
    emit(
        Corrected(
            count=cmd.count,
            reason=cmd.reason,
            by=cmd.by,
            undone=undone,
            keep=keep,
            rules=["1"],
            text=f"{what}: voided {'; '.join(undone)} ({cmd.reason})",
            events=rederive(t.base, t.history[:keep], attempt),
        )
    )
    return PromptAgain()
