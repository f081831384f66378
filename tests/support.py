"""Test harness: run a scenario through the same path as ``tablewire replay``.

A test reads like a ruling: set the table, record what the dealer saw, assert the ruling.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from protocol import decode_scenario
from server.replay import run_scenario


def _as_json(value: Any) -> Any:
    """Arrays are lists on the wire; seat keys stay numbers for readable assertions."""
    if isinstance(value, tuple | list):
        return [_as_json(v) for v in value]
    if isinstance(value, dict):
        return {k: _as_json(v) for k, v in value.items()}
    return value


def play(config: dict[str, Any], commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Decode ``{"config", "commands"}`` as the replay tool does and return the events as dicts."""
    scenario = decode_scenario(json.dumps({"config": config, "commands": commands}))
    return [_as_json(msgspec.to_builtins(e)) for e in run_scenario(scenario)]


def of_type(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def last(events: list[dict[str, Any]], kind: str) -> dict[str, Any]:
    found = of_type(events, kind)
    assert found, f"no {kind} event in {[e['type'] for e in events]}"
    return found[-1]
