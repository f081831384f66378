"""Between the tournament and its tables: what a tournament event orders each table to do, and
what a table's hand end tells the tournament. Pure; the replay driver and the service share it.

``seated`` -> the table's ``add_player``, ``level_started`` -> ``level`` at every table,
``moved`` -> ``remove_player`` and ``add_player`` with the stack the table held (and a
penalty being served, which follows the player, 74), ``chips_added`` -> ``add_chips`` (29),
``chips_removed`` -> a chip ``penalty`` (or, for a forfeit, ``remove_player``),
``disqualified`` -> a ``disqualify`` penalty, ``color_up`` -> the table's ``color_up`` (26),
``chip_race`` -> ``color_up`` with the race's chips, ``tables_held`` / ``tables_released`` ->
``hold_hands`` / ``release_hands``, ``hand_for_hand`` (and its end) -> the tables'
``hand_for_hand``, ``all_in_released`` -> ``release_cards`` (RP-8-F), ``final_table`` -> every
player to the final table at once and its ``set_button`` (RP-9). A table that refuses an order
raises :class:`Refused`: the caller drops the whole step, so no table ever holds a seat the
tournament does not know.

The other way, the facts only tables know: a hand end's stacks, busted seats and starting
stacks, and where the next hand puts the button and the blinds (:func:`hand_ended`, from the
table after the hand); and which tables have a hand in play, for the commands that wait for
tables between hands (:func:`stamp`, reading the tables :func:`needs` names).
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
from protocol.commands import (
    ChipsKind,
    HandForHand,
    HoldHands,
    ReleaseCards,
    ReleaseHands,
    SetButton,
)
from protocol.config import Game
from protocol.tournament import (
    STUD_GAMES,
    AllInReleased,
    BreakTable,
    ChipRace,
    ChipsAdded,
    ChipsRemoved,
    ConfirmMove,
    Disqualified,
    FinalTable,
    FinalTableDrawn,
    HandEnded,
    HandForHandEnded,
    HandForHandStarted,
    LevelStarted,
    Moved,
    Seated,
    StartHandForHand,
    TableClosed,
    TableOpened,
    TablesHeld,
    TablesReleased,
    TournamentCommand,
    TournamentEvent,
    Unregistered,
    table_game,
)
from server import engine, tournament
from server.engine import TableState
from server.engine.buttons import next_positions, rotation
from server.tournament import TournamentState

#: Table commands a tournament orders itself; a station or scenario may not give them a table.
ORDERED = {
    "add_player": "a player is seated by the tournament's `seat` (8)",
    "remove_player": "players leave through the tournament (`unregister`, `move`, ...)",
    "level": "levels come from the tournament clock (25-A)",
    "add_chips": "chips are added by the tournament's `rebuy` and `add_on` (29)",
    "color_up": "a color-up is the tournament's `color_up` (26)",
    "hold_hands": "tables are held by the tournament (RP-8, 12-A, 11-B, 12-D)",
    "release_hands": "tables are released by the tournament (RP-8, 12-A, 11-B, 12-D)",
    "hand_for_hand": "hand-for-hand is the tournament's `hand_for_hand` (RP-8)",
    "release_cards": "a hand-for-hand all-in is released by the tournament's `release_cards`"
    " (RP-8-F)",
    "set_button": "the final table's button is placed by the tournament's `final_table` (RP-9)",
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
            case Seated() | ChipsAdded() | ChipsRemoved() | ChipRace() | AllInReleased():
                found.add(event.table)
            case Unregistered() | Disqualified() if event.table is not None:
                found.add(event.table)
            case TablesHeld() | TablesReleased() | HandForHandStarted() | HandForHandEnded():
                found |= set(event.tables)
            case FinalTableDrawn():
                found |= {event.table, *(table for table, _ in event.came_from.values())}
    return {name for name in found if name in state.tables}


def needs(state: TournamentState, command: TournamentCommand) -> set[str]:
    """The tables whose phase :func:`stamp` reads for ``command`` (none for most commands)."""
    match command:
        case ConfirmMove():
            p = state.proposals.get(command.proposal)
            return {p.from_table, p.table} if p is not None else set()
        case BreakTable() | FinalTable() | StartHandForHand():
            return set(state.in_play())
    return set()


def stamp(command: TournamentCommand, tables: dict[str, TableState]) -> TournamentCommand:
    """The command with its ``playing`` fact: the tables of ``tables`` with a hand in play. The
    driver and the service fill it from the tables; what a station sent is replaced."""
    if "playing" not in command.__struct_fields__:
        return command
    playing = sorted(name for name, table in tables.items() if table.phase != "idle")
    return msgspec.structs.replace(command, playing=playing)


def _mixed_game(state: TournamentState, step: int) -> Game | None:
    """A mixed event's game at step ``step``, as a table names it; None when every level plays
    the structure's game (the tables' level commands then name none, as before), and for a
    stud level without a bring-in, which no table can deal (the clock holds every table,
    ``game_not_dealt``)."""
    structure = state.structure
    game = structure.game_at(step)
    if not any(s.game for s in structure.levels) or (
        game in STUD_GAMES and not structure.levels[step].bring_in
    ):
        return None
    return table_game(game)


def table_config(state: TournamentState, button: int = 1) -> TableConfig:
    level = tournament.level_in_force(state)
    return TableConfig(
        game=table_game(state.structure.game_at(state.clock.step)),
        blinds=level.blinds,
        ante=level.ante,
        bba=level.bba,
        min_bet=level.min_bet,
        bring_in=level.bring_in,
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
            tables[event.table] = engine.new_table(table_config(state, event.button or button))
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
            level = SetLevel(
                event.blinds,
                event.ante,
                event.bba,
                event.min_bet,
                event.bring_in,
                game=_mixed_game(state, event.step),
            )
            lines: list[TableLine] = []
            for table in sorted(tables):
                lines += to(tables, table, level)
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
        case TablesHeld():
            rule = event.rules[0] if event.rules else ""
            hold = HoldHands(event.hold, event.reason[:200], rule)
            return [line for table in event.tables for line in to(tables, table, hold)]
        case TablesReleased():
            release = ReleaseHands(event.hold)
            return [line for table in event.tables for line in to(tables, table, release)]
        case HandForHandStarted():
            return [line for table in event.tables for line in to(tables, table, HandForHand())]
        case HandForHandEnded():
            off: list[Command] = [HandForHand(on=False), ReleaseHands("h4h")]
            return [line for table in event.tables for c in off for line in to(tables, table, c)]
        case AllInReleased():
            return to(tables, event.table, ReleaseCards())
        case ChipRace():
            race = ColorUpChips(chips=event.chips, removed=event.removed, won=event.won)
            return to(tables, event.table, race)
        case FinalTableDrawn():
            return _final_table(tables, event)
        case _:
            return []


def color_up(
    state: TournamentState, tables: dict[str, TableState], table: str, events: list[TournamentEvent]
) -> list[TableLine]:
    """The table's color-up: the leftovers the tournament took off each seat (26-C), and the
    table's denominations without those raced off at the breaks so far (26-A)."""
    if any(isinstance(e, ChipRace) for e in events):
        return []  # the race's own event ordered the table's color-up (26-A)
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


class _Leaving(msgspec.Struct, frozen=True):
    """What a player takes from a table: the stack, the name, the penalty being served."""

    stack: int
    name: str
    penalty: int


def _leave(tables: dict[str, TableState], old: str, seat: int) -> tuple[list[TableLine], _Leaving]:
    here = tables.get(old)
    # A player who sat down during a hand waits beside the seats (the table's ``arrived``).
    seats = [*here.seats, *getattr(here, "arrived", [])] if here else []
    name = next((s.name for s in seats if s.number == seat), "")
    penalty = here.penalties.get(seat, 0) if here else 0
    lines = to(tables, old, RemovePlayer(seat))
    removed = next((x.event for x in lines if isinstance(x.event, PlayerRemoved)), None)
    stack = removed.stack if isinstance(removed, PlayerRemoved) else 0
    return lines, _Leaving(stack, name, penalty)


def _arrive(
    tables: dict[str, TableState], old: str, new: str, seat: int, who: _Leaving
) -> list[TableLine]:
    """The player sits at ``new``/``seat``; a penalty being served goes on, its hands counted
    from the player's own hands at the new table (74-A, 74-C)."""
    lines = to(tables, new, AddPlayer(seat, who.stack, who.name))
    if who.penalty > 0:
        why = f"serving a penalty from table {old}: {who.penalty} hands left (74)"
        lines += to(tables, new, Penalty(seat, "hands", count=who.penalty, reason=why))
    return lines


def _move(
    tables: dict[str, TableState], old: str, seat: int, new: str, to_seat: int
) -> list[TableLine]:
    """The player leaves ``old``/``seat`` and sits at ``new``/``to_seat`` with the stack, the
    name and the penalty being served following."""
    lines, who = _leave(tables, old, seat)
    return lines + _arrive(tables, old, new, to_seat, who)


def _final_table(tables: dict[str, TableState], event: FinalTableDrawn) -> list[TableLine]:
    """Everyone leaves their table, then sits at a drawn seat of the final table (a seat may be
    someone else's until they have left); the button is placed last (RP-9)."""
    lines: list[TableLine] = []
    leaving: dict[str, _Leaving] = {}
    for player, (old, seat) in sorted(event.came_from.items(), key=lambda x: x[1]):
        out, leaving[player] = _leave(tables, old, seat)
        lines += out
    for player, seat in sorted(event.seats.items(), key=lambda x: x[1]):
        old = event.came_from[player][0]
        lines += _arrive(tables, old, event.table, seat, leaving[player])
    return lines + to(tables, event.table, SetButton(event.button))


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
    table: str,
    end: HandEnd,
    before: tuple[int, dict[int, int]] | None,
    at: int,
    after: TableState | None = None,
) -> HandEnded:
    """The tournament's ``hand_ended`` from a table's ``hand_end``; ``before`` is the hand's
    number and its starting stacks (:func:`started_stacks`), when known; ``after`` the table
    once the hand ended, which tells where the next hand puts the button and the blinds (34,
    36-B, 11-A) — what balancing reads (12-A, 12-D)."""
    hand, started = before or (end.hand, {})
    takers: dict[int, list[int]] = {}
    for seat in end.busted:
        pots = [p for p in end.pots if seat in p.eligible] or list(end.pots)
        if pots:
            takers[seat] = sorted(max(pots, key=lambda p: p.pot).winners)
    button, small, big, waiting = _next_hand(after)
    return HandEnded(
        table=table,
        hand=hand,
        stacks=dict(end.stacks),
        busted=list(end.busted),
        started=started if hand == end.hand else {},
        takers=takers,
        at=at,
        button=button,
        small_blind=small,
        big_blind=big,
        waiting=waiting,
    )


def ordered_hand_ends(
    before: dict[str, TableState], tables: dict[str, TableState], lines: list[TableLine], at: int
) -> list[HandEnded]:
    """The hands the tournament's own orders ended, as ``hand_ended`` commands: a hand-for-hand
    all-in and call on the river, once released, is turned up and awarded at once (RP-8-F,
    17), and so is one still held when hand-for-hand ends. Like any hand end, the tournament
    must count it — eliminations, places, the moves and the hand-for-hand hand waiting for it —
    so the driver gives it these after the orders. ``before`` are the tables as they were
    before the orders, ``tables`` after them, ``lines`` the table events the orders made."""
    return [
        hand_ended(
            line.table, line.event, hand_started(before[line.table]), at, tables.get(line.table)
        )
        for line in lines
        if isinstance(line.event, HandEnd) and not line.event.void and line.table in before
    ]


def _next_hand(after: TableState | None) -> tuple[int, int, int, list[int]]:
    """The next hand's button, small blind seat, big blind and seats not dealt, as the table
    will deal it (34, 36-B, 11-A); with fewer than two players left, where the rotation stands
    (the small blind on the last big blind's seat), no big blind yet."""
    if after is None:
        return 0, 0, 0, []
    where, turn = next_positions(after), rotation(after)
    # Heads-up the button is the small blind (36-C); the rotation is where a third player
    # seated now would play it: the small blind on the last big blind's seat (34).
    button, small = turn if turn is not None else (where.button, where.sb_pos) if where else (0, 0)
    if where is None:
        return button, small, 0, []
    waiting = sorted({s.number for s in after.seats} - set(where.dealt))
    return button, small, where.big_blind, waiting
