"""The dealer's "Floor!" (1): a floor person is called to the table; the hand goes on."""

from __future__ import annotations

from tests.support import last, of_type, play

CONFIG = {
    "game": "NLHE",
    "blinds": [50, 100],
    "button": 1,
    "chips": [25, 100, 500],
    "seats": {"1": 5000, "2": 5000, "3": 5000},
}


def test_1_floor_called_to_the_table_does_not_stop_the_hand() -> None:
    events = play(
        CONFIG,
        [
            {"type": "start_hand"},
            {"type": "call_floor", "seat": 1, "reason": "a player asks for the floor"},
            {"type": "act", "seat": 1, "declare": "call"},
        ],
    )
    call = last(events, "floor_call")
    assert (call["rule"], call["blocking"], call["options"]) == ("1", False, ["attended"])
    assert call["text"] == "Floor wanted at the table, seat 1: a player asks for the floor (1)"
    assert last(events, "action")["seat"] == 1, "the hand went on"
    attended = play(
        CONFIG,
        [
            {"type": "start_hand"},
            {"type": "call_floor"},
            {"type": "ruling", "call": 1, "option": "attended"},
        ],
    )
    assert last(attended, "floor_call")["text"] == "Floor wanted at the table (1)"
    assert last(attended, "ruling")["option"] == "attended"


def test_1_floor_called_for_a_seat_nobody_holds_is_refused() -> None:
    events = play(CONFIG, [{"type": "call_floor", "seat": 7}])
    assert events[-1]["type"] == "error" and events[-1]["rule"] == "1"
    assert of_type(events, "floor_call") == []
