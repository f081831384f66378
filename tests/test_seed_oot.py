"""Worked examples of Rule 55, action out of turn (OOT), under the 2026 TDA rules.

Seeds: 000 (Rule 55 and its Illustration Addendum, English) and 001 (the 2026 rules and
addendum in Japanese, the authority). The two agree on every seat, amount and ruling of these
examples; where a test relies on a wording, its docstring says which text it follows.

The examples name real seat numbers, and the tests use them as they are: the table is set so
that the example's seats act in the example's order.
"""

from __future__ import annotations

from tests.support import last, of_type, play
from tests.test_seed_common import (
    DEEP,
    Cmd,
    Event,
    act,
    action_of,
    actions_of,
    assert_ruling,
    deal,
    index_of,
    prompt_for,
    ruling,
    run,
    table,
)

CHIPS = [25, 100, 500, 1000, 5000]


def stacks(events: list[Event]) -> dict[int, int]:
    return {int(k): v for k, v in last(events, "hand_end")["stacks"].items()}


def assert_out_of_turn(
    event: Event, seat: int, to_act: int, action: str, rule: str, total: int | None = None
) -> None:
    assert event["seat"] == seat, event
    assert event["to_act"] == to_act, event
    assert event["action"] == action, event
    if total is not None:
        assert event["total"] == total, event
    assert rule in event["rules"], event


# --- 55-A-1: multi-way, the OOT action binds if the action to it does not change ------------


def _seats_3_to_6(blinds: tuple[int, int]) -> dict:
    # Seats 3, 4, 5 and 6 only, button on 6: SB = 3, BB = 4, so the post-flop order is
    # 3, 4, 5, 6 as in the examples.
    return table({3: DEEP, 4: DEEP, 5: DEEP, 6: DEEP}, button=6, blinds=blinds, chips=CHIPS)


def _flop_3_to_6(blinds: tuple[int, int]) -> tuple[dict, list[Cmd]]:
    cfg = _seats_3_to_6(blinds)
    pre = [act(5, "call"), act(6, "call"), act(3, "call"), act(4, "check")]
    return cfg, [{"type": "start_hand"}, *pre, deal("flop")]


def _55a1_example_1() -> tuple[dict, list[Cmd]]:
    # 50-100. Post-flop seat 3 opens 300, seat 4 folds; the action is on seat 5 when seat 6
    # declares "raise to eight hundred".
    cfg, cmds = _flop_3_to_6((50, 100))
    return cfg, [*cmds, act(3, "bet", 300), act(4, "fold"), act(6, "raise", 800)]


def test_55_a_1_example_1_backs_up_to_seat5() -> None:
    """55-A-1 ex. 1, step 1: seat 6's raise to 800 is out of turn; the action backs up to seat 5,
    who faces the 300 bet.
    """
    cfg, cmds = _55a1_example_1()
    events = run(cfg, cmds)
    oot = last(events, "out_of_turn")
    assert_out_of_turn(oot, seat=6, to_act=5, action="raise", rule="55-A-1", total=800)
    assert oot["skipped"] == [5]
    # Seat 6's raise is not an action yet: it binds only if the action to it does not change.
    assert not actions_of(events, 6)[1:], "seat 6 acted pre-flop only"
    assert all(a["total"] != 800 for a in actions_of(events, 6))
    p = prompt_for(events, 5)
    assert p["to_call"] == 300
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 600
    assert index_of(events, lambda e: e["type"] == "out_of_turn") < index_of(
        events, lambda e: e is p
    )


def test_55_a_1_example_1_seat5_calls_oot_raise_binds() -> None:
    """55-A-1 ex. 1, step 2: seat 5 calls 300 — a call does not change the action, so seat 6's
    OOT raise to 800 binds; seat 3 then faces 800 (minimum re-raise to 1,300).
    """
    cfg, cmds = _55a1_example_1()
    events = run(cfg, [*cmds, act(5, "call")])
    assert_ruling(action_of(events, 5), "call", 300)
    assert_ruling(action_of(events, 6), "raise", 800, rules=("55-A-1",))
    assert not of_type(events, "out_of_turn_released")
    p = prompt_for(events, 3)
    assert p["to_call"] == 500
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 1300

    # Seats 3 and 5 fold: seat 6 wins with its 800 (500 of it uncalled, back to it).
    ended = run(cfg, [*cmds, act(5, "call"), act(3, "fold"), act(5, "fold")])
    assert stacks(ended) == {3: DEEP - 400, 4: DEEP - 100, 5: DEEP - 400, 6: DEEP + 900}


def test_55_a_1_example_1_seat5_folds_oot_raise_binds() -> None:
    """55-A-1 ex. 1, step 2: seat 5 folds — a fold does not change the action: seat 6's raise
    to 800 binds.
    """
    cfg, cmds = _55a1_example_1()
    events = run(cfg, [*cmds, act(5, "fold")])
    assert_ruling(action_of(events, 6), "raise", 800, rules=("55-A-1",))
    assert not of_type(events, "out_of_turn_released")
    p = prompt_for(events, 3)
    assert p["to_call"] == 500


def test_55_a_1_example_1_seat5_raises_oot_released() -> None:
    """55-A-1 ex. 1, step 2: seat 5 raises to 600 — the action to seat 6 changed from a 300
    bet to 600: the OOT raise is not binding, its 800 goes back, and seat 6 has all options:
    call 600, re-raise to at least 900, or fold.
    """
    cfg, cmds = _55a1_example_1()
    events = run(cfg, [*cmds, act(5, "raise", 600)])
    assert_ruling(action_of(events, 5), "raise", 600)
    released = last(events, "out_of_turn_released")
    assert released["seat"] == 6
    assert "55-A-1" in released["rules"]
    assert all(a["total"] != 800 for a in actions_of(events, 6)), "the 800 is not binding"
    p = prompt_for(events, 6)
    assert p["to_call"] == 600
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 900
    assert {"fold", "call", "raise"} <= set(p["options"])

    # Seat 6 may now simply call 600 (its choice, no longer the OOT 800).
    called = run(cfg, [*cmds, act(5, "raise", 600), act(6, "call")])
    assert_ruling(action_of(called, 6), "call", 600)

    # Or fold: none of its 800 stays in the pot. Seat 3 folds too and seat 5 wins.
    ended = run(cfg, [*cmds, act(5, "raise", 600), act(6, "fold"), act(3, "fold")])
    assert stacks(ended) == {3: DEEP - 400, 4: DEEP - 100, 5: DEEP + 600, 6: DEEP - 100}


def _55a1_example_2() -> tuple[dict, list[Cmd]]:
    # 50-100. Post-flop seats 3 and 4 check; the action is on seat 5 when seat 6 says "check".
    cfg, cmds = _flop_3_to_6((50, 100))
    return cfg, [*cmds, act(3, "check"), act(4, "check"), act(6, "check")]


def test_55_a_1_example_2_backs_up_to_seat5() -> None:
    """55-A-1 ex. 2, step 1: seat 6's OOT check backs the action up to seat 5 (no bet to face)."""
    cfg, cmds = _55a1_example_2()
    events = run(cfg, cmds)
    oot = last(events, "out_of_turn")
    assert_out_of_turn(oot, seat=6, to_act=5, action="check", rule="55-A-1", total=0)
    assert oot["skipped"] == [5]
    p = prompt_for(events, 5)
    assert p["to_call"] == 0


def test_55_a_1_example_2_seat5_checks_oot_check_binds() -> None:
    """55-A-1 ex. 2, step 2: seat 5 checks — the action did not change: seat 6's OOT check binds
    and the flop is checked through.
    """
    cfg, cmds = _55a1_example_2()
    events = run(cfg, [*cmds, act(5, "check")])
    assert_ruling(action_of(events, 6), "check", 0, rules=("55-A-1",))
    end = last(events, "round_end")
    assert end["street"] == "flop"
    assert end["next"] == "turn"


def test_55_a_1_example_2_seat5_bets_oot_released() -> None:
    """55-A-1 ex. 2, step 2: seat 5 bets 300 — the action to seat 6 changed from a check to a
    300 bet: seat 6 has all options: call 300, raise to at least 600, or fold.
    """
    cfg, cmds = _55a1_example_2()
    events = run(cfg, [*cmds, act(5, "bet", 300)])
    released = last(events, "out_of_turn_released")
    assert released["seat"] == 6
    p = prompt_for(events, 6)
    assert p["to_call"] == 300
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 600
    assert {"fold", "call", "raise"} <= set(p["options"])


def test_55_a_1_oot_fold_binds() -> None:
    """55-A-1 (rule text): "An OOT fold is binding" — at once; the action still backs up."""
    cfg, cmds = _flop_3_to_6((50, 100))
    events = run(cfg, [*cmds, act(3, "bet", 300), act(5, "fold")])
    oot = last(events, "out_of_turn")
    assert_out_of_turn(oot, seat=5, to_act=4, action="fold", rule="55-A-1")
    assert_ruling(action_of(events, 5), "fold", 0, rules=("55-A-1",))
    p = prompt_for(events, 4)
    assert p["to_call"] == 300
    # Even a raise by seat 4 does not bring seat 5 back.
    later = run(cfg, [*cmds, act(3, "bet", 300), act(5, "fold"), act(4, "raise", 600)])
    assert prompt_for(later, 6)["to_call"] == 600


# --- 55-A-2: substantial action OOT binds; the floor rules on the skipped hand ---------------


def _55a2_example_1() -> tuple[dict, list[Cmd]]:
    # NLHE 100-200, seats 1-6, button 6: SB = 1, BB = 2, UTG = 3. Seat 3 makes it 600; seat 4
    # is skipped when seat 5 calls 600 out of turn; seat 6 thinks, then folds.
    cfg = table({s: DEEP for s in range(1, 7)}, button=6, blinds=(100, 200), chips=CHIPS)
    cmds = [{"type": "start_hand"}, act(3, "raise", 600), act(5, "call"), act(6, "fold")]
    return cfg, cmds


def test_55_a_2_example_1() -> None:
    """55-A-2 ex. 1: seat 5's OOT call and seat 6's fold are two actions to the left of the
    skipped seat 4, one with chips: substantial action (38). Seat 5's call of 600 binds, seat 6's
    fold binds, the action backs up to seat 4 and the floor decides seat 4's hand.
    """
    cfg, cmds = _55a2_example_1()
    events = run(cfg, cmds)
    first = of_type(events, "out_of_turn")[0]
    assert_out_of_turn(first, seat=5, to_act=4, action="call", rule="55-A-1", total=600)
    assert first["skipped"] == [4]

    assert_ruling(action_of(events, 5), "call", 600, rules=("55-A-2",))
    fold = action_of(events, 6)
    assert fold["action"] == "fold"
    assert {"55-A-1", "55-A-2"} & set(fold["rules"]), fold

    call = last(events, "floor_call")
    assert call["seat"] == 4
    assert call["rule"] == "55-A-2"
    assert sorted(call["options"]) == ["all_options", "call_or_fold", "dead_hand"]
    # The floor call comes after the bound OOT actions.
    assert index_of(events, lambda e: e is call) > index_of(
        events, lambda e: e["type"] == "action" and e["seat"] == 5
    )


def test_55_a_2_example_1_is_substantial_action() -> None:
    """55-A-2 ex. 1: "Two players with chips qualifies as substantial action (Rule 38)": the
    hand has reached SA once the OOT actions bind (seat 3's raise, seat 5's call, seat 6's fold),
    so the `substantial_action` event is out and a misdeal is refused from then on (37-D).
    """
    cfg, cmds = _55a2_example_1()
    events = run(cfg, cmds)
    assert len(of_type(events, "substantial_action")) == 1
    refused = play(cfg, [*cmds, {"type": "misdeal", "reason": "boxed card"}])
    assert refused[-1]["type"] == "error", refused[-1]
    assert refused[-1]["rule"] == "37-D"
    assert not of_type(refused, "misdeal")


def test_55_a_2_example_1_call_or_fold() -> None:
    """55-A-2 ex. 1: the floor limits skipped seat 4 to non-aggressive action: call 600 or fold."""
    cfg, cmds = _55a2_example_1()
    call = last(run(cfg, cmds), "floor_call")
    events = run(cfg, [*cmds, ruling(call, "call_or_fold")])
    made = last(events, "ruling")
    assert (made["call"], made["seat"], made["option"]) == (call["call"], 4, "call_or_fold")
    p = prompt_for(events, 4)
    assert p["to_call"] == 600
    assert p["can_raise"] is False
    assert "raise" not in p["options"]

    # Seat 4 calls; seat 5 is already bound and seat 6 out: on to the small blind.
    after = run(cfg, [*cmds, ruling(call, "call_or_fold"), act(4, "call")])
    assert_ruling(action_of(after, 4), "call", 600)
    assert prompt_for(after, 1)["to_call"] == 500


def test_55_a_2_example_1_dead_hand() -> None:
    """55-A-2 ex. 1: the floor may rule the skipped hand dead: seat 4 folds, on to the SB."""
    cfg, cmds = _55a2_example_1()
    call = last(run(cfg, cmds), "floor_call")
    events = run(cfg, [*cmds, ruling(call, "dead_hand")])
    assert_ruling(action_of(events, 4), "fold", 0)
    p = prompt_for(events, 1)
    assert p["to_call"] == 500


def test_55_a_2_example_1_all_options() -> None:
    """55-A-2 ex. 1: the floor may leave seat 4 every option: call 600, raise to 1,000+, fold."""
    cfg, cmds = _55a2_example_1()
    call = last(run(cfg, cmds), "floor_call")
    events = run(cfg, [*cmds, ruling(call, "all_options")])
    p = prompt_for(events, 4)
    assert p["to_call"] == 600
    assert p["can_raise"] is True
    assert p["min_raise_to"] == 1000


def test_55_a_2_example_1_ruling_not_offered() -> None:
    """A ruling with an option the floor call did not offer is refused and changes nothing."""
    cfg, cmds = _55a2_example_1()
    call = last(run(cfg, cmds), "floor_call")
    bad = play(cfg, [*cmds, ruling(call, "fold")])
    assert bad[-1]["type"] == "error", bad[-1]
    assert not of_type(bad, "ruling")
    # The call is still open: a valid ruling afterwards is accepted.
    events = play(cfg, [*cmds, ruling(call, "fold"), ruling(call, "call_or_fold")])
    assert last(events, "ruling")["option"] == "call_or_fold"
    assert prompt_for(events, 4)["can_raise"] is False


def _55a2_example_2() -> tuple[dict, list[Cmd]]:
    # NLHE 100-200. Four players see the turn: seats 3-6, button 6 (SB = 3, BB = 4), so seat 3
    # opens the betting on the turn. Seat 3 bets 600; seat 4 is skipped when seat 5 checks and
    # seat 6 calls 600 out of turn.
    cfg = _seats_3_to_6((100, 200))
    pre = [act(5, "call"), act(6, "call"), act(3, "call"), act(4, "check")]
    flop = [act(s, "check") for s in (3, 4, 5, 6)]
    cmds = [
        {"type": "start_hand"},
        *pre,
        deal("flop"),
        *flop,
        deal("turn"),
        act(3, "bet", 600),
        act(5, "check"),
        act(6, "call"),
    ]
    return cfg, cmds


def test_55_a_2_example_2() -> None:
    """55-A-2 ex. 2: seat 5's check and seat 6's call, both OOT after skipped seat 4, are
    substantial action (two actions, one with chips): seat 6's call of 600 binds and the floor
    decides seat 4's hand.
    """
    cfg, cmds = _55a2_example_2()
    events = run(cfg, cmds)
    oots = of_type(events, "out_of_turn")
    assert [o["seat"] for o in oots][:2] == [5, 6]
    assert all(o["to_act"] == 4 for o in oots)
    assert_ruling(action_of(events, 6), "call", 600, rules=("55-A-2",))
    call = last(events, "floor_call")
    assert call["seat"] == 4
    assert call["rule"] == "55-A-2"
    assert sorted(call["options"]) == ["all_options", "call_or_fold", "dead_hand"]


def test_55_a_2_example_2_seat5_checked_facing_a_bet() -> None:
    """55-A-2 ex. 2: seat 5 "checked" facing the 600 bet; under 57 a check facing a bet leaves
    call or fold, no raise. After seat 4 acts, seat 5 may only call 600 or fold.
    """
    cfg, cmds = _55a2_example_2()
    call = last(run(cfg, cmds), "floor_call")
    events = run(cfg, [*cmds, ruling(call, "all_options"), act(4, "call")])
    assert_ruling(action_of(events, 4), "call", 600)
    p = prompt_for(events, 5)
    assert p["to_call"] == 600
    assert p["can_raise"] is False
    assert set(p["options"]) <= {"fold", "call"}


def test_55_a_2_example_2_dead_hand() -> None:
    """55-A-2 ex. 2: the floor rules seat 4's hand dead; seat 5 (call or fold only) is next."""
    cfg, cmds = _55a2_example_2()
    call = last(run(cfg, cmds), "floor_call")
    events = run(cfg, [*cmds, ruling(call, "dead_hand")])
    assert action_of(events, 4)["action"] == "fold"
    p = prompt_for(events, 5)
    assert p["can_raise"] is False


# --- 55-B: heads-up, a passive OOT action leaves only call or fold ---------------------------


def _55b_example_1() -> tuple[dict, list[Cmd]]:
    # NLHE 100-200; two players see the turn. Seats 1-3, button 3 (SB = 1, BB = 2): seat 3
    # folds pre-flop, so seat 1 acts first after the flop, seat 2 last. On the turn the action
    # is on seat 1 but seat 2 checks out of turn.
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=3, blinds=(100, 200), chips=CHIPS)
    cmds = [
        {"type": "start_hand"},
        act(3, "fold"),
        act(1, "call"),
        act(2, "check"),
        deal("flop"),
        act(1, "check"),
        act(2, "check"),
        deal("turn"),
        act(2, "check"),
    ]
    return cfg, cmds


def test_55_b_example_1() -> None:
    """55-B ex. 1: seat 2 checks OOT heads-up; the action returns to seat 1, who bets 1,000:
    seat 2 may call 1,000 or fold, not raise.
    """
    cfg, cmds = _55b_example_1()
    events = run(cfg, cmds)
    oot = last(events, "out_of_turn")
    assert oot["seat"] == 2
    assert oot["to_act"] == 1
    assert "55-B" in oot["rules"]
    assert prompt_for(events, 1)["to_call"] == 0

    events = run(cfg, [*cmds, act(1, "bet", 1000)])
    p = prompt_for(events, 2)
    assert p["to_call"] == 1000
    assert p["can_raise"] is False
    assert p["min_raise_to"] is None
    assert sorted(p["options"]) == ["call", "fold"]

    called = run(cfg, [*cmds, act(1, "bet", 1000), act(2, "call")])
    assert_ruling(action_of(called, 2), "call", 1000)
    assert last(called, "round_end")["street"] == "turn"


def test_55_b_example_1_raise_refused() -> None:
    """55-B ex. 1: a raise by seat 2 after its OOT check is refused (55-B) and changes nothing."""
    cfg, cmds = _55b_example_1()
    events = play(cfg, [*cmds, act(1, "bet", 1000), act(2, "raise", 3000)])
    err = events[-1]
    assert err["type"] == "error", err
    assert err["seat"] == 2
    assert "55" in err["rule"]
