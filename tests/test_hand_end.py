"""Showdown, pots and odd chips (rules 13, 18, 21, 23), hi/lo, and the table between hands
(rules 25, 36-C, 9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.support import last, of_type, play

NLHE = {"game": "NLHE", "blinds": [50, 100], "button": 1, "chips": [25, 100, 500]}


def deal_out(board: list[str]) -> list[dict[str, object]]:
    return [
        {"type": "deal", "street": "flop", "cards": board[:3]},
        {"type": "deal", "street": "turn", "cards": board[3:4]},
        {"type": "deal", "street": "river", "cards": board[4:5]},
    ]


def test_23_side_pots_are_split_separately_and_awarded_side_pot_first() -> None:
    # Seat 2 is all-in short; seats 3 and 4 build a side pot. Seat 2 holds the best hand,
    # seat 3 the second best: seat 2 takes the main pot, seat 3 the side pot.
    config = {**NLHE, "seats": {"1": 5000, "2": 300, "3": 5000, "4": 5000}}
    events = play(
        config,
        [
            {
                "type": "start_hand",
                "cards": {"2": ["As", "Ad"], "3": ["Ks", "Kd"], "4": ["Qs", "Qd"]},
            },
            {"type": "act", "seat": 4, "declare": "raise", "amount": 1000},
            {"type": "act", "seat": 1, "declare": "fold"},
            {"type": "act", "seat": 2, "declare": "all_in"},
            {"type": "act", "seat": 3, "declare": "call"},
            *deal_out(["2c", "7d", "9h", "Jc", "3s"])[:1],
            {"type": "act", "seat": 3, "declare": "check"},
            {"type": "act", "seat": 4, "declare": "check"},
            *deal_out(["2c", "7d", "9h", "Jc", "3s"])[1:2],
            {"type": "act", "seat": 3, "declare": "check"},
            {"type": "act", "seat": 4, "declare": "check"},
            *deal_out(["2c", "7d", "9h", "Jc", "3s"])[2:],
            {"type": "act", "seat": 3, "declare": "check"},
            {"type": "act", "seat": 4, "declare": "check"},
        ],
    )
    assert last(events, "expose_all")["seats"] == [2, 3, 4]
    end = last(events, "hand_end")
    assert [p["pot"] for p in end["pots"]] == [1, 0]
    side, main = end["pots"]
    assert main["amount"] == 300 * 3 and main["winners"] == [2]
    assert side["winners"] == [3] and side["amount"] == 1400 and "23" in side["rules"]
    assert end["stacks"] == {1: 5000, 2: 900, 3: 5400, 4: 4000}


def test_18_last_aggressor_on_the_river_shows_first() -> None:
    config = {**NLHE, "seats": {"1": 5000, "2": 5000, "3": 5000}}
    commands = [
        {"type": "start_hand"},
        {"type": "act", "seat": 1, "declare": "call"},
        {"type": "act", "seat": 2, "declare": "call"},
        {"type": "act", "seat": 3, "declare": "check"},
    ]
    for street in ("flop", "turn"):
        commands += [{"type": "deal", "street": street}] + [
            {"type": "act", "seat": n, "declare": "check"} for n in (2, 3, 1)
        ]
    commands += [
        {"type": "deal", "street": "river"},
        {"type": "act", "seat": 2, "declare": "check"},
        {"type": "act", "seat": 3, "declare": "bet", "amount": 300},
        {"type": "act", "seat": 1, "declare": "call"},
        {"type": "act", "seat": 2, "declare": "call"},
    ]
    order = last(play(config, commands), "showdown")
    assert order["order"] == [3, 1, 2] and order["rules"] == ["18"]
    checked_down = commands[:-4] + [
        {"type": "act", "seat": n, "declare": "check"} for n in (2, 3, 1)
    ]
    assert last(
        play(config, [*checked_down[:-3], {"type": "deal", "street": "river"}, *checked_down[-3:]]),
        "showdown",
    )["order"] == [2, 3, 1]


def test_21a_odd_chip_goes_to_the_first_tied_seat_left_of_the_button() -> None:
    # 1,025 split two ways in 25-chips: 500 each and the odd 25 to the first seat left of
    # the button.
    config = {**NLHE, "blinds": [25, 50], "button": 3, "seats": {"1": 5000, "2": 5000, "3": 5000}}
    events = play(
        config,
        [
            {
                "type": "start_hand",
                "cards": {"1": ["As", "Kd"], "2": ["Ac", "Kh"], "3": ["2c", "3d"]},
            },
            {"type": "act", "seat": 3, "declare": "raise", "amount": 325},
            {"type": "act", "seat": 1, "declare": "call"},
            {"type": "act", "seat": 2, "declare": "call"},
            *[
                x
                for street, cards in (
                    ("flop", ["Qs", "Jd", "Tc"]),
                    ("turn", ["5h"]),
                    ("river", ["8h"]),
                )
                for x in [{"type": "deal", "street": street, "cards": cards}]
                + [{"type": "act", "seat": n, "declare": "check"} for n in (1, 2, 3)]
            ][:-1],
            {"type": "act", "seat": 3, "declare": "fold"},
            {"type": "show", "seat": 1},
            {"type": "show", "seat": 2},
        ],
    )
    end = last(events, "hand_end")
    (pot,) = end["pots"]
    assert pot["amount"] == 975 and pot["winners"] == [1, 2]
    assert pot["shares"] == {1: 500, 2: 475} and "21-A" in pot["rules"]


def test_21c_hi_lo_halves_with_the_odd_chip_high() -> None:
    config = {
        "game": "PLO8",
        "blinds": [25, 50],
        "button": 3,
        "chips": [25],
        "seats": {"1": 2000, "2": 2000, "3": 2000},
    }
    events = play(
        config,
        [
            {
                "type": "start_hand",
                "cards": {
                    "1": ["As", "2d", "Kc", "Kh"],
                    "2": ["Qs", "Qd", "Jc", "Jh"],
                    "3": ["9s", "9d", "Tc", "Th"],
                },
            },
            {"type": "act", "seat": 3, "declare": "fold"},
            {"type": "act", "seat": 1, "declare": "call"},
            {"type": "act", "seat": 2, "declare": "check"},
            {"type": "deal", "street": "flop", "cards": ["3c", "4h", "Ks"]},
            {"type": "act", "seat": 1, "declare": "bet", "amount": 75},
            {"type": "act", "seat": 2, "declare": "call"},
            {"type": "deal", "street": "turn", "cards": ["8s"]},
            {"type": "act", "seat": 1, "declare": "check"},
            {"type": "act", "seat": 2, "declare": "check"},
            {"type": "deal", "street": "river", "cards": ["Qc"]},
            {"type": "act", "seat": 1, "declare": "check"},
            {"type": "act", "seat": 2, "declare": "check"},
            {"type": "show", "seat": 1},
            {"type": "show", "seat": 2},
        ],
    )
    (pot,) = last(events, "hand_end")["pots"]
    # Pot 250: seat 1 has the low (A-2-3-4-8) and top set of kings beats queens: scoops.
    assert pot["amount"] == 250 and pot["shares"] == {1: 250}


def test_hands_without_card_entry_are_awarded_by_the_dealer() -> None:
    config = {**NLHE, "seats": {"1": 1000, "2": 1000}}
    commands = [
        {"type": "start_hand"},
        {"type": "act", "seat": 1, "declare": "all_in"},
        {"type": "act", "seat": 2, "declare": "call"},
    ]
    commands += [{"type": "deal", "street": s} for s in ("flop", "turn", "river")]
    events = play(
        config,
        [
            *commands,
            {"type": "award", "pot": 0, "winners": [3]},
            {"type": "award", "pot": 0, "winners": [1, 2]},
        ],
    )
    assert last(events, "error")["rule"] == "23"
    end = last(events, "hand_end")
    assert end["stacks"] == {1: 1000, 2: 1000}


def test_36c_heads_up_the_button_is_the_small_blind_and_acts_first_preflop() -> None:
    config = {**NLHE, "seats": {"1": 1000, "2": 1000}}
    events = play(
        config,
        [
            {"type": "start_hand"},
            {"type": "act", "seat": 1, "declare": "fold"},
            {"type": "start_hand"},
        ],
    )
    first, second = of_type(events, "hand_start")
    assert (first["button"], first["small_blind"], first["big_blind"]) == (1, 1, 2)
    assert (second["button"], second["small_blind"], second["big_blind"]) == (2, 2, 1)
    assert of_type(events, "prompt")[0]["seat"] == 1 and "36-C" in first["rules"]


def test_36c_going_heads_up_nobody_takes_the_big_blind_twice() -> None:
    config = {**NLHE, "seats": {"1": 1000, "2": 1000, "3": 1000}}
    events = play(
        config,
        [
            {"type": "start_hand"},  # button 1, SB 2, BB 3
            {"type": "act", "seat": 1, "declare": "all_in"},
            {"type": "act", "seat": 2, "declare": "fold"},
            {"type": "act", "seat": 3, "declare": "call"},
            *[{"type": "deal", "street": s} for s in ("flop", "turn", "river")],
            {"type": "award", "pot": 0, "winners": [3]},
            {"type": "start_hand"},
        ],
    )
    assert last(events, "hand_end")["busted"] == [1]
    second = of_type(events, "hand_start")[1]
    # Seat 3 was the big blind: heads-up it is now the button and small blind.
    assert (second["button"], second["small_blind"], second["big_blind"]) == (3, 3, 2)


def test_25_a_new_level_applies_from_the_next_hand() -> None:
    config = {**NLHE, "seats": {"1": 5000, "2": 5000, "3": 5000}}
    events = play(
        config,
        [
            {"type": "start_hand"},
            {"type": "level", "blinds": [100, 200], "ante": 200, "bba": True},
            {"type": "act", "seat": 1, "declare": "fold"},
            {"type": "act", "seat": 2, "declare": "fold"},
            {"type": "start_hand"},
        ],
    )
    first, second = of_type(events, "hand_start")
    assert tuple(first["blinds"]) == (50, 100) and tuple(second["blinds"]) == (100, 200)
    assert {"seat": 1, "kind": "ante", "amount": 200, "all_in": False} in second["posts"]
    assert "RP-11" in second["rules"]


def test_rp11_big_blind_first_when_short_for_blind_and_ante() -> None:
    config = {**NLHE, "ante": 100, "bba": True, "seats": {"1": 5000, "2": 5000, "3": 150}}
    posts = last(play(config, [{"type": "start_hand"}]), "hand_start")["posts"]
    assert {"seat": 3, "kind": "big_blind", "amount": 100, "all_in": False} in posts
    assert {"seat": 3, "kind": "ante", "amount": 50, "all_in": True} in posts


def test_9_new_player_between_the_small_blind_and_the_button_waits() -> None:
    config = {**NLHE, "button": 1, "seats": {"1": 5000, "3": 5000, "5": 5000}}
    events = play(
        config,
        [
            {"type": "start_hand"},  # button 1, SB 3, BB 5
            {"type": "act", "seat": 1, "declare": "fold"},
            {"type": "act", "seat": 3, "declare": "fold"},
            {
                "type": "add_player",
                "seat": 4,
                "stack": 5000,
            },  # between SB (5 next) and button (3 next)
            {"type": "add_player", "seat": 7, "stack": 5000},
            {"type": "start_hand"},  # button 3, SB 5, BB 7 (new player in the big blind)
        ],
    )
    second = of_type(events, "hand_start")[1]
    assert (second["button"], second["small_blind"], second["big_blind"]) == (3, 5, 7)
    assert 4 not in second["dealt"] and 7 in second["dealt"]


def test_errors_change_nothing_and_name_the_rule() -> None:
    config = {**NLHE, "seats": {"1": 1000, "2": 1000, "3": 1000}}
    events = play(
        config,
        [
            {"type": "start_hand"},
            {"type": "act", "seat": 1, "declare": "raise"},
            {"type": "deal", "street": "flop"},
            {"type": "act", "seat": 1, "declare": "call"},
        ],
    )
    errors = of_type(events, "error")
    assert [e["rule"] for e in errors] == ["52-B"]
    early = last(events, "irregularity")
    assert early["kind"] == "early_cards" and early["rules"] == ["RP-5-A"]
    assert last(events, "action")["total"] == 100 and last(events, "prompt")["seat"] == 2


def test_replay_cli_prints_the_same_events_every_time(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parents[1] / "examples" / "raise-by-chips.json"
    runs = [
        subprocess.run(
            [sys.executable, "-m", "server.cli", "replay", str(example)],
            capture_output=True,
            check=True,
        ).stdout
        for _ in range(2)
    ]
    assert runs[0] == runs[1] and runs[0].count(b"\n") > 10


def test_replay_cli_exits_2_on_a_bad_scenario(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    config = {"game": "NLHE", "blinds": [1, 2], "button": 1, "seats": {"1": 9}}
    bad.write_text(json.dumps({"config": config, "commands": [{"type": "act"}]}))
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "replay", str(bad)], capture_output=True
    )
    assert done.returncode == 2
    assert b"$.commands[0]" in done.stderr and len(done.stderr.splitlines()) == 1
