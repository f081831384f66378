"""The draw games' showdown (2026 TDA 13, 18-A, 21-A), through the replay format.

Who shows first (18-A): the last to bet or raise in the last betting round, else the first
live seat left of the button. Who wins (13): in 2-7 (``27TD``, ``27SD``) the lowest five, the
ace high (A-2-3-4-5 is ace-five, not a straight), straights and flushes counting against the
hand, pairs too; 7-5-4-3-2 is the best. In badugi the most cards of different ranks and suits
(a four-card badugi beats any three-card hand), then the lowest, aces low. ``award.hands``
names the winning hands. An odd chip of a split pot goes to the first winner left of the
button (21-A). Each line is tested from both sides.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import last
from tests.test_rule_rp_25_draw import checks, draw, start, table
from tests.test_seed_common import Cmd, Event, act, positions, run


def checked_down(config: dict[str, Any], hands: dict[int, str]) -> list[Cmd]:
    """Every seat dealt ``hands`` (entered), in for the big blind, pat on every draw and checking
    every round: the commands to the showdown, every hand then tabled in the showdown's order."""
    _, bb, pre, post = positions(config)
    commands: list[Cmd] = [start(hands), *(act(n, "check" if n == bb else "call") for n in pre)]
    draws = 1 if config["game"] == "27SD" else 3
    for _ in range(draws):
        commands += [*(draw(n) for n in post), *checks(*post)]
    order = last(run(config, commands), "showdown")["order"]
    return [*commands, *({"type": "show", "seat": n} for n in order)]


def heads_up(game: str, seat_1: str, seat_2: str) -> Event:
    """Seats 1 (the button, the small blind) and 2 hold ``seat_1`` and ``seat_2``, checked down
    and tabled: the pot (100)."""
    assert not set(seat_1.split()) & set(seat_2.split()), "every card once"
    config = table(game, {1: 1_000, 2: 1_000})
    end = last(run(config, checked_down(config, {1: seat_1, 2: seat_2})), "hand_end")
    pot: Event = end["pots"][0]
    return pot


# --- 13: 2-7, the lowest five, the ace high, straights and flushes against ------------------


@pytest.mark.parametrize(
    ("winner", "loser", "name"),
    [
        ("7c 5d 4h 3s 2c", "7d 6h 4c 3d 2h", "seven-five low"),  # the best against the next
        ("8c 6d 4h 3s 2c", "8d 6h 5c 3d 2h", "eight-six low"),  # the third card decides
        ("8c 6d 4h 3s 2c", "8d 6h 4c 3d 3h", "eight-six low"),  # a pair of threes loses
        ("Kc Qd Jh Ts 8c", "Ac 5d 4h 3s 2d", "king-queen low"),  # A-5-4-3-2: ace high
        ("Ac 5d 4h 3s 2d", "Kc Kd 4c 3d 2h", "ace-five low"),  # ... no pair: beats a pair
        ("Ac Kd Qh Js 9c", "2c 2d 3h 4s 5c", "ace-king low"),  # any pair loses to high card
        ("8c 7d 6h 5s 3c", "6c 5d 4h 3s 2d", "eight-seven low"),  # 6-5-4-3-2 is a straight
        ("Kc Kd 4c 3d 2d", "7h 5h 4h 3h 2h", "pair of kings"),  # a flush loses to a pair
        ("6c 5d 4s 3s 2d", "9h 7h 5h 4h 3h", "straight, six high"),  # ... and to a straight
        ("Tc 9d 8h 7s 6c", "Ac Kd Qh Js Td", "straight, ten high"),  # the higher straight
        ("2c 2d 3h 4s 5c", "3c 3d 2h 4d 5d", "pair of deuces"),  # the lower pair
        ("7c 7d 4h 4s 2c", "7h 7s 5c 5d 2h", "two pair, sevens and fours"),
    ],
)
@pytest.mark.parametrize("game", ["27TD", "27SD"])
def test_13_2_7_the_lowest_hand_wins(game: str, winner: str, loser: str, name: str) -> None:
    for seat_1, seat_2, won in ((winner, loser, 1), (loser, winner, 2)):
        pot = heads_up(game, seat_1, seat_2)
        assert (pot["winners"], pot["hands"], pot["shares"]) == ([won], {won: name}, {won: 100})


def test_13_2_7_equal_lows_split_the_pot_whatever_their_suits() -> None:
    pot = heads_up("27TD", "7c 5d 4h 3s 2c", "7d 5h 4c 3d 2h")
    assert pot["winners"] == [1, 2] and pot["shares"] == {1: 50, 2: 50}
    assert pot["hands"] == {1: "seven-five low", 2: "seven-five low"}


# --- 13: badugi --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "loser", "name"),
    [
        ("Kc Qd Jh Ts", "Ac 2d 3h 3s", "badugi, king high"),  # four cards beat any three
        ("Ac 2d 3h 4s", "Ad 2c 3s 5h", "badugi, four high"),  # then the lowest
        ("Ac 2d 3h 4s", "2c 3d 4h 5s", "badugi, four high"),  # aces low
        ("8c 6d 4h 2s", "8d 6s 5c 2h", "badugi, eight high"),  # the third card decides
        ("7d 6s 5c 2h", "8c 6d 5h 2s", "badugi, seven high"),  # the highest card first
        ("Ac 2c 3d 4h", "2s 3s 5d 6h", "three cards, four high"),  # A-3-4 against 2-5-6
        ("Kc Qd Jh Jc", "Ac Ad 2d 2c", "three cards, king high"),  # three cards beat two
    ],
)
def test_13_badugi_the_most_cards_then_the_lowest(winner: str, loser: str, name: str) -> None:
    for seat_1, seat_2, won in ((winner, loser, 1), (loser, winner, 2)):
        pot = heads_up("BADUGI", seat_1, seat_2)
        assert (pot["winners"], pot["hands"]) == ([won], {won: name})


def test_13_badugi_equal_hands_split() -> None:
    pot = heads_up("BADUGI", "Ac 2d 3h 4s", "Ad 2c 3s 4h")
    assert pot["winners"] == [1, 2] and pot["hands"] == {
        1: "badugi, four high",
        2: "badugi, four high",
    }


# --- 18-A: who shows first ------------------------------------------------------------------


CALLS = [act(2, "call"), act(3, "call")]
THREE_HANDS = {1: "7c 5d 4h 3s 2c", 2: "8c 6d 4c 3d 2h", 3: "9c 6h 5c 4s 3h"}


def _to_last_round(game: str = "27TD") -> list[Cmd]:
    """Three-handed, button on seat 1, limped, pat and checked to the last betting round; a
    bet by seat 3 (called) in the round before it."""
    commands: list[Cmd] = [start(THREE_HANDS), act(1, "call"), act(2, "call"), act(3, "check")]
    if game == "27SD":
        return [*commands, draw(2), draw(3), draw(1)]
    commands += [draw(2), draw(3), draw(1), *checks(2, 3, 1)]
    commands += [draw(2), draw(3), draw(1), act(2, "check"), act(3, "bet"), act(1, "call")]
    return [*commands, act(2, "call"), draw(2), draw(3), draw(1)]


@pytest.mark.parametrize("game", ["27TD", "27SD"])
def test_18_a_with_no_bet_in_the_last_round_the_first_live_seat_left_of_the_button_shows(
    game: str,
) -> None:
    events = run(table(game), [*_to_last_round(game), *checks(2, 3, 1)])
    assert last(events, "showdown")["order"][0] == 2
    assert "18" in last(events, "showdown")["rules"]


@pytest.mark.parametrize("game", ["27TD", "27SD"])
@pytest.mark.parametrize(
    ("last_round", "first"),
    [
        ([act(2, "check"), act(3, "bet", 100), act(1, "call"), act(2, "call")], 3),
        ([act(2, "bet", 100), act(3, "call"), act(1, "call")], 2),
        ([act(2, "bet", 100), act(3, "call"), act(1, "raise", 200), *CALLS], 1),
        ([act(2, "check"), act(3, "check"), act(1, "bet", 100), *CALLS], 1),
    ],
)
def test_18_a_the_last_aggressor_of_the_last_round_shows_first(
    game: str, last_round: list[Cmd], first: int
) -> None:
    events = run(table(game), [*_to_last_round(game), *last_round])
    assert last(events, "showdown")["order"][0] == first


def test_18_a_with_the_first_seat_folded_the_next_live_seat_left_of_the_button_shows() -> None:
    folded = [start(THREE_HANDS), act(1, "call"), act(2, "fold"), act(3, "check")]
    folded += [draw(3), draw(1), *checks(3, 1)] * 3
    assert last(run(table(), folded), "showdown")["order"] == [3, 1]


def test_award_hands_names_every_winner_and_no_loser() -> None:
    events = run(table(), checked_down(table(), THREE_HANDS))
    pot = last(events, "hand_end")["pots"][0]
    assert pot["winners"] == [1] and pot["hands"] == {1: "seven-five low"}


# --- 21-A: the odd chip to the first winner left of the button ----------------------------


TIED = {1: "7c 5d 4h 3s 2c", 3: "7d 5h 4c 3d 2h", 4: "7h 5s 4s 3c 2d"}
BEATEN = {1: "Kc Kd Qh Js 9c", 3: "Ks Kh Qs Jc 9d", 4: "Qc Qd Jd Th 9h"}


@pytest.mark.parametrize(
    ("tied", "odd"),
    [((1, 4), 4), ((1, 3), 3), ((3, 4), 3), ((1, 3, 4), 3)],
)
@pytest.mark.parametrize("game", ["27TD", "27SD"])
def test_21_a_a_split_pot_s_odd_chip_goes_to_the_first_winner_left_of_the_button(
    game: str, tied: tuple[int, ...], odd: int
) -> None:
    """Four seated, button on seat 1, blinds 5-10 in chips of 5: seat 2 folds its small blind,
    the others are in for 10: a pot of 35, seven chips, never split evenly."""
    config = table(game, {n: 1_000 for n in range(1, 5)}, blinds=(5, 10), chips=[5])
    hands = {n: TIED[n] if n in tied else BEATEN[n] for n in (1, 3, 4)}
    commands: list[Cmd] = [start(hands), act(4, "call"), act(1, "call"), act(2, "fold")]
    commands.append(act(3, "check"))
    for _ in range(1 if game == "27SD" else 3):
        commands += [draw(3), draw(4), draw(1), *checks(3, 4, 1)]
    order = last(run(config, commands), "showdown")["order"]
    assert order == [3, 4, 1]
    events = run(config, [*commands, *({"type": "show", "seat": n} for n in order)])
    pot = last(events, "hand_end")["pots"][0]
    assert pot["amount"] == 35 and pot["winners"] == sorted(tied)
    share = 35 // 5 // len(tied) * 5
    assert pot["shares"] == {n: share + (5 if n == odd else 0) for n in tied}
