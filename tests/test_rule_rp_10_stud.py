"""Seven-card stud (2026 TDA RP-10, 18-A, 21-B): the bring-in, who acts first by the cards
showing, the limits of each street, the showdown order and the odd chip, through the replay
format. Each rule is tested on both sides of the line it draws.

The table: antes 10, bring-in 20, small bet 50 (big bet 100 from fifth street); the dealer
enters each seat's up-card (``start_hand.up``, ``deal.up``) and may enter the down-cards.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from protocol import ProtocolError, decode_scenario
from server.views import public_events
from tests.support import last, of_type, play
from tests.test_seed_common import Cmd, Event, act, action_of, prompt_for, run


def stud(stacks: dict[int, int] | None = None, **extra: Any) -> dict[str, Any]:
    seats = stacks or {1: 1_000, 2: 1_000, 3: 1_000}
    return {
        "game": "7S",
        "blinds": [0, 0],
        "ante": 10,
        "bring_in": 20,
        "min_bet": 50,
        "button": 1,
        "seats": {str(n): s for n, s in seats.items()},
        **extra,
    }


def start(up: dict[int, str], down: dict[int, list[str]] | None = None) -> Cmd:
    command: Cmd = {"type": "start_hand", "up": {str(n): [c] for n, c in up.items()}}
    if down:
        command["cards"] = {str(n): c for n, c in down.items()}
    return command


def street(name: str, up: dict[int, str] | None = None, down: dict[int, str] | None = None) -> Cmd:
    command: Cmd = {"type": "deal", "street": name}
    if up:
        command["up"] = {str(n): [c] for n, c in up.items()}
    if down:
        command["down"] = {str(n): [c] for n, c in down.items()}
    return command


def error(events: list[Event]) -> Event:
    return last(events, "error")


THIRD = {1: "Kd", 2: "2c", 3: "9h"}
"""Seat 2's deuce of clubs is the lowest up-card: seat 2 brings it in."""
THIRD_CALLED = [start(THIRD), act(2, "bring_in"), act(3, "call"), act(1, "call")]
"""Third street brought in for 20 and called around: 90 in the pot."""


# --- RP-10: the bring-in -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("up", "brings_in"),
    [
        ({1: "Kd", 2: "2c", 3: "9h"}, 2),
        ({1: "2d", 2: "2c", 3: "9h"}, 2),  # two deuces: clubs is the lowest suit
        ({1: "2d", 2: "2h", 3: "9h"}, 1),  # diamonds below hearts
        ({1: "As", 2: "Kc", 3: "Ks"}, 2),  # ace is high: the king of clubs is lowest
    ],
)
def test_rp_10_the_lowest_up_card_by_rank_then_suit_brings_it_in(
    up: dict[int, str], brings_in: int
) -> None:
    events = run(stud(), [start(up)])
    prompt = prompt_for(events, brings_in)
    assert prompt["options"] == ["bring_in", "complete"]
    assert prompt["bring_in"] == 20 and prompt["min_raise_to"] == prompt["max_raise_to"] == 50
    assert "RP-10" in prompt["text"]
    assert f"seat {brings_in} has the lowest up-card" in last(events, "hand_start")["text"]


def test_rp_10_every_seat_antes_and_shows_its_up_card() -> None:
    start_event = last(run(stud(), [start(THIRD)]), "hand_start")
    assert [(p["seat"], p["kind"], p["amount"]) for p in start_event["posts"]] == [
        (1, "ante", 10),
        (2, "ante", 10),
        (3, "ante", 10),
    ]
    assert start_event["up"] == {1: ["Kd"], 2: ["2c"], 3: ["9h"]}
    assert start_event["bring_in"] == 20 and start_event["big_blind"] == 0


def test_rp_10_the_bring_in_is_not_a_full_bet_the_next_seat_calls_it_or_completes() -> None:
    events = run(stud(), [start(THIRD), act(2, "bring_in")])
    brought = action_of(events, 2)
    assert (brought["action"], brought["total"], brought["rules"]) == ("bring_in", 20, ["RP-10"])
    assert "bring-in 20" in brought["text"]
    prompt = prompt_for(events, 3)
    assert prompt["options"] == ["fold", "call", "raise"]
    assert prompt["to_call"] == 20 and prompt["min_raise_to"] == 50 == prompt["max_raise_to"]


def test_rp_10_the_bring_in_may_complete_to_the_small_bet_which_is_a_full_bet() -> None:
    events = run(stud(), [start(THIRD), act(2, "complete")])
    completed = action_of(events, 2)
    assert completed["total"] == 50 and completed["action"] in ("bet", "raise")
    prompt = prompt_for(events, 3)
    assert prompt["to_call"] == 50 and prompt["min_raise_to"] == 100


def test_rp_10_a_seat_raising_the_bring_in_raises_to_the_completion() -> None:
    events = run(stud(), [start(THIRD), act(2, "bring_in"), act(3, "raise", 50)])
    assert action_of(events, 3)["total"] == 50
    assert prompt_for(events, 1)["min_raise_to"] == 100


@pytest.mark.parametrize("declare", ["check", "call", "fold"])
def test_rp_10_the_seat_bringing_it_in_cannot_check_call_or_fold(declare: str) -> None:
    events = play(stud(), [start(THIRD), act(2, declare)])
    refused = error(events)
    assert refused["rule"] == "RP-10"
    assert prompt_for(events[:-1], 2)["options"] == ["bring_in", "complete"]


def test_rp_10_an_amount_between_the_bring_in_and_the_completion_is_refused() -> None:
    refused = error(play(stud(), [start(THIRD), act(2, amount=30)]))
    assert refused["rule"] == "RP-10" and "not 30" in refused["message"]
    brought = action_of(run(stud(), [start(THIRD), act(2, amount=20)]), 2)
    assert brought["action"] == "bring_in"


def test_rp_10_the_bring_in_is_owed_only_on_third_street() -> None:
    commands = [*THIRD_CALLED, street("fourth", {1: "Kh", 2: "3c", 3: "9s"})]
    assert error(play(stud(), [*commands, act(1, "bring_in")]))["rule"] == "RP-10"
    assert prompt_for(run(stud(), commands), 1)["options"] == ["check", "bet"]


def test_rp_10_a_short_stack_brings_it_in_all_in_for_what_it_has() -> None:
    events = run(stud({1: 1_000, 2: 25, 3: 1_000}), [start(THIRD)])
    prompt = prompt_for(events, 2)
    assert prompt["bring_in"] == 15 and prompt["options"] == ["bring_in"]
    brought = action_of(
        run(stud({1: 1_000, 2: 25, 3: 1_000}), [start(THIRD), act(2, "bring_in")]), 2
    )
    assert (brought["action"], brought["total"], brought["all_in"]) == ("bring_in", 15, True)


# --- RP-10-E: the lowest card all-in on its ante --------------------------------------------


ALL_IN_ON_ANTE = {1: 1_000, 2: 10, 3: 1_000, 4: 1_000}
UP_4 = {1: "Kd", 2: "2c", 3: "9h", 4: "Qs"}


def test_rp_10_e_the_seat_left_of_a_bring_in_all_in_on_its_ante_acts_first_and_may_fold() -> None:
    events = run(stud(ALL_IN_ON_ANTE), [start(UP_4)])
    prompt = prompt_for(events, 3)
    assert prompt["options"] == ["fold", "bring_in", "complete"]
    folded = action_of(run(stud(ALL_IN_ON_ANTE), [start(UP_4), act(3, "fold")]), 3)
    assert folded["action"] == "fold" and folded["rules"] == ["RP-10-E"]


def test_rp_10_e_after_that_fold_the_next_seat_still_owes_at_least_the_bring_in() -> None:
    events = run(stud(ALL_IN_ON_ANTE), [start(UP_4), act(3, "fold")])
    assert prompt_for(events, 4)["options"] == ["fold", "bring_in", "complete"]
    assert error(play(stud(ALL_IN_ON_ANTE), [start(UP_4), act(3, "check")]))["rule"] == "RP-10"


def test_rp_10_e_once_it_is_brought_in_the_others_call_or_complete_as_usual() -> None:
    events = run(stud(ALL_IN_ON_ANTE), [start(UP_4), act(3, "bring_in")])
    assert prompt_for(events, 4)["options"] == ["fold", "call", "raise"]


# --- RP-10-D: the best board acts first from fourth street ----------------------------------


@pytest.mark.parametrize(
    ("fourth", "first"),
    [
        ({1: "Kh", 2: "3c", 3: "9s"}, 1),  # a pair of kings beats a pair of nines
        ({1: "5c", 2: "3c", 3: "9s"}, 3),  # a pair of nines beats king-five
        ({1: "Ad", 2: "3c", 3: "As"}, 1),  # ace-king beats ace-nine
        ({1: "Qc", 2: "Kc", 3: "Ks"}, 1),  # king-queen beats king-nine and king-deuce
    ],
)
def test_rp_10_d_the_best_hand_showing_acts_first(fourth: dict[int, str], first: int) -> None:
    events = run(stud(), [*THIRD_CALLED, street("fourth", fourth)])
    assert prompt_for(events, first)["options"] == ["check", "bet"]


@pytest.mark.parametrize(
    ("third", "fourth", "first"),
    [
        ({1: "Ks", 2: "2c", 3: "Kd"}, {1: "5c", 2: "3c", 3: "5h"}, 1),  # king of spades
        ({1: "Kd", 2: "2c", 3: "Ks"}, {1: "5h", 2: "3c", 3: "5c"}, 3),
    ],
)
def test_rp_10_d_equal_boards_the_highest_card_by_suit_acts_first(
    third: dict[int, str], fourth: dict[int, str], first: int
) -> None:
    commands = [start(third), act(2, "bring_in"), act(3, "call"), act(1, "call")]
    events = run(stud(), [*commands, street("fourth", fourth)])
    assert prompt_for(events, first)["options"] == ["check", "bet"]


def test_rp_10_d_every_live_hand_needs_its_up_card_before_the_action() -> None:
    refused = error(play(stud(), [*THIRD_CALLED, street("fourth", {1: "Kh", 3: "9s"})]))
    assert refused["code"] == "up_cards_needed" and "seat 2" in refused["message"]


def test_rp_10_every_seat_dealt_in_needs_its_up_card_for_the_bring_in() -> None:
    refused = error(play(stud(), [{"type": "start_hand", "up": {"1": ["Kd"], "2": ["2c"]}}]))
    assert refused["code"] == "up_cards_needed" and "seat 3" in refused["message"]


def test_rp_10_d_an_all_in_best_board_the_seat_left_of_it_acts_first() -> None:
    """As for a bring-in all-in on its ante (RP-10-E), the action starts left of it."""
    stacks = {1: 60, 2: 1_000, 3: 1_000}
    commands = [start(THIRD), act(2, "bring_in"), act(3, "raise", 50), act(1, "call")]
    events = run(stud(stacks), [*commands, act(2, "call"), street("fourth", THIRD_FOURTH)])
    assert action_of(events, 1)["all_in"] is True  # seat 1 shows Kd Kh, seat 3 9h 9s
    assert prompt_for(events, 2)["options"] == ["check", "bet"]


THIRD_FOURTH = {1: "Kh", 2: "3c", 3: "9s"}


# --- RP-10-C: a hand no longer live gets no card ---------------------------------------------


def test_rp_10_c_a_folded_hand_is_dealt_no_fourth_street_card() -> None:
    commands = [start(THIRD), act(2, "bring_in"), act(3, "fold"), act(1, "call")]
    refused = error(play(stud(), [*commands, street("fourth", THIRD_FOURTH)]))
    assert refused["rule"] == "RP-10-C" and "seat 3" in refused["message"]
    dealt = last(run(stud(), [*commands, street("fourth", {1: "Kh", 2: "3c"})]), "dealt")
    assert dealt["up"] == {1: ["Kh"], 2: ["3c"]}


# --- RP-10-F and 50: the limits of each street ---------------------------------------------


def _to_fourth(fourth: dict[int, str]) -> list[Cmd]:
    return [*THIRD_CALLED, street("fourth", fourth)]


def test_rp_10_f_an_open_pair_on_fourth_street_does_not_double_the_bet() -> None:
    events = run(stud(), _to_fourth(THIRD_FOURTH))  # seat 1 shows Kd Kh
    prompt = prompt_for(events, 1)
    assert prompt["min_raise_to"] == prompt["max_raise_to"] == 50


def test_rp_10_f_the_big_bet_starts_on_fifth_street() -> None:
    commands = [*_to_fourth(THIRD_FOURTH), *(act(n, "check") for n in (1, 2, 3))]
    events = run(stud(), [*commands, street("fifth", {1: "2d", 2: "4c", 3: "4s"})])
    prompt = prompt_for(events, 1)
    assert prompt["min_raise_to"] == prompt["max_raise_to"] == 100


# --- a hand played out: showdown order (18-A) and the display -------------------------------


def _played_to_seventh(bet_on_seventh: bool) -> list[Cmd]:
    commands = [
        *_to_fourth(THIRD_FOURTH),
        act(1, "bet", 50),
        act(2, "fold"),
        act(3, "call"),
        street("fifth", {1: "2d", 3: "4s"}),
        act(1, "check"),
        act(3, "check"),
        street("sixth", {1: "5d", 3: "6s"}),
        act(1, "check"),
        act(3, "check"),
        street("seventh", down={1: "Ac", 3: "Ah"}),
    ]
    if bet_on_seventh:
        return [*commands, act(1, "check"), act(3, "bet", 100), act(1, "call")]
    return [*commands, act(1, "check"), act(3, "check")]


DOWN = {1: ["Qs", "Js"], 2: ["8c", "7d"], 3: ["Qh", "Jh"]}


def test_18_a_with_no_bet_on_seventh_street_the_best_board_shows_first() -> None:
    played = [start(THIRD, DOWN), *_played_to_seventh(False)[1:]]
    showdown = last(run(stud(), played), "showdown")
    assert showdown["order"][0] == 1  # a pair of kings showing against a pair of nines


def test_18_a_after_a_bet_on_seventh_street_the_last_aggressor_shows_first() -> None:
    played = [start(THIRD, DOWN), *_played_to_seventh(True)[1:]]
    showdown = last(run(stud(), played), "showdown")
    assert showdown["order"][0] == 3


def test_14_a_a_stud_hand_is_tabled_with_all_seven_cards_and_read() -> None:
    played = [start(THIRD, DOWN), *_played_to_seventh(False)[1:]]
    events = run(stud(), [*played, {"type": "show", "seat": 1}, {"type": "show", "seat": 3}])
    end = last(events, "hand_end")
    assert end["pots"][0]["winners"] == [1] and end["pots"][0]["hands"][1] == "pair of kings"
    assert end["stacks"] == {1: 1_000 - 80 + 190, 2: 1_000 - 30, 3: 1_000 - 80}


def test_the_display_sees_every_up_card_and_no_down_card_before_the_showdown() -> None:
    played = [start(THIRD, DOWN), *_played_to_seventh(False)[1:]]
    events = run(stud(), played)
    sent = msgspec.json.encode(
        public_events([msgspec.json.encode(e) for e in _typed(stud(), played)])
    )
    for card in ("Kd", "2c", "9h", "Kh", "9s", "2d", "4s", "5d", "6s"):
        assert f'"{card}"'.encode() in sent
    for card in ("Qs", "Js", "8c", "7d", "Qh", "Jh", "Ac", "Ah"):
        assert f'"{card}"'.encode() not in sent, card
    assert of_type(events, "dealt")[-1]["down"] == {1: ["Ac"], 3: ["Ah"]}


def _typed(config: dict[str, Any], commands: list[Cmd]) -> list[Any]:
    from server.replay import run_scenario

    scenario = decode_scenario(msgspec.json.encode({"config": config, "commands": commands}))
    return list(run_scenario(scenario))


# --- 21-B: the odd chip by the highest card with suits --------------------------------------


def test_21_b_a_split_stud_pot_gives_the_odd_chip_to_the_highest_card_by_suit() -> None:
    config = stud({1: 1_000, 2: 1_000, 3: 1_000}, ante=5, chips=[1, 5, 25, 100])
    seat_1 = ["Ad", "Kc", "Qh", "Jc", "Tc", "4h", "6c"]  # ace of diamonds
    seat_3 = ["As", "Kd", "Qd", "Jd", "Th", "4s", "6d"]  # ace of spades: the odd chip
    assert _odd_chip(config, seat_1, seat_3) == 3
    assert _odd_chip(config, seat_3, seat_1) == 1


def checked_down(config: dict[str, Any], seat_1: list[str], seat_3: list[str]) -> list[Event]:
    """Seats 1 and 3 hold seven cards each (two down, four up, one down); seat 2, given the
    up-card that brings it in (razz: a king; stud: a deuce), folds to the completion; every
    later street is checked and both hands are tabled. Antes 5 with a 1 chip: 135 in the pot."""
    used = {*seat_1, *seat_3}
    kings, deuces = ("Ks", "Kh", "Kd", "Kc"), ("2c", "2d", "2h", "2s")
    up = next(c for c in (kings if config["game"] == "RAZZ" else deuces) if c not in used)
    down = [c for c in ("8h", "7h", "8c", "7c", "8s", "7s") if c not in used][:2]
    commands: list[Cmd] = [
        start({1: seat_1[2], 2: up, 3: seat_3[2]}, {1: seat_1[:2], 2: down, 3: seat_3[:2]}),
        act(2, "bring_in"),
        act(3, "complete"),
        act(1, "call"),
        act(2, "fold"),
    ]
    for name, index in (("fourth", 3), ("fifth", 4), ("sixth", 5)):
        commands.append(street(name, {1: seat_1[index], 3: seat_3[index]}))
        first = last(run(config, commands), "prompt")["seat"]
        commands += [act(first, "check"), act(4 - first, "check")]
    commands.append(street("seventh", down={1: seat_1[6], 3: seat_3[6]}))
    first = last(run(config, commands), "prompt")["seat"]
    commands += [act(first, "check"), act(4 - first, "check")]
    commands += [{"type": "show", "seat": 1}, {"type": "show", "seat": 3}]
    return run(config, commands)


def _odd_chip(config: dict[str, Any], seat_1: list[str], seat_3: list[str]) -> int:
    shares = last(checked_down(config, seat_1, seat_3), "hand_end")["pots"][0]["shares"]
    # 15 in antes, the bring-in's 20 and 50 from each: 135 split in fives (21-A), 65 and 70
    assert sorted(shares.values()) == [65, 70]
    return max(shares, key=lambda n: shares[n])


# --- the configuration ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "field"),
    [
        ({"bring_in": 0}, "$.bring_in"),  # stud needs its bring-in
        ({"bring_in": 60}, "$.bring_in"),  # more than the small bet
        ({"blinds": [10, 20]}, "$.bring_in"),  # stud has no blinds
        ({"game": "NLHE", "blinds": [10, 20], "min_bet": 0}, "$.bring_in"),
    ],
)
def test_rp_10_a_table_that_cannot_deal_stud_is_refused_naming_the_field(
    config: dict[str, Any], field: str
) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode_scenario(msgspec.json.encode({"config": stud(**config), "commands": []}))
    assert f"`{field}`" in str(refused.value)


def test_rp_10_a_stud_level_keeps_a_bring_in() -> None:
    level = {"type": "level", "blinds": [0, 0], "ante": 25, "min_bet": 100}
    assert error(play(stud(), [level]))["rule"] == "RP-10"
    events = run(stud(), [{**level, "bring_in": 25}, start(THIRD)])
    assert prompt_for(events, 2)["bring_in"] == 25
