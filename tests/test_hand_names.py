"""The winning hand in words (issue 11): ``high_name``/``low_name`` name a hand's class and its
high card(s), and the pot awards of ``award`` and ``hand_end`` carry them per winner."""

from __future__ import annotations

import pytest

from protocol import TableConfig
from protocol.commands import Act, Award, Deal, Show, StartHand
from protocol.events import Awarded, HandEnd
from server.engine import apply, new_table
from server.engine.hands import high_name, low_name


def cards(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize(
    ("hole", "board", "name"),
    [
        ("Ah Kh", "Qh Jh Th 2d 3c", "royal flush"),
        ("9h 8h", "7h 6h 5h 2c 2d", "straight flush, nine high"),
        ("9h 9d", "9c 9s 2h 3d 4c", "four of a kind, nines"),
        ("Ah Ad", "Kc Ks Kd 2c 3h", "full house, kings full of aces"),
        ("Ah Kh", "Qh 7h 2h Kd Kc", "flush, ace high"),
        ("5h 4d", "3c 2s Ah 9d 9c", "straight, five high"),
        ("Th 9d", "8c 7s 6h Kd 2c", "straight, ten high"),
        ("5h 5d", "5c Ks 9h 3d 2c", "three of a kind, fives"),
        ("Ah Ad", "8c 8s 2h 3d 4c", "two pair, aces and eights"),
        ("Qs Qd", "2c 5h 9d Js 3c", "pair of queens"),
        ("Ah Kd", "8c 7s 2h 3d 4c", "high card, ace"),
    ],
)
def test_a_high_hand_is_named_by_its_class_and_high_cards(hole: str, board: str, name: str) -> None:
    assert high_name("NLHE", cards(hole), cards(board)) == name


def test_omaha_plays_two_hole_cards_and_the_low_is_named_highest_card_first() -> None:
    # Four hearts in the hand but two on the board: no flush in Omaha.
    assert high_name("PLO", cards("Ah Kh 3h 4h"), cards("Qh 7h 2c Kd 6c")) == "pair of kings"
    assert low_name("PLO8", cards("Ah Kh 3c 4c"), cards("Qh 7h 2h Kd 6c")) == "seven-six low"
    assert low_name("PLO8", cards("Ah Kh Jc Qc"), cards("Qh 9h 2h Kd 6c")) == ""


CONFIG = TableConfig(game="NLHE", blinds=(100, 200), seats={1: 5_000, 2: 5_000, 3: 5_000}, button=1)
HOLE = {1: cards("Ah Kh"), 2: cards("Qs Qd"), 3: cards("7c 2d")}
BOARD = [("flop", cards("Jh 7h 2h")), ("turn", cards("9d")), ("river", cards("4c"))]


def test_an_all_in_run_out_names_the_winning_hand_in_the_hand_end_pots() -> None:
    t = new_table(CONFIG)
    events = []
    for command in [
        StartHand(cards=HOLE),
        Act(seat=1, declare="all_in"),
        Act(seat=2, declare="call"),
        Act(seat=3, declare="fold"),
        *(Deal(street=s, cards=c) for s, c in BOARD),
    ]:
        t, new = apply(t, command)
        events += new
    end = next(e for e in events if isinstance(e, HandEnd))
    assert [(p.pot, p.winners, p.hands) for p in end.pots] == [(0, [1], {1: "flush, ace high"})]
    assert end.busted == [2]


def test_a_dealer_award_names_the_winning_hand_whose_cards_are_known() -> None:
    # Only seat 1's cards are known: seats 2 and 3 table theirs unread and the dealer awards.
    t = new_table(CONFIG)
    streets = [
        step
        for street, board in BOARD
        for step in (
            Deal(street=street, cards=board),
            *(Act(seat=n, declare="check") for n in (2, 3, 1)),
        )
    ]
    for command in [
        StartHand(cards={1: HOLE[1]}),
        Act(seat=1, declare="call"),
        Act(seat=2, declare="call"),
        Act(seat=3, declare="check"),
        *streets,
        Show(seat=2),
        Show(seat=3),
        Show(seat=1),
    ]:
        t, _ = apply(t, command)
    t, events = apply(t, Award(winners=[1]))
    awarded = next(e for e in events if isinstance(e, Awarded))
    end = next(e for e in events if isinstance(e, HandEnd))
    assert awarded.hands == {1: "flush, ace high"}
    assert [(p.winners, p.hands) for p in end.pots] == [([1], {1: "flush, ace high"})]
