"""Table breaks, the final table and the chip race (11-B, 12-C, RP-16, RP-9, 26-A, 26-C), each
test named after its 2026 TDA rule and driven through the tournament replay format."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from protocol.tournament import public
from server.tournament import chips_in_play, draws, pool
from server.tournament_views import tournament_view
from tests.tournament.support import (
    Session,
    conserved,
    events,
    place,
    stacks_on_tables,
    structure,
    t,
    table,
    table_events,
)


def _three(**changes: Any) -> Session:
    """Table 1 seats 1-6, table 2 seats 1-7, table 3 seats 2, 4, 6 (9 seats each)."""
    s = Session(structure(**changes), [{"id": n, "seats": 9} for n in ("1", "2", "3")])
    for n in range(1, 7):
        place(s, f"a{n}", "1", n)
    for n in range(1, 8):
        place(s, f"b{n}", "2", n)
    for n in (2, 4, 6):
        place(s, f"c{n}", "3", n)
    s.do(t({"type": "start_clock"}, at=1000))
    return s


def test_rule_11_b_the_two_step_random_draw_gives_the_recorded_seats() -> None:
    """The free seat cards, taken from the shortest tables first, are table 1 seats 7 and 8 and
    table 2 seat 8. Shuffle input 4 piles them (factorial numbering: 4 = 1·1 + 1·3) as
    [1/8, 2/8, 1/7]; deal input 123456789 gives seats 2, 4, 6 the 2d, 6h, 2s. From the highest
    card (suits counting: 6h, then 2s over 2d) each takes the next seat card."""
    assert draws.shuffled([("1", 7), ("1", 8), ("2", 8)], 4) == [("1", 8), ("2", 8), ("1", 7)]
    assert draws.dealt(3, 123456789) == ["2d", "6h", "2s"]
    s = _three()
    lines = s.do(t({"type": "break_table", "table": "3", "shuffle": 4, "deal": 123456789}))
    broken = events(lines, "table_broken")[0]
    assert broken["pile"] == [["1", 8], ["2", 8], ["1", 7]]
    assert broken["cards"] == {"c2": "2d", "c4": "6h", "c6": "2s"}
    assert broken["seats"] == {"c4": ["1", 8], "c6": ["2", 8], "c2": ["1", 7]}
    assert broken["rules"] == ["11-B"]
    moved = [(e["player"], e["table"], e["seat"], e["kind"]) for e in events(lines, "moved")]
    assert moved == [("c4", "1", 8, "break"), ("c6", "2", 8, "break"), ("c2", "1", 7, "break")]
    assert all("11-A" in e["rules"] for e in events(lines, "moved"))
    assert not s.replay.tables["3"].seats and s.replay.state.tables["3"].broken
    again = _three()
    same = again.do(t({"type": "break_table", "table": "3", "shuffle": 4, "deal": 123456789}))
    assert same == lines, "the same inputs give the same seats"
    # 11-A: at their new table they are dealt in except between the small blind and button.
    hand = table_events(s.hand("1", {}, [1]), "1", "hand_start")[0]
    assert {7, 8} <= set(hand["dealt"])
    assert conserved(s.replay)


def test_rule_11_b_a_break_needing_more_seats_than_are_free_is_refused() -> None:
    s = Session(structure(), [{"id": "1", "seats": 4}, {"id": "2", "seats": 4}])
    for n in range(1, 4):
        place(s, f"a{n}", "1", n)
        place(s, f"b{n}", "2", n)
    before = msgspec.to_builtins(s.replay.state)
    lines = s.do(t({"type": "break_table", "table": "2", "shuffle": 1, "deal": 2}))
    error = events(lines, "tournament_error")[0]
    assert (error["code"], error["rule"]) == ("no_seat", "11-B")
    assert "3 players" in error["message"] and "1 free" in error["message"]
    assert msgspec.to_builtins(s.replay.state) == before, "nothing moves"
    assert len(s.replay.tables["2"].seats) == 3


def test_rule_rp_16_an_absent_players_chips_are_moved_by_staff_who_are_named() -> None:
    s = _three()
    s.do(t({"type": "absent", "player": "c4"}))
    refused = s.do(t({"type": "break_table", "table": "3", "shuffle": 4, "deal": 123456789}))
    assert events(refused, "tournament_error")[0]["field"] == "$.staff"
    lines = s.do(
        t({"type": "break_table", "table": "3", "shuffle": 4, "deal": 123456789, "staff": "Ola"})
    )
    away = next(e for e in events(lines, "moved") if e["player"] == "c4")
    assert (away["absent"], away["by"], away["rules"]) == (True, "Ola", ["11-B", "11-A", "RP-16"])
    assert "carried by Ola" in away["text"]
    assert conserved(s.replay)


def test_rule_11_b_a_break_waits_for_the_tables_it_fills_to_finish_their_hands() -> None:
    s = _three()
    s.do(table("2", {"type": "start_hand"}, at=2000))
    lines = s.do(t({"type": "break_table", "table": "3", "shuffle": 4, "deal": 123456789}))
    announced = events(lines, "break_announced")[0]
    assert announced["waiting"] == ["2"] and announced["pile"] == [["1", 8], ["2", 8], ["1", 7]]
    assert not events(lines, "moved")
    refused = table_events(s.do(table("1", {"type": "start_hand"})), "1", "error")[0]
    assert (refused["code"], refused["rule"]) == ("held", "11-B")
    # A seat card is kept for the break: no seat draw gives it away meanwhile.
    assert ("1", 7) not in pool(s.replay.state)
    done = s.play_on("2", {}, [1])
    assert [e["player"] for e in events(done, "moved")] == ["c4", "c6", "c2"]
    assert table_events(done, "1", "hands_released") and table_events(done, "3", "hands_released")
    assert conserved(s.replay)


def test_rule_12_c_the_break_order_is_shown_to_the_floor_only() -> None:
    """The predetermined order (3, then 2) is the floor's: the proposal is staff only, and no
    public line or tournament view names it."""
    s = _three(break_order=["3", "2", "1"])
    s.hand("1", {}, [1])
    proposed = events(s.lines, "break_proposed")
    assert proposed and proposed[0]["table"] == "3" and proposed[0]["rules"] == ["12-C"]
    s.do(t({"type": "break_table", "table": "3", "shuffle": 0, "deal": 0}))
    tournament_lines = [x for x in s.replay.lines if not hasattr(x, "event")]
    shown = [x for x in tournament_lines if public(x)]
    assert len(shown) == len(tournament_lines) - len(proposed)
    room = json.dumps([msgspec.to_builtins(x) for x in shown])
    assert "break_proposed" not in room and "next to break" not in room
    view = msgspec.json.encode(tournament_view(s.replay.state, "T", 0)).decode()
    assert "break_order" not in view and "break_proposed" not in view


def _two_fives(size: int, button: str = "high_card") -> Session:
    half = 5 if size >= 8 else 4
    s = Session(
        structure(table_size=size, final_button=button),
        [{"id": "1", "seats": size}, {"id": "2", "seats": size}],
    )
    for n in range(1, half + 1):
        place(s, f"a{n}", "1", n)
        place(s, f"b{n}", "2", n)
    s.do(t({"type": "start_clock"}, at=1000))
    return s


def _bust_one(s: Session, tid: str) -> list[dict[str, Any]]:
    """Seat 1 all-in, seat 2 calls and wins; the others fold."""
    seats = [x.number for x in s.replay.tables[tid].seats]
    plan = {n: "fold" for n in seats if n > 2} | {1: "all_in", 2: "call"}
    return s.hand(tid, plan, [2])


def test_rule_rp_9_nine_handed_two_tables_of_five_make_a_nine_handed_final_table() -> None:
    s = _two_fives(9)
    lines = _bust_one(s, "2")
    proposed = events(lines, "final_table_proposed")[0]
    assert (proposed["players"], proposed["size"], proposed["rules"]) == (9, 9, ["RP-9"])
    final = s.do(t({"type": "final_table", "table": "1", "draw": 987654321, "button_draw": 42}))
    drawn = events(final, "final_table")[0]
    assert sorted(drawn["seats"].values()) == sorted(
        draws.shuffled(list(range(1, 10)), 987654321)[:9]
    )
    cards = dict(
        zip(sorted(drawn["seats"], key=drawn["seats"].get), draws.dealt(9, 42), strict=True)
    )
    assert drawn["cards"] == cards and drawn["button_by"] == "high_card"
    assert drawn["button"] == drawn["seats"][draws.by_high_card(cards)[0]]
    assert len(s.replay.tables["1"].seats) == 9 and not s.replay.tables["2"].seats
    assert s.replay.state.tables["2"].broken
    start = table_events(s.hand("1", {}, [1]), "1", "hand_start")[0]
    assert start["button"] == drawn["button"] and len(start["dealt"]) == 9
    assert conserved(s.replay)


def test_rule_rp_9_seven_handed_two_tables_of_four_make_a_seven_handed_final_table() -> None:
    """With the big blind's continuity: the player next to be the big blind at the larger table
    posts the final table's first big blind."""
    s = _two_fives(7, button="big_blind")
    s.hand("1", {}, [1])  # table 1: button 1, big blind 3; next big blind seat 4 (a4)
    lines = _bust_one(s, "2")
    proposed = events(lines, "final_table_proposed")[0]
    assert (proposed["players"], proposed["size"]) == (7, 7)
    final = s.do(t({"type": "final_table", "table": "2", "draw": 5040 + 17}))
    drawn = events(final, "final_table")[0]
    assert drawn["button_by"] == "big_blind" and len(drawn["seats"]) == 7
    start = table_events(s.hand("2", {}, [1]), "2", "hand_start")[0]
    assert start["big_blind"] == drawn["seats"]["a4"]
    assert start["button"] == drawn["button"]
    assert conserved(s.replay)


def _deal_draw(cards: list[str]) -> int:
    """The random input that deals ``cards`` first (the factorial numbering of draws)."""
    deck, draw, scale = list(draws.DECK), 0, 1
    for card in cards:
        draw += deck.index(card) * scale
        scale *= len(deck)
        deck.remove(card)
    return draw


def _race_structure() -> dict[str, Any]:
    return structure(
        levels=[
            {"blinds": [25, 50], "minutes": 10},
            {"break": 5, "color_up": [25]},
            {"blinds": [100, 200], "minutes": 10},
        ],
        late_registration_until=1,
    )


def test_rule_26_a_c_the_race_from_seat_1_one_chip_each_nobody_raced_out() -> None:
    """The 25s are raced off at the break. Seat 1 holds 75 in all, seat 2 9,975 (with 175 in
    25s: 100 of them exchanged at full value), seat 3 9,975: 75 odd each, 225 in all, so two
    100 chips race and 25 leaves play without compensation (26-C). The cards, dealt from seat 1,
    go 9c, 3d, Kh: seats 3 and 1 win one chip each (at most one a player); seat 2 keeps 9,900.
    Had seat 1 lost, it would have got one 100 chip: nobody is raced out (26-A)."""
    s = Session(_race_structure(), [{"id": "1", "seats": 3}])
    for n in (1, 2, 3):
        place(s, f"p{n}", "1", n)
    s.do(t({"type": "start_clock"}, at=0))
    s.do(t({"type": "chip_penalty", "player": "p1", "chips": 9_925}))
    s.do(t({"type": "chip_penalty", "player": "p2", "chips": 25}))
    s.do(t({"type": "chip_penalty", "player": "p3", "chips": 25}))
    s.do(t({"type": "next_level"}, at=1000))
    before = chips_in_play(s.replay.state)
    bad = s.do(t({"type": "color_up", "table": "1", "odd": {2: 150}, "draw": 7}))
    assert events(bad, "tournament_error")[0]["field"] == "$.odd"
    draw = _deal_draw(["9c", "3d", "Kh"])
    assert draws.dealt(3, draw) == ["9c", "3d", "Kh"]
    lines = s.do(t({"type": "color_up", "table": "1", "odd": {2: 175}, "draw": draw}))
    race = events(lines, "chip_race")[0]
    assert (race["unit"], race["chips"][:2], race["odd"]) == (
        100,
        [100, 500],
        {1: 75, 2: 75, 3: 75},
    )
    assert race["cards"] == {1: "9c", 2: "3d", 3: "Kh"}
    assert (race["winners"], race["rescued"], race["remainder"]) == ([1, 3], [], 25)
    assert race["won"] == {1: 100, 3: 100} and race["rules"] == ["26-A", "26-C"]
    colored = table_events(lines, "1", "colored_up")[0]
    assert colored["stacks"] == {1: 100, 2: 9_900, 3: 10_000}
    assert chips_in_play(s.replay.state) == before - 25, "exactly what 26-C removes"
    assert conserved(s.replay) and stacks_on_tables(s.replay) == before - 25

    rescue = Session(_race_structure(), [{"id": "1", "seats": 3}])
    for n in (1, 2, 3):
        place(rescue, f"p{n}", "1", n)
    rescue.do(t({"type": "start_clock"}, at=0))
    for who, chips in (("p1", 9_925), ("p2", 25), ("p3", 25)):
        rescue.do(t({"type": "chip_penalty", "player": who, "chips": chips}))
    rescue.do(t({"type": "next_level"}, at=1000))
    before = chips_in_play(rescue.replay.state)
    low = _deal_draw(["3d", "9c", "Kh"])
    out = events(rescue.do(t({"type": "color_up", "table": "1", "draw": low})), "chip_race")[0]
    assert (out["winners"], out["rescued"]) == ([2, 3], [1]), "seat 1 is not raced out"
    assert out["won"] == {1: 100, 2: 100, 3: 100}
    assert chips_in_play(rescue.replay.state) == before - 25 + 100
    assert conserved(rescue.replay)
