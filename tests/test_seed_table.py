"""Worked examples of table procedure: 2026 TDA rule 17 (addendum 17) and rule 36-B, seed 001."""

from __future__ import annotations

from tests.support import last, of_type
from tests.test_seed_common import act, action_of, deal, index_of, run, table

Event = dict


def _exposes(events: list[Event]) -> list[int]:
    """Indexes of the rule 17 'all hands face up' events."""
    return [i for i, e in enumerate(events) if e["type"] == "expose_all"]


def _action_index(events: list[Event], seat: int) -> int:
    """Index of the seat's last action event."""
    found = [i for i, e in enumerate(events) if e["type"] == "action" and e["seat"] == seat]
    assert found, f"no action for seat {seat}"
    return found[-1]


def _dealt_index(events: list[Event], street: str) -> int:
    return index_of(events, lambda e: e["type"] == "dealt" and e["street"] == street)


def _check_exposed_once(
    events: list[Event], after: int, before: int | None, seats: list[int]
) -> None:
    """One expose_all, citing 17, after event ``after`` (and before ``before``), for ``seats``."""
    exposes = _exposes(events)
    assert len(exposes) == 1, f"expected one expose_all, got {[events[i] for i in exposes]}"
    i = exposes[0]
    assert i > after, "hands exposed while betting was still possible"
    if before is not None:
        assert i < before, "hands not exposed before the next card"
    assert sorted(events[i]["seats"]) == seats
    assert "17" in events[i]["rules"]


def test_17_addendum_example_1() -> None:
    """Addendum 17 ex. 1: heads-up, on the turn short-stacked A is all-in and B calls: both hands
    are turned up at once, before the river is burned and dealt.
    """
    # Heads-up: B = seat 2 (button, SB), A = seat 1 (BB, short; acts first after the flop).
    cfg = table({1: 3000, 2: 10000}, button=2, blinds=(100, 200))
    events = run(
        cfg,
        [
            {"type": "start_hand"},
            act(2, "call"),
            act(1, "check"),
            deal("flop"),
            act(1, "check"),
            act(2, "check"),
            deal("turn"),
            act(1, "all_in"),
            act(2, "call"),
            deal("river"),
        ],
    )
    assert (action_of(events, 1)["all_in"], action_of(events, 1)["total"]) == (True, 2800)
    _check_exposed_once(events, _action_index(events, 2), _dealt_index(events, "river"), [1, 2])


def test_17_addendum_example_2() -> None:
    """Addendum 17 ex. 2: 3 players; the shortest, A, is all-in pre-flop and B and C call: no
    exposure (B and C can still bet), nor after their flop checks; on the turn B is all-in and C
    calls: now A's, B's and C's hands are all turned up, before the river.
    """
    # A = seat 1 (button, acts first pre-flop), B = seat 2 (SB), C = seat 3 (BB).
    cfg = table({1: 1500, 2: 5000, 3: 8000}, button=1, blinds=(100, 200))
    events = run(
        cfg,
        [
            {"type": "start_hand"},
            act(1, "all_in"),
            act(2, "call"),
            act(3, "call"),
            deal("flop"),
            act(2, "check"),
            act(3, "check"),
            deal("turn"),
            act(2, "all_in"),
            act(3, "call"),
            deal("river"),
        ],
    )
    assert (action_of(events, 1)["all_in"], action_of(events, 1)["total"]) == (True, 1500)
    assert (action_of(events, 2)["all_in"], action_of(events, 2)["total"]) == (True, 3500)
    _check_exposed_once(events, _action_index(events, 3), _dealt_index(events, "river"), [1, 2, 3])


def test_17_addendum_example_3() -> None:
    """Addendum 17 ex. 3: A all-in for 700 pre-flop, B and C call with thousands behind; they
    check the flop, B bets 1,000 on the turn and C calls (no exposure: the river can still be
    bet); both check the river: betting is over, all three hands go face up at once. The 2,000
    side pot (B, C) is awarded first, then the main pot.
    """
    # A = seat 1 (button), B = seat 2 (SB), C = seat 3 (BB).
    cfg = table({1: 700, 2: 5000, 3: 5000}, button=1, blinds=(100, 200))
    events = run(
        cfg,
        [
            {"type": "start_hand"},
            act(1, "all_in"),
            act(2, "call"),
            act(3, "call"),
            deal("flop"),
            act(2, "check"),
            act(3, "check"),
            deal("turn"),
            act(2, "bet", 1000),
            act(3, "call"),
            deal("river"),
            act(2, "check"),
            act(3, "check"),
            {"type": "award", "pot": 1, "winners": [2]},
            {"type": "award", "pot": 0, "winners": [1]},
        ],
    )
    turn_end = [e for e in of_type(events, "round_end") if e["street"] == "turn"][-1]
    assert turn_end["pots"] == [2100, 2000]
    _check_exposed_once(events, _action_index(events, 3), None, [1, 2, 3])
    pots = {p["pot"]: (p["amount"], p["winners"]) for p in last(events, "hand_end")["pots"]}
    assert pots == {0: (2100, [1]), 1: (2000, [2])}
    assert last(events, "hand_end")["stacks"] in (
        {"1": 2100, "2": 5300, "3": 3300},
        {1: 2100, 2: 5300, 3: 3300},
    )


def _36b_first_hand() -> tuple[dict, list]:
    """Seat 9 button, seat 1 SB, seats 2 and 3 empty, seat 4 BB; the SB (seat 1) is knocked out.

    Pre-flop seats 5-9 fold, seat 1 is all-in for 300, seat 4 calls and wins.
    """
    cfg = table(
        {1: 300, 4: 10000, 5: 10000, 6: 10000, 7: 10000, 8: 10000, 9: 10000},
        button=9,
        blinds=(100, 200),
    )
    cmds = [
        {"type": "start_hand"},
        *[act(s, "fold") for s in (5, 6, 7, 8, 9)],
        act(1, "all_in"),
        act(4, "call"),
        deal("flop"),
        deal("turn"),
        deal("river"),
        {"type": "award", "pot": 0, "winners": [4]},
    ]
    return cfg, cmds


def test_36b_example() -> None:
    """36-B: seat 9 button, seat 1 SB, 2 and 3 empty, 4 BB; the SB on seat 1 busts: next hand
    the button goes to seat 3, seat 4 is the SB and seat 5 the BB (nobody skips the BB or
    pays it twice).
    """
    cfg, cmds = _36b_first_hand()
    events = run(cfg, [*cmds, {"type": "start_hand"}])
    first, second = of_type(events, "hand_start")
    assert (first["button"], first["small_blind"], first["big_blind"]) == (9, 1, 4)
    assert 1 in last(events, "hand_end")["busted"]
    assert (second["button"], second["small_blind"], second["big_blind"]) == (3, 4, 5)


def test_36b_example_new_players_at_1_and_2() -> None:
    """36-B: with the button moved on to seat 3, new players can take seats 1 and 2 without
    sitting between the button and the blinds: they are dealt in at once.
    """
    cfg, cmds = _36b_first_hand()
    events = run(
        cfg,
        [
            *cmds,
            {"type": "add_player", "seat": 1, "stack": 10000},
            {"type": "add_player", "seat": 2, "stack": 10000},
            {"type": "start_hand"},
        ],
    )
    second = of_type(events, "hand_start")[-1]
    assert (second["button"], second["small_blind"], second["big_blind"]) == (3, 4, 5)
    assert {1, 2} <= set(second["dealt"])
