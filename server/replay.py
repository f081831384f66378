"""The replay tool's core: run a scenario through the engine, collecting every event."""

from __future__ import annotations

from protocol import AddPlayer, Event, ProtocolError, Scenario
from server.engine import apply, new_table


def check_seats(scenario: Scenario) -> None:
    """A scenario may only name seats that are at the table (config or ``add_player``)."""
    known = set(scenario.config.seats)
    for i, command in enumerate(scenario.commands):
        if isinstance(command, AddPlayer):
            known.add(command.seat)
            continue
        named = [getattr(command, "seat", None)]
        named += list(getattr(command, "winners", []))
        named += list(
            getattr(command, "cards", {})
            if isinstance(getattr(command, "cards", None), dict)
            else []
        )
        for seat in named:
            if seat is not None and seat not in known:
                raise ProtocolError(f"seat {seat} is not at the table - at `$.commands[{i}]`")


def run_scenario(scenario: Scenario) -> list[Event]:
    state = new_table(scenario.config)
    events: list[Event] = []
    for command in scenario.commands:
        state, produced = apply(state, command)
        events.extend(produced)
    return events
