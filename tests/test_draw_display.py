"""The draw games on a display: a draw's discards and new cards are the staff's alone.

Every event of the test hands is walked through :func:`server.views.public_events` (as the
service sends them to a display): no ``drawn`` event and no ``recorded`` ``draw`` keeps its
``thrown`` or ``cards``, also inside a ``correction``; the counts stay public; no entered card
is seen before a hand is shown or turned up (17). The table snapshot's public view holds a
hand's cards only once it is tabled or turned up after the last draw.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from server.views import public_events, public_view, staff_view
from tests.test_rule_rp_25_draw import (
    LIMPED,
    THREE,
    _checked_to_the_showdown,
    draw,
    drawn,
    start,
    state_after,
    swap,
    table,
    typed,
)
from tests.test_rule_rp_25_short_stub import SIX, _discarded_then_short
from tests.test_seed_common import Cmd, act, run

DISPLAYED = {
    "known three-handed hand": (
        table(),
        _checked_to_the_showdown(
            [swap(2, "8h 8d", "2d 3d"), swap(3, "Ah Kh Qh Jh", "8c 6d 4s 3s"), draw(1)],
            [swap(2, "Js", "4d"), draw(3), draw(1)],
            [swap(2, "Ts", "6h"), swap(3, "9h", "2h"), draw(1)],
        ),
    ),
    "discards entered, new cards not": (
        table(),
        [*LIMPED, draw(2, 2, "8h 8d"), draw(3, 1, cards="6d"), draw(1)],
    ),
    "a draw corrected": (
        table(),
        [
            *LIMPED,
            swap(2, "8h 8d", "2d 3d"),
            # the draw is voided (24): a seat's draw is one of its actions
            {"type": "correction", "reason": "wrong cards", "count": 1},
            swap(2, "8h 8d", "4d 6d"),
        ],
    ),
    "C with entered cards": (
        table(stacks=SIX),
        [
            *_discarded_then_short(),
            swap(6, "8d 8h 8s", "Kc Kd Kh"),  # C
            swap(1, "2c 2d", "3d 3h"),  # seat 2's discards, back from the muck
        ],
    ),
}


@pytest.mark.parametrize("name", list(DISPLAYED))
def test_the_display_never_gets_a_draw_s_discards_or_new_cards(name: str) -> None:
    config, commands = DISPLAYED[name]
    events = typed(config, commands)
    assert not [e for e in events if type(e).__name__ == "ErrorEvent"], events
    sent = [
        msgspec.json.decode(msgspec.json.encode(e))
        for e in public_events([msgspec.json.encode(e) for e in events])
    ]
    assert len(sent) == len(events)

    def walk(event: dict[str, Any]) -> None:
        if event["type"] == "correction":
            for inner in event.get("events", []):
                walk(inner)
        if event["type"] == "drawn":
            assert (event["thrown"], event["cards"]) == ([], []), event
        if event["type"] == "recorded" and event["command"]["type"] == "draw":
            assert not event["command"].get("thrown") and not event["command"].get("cards")
        if event["type"] == "hand_start":
            assert not event.get("cards")

    for event in sent:
        walk(event)
    # the counts stay public
    assert [e["count"] for e in sent if e["type"] == "drawn"] == [
        e.count for e in events if type(e).__name__ == "Drawn"
    ]
    # no card entered in a hand or a draw is seen before a hand is shown
    hidden = {c for cmd in commands for c in _cards_of(cmd)}
    shown_at = next(
        (i for i, e in enumerate(sent) if e["type"] in ("shown", "expose_all")), len(sent)
    )
    before = msgspec.json.encode(sent[:shown_at])
    for card in hidden:
        assert f'"{card}"'.encode() not in before, card


def _cards_of(command: Cmd) -> list[str]:
    if command["type"] == "start_hand":
        return [c for hand in command.get("cards", {}).values() for c in hand]
    if command["type"] == "draw":
        return [*command.get("thrown", []), *command.get("cards", [])]
    return []


def test_the_staff_see_the_draw_as_entered() -> None:
    config, commands = DISPLAYED["known three-handed hand"]
    first = drawn(run(config, commands))[0]
    assert (first["thrown"], first["cards"]) == (["8h", "8d"], ["2d", "3d"])


def test_the_display_s_snapshot_holds_no_hand_until_it_is_tabled() -> None:
    """At every command of a hand played with every card entered, the public view of the
    table holds no card of a hand not yet tabled; the staff view holds each hand as drawn."""
    config, commands = DISPLAYED["known three-handed hand"]
    for end in range(1, len(commands) + 1):
        state = state_after(config, commands[:end])
        assert all(s.cards == [] for s in public_view(state).seats), commands[end - 1]
    state = state_after(config, commands)
    assert {s.seat: s.cards for s in staff_view(state).seats} == {
        1: ["2c", "3c", "4c", "5c", "7d"],
        2: ["9s", "2d", "3d", "4d", "6h"],
        3: ["8c", "6d", "4s", "3s", "2h"],
    }
    tabled = state_after(config, [*commands, {"type": "show", "seat": 2}])
    seen = {s.seat: s.cards for s in public_view(tabled).seats}
    assert seen == {1: [], 2: ["9s", "2d", "3d", "4d", "6h"], 3: []}


def test_the_display_sees_all_in_hands_only_once_turned_up_after_the_last_draw() -> None:
    """Seat 2 all-in before the draw against seat 1; seat 2's last draw is not entered, so
    the hand waits for it to be tabled after the exposure: seat 1's hand is then public."""
    config = table(stacks={1: 1_000, 2: 100, 3: 1_000})
    commands = [start(THREE), act(1, "raise", 100), act(2, "call"), act(3, "fold")]
    draws_ = [swap(2, "8h 8d", "2d 3d"), draw(1), swap(2, "Js", "4d"), draw(1), draw(2, 1)]
    for end in range(len(draws_) + 1):
        state = state_after(config, [*commands, *draws_[:end]])
        assert all(s.cards == [] for s in public_view(state).seats)
        assert not state.exposed
    state = state_after(config, [*commands, *draws_, draw(1)])
    assert state.exposed and state.phase == "showdown"
    seen = {s.seat: s.cards for s in public_view(state).seats}
    assert seen == {1: ["2c", "3c", "4c", "5c", "7d"], 2: [], 3: []}
