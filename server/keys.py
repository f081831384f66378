"""Where a tournament lives in Redis, and what its commits publish: the key of every hash, log
and set of the layout (``server.store`` describes it), the events channel, and the message.

A module of its own so that what reads the layout (the stores, the fan-out, the confirmation of
commits) does not import the stores' scripts to find a key.
"""

from __future__ import annotations

import msgspec

from protocol.tournament.views import ClockView


def tag(tournament: str) -> str:
    return "tw:{" + tournament + "}"


TOURNAMENT_LOG = ""
"""The tournament's own log where a table id is expected (no table id is empty)."""


def state_key(tournament: str, table: str) -> str:
    if table == TOURNAMENT_LOG:
        return f"{tag(tournament)}:tournament:state"
    return f"{tag(tournament)}:table:{table}:state"


def log_key(tournament: str, table: str) -> str:
    if table == TOURNAMENT_LOG:
        return f"{tag(tournament)}:tournament:log"
    return f"{tag(tournament)}:table:{table}:log"


def commands_key(tournament: str, table: str) -> str:
    if table == TOURNAMENT_LOG:
        return f"{tag(tournament)}:tournament:commands"
    return f"{tag(tournament)}:table:{table}:commands"


def tables_key(tournament: str) -> str:
    return f"{tag(tournament)}:tables"


def channel(tournament: str) -> str:
    return f"{tag(tournament)}:events"


def attempt_key(tournament: str, table: str, command_id: str) -> str:
    if table == TOURNAMENT_LOG:
        return f"{tag(tournament)}:tournament:attempt:{command_id}"
    return f"{tag(tournament)}:table:{table}:attempt:{command_id}"


def deadlines_key(tournament: str) -> str:
    return f"{tag(tournament)}:deadlines"


def hand_key(tournament: str, table: str, hand: int) -> str:
    """Hand ``hand``'s archived record at the table."""
    return f"{tag(tournament)}:table:{table}:hand:{hand}"


def unfiled_key(tournament: str) -> str:
    """The tournament's archived hands whose file is not written yet."""
    return f"{tag(tournament)}:hands:unfiled"


TIMED = "tw:timed"
"""The tournaments that ever had a clock. Outside any tournament's hash tag, so it is written
before (not in) a commit that sets a deadline: a deadline is never stored where the timers do
not look."""
ATTEMPT_KEEP_MS = 600_000
"""How long a commit attempt's token is kept: far longer than the Redis client retries one."""

CHANNEL_PATTERN = "tw:{*}:events"


class Published(msgspec.Struct, frozen=True):
    """What a commit publishes: the events of one command, raw JSON, from number ``seq``."""

    tournament: str
    table: str
    seq: int
    at: float
    events: list[msgspec.Raw]
    clock: ClockView | None = None
    """The tournament's clock view when the commit changed it: every subscriber of the
    tournament is sent it. (Typed: msgspec decodes no ``Raw`` inside a union.)"""
