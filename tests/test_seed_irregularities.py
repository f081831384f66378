"""Worked examples of the irregularity rules of the 2026 TDA rules: 37 (misdeals, fouled deck),
38 (substantial action), 40 (burns after SA), 51/62 (accepted action, stack counts),
53-C (several under-calls in a row) and 54 (under-raises, pot-limit miscounts).

Seeds: 001 (the 2026 rules and Illustration Addendum, Japanese: the authority) and the English
text of 38, 40, 51 and 62 in shared/RULES.md (the translation skips those numbers). Each test
plays the example through the replay commands; the seat that plays each lettered player is
named in a comment. The examples of 53 (1-4) are in tests/test_seed_betting.py.
"""

from __future__ import annotations

import re
from typing import Any

from tests.support import last, of_type, play
from tests.test_seed_common import (
    DEEP,
    Cmd,
    Event,
    act,
    action_of,
    assert_ruling,
    chips,
    deal,
    index_of,
    prompt_for,
    ruling,
    run,
    table,
    to_flop,
)

CHIPS = [25, 100, 500, 1000, 5000]


def irregularity(kind: str, seat: int | None = None, **extra: Any) -> Cmd:
    cmd: Cmd = {"type": "irregularity", "kind": kind}
    if seat is not None:
        cmd["seat"] = seat
    cmd.update(extra)
    return cmd


def after(events: list[Event], kind: str) -> list[Event]:
    """The events after the last event of type ``kind``."""
    i = max(i for i, e in enumerate(events) if e["type"] == kind)
    return events[i + 1 :]


def stacks(events: list[Event]) -> dict[int, int]:
    return {int(k): v for k, v in last(events, "hand_end")["stacks"].items()}


def starting(cfg: dict) -> dict[int, int]:
    return {int(k): v for k, v in cfg["seats"].items()}


# --- 37: misdeals and the fouled deck --------------------------------------------------------


def _six_handed() -> dict:
    # Seats 1-6, button 6: SB = 1, BB = 2, UTG = 3. Blinds 100-200.
    return table({s: DEEP for s in range(1, 7)}, button=6, blinds=(100, 200), chips=CHIPS)


def _check_redeal(events: list[Event], cfg: dict) -> None:
    """A misdeal of hand 1 followed by the re-deal of the very same hand (37-C)."""
    starts = of_type(events, "hand_start")
    assert len(starts) == 2, [e["type"] for e in events]
    original, redeal = starts
    misdeal = last(events, "misdeal")
    assert misdeal["hand"] == 1
    assert {"37-A", "37-C"} <= set(misdeal["rules"])
    assert index_of(events, lambda e: e is misdeal) < index_of(events, lambda e: e is redeal)
    # The re-deal re-creates the hand: same number, button, blinds and dealt seats.
    for field in ("hand", "button", "small_blind", "big_blind", "blinds", "ante", "dealt"):
        assert redeal[field] == original[field], (field, original[field], redeal[field])


def test_37_misdeal_before_sa_recreates_hand() -> None:
    """37-A/37-C: a misdeal declared before substantial action (only UTG has called) voids the
    hand; every chip goes back and the re-deal re-creates it — the button does not move and the
    betting limits do not change, even though a new level was announced during the hand (25).
    """
    cfg = _six_handed()
    cmds = [
        {"type": "start_hand"},
        act(3, "call"),  # one action only: no substantial action yet (38)
        {"type": "level", "blinds": [200, 400]},  # applies from the next hand, not the re-deal
        {"type": "misdeal", "reason": "two boxed cards on the first deal"},
    ]
    events = run(cfg, cmds)
    _check_redeal(events, cfg)
    redeal = last(events, "hand_start")
    assert redeal["blinds"] == [100, 200]
    assert redeal["button"] == 6
    assert (redeal["small_blind"], redeal["big_blind"]) == (1, 2)

    # Everyone folds to the big blind: seat 3's call of the voided deal came back to it.
    folds = [act(s, "fold") for s in (3, 4, 5, 6, 1)]
    events = run(cfg, [*cmds, *folds])
    end = last(events, "hand_end")
    assert end["hand"] == 1
    expected = {s: DEEP for s in range(1, 7)}
    expected[1] -= 100
    expected[2] += 100
    assert stacks(events) == expected
    assert sum(stacks(events).values()) == sum(starting(cfg).values())


def test_37_c_level_announced_during_misdealt_hand_applies_next_hand() -> None:
    """37-C with 25-A: the re-deal keeps the old limits, but the level announced during the
    misdealt hand is not lost: the next hand (hand 2, button moved on) is at 200-400.
    """
    cfg = _six_handed()
    cmds = [
        {"type": "start_hand"},
        act(3, "call"),
        {"type": "level", "blinds": [200, 400]},
        {"type": "misdeal", "reason": "two boxed cards on the first deal"},
        *[act(s, "fold") for s in (3, 4, 5, 6, 1)],
        {"type": "start_hand"},
    ]
    events = run(cfg, cmds)
    redeal = of_type(events, "hand_start")[1]
    assert redeal["blinds"] == [100, 200]
    nxt = last(events, "hand_start")
    assert nxt["hand"] == 2
    assert nxt["button"] == 1
    assert nxt["blinds"] == [200, 400]


def test_37_d_no_misdeal_after_sa() -> None:
    """37-D: once substantial action has happened (UTG and the next seat both called: two
    actions with chips, 38), no misdeal can be declared; the hand goes on.
    """
    cfg = _six_handed()
    cmds = [{"type": "start_hand"}, act(3, "call"), act(4, "call")]
    events = play(cfg, [*cmds, {"type": "misdeal", "reason": "boxed card"}])
    err = events[-1]
    assert err["type"] == "error", err
    assert err["rule"] == "37-D"
    assert not of_type(events, "misdeal")
    assert len(of_type(events, "hand_start")) == 1
    # Nothing changed: seat 5 is still to act.
    events = run(cfg, cmds)
    assert prompt_for(events, 5)["to_call"] == 200
    events = play(cfg, [*cmds, {"type": "misdeal"}, act(5, "call")])
    assert_ruling(action_of(events, 5), "call", 200)


def test_37_e_fouled_deck_returns_every_bet() -> None:
    """37-E: a fouled deck found on the flop, after substantial action: play stops and every
    bet goes back — the hand ends void with the stacks as they were before it.
    """
    cfg = _six_handed()
    cmds = [
        *to_flop(cfg),
        act(1, "bet", 500),
        act(2, "raise", 1500),
        {"type": "fouled_deck", "reason": "two aces of spades"},
    ]
    events = run(cfg, cmds)
    end = last(events, "hand_end")
    assert end["void"] is True
    assert stacks(events) == starting(cfg)
    # Play goes on: the next deal is accepted.
    events = run(cfg, [*cmds, {"type": "start_hand"}])
    assert len(of_type(events, "hand_start")) == 2


def test_37_e_fouled_deck_before_sa() -> None:
    """37-E: a fouled deck before substantial action also voids the hand, blinds back."""
    cfg = _six_handed()
    events = run(cfg, [{"type": "start_hand"}, act(3, "call"), {"type": "fouled_deck"}])
    assert last(events, "hand_end")["void"] is True
    assert stacks(events) == starting(cfg)


def test_37_a_5_wrong_card_count_before_sa_is_misdeal() -> None:
    """37-A-5: a seat dealt the wrong number of cards, found before substantial action (only
    UTG has folded), is a misdeal: the hand is re-dealt as it was (37-C).
    """
    cfg = _six_handed()
    events = run(
        cfg,
        [{"type": "start_hand"}, act(3, "fold"), irregularity("wrong_card_count", 5)],
    )
    _check_redeal(events, cfg)
    # The re-dealt hand starts over with UTG (seat 3) to act, its fold void.
    assert prompt_for(events, 3)["to_call"] == 200


# --- 38: substantial action --------------------------------------------------------------------


def test_38_sa_two_actions_one_with_chips() -> None:
    """38-A: a fold and a call (chips in) are substantial action; one event per hand."""
    cfg = _six_handed()
    events = run(cfg, [{"type": "start_hand"}, act(3, "fold")])
    assert not of_type(events, "substantial_action")
    events = run(cfg, [{"type": "start_hand"}, act(3, "fold"), act(4, "call"), act(5, "call")])
    sa = of_type(events, "substantial_action")
    assert len(sa) == 1
    assert "38" in sa[0]["rules"]
    i = index_of(events, lambda e: e["type"] == "substantial_action")
    j = index_of(events, lambda e: e["type"] == "action" and e["seat"] == 4)
    assert i > j, "SA is reached by seat 4's call"


def test_38_sa_three_actions() -> None:
    """38-B: any three actions are substantial action; two folds are not."""
    cfg = _six_handed()
    two = run(cfg, [{"type": "start_hand"}, act(3, "fold"), act(4, "fold")])
    assert not of_type(two, "substantial_action")
    three = run(cfg, [{"type": "start_hand"}, act(3, "fold"), act(4, "fold"), act(5, "fold")])
    assert len(of_type(three, "substantial_action")) == 1


# --- 40: burns after SA (addendum 40, examples 1-A and 1-B) -------------------------------------


def _40_example(cards: list[str]) -> tuple[dict, list[Cmd]]:
    # Hold'em 50-100. Seat 1 SB, seat 2 BB (seats 1-6, button 6). Seat 3 (UTG) folds, seat 4
    # calls: substantial action (two actions, one with chips). Then seat 5 is found to hold
    # the wrong number of cards.
    cfg = table({s: DEEP for s in range(1, 7)}, button=6, blinds=(50, 100), chips=CHIPS)
    cmds = [
        {"type": "start_hand"},
        act(3, "fold"),
        act(4, "call"),
        irregularity("wrong_card_count", 5, cards=cards),
    ]
    return cfg, cmds


def _check_40(cfg: dict, cmds: list[Cmd], misdealt: list[str]) -> None:
    events = run(cfg, cmds)
    assert not of_type(events, "misdeal"), "after SA there is no misdeal (37-D)"
    assert len(of_type(events, "hand_start")) == 1
    irr = last(events, "irregularity")
    assert irr["kind"] == "wrong_card_count"
    assert irr["seat"] == 5
    assert "40" in irr["rules"]
    text = irr["text"].lower()
    assert "burn" in text, irr
    assert re.search(r"\b(one|1|single|exactly)\b", text), irr
    # Never a misdealt card as the burn.
    assert irr["burn"] not in misdealt, irr
    fold = action_of(events, 5)
    assert fold["action"] == "fold"
    assert "40" in fold["rules"]
    p = prompt_for(events, 6)
    assert p["to_call"] == 100

    # The hand goes on without seat 5; the flop comes with the usual single burn.
    rest = [act(6, "call"), act(1, "call"), act(2, "check"), deal("flop")]
    events = run(cfg, [*cmds, *rest])
    assert last(events, "dealt")["street"] == "flop"


def test_40_example_1a() -> None:
    """Addendum 40 ex. 1-A: after SA seat 5 holds one card: its hand is dead; the dealer burns
    exactly one card for the flop, never two "to restore the stub".
    """
    cfg, cmds = _40_example(["As"])
    _check_40(cfg, cmds, ["As"])


def test_40_example_1b() -> None:
    """Addendum 40 ex. 1-B: after SA seat 5 holds three cards: its hand is dead; the dealer
    burns one card from the stub — seat 5's third card is never used as the burn.
    """
    cfg, cmds = _40_example(["As", "Kd", "7c"])
    _check_40(cfg, cmds, ["As", "Kd", "7c"])


# --- 51 / 62: stack counts and accepted action -------------------------------------------------


def _51_spot() -> tuple[dict, list[Cmd]]:
    # 100-200. Seats 1-3, button 3 (SB = 1, BB = 2). Seat 2 has 7,550: after the limp it moves
    # all-in for 7,350 on the flop over seat 1's 1,000 bet. Seat 3 (to act) faces the all-in.
    cfg = table({1: DEEP, 2: 7550, 3: DEEP}, button=3, blinds=(100, 200), chips=CHIPS)
    cmds = [*to_flop(cfg), act(1, "bet", 1000), act(2, "all_in")]
    return cfg, cmds


def test_62_count_of_allin_by_seat_to_act() -> None:
    """62: seat 3, facing the all-in and to act, asks for a count: the true 7,350."""
    cfg, cmds = _51_spot()
    events = run(cfg, cmds)
    assert_ruling(action_of(events, 2), "raise", 7350, all_in=True)
    events = run(cfg, [*cmds, {"type": "count", "seat": 3, "of": 2}])
    ans = last(events, "answer")
    assert ans["seat"] == 3
    assert ans["question"] == "count"
    assert ans["amount"] == 7350
    assert "62" in ans["rules"]


def test_62_count_only_by_seat_to_act_facing_allin() -> None:
    """62: a precise count may be asked only by a player facing an all-in whose turn it is."""
    cfg, cmds = _51_spot()
    # Seat 1 faces the all-in but it is not its turn.
    events = play(cfg, [*cmds, {"type": "count", "seat": 1, "of": 2}])
    assert events[-1]["type"] == "error", events[-1]
    assert events[-1]["rule"] == "62"
    # Seat 1 is not all-in: no precise count of its stack.
    events = play(cfg, [*cmds, {"type": "count", "seat": 3, "of": 1}])
    assert events[-1]["type"] == "error", events[-1]
    assert events[-1]["rule"] == "62"


def test_51_accepted_action_after_wrong_count() -> None:
    """51: seat 3 asks for the count of seat 2's all-in (7,350), the dealer says "6,350" and
    seat 3 pushes 6,350: seat 3 has accepted the full action and calls 7,350 — no under-call
    floor decision (53-B would otherwise apply: a raise, multi-way).
    """
    cfg, cmds = _51_spot()
    asked = [*cmds, {"type": "count", "seat": 3, "of": 2, "told": 6350}]
    events = run(cfg, asked)
    ans = last(events, "answer")
    assert ans["amount"] == 7350
    assert "62" in ans["rules"]

    pushed = chips(3, 5000, 1000, 100, 100, 100, 25, 25)  # 6,350
    events = run(cfg, [*asked, pushed])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 3), "call", 7350, rules=("51",))
    assert prompt_for(events, 1)["to_call"] == 6350

    spoken = act(3, amount=6350)
    events = run(cfg, [*asked, spoken])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 3), "call", 7350, rules=("51",))


# --- 53-C: several under-calls in a row --------------------------------------------------------


def _53c_spot() -> tuple[dict, list[Cmd]]:
    # 1000-2000. A = 1, B = 2, C = 3, D = 4 (button 4). On the flop A opens 2,000, B raises to
    # 8,000; C silently puts 2,000, then D silently puts 2,000 too: two under-calls in a row.
    cfg = table({s: DEEP for s in range(1, 5)}, button=4, blinds=(1000, 2000), chips=CHIPS)
    cmds = [
        *to_flop(cfg),
        act(1, "bet", 2000),
        act(2, "raise", 8000),
        chips(3, 1000, 1000),
        chips(4, 1000, 1000),
    ]
    return cfg, cmds


def _53c_calls(events: list[Event]) -> tuple[Event, Event]:
    calls = of_type(events, "floor_call")
    assert len(calls) == 2, calls
    first, second = calls
    assert (first["seat"], first["rule"]) == (3, "53-B")
    assert (second["seat"], second["rule"]) == (4, "53-C")
    assert {"call", "fold"} <= set(first["options"])
    assert {"call", "fold"} <= set(second["options"])
    assert first["call"] != second["call"]
    return first, second


def test_53_c_two_under_calls() -> None:
    """53-C: two under-calls in a row: play backs up to the first under-caller (C), whose bet
    is corrected under 53-B; then the floor decides D's hand. Both ruled to call 8,000.
    """
    cfg, cmds = _53c_spot()
    first, second = _53c_calls(run(cfg, cmds))
    events = run(cfg, [*cmds, ruling(first, "call"), ruling(second, "call")])
    assert_ruling(action_of(events, 3), "call", 8000, rules=("53-B",))
    assert_ruling(action_of(events, 4), "call", 8000, rules=("53-C",))
    p = prompt_for(events, 1)
    assert p["to_call"] == 6000


def test_53_c_first_folds_second_calls() -> None:
    """53-C: C is allowed to fold, forfeiting its 2,000; D is ruled to call 8,000; A calls."""
    cfg, cmds = _53c_spot()
    first, second = _53c_calls(run(cfg, cmds))
    events = run(cfg, [*cmds, ruling(first, "fold"), ruling(second, "call"), act(1, "call")])
    assert_ruling(action_of(events, 3), "fold", 2000, returned=0)
    assert_ruling(action_of(events, 4), "call", 8000)
    end = last(events, "round_end")
    assert end["street"] == "flop"
    assert sum(end["pots"]) == 4 * 2000 + 8000 + 8000 + 2000 + 8000


def test_53_c_first_under_caller_ruled_first() -> None:
    """53-C: play backs up to the *first* under-caller: a ruling on D's hand while C's is still
    open is refused and changes nothing.
    """
    cfg, cmds = _53c_spot()
    _, second = _53c_calls(run(cfg, cmds))
    events = play(cfg, [*cmds, ruling(second, "call")])
    assert events[-1]["type"] == "error", events[-1]
    assert not of_type(events, "ruling")


# --- 54-A: an under-raise found later --------------------------------------------------------


def _54a_spot() -> tuple[dict, list[Cmd]]:
    # NLHE 100-200. A..E = seats 1..5, button 5 (SB = 1, BB = 2): post-flop order A..E.
    # A opens 600, B raises to 1,000 (200 short of the 1,200 minimum; recorded as played),
    # C and D call 1,000, E folds.
    cfg = table({s: DEEP for s in range(1, 6)}, button=5, blinds=(100, 200), chips=CHIPS)
    cmds = [
        *to_flop(cfg),
        act(1, "bet", 600),
        act(2, "raise", 1000, as_played=True),
        act(3, "call"),
        act(4, "call"),
        act(5, "fold"),
    ]
    return cfg, cmds


def _54_turn_ends_hand() -> list[Cmd]:
    # On the turn B bets 1,000 and everyone folds: B takes the pot.
    return [act(1, "check"), act(2, "bet", 1000), act(3, "fold"), act(4, "fold"), act(1, "fold")]


def test_54_a_example_recorded_as_played() -> None:
    """54-A example: the short raise stands as played (1,000) until the error is found."""
    cfg, cmds = _54a_spot()
    events = run(cfg, cmds)
    assert_ruling(action_of(events, 2), "raise", 1000)
    assert action_of(events, 3)["total"] == 1000
    assert action_of(events, 4)["total"] == 1000
    assert prompt_for(events, 1)["to_call"] == 400


def test_54_a_example_before_turn() -> None:
    """54-A example: found before the turn is dealt: every bettor at 1,000 goes up to 1,200."""
    cfg, cmds = _54a_spot()
    events = run(cfg, [*cmds, irregularity("under_raise", 2)])
    irr = last(events, "irregularity")
    assert irr["kind"] == "under_raise"
    assert "54-A" in irr["rules"]
    fixed = after(events, "irregularity")
    by_seat = {e["seat"]: e for e in fixed if e["type"] == "action"}
    assert set(by_seat) == {2, 3, 4}
    assert_ruling(by_seat[2], "raise", 1200, rules=("54-A",))
    assert_ruling(by_seat[3], "call", 1200, rules=("54-A",))
    assert_ruling(by_seat[4], "call", 1200, rules=("54-A",))
    p = prompt_for(events, 1)
    assert p["to_call"] == 600
    assert p["min_raise_to"] == 1800

    events = run(
        cfg,
        [
            *cmds,
            irregularity("under_raise", 2),
            act(1, "call"),
            deal("turn"),
            *_54_turn_ends_hand(),
        ],
    )
    assert sum(of_type(events, "round_end")[1]["pots"]) == 5 * 200 + 4 * 1200
    expected = {1: DEEP - 1400, 2: DEEP + 4400, 3: DEEP - 1400, 4: DEEP - 1400, 5: DEEP - 200}
    assert stacks(events) == expected
    assert sum(stacks(events).values()) == sum(starting(cfg).values())


def test_54_a_example_round_closed_before_turn() -> None:
    """54-A example: found after A has called 1,000 too but before the turn card: the street
    still lasts, so all four bettors go up to 1,200.
    """
    cfg, cmds = _54a_spot()
    cmds = [*cmds, act(1, "call")]
    events = run(cfg, [*cmds, irregularity("under_raise", 2)])
    fixed = {e["seat"]: e for e in after(events, "irregularity") if e["type"] == "action"}
    assert {s: e["total"] for s, e in fixed.items()} == {1: 1200, 2: 1200, 3: 1200, 4: 1200}
    events = run(cfg, [*cmds, irregularity("under_raise", 2), deal("turn"), *_54_turn_ends_hand()])
    expected = {1: DEEP - 1400, 2: DEEP + 4400, 3: DEEP - 1400, 4: DEEP - 1400, 5: DEEP - 200}
    assert stacks(events) == expected


def test_54_a_example_after_turn() -> None:
    """54-A example: found after the turn is dealt: the error stands at 1,000."""
    cfg, cmds = _54a_spot()
    cmds = [*cmds, act(1, "call"), deal("turn"), irregularity("under_raise", 2)]
    events = run(cfg, cmds)
    irr = last(events, "irregularity")
    assert "54-A" in irr["rules"]
    assert not of_type(after(events, "irregularity"), "action")
    events = run(cfg, [*cmds, *_54_turn_ends_hand()])
    expected = {1: DEEP - 1200, 2: DEEP + 3800, 3: DEEP - 1200, 4: DEEP - 1200, 5: DEEP - 200}
    assert stacks(events) == expected


def _54a_river() -> tuple[dict, list[Cmd]]:
    cfg = table({s: DEEP for s in range(1, 5)}, button=4, blinds=(100, 200), chips=CHIPS)
    # A..D = seats 1..4 (button 4). River: A opens 600, B raises to 1,000 as played, C calls.
    checks = [act(s, "check") for s in (1, 2, 3, 4)]
    cmds = [
        *to_flop(cfg),
        *checks,
        deal("turn"),
        *checks,
        deal("river"),
        act(1, "bet", 600),
        act(2, "raise", 1000, as_played=True),
        act(3, "call"),
    ]
    return cfg, cmds


def test_54_a_river_after_showdown_begins() -> None:
    """54-A: on the river the error stands once the showdown has begun (D and A call 1,000)."""
    cfg, cmds = _54a_river()
    cmds = [*cmds, act(4, "call"), act(1, "call")]
    events = run(cfg, cmds)
    assert last(events, "round_end")["next"] == "showdown"
    events = run(cfg, [*cmds, irregularity("under_raise", 2)])
    assert "54-A" in last(events, "irregularity")["rules"]
    assert not of_type(after(events, "irregularity"), "action")


def test_54_a_river_before_showdown() -> None:
    """54-A: on the river an under-raise is corrected as long as the showdown has not begun."""
    cfg, cmds = _54a_river()
    cmds = [*cmds, irregularity("under_raise", 2)]
    events = run(cfg, cmds)
    fixed = {e["seat"]: e["total"] for e in after(events, "irregularity") if e["type"] == "action"}
    assert fixed == {2: 1200, 3: 1200}
    assert prompt_for(events, 4)["to_call"] == 1200
    events = run(cfg, [*cmds, act(4, "call")])
    assert_ruling(action_of(events, 4), "call", 1200)


# --- 54-B: pot-limit bets on a miscounted pot (addendum 54-B, examples 1-3) ------------------


def _54b_flop() -> tuple[dict, list[Cmd]]:
    # PLO 500-1,000. A..D = seats 1..4, button 4 (SB = 1, BB = 2). Pre-flop seat 3 raises to
    # 2,625 and everyone calls: the pot after the flop is 10,500, so a pot bet is 10,500.
    cfg = table(
        {s: DEEP for s in range(1, 5)}, button=4, blinds=(500, 1000), game="PLO", chips=CHIPS
    )
    pre = [act(3, "raise", 2625), act(4, "call"), act(1, "call"), act(2, "call")]
    return cfg, [{"type": "start_hand"}, *pre, deal("flop")]


def _pot(seat: int, told: int) -> Cmd:
    """A pot bet made on the dealer's count ``told``, recorded as played."""
    return act(seat, "pot", told, as_played=True)


def test_54_b_pot_is_10500() -> None:
    """Set-up check for the 54-B examples: the pot after the flop is 10,500."""
    cfg, cmds = _54b_flop()
    events = run(cfg, cmds)
    assert sum(last(events, "round_end")["pots"]) == 10500
    p = prompt_for(events, 1)
    assert p["max_raise_to"] == 10500


def test_54_b_example_1() -> None:
    """Addendum 54-B ex. 1: the dealer counts 9,500 (too low), A bets 9,500, B folds, C calls:
    substantial action after the bet, so the 9,500 bet stands and is not raised to 10,500.
    """
    cfg, cmds = _54b_flop()
    cmds = [*cmds, _pot(1, 9500), act(2, "fold"), act(3, "call"), irregularity("pot_miscount", 1)]
    events = run(cfg, cmds)
    assert_ruling(action_of(events, 1), "bet", 9500)
    irr = last(events, "irregularity")
    assert irr["kind"] == "pot_miscount"
    assert "54-B" in irr["rules"]
    assert not of_type(after(events, "irregularity"), "action")
    assert action_of(events, 3)["total"] == 9500
    assert prompt_for(events, 4)["to_call"] == 9500


def test_54_b_example_2() -> None:
    """Addendum 54-B ex. 2: as ex. 1, but found right after B's fold — no substantial action
    since the bet: A must increase the bet to 10,500.
    """
    cfg, cmds = _54b_flop()
    cmds = [*cmds, _pot(1, 9500), act(2, "fold"), irregularity("pot_miscount", 1)]
    events = run(cfg, cmds)
    irr = last(events, "irregularity")
    assert "54-B" in irr["rules"]
    fixed = [e for e in after(events, "irregularity") if e["type"] == "action"]
    assert [e["seat"] for e in fixed] == [1]
    assert_ruling(fixed[0], "bet", 10500, rules=("54-B",))
    p = prompt_for(events, 3)
    assert p["to_call"] == 10500
    events = run(cfg, [*cmds, act(3, "call")])
    assert_ruling(action_of(events, 3), "call", 10500)


def _54b_example_3() -> tuple[dict, list[Cmd]]:
    cfg, cmds = _54b_flop()
    # The dealer counts 11,500 (too high): A bets 11,500, B folds, C and D call 11,500.
    return cfg, [*cmds, _pot(1, 11500), act(2, "fold"), act(3, "call"), act(4, "call")]


def _54b_turn_ends_hand() -> list[Cmd]:
    # On the turn A bets 1,000 and C and D fold: A takes the pot.
    return [deal("turn"), act(1, "bet", 1000), act(3, "fold"), act(4, "fold")]


def test_54_b_example_3() -> None:
    """Addendum 54-B ex. 3: found before the next card: the 11,500 is an illegal overbet, so even
    after substantial action every bettor goes down to 10,500 and gets 1,000 back.
    """
    cfg, cmds = _54b_example_3()
    cmds = [*cmds, irregularity("pot_miscount", 1)]
    events = run(cfg, cmds)
    irr = last(events, "irregularity")
    assert "54-B" in irr["rules"]
    fixed = {e["seat"]: e for e in after(events, "irregularity") if e["type"] == "action"}
    assert set(fixed) == {1, 3, 4}
    assert_ruling(fixed[1], "bet", 10500, rules=("54-B",))
    assert_ruling(fixed[3], "call", 10500, rules=("54-B",))
    assert_ruling(fixed[4], "call", 10500, rules=("54-B",))

    events = run(cfg, [*cmds, *_54b_turn_ends_hand()])
    pot = 10500 + 3 * 10500
    assert stacks(events) == {
        1: DEEP - 2625 - 10500 + pot,
        2: DEEP - 2625,
        3: DEEP - 2625 - 10500,
        4: DEEP - 2625 - 10500,
    }
    assert sum(stacks(events).values()) == 4 * DEEP


def test_54_b_example_3_after_next_card() -> None:
    """Addendum 54-B ex. 3: found once the turn is dealt: the 11,500 bets stand."""
    cfg, cmds = _54b_example_3()
    cmds = [*cmds, deal("turn"), irregularity("pot_miscount", 1)]
    events = run(cfg, cmds)
    assert "54-B" in last(events, "irregularity")["rules"]
    assert not of_type(after(events, "irregularity"), "action")
    events = run(cfg, [*cmds, act(1, "bet", 1000), act(3, "fold"), act(4, "fold")])
    pot = 10500 + 3 * 11500
    assert stacks(events) == {
        1: DEEP - 2625 - 11500 + pot,
        2: DEEP - 2625,
        3: DEEP - 2625 - 11500,
        4: DEEP - 2625 - 11500,
    }
