"""Between the tournament and its tables: what a tournament event orders each table to do, and
what a table's hand end tells the tournament. Pure; the replay driver and the service share it.

``seated`` -> the table's ``add_player``, ``level_started`` -> ``level`` at every table,
``moved`` -> ``remove_player`` and ``add_player`` with the stack the table held,
``chips_added`` -> ``add_chips`` (29), ``chips_removed`` -> a chip ``penalty`` (or, for a
forfeit, ``remove_player``), ``disqualified`` -> a ``disqualify`` penalty, ``color_up`` -> the
table's ``color_up`` (26). A table that refuses an order raises :class:`Refused`: the caller
drops the whole step, so no table ever holds a seat the tournament does not know.
"""

from __future__ import annotations

import msgspec

from protocol import (
    AddChips,
    AddPlayer,
    Command,
    ErrorEvent,
    Event,
    HandEnd,
    HandStart,
    Penalty,
    PlayerRemoved,
    RemovePlayer,
    SetLevel,
    TableConfig,
)
from protocol import ColorUp as ColorUpChips
from protocol.commands import ChipsKind
from protocol.tournament import (
    ChipsAdded,
    ChipsRemoved,
    Disqualified,
    HandEnded,
    LevelStarted,
    Moved,
    Seated,
    TableClosed,
    TableOpened,
    TournamentEvent,
    Unregistered,
)
from server import engine, tournament
from server.engine import TableState
from server.tournament import TournamentState

#: Table commands a tournament orders itself; a station or scenario may not give them a table.
ORDERED = {
    "add_player": "a player is seated by the tournament's `seat` (8)",
    "remove_player": "players leave through the tournament (`unregister`, `move`, ...)",
    "level": "levels come from the tournament clock (25-A)",
    "add_chips": "chips are added by the tournament's `rebuy` and `add_on` (29)",
    "color_up": "a color-up is the tournament's `color_up` (26)",
}


class TableLine(msgspec.Struct, frozen=True):
    """A table's event, tagged with its table."""

    table: str
    event: Event


class Refused(Exception):
    """A table refused a command the tournament ordered: the whole step is dropped."""

    def __init__(self, table: str, error: ErrorEvent) -> None:
        super().__init__(error.message)
        self.table, self.error = table, error


def ordered_only(command: Command) -> str | None:
    """Why a table command may only come from the tournament, or None."""
    tag = msgspec.to_builtins(command)["type"]
    why = ORDERED.get(tag)
    if isinstance(command, Penalty) and command.kind in ("chips", "disqualify"):
        why = "chip penalties and disqualifications are tournament commands (74, RP-26)"
    return why


def touched(state: TournamentState, events: list[TournamentEvent]) -> set[str]:
    """The tables whose states the orders of ``events`` read or change (besides new ones)."""
    found: set[str] = set()
    for event in events:
        match event:
            case LevelStarted():
                found |= set(state.tables)
            case Moved():
                found |= {event.from_table, event.table}
            case Seated() | ChipsAdded() | ChipsRemoved():
                found.add(event.table)
            case Unregistered() | Disqualified() if event.table is not None:
                found.add(event.table)
    return found


def table_config(state: TournamentState, button: int = 1) -> TableConfig:
    level = tournament.level_in_force(state)
    return TableConfig(
        game=state.structure.game,
        blinds=level.blinds,
        ante=level.ante,
        bba=level.bba,
        min_bet=level.min_bet,
        chips=state.structure.chips,
        seats={},
        button=button,
    )


def order(
    state: TournamentState, tables: dict[str, TableState], event: TournamentEvent, button: int = 1
) -> list[TableLine]:
    """The table commands a tournament event orders, applied to ``tables`` (changed in place)."""
    match event:
        case TableOpened():
            tables[event.table] = engine.new_table(table_config(state, button))
            return []
        case TableClosed():
            tables.pop(event.table, None)
            return []
        case Seated():
            return to(tables, event.table, AddPlayer(event.seat, event.stack, event.name))
        case Unregistered() if event.table is not None and event.seat is not None:
            return to(tables, event.table, RemovePlayer(event.seat))
        case Moved():
            return _move(tables, event.from_table, event.from_seat, event.table, event.seat)
        case LevelStarted():
            lines: list[TableLine] = []
            for table in sorted(tables):
                lines += to(
                    tables, table, SetLevel(event.blinds, event.ante, event.bba, event.min_bet)
                )
            return lines
        case ChipsAdded():
            kind: ChipsKind = "add_on" if event.kind == "add_on" else "rebuy"
            return to(tables, event.table, AddChips(event.seat, event.chips, kind))
        case ChipsRemoved() if event.kind == "penalty":
            penalty = Penalty(event.seat, "chips", chips=event.chips, reason=event.reason)
            return to(tables, event.table, penalty)
        case ChipsRemoved() if event.kind == "forfeit":
            return to(tables, event.table, RemovePlayer(event.seat))
        case Disqualified() if event.table is not None and event.seat is not None:
            return to(tables, event.table, Penalty(event.seat, "disqualify", reason=event.reason))
        case _:
            return []


def color_up(
    state: TournamentState, tables: dict[str, TableState], table: str, events: list[TournamentEvent]
) -> list[TableLine]:
    """The table's color-up: the leftovers the tournament took off each seat (26-C), and the
    table's denominations without those raced off at the breaks so far (26-A)."""
    here = tables.get(table)
    if here is None:
        raise Refused(table, ErrorEvent(f"no table {table}", code="unknown_table"))
    removed = {
        e.seat: e.chips for e in events if isinstance(e, ChipsRemoved) and e.kind == "color_up"
    }
    steps = state.structure.levels[: state.clock.step + 1] if state.clock.started else []
    raced = {chip for step in steps if step.is_break for chip in step.color_up}
    chips = [chip for chip in here.chips if chip not in raced]
    return to(tables, table, ColorUpChips(chips=chips, removed=removed))


def to(tables: dict[str, TableState], table: str, command: Command) -> list[TableLine]:
    state = tables.get(table)
    if state is None:
        raise Refused(table, ErrorEvent(f"no table {table}", code="unknown_table"))
    state, events = engine.apply(state, command)
    for event in events:
        if isinstance(event, ErrorEvent):
            raise Refused(table, event)
    tables[table] = state
    return [TableLine(table, e) for e in events]


def _move(
    tables: dict[str, TableState], old: str, seat: int, new: str, to_seat: int
) -> list[TableLine]:
    """The player leaves ``old``/``seat`` and sits at ``new``/``to_seat`` with the stack, the
    name following."""
    here = tables.get(old)
    name = next((s.name for s in here.seats if s.number == seat), "") if here else ""
    lines = to(tables, old, RemovePlayer(seat))
    removed = next((x.event for x in lines if isinstance(x.event, PlayerRemoved)), None)
    stack = removed.stack if isinstance(removed, PlayerRemoved) else 0
    return lines + to(tables, new, AddPlayer(to_seat, stack, name))


def hand_started(state: TableState) -> tuple[int, dict[int, int]] | None:
    """The hand in play at ``state`` and each dealt seat's stack at its start (after antes where
    the big blind ante is played, 22), re-derived from the table as it was before the hand and
    the hand's ``start_hand`` (events are facts; this reads them again, it rules on nothing)."""
    if state.base is None or not state.history:
        return None
    stacks = {s.number: s.stack for s in state.base.seats}
    _, events = engine.apply(state.base, state.history[0])
    start = next((e for e in events if isinstance(e, HandStart)), None)
    return (start.hand, started_stacks(stacks, start)) if start is not None else None


def started_stacks(stacks: dict[int, int], start: HandStart) -> dict[int, int]:
    """Each dealt seat's stack at the start of the hand; after the antes where the big blind
    ante is played (22). ``stacks`` are the seats' stacks before the ``start_hand``."""
    started = {seat: stacks.get(seat, 0) for seat in start.dealt}
    if start.bba:
        for post in start.posts:
            if post.kind == "ante" and post.seat in started:
                started[post.seat] -= post.amount
    return started


def hand_ended(
    table: str, end: HandEnd, before: tuple[int, dict[int, int]] | None, at: int
) -> HandEnded:
    """The tournament's ``hand_ended`` from a table's ``hand_end``; ``before`` is the hand's
    number and its starting stacks (:func:`started_stacks`), when known."""
    hand, started = before or (end.hand, {})
    takers: dict[int, list[int]] = {}
    for seat in end.busted:
        pots = [p for p in end.pots if seat in p.eligible] or list(end.pots)
        if pots:
            takers[seat] = sorted(max(pots, key=lambda p: p.pot).winners)
    return HandEnded(
        table=table,
        hand=hand,
        stacks=dict(end.stacks),
        busted=list(end.busted),
        started=started if hand == end.hand else {},
        takers=takers,
        at=at,
    )
