"""The Tablewire rules engine: one tournament table under the 2026 Poker TDA rules.

Theory of operation
-------------------
The engine is sans-IO. It never reads a clock, a socket, Redis or a random source: a shuffle
or a time is part of the command that needs it. Its whole surface is

    state, events = apply(state, command)

``apply`` never changes the state it is given. It copies it, asks :mod:`table` what the
command means (``decide``), and applies each event the moment it is decided (:mod:`evolve`),
so that later decisions in the same command see it. A command the rules refuse raises
:class:`Illegal` inside ``decide`` before any event is emitted; ``apply`` then returns the
original state and a single ``error`` event naming the rule. Because the state only ever
changes through events, replaying a table's event log with :func:`rebuild` gives back exactly
the same state.

The modules follow the rulebook's chapters:

- :mod:`reading` — how bets, calls and raises are made: verbal vs chips, the 50% rule, single
  and multiple chips, prior chips, under-calls, unclear amounts (42-48, 53, 57, 59, 63);
- :mod:`betting` — the betting round: minimum raise, re-opening, caps, pot limit (45, 49, 50, 56);
- :mod:`pots` — main and side pots, odd chips (21, 23); :mod:`hands` — hand values at showdown;
- :mod:`flow` — prompts, end of rounds, all-in exposure and showdown order (17, 18);
- :mod:`buttons` — button and blinds, dead button, new players (9, 11, 34, 36).
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.commands import Command
from protocol.config import TableConfig
from protocol.events import ErrorEvent, Event
from server.engine.errors import Illegal
from server.engine.evolve import evolve
from server.engine.state import Seat, TableState, new_state
from server.engine.table import decide

__all__ = ["Illegal", "Seat", "TableState", "apply", "evolve", "new_table", "rebuild"]


def new_table(config: TableConfig) -> TableState:
    """The table before its first hand."""
    return new_state(
        config.game,
        config.level,
        config.chips,
        config.seats,
        config.button,
        names=config.names,
        cap=config.cap,
        heads_up_event=config.heads_up_event,
    )


def apply(state: TableState, command: Command) -> tuple[TableState, list[Event]]:
    """The new state and the events of one command; ``state`` itself is left untouched."""
    work = state.clone()
    events: list[Event] = []

    def emit(event: Event) -> None:
        evolve(work, event)
        events.append(event)

    try:
        decide(work, command, emit)
    except Illegal as refused:
        seat = getattr(command, "seat", None)
        return state, [
            ErrorEvent(message=refused.message, rule=refused.rule, seat=seat, code=refused.code)
        ]
    return work, events


def rebuild(config: TableConfig, events: Iterable[Event]) -> TableState:
    """The state a table's event log describes."""
    state = new_table(config)
    for event in events:
        evolve(state, event)
    return state
