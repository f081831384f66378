"""The tournament replay format and the tournament's decoders (one per direction).

A scenario is the structure, the tables and the ordered record of what happened: tournament
commands and table commands, each with its time. Decoding is the validation boundary, and an
error names the whole field path (``$.structure.levels[2].blinds``).
"""

from __future__ import annotations

from typing import Any

import msgspec

from protocol.codec import ProtocolError, one_path
from protocol.commands import Command
from protocol.config import LevelError
from protocol.tournament.commands import TableId, TournamentCommand
from protocol.tournament.events import TournamentEvent
from protocol.tournament.structure import Structure, TableSize, check_table_size
from protocol.types import Id, Millis, SeatNo


class TableSpec(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """A table of the tournament, open from the start: its id, its size (the structure's when
    0) and the seat of its first button."""

    id: TableId
    seats: TableSize | None = None
    button: SeatNo = 1


class Entry(msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True):
    """One record: a ``tournament`` command, or a table's ``command`` at ``table``; ``at`` (ms)
    is when it happened (a tournament command's own ``at`` defaults to it)."""

    at: Millis | None = None
    tournament: TournamentCommand | None = None
    table: TableId | None = None
    command: Command | None = None

    def __post_init__(self) -> None:
        if (self.tournament is None) == (self.command is None):
            raise ValueError("an entry holds a `tournament` command or a table `command`")
        if (self.command is None) != (self.table is None):
            raise ValueError("a table `command` names its `table`, and only it")


class TournamentScenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A tournament replay file. The top-level ``structure`` key tells it from a table's."""

    structure: Structure
    tables: list[TableSpec] = []
    commands: list[Entry] = []
    tournament: Id = "T"

    def __post_init__(self) -> None:
        ids = [t.id for t in self.tables]
        if len(set(ids)) != len(ids):
            raise ValueError("`tables`: table ids are unique")


_scenario_decoder = msgspec.json.Decoder(TournamentScenario)
_command_decoder = msgspec.json.Decoder(TournamentCommand)
_event_decoder = msgspec.json.Decoder(TournamentEvent)
_structure_decoder = msgspec.json.Decoder(Structure)


def _decode(decoder: msgspec.json.Decoder[Any], data: bytes | str) -> Any:
    try:
        return decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise ProtocolError(one_path(str(exc))) from None


def decode_tournament_scenario(data: bytes | str) -> TournamentScenario:
    scenario: TournamentScenario = _decode(_scenario_decoder, data)
    _checked(scenario.structure, "$.structure")
    return scenario


def _checked(structure: Structure, path: str) -> Structure:
    """The checks a structure passes when it is given (:func:`check_table_size`)."""
    try:
        check_table_size(structure)
    except LevelError as bad:
        raise ProtocolError(f"{bad.why} - at `{path}{bad.field[1:]}`") from None
    return structure


def decode_tournament_command(data: bytes | str) -> TournamentCommand:
    command: TournamentCommand = _decode(_command_decoder, data)
    return command


def decode_tournament_event(data: bytes | str) -> TournamentEvent:
    event: TournamentEvent = _event_decoder.decode(data)
    return event


def decode_structure(data: bytes | str, *, toml: bool = False) -> Structure:
    """A structure file, JSON or TOML (the same fields)."""
    if not toml:
        structure: Structure = _decode(_structure_decoder, data)
        return _checked(structure, "$")
    try:
        return _checked(msgspec.toml.decode(data, type=Structure), "$")
    except msgspec.DecodeError as exc:
        raise ProtocolError(one_path(str(exc))) from None


def is_tournament_scenario(data: bytes) -> bool:
    """A replay file with a top-level ``structure`` key is a tournament's."""
    try:
        top = msgspec.json.decode(data, type=dict[str, msgspec.Raw])
    except msgspec.DecodeError:
        return False
    return "structure" in top
