"""The replay tool's core: run a scenario through the engine, collecting every event."""

from __future__ import annotations

from protocol import Event, Scenario
from server.engine import apply, new_table


def run_scenario(scenario: Scenario) -> list[Event]:
    state = new_table(scenario.config)
    events: list[Event] = []
    for command in scenario.commands:
        state, produced = apply(state, command)
        events.extend(produced)
    return events
