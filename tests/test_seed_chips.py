"""Worked examples of betting with chips (2026 TDA rules 47 and 48), from seed 001.

Post-flop examples seat the lettered players A, B, C, ... at seats 1, 2, 3, ... with the button
on the last of them, so the post-flop order is A, B, C, ...
"""

from __future__ import annotations

from tests.test_seed_common import (
    act,
    action_of,
    assert_ruling,
    chips,
    run,
    table,
    to_flop,
)

DEEP = 1_000_000


def lettered(n: int, blinds: tuple[int, int], **stacks: int) -> dict:
    """Seats 1..n for players A.. (A = 1), button on seat n; ``stacks`` overrides by letter."""
    letters = "ABCDEFGHIJ"
    seats = {i + 1: stacks.get(letters[i], DEEP) for i in range(n)}
    return table(seats, button=n, blinds=blinds)


# --- Rule 47-A (the rule's own examples) -----------------------------------------------------


def test_47a_example_1() -> None:
    """47-A ex. 1: A opens 400, B raises to 1,100; C silently puts a 500 and a 1,000: a call
    (without the 500 it would be short of 1,100).
    """
    cfg = lettered(3, (100, 200))  # A = 1, B = 2, C = 3
    events = run(
        cfg, [*to_flop(cfg), act(1, "bet", 400), act(2, "raise", 1100), chips(3, 500, 1000)]
    )
    assert_ruling(action_of(events, 3), "call", 1100, rules=("47-A",), returned=400)


def test_47a_example_2() -> None:
    """47-A ex. 2: 25-50, A opens 1,050 post-flop; B pushes his last chips, two 1,000s, without
    saying "raise" or "all-in": a call, not an all-in.
    """
    cfg = lettered(3, (25, 50), B=2050)  # A = 1, B = 2 (2,000 left after the flop), C = 3
    events = run(cfg, [*to_flop(cfg), act(1, "bet", 1050), chips(2, 1000, 1000)])
    assert_ruling(action_of(events, 2), "call", 1050, rules=("47-A",), returned=950, all_in=False)


# --- Addendum 47 -------------------------------------------------------------------------------


def test_47_addendum_example_1a() -> None:
    """Addendum 47 ex. 1-A: A opens 1,200; B silently puts two 1,000s: a call."""
    cfg = lettered(3, (100, 200))  # A = 1, B = 2, C = 3
    events = run(cfg, [*to_flop(cfg), act(1, "bet", 1200), chips(2, 1000, 1000)])
    assert_ruling(action_of(events, 2), "call", 1200, rules=("47-A",), returned=800)


def _47_example_1b() -> tuple[dict, list]:
    # 250-500 pre-flop. Button = 5, SB = 1, BB = 2, UTG = 3 raises to 1,100, UTG+1 = 4.
    cfg = table({s: DEEP for s in range(1, 6)}, button=5, blinds=(250, 500))
    return cfg, [{"type": "start_hand"}, act(3, "raise", 1100)]


def test_47_addendum_example_1b() -> None:
    """Addendum 47 ex. 1-B: 250-500, UTG raises to 1,100; UTG+1 silently puts a 500 and a
    1,000: a call.
    """
    cfg, cmds = _47_example_1b()
    events = run(cfg, [*cmds, chips(4, 500, 1000)])
    assert action_of(events, 3)["total"] == 1100
    assert_ruling(action_of(events, 4), "call", 1100, rules=("47-A",), returned=400)


def test_47_addendum_example_2() -> None:
    """Addendum 47 ex. 2: as 1-B but a 1,000 and five 100s (1,500): four 100s could go and 1,100
    would remain, so the 50% rule applies: 1,400 or more must be a full raise to 1,700.

    The English original's last sentence says "UTG must raise"; the 2026 Japanese text (which
    wins) notes the slip and says UTG+1, the seat that pushed the chips.
    """
    cfg, cmds = _47_example_1b()
    events = run(cfg, [*cmds, chips(4, 1000, 100, 100, 100, 100, 100)])
    assert_ruling(action_of(events, 4), "raise", 1700, rules=("47-B", "45-A"))


def test_47_addendum_example_3() -> None:
    """Addendum 47 ex. 3: as 2 but a 1,000 and three 100s (1,300): under half a raise: a call,
    200 returned.
    """
    cfg, cmds = _47_example_1b()
    events = run(cfg, [*cmds, chips(4, 1000, 100, 100, 100)])
    assert_ruling(action_of(events, 4), "call", 1100, rules=("47-B", "45-A"), returned=200)


def _47_open_1400(b_stack: int = DEEP) -> tuple[dict, list]:
    # A = 1 opens 1,400 post-flop, B = 2, C = 3 (button). Blinds 100-200.
    cfg = lettered(3, (100, 200), B=b_stack + 200)
    return cfg, [*to_flop(cfg), act(1, "bet", 1400)]


def test_47_addendum_example_4a() -> None:
    """Addendum 47 ex. 4-A: 1,400 open; B (chips behind) silently a 1,000 and three 500s (2,500):
    past the 50% mark of 2,100, so a minimum raise to 2,800.
    """
    cfg, cmds = _47_open_1400()
    events = run(cfg, [*cmds, chips(2, 1000, 500, 500, 500)])
    assert_ruling(action_of(events, 2), "raise", 2800, rules=("47-B",), all_in=False)


def test_47_addendum_example_4b() -> None:
    """Addendum 47 ex. 4-B: 1,400 open; B (chips behind) a 1,000 and two 500s (2,000): under
    2,100, a call.
    """
    cfg, cmds = _47_open_1400()
    events = run(cfg, [*cmds, chips(2, 1000, 500, 500)])
    assert_ruling(action_of(events, 2), "call", 1400, rules=("47-B",), returned=600)


def test_47_addendum_note_4a_last_chips() -> None:
    """Addendum 47 note on 4-A: had those 2,500 been B's last chips, B is all-in (for 2,500)."""
    cfg, cmds = _47_open_1400(b_stack=2500)
    events = run(cfg, [*cmds, chips(2, 1000, 500, 500, 500)])
    assert_ruling(action_of(events, 2), "raise", 2500, all_in=True, returned=0, rules=("47-B",))


def test_47_addendum_note_4b_last_chips() -> None:
    """Addendum 47 note on 4-B: had those 2,000 been B's last chips, B is all-in (for 2,000),
    though under the 50% mark (47-B-2).
    """
    cfg, cmds = _47_open_1400(b_stack=2000)
    events = run(cfg, [*cmds, chips(2, 1000, 500, 500)])
    assert_ruling(action_of(events, 2), "raise", 2000, all_in=True, returned=0, rules=("47-B",))


# --- Addendum 48: earlier chips not yet pulled in ------------------------------------------------


# The English original of addendum 48 refers to "Rule 45" for the multiple-chip bet; the 2026
# Japanese text (which wins) corrects it to Rule 47, so these rulings cite 47.


def _48_setup() -> tuple[dict, list]:
    """Hold'em 25-50: the BB posted two 25s; the button raises to 600 (550 more for the BB).

    Three-handed: button = seat 1 (acts first pre-flop), SB = seat 2 (folds), BB = seat 3.
    The minimum raise is 550 more (to 1,150); half of it is 275 (the 50% mark: 875 in all).
    """
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=1, blinds=(25, 50))
    return cfg, [{"type": "start_hand"}, act(1, "raise", 600), act(2, "fold")]


def _cites_one(event: dict, *rules: str) -> None:
    assert set(rules) & set(event["rules"]), f"none of {rules} cited: {event['rules']}"


def test_48_situation_1_1() -> None:
    """Addendum 48 situation 1-1: the two 25s are left in front; one 1,000 chip added: a call."""
    cfg, cmds = _48_setup()
    events = run(cfg, [*cmds, chips(3, 1000, prior="left")])
    ruled = action_of(events, 3)
    assert_ruling(ruled, "call", 600, returned=450)
    _cites_one(ruled, "48-C", "46")


def test_48_situation_1_2a() -> None:
    """Addendum 48 situation 1-2a: two 500s added to the two 25s: all are needed: a call."""
    cfg, cmds = _48_setup()
    events = run(cfg, [*cmds, chips(3, 500, 500, prior="left")])
    ruled = action_of(events, 3)
    assert_ruling(ruled, "call", 600, returned=450)
    _cites_one(ruled, "48-C", "47-A")


def test_48_situation_1_2b() -> None:
    """Addendum 48 situation 1-2b: a 100 and a 500 added to the two 25s: all needed: a call."""
    cfg, cmds = _48_setup()
    events = run(cfg, [*cmds, chips(3, 100, 500, prior="left")])
    ruled = action_of(events, 3)
    assert_ruling(ruled, "call", 600, returned=50)
    _cites_one(ruled, "48-C", "47-A")


def test_48_situation_1_3() -> None:
    """Addendum 48 situation 1-3: a 1,000 and a 500 added to the two 25s (1,550 in all): the
    500 is not needed, so rule 47 applies: past the 50% mark, a raise to 1,550.
    """
    cfg, cmds = _48_setup()
    events = run(cfg, [*cmds, chips(3, 1000, 500, prior="left")])
    ruled = action_of(events, 3)
    assert_ruling(ruled, "raise", 1550, returned=0, rules=("47-B",))


def test_48_situation_2_1() -> None:
    """Addendum 48 situation 2-1: both 25s pulled back, one 1,000 chip put out: a call."""
    cfg, cmds = _48_setup()
    events = run(cfg, [*cmds, chips(3, 1000, prior="pulled")])
    ruled = action_of(events, 3)
    assert_ruling(ruled, "call", 600, returned=400)
    _cites_one(ruled, "48-C", "46")


def test_48_situation_2_2() -> None:
    """Addendum 48 situation 2-2: both 25s pulled back, a 1,000 and a 500 put out: a rule 47
    bet: without the 500 it still covers 600, and 1,500 is past the 50% mark: a raise to 1,500.
    """
    cfg, cmds = _48_setup()
    events = run(cfg, [*cmds, chips(3, 1000, 500, prior="pulled")])
    ruled = action_of(events, 3)
    assert_ruling(ruled, "raise", 1500, returned=0, rules=("47-B",))


def test_48_situation_2_2_all_needed() -> None:
    """Addendum 48 situation 2-2: both 25s pulled back, a 500 and a 100 put out: every chip is
    needed for 600: a call (47-A).
    """
    cfg, cmds = _48_setup()
    events = run(cfg, [*cmds, chips(3, 500, 100, prior="pulled")])
    assert_ruling(action_of(events, 3), "call", 600, returned=0, rules=("47-A",))


def test_48_situation_3() -> None:
    """Addendum 48 situation 3: one 25 pulled back, one left, a 1,000 added (1,025 in front):
    a rule 47 multiple-chip bet by the 50% rule: 1,025 is past 875, so a full raise to 1,150.
    """
    cfg, cmds = _48_setup()
    events = run(cfg, [*cmds, chips(3, 25, 1000, prior="partly_pulled")])
    ruled = action_of(events, 3)
    assert_ruling(ruled, "raise", 1150, returned=0, rules=("47-B",))


def test_48_situation_3_under_half() -> None:
    """Addendum 48 situation 3: one 25 left, a 500 and a 100 added (625 in front): a rule 47
    bet under the 50% mark: a call, 25 returned.
    """
    cfg, cmds = _48_setup()
    events = run(cfg, [*cmds, chips(3, 25, 500, 100, prior="partly_pulled")])
    ruled = action_of(events, 3)
    assert_ruling(ruled, "call", 600, returned=25, rules=("47-B",))
