"""Worked examples of the betting rules (2026 TDA rules 45, 49, 53, 56, 59, 63 and seed 003).

Each test is one example with numbers from the seeds (seed 001 = 2026 rules and Illustration
Addendum, Japanese; seed 003 = the re-opening clarification, English, old numbering), played
through the replay commands. Post-flop examples seat the lettered players A, B, C, ... at
seats 1, 2, 3, ... with the button on the last of them, so the post-flop order is A, B, C, ...
"""

from __future__ import annotations

from tests.support import last, of_type
from tests.test_seed_common import (
    act,
    action_of,
    assert_ruling,
    chips,
    deal,
    prompt_for,
    run,
    table,
    to_flop,
    to_turn,
    with_ruling,
)

DEEP = 1_000_000


def lettered(n: int, blinds: tuple[int, int], **stacks: int) -> dict:
    """Seats 1..n for players A.. (A = 1), button on seat n; ``stacks`` overrides by letter."""
    letters = "ABCDEFGHIJ"
    seats = {i + 1: stacks.get(letters[i], DEEP) for i in range(n)}
    return table(seats, button=n, blinds=blinds)


# --- Rule 45: raise amounts ---------------------------------------------------------------


def _45a_open_1000() -> tuple[dict, list]:
    # A = seat 1 opens 1,000 post-flop; B = seat 2 answers; C = seat 3 (button).
    cfg = lettered(3, (100, 200))
    return cfg, [*to_flop(cfg), act(1, "bet", 1000)]


def test_45a_example_spoken_1400() -> None:
    """45-A: open bet 1,000; saying "1,400" without first saying "raise" is a call (42-C)."""
    cfg, cmds = _45a_open_1000()
    events = run(cfg, [*cmds, act(2, amount=1400)])
    assert_ruling(action_of(events, 2), "call", 1000, rules=("45-A",))


def test_45a_example_chips_1400() -> None:
    """45-A: open bet 1,000; silently pushing 1,400 (1,000 + four 100s) is a call."""
    cfg, cmds = _45a_open_1000()
    events = run(cfg, [*cmds, chips(2, 1000, 100, 100, 100, 100)])
    assert_ruling(action_of(events, 2), "call", 1000, rules=("45-A",), returned=400)


def test_45b_example() -> None:
    """45-B: A opens 2,000; B says "raise, 8,000": the raise is to 8,000 in total."""
    cfg = lettered(3, (500, 1000))  # A = 1, B = 2, C = 3
    events = run(cfg, [*to_flop(cfg), act(1, "bet", 2000), act(2, "raise", 8000)])
    assert_ruling(action_of(events, 2), "raise", 8000, rules=("45-B",))
    p = prompt_for(events, 3)
    assert p["to_call"] == 8000
    assert p["min_raise_to"] == 14000


def test_45_addendum_example_1() -> None:
    """Addendum 45 ex. 1: 600, raise to 1,600, re-raise to 3,600: D must make it 5,600."""
    cfg = lettered(4, (100, 200))  # A = 1, B = 2, C = 3, D = 4
    events = run(
        cfg,
        [*to_flop(cfg), act(1, "bet", 600), act(2, "raise", 1600), act(3, "raise", 3600)],
    )
    assert action_of(events, 2)["total"] == 1600
    assert action_of(events, 3)["total"] == 3600
    p = prompt_for(events, 4)
    assert p["to_call"] == 3600
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 5600


def test_45_addendum_example_2() -> None:
    """Addendum 45 ex. 2: 50-100, UTG all-in for 150 pre-flop: B must re-raise to 250 or more."""
    # SB = 1, BB = 2, A = UTG = seat 3 (150 in all), B = seat 4, button = seat 5.
    cfg = table({1: DEEP, 2: DEEP, 3: 150, 4: DEEP, 5: DEEP}, button=5, blinds=(50, 100))
    events = run(cfg, [{"type": "start_hand"}, act(3, "all_in")])
    a = action_of(events, 3)
    assert (a["action"], a["total"], a["all_in"]) == ("raise", 150, True)
    p = prompt_for(events, 4)
    assert p["to_call"] == 150
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 250


def test_45_addendum_example_3() -> None:
    """Addendum 45 ex. 3: on the turn A bets 300, B pushes two 500s (a raise to 1,000):
    C's minimum raise is to 1,700 (700 more), not 2,000.
    """
    cfg = lettered(3, (100, 200))  # A = 1, B = 2, C = 3
    events = run(cfg, [*to_turn(cfg), act(1, "bet", 300), chips(2, 500, 500)])
    assert_ruling(action_of(events, 2), "raise", 1000, returned=0)
    p = prompt_for(events, 3)
    assert p["to_call"] == 1000
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 1700


def _45_preflop_abcd() -> dict:
    # Button = 7, SB = 1, BB = 2; A = 3 (UTG), B = 4, C = 5, D = 6.
    return table({s: DEEP for s in range(1, 8)}, button=7, blinds=(25, 50))


def test_45_addendum_example_4a() -> None:
    """Addendum 45 ex. 4-A: 25-50, A to 125, B to 200, C to 500: D re-raises to 800 or more."""
    cfg = _45_preflop_abcd()
    events = run(
        cfg,
        [{"type": "start_hand"}, act(3, "raise", 125), act(4, "raise", 200), act(5, "raise", 500)],
    )
    assert [action_of(events, s)["total"] for s in (3, 4, 5)] == [125, 200, 500]
    p = prompt_for(events, 6)
    assert p["to_call"] == 500
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 800


def test_45_addendum_example_4b() -> None:
    """Addendum 45 ex. 4-B: 25-50, A raises to 500, B and C call: D calls 500 or re-raises
    to 950 or more.
    """
    cfg = _45_preflop_abcd()
    events = run(
        cfg, [{"type": "start_hand"}, act(3, "raise", 500), act(4, "call"), act(5, "call")]
    )
    p = prompt_for(events, 6)
    assert p["to_call"] == 500
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 950


# --- Rule 49 (addendum 49) and seed 003 (its "Rule 47" = 2026 Rule 49) ----------------------


def _49_example_1() -> tuple[dict, list]:
    # 50-100. A = 1 (SB), B = 2 (BB, 125 left after the flop), C = 3, D = 4 (200 left),
    # E = 5 (button).
    cfg = lettered(5, (50, 100), B=225, D=300)
    cmds = [
        *to_flop(cfg),
        act(1, "bet", 100),
        act(2, "all_in"),  # 125
        act(3, "call"),  # 125
        act(4, "all_in"),  # 200
        act(5, "call"),  # 200
    ]
    return cfg, cmds


def _check_49_example_1(events: list) -> None:
    assert action_of(events, 2)["total"] == 125
    assert action_of(events, 4)["total"] == 200
    p = prompt_for(events, 1)  # back to A, facing 100 more: a full raise in all
    assert p["to_call"] == 100
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 300  # the last full bet (100) stays the minimum raise


def _check_49_example_1a(events: list) -> None:
    assert_ruling(action_of(events, 1), "call", 200)
    p = prompt_for(events, 3)  # C called 125, faces 200: only 75 more
    assert p["to_call"] == 75
    assert p["can_raise"] is False
    assert p["min_raise_to"] is None


def _check_49_example_1b(events: list) -> None:
    assert_ruling(action_of(events, 1), "raise", 300)
    p = prompt_for(events, 3)  # C called 125, faces 300: 175 more, more than a full raise
    assert p["to_call"] == 175
    assert p["can_raise"] is True


def test_49_addendum_example_1() -> None:
    """Addendum 49 ex. 1: short all-ins of 25 and 75 add up to a full raise: A may raise."""
    cfg, cmds = _49_example_1()
    _check_49_example_1(run(cfg, cmds))


def test_49_addendum_example_1a() -> None:
    """Addendum 49 ex. 1-A: A just calls 200; C faces only 75 more: call or fold, no raise."""
    cfg, cmds = _49_example_1()
    _check_49_example_1a(run(cfg, [*cmds, act(1, "call")]))


def test_49_addendum_example_1b() -> None:
    """Addendum 49 ex. 1-B: A min-raises to 300; C faces 175 more: betting re-opened for C."""
    cfg, cmds = _49_example_1()
    _check_49_example_1b(run(cfg, [*cmds, act(1, "raise", 300)]))


def _49_example_2() -> tuple[dict, list]:
    # 50-100. A = 1, B = 2 (500 after the flop), C = 3 (650), D = 4 (800), E = 5, F = 6 (button).
    cfg = lettered(6, (50, 100), B=600, C=750, D=900)
    cmds = [
        *to_flop(cfg),
        act(1, "bet", 300),
        act(2, "all_in"),  # 500
        act(3, "all_in"),  # 650
        act(4, "all_in"),  # 800
        act(5, "call"),  # 800
    ]
    return cfg, cmds


def _check_49_example_2(events: list) -> None:
    assert [action_of(events, s)["total"] for s in (2, 3, 4, 5)] == [500, 650, 800, 800]
    p = prompt_for(events, 6)
    assert p["to_call"] == 800
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 1100


def test_49_addendum_example_2() -> None:
    """Addendum 49 ex. 2: 300 open, all-ins to 500, 650, 800: F calls 800 or raises to 1,100+."""
    cfg, cmds = _49_example_2()
    _check_49_example_2(run(cfg, cmds))


def _49_example_3() -> tuple[dict, list]:
    # 2000-4000 pre-flop. Button = 1, SB = 2, BB = 3, A = 4, B = 5, C = 6 (7,500 in all).
    cfg = table(
        {1: DEEP, 2: DEEP, 3: DEEP, 4: DEEP, 5: DEEP, 6: 7500}, button=1, blinds=(2000, 4000)
    )
    cmds = [
        {"type": "start_hand"},
        act(4, "call"),  # A calls the 4,000
        act(5, "fold"),  # B
        act(6, "all_in"),  # C all-in for 7,500 (3,500 more)
        act(1, "fold"),
        act(2, "fold"),  # the SB folds too
    ]
    return cfg, cmds


def _check_49_example_3_bb(events: list) -> None:
    assert action_of(events, 6)["total"] == 7500
    p = prompt_for(events, 3)  # the BB has not used its option
    assert p["to_call"] == 3500
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 11500


def _check_49_example_3a(events: list) -> None:
    assert_ruling(action_of(events, 3), "call", 7500)
    p = prompt_for(events, 4)  # A faces 3,500 more: not a full raise
    assert p["to_call"] == 3500
    assert p["can_raise"] is False
    assert p["min_raise_to"] is None


def _check_49_example_3b(events: list) -> None:
    assert_ruling(action_of(events, 3), "raise", 11500)
    p = prompt_for(events, 4)  # A faces 7,500 more: more than a full raise
    assert p["to_call"] == 7500
    assert p["can_raise"] is True


def test_49_addendum_example_3a() -> None:
    """Addendum 49 ex. 3-A: BB may raise to 11,500; it calls, and A (3,500 more) may not raise."""
    cfg, cmds = _49_example_3()
    _check_49_example_3_bb(run(cfg, cmds))
    _check_49_example_3a(run(cfg, [*cmds, act(3, "call")]))


def test_49_addendum_example_3b() -> None:
    """Addendum 49 ex. 3-B: BB min-raises to 11,500; A faces 7,500 more: re-opened for A."""
    cfg, cmds = _49_example_3()
    _check_49_example_3b(run(cfg, [*cmds, act(3, "raise", 11500)]))


def test_seed003_example_1() -> None:
    """Seed 003 example 1 ("Rule 47" there = 2026 Rule 49-A; same as addendum 49 ex. 1).

    The English text and the 2026 Japanese text agree on every number.
    """
    cfg, cmds = _49_example_1()
    _check_49_example_1(run(cfg, cmds))


def test_seed003_example_1a() -> None:
    """Seed 003 example 1-A (2026 Rule 49-A): A smooth calls 200; C faces 75: call or fold."""
    cfg, cmds = _49_example_1()
    _check_49_example_1a(run(cfg, [*cmds, act(1, "call")]))


def test_seed003_example_1b() -> None:
    """Seed 003 example 1-B (2026 Rule 49-A): A raises to 300; C faces 175: may re-raise."""
    cfg, cmds = _49_example_1()
    _check_49_example_1b(run(cfg, [*cmds, act(1, "raise", 300)]))


def test_seed003_example_2() -> None:
    """Seed 003 example 2 (2026 Rule 49-A; its "Rule 43" = 2026 Rule 45): F's min raise is 1,100."""
    cfg, cmds = _49_example_2()
    _check_49_example_2(run(cfg, cmds))


def test_seed003_example_3a() -> None:
    """Seed 003 example 3-A (2026 Rule 49-A): BB may raise to 11,500; after its call A may
    not raise.
    """
    cfg, cmds = _49_example_3()
    _check_49_example_3_bb(run(cfg, cmds))
    _check_49_example_3a(run(cfg, [*cmds, act(3, "call")]))


def test_seed003_example_3b() -> None:
    """Seed 003 example 3-B (2026 Rule 49-A): BB raises to 11,500; A faces 7,500: re-opened."""
    cfg, cmds = _49_example_3()
    _check_49_example_3b(run(cfg, [*cmds, act(3, "raise", 11500)]))


# --- Rule 53: binding declarations and under-calls -----------------------------------------


def _53_open_2000_raise_8000() -> tuple[dict, list]:
    # 1000-2000. A = 1 opens 2,000, B = 2 raises to 8,000, C = 3 (button) to act.
    cfg = lettered(3, (1000, 2000))
    return cfg, [*to_flop(cfg), act(1, "bet", 2000), act(2, "raise", 8000)]


def test_53_addendum_example_1() -> None:
    """Addendum 53 ex. 1: C silently puts 2,000 against B's 8,000 raise (not the opening bet,
    still multi-way): 53-B leaves it to the floor — a full call, or a fold forfeiting the 2,000.
    """
    cfg, cmds = _53_open_2000_raise_8000()
    under = chips(3, 1000, 1000)
    events = run(cfg, [*cmds, under])
    call = last(events, "floor_call")
    assert call["seat"] == 3
    assert call["rule"] == "53-B"
    assert sorted(call["options"]) == ["call", "fold"]

    _, called = with_ruling(cfg, [*cmds, under], "call")
    assert_ruling(action_of(called, 3), "call", 8000)

    # Fold: the 2,000 under-called stays in the pot; A then calls 8,000.
    _, folded = with_ruling(cfg, [*cmds, under], "fold", [act(1, "call")])
    # The fold leaves the 2,000 in front of C (its total on the street) for the pot.
    assert_ruling(action_of(folded, 3), "fold", 2000, returned=0)
    end = last(folded, "round_end")
    assert end["street"] == "flop"
    assert sum(end["pots"]) == 3 * 2000 + 8000 + 8000 + 2000


def test_53_addendum_example_2() -> None:
    """Addendum 53 ex. 2: 4 players, A opens 8,000, B silently puts 2,000: B must call 8,000."""
    cfg = lettered(4, (1000, 2000))  # A = 1, B = 2, C = 3, D = 4
    events = run(cfg, [*to_flop(cfg), act(1, "bet", 8000), chips(2, 1000, 1000)])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 2), "call", 8000, rules=("53-B",))


def test_53_addendum_example_3() -> None:
    """Addendum 53 ex. 3 (53-A): C says "call" to B's 8,000: C must call the full 8,000."""
    cfg, cmds = _53_open_2000_raise_8000()
    events = run(cfg, [*cmds, act(3, "call")])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 3), "call", 8000)


def test_53_addendum_example_3_call_then_2000() -> None:
    """Addendum 53 ex. 3 (53-A): "call" said first binds the full 8,000 even if only 2,000
    follows.
    """
    cfg, cmds = _53_open_2000_raise_8000()
    events = run(cfg, [*cmds, act(3, "call", chips=[1000, 1000], first="verbal")])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 3), "call", 8000, rules=("53-A",))


def _53_example_4() -> tuple[dict, list]:
    # 200-400. Opener = 1 bets 400, A = 2 raises to 1,200, B = 3 (button) puts one 500 chip.
    cfg = lettered(3, (200, 400))
    return cfg, [*to_flop(cfg), act(1, "bet", 400), act(2, "raise", 1200), chips(3, 500)]


def test_53_addendum_example_4() -> None:
    """Addendum 53 ex. 4: B's single 500 under-calls A's 1,200; at the floor's discretion B
    folds, forfeiting 400 (up to the opening bet) and taking 100 back.
    """
    cfg, cmds = _53_example_4()
    events = run(cfg, cmds)
    call = last(events, "floor_call")
    assert call["seat"] == 3
    assert call["rule"] == "53-B"
    assert sorted(call["options"]) == ["call", "fold"]

    _, folded = with_ruling(cfg, cmds, "fold", [act(1, "call")])
    # B forfeits 400 (its total on the street) and takes 100 back.
    assert_ruling(action_of(folded, 3), "fold", 400, returned=100)
    end = last(folded, "round_end")
    assert sum(end["pots"]) == 3 * 400 + 1200 + 1200 + 400

    _, called = with_ruling(cfg, cmds, "call")
    assert_ruling(action_of(called, 3), "call", 1200)


# --- Rule 56-B: pot-limit pre-flop pot size --------------------------------------------------


def test_56b_example_1() -> None:
    """56-B ex. 1: PLO 100-200, no small blind (dead), BB posts 200: the first pot bet is 700."""
    # Hand 1: button 1, SB 2, BB 3; all fold to the BB. Seat 3 then leaves, so in hand 2 the
    # button is on 2, the small blind (seat 3) is dead, seat 4 posts the BB, seat 5 acts first.
    cfg = table({s: 20000 for s in range(1, 6)}, button=1, blinds=(100, 200), game="PLO")
    cmds = [
        {"type": "start_hand"},
        act(4, "fold"),
        act(5, "fold"),
        act(1, "fold"),
        act(2, "fold"),
        {"type": "remove_player", "seat": 3},
        {"type": "start_hand"},
    ]
    events = run(cfg, cmds)
    start = last(events, "hand_start")
    assert start["small_blind"] is None
    assert start["big_blind"] == 4
    p = prompt_for(events, 5)
    assert p["max_raise_to"] == 700


def test_56b_example_2() -> None:
    """56-B ex. 2: PLO 100-200, SB posts 100, the short BB posts only 100: the first pot bet
    is 700.
    """
    # Button = 1, SB = 2, BB = 3 (100 in all), first to act = 4.
    cfg = table({1: 20000, 2: 20000, 3: 100, 4: 20000}, button=1, blinds=(100, 200), game="PLO")
    events = run(cfg, [{"type": "start_hand"}])
    p = prompt_for(events, 4)
    assert p["max_raise_to"] == 700


# --- Rule 59: "bet 5" -----------------------------------------------------------------------


def test_59_example_pot_under_5000() -> None:
    """59: NLHE 200-400, "bet 5" with less than 5,000 in the pot is a bet of 500."""
    cfg = lettered(3, (200, 400))  # pot 1,200 after the flop
    events = run(cfg, [*to_flop(cfg), act(1, "bet", 5)])
    assert_ruling(action_of(events, 1), "bet", 500, rules=("59",))


def test_59_example_pot_5000_or_more() -> None:
    """59: NLHE 200-400, "bet 5" with 5,000 in the pot is a bet of 5,000."""
    # Heads-up: seat 2 (button, SB) raises to 2,500, seat 1 (BB) calls: 5,000 in the pot.
    cfg = table({1: DEEP, 2: DEEP}, button=2, blinds=(200, 400))
    events = run(
        cfg,
        [
            {"type": "start_hand"},
            act(2, "raise", 2500),
            act(1, "call"),
            deal("flop"),
            act(1, "bet", 5),
        ],
    )
    assert_ruling(action_of(events, 1), "bet", 5000, rules=("59",))


# --- Rule 63: overbet for change ---------------------------------------------------------------


def test_63_example() -> None:
    """63: open bet 325; A silently puts 525 (a 500 and a 25) hoping for 200 change: by the
    multiple-chip rule (47) it is a raise to 650.
    """
    cfg = lettered(3, (100, 200))  # opener = 1, A = 2, C = 3
    events = run(cfg, [*to_flop(cfg), act(1, "bet", 325), chips(2, 500, 25)])
    assert_ruling(action_of(events, 2), "raise", 650, rules=("63", "47-B"))
