"""Tablewire's wire protocol: the table configuration, the commands and the events.

Every message is a frozen msgspec Struct tagged by its ``type`` field. There is one union per
direction (``Command`` in, ``Event`` out) and one decoder per union, built once. Decoding is the
validation boundary: anything that decodes is well-formed, and a decoding error names the field.

The JSON field names here are a public contract used by floor staff and other tools (the replay
format). Extend them with new optional fields; never rename or retype one.
"""

from protocol.codec import (
    ProtocolError,
    Scenario,
    decode_command,
    decode_scenario,
    encode,
    encode_event,
)
from protocol.commands import (
    Act,
    AddPlayer,
    Award,
    Command,
    Deal,
    Muck,
    RemovePlayer,
    Ruling,
    SetLevel,
    Show,
    StartHand,
)
from protocol.config import Game, Level, TableConfig
from protocol.events import (
    ActionEvent,
    Awarded,
    CardsShown,
    Dealt,
    ErrorEvent,
    Event,
    ExposeAll,
    FloorCall,
    HandEnd,
    HandStart,
    LevelSet,
    PlayerAdded,
    PlayerRemoved,
    Post,
    PotAward,
    Prompt,
    RoundEnd,
    RulingMade,
    ShowdownOrder,
)

__all__ = [
    "Act",
    "ActionEvent",
    "AddPlayer",
    "Award",
    "Awarded",
    "CardsShown",
    "Command",
    "Deal",
    "Dealt",
    "ErrorEvent",
    "Event",
    "ExposeAll",
    "FloorCall",
    "Game",
    "HandEnd",
    "HandStart",
    "Level",
    "LevelSet",
    "Muck",
    "PlayerAdded",
    "PlayerRemoved",
    "Post",
    "PotAward",
    "Prompt",
    "ProtocolError",
    "RemovePlayer",
    "RoundEnd",
    "Ruling",
    "RulingMade",
    "Scenario",
    "SetLevel",
    "Show",
    "ShowdownOrder",
    "StartHand",
    "TableConfig",
    "decode_command",
    "decode_scenario",
    "encode",
    "encode_event",
]
