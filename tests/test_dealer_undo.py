"""The dealer's undo (24, 1): a correction ``by: "dealer"`` of exactly the last action, only
while it is the last command recorded in the hand; anything else is the floor's to correct.

Played through the replay format (tests/support.play), as ``tablewire replay`` does.
"""

from __future__ import annotations

from typing import Any

from protocol.commands import Correction
from server.station import permitted
from server.tokens import Claims
from tests.support import last, of_type, play

CONFIG: dict[str, Any] = {
    "game": "NLHE",
    "blinds": [50, 100],
    "button": 1,
    "chips": [25, 100, 500],
    "seats": {str(n): 10_000 for n in range(1, 5)},
}
START: list[dict[str, Any]] = [
    {"type": "start_hand"},
    {"type": "act", "seat": 4, "declare": "call"},
    {"type": "act", "seat": 1, "declare": "fold"},
]
UNDO = {"type": "correction", "count": 1, "by": "dealer", "reason": "mis-tap"}


def test_the_dealer_undoes_the_last_action_and_the_log_says_so() -> None:
    events = play(CONFIG, [*START, UNDO])
    fix = last(events, "correction")
    assert fix["by"] == "dealer" and fix["undone"] == ["seat 1: fold"]
    assert fix["text"] == "Undo by the dealer: voided seat 1: fold (mis-tap)"
    assert fix["rules"] == ["1"]
    # Seat 1 is to act again, with every option.
    assert last(events, "prompt")["seat"] == 1
    assert of_type(events, "error") == []


def test_the_hand_goes_on_after_an_undo_and_a_new_action() -> None:
    events = play(CONFIG, [*START, UNDO, {"type": "act", "seat": 1, "declare": "call"}])
    assert last(events, "action")["seat"] == 1 and last(events, "action")["action"] == "call"
    assert last(events, "prompt")["seat"] == 2


def test_the_dealer_may_not_void_more_than_one_action() -> None:
    events = play(CONFIG, [*START, {**UNDO, "count": 2}])
    error = last(events, "error")
    assert error["code"] == "floor_must_correct" and error["rule"] == "24"
    assert "the floor must correct it" in error["message"]
    assert of_type(events, "correction") == []


def test_no_undo_once_something_else_was_recorded_after_the_action() -> None:
    # The round closes, the flop is dealt: the last action is no longer the last record.
    hand = [
        {"type": "start_hand"},
        {"type": "act", "seat": 4, "declare": "call"},
        {"type": "act", "seat": 1, "declare": "call"},
        {"type": "act", "seat": 2, "declare": "call"},
        {"type": "act", "seat": 3, "declare": "check"},
        {"type": "deal", "street": "flop", "cards": ["Ah", "Kd", "7c"]},
    ]
    error = last(play(CONFIG, [*hand, UNDO]), "error")
    assert error["code"] == "floor_must_correct" and error["rule"] == "24"
    # The floor still may.
    fix = last(play(CONFIG, [*hand, {**UNDO, "by": "floor"}]), "correction")
    assert fix["text"].startswith("Correction by the floor: voided seat 3: check; deal")


def test_no_undo_before_any_action_or_between_hands() -> None:
    assert last(play(CONFIG, [{"type": "start_hand"}, UNDO]), "error")["code"] == (
        "floor_must_correct"
    )
    assert last(play(CONFIG, [UNDO]), "error")["code"] == "no_hand"


def test_the_server_lets_a_dealer_send_its_own_undo_only() -> None:
    dealer = Claims(role="dealer", tournament="main", exp=2**40, table="1")
    assert permitted(dealer, Correction(reason="mis-tap", by="dealer"), "1") is None
    assert permitted(dealer, Correction(reason="x", by="floor"), "1") == (
        "a dealer's correction is by the dealer"
    )
    assert permitted(dealer, Correction(reason="x", by="dealer"), "2") is not None
