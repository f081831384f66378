"""A correction (24) is a fact in the log: it carries the re-derived hand's events.

Rebuilding a log applies those events; it never plays the hand's commands through today's
rules again, so a log written by one version of the rules rebuilds the same under another.
"""

from __future__ import annotations

import msgspec

from protocol import decode_scenario
from protocol.commands import Act, Command, Correction, Draw, StartHand
from protocol.config import TableConfig
from protocol.events import ActionEvent, Corrected, Drawn, Event, Prompt
from server.engine import TableState, apply, new_table, rebuild
from server.views import public_event

CONFIG = {
    "game": "NLHE",
    "blinds": [50, 100],
    "button": 1,
    "chips": [25, 100, 500],
    "seats": {str(n): 10_000 for n in range(1, 7)},
}
HAND = [
    StartHand(cards={3: ["As", "Kd"], 4: ["7c", "7d"]}),
    Act(seat=4, declare="raise", amount=300),
    Act(seat=5, declare="call"),
    Act(seat=6, declare="raise", amount=900),
]


def _played(commands: list[Command]) -> tuple[TableConfig, TableState, list[Event]]:
    config = decode_scenario(msgspec.json.encode({"config": CONFIG, "commands": []})).config
    state = new_table(config)
    log: list[Event] = []
    for command in commands:
        state, events = apply(state, command)
        log.extend(events)
    return config, state, log


def test_24_a_correction_carries_the_rederived_events_and_rebuilds_from_them() -> None:
    config, state, log = _played([*HAND, Correction(count=2, reason="misread", by="floor")])
    fix = next(e for e in log if isinstance(e, Corrected))
    assert fix.undone == ["seat 5: call", "seat 6: raise 900"]
    replayed = [e for e in fix.events if isinstance(e, ActionEvent)]
    assert [(e.seat, e.action, e.total) for e in replayed] == [(4, "raise", 300)]
    assert rebuild(config, log) == state
    assert state.to_act == 5 and state.current_bet == 300


def test_24_applying_a_correction_runs_no_rule_only_its_events() -> None:
    # Tamper with the recorded fact: were the rules run again, the tampering would vanish.
    config, _, log = _played([*HAND, Correction(count=2, reason="misread", by="floor")])
    at = next(i for i, e in enumerate(log) if isinstance(e, Corrected))
    fix = log[at]
    assert isinstance(fix, Corrected)
    changed = [
        msgspec.structs.replace(e, total=400) if isinstance(e, ActionEvent) else e
        for e in fix.events
    ]
    state = rebuild(config, [*log[:at], msgspec.structs.replace(fix, events=changed)])
    seat4 = state.seat(4)
    assert seat4 is not None and seat4.bet == 400 and state.current_bet == 400


def test_24_a_correction_then_play_on_rebuilds_to_the_same_table() -> None:
    config, state, log = _played(
        [
            *HAND,
            Correction(count=2, reason="misread", by="floor"),
            Act(seat=5, declare="fold"),
            Correction(count=1, reason="the fold was seat 6's", by="floor"),
            Act(seat=5, declare="call"),
        ]
    )
    assert rebuild(config, log) == state
    prompts = [e for e in log if isinstance(e, Prompt)]
    assert prompts[-1].seat == 6


def test_24_a_display_never_sees_hole_cards_inside_a_correction() -> None:
    _, _, log = _played([*HAND, Correction(count=1, reason="misread", by="floor")])
    fix = next(e for e in log if isinstance(e, Corrected))
    raw = msgspec.to_builtins(fix)
    assert "As" in msgspec.json.encode(raw).decode()
    public = public_event(raw)
    assert "As" not in msgspec.json.encode(public).decode()
    assert [e["type"] for e in public["events"]] == [e["type"] for e in raw["events"]]


def test_24_a_draw_recorded_wrong_is_undone_like_an_action() -> None:
    """2-7 triple draw: the dealer records seat 2 drawing 2 where it threw 3, and undoes it at
    once (24, 1): seat 2 is to draw again, the stub back as it was; the floor's correction of
    two counts the draw and the check before it as the two last actions; the log rebuilds."""
    config = decode_scenario(
        msgspec.json.encode({"config": {**CONFIG, "game": "27TD"}, "commands": []})
    ).config
    played = [
        StartHand(),
        *(Act(seat=n, declare="call") for n in (4, 5, 6, 1, 2)),
        Act(seat=3, declare="check"),
        Draw(seat=2, count=2),
    ]
    state = new_table(config)
    log: list[Event] = []
    for command in [*played, Correction(reason="threw three", by="dealer")]:
        state, events = apply(state, command)
        log.extend(events)
    undo = log[-1]
    assert isinstance(undo, Corrected) and undo.undone == ["seat 2: draw 2"]
    assert (state.phase, state.to_act, state.stub) == ("draw", 2, 52 - 6 * 5)
    assert rebuild(config, log) == state
    state, events = apply(state, Draw(seat=2, count=3))
    assert [e.count for e in events if isinstance(e, Drawn)] == [3]
    state, events = apply(state, Correction(reason="the floor", count=2))
    fixed = next(e for e in events if isinstance(e, Corrected))
    assert fixed.undone == ["seat 3: check", "seat 2: draw 3"]
    assert (state.phase, state.to_act) == ("betting", 3)
