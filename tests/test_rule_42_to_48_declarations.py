"""Declarations that bind (2026 TDA rules 42-A, 45-A, 48-B, 53-A).

A declared raise binds the player to a raise: chips short of it are made up to the minimum
raise, and where the chips contradict the words the floor decides (42-A) — never a call. A
player who pulls back a blind or an earlier bet facing a raise must call or raise (48-B).
Post-flop spots seat A, B, C, ... at seats 1, 2, 3, ... with the button on the last seat.
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
    chips,
    last_command,
    prompt_for,
    ruling,
    run,
    table,
    to_flop,
)

Config = dict[str, Any]


def _a_bets_2000() -> tuple[Config, list[Cmd]]:
    """1000-2000, three players: A (seat 1) opens the flop for 2,000; B (seat 2) to act."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=3, blinds=(1000, 2000))
    return cfg, [*to_flop(cfg), act(1, "bet", 2000)]


# --- 42-A / 53-A: "raise" with chips short of the call -------------------------------------


def test_42_a_raise_said_before_chips_short_of_the_call_is_a_minimum_raise() -> None:
    """42-A, 53-A: B says "raise" first, then puts out one 1,000 chip against the 2,000 bet:
    the words came first and bind a raise, made up to the minimum raise (4,000)."""
    cfg, cmds = _a_bets_2000()
    events = run(cfg, [*cmds, act(2, "raise", chips=[1000], first="verbal")])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 2), "raise", 4000, rules=("42-A", "53-A"), returned=0)
    assert prompt_for(events, 3)["to_call"] == 4000


def test_42_a_raise_with_chips_short_of_the_call_at_once_goes_to_the_floor() -> None:
    """42-A: "raise" said as one 1,000 chip goes out: words and chips contradict (the chips are
    not even a call), so the floor decides — a minimum raise or a call, never a silent call."""
    cfg, cmds = _a_bets_2000()
    both = act(2, "raise", chips=[1000])
    events = run(cfg, [*cmds, both])
    call = last(events, "floor_call")
    assert (call["seat"], call["rule"]) == (2, "42-A")
    assert sorted(call["options"]) == ["call", "raise_min"]
    assert not actions_of(last_command(events), 2)
    assert "seat 2" in call["text"] and "42-A" in call["text"]

    raised = run(cfg, [*cmds, both, ruling(call, "raise_min")])
    assert_ruling(action_of(raised, 2), "raise", 4000, rules=("42-A",))
    assert prompt_for(raised, 3)["to_call"] == 4000

    called = run(cfg, [*cmds, both, ruling(call, "call")])
    assert_ruling(action_of(called, 2), "call", 2000, rules=("42-A",))
    assert prompt_for(called, 3)["to_call"] == 2000


def test_42_a_chips_before_the_word_raise_are_read_as_chips() -> None:
    """42-A, the other side: the 1,000 chip went out before "raise" was said, so the chips
    decide: an under-call of the opening bet, which must be a full call (53-B)."""
    cfg, cmds = _a_bets_2000()
    events = run(cfg, [*cmds, act(2, "raise", chips=[1000], first="chips")])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 2), "call", 2000, rules=("42-A", "53-B"))


def test_53_a_raise_with_exactly_the_call_is_a_minimum_raise() -> None:
    """53-A: "raise" with two 1,000 chips (exactly the 2,000 call) binds a raise: made up to
    4,000; without the word the same chips are a call (47-A)."""
    cfg, cmds = _a_bets_2000()
    raised = run(cfg, [*cmds, act(2, "raise", chips=[1000, 1000])])
    assert_ruling(action_of(raised, 2), "raise", 4000, rules=("53-A",))

    called = run(cfg, [*cmds, chips(2, 1000, 1000)])
    assert_ruling(action_of(called, 2), "call", 2000, rules=("47-A",))


# --- 45-A: the declared raise is exempt from the 50% rule ----------------------------------


def test_45_a_raise_said_first_with_less_than_half_a_raise_is_a_full_raise() -> None:
    """45-A: against 2,000, "raise" then 2,500 (a 500 raise, less than half the 2,000 minimum)
    is made a full raise to 4,000; the same chips pushed silently are a call (500 back)."""
    cfg, cmds = _a_bets_2000()
    pushed = [1000, 1000, 500]
    raised = run(cfg, [*cmds, act(2, "raise", chips=pushed, first="verbal")])
    assert_ruling(action_of(raised, 2), "raise", 4000, rules=("45-A",), returned=0)

    called = run(cfg, [*cmds, chips(2, *pushed)])
    assert_ruling(action_of(called, 2), "call", 2000, rules=("45-A",), returned=500)


def test_45_a_raise_said_first_at_half_a_raise_or_more_is_a_full_raise() -> None:
    """45-A: "raise" then 3,000 (half the minimum raise) is made up to 4,000, as the same chips
    pushed silently are (the 50% rule)."""
    cfg, cmds = _a_bets_2000()
    pushed = [1000, 1000, 1000]
    raised = run(cfg, [*cmds, act(2, "raise", chips=pushed, first="verbal")])
    assert_ruling(action_of(raised, 2), "raise", 4000, rules=("45-A",))

    silent = run(cfg, [*cmds, chips(2, *pushed)])
    assert_ruling(action_of(silent, 2), "raise", 4000, rules=("45-A",))


# --- 48-B: pulling back a blind or earlier bet facing a raise -------------------------------


def _bb_faces_600() -> tuple[Config, list[Cmd]]:
    """Addendum 48, situation 1: 25-50, the BB (seat 3) posted 50, the button (seat 1) raises
    to 600 and the small blind (seat 2) folds: the BB faces 550 more."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=1, blinds=(25, 50))
    return cfg, [{"type": "start_hand"}, act(1, "raise", 600), act(2, "fold")]


def test_48_b_pulling_back_the_blind_facing_a_raise_binds_a_call_or_raise() -> None:
    """48-B: the BB pulls its posted 50 back and folds: it may not fold; the log records why
    and the BB stays to act with call or raise only."""
    cfg, cmds = _bb_faces_600()
    pulled = act(3, "fold", prior="pulled")
    events = run(cfg, [*cmds, pulled])
    limited = last(events, "action_limited")
    assert (limited["seat"], limited["rules"]) == (3, ["48-B"])
    assert sorted(limited["options"]) == ["call", "raise"]
    assert "Seat 3" in limited["text"] and "48-B" in limited["text"]
    assert not actions_of(last_command(events), 3)
    p = prompt_for(events, 3)
    assert p["options"] == ["call", "raise"]
    assert p["to_call"] == 550

    refused = play(cfg, [*cmds, pulled, act(3, "fold")])
    assert refused[-1]["type"] == "error" and refused[-1]["rule"] == "48-B"

    called = run(cfg, [*cmds, pulled, act(3, "call")])
    assert_ruling(action_of(called, 3), "call", 600)


def test_48_b_a_fold_with_the_blind_left_in_front_stands() -> None:
    """48-B, the other side: the BB leaves its 50 where it is and folds: a fold."""
    cfg, cmds = _bb_faces_600()
    events = run(cfg, [*cmds, act(3, "fold")])
    assert not of_type(events, "action_limited")
    assert_ruling(action_of(events, 3), "fold", 50)


def test_48_b_binds_only_the_action_facing_the_raise() -> None:
    """48-B: the bound call or raise is that action's. A (seat 1) bet 100 on the flop and faces
    a raise to 400; it pulls its 100 back and folds, so it must call or raise: it raises to
    1,200. Re-raised to 3,000 later on the street, A may fold."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP, 4: DEEP}, button=4, blinds=(25, 50))
    cmds = [
        *to_flop(cfg),
        act(1, "bet", 100),
        act(2, "raise", 400),
        act(3, "call"),
        act(4, "call"),
        act(1, "fold", prior="pulled"),
        act(1, "raise", 1200),
        act(2, "raise", 3000),
        act(3, "fold"),
        act(4, "fold"),
    ]
    events = run(cfg, cmds)
    assert_ruling(action_of(events, 1), "raise", 1200)
    assert "fold" in prompt_for(events, 1)["options"]
    folded = run(cfg, [*cmds, act(1, "fold")])
    assert_ruling(action_of(folded, 1), "fold", 1200)
