"""The dispatcher: which chapter's module rules on each tournament command."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol.tournament import (
    AddOn,
    AddTime,
    Alternate,
    BreakTable,
    ChipPenalty,
    CloseRegistration,
    CloseTable,
    ColorUp,
    ConfirmMove,
    DismissMove,
    Disqualify,
    FinalTable,
    HandEnded,
    MarkAbsent,
    MarkReturned,
    MovePlayer,
    NextLevel,
    OpenTable,
    PauseClock,
    PreviousLevel,
    Rebuy,
    Reenter,
    Register,
    ReleaseAllIn,
    ReleaseTables,
    ResumeClock,
    SeatPlayer,
    StartClock,
    StartHandForHand,
    Tick,
    TournamentCommand,
    TournamentEvent,
    Unregister,
    UseTimeBank,
    WaiveStoppage,
)
from server.tournament import (
    balancing,
    breaks,
    chips,
    clock,
    eliminations,
    floor,
    handforhand,
    registration,
)
from server.tournament.errors import TournamentIllegal
from server.tournament.evolve import evolve
from server.tournament.moves import Emit
from server.tournament.state import TournamentState


def _close(t: TournamentState, cmd: CloseRegistration, emit: Emit) -> None:
    if t.closed:
        raise TournamentIllegal("9-A", "registration is already closed", code="closed")
    clock.close_registration(t, cmd.at or t.clock.at, emit)


_HANDLERS: dict[type[Any], Callable[[TournamentState, Any, Emit], None]] = {
    OpenTable: registration.open_table,
    CloseTable: registration.close_table,
    Register: registration.register,
    Unregister: registration.unregister,
    Alternate: registration.alternate,
    Reenter: registration.reenter,
    SeatPlayer: registration.seat,
    MovePlayer: registration.move,
    HandEnded: eliminations.hand_ended,
    Rebuy: chips.rebuy,
    AddOn: chips.add_on,
    ChipPenalty: chips.chip_penalty,
    Disqualify: chips.disqualify,
    ColorUp: chips.color_up,
    StartClock: clock.start,
    PauseClock: clock.pause,
    ResumeClock: clock.resume,
    AddTime: clock.add_time,
    NextLevel: clock.next_level,
    PreviousLevel: clock.previous_level,
    Tick: clock.tick,
    CloseRegistration: _close,
    MarkAbsent: floor.absent,
    MarkReturned: floor.returned,
    UseTimeBank: floor.time_bank,
    ConfirmMove: balancing.confirm,
    DismissMove: balancing.dismiss,
    WaiveStoppage: balancing.waive,
    BreakTable: breaks.break_table,
    FinalTable: breaks.final_table,
    StartHandForHand: handforhand.start,
    ReleaseTables: handforhand.release,
    ReleaseAllIn: handforhand.release_all_in,
}


def attempt(
    state: TournamentState, command: TournamentCommand
) -> tuple[TournamentState, list[TournamentEvent]]:
    """Rule on ``command`` against a copy of ``state``: each event is applied as it is decided,
    so later decisions in the same command see it. Raises :class:`TournamentIllegal`."""
    work = state.clone()
    return work, rule(work, command)


def rule(
    work: TournamentState,
    command: TournamentCommand,
    applied: list[TournamentEvent] | None = None,
) -> list[TournamentEvent]:
    """Rule on ``command`` and apply its events to ``work`` itself, each also added to
    ``applied`` as it is applied. A refusal (:class:`TournamentIllegal`) may come after some
    were: ``applied`` then tells the caller that ``work`` changed and is to be dropped. For a
    state that is not copied for every command: a copy grows with the field (5,000 players)."""
    if command.tournament is not None and command.tournament != work.id:
        raise TournamentIllegal(
            "",
            f"no tournament {command.tournament} here (this is {work.id})",
            code="unknown_tournament",
            field="$.tournament",
        )
    if work.finished and not isinstance(command, Tick):
        raise TournamentIllegal("", "the tournament is over", code="finished")
    events: list[TournamentEvent] = []

    def emit(event: TournamentEvent) -> None:
        evolve(work, event)
        events.append(event)
        if applied is not None:
            applied.append(event)

    _HANDLERS[type(command)](work, command, emit)
    return events
