"""Razz and seven-card stud hi/lo 8 or better (2026 TDA RP-10, RP-10-D, 18-A, 21-B, 21-C),
through the replay format, each line drawn by the rules tested from both sides.

Razz is stud for the lowest hand: aces low, straights and flushes not counted, so the highest
up-card brings it in (the higher suit of two equal cards) and the lowest board acts first. Stud/8
is stud whose pot is halved between the best high and the best qualifying low. The table is the
stud rule tests' (antes 10, bring-in 20, small bet 50).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import last, play
from tests.test_rule_rp_10_stud import checked_down, error, start, street, stud
from tests.test_seed_common import Cmd, Event, act, prompt_for, run


def razz(**extra: Any) -> dict[str, Any]:
    return stud(game="RAZZ", **extra)


def hi_lo(**extra: Any) -> dict[str, Any]:
    return stud(game="7S8", **extra)


# --- RP-10: who brings it in -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "up", "brings_in"),
    [
        ("RAZZ", {1: "Kd", 2: "2c", 3: "9h"}, 1),  # razz: the highest card
        ("7S", {1: "Kd", 2: "2c", 3: "9h"}, 2),  # the same cards in stud: the lowest
        ("7S8", {1: "Kd", 2: "2c", 3: "9h"}, 2),  # stud/8 is brought in as stud is
        ("RAZZ", {1: "Kd", 2: "Kc", 3: "9h"}, 1),  # two kings: diamonds above clubs
        ("RAZZ", {1: "Kd", 2: "Ks", 3: "9h"}, 2),  # spades above diamonds
        ("RAZZ", {1: "As", 2: "2c", 3: "Ad"}, 2),  # razz aces are low: the deuce is highest
        ("7S8", {1: "As", 2: "Kc", 3: "Ad"}, 2),  # stud/8's bring-in counts the ace high
    ],
)
def test_rp_10_razz_brings_it_in_by_the_highest_up_card_stud_8_by_the_lowest(
    game: str, up: dict[int, str], brings_in: int
) -> None:
    events = run(stud(game=game), [start(up)])
    prompt = prompt_for(events, brings_in)
    assert prompt["options"] == ["bring_in", "complete"] and "(RP-10)" in prompt["text"]
    which = "highest" if game == "RAZZ" else "lowest"
    assert f"seat {brings_in} has the {which} up-card" in last(events, "hand_start")["text"]


def test_rp_10_an_up_card_left_unknown_is_refused_the_up_cards_decide_the_bring_in() -> None:
    refused = error(play(razz(), [start({1: "Kd", 2: "??", 3: "9h"})]))
    assert refused["code"] == "up_cards_needed" and "seat 2" in refused["message"]
    third = [start({1: "Kd", 2: "2c", 3: "9h"}), act(1, "bring_in"), act(2, "call")]
    refused = error(play(razz(), [*third, act(3, "call"), street("fourth", {1: "5c", 2: "??"})]))
    assert refused["code"] == "up_cards_needed"


# --- RP-10-D: who acts first from fourth street ----------------------------------------------

RAZZ_THIRD = {1: "Kd", 2: "2c", 3: "3h"}
"""Seat 1's king brings it in; everyone calls."""


def _fourth(config: dict[str, Any], fourth: dict[int, str], third: dict[int, str]) -> list[Event]:
    opener = 1 if config["game"] == "RAZZ" else min(third, key=lambda n: _stud_rank(third[n]))
    order = [opener, *(n for n in (1, 2, 3) if n > opener), *(n for n in (1, 2, 3) if n < opener)]
    commands: list[Cmd] = [start(third), act(order[0], "bring_in")]
    commands += [act(n, "call") for n in order[1:]]
    return run(config, [*commands, street("fourth", fourth)])


def _stud_rank(card: str) -> tuple[int, int]:
    return "23456789TJQKA".index(card[0]), "cdhs".index(card[1])


@pytest.mark.parametrize(
    ("fourth", "first"),
    [
        ({1: "Qc", 2: "2d", 3: "9s"}, 3),  # 9-3 is the lowest board: K-Q, a pair of deuces
        ({1: "Ac", 2: "Kc", 3: "3d"}, 1),  # K-A is lower than K-2 or a pair of threes
        ({1: "Ac", 2: "3c", 3: "Ad"}, 3),  # aces low: 3-A is lower than 3-2 and K-A
    ],
)
def test_rp_10_d_in_razz_the_lowest_board_acts_first_pairs_counting_against_it(
    fourth: dict[int, str], first: int
) -> None:
    events = _fourth(razz(), fourth, RAZZ_THIRD)
    assert prompt_for(events, first)["options"] == ["check", "bet"]


def test_rp_10_d_the_same_boards_in_stud_8_the_highest_acts_first() -> None:
    """Stud/8 orders the action as stud does, by the best high hand showing."""
    third = {1: "Kd", 2: "2c", 3: "3h"}
    events = _fourth(hi_lo(), {1: "Qc", 2: "2d", 3: "9s"}, third)
    assert prompt_for(events, 2)["options"] == ["check", "bet"]  # the pair of deuces
    events = _fourth(razz(), {1: "Qc", 2: "2d", 3: "9s"}, third)
    assert prompt_for(events, 3)["options"] == ["check", "bet"]


@pytest.mark.parametrize(
    ("third", "fourth", "first"),
    [
        # 7-4 against 7-4: the seven of spades is the highest card by suit.
        ({1: "Kd", 2: "7c", 3: "7s"}, {1: "Qc", 2: "4d", 3: "4c"}, 3),
        ({1: "Kd", 2: "7s", 3: "7c"}, {1: "Qc", 2: "4c", 3: "4d"}, 2),
        # A-2 against A-2: aces are low in razz, so the highest card is the deuce (diamonds
        # above clubs), not the ace of spades.
        ({1: "Kd", 2: "As", 3: "Ah"}, {1: "Qc", 2: "2c", 3: "2d"}, 3),
    ],
)
def test_rp_10_d_equal_lowest_boards_in_razz_the_highest_card_by_suit_acts_first(
    third: dict[int, str], fourth: dict[int, str], first: int
) -> None:
    events = _fourth(razz(), fourth, third)
    assert prompt_for(events, first)["options"] == ["check", "bet"]


# --- a hand checked down: the showdown, the winner, the odd chip ----------------------------


def _pot(events: list[Event]) -> dict[str, Any]:
    pot: dict[str, Any] = last(events, "hand_end")["pots"][0]
    assert pot["amount"] == 135
    return pot


SPLIT: dict[str, Any] = {"ante": 5, "chips": [1, 5, 25, 100]}


def test_13_the_lowest_razz_hand_wins_aces_low_and_a_flush_does_not_count() -> None:
    # Seat 1: 6-4-3-2-A, seat 3: 7-5-4-3-2 in hearts. With aces high seat 3 would win.
    seat_1 = ["Kd", "Qd", "Ac", "2c", "3d", "4s", "6s"]
    seat_3 = ["Th", "9c", "7h", "5h", "4h", "3h", "2h"]
    pot = _pot(checked_down(razz(**SPLIT), seat_1, seat_3))
    assert pot["winners"] == [1] and pot["hands"][1] == "six-four low"
    # Seat 3's seven-five in one suit against seat 1's seven-six: the flush plays as a low.
    seat_1 = ["Kd", "Qd", "7c", "6c", "4d", "3s", "2s"]
    pot = _pot(checked_down(razz(**SPLIT), seat_1, seat_3))
    assert pot["winners"] == [3] and pot["hands"][3] == "seven-five low"


def test_13_in_razz_a_pair_loses_to_any_unpaired_hand() -> None:
    seat_1 = ["Ad", "Kd", "Ac", "Kc", "Qd", "Qc", "Jh"]  # aces, kings and queens: a pair of aces
    seat_3 = ["Th", "9c", "8h", "7s", "5h", "Ts", "9h"]  # ten-nine low; high, two pair
    pot = _pot(checked_down(razz(**SPLIT), seat_1, seat_3))
    assert pot["winners"] == [3] and pot["hands"][3] == "ten-nine low"


TIED_1 = ["Kd", "Qh", "As", "2c", "3h", "4c", "6d"]
"""A-K-Q-6-4 high and 6-4-3-2-A low; its low's highest card is the six of diamonds."""
TIED_3 = ["Ks", "Qc", "Ah", "2d", "3s", "4d", "6h"]
"""The same ranks; its low's highest card is the six of hearts (its ace is below seat 1's)."""


def test_21_b_a_tied_razz_pot_gives_the_odd_chip_to_the_highest_card_aces_low() -> None:
    """135 in fives: 65 and 70. The six of hearts is the highest card of the two lows (with
    aces high it would be seat 1's ace of spades)."""
    pot = _pot(checked_down(razz(**SPLIT), TIED_1, TIED_3))
    assert pot["shares"] == {1: 65, 3: 70} and "21-B" in pot["rules"]


def test_21_b_a_tied_stud_8_low_gives_its_odd_chip_by_the_low_five_and_the_high_half_evenly() -> (
    None
):
    """Both halves tie: the high 70 splits 35 and 35; the low 65 splits 35 to seat 3, whose
    low holds the six of hearts, and 30 to seat 1."""
    pot = _pot(checked_down(hi_lo(**SPLIT), TIED_1, TIED_3))
    assert pot["shares"] == {1: 65, 3: 70}
    assert "21-B" in pot["rules"] and "21-C" in pot["rules"]
    assert pot["hands"][1] == "high card, ace; six-four low"


def test_21_c_stud_8_halves_the_pot_with_the_odd_chip_to_the_high_hand() -> None:
    seat_1 = ["Kd", "Kh", "Ks", "9c", "9d", "Jc", "Qh"]  # kings full of nines: the high
    seat_3 = ["Ah", "2d", "3s", "4d", "7h", "Tc", "Jd"]  # seven-four low
    pot = _pot(checked_down(hi_lo(**SPLIT), seat_1, seat_3))
    assert pot["shares"] == {1: 70, 3: 65} and "21-C" in pot["rules"]
    assert "21-A" not in pot["rules"] and "21-B" not in pot["rules"]  # no tie to break
    assert pot["hands"] == {1: "full house, kings full of nines", 3: "seven-four low"}


def test_21_stud_8_without_a_qualifying_low_the_high_hand_takes_the_whole_pot() -> None:
    seat_1 = ["Kd", "Kh", "Ks", "9c", "9d", "Jc", "Qh"]
    seat_3 = ["Ah", "2d", "3s", "4d", "9h", "Tc", "Jd"]  # nine-four: no low of eight or better
    pot = _pot(checked_down(hi_lo(**SPLIT), seat_1, seat_3))
    assert pot["shares"] == {1: 135} and "21-C" not in pot["rules"]


def test_21_stud_8_one_hand_with_the_best_high_and_low_scoops() -> None:
    seat_1 = ["Ah", "2d", "3s", "4d", "5h", "Tc", "Jd"]  # a wheel: five high, five-four low
    seat_3 = ["Kd", "Kh", "Qs", "9c", "8d", "Jc", "6h"]  # a pair of kings, no low
    pot = _pot(checked_down(hi_lo(**SPLIT), seat_1, seat_3))
    assert pot["shares"] == {1: 135} and pot["hands"][1] == "straight, five high; five-four low"


# --- 18-A: who shows first without a bet on seventh street -----------------------------------


@pytest.mark.parametrize(("game", "shows_first"), [("RAZZ", 3), ("7S8", 1), ("7S", 1)])
def test_18_a_razz_shows_the_lowest_board_first_stud_8_the_highest(
    game: str, shows_first: int
) -> None:
    seat_1 = ["Kd", "Jh", "Qh", "Qs", "9c", "9d", "Jc"]  # Q-Q-9-9 showing
    seat_3 = ["Th", "9h", "Ah", "2d", "3s", "4d", "7h"]  # A-2-3-4 showing
    events = checked_down(stud(game=game, **SPLIT), seat_1, seat_3)
    assert last(events, "showdown")["order"][0] == shows_first
