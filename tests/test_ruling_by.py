"""Who ruled (issue 11): a token may carry the name of the person holding it
(``tablewire token --name``); the service writes that name into every ``ruling`` command a
floor or admin station sends (``by``, overwriting what the station put there), and the
``ruling`` event carries it and says "ruled by <name>" in its text.

In the replay format ``ruling.by`` is an optional field at the end of the command; a
scenario without it replays as before, with ``by`` empty and no "ruled by" in the text.
"""

from __future__ import annotations

import json
import time
from typing import Any

import msgspec
from click.testing import CliRunner

from protocol import decode_scenario
from protocol.commands import Act, Ruling
from server.cli import main
from server.station import signed
from server.tokens import Claims, issue, verify
from tests.support import last, play
from tests.test_seed_common import act, table

SECRET = b"ruling-by-test-secret-0123456789"
FOUR = table({1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000}, button=1, blinds=(100, 200))
UNDER_CALL: list[dict[str, Any]] = [
    {"type": "start_hand"},
    act(4, chips=[1000, 100, 100]),
    act(1, chips=[100, 100]),
]


def claims(role: str = "floor", name: str = "") -> Claims:
    return Claims(role, "main", int(time.time()) + 60, name=name)  # type: ignore[arg-type]


def test_a_ruling_with_by_is_recorded_as_ruled_by_that_name() -> None:
    events = play(FOUR, [*UNDER_CALL, {"type": "ruling", "call": 1, "option": "call", "by": "Mia"}])
    ruling = last(events, "ruling")
    assert ruling["by"] == "Mia"
    assert ruling["text"] == "Floor ruling on call 1: seat 1 call (53-B), ruled by Mia"
    assert last(events, "action")["seat"] == 1


def test_a_ruling_without_by_replays_as_before() -> None:
    events = play(FOUR, [*UNDER_CALL, {"type": "ruling", "call": 1, "option": "fold"}])
    ruling = last(events, "ruling")
    assert ruling["by"] == ""
    assert ruling["text"] == "Floor ruling on call 1: seat 1 fold (53-B)"
    assert "ruled by" not in ruling["text"]


def test_by_is_the_last_field_of_the_ruling_command_and_is_left_out_when_empty() -> None:
    assert Ruling.__struct_fields__ == ("call", "option", "by")
    assert json.loads(msgspec.json.encode(Ruling(call=1, option="call"))) == {
        "type": "ruling",
        "call": 1,
        "option": "call",
    }
    scenario = {"config": FOUR, "commands": [{"type": "ruling", "call": 1, "option": "x", "by": 5}]}
    try:
        decode_scenario(json.dumps(scenario))
    except ValueError as exc:
        assert "$.commands[0].by" in str(exc)
    else:
        raise AssertionError("a ruling's by must be text")


def test_the_service_writes_the_tokens_name_over_what_the_station_claims() -> None:
    claimed = Ruling(call=1, option="call", by="Somebody Else")
    assert signed(claims(name="Mia Floor"), claimed) == Ruling(1, "call", "Mia Floor")
    assert signed(claims("admin", "Ola Admin"), claimed).by == "Ola Admin"
    # A token without a name signs nothing: the station's claim is dropped, not kept.
    assert signed(claims(), claimed).by == ""
    # Other commands go through untouched.
    move = Act(seat=1, declare="call")
    assert signed(claims(name="Mia Floor"), move) is move


def test_a_token_carries_its_name_and_one_without_a_name_still_verifies() -> None:
    now = time.time()
    named = verify(SECRET, issue(SECRET, claims(name="Mia Floor")), now)
    assert named.name == "Mia Floor"
    old = Claims("floor", "main", int(now) + 60, id="abc")
    body = msgspec.json.encode(old)
    assert b'"name"' not in body  # omitted when empty: tokens issued before names look the same
    assert verify(SECRET, issue(SECRET, old), now).name == ""


def test_tablewire_token_name_puts_the_name_in_the_token(tmp_path: Any) -> None:
    runner = CliRunner()
    env = {"TABLEWIRE_SECRET": SECRET.decode()}
    args = ["token", "--role", "floor", "--tournament", "main", "--data-dir", str(tmp_path)]
    done = runner.invoke(main, [*args, "--name", "  Mia Floor "], env=env)
    assert done.exit_code == 0, done.output
    token = done.stdout.strip().splitlines()[0]
    assert verify(SECRET, token, time.time()).name == "Mia Floor"
    too_long = runner.invoke(main, [*args, "--name", "x" * 81], env=env)
    assert too_long.exit_code == 2
    assert "at most 80 characters" in too_long.output
