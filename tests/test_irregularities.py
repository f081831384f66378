"""Irregularities recorded from the dealer's side (issue 3, acceptance 2), for the cases the
seed examples do not cover: the button short a card (39), cards dealt too early (RP-5),
irregular flops (41), non-standard folds and conditional statements (60, 61), the clock (31),
penalties (74, RP-26), corrections and information requests (RP-24). Each checks the events,
the state and that chips are conserved.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from protocol import decode_scenario
from server.engine import apply, new_table, rebuild
from server.replay import run_scenario
from tests.support import last, of_type, play

DEEP = 10_000
SIX = {
    "game": "NLHE",
    "blinds": [50, 100],
    "button": 6,
    "chips": [25, 100, 500, 1000],
    "seats": {str(n): DEEP for n in range(1, 7)},
}
PREFLOP_CALLED = [
    {"type": "start_hand"},
    *({"type": "act", "seat": n, "declare": "call"} for n in (3, 4, 5, 6, 1)),
    {"type": "act", "seat": 2, "declare": "check"},
]


def conserved(events: list[dict[str, Any]], config: dict[str, Any] = SIX) -> None:
    end = last(events, "hand_end")
    removed = sum(e.get("removed", 0) for e in of_type(events, "penalty"))
    assert sum(end["stacks"].values()) + removed == sum(config["seats"].values())


def fold_out(seats: list[int]) -> list[dict[str, Any]]:
    return [{"type": "act", "seat": n, "declare": "fold"} for n in seats]


def test_39_button_short_a_card_gets_it_before_acting() -> None:
    events = play(
        SIX, [{"type": "start_hand"}, {"type": "irregularity", "kind": "short_card", "seat": 6}]
    )
    note = last(events, "irregularity")
    assert note["kind"] == "short_card" and note["rules"] == ["39"]
    assert last(events, "prompt")["seat"] == 3  # nothing else changed


def test_39_button_that_acted_a_card_short_has_a_dead_hand() -> None:
    commands = [
        {"type": "start_hand"},
        {"type": "act", "seat": 3, "declare": "call"},
        {"type": "act", "seat": 4, "declare": "call"},
        {"type": "act", "seat": 5, "declare": "call"},
        {"type": "act", "seat": 6, "declare": "call"},
        {"type": "irregularity", "kind": "short_card", "seat": 6},
    ]
    events = play(SIX, commands)
    killed = last(events, "action")
    assert (killed["seat"], killed["action"], killed["rules"], killed["forced"]) == (
        6,
        "fold",
        ["39"],
        True,
    )
    assert last(events, "prompt")["seat"] == 1
    events = play(SIX, [*commands, *fold_out([1]), {"type": "act", "seat": 2, "declare": "check"}])
    assert last(events, "round_end")["pots"] == [550]  # the dead hand's call stays in


def test_rp5_each_street_dealt_early_goes_back_into_the_stub() -> None:
    cases = [
        ([{"type": "start_hand"}], "flop", ["Ah", "Kd", "7c"], "RP-5-A"),
        (
            [*PREFLOP_CALLED, {"type": "deal", "street": "flop", "cards": ["Ah", "Kd", "7c"]}],
            "turn",
            ["2s"],
            "RP-5-B",
        ),
    ]
    river_spot = [
        *PREFLOP_CALLED,
        {"type": "deal", "street": "flop", "cards": ["Ah", "Kd", "7c"]},
        *({"type": "act", "seat": n, "declare": "check"} for n in (1, 2, 3, 4, 5, 6)),
        {"type": "deal", "street": "turn", "cards": ["2s"]},
    ]
    cases.append((river_spot, "river", ["9h"], "RP-5-C"))
    for before, street, cards, rule in cases:
        events = play(SIX, [*before, {"type": "deal", "street": street, "cards": cards}])
        early = last(events, "irregularity")
        assert (early["kind"], early["street"], early["reshuffle"], early["rules"]) == (
            "early_cards",
            street,
            cards,
            [rule],
        )
        assert "no extra burn" in early["text"]
        assert events[-1]["type"] == "irregularity"  # the betting round goes on as it was
        assert last(events, "prompt") == of_type(play(SIX, before), "prompt")[-1]


def test_41a_four_card_flop_the_floor_picks_the_burn() -> None:
    events = play(
        SIX,
        [*PREFLOP_CALLED, {"type": "deal", "street": "flop", "cards": ["Ah", "Kd", "7c", "2s"]}],
    )
    call = last(events, "floor_call")
    assert (call["rule"], call["options"]) == ("41-A", ["Ah", "Kd", "7c", "2s"])
    events = play(
        SIX,
        [
            *PREFLOP_CALLED,
            {"type": "deal", "street": "flop", "cards": ["Ah", "Kd", "7c", "2s"]},
            {"type": "ruling", "call": call["call"], "option": "Kd"},
        ],
    )
    assert last(events, "dealt")["board"] == ["Ah", "7c", "2s"]
    assert last(events, "irregularity")["burn"] == "Kd"
    assert last(events, "prompt")["seat"] == 1


def test_41b_flop_without_a_burn_before_any_action() -> None:
    flop = {"type": "deal", "street": "flop", "cards": ["Ah", "Kd", "7c"], "burned": False}
    call = last(play(SIX, [*PREFLOP_CALLED, flop]), "floor_call")
    assert call["rule"] == "41-B"
    events = play(
        SIX,
        [
            *PREFLOP_CALLED,
            flop,
            {"type": "ruling", "call": call["call"], "option": "7c"},
            {"type": "deal", "street": "flop", "cards": ["Qs"]},
        ],
    )
    assert last(events, "irregularity")["burn"] == "7c"
    assert last(events, "dealt")["board"] == ["Ah", "Kd", "Qs"]
    assert last(events, "prompt")["seat"] == 1


def test_41b_flop_without_a_burn_found_after_action_plays_on() -> None:
    events = play(
        SIX,
        [
            *PREFLOP_CALLED,
            {"type": "deal", "street": "flop", "cards": ["Ah", "Kd", "7c"]},
            {"type": "act", "seat": 1, "declare": "check"},
            {"type": "irregularity", "kind": "flop_not_burned"},
        ],
    )
    note = last(events, "irregularity")
    assert note["rules"] == ["41-B"] and "play goes on" in note["text"]
    assert last(events, "prompt")["seat"] == 2


def test_60_a_fold_with_no_bet_to_face_binds_and_goes_to_the_floor_without_stopping_play() -> None:
    events = play(
        SIX,
        [
            *PREFLOP_CALLED,
            {"type": "deal", "street": "flop"},
            {"type": "act", "seat": 1, "declare": "fold"},
        ],
    )
    fold = last(events, "action")
    assert fold["action"] == "fold" and "60" in fold["rules"]
    notice = last(events, "floor_call")
    assert (notice["rule"], notice["blocking"], notice["options"]) == (
        "60",
        False,
        ["no_penalty", "warning", "penalty"],
    )
    assert last(events, "prompt")["seat"] == 2  # the hand goes on
    ruled = play(
        SIX,
        [
            *PREFLOP_CALLED,
            {"type": "deal", "street": "flop"},
            {"type": "act", "seat": 1, "declare": "fold"},
            {"type": "act", "seat": 2, "declare": "check"},
            {"type": "ruling", "call": notice["call"], "option": "warning"},
        ],
    )
    assert last(ruled, "ruling")["option"] == "warning" and last(ruled, "prompt")["seat"] == 3


def test_61_conditional_statement_and_premature_call_go_to_the_floor() -> None:
    conditional = play(
        SIX, [{"type": "start_hand"}, {"type": "irregularity", "kind": "conditional", "seat": 4}]
    )
    call = last(conditional, "floor_call")
    assert (call["rule"], call["options"], call["blocking"]) == (
        "61-A",
        ["binding", "not_binding"],
        False,
    )
    premature = play(
        SIX, [{"type": "start_hand"}, {"type": "irregularity", "kind": "premature_call", "seat": 4}]
    )
    call = last(premature, "floor_call")
    assert (call["rule"], call["options"], call["blocking"]) == (
        "61-B",
        ["call_any_amount", "not_binding"],
        True,
    )
    refused = play(
        SIX,
        [
            {"type": "start_hand"},
            {"type": "irregularity", "kind": "premature_call", "seat": 4},
            {"type": "ruling", "call": call["call"], "option": "fold"},
        ],
    )
    assert refused[-1]["type"] == "error" and refused[-1]["rule"] == "61-B"


def test_31_clock_facing_a_bet_kills_the_hand_and_otherwise_checks() -> None:
    at = 1_000_000
    facing = play(
        SIX,
        [
            {"type": "start_hand"},
            {"type": "clock", "at": at},
            {"type": "time", "at": at + 29_999},
            {"type": "time", "at": at + 30_001},
        ],
    )
    clock = last(facing, "clock")
    assert (clock["seat"], clock["deadline"], clock["expires"]) == (3, at + 25_000, at + 30_000)
    dead = last(facing, "action")
    assert (dead["seat"], dead["action"], dead["rules"]) == (3, "fold", ["31"])
    assert len(of_type(facing, "action")) == 1  # nothing happened at 29.999 s
    checking = play(
        SIX,
        [
            *PREFLOP_CALLED[:-1],
            {"type": "clock", "at": at},
            {"type": "time", "at": at + 31_000},
        ],
    )
    check = last(checking, "action")
    assert (check["seat"], check["action"], check["rules"]) == (2, "check", ["31"])


def test_31_an_action_at_the_moment_time_runs_out_counts() -> None:
    at = 5_000
    events = play(
        SIX,
        [
            {"type": "start_hand"},
            {"type": "clock", "at": at},
            {"type": "act", "seat": 3, "declare": "call", "at": at + 30_000},
            {"type": "time", "at": at + 30_001},
        ],
    )
    call = last(events, "action")
    assert (call["seat"], call["action"]) == (3, "call")
    late = play(
        SIX,
        [
            {"type": "start_hand"},
            {"type": "clock", "at": at},
            {"type": "act", "seat": 3, "declare": "call", "at": at + 30_001},
        ],
    )
    assert late[-1]["type"] == "error" and late[-1]["rule"] == "31"


def test_74_hand_penalty_deals_in_posts_kills_and_counts_down() -> None:
    # Seat 2 (next big blind) gets two hands: it posts the big blind, its hand is killed, and
    # after two hands the penalty ends by itself.
    commands: list[dict[str, Any]] = [
        {"type": "penalty", "seat": 2, "kind": "hands", "count": 2, "reason": "abuse"}
    ]
    for _ in range(3):
        commands += [{"type": "start_hand"}]
    events = play(SIX, commands)
    given = last(events, "penalty")
    assert (given["hands_left"], given["rules"]) == (2, ["74-A", "74-C"])
    first = of_type(events, "hand_start")[0]
    assert {"seat": 2, "kind": "big_blind", "amount": 100, "all_in": False} in first["posts"]
    kill = of_type(events, "action")[0]
    assert (kill["seat"], kill["action"], kill["rules"], kill["forced"]) == (
        2,
        "fold",
        ["74-C"],
        True,
    )
    # Hand 1 ends when everyone folds to... the table plays on; check the counting directly.
    table = new_table(decode_scenario(json.dumps({"config": SIX})).config)
    for command in decode_scenario(json.dumps({"config": SIX, "commands": commands[:2]})).commands:
        table, _ = apply(table, command)
    assert table.penalties == {2: 1}


def test_74_round_penalty_is_players_at_the_table_times_rounds() -> None:
    events = play(SIX, [{"type": "penalty", "seat": 4, "kind": "rounds", "count": 2}])
    assert last(events, "penalty")["hands_left"] == 12


def test_37c_a_penalised_players_misdeal_and_redeal_count_as_one_hand() -> None:
    commands = [
        {"type": "penalty", "seat": 5, "kind": "hands", "count": 2},
        {"type": "start_hand"},
        {"type": "misdeal", "reason": "boxed card"},
    ]
    events = play(SIX, commands)
    assert [k["seat"] for k in of_type(events, "action") if "74-C" in k["rules"]] == [5, 5]
    table = new_table(decode_scenario(json.dumps({"config": SIX})).config)
    for command in decode_scenario(json.dumps({"config": SIX, "commands": commands})).commands:
        table, _ = apply(table, command)
    assert table.penalties == {5: 1}


def test_rp26_chip_penalty_and_74d_disqualification_take_chips_out_of_play() -> None:
    events = play(
        SIX,
        [
            {"type": "penalty", "seat": 3, "kind": "chips", "chips": 1000, "reason": "soft play"},
            {"type": "penalty", "seat": 4, "kind": "disqualify", "reason": "collusion"},
            {"type": "start_hand"},
            *fold_out([3, 5, 6, 1]),
        ],
    )
    chips, dq = of_type(events, "penalty")
    assert (chips["removed"], chips["rules"]) == (1000, ["RP-26"])
    assert (dq["removed"], dq["rules"]) == (DEEP, ["74-D"])
    assert 4 not in last(events, "hand_start")["dealt"]
    conserved(events)
    refused = play(
        SIX, [{"type": "start_hand"}, {"type": "penalty", "seat": 3, "kind": "chips", "chips": 500}]
    )
    assert refused[-1]["type"] == "error" and refused[-1]["rule"] == "RP-26"


def test_correction_voids_the_last_actions_and_rederives_the_hand() -> None:
    commands = [
        {"type": "start_hand"},
        {"type": "act", "seat": 3, "declare": "raise", "amount": 300},
        {"type": "act", "seat": 4, "declare": "call"},
        {"type": "act", "seat": 5, "declare": "raise", "amount": 900},
    ]
    events = play(
        SIX,
        [
            *commands,
            {"type": "correction", "count": 2, "reason": "dealer misread seat 4", "by": "floor"},
        ],
    )
    fix = last(events, "correction")
    assert fix["undone"] == ["seat 4: call", "seat 5: raise 900"] and fix["by"] == "floor"
    assert last(events, "prompt")["seat"] == 4 and last(events, "prompt")["to_call"] == 300
    fixed = play(
        SIX,
        [
            *commands,
            {"type": "correction", "count": 2, "reason": "misread"},
            {"type": "act", "seat": 4, "declare": "fold"},
        ],
    )
    assert last(fixed, "prompt")["seat"] == 5
    direct = play(SIX, [*commands[:2], {"type": "act", "seat": 4, "declare": "fold"}])
    assert last(fixed, "prompt") == last(direct, "prompt")
    refused = play(
        SIX,
        [{"type": "start_hand"}, {"type": "correction", "count": 1, "reason": "nothing to void"}],
    )
    assert refused[-1]["type"] == "error"


def test_rp24_information_requests_are_answered_from_the_prompt() -> None:
    spot = [
        {"type": "start_hand"},
        {"type": "act", "seat": 3, "declare": "raise", "amount": 300},
        {"type": "act", "seat": 4, "declare": "all_in", "amount": None},
    ]
    small = {**SIX, "seats": {**SIX["seats"], "4": 400}}
    events = play(small, [*spot, {"type": "ask", "seat": 5, "question": "call_amount"}])
    answer = last(events, "answer")
    assert (answer["answer"], answer["amount"], answer["rules"]) == ("400", 400, ["RP-24"])
    events = play(
        small, [*spot, {"type": "ask", "seat": 5, "question": "can_raise_if_call", "about": 3}]
    )
    # Seat 4's all-in of 400 is a short raise over 300: seat 3 may not re-raise (49-A).
    assert last(events, "answer")["answer"] == "no"
    wrong = play(small, [*spot, {"type": "ask", "seat": 6, "question": "call_amount"}])
    assert wrong[-1]["type"] == "error" and wrong[-1]["rule"] == "RP-24"


def test_illegal_rulings_are_refused_and_change_nothing() -> None:
    spot = [
        {"type": "start_hand"},
        {"type": "act", "seat": 3, "declare": "raise", "amount": 300},
        {"type": "act", "seat": 4, "declare": "raise", "amount": 900},
        {
            "type": "act",
            "seat": 5,
            "chips": [100],
        },  # an under-call of a raise: the floor decides (53-B)
    ]
    scenario = decode_scenario(json.dumps({"config": SIX, "commands": spot}))
    state = new_table(scenario.config)
    for command in scenario.commands:
        state, events = apply(state, command)
    call = next(e for e in events if type(e).__name__ == "FloorCall")
    for bad in ({"call": call.call, "option": "raise"}, {"call": call.call + 7, "option": "call"}):
        ruling = decode_scenario(
            json.dumps({"config": SIX, "commands": [{"type": "ruling", **bad}]})
        ).commands[0]
        after, errors = apply(state, ruling)
        assert after is state and [type(e).__name__ for e in errors] == ["ErrorEvent"]


def test_a_messy_hand_replays_from_its_event_log_and_prints_the_same_every_time(
    tmp_path: Path,
) -> None:
    """Issue 3, acceptance 4: OOT actions, a correction and a misdeal, then the hand ends."""
    commands = [
        {"type": "start_hand"},
        {"type": "act", "seat": 3, "declare": "call"},
        {"type": "misdeal", "reason": "boxed card"},
        {"type": "act", "seat": 3, "declare": "raise", "amount": 300},
        {"type": "act", "seat": 5, "declare": "call"},  # out of turn: seat 4 is to act
        {"type": "act", "seat": 4, "declare": "call"},  # seat 5's call binds (55-A-1)
        {"type": "act", "seat": 6, "declare": "raise", "amount": 1200},
        {"type": "correction", "count": 1, "reason": "seat 6 said call"},
        {"type": "act", "seat": 6, "declare": "call"},
        *fold_out([1, 2]),
        {"type": "deal", "street": "flop", "cards": ["Ah", "Kd", "7c"]},
        *({"type": "act", "seat": n, "declare": "check"} for n in (3, 4, 5, 6)),
        {"type": "deal", "street": "turn", "cards": ["2s"]},
        {"type": "act", "seat": 3, "declare": "bet", "amount": 500},
        *fold_out([4, 5, 6]),
    ]
    scenario = decode_scenario(json.dumps({"config": SIX, "commands": commands}))
    state = new_table(scenario.config)
    log = []
    for command in scenario.commands:
        state, events = apply(state, command)
        log.extend(events)
    assert state.phase == "idle" and state.hand == 1
    assert {type(e).__name__ for e in log} >= {"Misdealt", "OutOfTurn", "Corrected", "HandEnd"}
    assert rebuild(scenario.config, log) == state
    assert run_scenario(scenario) == log
    conserved(
        [
            {
                "type": "hand_end",
                "stacks": dict(state.seat(n).stack for n in ())
                or {s.number: s.stack for s in state.seats},
            }
        ]
    )
    path = tmp_path / "messy.json"
    path.write_text(json.dumps({"config": SIX, "commands": commands}))
    runs = {
        subprocess.run(
            [sys.executable, "-m", "server.cli", "replay", str(path)],
            capture_output=True,
            check=True,
        ).stdout
        for _ in range(3)
    }
    assert len(runs) == 1


def test_36a_button_error_found_before_substantial_action_is_corrected() -> None:
    # The button belongs on seat 6 for the first hand; the dealer put it on seat 1.
    commands = [{"type": "start_hand", "button": 1}]
    events = play(SIX, commands)
    start = last(events, "hand_start")
    assert (start["button"], start["small_blind"], start["big_blind"]) == (1, 2, 3)
    flag = last(events, "irregularity")
    assert (flag["kind"], flag["correct"], flag["rules"]) == ("wrong_button", 6, ["36-A"])
    events = play(
        SIX,
        [
            *commands,
            {"type": "act", "seat": 4, "declare": "fold"},
            {"type": "irregularity", "kind": "wrong_button"},
        ],
    )
    redeal = last(events, "hand_start")
    assert (redeal["hand"], redeal["button"], redeal["small_blind"], redeal["big_blind"]) == (
        1,
        6,
        1,
        2,
    )
    assert "36-A" in last(events, "misdeal")["rules"]


def test_36a_button_error_found_after_substantial_action_stands() -> None:
    commands = [
        {"type": "start_hand", "button": 1},
        *({"type": "act", "seat": n, "declare": "call"} for n in (4, 5)),
        {"type": "irregularity", "kind": "wrong_button"},
    ]
    events = play(SIX, commands)
    note = last(events, "irregularity")
    assert note["found"] and "play goes on" in note["text"]
    events = play(
        SIX, [*commands, *fold_out([6, 1, 2]), {"type": "act", "seat": 3, "declare": "check"}]
    )
    assert last(events, "prompt")["seat"] == 3  # the hand goes on with the button where it is
