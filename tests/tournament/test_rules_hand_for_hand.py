"""Hand-for-hand (RP-8), each test named after its 2026 TDA rule and driven through the
tournament replay format (the tables are the real table engine)."""

from __future__ import annotations

import json
from typing import Any

from server.views import public_event, public_view, staff_view
from tests.tournament.support import (
    Session,
    conserved,
    events,
    place,
    structure,
    t,
    table,
    table_events,
)


def table_events_all(lines: list[dict[str, Any]], tid: str) -> list[dict[str, Any]]:
    """Every event of table ``tid`` in ``lines``, as the wire has it."""
    return [line["event"] for line in lines if "event" in line and line["table"] == tid]


def _bubble() -> Session:
    """52 players on six 9-seat tables, 50 paid (50th: 90), registration closed."""
    places = [
        {"place": 1, "amount": 5_000},
        {"place": 2, "to": 49, "amount": 100},
        {"place": 50, "amount": 90},
    ]
    s = Session(
        structure(payouts={"places": places}, late_registration_until=0),
        [{"id": str(n), "seats": 9} for n in range(1, 7)],
    )
    count = 0
    for tid in range(1, 7):
        for seat in range(1, 10):
            if count < 52:
                place(s, f"p{tid}{seat}", str(tid), seat)
                count += 1
    s.do(t({"type": "start_clock"}, at=0))
    return s


def _folds(s: Session, tid: str) -> dict[int, str]:
    return {x.number: "fold" for x in s.replay.tables[tid].seats}


def _all_in(s: Session, tid: str, shove: list[int], caller: int) -> list[dict[str, Any]]:
    """The ``shove`` seats all-in, ``caller`` calls and wins; in hand-for-hand the cards wait
    for the floor (RP-8-F), who releases them; the hand is played out."""
    plan = _folds(s, tid) | dict.fromkeys(shove, "all_in") | {caller: "call"}
    out = s.hand(tid, plan, [caller])
    if s.replay.tables[tid].cards_held:
        out += s.do(t({"type": "release_cards", "table": tid}))
        out += s.play_on(tid, plan, [caller])
    return out


def test_rule_rp_8_a_players_out_in_one_hand_for_hand_hand_share_their_places_prizes() -> None:
    """The example: 50 paid, 52 left at the announcement, 3 out in the same hand-for-hand hand
    (one at table 1, two at table 2): they share 50th place's prize (90: 30 each)."""
    s = _bubble()
    assert s.replay.state.prizes[49] == 90 and len(s.replay.state.prizes) == 50
    started = events(s.do(t({"type": "hand_for_hand"}, at=60_000)), "hand_for_hand")[0]
    assert (started["players"], started["paid"], started["waiting"]) == (52, 50, [])
    assert "RP-8-A" in started["rules"]
    first = _all_in(s, "1", [4], 5)
    out = events(first, "eliminated")[0]
    assert (out["player"], out["place"], out["h4h"], out["rules"]) == ("p14", 0, 1, ["RP-8-A"])
    assert table_events(first, "1", "hands_held"), "table 1 waits for the others"
    error = table_events(s.do(table("1", {"type": "start_hand"})), "1", "error")[0]
    assert (error["code"], error["rule"]) == ("held", "RP-8")
    assert staff_view(s.replay.tables["1"]).waiting_on == (
        "held: hand-for-hand: waiting for the other tables (RP-8)"
    )
    second = _all_in(s, "2", [4, 6], 5)
    assert len(events(second, "eliminated")) == 2
    for tid in ("3", "4", "5"):
        s.hand(tid, {}, [1])
    last = s.hand("6", {}, [1])
    round_ = events(last, "hand_for_hand_hand")[0]
    assert round_["hand"] == 1 and sorted(round_["out"]) == ["p14", "p24", "p26"]
    placed = events(last, "placed")
    assert [(p["place"], p["prize"]) for p in placed] == [(50, 30)] * 3
    assert all(set(p["tied"]) == {"p14", "p24", "p26"} and "RP-8-A" in p["rules"] for p in placed)
    assert all(table_events(last, tid, "hands_released") for tid in ("1", "2", "3"))
    assert table_events(s.hand("1", {}, [1]), "1", "hand_start"), "the next hand is released"
    assert conserved(s.replay)


def _clocked(minutes: int = 2) -> Session:
    s = Session(
        structure(
            hand_for_hand_minutes=minutes,
            levels=[
                {"blinds": [50, 100], "minutes": 10},
                {"blinds": [100, 200], "minutes": 10},
            ],
        ),
        [{"id": "1", "seats": 9}, {"id": "2", "seats": 9}],
    )
    for n in range(1, 6):
        place(s, f"a{n}", "1", n)
        place(s, f"b{n}", "2", n)
    s.do(t({"type": "start_clock"}, at=0))
    return s


def test_rule_rp_8_b_c_d_the_clock_loses_two_minutes_a_hand_and_the_levels_go_on() -> None:
    """Announced with 5:00 left in level 1: the clock stops; each hand-for-hand hand takes 2
    minutes off it (RP-8-B/C), so the third hand starts level 2 at the hand boundary, with
    its clock 1 minute into it (RP-8-D); ending hand-for-hand runs the clock again."""
    s = _clocked()
    start = s.do(t({"type": "hand_for_hand"}, at=300_000))
    assert events(start, "clock_paused")[0]["remaining"] == 300_000
    assert events(start, "hand_for_hand")[0]["minutes"] == 2
    left = []
    for _ in range(3):
        s.hand("1", {}, [1])
        lines = s.hand("2", {}, [1])
        left += [e["remaining"] for e in events(lines, "time_changed")]
        if events(lines, "level_started"):
            level = events(lines, "level_started")[0]
    assert left == [180_000, 60_000, 540_000]
    assert level["level"] == 2
    assert s.replay.state.clock.remaining == 540_000 and not s.replay.state.clock.running
    nxt = table_events(s.hand("1", {}, [1]), "1", "hand_start")[0]
    assert nxt["blinds"] == [100, 200], "the blinds went on rising"
    s.hand("2", {}, [1])
    ended = s.do(t({"type": "hand_for_hand", "on": False}, at=900_000))
    assert events(ended, "clock_resumed")[0]["ends_at"] == 900_000 + 420_000, "one more hand"
    assert table_events(ended, "1", "hand_for_hand")[0]["on"] is False
    assert conserved(s.replay)


def test_rule_rp_8_b_at_most_three_minutes_a_hand() -> None:
    from protocol.codec import ProtocolError
    from tests.tournament.support import run, scenario

    try:
        run(scenario(structure(hand_for_hand_minutes=4), [], []))
    except ProtocolError as error:
        assert "hand_for_hand_minutes" in str(error)
    else:
        raise AssertionError("4 minutes a hand is refused")
    s = _clocked(minutes=3)
    s.do(t({"type": "hand_for_hand"}, at=300_000))
    s.hand("1", {}, [1])
    assert events(s.hand("2", {}, [1]), "time_changed")[0]["remaining"] == 120_000


def test_rule_rp_8_f_an_all_in_and_call_stays_face_down_until_the_floor_releases_it() -> None:
    """Hand-for-hand at two tables: table 1's all-in and call waits, cards face down, no card
    dealt; no display sees the hands before the floor's release; then they are turned up."""
    s = _clocked()
    s.do(t({"type": "hand_for_hand"}, at=300_000))
    cards = {n: [f"{r}s", f"{r}h"] for n, r in zip(range(1, 6), "AKQJT", strict=True)}
    plan = {3: "fold", 4: "fold", 5: "fold", 1: "all_in", 2: "call"}
    lines = s.hand("1", plan, [1], cards=cards)
    held = table_events(lines, "1", "cards_held")[0]
    assert held["seats"] == [1, 2] and held["rules"] == ["RP-8-F"] and "cards" not in held
    assert not table_events(lines, "1", "expose_all")
    view = public_view(s.replay.tables["1"])
    assert all(not seat.cards for seat in view.seats), "no display sees a hand"
    shown = json.dumps([public_event(e) for e in table_events_all(lines, "1")])
    assert not any(card in shown for card in ("As", "Ah", "Ks", "Kh")), "nor an event"
    error = table_events(s.do(table("1", {"type": "deal", "street": "flop"})), "1", "error")[0]
    assert (error["code"], error["rule"]) == ("cards_held", "RP-8-F")
    released = s.do(t({"type": "release_cards", "table": "1"}))
    assert events(released, "all_in_released")[0]["rules"] == ["RP-8-F"]
    exposed = table_events(released, "1", "expose_all")[0]
    assert exposed["cards"] == {1: ["As", "Ah"], 2: ["Ks", "Kh"]}
    assert [s_.cards for s_ in public_view(s.replay.tables["1"]).seats][:2] == [
        ["As", "Ah"],
        ["Ks", "Kh"],
    ]
    s.play_on("1", plan, [1])
    assert s.replay.tables["1"].phase == "idle"
    assert conserved(s.replay)


def test_rule_rp_8_the_floor_releases_the_next_hand_when_the_structure_says_so() -> None:
    s = Session(
        structure(hand_for_hand_release="floor"), [{"id": "1", "seats": 9}, {"id": "2", "seats": 9}]
    )
    for n in range(1, 4):
        place(s, f"a{n}", "1", n)
        place(s, f"b{n}", "2", n)
    s.do(t({"type": "start_clock"}, at=0))
    s.do(table("2", {"type": "start_hand"}, at=1000))
    started = events(s.do(t({"type": "hand_for_hand"}, at=2000)), "hand_for_hand")[0]
    assert started["waiting"] == ["2"], "table 2 finishes the hand it is playing"
    assert table_events(s.do(table("1", {"type": "start_hand"})), "1", "error")
    early = s.do(t({"type": "release_hands"}))
    assert events(early, "tournament_error")[0]["code"] == "hand_in_play"
    done = s.play_on("2", {}, [1])
    assert events(done, "hand_for_hand_hand")[0]["released"] is False
    assert table_events(s.do(table("2", {"type": "start_hand"})), "2", "error")
    released = s.do(t({"type": "release_hands"}))
    assert table_events(released, "1", "hands_released") and table_events(
        released, "2", "hands_released"
    )
    assert table_events(s.hand("1", {}, [1]), "1", "hand_start")


def test_rule_rp_8_a_table_broken_during_hand_for_hand_leaves_no_table_waiting_for_it() -> None:
    """Tables 1 and 2 have played their hand-for-hand hand and wait; table 3 is broken before
    dealing its own (11-B): the hand is over at every table left, and the next one starts."""
    s = Session(structure(), [{"id": n, "seats": 9} for n in ("1", "2", "3")])
    for n in range(1, 7):
        place(s, f"a{n}", "1", n)
    for n in range(1, 8):
        place(s, f"b{n}", "2", n)
    for n in (2, 4, 6):
        place(s, f"c{n}", "3", n)
    s.do(t({"type": "start_clock"}, at=1000))
    s.do(t({"type": "hand_for_hand"}, at=2000))
    s.hand("1", {}, [1])
    s.hand("2", {}, [1])
    assert s.replay.state.h4h is not None and s.replay.state.h4h.waiting == ["3"]
    lines = s.do(t({"type": "break_table", "table": "3", "shuffle": 4, "deal": 5}))
    assert events(lines, "hand_for_hand_hand")[0]["hand"] == 1
    assert table_events(lines, "1", "hands_released") and table_events(lines, "2", "hands_released")
    assert table_events(s.hand("1", {}, [1]), "1", "hand_start")
    assert conserved(s.replay)


def _river_all_in(s: Session) -> None:
    """At table 1 seat 1 goes all in on the river and seat 2 calls (AA against KK, the board
    complete): the cards wait for the floor (RP-8-F)."""
    cards = {1: ["As", "Ah"], 2: ["Ks", "Kh"], 3: ["4d", "5s"], 4: ["6h", "9h"], 5: ["Tc", "Qs"]}
    board = {"flop": ["7c", "8d", "2s"], "turn": ["3c"], "river": ["Jd"]}
    s.do(table("1", {"type": "start_hand", "cards": cards}))
    while not s.replay.tables["1"].cards_held:
        state = s.replay.tables["1"]
        if state.phase == "deal":
            street = state.next_street
            s.do(table("1", {"type": "deal", "street": street, "cards": board[street]}))
            continue
        seat = state.to_act
        assert state.phase == "betting" and seat is not None, state.phase
        facing = state.current_bet > next(x.bet for x in state.seats if x.number == seat)
        if state.street == "river" and seat == 1:
            how = "all_in"
        elif state.street == "river" and facing:
            how = "call" if seat == 2 else "fold"
        else:
            how = "call" if facing else "check"
        s.do(table("1", {"type": "act", "seat": seat, "declare": how}))


def test_rule_rp_8_f_an_all_in_released_on_the_river_ends_its_hand_and_it_is_counted() -> None:
    """Hand-for-hand; table 2 has played its hand and waits. At table 1 an all-in and call on
    the river waits for the floor (RP-8-F). The floor's release turns the cards up and, the
    board complete, the hand is awarded at once (17): that hand end is counted like any other
    — seat 2 busted is out, the hand-for-hand hand is over at every table and the next one
    starts — and chips are conserved."""
    s = _clocked()
    s.do(t({"type": "hand_for_hand"}, at=300_000))
    s.hand("2", {}, [1])
    _river_all_in(s)
    released = s.do(t({"type": "release_cards", "table": "1"}))
    assert table_events(released, "1", "hand_end"), "the release awards the hand at once"
    counted = events(released, "hand_counted")
    assert [(e["table"], e["stacks"][2]) for e in counted] == [("1", 0)]
    assert [e["player"] for e in events(released, "eliminated")] == ["a2"]
    assert events(released, "hand_for_hand_hand")[0]["hand"] == 1, "over at every table"
    assert table_events(s.hand("2", {}, [1]), "2", "hand_start"), "the next hand starts"
    assert s.replay.state.players["a2"].status == "eliminated"
    assert conserved(s.replay)


def test_rule_rp_8_f_an_all_in_still_held_when_hand_for_hand_ends_is_counted_too() -> None:
    """The floor ends hand-for-hand while table 1's all-in and call on the river waits: the
    cards are turned up and the hand awarded, and the tournament counts that hand end (seat 2
    out, the table's next hand dealt with the four left)."""
    s = _clocked()
    s.do(t({"type": "hand_for_hand"}, at=300_000))
    _river_all_in(s)
    ended = s.do(t({"type": "hand_for_hand", "on": False}, at=310_000))
    assert table_events(ended, "1", "hand_end")
    assert [e["table"] for e in events(ended, "hand_counted")] == ["1"]
    assert [e["player"] for e in events(ended, "eliminated")] == ["a2"]
    nxt = table_events(s.hand("1", {}, [1]), "1", "hand_start")[0]
    assert 2 not in nxt["dealt"] and len(nxt["dealt"]) == 4
    assert conserved(s.replay)
