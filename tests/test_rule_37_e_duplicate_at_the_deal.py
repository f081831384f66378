"""37-E at the deal: a card entered for two seats of one deal is a duplicate, a fouled deck.

Checked in every family of games, both sides: the same card twice is refused and changes
nothing; the deal with every card different goes on. The last hand's cards are back in the
deck, so a card of the last board may be dealt again.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import last, of_type, play

SEATS = {n: 1_000 for n in range(1, 4)}
STUD = {"game": "7S", "blinds": [0, 0], "ante": 5, "min_bet": 20, "bring_in": 5}
GAMES: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {
    "hold'em": (
        {"game": "NLHE", "blinds": [5, 10]},
        {"cards": {"1": ["As", "Kd"], "2": ["As", "Qc"]}},
        {"cards": {"1": ["As", "Kd"], "2": ["Ah", "Qc"]}},
    ),
    "stud, an up-card another seat holds down": (
        STUD,
        {"cards": {"1": ["As", "Kd"]}, "up": {"1": ["2c"], "2": ["Kd"], "3": ["9h"]}},
        {"cards": {"1": ["As", "Kd"]}, "up": {"1": ["2c"], "2": ["Kh"], "3": ["9h"]}},
    ),
    "triple draw": (
        {"game": "27TD", "blinds": [5, 10]},
        {"cards": {"1": ["2c", "3c", "4c", "5c", "7d"], "3": ["7d", "8d", "9d", "Td", "Jd"]}},
        {"cards": {"1": ["2c", "3c", "4c", "5c", "7d"], "3": ["7h", "8d", "9d", "Td", "Jd"]}},
    ),
}


@pytest.mark.parametrize("game", list(GAMES))
def test_37_e_a_card_dealt_to_two_seats_is_a_duplicate(game: str) -> None:
    config, twice, once = GAMES[game]
    table = {**config, "seats": SEATS, "button": 1}
    refused = play(table, [{"type": "start_hand", **twice}])
    assert last(refused, "error")["rule"] == "37-E"
    assert not of_type(refused, "hand_start")
    assert of_type(play(table, [{"type": "start_hand", **once}]), "hand_start")


def test_37_e_the_last_hands_board_is_back_in_the_deck() -> None:
    """Hand 1's flop had the As; hand 2 deals it to seat 1: no duplicate."""
    table = {"game": "NLHE", "blinds": [5, 10], "seats": SEATS, "button": 1}
    hand = [
        {"type": "start_hand"},
        {"type": "act", "seat": 1, "declare": "call"},
        {"type": "act", "seat": 2, "declare": "call"},
        {"type": "act", "seat": 3, "declare": "check"},
        {"type": "deal", "street": "flop", "cards": ["As", "Kd", "Qc"]},
        {"type": "act", "seat": 2, "declare": "bet", "amount": 10},
        {"type": "act", "seat": 3, "declare": "fold"},
        {"type": "act", "seat": 1, "declare": "fold"},
    ]
    events = play(table, [*hand, {"type": "start_hand", "cards": {"1": ["As", "2d"]}}])
    assert not of_type(events, "error") and len(of_type(events, "hand_start")) == 2
