"""One decoder per direction, built once; decoding is the validation boundary."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from protocol.commands import Command
from protocol.config import TableConfig
from protocol.events import Event


class Scenario(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A replay file: a table's configuration and the commands recorded at it."""

    config: TableConfig
    commands: list[Command] = []


class ProtocolError(ValueError):
    """Input that does not decode; the message names the field path."""


_NESTED = re.compile(r"^`(\$[^`]*)`: (.*) - at `(\$[^`]*)`$", re.S)
_TOP = re.compile(r"^`(\$[^`]*)`: (.*)$", re.S)


def one_path(message: str) -> str:
    """A decoding error with one path: ``"`$.levels[2].blinds`: why - at `$.structure`"``
    reads ``why - at `$.structure.levels[2].blinds```, the field a check inside a struct
    (:class:`~protocol.config.LevelError`) names joined to where decoding found the struct."""
    if nested := _NESTED.match(message):
        inner, why, outer = nested.groups()
        return f"{why} - at `{outer}{inner[1:]}`"
    if top := _TOP.match(message):
        path, why = top.groups()
        return f"{why} - at `{path}`"
    return message


_command_decoder = msgspec.json.Decoder(Command)
_scenario_decoder = msgspec.json.Decoder(Scenario)
_event_decoder = msgspec.json.Decoder(Event)
_encoder = msgspec.json.Encoder()


def decode_command(data: bytes | str) -> Command:
    try:
        return _command_decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise ProtocolError(str(exc)) from None


def decode_scenario(data: bytes | str) -> Scenario:
    try:
        return _scenario_decoder.decode(data)
    except msgspec.DecodeError as exc:
        raise ProtocolError(str(exc)) from None


def decode_event(data: bytes | str) -> Event:
    return _event_decoder.decode(data)


def encode(message: Any) -> bytes:
    return _encoder.encode(message)


def encode_event(event: Event) -> bytes:
    return _encoder.encode(event)
