"""Balancing, stoppage, mixed games and penalties across a move (12-A, 12-B, 12-D, 74), each
test named after its 2026 TDA rule and driven through the tournament replay format; the table
commands go through the real table engine, so the blinds checked are the ones it deals."""

from __future__ import annotations

from typing import Any

from server.views import staff_view
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


def _two_tables(long: list[int], short: list[int], **changes: Any) -> Session:
    """Tables 1 and 2 of the structure's size (nine seats unless ``table_size`` says; buttons
    on seat 1), players ``aN`` at table 1 seats ``long`` and ``bN`` at table 2 seats ``short``;
    the clock started."""
    seats = changes.get("table_size", 9)
    s = Session(structure(**changes), [{"id": "1", "seats": seats}, {"id": "2", "seats": seats}])
    for n in long:
        place(s, f"a{n}", "1", n)
    for n in short:
        place(s, f"b{n}", "2", n)
    s.do(t({"type": "start_clock"}, at=1000))
    return s


def _start(lines: list[dict[str, Any]], tid: str) -> dict[str, Any]:
    return table_events(lines, tid, "hand_start")[0]


def test_rule_12_a_the_next_big_blind_moves_to_the_worst_position() -> None:
    """Table 1 (8 players) and table 2 (6) are two apart. The player next to be the big blind
    at table 1 goes to the seat of table 2 that takes the big blind soonest; neither table's
    big blind skips anyone, and the moved player posts the big blind next, once."""
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 5, 7, 8])
    first_2 = _start(s.hand("2", {}, [1]), "2")
    assert (first_2["button"], first_2["small_blind"], first_2["big_blind"]) == (1, 2, 3)
    lines = s.hand("1", {}, [1])
    assert _start(lines, "1")["big_blind"] == 3
    proposal = events(lines, "move_proposed")[-1]
    assert (proposal["from_table"], proposal["from_seat"], proposal["player"]) == ("1", 4, "a4")
    assert (proposal["table"], proposal["seat"], proposal["rules"]) == ("2", 4, ["12-A"])
    assert proposal["revised"], "first proposed before table 1 had dealt; now from its blinds"
    assert "8 players and table 2 6" in proposal["reason"]
    assert proposal["counts"] == {"1": 8, "2": 6}

    moved = s.do(t({"type": "confirm_move", "proposal": proposal["proposal"]}))
    assert [e["type"] for e in moved if "type" in e] == ["move_confirmed", "moved"]
    move = events(moved, "moved")[0]
    assert (move["kind"], move["from_seat"], move["table"], move["seat"]) == ("balance", 4, "2", 4)
    assert table_events(moved, "1", "player_removed")[0]["seat"] == 4
    assert table_events(moved, "2", "player_added")[0]["seat"] == 4

    # Table 1: the big blind goes on to the next player (nobody skips it).
    assert _start(s.hand("1", {}, [1]), "1")["big_blind"] == 5
    # Table 2: the moved player is the big blind at once; the next player keeps his turn.
    second_2 = _start(s.hand("2", {}, [1]), "2")
    assert (second_2["small_blind"], second_2["big_blind"]) == (3, 4)
    assert 4 in second_2["dealt"]
    assert _start(s.hand("2", {}, [1]), "2")["big_blind"] == 5
    assert not s.replay.state.proposals, "7 and 7: balanced"
    assert conserved(s.replay)


def test_rule_12_a_a_table_yet_to_deal_gets_moves_to_its_first_hands_big_blind() -> None:
    """Table 2 has not dealt a hand yet (a new table, or one a break left short) and holds one
    player, on its button seat. Heads up the button posts the small blind, so every empty seat
    posts the first big blind: the move goes to the first seat after the button. (It used to be
    none: every empty seat counted as between the button and the small blind, and table 2
    never got a move.) With two more proposed, each takes the next big blind in turn."""
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8, 9], [1])
    lines = s.hand("1", {}, [1])
    proposals = events(lines, "move_proposed")
    assert proposals, "table 2 gets players"
    first = proposals[0]
    assert (first["table"], first["seat"]) == ("2", 2)
    assert [p["seat"] for p in proposals if p["table"] == "2"][:3] == [2, 3, 4]
    s.do(t({"type": "confirm_move", "proposal": first["proposal"]}))
    start = _start(s.hand("2", {}, [1]), "2")
    assert (start["button"], start["small_blind"], start["big_blind"]) == (1, 1, 2)
    assert conserved(s.replay)


def test_rule_12_a_before_a_tables_first_hand_the_first_small_blind_is_never_the_worst() -> None:
    """Table 2 has not dealt: button seat 1, players on seats 1, 4 and 7, so its first hand
    has the small blind on 4 and the big blind on 7. A newcomer on 5 or 6 would post that big
    blind; on 2 or 3 the small blind (never the worst position, 12-A)."""
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 4, 7])
    proposal = events(s.hand("1", {}, [1]), "move_proposed")[0]
    assert (proposal["table"], proposal["seat"]) == ("2", 5)
    s.do(t({"type": "confirm_move", "proposal": proposal["proposal"]}))
    start = _start(s.hand("2", {}, [1]), "2")
    assert (start["small_blind"], start["big_blind"]) == (4, 5)
    assert conserved(s.replay)


def test_rule_12_a_no_move_to_a_table_yet_to_deal_where_every_seat_posts_the_small_blind() -> None:
    """Table 2 has not dealt: button seat 1, players on 1, 8 and 9. A newcomer on any empty
    seat (2 to 7) would be the first player after the button: the first small blind, never the
    worst position (12-A). So no move is proposed until table 2 has dealt; then its next big
    blind's seat decides. The other side: players on 1, 2 and 9 leave seats 3 to 8 after the
    first small blind (2), and the move goes to 3, the first big blind's."""
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 8, 9])
    assert not events(s.hand("1", {}, [1]), "move_proposed")
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 9])
    proposal = events(s.hand("1", {}, [1]), "move_proposed")[0]
    assert (proposal["table"], proposal["seat"]) == ("2", 3)


def test_rule_12_a_never_the_small_blind_and_the_single_big_blind_counts() -> None:
    """Table 2's big blind (seat 3) busts: the next hand's small blind is dead on seat 3. The
    worst position is then seat 4 — it takes a single big blind, the small blind dead — and
    never seat 3, the small blind's seat (12-A)."""
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 5, 7, 8])
    busting = s.hand("2", {3: "all_in", 5: "call", 7: "fold", 8: "fold", 1: "fold", 2: "fold"}, [5])
    assert events(busting, "eliminated")[0]["player"] == "b3"
    proposal = events(busting, "move_proposed")[-1]
    assert (proposal["table"], proposal["seat"]) == ("2", 4), "seat 3 is the small blind's"
    revised = events(s.hand("1", {}, [1]), "move_proposed")[-1]
    assert (revised["player"], revised["from_seat"], revised["seat"]) == ("a4", 4, 4)
    s.do(t({"type": "confirm_move", "proposal": proposal["proposal"]}))
    single = _start(s.hand("2", {}, [1]), "2")
    assert single["small_blind"] is None and single["big_blind"] == 4
    assert [p["kind"] for p in single["posts"]] == ["big_blind"], "a single big blind"
    assert conserved(s.replay)


def test_rule_12_a_never_the_seat_the_button_moves_to_the_move_waits_for_a_worse_one() -> None:
    """Both full; table 2's small and big blind (seats 2 and 3) bust in its first hand. Its
    next hand has the button dead on seat 2 and the small blind dead on seat 3: its only free
    seats. A player moved to seat 2 would take the button before any blind — the best
    position, not the worst (12-A) — so no move is proposed there. After table 2's next hand
    seat 2 is behind the button: table 1's next big blind moves there and posts the big blind
    before the small blind or the button."""
    s = _two_tables(list(range(1, 10)), list(range(1, 10)))
    s.hand("1", {}, [1])
    folds = dict.fromkeys(range(1, 10), "fold")
    busting = s.hand("2", {**folds, 2: "all_in", 3: "call", 4: "call"}, [4])
    assert sorted(e["player"] for e in events(busting, "eliminated")) == ["b2", "b3"]
    assert not [p for p in events(busting, "move_proposed") if p["seat"] == 2]
    dead = s.hand("2", {}, [1])
    start = _start(dead, "2")
    assert (start["button"], start["small_blind"], start["big_blind"]) == (2, None, 4)
    proposal = events(dead, "move_proposed")[-1]
    assert (proposal["from_table"], proposal["table"], proposal["seat"]) == ("1", "2", 2)
    moved = events(s.do(t({"type": "confirm_move", "proposal": proposal["proposal"]})), "moved")
    who = moved[0]["player"]
    for _ in range(9):
        start = _start(s.hand("2", {}, [1]), "2")
        if 2 in (start["big_blind"], start["small_blind"], start["button"]):
            break
    assert start["big_blind"] == 2, f"{who} posts the big blind first: {start}"
    assert conserved(s.replay)


def test_rule_12_a_of_two_moves_from_a_table_the_one_made_first_moves_the_next_big_blind() -> None:
    """Table 1 (9 players) and table 2 (5) need two moves: the next big blind at table 1 (seat
    4) and the one after him (seat 5) are proposed. The floor confirms the second proposal
    first: it is made at once, and the player it moves is read again from the table - the next
    big blind, seat 4, since the other proposal is not confirmed and may never be made. So
    table 1's next big blind is seat 5: nobody there skips it (12-A)."""
    s = _two_tables(list(range(1, 10)), [1, 2, 3, 5, 7])
    lines = s.hand("1", {}, [1])
    proposals = {p["proposal"]: p for p in events(lines, "move_proposed")}
    assert sorted(p["from_seat"] for p in proposals.values()) == [4, 5]
    second = next(n for n, p in proposals.items() if p["from_seat"] == 5)
    moved = events(s.do(t({"type": "confirm_move", "proposal": second})), "moved")
    assert [(m["player"], m["from_seat"]) for m in moved] == [("a4", 4)]
    assert _start(s.hand("1", {}, [1]), "1")["big_blind"] == 5
    assert conserved(s.replay)


def _one_made_one_waiting() -> tuple[Session, int]:
    """Table 1 (9 players) sends one player each to tables 2 and 3 (6 each; no stoppage here,
    12-D): the next big blind (seat 4) to table 3, the one after him (seat 5) to table 2. Both
    are confirmed, the first while table 3 is in a hand, so it waits; the second is made at
    once and must move the next big blind, seat 4: the waiting move's player is read again
    when it is made. (It used to skip him: seat 5 moved.) Returns the waiting move."""
    s = Session(structure(stoppage=0), [{"id": n, "seats": 9} for n in ("1", "2", "3")])
    for n in range(1, 10):
        place(s, f"a{n}", "1", n)
    for n in (1, 2, 3, 5, 7, 8):
        place(s, f"b{n}", "2", n)
        place(s, f"c{n}", "3", n)
    s.do(t({"type": "start_clock"}, at=1000))
    s.hand("2", {}, [1])
    s.hand("3", {}, [1])
    assert _start(s.hand("1", {}, [1]), "1")["big_blind"] == 3
    named = {n: (p.player, p.table) for n, p in s.replay.state.proposals.items()}
    assert sorted(named.values()) == [("a4", "3"), ("a5", "2")]
    to_3 = next(n for n, (_, dst) in named.items() if dst == "3")
    to_2 = next(n for n, (_, dst) in named.items() if dst == "2")
    s.do(table("3", {"type": "start_hand"}, at=s.now + 1))
    waits = s.do(t({"type": "confirm_move", "proposal": to_3}))
    assert events(waits, "move_confirmed")[0]["waiting"] == ["3"] and not events(waits, "moved")
    made = events(s.do(t({"type": "confirm_move", "proposal": to_2})), "moved")
    assert [(m["player"], m["from_seat"], m["table"]) for m in made] == [("a4", 4, "2")]
    return s, to_3


def test_rule_12_a_a_move_made_while_another_waits_moves_the_next_big_blind() -> None:
    """The waiting move is made when table 3's hand ends: it moves the next big blind then,
    seat 5, and table 1's big blind goes on to seat 6 (12-A)."""
    s, _ = _one_made_one_waiting()
    later = events(s.play_on("3", {}, [1]), "moved")
    assert [(m["player"], m["from_seat"], m["table"]) for m in later] == [("a5", 5, "3")]
    assert _start(s.hand("1", {}, [1]), "1")["big_blind"] == 6
    assert conserved(s.replay)


def test_rule_12_a_a_waiting_move_dismissed_leaves_the_big_blind_to_the_next_player() -> None:
    """The floor dismisses the waiting move: only seat 4 moved, so table 1's big blind goes
    to seat 5, the player after him. (Before the fix seat 5 had moved and the big blind fell
    on seat 4, the player who should have moved, 12-A.)"""
    s, waiting = _one_made_one_waiting()
    s.do(t({"type": "dismiss_move", "proposal": waiting, "reason": "the TD waits"}))
    assert _start(s.hand("1", {}, [1]), "1")["big_blind"] == 5
    s.play_on("3", {}, [1])
    assert conserved(s.replay)


def _two_to_one_table() -> tuple[Session, int]:
    """Tables 1 and 3 (9 players each) send one player each to table 2 (5; no stoppage,
    12-D), whose next hand has the small blind on 3 and the big blind on 5: table 1's move
    to seat 4 (the worst position: the big blind at once), table 3's to seat 6. Both are
    confirmed, table 1's while it is in a hand, so it waits; table 3's is made at once and
    must take the worst seat, 4: the waiting move's seat is read again when it is made. (It
    used to skip it: seat 6.) Returns the waiting move."""
    s = Session(structure(stoppage=0), [{"id": n, "seats": 9} for n in ("1", "2", "3")])
    for n in range(1, 10):
        place(s, f"a{n}", "1", n)
        place(s, f"c{n}", "3", n)
    for n in (1, 2, 3, 5, 7):
        place(s, f"b{n}", "2", n)
    s.do(t({"type": "start_clock"}, at=1000))
    for name in ("2", "3", "1"):
        s.hand(name, {}, [1])
    named = {n: (p.from_table, p.seat) for n, p in s.replay.state.proposals.items()}
    assert sorted(named.values()) == [("1", 4), ("3", 6)]
    from_1 = next(n for n, (src, _) in named.items() if src == "1")
    from_3 = next(n for n, (src, _) in named.items() if src == "3")
    s.do(table("1", {"type": "start_hand"}, at=s.now + 1))
    assert events(s.do(t({"type": "confirm_move", "proposal": from_1})), "move_confirmed")
    made = events(s.do(t({"type": "confirm_move", "proposal": from_3})), "moved")
    assert [(m["from_table"], m["table"], m["seat"]) for m in made] == [("3", "2", 4)]
    return s, from_1


def test_rule_12_a_a_move_made_while_another_waits_takes_the_worst_seat() -> None:
    """The waiting move is made when table 1's hand ends: to the worst seat then, 6; at table
    2 the two newcomers post the big blind in turn (12-A)."""
    s, _ = _two_to_one_table()
    later = events(s.play_on("1", {}, [1]), "moved")
    assert [(m["from_table"], m["table"], m["seat"]) for m in later] == [("1", "2", 6)]
    starts = [_start(s.hand("2", {}, [1]), "2")["big_blind"] for _ in range(3)]
    assert starts == [4, 5, 6]
    assert conserved(s.replay)


def test_rule_12_a_a_waiting_move_dismissed_leaves_the_mover_on_the_worst_seat() -> None:
    """The floor dismisses the waiting move: the one player moved sits on seat 4 and posts
    table 2's next big blind (12-A)."""
    s, waiting = _two_to_one_table()
    s.do(t({"type": "dismiss_move", "proposal": waiting, "reason": "the TD waits"}))
    assert _start(s.hand("2", {}, [1]), "2")["big_blind"] == 4
    s.play_on("1", {}, [1])
    assert conserved(s.replay)


def test_rule_12_a_a_move_waits_for_both_tables_to_be_between_hands() -> None:
    """Confirmed while table 2 is in a hand: both tables are held (table 1 cannot start a hand
    and says why), and the move is made in the step of table 2's hand end, the player and the
    seat read again from the tables then."""
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 5, 7, 8])
    s.hand("2", {}, [1])
    proposal = events(s.hand("1", {}, [1]), "move_proposed")[-1]
    s.do(table("2", {"type": "start_hand"}, at=s.now + 1))
    confirmed = s.do(t({"type": "confirm_move", "proposal": proposal["proposal"]}))
    assert events(confirmed, "move_confirmed")[0]["waiting"] == ["2"]
    assert not events(confirmed, "moved")
    assert {e["hold"] for e in table_events(confirmed, "1", "hands_held")} == {"move-1"}
    refused = table_events(s.do(table("1", {"type": "start_hand"})), "1", "error")[0]
    assert (refused["code"], refused["rule"]) == ("held", "12-A")
    assert staff_view(s.replay.tables["1"]).waiting_on.startswith("held: a player moves")
    ended = s.play_on("2", {}, [1])
    move = events(ended, "moved")[0]
    # Table 2 dealt a hand meanwhile (big blind 5): its worst seat is now seat 6.
    assert (move["player"], move["table"], move["seat"]) == ("a4", "2", 6)
    assert table_events(ended, "1", "hands_released") and table_events(ended, "2", "hands_released")
    assert _start(s.hand("1", {}, [1]), "1")["big_blind"] == 5
    assert _start(s.hand("2", {}, [1]), "2")["big_blind"] == 6
    assert conserved(s.replay)


def test_rule_12_a_the_floor_changes_or_dismisses_a_proposal() -> None:
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 5, 7, 8])
    s.hand("2", {}, [1])
    proposal = events(s.hand("1", {}, [1]), "move_proposed")[-1]
    bad = s.do(t({"type": "confirm_move", "proposal": 1, "seat": 1}))
    assert events(bad, "tournament_error")[0]["field"] == "$.seat"
    gone = s.do(t({"type": "dismiss_move", "proposal": 1, "reason": "the TD moves later"}))
    assert events(gone, "move_dismissed")[0]["by"] == "floor"
    assert not s.replay.state.proposals
    again = events(s.hand("1", {}, [1]), "move_proposed")[-1]
    assert again["proposal"] == proposal["proposal"] + 1
    changed = s.do(t({"type": "confirm_move", "proposal": again["proposal"], "player": "a8"}))
    move = events(changed, "moved")[0]
    assert (move["player"], move["from_seat"], move["seat"]) == ("a8", 8, 4)
    assert conserved(s.replay)


def test_rule_12_d_the_short_table_stops_when_its_big_blind_falls_on_an_empty_seat() -> None:
    """The addendum's example: 9-handed, table A has 5 players, table B (the fullest) 8. A plays
    until its big blind would fall on an empty seat, then stops; the TD's waiver is logged, is
    not a misdeal, and play goes on; a move that leaves A less short ends the stoppage."""
    s = Session(structure(), [{"id": "A", "seats": 9}, {"id": "B", "seats": 9}])
    for n in range(1, 6):
        place(s, f"a{n}", "A", n)
    for n in range(1, 9):
        place(s, f"b{n}", "B", n)
    s.do(t({"type": "start_clock"}, at=1000))
    blinds = []
    for _ in range(3):
        lines = s.hand("A", {}, [1])
        blinds.append(_start(lines, "A")["big_blind"])
        if events(lines, "play_stopped"):
            break
    assert blinds == [3, 4, 5], "the big blind reached seat 5: seat 6, its next, is empty"
    stopped = events(lines, "play_stopped")[0]
    assert (stopped["players"], stopped["fullest"], stopped["short"]) == (5, 8, 3)
    assert stopped["rules"] == ["12-D"] and "empty seat" in stopped["reason"]
    error = table_events(s.do(table("A", {"type": "start_hand"})), "A", "error")[0]
    assert (error["code"], error["rule"]) == ("held", "12-D")
    assert "12-D" in staff_view(s.replay.tables["A"]).waiting_on

    waived = s.do(t({"type": "waive_stoppage", "table": "A", "by": "Mia", "reason": "late"}))
    waiver = events(waived, "stoppage_waived")[0]
    assert waiver["by"] == "Mia" and "not a misdeal" in waiver["text"]
    assert table_events(waived, "A", "hands_released")
    assert _start(s.hand("A", {}, [1]), "A")["hand"] == 4, "play goes on, not a misdeal"
    assert not events(s.lines[-40:], "play_stopped"), "waived while it stays short"

    proposal = next(p for p in s.replay.state.proposals.values() if p.table == "A")
    s.hand("B", {}, [1])
    ended = s.do(t({"type": "confirm_move", "proposal": proposal.id}))
    assert events(ended, "moved") and events(ended, "stoppage_ended")
    assert not s.replay.state.tables["A"].waived
    assert conserved(s.replay)


def _mixed() -> dict[str, Any]:
    return structure(
        levels=[
            {"blinds": [50, 100], "minutes": 10},
            {"blinds": [0, 0], "ante": 100, "min_bet": 200, "minutes": 10, "game": "STUD"},
            {"blinds": [100, 200], "minutes": 10},
        ]
    )


def test_rule_12_b_the_button_freezes_for_stud_and_hold_em_starts_from_it() -> None:
    """Hold'em to stud: each table's button stays where the next hold'em hand has it, frozen
    during stud (a stud hand's end does not move it), and the player moved during stud is the
    one who would be the big blind were it hold'em; hold'em again starts from the button."""
    from protocol.tournament import HandEnded
    from server import tournament

    s = _two_tables(
        [1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 5, 7, 8], levels=_mixed()["levels"], table_size=8
    )
    s.hand("1", {}, [1])
    s.hand("2", {}, [1])
    frozen = s.do(t({"type": "next_level"}, at=2000))
    brk = events(frozen, "button_frozen")[0]
    assert brk["buttons"] == {"1": 2, "2": 2} and brk["rules"] == ["12-B"]
    assert events(frozen, "level_started")[0]["game"] == "STUD"
    error = table_events(s.do(table("1", {"type": "start_hand"})), "1", "error")[0]
    # A stud level the structure gives no bring-in cannot be dealt (RP-10).
    assert (error["code"], error["rule"]) == ("game_not_dealt", "RP-10")
    # A stud hand ends at table 2, seat 8 busted by seat 7 (reported to the tournament alone,
    # as a stud table would): the button does not move.
    state = s.replay.state
    stacks = {n: state.players[w].stack for n, w in state.tables["2"].occupied.items()}
    stacks[7], stacks[8] = stacks[7] + stacks[8], 0
    stud_end = HandEnded(
        table="2",
        hand=2,
        stacks=stacks,
        busted=[8],
        started={8: 10_000},
        at=3000,
        button=3,
        small_blind=5,
        big_blind=7,
    )
    state, out = tournament.apply(state, stud_end)
    assert state.tables["2"].facts is not None and state.tables["2"].facts.button == 2
    # 7 players against 5: the player moved is the one who would be the big blind at table 1
    # were it hold'em (after its hand 1, big blind 3: seat 4).
    proposal = next(e for e in out if e.__struct_config__.tag == "move_proposed")
    assert proposal.rules == ["12-A", "12-B"] and "were it hold'em" in proposal.text
    assert (proposal.player, proposal.from_seat) == ("a4", 4)
    again = s.do(t({"type": "next_level"}, at=4000))
    assert events(again, "button_unfrozen")[0]["buttons"] == {"1": 2, "2": 2}
    assert _start(s.hand("1", {}, [1]), "1")["button"] == 2


def test_rule_12_b_the_tables_deal_stud_from_the_frozen_button_and_hold_em_again_from_it() -> None:
    """A stud level with its bring-in (and the table's name, ``7S``): every table deals stud,
    its hand_start showing the frozen button (12-B) and the stud antes; a stud hand moves no
    button; hold'em again deals from the frozen button."""
    mixed = _mixed()["levels"]
    mixed[1] = {**mixed[1], "game": "7S", "ante": 25, "bring_in": 50}
    s = _two_tables([1, 2, 3, 4, 5, 6, 7], [1, 2, 3, 5, 7, 8], levels=mixed, table_size=8)
    s.hand("1", {}, [1])
    frozen = s.do(t({"type": "next_level"}, at=2000))
    assert events(frozen, "button_frozen")[0]["buttons"]["1"] == 2
    assert events(frozen, "level_started")[0]["bring_in"] == 50
    up = {str(n): [f"{'23456789'[n]}c"] for n in range(1, 8)}
    for _ in range(2):
        started = s.do(table("1", {"type": "start_hand", "up": up}, at=s.now + 1))
        stud = _start(started, "1")
        assert stud["button"] == 2 and "12-B" in stud["rules"] and stud["game"] in ("7S", "")
        assert {p["kind"] for p in stud["posts"]} == {"ante"}
        assert table_events(started, "1", "prompt")[0]["bring_in"] == 50
        s.do(table("1", {"type": "act", "seat": 1, "declare": "bring_in"}))
        for n in range(2, 8):
            s.do(table("1", {"type": "act", "seat": n, "declare": "fold"}))
        assert s.replay.tables["1"].phase == "idle"
    s.do(t({"type": "next_level"}, at=4000))
    holdem = _start(s.hand("1", {}, [1]), "1")
    assert (holdem["button"], holdem["small_blind"], holdem["big_blind"]) == (2, 3, 4)
    assert holdem["game"] == "NLHE"


def test_rule_74_a_penalty_being_served_follows_the_player_across_a_move() -> None:
    """A player sitting out a 3-hand penalty serves one hand at table 1, is moved by balancing,
    and serves the other two at table 2, counted from the player's own hands there (74-A,
    74-C): dealt in, posts, the hand killed. Table 1's seat keeps nothing of it."""
    s = _two_tables([1, 2, 3, 4, 5, 6, 7, 8], [1, 2, 3, 5, 7, 8])
    s.hand("2", {}, [1])
    s.do(table("1", {"type": "penalty", "seat": 5, "kind": "hands", "count": 3}))
    served = s.hand("1", {}, [1])
    killed = [e for e in table_events(served, "1", "action") if e["seat"] == 5]
    assert killed[0]["rules"] == ["74-C"]
    assert s.replay.tables["1"].penalties == {5: 2}
    s.hand("1", {}, [1])  # the big blind moves to seat 4; seat 5 is next, 1 hand left
    proposal = events(s.lines, "move_proposed")[-1]
    assert (proposal["player"], proposal["from_seat"]) == ("a5", 5)
    moved = s.do(t({"type": "confirm_move", "proposal": proposal["proposal"]}))
    carried = table_events(moved, "2", "penalty")[0]
    assert carried["hands_left"] == 1 and "from table 1" in carried["reason"]
    assert 5 not in s.replay.tables["1"].penalties
    seat = events(moved, "moved")[0]["seat"]
    hand = s.hand("2", {}, [1])
    assert _start(hand, "2")["big_blind"] == seat, "posts the big blind (74-C)"
    kill = [e for e in table_events(hand, "2", "action") if e["seat"] == seat]
    assert kill[0]["rules"] == ["74-C"]
    assert table_events(hand, "2", "penalty_end")[0]["seat"] == seat
    assert conserved(s.replay)
