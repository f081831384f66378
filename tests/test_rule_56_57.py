"""The word "pot" in no-limit (56-D) and invalid declarations (57).

56-D: in no-limit "pot" is not an amount; the player must still make a valid bet (facing a bet,
a valid raise), and chips pushed with the word are that bet. 57: "call" with no bet to face is a
check, "raise" with no bet to face is at least the minimum bet, and "check" facing a bet leaves
the player call or fold for that action — recorded, with the seat still to act.
"""

from __future__ import annotations

from typing import Any

from tests.support import last, of_type, play
from tests.test_seed_common import (
    DEEP,
    Cmd,
    act,
    action_of,
    actions_of,
    assert_ruling,
    last_command,
    prompt_for,
    run,
    table,
    to_flop,
)

Config = dict[str, Any]


def _flop(game: str = "NLHE") -> tuple[Config, list[Cmd]]:
    """200-400, three players limp to the flop (1,200 in the pot): seat 1 first."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=3, blinds=(200, 400), game=game)
    return cfg, to_flop(cfg)


# --- 56-D ------------------------------------------------------------------------------------


def test_56_d_pot_with_chips_in_no_limit_is_the_chips_bet() -> None:
    """56-D: "pot" said with 3,000 in chips is a bet of 3,000 — the chips, not the pot."""
    cfg, cmds = _flop()
    events = run(cfg, [*cmds, act(1, "pot", chips=[1000, 1000, 1000])])
    assert_ruling(action_of(events, 1), "bet", 3000, rules=("56-D",), returned=0)


def test_56_d_pot_with_chips_short_of_the_minimum_bet_is_made_up() -> None:
    """56-D: "pot" with a single 100 chip must still be a valid bet: made up to 400."""
    cfg, cmds = _flop()
    events = run(cfg, [*cmds, act(1, "pot", chips=[100])])
    assert_ruling(action_of(events, 1), "bet", 400, rules=("56-D",))


def test_56_d_pot_facing_a_bet_must_be_a_valid_raise() -> None:
    """56-D: facing a 1,000 bet, "pot" with 1,500 in chips must be a valid raise: to 2,000."""
    cfg, cmds = _flop()
    events = run(cfg, [*cmds, act(1, "bet", 1000), act(2, "pot", chips=[1000, 500])])
    assert_ruling(action_of(events, 2), "raise", 2000, rules=("56-D",))


def test_56_d_pot_alone_in_no_limit_is_not_an_amount() -> None:
    """56-D: "pot" with neither chips nor an amount does not say what the bet is: refused
    until the bet is recorded; nothing changes."""
    cfg, cmds = _flop()
    events = play(cfg, [*cmds, act(1, "pot")])
    assert events[-1]["type"] == "error" and events[-1]["rule"] == "56-D"
    assert not actions_of(last_command(events), 1)


def test_56_pot_in_pot_limit_is_the_pot() -> None:
    """56, the other side: in pot-limit "pot" is the pot: 1,200 with 1,200 in it."""
    cfg, cmds = _flop("PLO")
    events = run(cfg, [*cmds, act(1, "pot")])
    assert_ruling(action_of(events, 1), "bet", 1200, rules=("56",))


# --- 57 --------------------------------------------------------------------------------------


def test_57_check_facing_a_bet_in_turn_leaves_call_or_fold() -> None:
    """57: facing a 1,000 bet, seat 2 says "check": the log records it, seat 2 stays to act
    and may call or fold, not raise."""
    cfg, cmds = _flop()
    cmds = [*cmds, act(1, "bet", 1000), act(2, "check")]
    events = run(cfg, cmds)
    limited = last(events, "action_limited")
    assert (limited["seat"], limited["rules"]) == (2, ["57"])
    assert sorted(limited["options"]) == ["call", "fold"]
    assert "Seat 2" in limited["text"] and "57" in limited["text"]
    assert not actions_of(last_command(events), 2)
    p = prompt_for(events, 2)
    assert p["options"] == ["fold", "call"]
    assert p["can_raise"] is False and p["to_call"] == 1000

    refused = play(cfg, [*cmds, act(2, "raise", 3000)])
    assert refused[-1]["type"] == "error" and refused[-1]["rule"] == "57"

    called = run(cfg, [*cmds, act(2, "call")])
    assert_ruling(action_of(called, 2), "call", 1000)
    assert prompt_for(called, 3)["can_raise"] is True


def test_57_check_facing_a_bet_limits_that_action_only() -> None:
    """57: the limit is for that action: seat 2 calls, seat 3 raises, and seat 2 may then
    re-raise."""
    cfg, cmds = _flop()
    events = run(
        cfg,
        [
            *cmds,
            act(1, "bet", 1000),
            act(2, "check"),
            act(2, "call"),
            act(3, "raise", 3000),
            act(1, "call"),
        ],
    )
    assert prompt_for(events, 2)["can_raise"] is True


def test_57_check_with_no_bet_to_face_is_a_check() -> None:
    """57, the other side: with no bet to face "check" is a check and the action moves on."""
    cfg, cmds = _flop()
    events = run(cfg, [*cmds, act(1, "check")])
    assert not of_type(events, "action_limited")
    assert_ruling(action_of(events, 1), "check", 0)
    assert prompt_for(events, 2)["to_call"] == 0


def test_57_a_call_with_no_bet_to_face_is_a_check() -> None:
    """57-A: "call" with no bet to face is a check."""
    cfg, cmds = _flop()
    events = run(cfg, [*cmds, act(1, "call")])
    assert_ruling(action_of(events, 1), "check", 0, rules=("57-A",))


def test_57_b_raise_with_no_bet_to_face_is_at_least_the_minimum_bet() -> None:
    """57-B: "raise" with one 100 chip and no bet to face is a bet made up to the 400 minimum."""
    cfg, cmds = _flop()
    events = run(cfg, [*cmds, act(1, "raise", chips=[100])])
    assert_ruling(action_of(events, 1), "bet", 400, rules=("57-B",))
