"""The tournament replay driver: a tournament scenario through the tournament engine and the
real table engine, glued the way the service glues them.

Each entry first brings the tournament clock to its ``at`` (a ``time`` command: a level or
break whose time has come starts on the way, 25-A). A tournament command is ruled on, and the
table commands its events order are applied to the tables: ``seated`` -> ``add_player``,
``level_started`` -> ``level`` at every table, ``moved`` -> ``remove_player`` and
``add_player`` with the stack the table held, ``chips_removed`` -> a chip ``penalty`` (or, for
a forfeit, ``remove_player``), ``disqualified`` -> a ``disqualify`` penalty. If a table refuses
one, nothing of the step is kept (one atomic step, as the service commits it) and the line is
a ``tournament_error``. A table's ``start_hand`` is asked of the tournament first (breaks stop
new hands); a table's ``hand_end`` becomes the tournament's ``hand_ended``: every stack, the
busted seats, the stacks at the start of the hand (after antes where the big blind ante is
played, 22) and who won each busted seat's last pot.

Rebuys and add-ons (``chips_added``) reach the table as ``add_chips``: the chips join the stack
before the next deal and the seat is dealt in as before, since a rebuying player is not a new
one (29). A ``color_up`` becomes the table's ``color_up``: the leftover chips its
``chips_removed`` events take off each seat (26-C) and, as the denominations in play, the
table's chips without those raced off at the breaks so far (26-A), so that the tables' stacks
stay the tournament's chips in play.
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
    ProtocolError,
    RemovePlayer,
    SetLevel,
    StartHand,
    TableConfig,
)
from protocol import ColorUp as ColorUpChips
from protocol.commands import ChipsKind
from protocol.tournament import (
    ChipsAdded,
    ChipsRemoved,
    ColorUp,
    Disqualified,
    Entry,
    HandEnded,
    LevelStarted,
    Moved,
    OpenTable,
    Seated,
    TableClosed,
    TableOpened,
    Tick,
    TournamentCommand,
    TournamentError,
    TournamentEvent,
    TournamentScenario,
    Unregistered,
)
from server import engine, tournament
from server.engine import TableState
from server.tournament import TournamentIllegal, TournamentState

#: Table commands a tournament orders itself; a scenario may not give them to a table.
_ORDERED = {
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


Line = TournamentEvent | TableLine


class Refused(Exception):
    """A table refused a command the tournament ordered: the whole step is dropped."""

    def __init__(self, table: str, error: ErrorEvent) -> None:
        super().__init__(error.message)
        self.table, self.error = table, error


def check_entries(scenario: TournamentScenario) -> None:
    """Refuse, naming the field, table commands that only the tournament may order."""
    for i, entry in enumerate(scenario.commands):
        command = entry.command
        if command is None:
            continue
        tag = msgspec.to_builtins(command)["type"]
        why = _ORDERED.get(tag)
        if isinstance(command, Penalty) and command.kind in ("chips", "disqualify"):
            why = "chip penalties and disqualifications are tournament commands (74, RP-26)"
        if why:
            raise ProtocolError(f"{why} - at `$.commands[{i}].command`")


class TournamentReplay:
    """The tournament and its tables as the scenario leaves them, and every line printed."""

    def __init__(self, scenario: TournamentScenario) -> None:
        self.scenario = scenario
        self.state: TournamentState = tournament.new_tournament(
            scenario.structure, scenario.tournament
        )
        self.tables: dict[str, TableState] = {}
        self.buttons = {spec.id: spec.button for spec in scenario.tables}
        self.before: dict[str, tuple[int, dict[int, int]]] = {}
        """Per table: the hand being played and the stacks at its start (22)."""
        self.lines: list[Line] = []
        size = scenario.structure.table_size
        for spec in scenario.tables:
            self.command(OpenTable(table=spec.id, seats=spec.seats or size))

    def run(self) -> list[Line]:
        for entry in self.scenario.commands:
            self.entry(entry)
        return self.lines

    def entry(self, entry: Entry) -> None:
        if entry.at is not None and self.state.clock.started:
            self.command(Tick(at=entry.at))
        if entry.tournament is not None:
            command = entry.tournament
            if entry.at is not None and getattr(command, "at", None) == 0:
                command = msgspec.structs.replace(command, at=entry.at)
            self.command(command)
        elif entry.command is not None and entry.table is not None:
            self.table_command(entry.table, entry.command, entry.at or self.state.clock.at)

    def command(self, command: TournamentCommand) -> None:
        """One tournament command and the table commands it orders, kept all or nothing."""
        state, events = tournament.apply(self.state, command)
        tables = dict(self.tables)
        lines: list[Line] = []
        try:
            for event in events:
                lines.append(event)
                lines += self._order(state, tables, event)
            if isinstance(command, ColorUp):
                lines += _color_up(state, tables, command.table, events)
        except Refused as refused:
            self.lines.append(
                TournamentError(
                    message=f"table {refused.table}: {refused.error.message}",
                    code=refused.error.code,
                    rule=refused.error.rule,
                )
            )
            return
        self.state, self.tables = state, tables
        self.lines += lines

    def table_command(self, table: str, command: Command, at: int) -> None:
        t = self.tables.get(table)
        if t is None:
            self.lines.append(
                TableLine(table, ErrorEvent(f"no table {table} in the tournament", code="unknown"))
            )
            return
        if isinstance(command, StartHand):
            try:
                tournament.may_start_hand(self.state, table, at)
            except TournamentIllegal as refused:
                error = ErrorEvent(refused.message, rule=refused.rule, code=refused.code)
                self.lines.append(TableLine(table, error))
                return
        stacks = {s.number: s.stack for s in t.seats}
        t, events = engine.apply(t, command)
        self.tables = {**self.tables, table: t}
        self.lines += [TableLine(table, e) for e in events]
        for event in events:
            if isinstance(event, HandStart) and not event.redeal:
                self.before[table] = (event.hand, _started(stacks, event))
            if isinstance(event, HandEnd) and not event.void:
                self.command(self._hand_ended(table, event, at))

    def _hand_ended(self, table: str, end: HandEnd, at: int) -> HandEnded:
        hand, started = self.before.get(table, (end.hand, {}))
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

    def _order(
        self, state: TournamentState, tables: dict[str, TableState], event: TournamentEvent
    ) -> list[Line]:
        """The table commands a tournament event orders, applied to ``tables``."""
        match event:
            case TableOpened():
                level = tournament.level_in_force(state)
                config = TableConfig(
                    game=state.structure.game,
                    blinds=level.blinds,
                    ante=level.ante,
                    bba=level.bba,
                    min_bet=level.min_bet,
                    chips=state.structure.chips,
                    seats={},
                    button=self.buttons.get(event.table, 1),
                )
                tables[event.table] = engine.new_table(config)
                return []
            case TableClosed():
                del tables[event.table]
                return []
            case Seated():
                return _to(tables, event.table, AddPlayer(event.seat, event.stack, event.name))
            case Unregistered() if event.table is not None and event.seat is not None:
                return _to(tables, event.table, RemovePlayer(event.seat))
            case Moved():
                return _move(tables, event.from_table, event.from_seat, event.table, event.seat)
            case LevelStarted():
                lines: list[Line] = []
                for table in sorted(tables):
                    order = SetLevel(event.blinds, event.ante, event.bba, event.min_bet)
                    lines += _to(tables, table, order)
                return lines
            case ChipsAdded():
                kind: ChipsKind = "add_on" if event.kind == "add_on" else "rebuy"
                return _to(tables, event.table, AddChips(event.seat, event.chips, kind))
            case ChipsRemoved() if event.kind == "penalty":
                penalty = Penalty(event.seat, "chips", chips=event.chips, reason=event.reason)
                return _to(tables, event.table, penalty)
            case ChipsRemoved() if event.kind == "forfeit":
                return _to(tables, event.table, RemovePlayer(event.seat))
            case Disqualified() if event.table is not None and event.seat is not None:
                penalty = Penalty(event.seat, "disqualify", reason=event.reason)
                return _to(tables, event.table, penalty)
            case _:
                return []


def _started(stacks: dict[int, int], start: HandStart) -> dict[int, int]:
    """Each dealt seat's stack at the start of the hand; after the antes where the big blind
    ante is played (22)."""
    started = {seat: stacks.get(seat, 0) for seat in start.dealt}
    if start.bba:
        for post in start.posts:
            if post.kind == "ante" and post.seat in started:
                started[post.seat] -= post.amount
    return started


def _to(tables: dict[str, TableState], table: str, command: Command) -> list[Line]:
    state = tables.get(table)
    if state is None:
        raise Refused(table, ErrorEvent(f"no table {table}", code="unknown_table"))
    state, events = engine.apply(state, command)
    for event in events:
        if isinstance(event, ErrorEvent):
            raise Refused(table, event)
    tables[table] = state
    return [TableLine(table, e) for e in events]


def _color_up(
    state: TournamentState, tables: dict[str, TableState], table: str, events: list[TournamentEvent]
) -> list[Line]:
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
    return _to(tables, table, ColorUpChips(chips=chips, removed=removed))


def _move(tables: dict[str, TableState], old: str, seat: int, new: str, to: int) -> list[Line]:
    """The player leaves ``old``/``seat`` and sits at ``new``/``to`` with the stack, the name
    following."""
    here = tables.get(old)
    name = next((s.name for s in here.seats if s.number == seat), "") if here else ""
    lines = _to(tables, old, RemovePlayer(seat))
    removed = next(
        (x.event for x in lines if isinstance(x, TableLine) and isinstance(x.event, PlayerRemoved)),
        None,
    )
    stack = removed.stack if isinstance(removed, PlayerRemoved) else 0
    return lines + _to(tables, new, AddPlayer(to, stack, name))


def run_tournament(scenario: TournamentScenario) -> list[Line]:
    check_entries(scenario)
    return TournamentReplay(scenario).run()


def encode_line(line: Line) -> bytes:
    return msgspec.json.encode(line)
