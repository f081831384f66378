"""What a rule module hands back to the dispatcher: how the hand goes on after it.

Rule modules emit the events of their ruling and stop there. Moving the hand on (the next
prompt, the end of a round, the next street, the showdown) is :mod:`flow`'s job, and only the
dispatcher (:mod:`table`) calls it, with the :data:`Move` the rule module returned. That keeps
the engine's imports one-way: no rule module ever calls back up into ``flow``.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from protocol.commands import Command
from protocol.events import Event
from server.engine.state import TableState

Emit = Callable[[Event], None]
"""Where a rule module sends each event it decides; the event is applied at once."""

Attempt = Callable[[TableState, Command], tuple[TableState, list[Event]]]
"""One command through the rules on a copy of the table: the dispatcher's ``attempt``, handed
to the modules that must ask "what if" (a correction, RP-24) instead of importing it."""


class ResumeAfter(msgspec.Struct, frozen=True):
    """Carry the action on from the seat after ``seat`` (prompt, bind out-of-turn, close).

    The moves are frozen structs rather than frozen dataclasses: one is made for almost every
    command, and a struct is made in a quarter of the time."""

    seat: int


class PromptAgain(msgspec.Struct, frozen=True):
    """The seat to act is still to act: prompt it again with what it now faces."""


class StreetDealt(msgspec.Struct, frozen=True):
    """A street's cards are out: open its betting, or run on to the showdown."""


class TryShowdown(msgspec.Struct, frozen=True):
    """A hand was shown or mucked: award the pots if the showdown is settled."""


Move = ResumeAfter | PromptAgain | StreetDealt | TryShowdown | None
