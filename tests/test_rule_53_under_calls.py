"""Under-calls in turn and out of turn (2026 TDA rules 53-B, 55-A-1).

53-B: an under-call must be made a full call heads-up, or multi-way against the opening bet —
the first bet of the round that puts chips in (pre-flop the posted big blind), a short all-in
included. Against any later raise multi-way it is the floor's decision: a full call, or a fold
forfeiting up to the opening bet. An out-of-turn under-call that becomes binding (55-A-1) is
read the same way when it binds: never a call of less than what is owed.
"""

from __future__ import annotations

from typing import Any

from tests.support import last, of_type
from tests.test_seed_common import (
    DEEP,
    Cmd,
    act,
    action_of,
    actions_of,
    assert_ruling,
    chips,
    last_command,
    prompt_for,
    ruling,
    run,
    table,
    to_flop,
)

Config = dict[str, Any]


def _short_all_in_opens() -> tuple[Config, list[Cmd]]:
    """100-200, four players A-D (seats 1-4, button 4): A has 150 left after the flop and
    opens all-in for 150, short of the 200 minimum bet."""
    cfg = table({1: 350, 2: DEEP, 3: DEEP, 4: DEEP}, button=4, blinds=(100, 200))
    return cfg, [*to_flop(cfg), act(1, "all_in")]


def test_53_b_under_call_of_a_short_all_in_opening_bet_is_a_full_call() -> None:
    """53-B: A's short all-in of 150 is the opening bet (the first bet with chips): B's single
    100 chip under-calls it and must be made a full call of 150."""
    cfg, cmds = _short_all_in_opens()
    events = run(cfg, [*cmds, chips(2, 100)])
    assert_ruling(action_of(events, 1), "bet", 150, all_in=True)
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 2), "call", 150, rules=("53-B",))


def test_53_b_under_call_of_a_raise_over_a_short_all_in_opening_goes_to_the_floor() -> None:
    """53-B: after A's 150 all-in opens, B raises to 400 and C puts out two 100s: an under-call
    of a later raise, multi-way: the floor rules a full call, or a fold forfeiting the 150 of
    the opening bet (50 back)."""
    cfg, cmds = _short_all_in_opens()
    cmds = [*cmds, act(2, "raise", 400), chips(3, 100, 100)]
    events = run(cfg, cmds)
    call = last(events, "floor_call")
    assert (call["seat"], call["rule"]) == (3, "53-B")
    assert sorted(call["options"]) == ["call", "fold"]
    assert (call["pushed"], call["forfeit"]) == (200, 150)
    assert not actions_of(last_command(events), 3)

    folded = run(cfg, [*cmds, ruling(call, "fold")])
    assert_ruling(action_of(folded, 3), "fold", 150, returned=50)
    called = run(cfg, [*cmds, ruling(call, "call")])
    assert_ruling(action_of(called, 3), "call", 400)
    assert prompt_for(called, 4)["to_call"] == 400


def _utg_short_all_in_preflop() -> tuple[Config, list[Cmd]]:
    """50-100, five players (button 5, SB 1, BB 2): UTG (seat 3) is all-in for 150 pre-flop,
    a short raise over the big blind."""
    cfg = table({1: DEEP, 2: DEEP, 3: 150, 4: DEEP, 5: DEEP}, button=5, blinds=(50, 100))
    return cfg, [{"type": "start_hand"}, act(3, "all_in")]


def test_53_b_preflop_under_call_of_a_short_all_in_raise_goes_to_the_floor() -> None:
    """53-B: pre-flop the posted big blind is the opening bet; seat 4's single 100 chip
    under-calls UTG's 150 all-in raise, multi-way: the floor's decision (100 forfeited on a
    fold)."""
    cfg, cmds = _utg_short_all_in_preflop()
    events = run(cfg, [*cmds, chips(4, 100)])
    call = last(events, "floor_call")
    assert (call["seat"], call["rule"], call["forfeit"]) == (4, "53-B", 100)
    assert not actions_of(last_command(events), 4)


def test_53_b_preflop_under_call_of_the_big_blind_is_a_full_call() -> None:
    """53-B, the other side: the posted big blind is the pre-flop opening bet; UTG's 25 chip
    against it must be a full call of 100."""
    cfg = table({s: DEEP for s in range(1, 6)}, button=5, blinds=(50, 100))
    events = run(cfg, [{"type": "start_hand"}, chips(3, 25)])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 3), "call", 100, rules=("53-B",))


def test_53_b_heads_up_under_call_of_a_raise_is_a_full_call() -> None:
    """53-B: heads-up every under-call is a full call, also of a raise."""
    cfg = table({1: DEEP, 2: DEEP}, button=2, blinds=(100, 200))
    events = run(cfg, [{"type": "start_hand"}, act(2, "raise", 600), chips(1, 100, 100)])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 1), "call", 600, rules=("53-B",))


# --- 55-A-1 with 53-B: an out-of-turn under-call that binds ---------------------------------


def _four_on_the_flop() -> Config:
    """1000-2000, four players A-D at seats 1-4, button 4: post-flop order A, B, C, D."""
    return table({s: DEEP for s in range(1, 5)}, button=4, blinds=(1000, 2000))


def test_55_a_1_out_of_turn_under_call_of_a_raise_goes_to_the_floor_when_it_binds() -> None:
    """55-A-1 with 53-B: A opens 2,000, B raises to 8,000; D puts out 2,000 out of turn. C
    calls, so D's action binds — as an under-call of the raise, multi-way: the floor decides
    (a full call of 8,000, or a fold forfeiting 2,000); no short call is recorded."""
    cfg = _four_on_the_flop()
    cmds = [*to_flop(cfg), act(1, "bet", 2000), act(2, "raise", 8000), chips(4, 1000, 1000)]
    oot = last(run(cfg, cmds), "out_of_turn")
    assert (oot["seat"], oot["to_act"]) == (4, 3)
    assert "53-B" in oot["rules"] and "under-call" in oot["text"]

    cmds = [*cmds, act(3, "call")]
    events = run(cfg, cmds)
    call = last(events, "floor_call")
    assert (call["seat"], call["rule"]) == (4, "53-B")
    assert sorted(call["options"]) == ["call", "fold"]
    assert (call["pushed"], call["forfeit"]) == (2000, 2000)
    assert not actions_of(last_command(events), 4)
    assert last(events, "prompt")["seat"] == 3  # nobody prompted after the binding

    called = run(cfg, [*cmds, ruling(call, "call")])
    assert_ruling(action_of(called, 4), "call", 8000, rules=("53-B",))
    assert prompt_for(called, 1)["to_call"] == 6000

    folded = run(cfg, [*cmds, ruling(call, "fold")])
    assert_ruling(action_of(folded, 4), "fold", 2000, returned=0)
    assert prompt_for(folded, 1)["to_call"] == 6000


def test_55_a_1_out_of_turn_under_call_of_the_opening_bet_binds_as_a_full_call() -> None:
    """55-A-1 with 53-B: A opens 8,000; C puts out 2,000 out of turn. B calls, so C's action
    binds: an under-call of the opening bet, a full call of 8,000."""
    cfg = _four_on_the_flop()
    cmds = [*to_flop(cfg), act(1, "bet", 8000), chips(3, 1000, 1000), act(2, "call")]
    events = run(cfg, cmds)
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 3), "call", 8000, rules=("53-B",))
    assert prompt_for(events, 4)["to_call"] == 8000


def test_55_a_1_out_of_turn_under_call_is_released_when_the_action_changes() -> None:
    """55-A-1, the other side: B raises before C's out-of-turn 2,000 binds: the action to C
    changed, the chips go back and C has every option."""
    cfg = _four_on_the_flop()
    cmds = [*to_flop(cfg), act(1, "bet", 8000), chips(3, 1000, 1000), act(2, "raise", 16000)]
    events = run(cfg, cmds)
    assert last(events, "out_of_turn_released")["seat"] == 3
    assert not actions_of(last_command(events), 3)
    p = prompt_for(events, 3)
    assert p["to_call"] == 16000 and p["can_raise"] is True
