"""Odd chips (2026 TDA rule 21): first changed into the smallest chip in play, then given to the
first tied seat left of the button (21-A); in hi/lo the odd chip of the halving goes high (21-C).

The config's ``chips`` lists the table's denominations. A denomination is in play while the
table needs it: a stack, a bet of the hand, a blind or the ante is an odd number of the next
larger chip. Once nothing needs it, it has been raced off (colour-up, 26-A) and the next larger
chip is the smallest in play. No share is ever an amount the chips in play cannot pay.
"""

from __future__ import annotations

from typing import Any

from protocol import TableConfig
from server.engine import TableState, new_table, stud
from tests.support import last
from tests.test_seed_common import DEEP, Cmd, Event, act, deal, run, table

HUNDREDS = [100, 500, 1000]
TIED = {2: ["As", "Kd"], 3: ["Ac", "Kh"], 1: ["7h", "2d"]}
"""Seats 2 and 3 both make the ace-high straight on STRAIGHT_BOARD."""
STRAIGHT_BOARD = ["Qs", "Jd", "Tc", "5h", "8h"]


def _board(board: list[str], order: list[int]) -> list[Cmd]:
    commands: list[Cmd] = []
    for street, cards in (("flop", board[:3]), ("turn", board[3:4]), ("river", board[4:])):
        commands.append({**deal(street), "cards": cards})
        commands += [act(n, "check") for n in order]
    return commands


def _start(cards: dict[int, list[str]]) -> Cmd:
    return {"type": "start_hand", "cards": {str(n): c for n, c in cards.items()}}


def _shown(*seats: int) -> list[Cmd]:
    return [{"type": "show", "seat": n} for n in seats]


def button_3_tie(
    stacks: dict[int, int] | None = None, **config: Any
) -> tuple[dict[str, Any], list[Cmd]]:
    """Button 3, small blind 1, big blind 2 (100-200). Seat 3 raises to 500, seat 1 folds its
    100, seat 2 calls: a pot of 1,100 that seats 2 and 3 split with equal straights."""
    cfg = table(stacks or {1: DEEP, 2: DEEP, 3: DEEP}, button=3, blinds=(100, 200), **config)
    commands = [
        _start(TIED),
        act(3, "raise", 500),
        act(1, "fold"),
        act(2, "call"),
        *_board(STRAIGHT_BOARD, [2, 3]),
        *_shown(2, 3),
    ]
    return cfg, commands


def pot(events: list[Event], index: int = 0) -> Event:
    return next(p for p in last(events, "hand_end")["pots"] if p["pot"] == index)


# --- 21: the smallest chip in play ---------------------------------------------------------


def test_21_a_odd_chips_are_whole_units_of_the_smallest_chip_in_play() -> None:
    """21, 21-A: with 100 the smallest chip, 1,100 split two ways is 600 and 500 (never 550
    each, which no chip in play can pay); the odd 100 goes to seat 2, the first tied seat left
    of the button (seat 1, left of it, folded)."""
    cfg, commands = button_3_tie(chips=HUNDREDS)
    split = pot(run(cfg, commands))
    assert split["amount"] == 1100 and split["winners"] == [2, 3]
    assert split["shares"] == {2: 600, 3: 500} and "21-A" in split["rules"]


def test_21_a_a_pot_of_whole_shares_has_no_odd_chip() -> None:
    """21-A: heads-up (button 3 is the small blind), seat 3 raises to 500 and seat 2 calls:
    1,000 splits 500 and 500."""
    cfg = table({2: DEEP, 3: DEEP}, button=3, blinds=(100, 200), chips=HUNDREDS)
    commands = [
        _start({2: TIED[2], 3: TIED[3]}),
        act(3, "raise", 500),
        act(2, "call"),
        *_board(STRAIGHT_BOARD, [2, 3]),
        *_shown(2, 3),
    ]
    assert pot(run(cfg, commands))["shares"] == {2: 500, 3: 500}


def test_21_a_25_chip_that_nothing_needs_has_been_colored_up() -> None:
    """21, 26-A: the table's chips include the 25, but at 100-200 with every stack a number of
    100s nothing needs it: it has been raced off and 100 is the smallest chip in play."""
    cfg, commands = button_3_tie(chips=[25, 100, 500, 1000])
    assert pot(run(cfg, commands))["shares"] == {2: 600, 3: 500}


def test_21_a_25_chip_a_stack_needs_is_still_in_play() -> None:
    """21: the same hand with seat 1 holding 10,025: a 25 is on the table, so the odd 100 is
    changed into 25s and the pot splits 550 and 550."""
    stacks = {1: 10_025, 2: DEEP, 3: DEEP}
    cfg, commands = button_3_tie(stacks, chips=[25, 100, 500, 1000])
    assert pot(run(cfg, commands))["shares"] == {2: 550, 3: 550}


def test_21_a_25_chip_the_blinds_need_is_in_play() -> None:
    """21: at 50-100 the small blind is two 25s: the 25 is in play. Seat 3 raises to 250, seat
    1 folds its 50 and seat 2 calls: 550 splits 275 and 275."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=3, blinds=(50, 100), chips=[25, 100, 500])
    commands = [
        _start(TIED),
        act(3, "raise", 250),
        act(1, "fold"),
        act(2, "call"),
        *_board(STRAIGHT_BOARD, [2, 3]),
        *_shown(2, 3),
    ]
    assert pot(run(cfg, commands))["shares"] == {2: 275, 3: 275}


def test_21_a_two_odd_chips_go_to_the_first_two_tied_seats_left_of_the_button() -> None:
    """21-A: button 4; seats 1, 3 and 4 split 1,700 (seat 2 folded its big blind) with the
    board's royal flush: 17 hundreds are 6, 6 and 5 — the odd ones to seat 1 and seat 3, the
    first tied seats left of the button, and 500 to the button."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP, 4: DEEP}, button=4, blinds=(100, 200), chips=HUNDREDS)
    commands = [
        _start({1: ["2d", "3c"], 2: ["4h", "5d"], 3: ["6c", "7d"], 4: ["8c", "9d"]}),
        act(3, "raise", 500),
        act(4, "call"),
        act(1, "call"),
        act(2, "fold"),
        *_board(["Ts", "Js", "Qs", "Ks", "As"], [1, 3, 4]),
        *_shown(1, 3, 4),
    ]
    assert pot(run(cfg, commands))["shares"] == {1: 600, 3: 600, 4: 500}


def test_21_a_the_odd_chip_goes_left_of_the_button_not_to_the_lowest_seat() -> None:
    """21-A: button 1; seat 1 raises to 500, seat 2 folds its small blind, seat 3 calls and
    ties: the odd 100 goes to seat 3, the first tied seat left of the button."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=1, blinds=(100, 200), chips=HUNDREDS)
    commands = [
        _start({1: TIED[2], 3: TIED[3], 2: TIED[1]}),
        act(1, "raise", 500),
        act(2, "fold"),
        act(3, "call"),
        *_board(STRAIGHT_BOARD, [3, 1]),
        *_shown(3, 1),
    ]
    assert pot(run(cfg, commands))["shares"] == {1: 500, 3: 600}


def test_21_a_a_dealer_award_splits_in_units_of_the_smallest_chip_too() -> None:
    """21-A: no cards entered; the dealer awards the 1,100 pot to seats 2 and 3: 600 and 500."""
    cfg, commands = button_3_tie(chips=HUNDREDS)
    commands[0] = {"type": "start_hand"}
    events = run(cfg, [*commands, {"type": "award", "pot": 0, "winners": [3, 2]}])
    assert pot(events)["shares"] == {2: 600, 3: 500}
    assert last(events, "hand_end")["stacks"] == {1: DEEP - 100, 2: DEEP + 100, 3: DEEP}


# --- 21-C: hi/lo -----------------------------------------------------------------------------

HI_LO_BOARD = ["2c", "3d", "7h", "Kc", "Qd"]
KINGS = ["Ks", "Kh", "9s", "9h"]
"""A set of kings on HI_LO_BOARD, and no low."""
WHEEL_LOW = ["As", "4d", "Jc", "Th"]
SAME_LOW = ["Ah", "4c", "Js", "Tc"]
"""Both make 7-4-3-2-A low on HI_LO_BOARD."""


def test_21_c_the_odd_chip_of_the_halving_goes_high() -> None:
    """21-C: PLO8, 100 the smallest chip. 1,100 halves into 600 for the high hand (seat 2's
    kings) and 500 for the low (seat 3's 7-4-3-2-A)."""
    cfg, _ = button_3_tie(game="PLO8", chips=HUNDREDS)
    commands = [
        _start({1: ["8c", "8d", "5s", "5h"], 2: KINGS, 3: WHEEL_LOW}),
        act(3, "raise", 500),
        act(1, "fold"),
        act(2, "call"),
        *_board(HI_LO_BOARD, [2, 3]),
        *_shown(2, 3),
    ]
    halves = pot(run(cfg, commands))
    assert halves["shares"] == {2: 600, 3: 500} and "21-C" in halves["rules"]


def test_21_c_a_low_half_split_two_ways_gives_its_odd_chip_left_of_the_button() -> None:
    """21-C, 21-A: three limp for 600; seat 1's kings take the high 300, seats 2 and 3 tie for
    the low 300: three hundreds, two to seat 2 (first of them left of the button), one to 3."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=3, blinds=(100, 200), game="PLO8")
    cfg["chips"] = HUNDREDS
    commands = [
        _start({1: KINGS, 2: WHEEL_LOW, 3: SAME_LOW}),
        act(3, "call"),
        act(1, "call"),
        act(2, "check"),
        *_board(HI_LO_BOARD, [1, 2, 3]),
        *_shown(1, 2, 3),
    ]
    assert pot(run(cfg, commands))["shares"] == {1: 300, 2: 200, 3: 100}


def test_21_c_without_a_qualifying_low_the_high_hand_scoops_whole() -> None:
    """21-C: no low qualifies on a board with one card of eight or under: seat 2's kings full
    take all 1,100."""
    cfg, _ = button_3_tie(game="PLO8", chips=HUNDREDS)
    commands = [
        _start({1: ["8c", "8d", "5s", "5h"], 2: KINGS, 3: WHEEL_LOW}),
        act(3, "raise", 500),
        act(1, "fold"),
        act(2, "call"),
        *_board(["Tc", "Td", "Jh", "Kc", "5d"], [2, 3]),
        *_shown(2, 3),
    ]
    assert pot(run(cfg, commands))["shares"] == {2: 1100}


def _stud_hands(game: str, hands: dict[int, str]) -> TableState:
    """A stud table at its showdown, each seat's seven cards as written (three down, four up)."""
    config = TableConfig(
        game=game,  # type: ignore[arg-type]
        blinds=(0, 0),
        ante=5,
        min_bet=20,
        bring_in=5,
        seats=dict.fromkeys(hands, 1_000),
        button=1,
    )
    t = new_table(config)
    for s in t.seats:
        cards = hands[s.number].split()
        s.dealt, s.cards, s.up = True, tuple(cards[:3]), tuple(cards[3:])
    return t


def test_21_b_a_tied_hand_is_read_at_its_highest_card_the_flushes_by_their_own_suit() -> None:
    """21-B, both sides of the line. Razz, both 7-4-3-2-A: seat 1 holds the seven of clubs and
    of spades, so its five holds the seven of spades, over seat 2's seven of hearts, whatever
    order the cards came in. Stud, two ace-high flushes of the same ranks: seat 2's diamonds
    are read in diamonds though it also holds the ace of spades; seat 1's hearts win."""
    razz = _stud_hands("RAZZ", {1: "7c Ah 2h 3h 4h Kd 7s", 2: "7h Ad 2d 3d 4d Qs Qc"})
    assert stud.odd_chip_order(razz, [2, 1]) == [1, 2]
    razz = _stud_hands("RAZZ", {1: "7s Ah 2h 3h 4h Kd 7c", 2: "7h Ad 2d 3d 4d Qs Qc"})
    assert stud.odd_chip_order(razz, [2, 1]) == [1, 2]
    flushes = _stud_hands("7S", {1: "Ah Kh 9h 7h 5h 2c 3c", 2: "Ad Kd 9d 7d 5d As 2s"})
    assert stud.odd_chip_order(flushes, [2, 1]) == [1, 2]
