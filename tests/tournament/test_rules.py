"""Tournament rules, each test named after its 2026 TDA rule, driven through the tournament
replay format (the table commands go through the real table engine)."""

from __future__ import annotations

from typing import Any

from protocol.config import DEFAULT_CHIPS
from server.tournament import action_seconds, chips_in_play, prize_pool
from tests.tournament.support import (
    Session,
    conserved,
    events,
    run,
    scenario,
    structure,
    t,
    table,
    table_events,
)


def _reg(*players: str) -> list[dict[str, Any]]:
    return [t({"type": "register", "player": p, "name": p.upper()}) for p in players]


def _seat(player: str, draw: int) -> dict[str, Any]:
    return t({"type": "seat", "player": player, "draw": draw})


def _session(struct: dict[str, Any], sizes: dict[str, int], players: str) -> Session:
    """Players registered and seated at seats 1, 2, 3 ... of the first table (draw 0)."""
    s = Session(struct, [{"id": tid, "seats": n} for tid, n in sizes.items()])
    s.many(_reg(*players))
    s.many([_seat(p, 0) for p in players])
    return s


def test_rule_8_the_seat_is_drawn_from_the_pool_by_the_recorded_draw() -> None:
    struct = structure()
    commands = [*_reg("a", "b", "c"), _seat("a", 4), _seat("b", 4), _seat("c", 1000)]
    tables = [{"id": "1", "seats": 3}, {"id": "2", "seats": 3}]
    lines, replay = run(scenario(struct, tables, commands))
    seated = events(lines, "seated")
    # The pool is table 1 seats 1-3 then table 2 seats 1-3; each draw picks draw mod free seats.
    assert [(e["table"], e["seat"], e["free"]) for e in seated] == [
        ("2", 2, 6),
        ("2", 3, 5),
        ("1", 1, 4),
    ]
    assert all("8" in e["rules"] for e in seated)
    assert [e["seat"] for e in table_events(lines, "2", "player_added")] == [2, 3]
    again, _ = run(scenario(struct, tables, commands))
    assert again == lines, "a replay gives the same seats"
    assert conserved(replay)


def test_rule_8_by_default_entries_are_drawn_among_the_shortest_tables_so_none_runs_short() -> None:
    """``seating: even`` (the default): the pool is the free seats of the tables with the
    fewest players, so whatever the draws the tables fill within one of each other, and a
    table never stops (12-D) or gets a move proposed (12-A) for what seating did."""
    players = [f"p{n}" for n in range(20)]
    draws = [0, 0, 0, 5, 17, 1000, 3, 3, 0, 8, 1, 1, 2, 99, 0, 4, 7, 6, 5, 0]
    commands = [*_reg(*players), *(_seat(p, d) for p, d in zip(players, draws, strict=True))]
    tables = [{"id": n, "seats": 9} for n in ("1", "2", "3")]
    struct = {k: v for k, v in structure().items() if k != "seating"}
    lines, replay = run(scenario(struct, tables, commands))
    seated = events(lines, "seated")
    counts = {"1": 0, "2": 0, "3": 0}
    for e in seated:
        short = min(counts.values())
        assert counts[e["table"]] == short, (e, counts)  # drawn to a table with the fewest
        counts[e["table"]] += 1
        assert max(counts.values()) - min(counts.values()) <= 1
    # The pool shrinks to the shortest tables' seats: 27 free at first, then 18, then 9 ...
    assert [e["free"] for e in seated[:4]] == [27, 18, 9, 24]
    assert counts == {"1": 7, "2": 7, "3": 6}
    assert not events(lines, "move_proposed") and not events(lines, "play_stopped")
    # Drawn from every free seat instead, the same draws leave the tables uneven.
    anywhere, _ = run(scenario({**struct, "seating": "any"}, tables, commands))
    spread = {n: 0 for n in ("1", "2", "3")}
    for e in events(anywhere, "seated"):
        spread[e["table"]] += 1
    assert max(spread.values()) - min(spread.values()) > 1
    assert conserved(replay)


def test_rule_8_a_player_at_the_wrong_seat_moves_to_the_right_one_with_the_whole_stack() -> None:
    s = _session(structure(), {"1": 3, "2": 3}, "abc")
    s.do(t({"type": "start_clock"}, at=1000))
    s.hand("1", {}, [1])  # seat 1 wins the blinds: stacks are no longer the starting stack
    stack = s.replay.state.players["a"].stack
    assert stack != 10_000
    lines = s.do(t({"type": "move", "player": "a", "table": "2", "seat": 3}))
    moved = events(lines, "moved")[0]
    assert (moved["from_table"], moved["from_seat"], moved["rules"]) == ("1", 1, ["8"])
    assert table_events(lines, "1", "player_removed")[0]["stack"] == stack
    added = table_events(lines, "2", "player_added")[0]
    assert (added["seat"], added["stack"], added["name"]) == (3, stack, "A")
    p = s.replay.state.players["a"]
    assert (p.table, p.seat, p.stack) == ("2", 3, stack)
    assert conserved(s.replay)


def test_rule_9_a_late_registration_and_re_entry_buy_a_full_stack_and_a_random_seat() -> None:
    struct = structure(reentry_until=2, late_registration_until=2)
    s = _session(struct, {"1": 6}, "abc")
    s.do(t({"type": "start_clock"}, at=1000))
    late = s.many([*_reg("d"), _seat("d", 2)])
    registered = events(late, "registered")[0]
    assert registered["late"] and "9-A" in registered["rules"]
    seated = events(late, "seated")[0]
    assert seated["stack"] == 10_000 and seated["rules"] == ["8", "9-A", "11-A"]
    s.hand("1", {1: "all_in", 2: "call", 3: "fold", 5: "fold"}, [2])
    assert s.replay.state.players["a"].status == "eliminated"
    again = s.many([t({"type": "reenter", "player": "a"}), _seat("a", 1)])
    entry = events(again, "registered")[0]
    assert (entry["entry"], entry["reentry"]) == (2, True)
    assert events(again, "seated")[0]["stack"] == 10_000
    assert s.replay.state.entries == 5 and prize_pool(s.replay.state) == 500
    assert conserved(s.replay)


def test_rule_9_a_a_late_entry_with_no_free_seat_is_refused_not_left_at_no_table() -> None:
    """A late entry buys a full stack and a random seat (9-A). With every seat taken — here a
    3-seat table, a busted player's seat gone to a late registration — a re-entry is refused
    (``no_seat``), and so is a late registration: neither is in the tournament at no table,
    counted among the players left and never dealt in. Once a seat is free, it is sold."""
    struct = structure(reentry_until=2, late_registration_until=2)
    s = _session(struct, {"1": 3}, "abc")
    s.do(t({"type": "start_clock"}, at=1000))
    s.hand("1", {1: "all_in", 2: "call", 3: "fold"}, [2])
    assert s.replay.state.players["a"].status == "eliminated"
    s.many([*_reg("d"), _seat("d", 0)])
    for command in ({"type": "reenter", "player": "a"}, {"type": "register", "player": "e"}):
        error = events(s.do(t(command)), "tournament_error")[0]
        assert (error["code"], error["rule"]) == ("no_seat", "9-A")
    state = s.replay.state
    assert state.players["a"].status == "eliminated" and "e" not in state.players
    assert state.entries == 4 and len(state.alive()) == 3
    assert conserved(s.replay)
    s.hand("1", {2: "all_in", 1: "call", 3: "fold"}, [2])
    assert len(s.replay.state.alive()) == 2, "d is out: a seat is free"
    again = s.many([t({"type": "reenter", "player": "a"}), _seat("a", 0)])
    assert events(again, "seated")[0]["player"] == "a"


def test_rule_9_a_alternates_are_seated_in_list_order_with_a_full_stack() -> None:
    s = _session(structure(), {"1": 2}, "ab")
    s.many([t({"type": "alternate", "player": "x"}), t({"type": "alternate", "player": "y"})])
    assert events(s.do(_seat("y", 0)), "tournament_error")[0]["code"] == "out_of_order"
    s.do(t({"type": "unregister", "player": "b"}))
    lines = s.do(_seat("x", 0))
    assert events(lines, "registered")[0]["alternate"]
    assert events(lines, "seated")[0]["seat"] == 2
    assert s.replay.state.alternates == ["y"]
    assert conserved(s.replay)


def test_rule_9_b_forfeited_chips_come_out_of_play() -> None:
    struct = structure(reentry_until=2, forfeit_reentry=True)
    s = _session(struct, {"1": 6}, "abc")
    s.do(t({"type": "start_clock"}, at=1000))
    s.hand("1", {}, [2])
    stack = s.replay.state.players["b"].stack
    lines = s.many([t({"type": "reenter", "player": "b", "forfeit": True}), _seat("b", 0)])
    removed = events(lines, "chips_removed")[0]
    assert (removed["kind"], removed["chips"], removed["rules"]) == ("forfeit", stack, ["9-B"])
    assert table_events(lines, "1", "player_removed")[0]["stack"] == stack
    assert events(lines, "seated")[0]["stack"] == 10_000
    assert s.replay.state.removed == stack
    assert chips_in_play(s.replay.state) == 4 * 10_000 - stack
    assert conserved(s.replay)


def test_rule_11_a_a_new_player_between_the_small_blind_and_the_button_waits() -> None:
    s = Session(structure(), [{"id": "1", "seats": 6}])
    s.many(_reg("a", "b", "c", "d"))
    s.many([_seat("a", 0), _seat("b", 1), _seat("c", 2)])  # seats 1, 3, 5
    s.do(t({"type": "start_clock"}, at=1000))
    first = s.hand("1", {}, [1])
    start = table_events(first, "1", "hand_start")[0]
    assert (start["button"], start["small_blind"], start["big_blind"]) == (1, 3, 5)
    seated = events(s.do(_seat("d", 1)), "seated")[0]  # pool 2, 4, 6: seat 4
    assert seated["seat"] == 4 and "11-A" in seated["rules"]
    second = table_events(s.hand("1", {}, [1]), "1", "hand_start")[0]
    assert (second["button"], second["small_blind"]) == (3, 5)
    assert 4 not in second["dealt"], "between the button and the small blind: not dealt in"
    third = table_events(s.hand("1", {}, [1]), "1", "hand_start")[0]
    assert 4 in third["dealt"], "dealt in once the button has passed"
    assert conserved(s.replay)


def test_rule_29_a_rebuy_announced_before_the_hand_plays_that_hand() -> None:
    struct = structure(rebuy_until=1, rebuy_stack=5_000, rebuy_price=50, max_rebuys=1)
    s = _session(struct, {"1": 6}, "abc")
    s.do(t({"type": "start_clock"}, at=1000))
    lines = s.do(t({"type": "rebuy", "player": "a"}))
    added = events(lines, "chips_added")[0]
    assert (added["kind"], added["chips"], added["rules"]) == ("rebuy", 5_000, ["29"])
    assert added["pool"] == 3 * 100 + 50
    joined = table_events(lines, "1", "chips_added")
    assert [(e["seat"], e["chips"], e["kind"], e["stack"]) for e in joined] == [
        (1, 5_000, "rebuy", 15_000)
    ]
    assert not table_events(lines, "1", "player_removed") + table_events(lines, "1", "player_added")
    hand = s.hand("1", {1: "all_in", 2: "call", 3: "fold"}, [1])
    raise_ = next(e for e in table_events(hand, "1", "action") if e["seat"] == 1)
    assert raise_["total"] == 15_000 and raise_["all_in"], "the hand played with the rebuy"
    refused = events(s.do(t({"type": "rebuy", "player": "a"})), "tournament_error")[0]
    assert (refused["rule"], refused["code"]) == ("29", "rebuy_limit")
    assert chips_in_play(s.replay.state) == 35_000 and conserved(s.replay)
    assert prize_pool(s.replay.state) == 350


def test_rule_26_c_a_color_up_takes_the_leftovers_off_the_tables_stacks() -> None:
    """The quarters are raced off at the break: the leftovers come off each seat at the table
    too, its smallest chip becomes 100, and the stacks are still the chips in play (26-C)."""
    levels = [
        {"blinds": [25, 50], "minutes": 10},
        {"break": 5, "color_up": [25]},
        {"blinds": [100, 200], "minutes": 10},
    ]
    s = _session(structure(levels=levels), {"1": 6}, "abc")
    s.do(t({"type": "start_clock"}, at=1000))
    s.hand("1", {3: "fold", 1: "fold"}, [2])
    odd = {x.number: x.stack % 100 for x in s.replay.tables["1"].seats if x.stack % 100}
    assert odd, "the small blind's 25 left odd quarters"
    command = {"type": "color_up", "table": "1", "removed": {str(n): c for n, c in odd.items()}}
    lines = s.do(t(command, at=601_000))
    colored = table_events(lines, "1", "colored_up")[0]
    after = [c for c in DEFAULT_CHIPS if c != 25]
    assert colored["removed"] == odd and colored["chips"] == after
    state = s.replay.state
    assert colored["stacks"] == {p.seat: p.stack for p in state.players.values() if p.seat}
    assert s.replay.tables["1"].chips == tuple(after)
    assert chips_in_play(state) == 30_000 - sum(odd.values()) and conserved(s.replay)


def test_rule_29_no_rebuy_after_the_rebuy_period() -> None:
    struct = structure(rebuy_until=1, rebuy_stack=5_000, rebuy_price=50)
    s = _session(struct, {"1": 6}, "ab")
    s.do(t({"type": "start_clock"}, at=1000))
    refused = events(s.do(t({"type": "rebuy", "player": "a"}, at=601_000)), "tournament_error")
    assert refused[0]["code"] == "rebuy_closed"


def test_rule_rp_28_time_banks_and_a_shorter_first_action() -> None:
    shot = {"action": 30, "first_action": 20, "time_banks": 2, "bank_seconds": 30}
    struct = structure(shot_clock=shot, reentry_until=2)
    s = _session(struct, {"1": 6}, "ab")
    state = s.replay.state
    assert state.structure.shot_clock is not None
    assert action_seconds(state.structure.shot_clock, first=True) == 20
    assert action_seconds(state.structure.shot_clock, first=False) == 30
    used = s.many([t({"type": "time_bank", "player": "a"})] * 2)
    assert [e["left"] for e in events(used, "time_bank_used")] == [1, 0]
    assert events(used, "time_bank_used")[0]["rules"] == ["RP-28"]
    refused = events(s.do(t({"type": "time_bank", "player": "a"})), "tournament_error")[0]
    assert (refused["rule"], refused["code"]) == ("RP-28", "no_time_bank")


def _bba_structure(bba: bool) -> dict[str, Any]:
    level: dict[str, Any] = {"blinds": [50, 100], "minutes": 30}
    if bba:
        level.update(ante=100, bba=True)
    return structure(
        levels=[level],
        late_registration_until=0,
        bounty=25,
        payouts={
            "places": [
                {"place": 1, "percent": 50},
                {"place": 2, "percent": 30},
                {"place": 3, "percent": 20},
            ]
        },
    )


def _double_bust(bba: bool) -> tuple[list[dict[str, Any]], Session]:
    """Four players; UTG (4) shoves, the button (1) calls, the big blind (3) calls all-in for
    less, the button wins: 3 and 4 are out in the same hand."""
    s = _session(_bba_structure(bba), {"1": 4}, "abcd")
    s.do(t({"type": "start_clock"}, at=1000))
    return s.hand("1", {4: "all_in", 1: "call", 2: "fold", 3: "call"}, [1]), s


def test_rule_22_with_a_big_blind_ante_the_stack_after_antes_places_the_busted() -> None:
    lines, s = _double_bust(bba=True)
    out = events(lines, "eliminated")
    # Both began the hand with 10,000; the big blind's is 9,900 after its ante: it finishes lower.
    assert [(e["player"], e["started"], e["place"]) for e in out] == [
        ("d", 10_000, 3),
        ("c", 9_900, 4),
    ]
    assert out[0]["prize"] == 80 and out[1]["prize"] == 0  # 20% of 4 x 100
    assert all(e["rules"] == ["22"] for e in out)
    bounties = events(lines, "bounty")
    assert [(b["player"], b["to"]) for b in bounties] == [("d", ["a"]), ("c", ["a"])]
    assert s.replay.state.players["a"].bounties == 50
    assert conserved(s.replay)


def test_rule_22_equal_starting_stacks_share_the_places_prizes() -> None:
    lines, _ = _double_bust(bba=False)
    out = events(lines, "eliminated")
    assert {e["place"] for e in out} == {3}
    assert [e["prize"] for e in out] == [40, 40], "3rd (80) and 4th (0) shared"
    assert all(set(e["tied"]) == {"c", "d"} for e in out)


def test_rule_22_the_last_entry_wins_first_prize_and_keeps_its_bounty() -> None:
    s = _session(_bba_structure(bba=False), {"1": 2}, "ab")
    s.do(t({"type": "start_clock"}, at=1000))
    lines = s.hand("1", {1: "all_in", 2: "call"}, [2])
    winner = events(lines, "winner")[0]
    # Two entries pay two places: 50% and 30% of 200, made up to the whole pool.
    assert (winner["player"], winner["prize"], winner["bounty"]) == ("b", 125, 25)
    second = events(lines, "eliminated")[0]
    assert (second["place"], second["prize"]) == (2, 75)
    assert s.replay.state.finished


def test_rule_25_a_b_a_hand_started_stays_at_its_level_the_next_hand_uses_the_new_one() -> None:
    s = Session(structure(), [{"id": "1", "seats": 3}, {"id": "2", "seats": 3}])
    s.many(_reg("a", "b", "c", "d"))
    s.many([_seat(p, 0) for p in "abcd"])  # a, b, c at table 1; d at table 2
    s.do(t({"type": "move", "player": "c", "table": "2", "seat": 2}))
    s.do(t({"type": "start_clock"}, at=0))
    start = s.do(table("1", {"type": "start_hand"}, at=599_000))
    assert table_events(start, "1", "hand_start")[0]["blinds"] == [50, 100]
    # The level changes while the hand is played: the hand stays at 50/100.
    lines = s.do(table("1", {"type": "act", "seat": 1, "declare": "call"}, at=600_500))
    level = events(lines, "level_started")[0]
    assert (level["level"], level["at"], level["rules"]) == (2, 600_000, ["25-A", "25-B"])
    assert table_events(lines, "1", "level") and table_events(lines, "2", "level")
    assert s.replay.tables["1"].level.blinds == (50, 100)
    s.now = 601_000
    rest = s.hand("2", {}, [1])
    assert table_events(rest, "2", "hand_start")[0]["blinds"] == [100, 200]
    # Table 1 finishes its hand at the old level, and its next hand is at the new one.
    for _ in range(10):
        state = s.replay.tables["1"]
        if state.phase == "idle":
            break
        if state.phase == "betting" and state.to_act is not None:
            s.do(table("1", {"type": "act", "seat": state.to_act, "declare": "fold"}))
    assert s.replay.tables["1"].phase == "idle"
    nxt = s.hand("1", {}, [1])
    assert table_events(nxt, "1", "hand_start")[0]["blinds"] == [100, 200]
    assert conserved(s.replay)


def test_rule_25_a_breaks_stop_new_hands_and_end_by_the_clock() -> None:
    s = _session(structure(), {"1": 3}, "abc")
    s.do(t({"type": "start_clock"}, at=0))
    lines = s.do(table("1", {"type": "start_hand"}, at=1_200_000))
    brk = events(lines, "break_started")[0]
    assert (brk["at"], brk["ends_at"]) == (1_200_000, 1_500_000)
    error = table_events(lines, "1", "error")[0]
    assert error["code"] == "on_break" and "00:25:00" in error["message"]
    after = s.do(table("1", {"type": "start_hand"}, at=1_500_000))
    assert events(after, "level_started")[0]["level"] == 3
    start = table_events(after, "1", "hand_start")[0]
    assert (start["blinds"], start["ante"], start["bba"]) == ([200, 400], 400, True)


def test_rule_rp_23_an_absent_player_keeps_posting_and_a_disqualified_ones_chips_go() -> None:
    s = _session(structure(), {"1": 3}, "abc")
    s.do(t({"type": "start_clock"}, at=1000))
    marked = events(s.do(t({"type": "absent", "player": "b"})), "absence")[0]
    assert marked["absent"] and marked["rules"] == ["RP-23-B"]
    hand = table_events(s.hand("1", {2: "fold"}, [1]), "1", "hand_start")[0]
    assert 2 in hand["dealt"] and any(p["seat"] == 2 for p in hand["posts"])
    stack = s.replay.state.players["b"].stack
    lines = s.do(t({"type": "disqualify", "player": "b", "reason": "left the event"}))
    dq = events(lines, "disqualified")[0]
    assert (dq["chips"], dq["rules"]) == (stack, ["74-D", "RP-23-A"])
    assert table_events(lines, "1", "penalty")[0]["removed"] == stack
    assert s.replay.state.players["b"].status == "disqualified"
    assert conserved(s.replay)


def test_chips_in_play_after_a_chip_penalty_and_a_disqualification() -> None:
    s = _session(structure(), {"1": 3}, "abc")
    s.do(t({"type": "start_clock"}, at=1000))
    penalty = s.do(t({"type": "chip_penalty", "player": "a", "chips": 500, "reason": "soft play"}))
    assert events(penalty, "chips_removed")[0]["rules"] == ["74-A", "RP-26"]
    assert table_events(penalty, "1", "penalty")[0]["removed"] == 500
    s.hand("1", {}, [3])
    dq = events(s.do(t({"type": "disqualify", "player": "c"})), "disqualified")[0]
    assert chips_in_play(s.replay.state) == 30_000 - 500 - dq["chips"]
    assert conserved(s.replay)
    # A chip penalty refused by the table (a hand in play) changes nothing anywhere.
    s.do(table("1", {"type": "start_hand"}, at=2000))
    before = (s.replay.state.removed, s.replay.tables["1"].removed)
    refused = s.do(t({"type": "chip_penalty", "player": "a", "chips": 100}))
    assert events(refused, "tournament_error")[0]["code"] == "hand_in_play"
    assert (s.replay.state.removed, s.replay.tables["1"].removed) == before


def test_chips_in_play_a_hand_end_whose_stacks_do_not_add_up_is_a_floor_alert() -> None:
    from protocol.tournament import HandEnded
    from server import tournament

    s = _session(structure(), {"1": 3}, "ab")
    s.do(t({"type": "start_clock"}, at=1000))
    state = s.replay.state
    stacks = {seat: state.players[who].stack for seat, who in state.tables["1"].occupied.items()}
    fine, good = tournament.apply(state, HandEnded(table="1", hand=1, stacks=stacks, at=2000))
    assert [e.__struct_config__.tag for e in good] == ["hand_counted"]
    stacks[1] += 25  # a chip from nowhere
    _, bad = tournament.apply(fine, HandEnded(table="1", hand=2, stacks=stacks, at=3000))
    alert = [e for e in bad if e.__struct_config__.tag == "chips_miscounted"]
    assert len(alert) == 1 and alert[0].counted - alert[0].in_play == 25
    assert "25 over" in alert[0].text
