"""Chips a seat gains or loses between hands: rebuys and add-ons (2026 TDA rule 29) and the
color-up (26).

29: a player who announces a rebuy before a new hand plays that hand holding the chips, so the
table adds them before the deal (``add_chips``); the player is not a new one and is dealt in as
before. 26-C: after the chip race the leftover chips come off without compensation and the
table's denominations change (``color_up``); 26-A: nobody is raced out of the tournament. The
new smallest chip is the unit of the next pot's odd chips (21) and of amounts said without one
(59). Both go through the replay format, and the event log rebuilds the table.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

from protocol import decode_scenario
from server.engine import apply, new_table, rebuild
from server.replay import run_scenario
from tests.support import last, of_type, play
from tests.test_seed_common import Cmd, act, deal, run, table, to_flop

QUARTERS = [25, 100, 500, 1000]
HUNDREDS = [100, 500, 1000]
TIED = {"2": ["As", "Kd"], "3": ["Ac", "Kh"], "1": ["7h", "2d"]}
"""Seats 2 and 3 both make the ace-high straight on BOARD."""
BOARD = {"flop": ["Qs", "Jd", "Tc"], "turn": ["5h"], "river": ["8h"]}


def _config(stacks: dict[int, int] | None = None) -> dict[str, Any]:
    return table(stacks or {1: 10_000, 2: 10_000, 3: 10_000}, 3, (100, 200), chips=QUARTERS)


def add_chips(seat: int, chips: int, kind: str = "rebuy") -> Cmd:
    return {"type": "add_chips", "seat": seat, "chips": chips, "kind": kind}


def color_up(chips: list[int], removed: dict[int, int] | None = None) -> Cmd:
    return {
        "type": "color_up",
        "chips": chips,
        "removed": {str(n): c for n, c in (removed or {}).items()},
    }


def _refused(config: dict[str, Any], commands: list[Cmd]) -> dict[str, Any]:
    return last(play(config, commands), "error")


def _tie() -> list[Cmd]:
    """Button 3: seat 3 raises to 500, seat 1 folds its small blind, seat 2 calls; seats 2 and
    3 split a pot of 1,100 with equal straights."""
    commands: list[Cmd] = [
        {"type": "start_hand", "cards": TIED},
        act(3, "raise", 500),
        act(1, "fold"),
        act(2, "call"),
    ]
    for street, cards in BOARD.items():
        commands += [{**deal(street), "cards": cards}, act(2, "check"), act(3, "check")]
    return [*commands, {"type": "show", "seat": 2}, {"type": "show", "seat": 3}]


# --- 29: rebuys and add-ons -------------------------------------------------------------------


def test_29_a_rebuy_between_hands_plays_the_next_hand_with_the_chips() -> None:
    events = run(_config(), [add_chips(3, 5_000), {"type": "start_hand"}, act(3, "all_in")])
    added = last(events, "chips_added")
    assert (added["seat"], added["chips"], added["kind"]) == (3, 5_000, "rebuy")
    assert added["stack"] == 15_000 and added["rules"] == ["29"]
    assert added["text"] == "Seat 3: rebuy of 5,000; plays the next hand with 15,000 (29)"
    assert last(events, "action")["total"] == 15_000, "the hand is played with the rebuy"


def test_29_the_rebuying_player_is_not_a_new_player_and_does_not_wait() -> None:
    """The chips join the stack; the seat is no new seat (9, 11-A) and is dealt in as before."""
    config = _config({1: 10_000, 2: 10_000, 3: 10_000, 4: 10_000})
    first = [{"type": "start_hand"}, act(2, "fold"), act(3, "fold"), act(4, "fold")]
    events = run(config, [*first, add_chips(2, 5_000, "add_on"), {"type": "start_hand"}])
    assert last(events, "chips_added")["text"].startswith("Seat 2: add-on of 5,000")
    assert 2 in last(events, "hand_start")["dealt"]


def test_29_refused_while_a_hand_is_in_play() -> None:
    error = _refused(_config(), [{"type": "start_hand"}, add_chips(1, 5_000)])
    assert (error["code"], error["rule"]) == ("hand_in_play", "29")


def test_29_refused_for_an_empty_seat() -> None:
    assert _refused(_config(), [add_chips(5, 5_000)])["code"] == "unknown_seat"


def test_29_refused_for_no_chips_or_an_amount_the_chips_in_play_cannot_make() -> None:
    assert _refused(_config(), [add_chips(1, 0)])["code"] == "bad_chips"
    error = _refused(_config(), [add_chips(1, 5_010)])
    assert error["code"] == "bad_chips" and "smallest chip in play (25)" in error["message"]
    assert last(run(_config(), [add_chips(1, 5_025)]), "chips_added")["stack"] == 15_025


# --- 26: the color-up -------------------------------------------------------------------------


def test_26_c_leftover_chips_come_off_and_the_denominations_change() -> None:
    config = _config({1: 10_025, 2: 10_050, 3: 10_000})
    events = run(config, [color_up(HUNDREDS, {1: 25, 2: 50})])
    colored = last(events, "colored_up")
    assert colored["removed"] == {1: 25, 2: 50} and colored["chips"] == HUNDREDS
    assert colored["stacks"] == {1: 10_000, 2: 10_000, 3: 10_000}
    assert colored["rules"] == ["26-C"]
    assert colored["text"] == (
        "Color-up: chips in play 100, 500, 1,000; leftover chips removed, "
        "seat 1: 25; seat 2: 50 (26-C)"
    )


def test_26_c_refused_while_a_hand_is_in_play() -> None:
    error = _refused(_config(), [{"type": "start_hand"}, color_up(HUNDREDS)])
    assert error["code"] == "hand_in_play"


def test_26_c_refused_when_a_stack_is_not_a_whole_number_of_the_new_smallest_chip() -> None:
    config = _config({1: 10_025, 2: 10_000, 3: 10_000})
    error = _refused(config, [color_up(HUNDREDS)])
    assert error["code"] == "bad_chips" and "seat 1's 10,025" in error["message"]


def test_26_c_refused_when_more_comes_off_than_the_seat_holds_or_for_an_empty_seat() -> None:
    assert _refused(_config(), [color_up(HUNDREDS, {1: 10_100})])["code"] == "bad_chips"
    assert _refused(_config(), [color_up(HUNDREDS, {6: 25})])["code"] == "unknown_seat"


def test_26_refused_for_no_sorted_or_positive_denominations() -> None:
    for chips in ([], [500, 100], [100, 100, 500], [0, 100]):
        assert _refused(_config(), [color_up(chips)])["code"] == "bad_chips", chips


def test_26_a_nobody_is_raced_out_of_the_tournament() -> None:
    config = _config({1: 25, 2: 10_000, 3: 10_000})
    error = _refused(config, [color_up(HUNDREDS, {1: 25})])
    assert (error["code"], error["rule"]) == ("raced_out", "26-A")
    assert "26-A" in error["message"]


def test_21_after_a_color_up_the_odd_chip_is_the_new_smallest_chip() -> None:
    """A pot of 1,100 split two ways: in quarters 550 each; once the quarters are raced off, in
    hundreds, the odd 100 to the first winner left of the button (21-A)."""
    before = run(_config({1: 10_025, 2: 10_000, 3: 10_000}), _tie())
    assert last(before, "hand_end")["pots"][0]["shares"] == {2: 550, 3: 550}
    commands = [color_up(HUNDREDS, {1: 25}), *_tie()]
    after = run(_config({1: 10_025, 2: 10_000, 3: 10_000}), commands)
    assert last(after, "hand_end")["pots"][0]["shares"] == {2: 600, 3: 500}


def test_59_after_a_color_up_an_amount_below_the_smallest_chip_has_lost_its_unit() -> None:
    """'Bet 50' on a 600 pot: a real amount while quarters play (under the minimum, 54-A); once
    the smallest chip is 100 it is unclear and read as 500 (59)."""
    config = _config()
    before = run(config, [*to_flop(config), act(1, "bet", 50)])
    assert "59" not in last(before, "action")["rules"]
    after = run(config, [color_up(HUNDREDS), *to_flop(config), act(1, "bet", 50)])
    bet = last(after, "action")
    assert bet["total"] == 500 and "59" in bet["rules"]


def test_the_log_rebuilds_the_table_after_rebuys_and_a_color_up() -> None:
    config = _config({1: 10_025, 2: 10_000, 3: 10_000})
    commands = [add_chips(2, 5_000), color_up(HUNDREDS, {1: 25}), *_tie(), add_chips(3, 5_000)]
    scenario = decode_scenario(json.dumps({"config": config, "commands": commands}))
    state = new_table(scenario.config)
    log = []
    for command in scenario.commands:
        state, events = apply(state, command)
        log.extend(events)
    assert not [e for e in log if type(e).__name__ == "ErrorEvent"]
    assert state.chips == tuple(HUNDREDS)
    assert msgspec.to_builtins(rebuild(scenario.config, log)) == msgspec.to_builtins(state)
    assert run_scenario(scenario) == log
    assert of_type(play(config, commands), "chips_added")[-1]["stack"] == 15_000
