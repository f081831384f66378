"""New players (9-A, 11-A) at each position of the coming hand, dead buttons included (34, 36).

9-A and 11-A: a new player may be seated in any seat — the small blind, the big blind and the
button included — and plays from it at once; only a seat between the small blind and the
button waits until the button has passed. "Between" is read from the positions of the coming
hand: after the dead button moves past empty seats (36-B), and after a heads-up game (36-C)
gets a third player. A player who leaves between hands is played as one knocked out: the seat
is empty for the button and the blinds (34).
"""

from __future__ import annotations

from typing import Any

from protocol import Act, AddPlayer, StartHand, TableConfig
from server import engine
from server.views import public_view, staff_view
from tests.support import last, of_type
from tests.test_seed_common import Cmd, Event, act, run, table

STACK = 10_000


def _table(seats: list[int], button: int) -> dict[str, Any]:
    return table({s: STACK for s in seats}, button=button, blinds=(50, 100))


def _fold_to_the_big_blind(cfg: dict[str, Any], commands: list[Cmd]) -> list[Cmd]:
    """``commands``, then a fold from every seat prompted until the hand is over."""
    commands = list(commands)
    while True:
        events = run(cfg, commands)
        if events[-1]["type"] == "hand_end":
            return commands
        commands.append(act(last(events, "prompt")["seat"], "fold"))


def _first_hand(cfg: dict[str, Any]) -> list[Cmd]:
    return _fold_to_the_big_blind(cfg, [{"type": "start_hand"}])


def _add(*seats: int) -> list[Cmd]:
    return [{"type": "add_player", "seat": s, "stack": STACK} for s in seats]


def _leave(*seats: int) -> list[Cmd]:
    return [{"type": "remove_player", "seat": s} for s in seats]


def _next_hand(cfg: dict[str, Any], commands: list[Cmd]) -> Event:
    """The hand_start of the hand dealt after ``commands``."""
    return last(run(cfg, [*commands, {"type": "start_hand"}]), "hand_start")


def _where(start: Event) -> tuple[int, int | None, int]:
    return start["button"], start["small_blind"], start["big_blind"]


# Seats 1, 3, 5 and 7; hand 1: button 7, small blind 1, big blind 3. Hand 2 would be dealt
# with the button on 1, the small blind on 3 and the big blind on 5.
FOUR = _table([1, 3, 5, 7], button=7)


def test_11_a_new_player_between_the_small_blind_and_the_button_waits_for_the_button() -> None:
    """Seat 2 lies between the button (1) and the small blind (3): it waits one hand, and is
    dealt in once the button has passed it."""
    commands = [*_first_hand(FOUR), *_add(2)]
    second = _next_hand(FOUR, commands)
    assert _where(second) == (1, 3, 5)
    assert 2 not in second["dealt"]
    commands = _fold_to_the_big_blind(FOUR, [*commands, {"type": "start_hand"}])
    third = _next_hand(FOUR, commands)
    assert _where(third) == (3, 5, 7)
    assert 2 in third["dealt"]


def test_11_a_new_player_in_the_big_blind_plays() -> None:
    """Seat 4 is the next seat after the last big blind: the new player takes the big blind."""
    second = _next_hand(FOUR, [*_first_hand(FOUR), *_add(4)])
    assert _where(second) == (1, 3, 4)
    assert 4 in second["dealt"]
    assert {"seat": 4, "kind": "big_blind", "amount": 100, "all_in": False} in second["posts"]


def test_11_a_new_player_behind_the_button_plays() -> None:
    """Seats 6 and 8 lie between the big blind and the button: dealt in at once, positions
    unchanged."""
    second = _next_hand(FOUR, [*_first_hand(FOUR), *_add(6, 8)])
    assert _where(second) == (1, 3, 5)
    assert {6, 8} <= set(second["dealt"])


def test_11_a_new_player_in_the_small_blind_plays() -> None:
    """The last big blind (seat 3) left, so the small blind is on seat 3: a new player there
    posts it and plays; without one the small blind is dead (34)."""
    commands = [*_first_hand(FOUR), *_leave(3)]
    empty = _next_hand(FOUR, commands)
    assert _where(empty) == (1, None, 5)
    seated = _next_hand(FOUR, [*commands, *_add(3)])
    assert _where(seated) == (1, 3, 5)
    assert 3 in seated["dealt"]
    assert {"seat": 3, "kind": "small_blind", "amount": 50, "all_in": False} in seated["posts"]


def test_11_a_new_player_on_the_button_plays_from_it() -> None:
    """The last small blind (seat 1) left, so the button goes to seat 1: a new player seated
    there plays from the button; the button is live, not dead (34)."""
    cfg = _table([1, 2, 3, 5], button=5)
    commands = [*_first_hand(cfg), *_leave(1)]
    empty = _next_hand(cfg, commands)
    assert _where(empty) == (1, 2, 3)
    assert 1 not in empty["dealt"] and "34" in empty["rules"]
    seated = _next_hand(cfg, [*commands, *_add(1)])
    assert _where(seated) == (1, 2, 3)
    assert 1 in seated["dealt"]
    assert "34" not in seated["rules"]


def test_36_b_new_player_on_the_seat_the_dead_button_moves_to_plays() -> None:
    """Seat 1 (the last small blind) left and seat 2 is free: the dead button moves past them
    to seat 2 (36-B). A new player on seat 2 is then on the button and plays; so does one on
    seat 1, behind it."""
    commands = [*_first_hand(FOUR), *_leave(1)]
    empty = _next_hand(FOUR, commands)
    assert _where(empty) == (2, 3, 5)
    assert {"34", "36-B"} <= set(empty["rules"])
    on_button = _next_hand(FOUR, [*commands, *_add(2)])
    assert _where(on_button) == (2, 3, 5)
    assert 2 in on_button["dealt"] and "34" not in on_button["rules"]
    both = _next_hand(FOUR, [*commands, *_add(1, 2)])
    assert _where(both) == (2, 3, 5)
    assert {1, 2} <= set(both["dealt"])


def test_36_b_example_new_players_on_seats_1_2_and_3_all_play() -> None:
    """36-B's example: button 9, small blind 1, seats 2 and 3 empty, big blind 4; the small
    blind goes. The button moves to seat 3, seat 4 is the small blind and seat 5 the big
    blind; new players on seats 1 and 2 sit behind the button and one on seat 3 is on it: all
    three are dealt in."""
    cfg = _table([1, 4, 5, 6, 7, 8, 9], button=9)
    commands = [*_first_hand(cfg), *_leave(1)]
    assert _where(of_type(run(cfg, commands), "hand_start")[0]) == (9, 1, 4)
    start = _next_hand(cfg, [*commands, *_add(1, 2, 3)])
    assert _where(start) == (3, 4, 5)
    assert {1, 2, 3} <= set(start["dealt"])
    assert "34" not in start["rules"]


def test_36_b_new_player_on_the_old_small_blinds_seat_plays_behind_the_moved_button() -> None:
    """Seats 1 (the last small blind, gone) and 2 were empty when the hand ended: the button
    moved past both to seat 2 (36-B). A new player who then sits on seat 1 is behind the
    button, not between it and the small blind: dealt in at once, under a dead button (34)."""
    commands = [*_first_hand(FOUR), *_leave(1)]
    start = _next_hand(FOUR, [*commands, *_add(1)])
    assert _where(start) == (2, 3, 5)
    assert 1 in start["dealt"] and "34" in start["rules"]


def test_36_c_heads_up_new_player_after_the_big_blind_takes_the_big_blind() -> None:
    """Heads-up, seat 1 the button and small blind, seat 5 the big blind. A new player on seat
    7 is the next seat after the big blind: the button goes to seat 1, the small blind to 5."""
    cfg = _table([1, 5], button=1)
    start = _next_hand(cfg, [*_first_hand(cfg), *_add(7)])
    assert _where(start) == (1, 5, 7)
    assert start["dealt"] == [1, 5, 7]


def test_36_c_heads_up_new_player_before_the_big_blind_plays() -> None:
    """Heads-up 1 (button, small blind) and 5 (big blind); a new player on seat 3. Seat 1 is
    the next to take the big blind (nobody skips it, nobody takes it twice, 36-B), seat 5 the
    small blind; the button goes to the seat before the small blind, 4. Seat 3 is not between
    the small blind and the button: it plays. A new player on seat 4 plays from the button."""
    cfg = _table([1, 5], button=1)
    commands = _first_hand(cfg)
    start = _next_hand(cfg, [*commands, *_add(3)])
    assert _where(start) == (4, 5, 1)
    assert start["dealt"] == [1, 3, 5]
    on_button = _next_hand(cfg, [*commands, *_add(4)])
    assert _where(on_button) == (4, 5, 1)
    assert on_button["dealt"] == [1, 4, 5]


def test_36_c_heads_up_new_players_on_both_sides_of_the_big_blind() -> None:
    """New players on seats 3 and 7 of a heads-up game (1 button, 5 big blind): seat 7 takes the
    big blind, so the button goes to 1 and the small blind to 5, and seat 3, between them,
    waits."""
    cfg = _table([1, 5], button=1)
    start = _next_hand(cfg, [*_first_hand(cfg), *_add(3, 7)])
    assert _where(start) == (1, 5, 7)
    assert start["dealt"] == [1, 5, 7]


def test_36_c_three_handed_to_two_with_a_new_player_on_the_button() -> None:
    """Seats 1, 3, 5: button 1, small blind 3, big blind 5; seat 1 leaves and a new player sits
    on seat 4. Seat 3 takes the big blind, seat 5 the small blind, and the button goes to seat
    4: the new player plays from it. With nobody new the game goes heads-up: seat 5 is the
    button and small blind, seat 3 the big blind."""
    cfg = _table([1, 3, 5], button=1)
    commands = [*_first_hand(cfg), *_leave(1)]
    heads_up = _next_hand(cfg, commands)
    assert _where(heads_up) == (5, 5, 3)
    start = _next_hand(cfg, [*commands, *_add(4)])
    assert _where(start) == (4, 5, 3)
    assert start["dealt"] == [3, 4, 5]


# --- Sitting down while a hand is in play (9-A, 11-A) -------------------------------------


def test_rule_9_a_a_player_sits_down_during_a_hand_out_of_it_and_is_dealt_the_next() -> None:
    # Hand 1: button 7, small blind 1, big blind 3; seat 6 sits down after the deal.
    during = [{"type": "start_hand"}, *_add(6)]
    events = run(FOUR, during)
    added = last(events, "player_added")
    assert added["seat"] == 6 and "next" in added["text"]
    assert 6 not in last(events, "hand_start")["dealt"]
    played = _fold_to_the_big_blind(FOUR, during)
    end = last(run(FOUR, played), "hand_end")
    assert end["stacks"].get("6", end["stacks"].get(6)) in (None, STACK)  # never in the hand
    # Hand 2: button 1, small blind 3, big blind 5: seat 6 is not between them: dealt in.
    assert 6 in _next_hand(FOUR, played)["dealt"]


def test_rule_11_a_a_player_sitting_down_during_a_hand_between_the_blinds_and_button_waits() -> (
    None
):
    # Hand 2 would be dealt with the button on 1, the small blind on 3: seat 2 is between.
    during = [{"type": "start_hand"}, *_add(2)]
    played = _fold_to_the_big_blind(FOUR, during)
    assert 2 not in _next_hand(FOUR, played)["dealt"]


def test_rule_9_a_a_seat_taken_during_the_hand_is_not_free_and_a_dealt_player_cannot_leave() -> (
    None
):
    from tests.support import play

    events = play(FOUR, [{"type": "start_hand"}, *_add(6), *_add(6), *_leave(1)])
    errors = of_type(events, "error")
    assert "seat 6 is not free" in errors[0]["message"]
    assert errors[1]["code"] == "hand_in_play"
    # One who sat down during the hand and is not in it may leave at once.
    left = run(FOUR, [{"type": "start_hand"}, *_add(6), *_leave(6)])
    assert last(left, "player_removed")["seat"] == 6


def test_rule_9_a_a_correction_replays_the_hand_without_the_player_who_sat_down_during_it() -> None:
    first = last(run(FOUR, [{"type": "start_hand"}]), "prompt")["seat"]
    commands = [
        {"type": "start_hand"},
        *_add(6),
        act(first, "call"),
        {"type": "correction", "count": 1, "by": "dealer", "reason": "mis-tap"},
    ]
    events = run(FOUR, commands)
    redone = last(events, "correction")["events"]
    assert all(6 not in e.get("dealt", []) for e in redone if e["type"] == "hand_start")
    played = _fold_to_the_big_blind(FOUR, commands)
    assert 6 in _next_hand(FOUR, played)["dealt"], "still at the table for the next hand"


def test_rule_37_c_a_misdeal_redeal_seats_no_new_player_the_next_hand_does() -> None:
    commands = [
        {"type": "start_hand"},
        *_add(6),
        {"type": "misdeal", "reason": "two boxed cards on the first deal"},
    ]
    redeal = last(run(FOUR, commands), "hand_start")
    assert redeal["redeal"] and 6 not in redeal["dealt"]
    played = _fold_to_the_big_blind(FOUR, commands)
    assert 6 in _next_hand(FOUR, played)["dealt"]


def test_11_a_the_stations_show_waiting_only_for_a_newcomer_the_next_hand_does_not_deal() -> None:
    """Between hands a newcomer's seat view says ``waiting`` ("Waiting for the button") only if
    the next hand will not deal it in: seat 2 (between the button and the small blind) waits,
    seat 4 (the next big blind, where 12-A moves a player) and seat 6 play at once."""
    seats = {1: STACK, 3: STACK, 5: STACK, 7: STACK}
    t = engine.new_table(TableConfig(game="NLHE", blinds=(50, 100), seats=seats, button=7))
    t, _ = engine.apply(t, StartHand())
    while t.phase != "idle":
        t, _ = engine.apply(t, Act(seat=t.to_act, declare="fold"))
    added = {}
    for seat in (2, 4, 6):
        t, events = engine.apply(t, AddPlayer(seat=seat, stack=STACK))
        added[seat] = events[0]
    # The event says so too, for a station that follows the events (the seat view is built
    # only for snapshots).
    assert {seat: e.waits for seat, e in added.items()} == {2: True, 4: False, 6: False}
    assert (
        added[2].text == "between the small blind and the button: dealt in once the button passes"
    )
    for view in (staff_view(t), public_view(t)):
        assert {s.seat: s.waiting for s in view.seats if s.seat in (2, 4, 6)} == {
            2: True,
            4: False,
            6: False,
        }
    t, events = engine.apply(t, StartHand())
    dealt = next(e for e in events if e.__struct_config__.tag == "hand_start").dealt
    assert 2 not in dealt and {4, 6} <= set(dealt)
    assert [s.seat for s in staff_view(t).seats if s.waiting] == [2]
