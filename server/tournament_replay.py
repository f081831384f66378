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

Balancing, breaks, hand-for-hand and the final table (12-A, 11-B, RP-8, RP-9) reach the tables
as their holds (``tables_held`` -> ``hold_hands``, ``tables_released`` -> ``release_hands``),
``hand_for_hand``, ``release_cards``, the moves and ``set_button``; a command that must wait
for tables between hands is stamped with the tables in a hand (``playing``), and the hand end
that was waited for carries the move out in its own step. The hand end tells the tournament,
from the table after the hand, where the next hand puts the button and the blinds.

Rebuys and add-ons (``chips_added``) reach the table as ``add_chips``: the chips join the stack
before the next deal and the seat is dealt in as before, since a rebuying player is not a new
one (29). A ``color_up`` becomes the table's ``color_up``: the leftover chips its
``chips_removed`` events take off each seat (26-C) and, as the denominations in play, the
table's chips without those raced off at the breaks so far (26-A), so that the tables' stacks
stay the tournament's chips in play.
"""

from __future__ import annotations

import msgspec

from protocol import Command, ErrorEvent, HandEnd, ProtocolError, StartHand
from protocol.tournament import (
    ColorUp,
    Entry,
    OpenTable,
    Tick,
    TournamentCommand,
    TournamentError,
    TournamentEvent,
    TournamentScenario,
)
from server import engine, tournament, tournament_glue
from server.engine import TableState
from server.tournament import TournamentIllegal, TournamentState
from server.tournament_glue import Refused, TableLine, ordered_only

Line = TournamentEvent | TableLine


def check_entries(scenario: TournamentScenario) -> None:
    """Refuse, naming the field, table commands that only the tournament may order."""
    for i, entry in enumerate(scenario.commands):
        command = entry.command
        if command is None:
            continue
        why = ordered_only(command)
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
        self.lines: list[Line] = []
        size = scenario.structure.table_size
        for spec in scenario.tables:
            self.command(OpenTable(table=spec.id, seats=spec.seats or size, button=spec.button))

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
        """One tournament command and the table commands it orders, kept all or nothing. A
        command that waits for tables between hands learns which are in a hand (``playing``)
        from the tables, whatever the file says."""
        looked = tournament_glue.needs(self.state, command)
        command = tournament_glue.stamp(
            command, {k: v for k, v in self.tables.items() if k in looked}
        )
        state, events = tournament.apply(self.state, command)
        if len(events) == 1 and isinstance(events[0], TournamentError):
            self.lines += events  # refused: nothing is ordered, nothing changes
            return
        tables = dict(self.tables)
        lines: list[Line] = []
        try:
            for event in events:
                lines.append(event)
                lines += tournament_glue.order(
                    state, tables, event, self.buttons.get(getattr(event, "table", ""), 1)
                )
            if isinstance(command, ColorUp):
                lines += tournament_glue.color_up(state, tables, command.table, events)
        except Refused as refused:
            self.lines.append(
                TournamentError(
                    message=f"table {refused.table}: {refused.error.message}",
                    code=refused.error.code,
                    rule=refused.error.rule,
                )
            )
            return
        before, self.state, self.tables = self.tables, state, tables
        self.lines += lines
        ordered = [line for line in lines if isinstance(line, TableLine)]
        for ended in tournament_glue.ordered_hand_ends(before, tables, ordered, state.clock.at):
            self.command(ended)  # a hand the orders ended (RP-8-F) is counted like any other

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
        before = tournament_glue.hand_started(t)
        t, events = engine.apply(t, command)
        self.tables = {**self.tables, table: t}
        self.lines += [TableLine(table, e) for e in events]
        for event in events:
            if isinstance(event, HandEnd) and not event.void:
                self.command(tournament_glue.hand_ended(table, event, before, at, t))


def run_tournament(scenario: TournamentScenario) -> list[Line]:
    check_entries(scenario)
    return TournamentReplay(scenario).run()


def encode_line(line: Line) -> bytes:
    return msgspec.json.encode(line)
