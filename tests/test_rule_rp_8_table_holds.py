"""A table the tournament holds (RP-8, 12-A, 11-B, 12-D), the hand-for-hand all-in held face down
until the floor releases it (RP-8-F), the final table's button (RP-9) and a chip race's won chip
(26-A), at the table engine itself. The same rules through the tournament are in
``tests/tournament/``; these drive ``server.engine.apply`` directly, command by command."""

from __future__ import annotations

from protocol import Act, Deal, Event, StartHand, TableConfig
from protocol.commands import (
    ColorUp,
    Command,
    Correction,
    HandForHand,
    HoldHands,
    ReleaseCards,
    ReleaseHands,
    SetButton,
)
from protocol.events import CardsHeld, ErrorEvent, ExposeAll, HandEnd, HandStart
from server import engine
from server.engine import TableState
from server.views import public_view, staff_view

CARDS = {1: ["As", "Ah"], 2: ["Ks", "Kh"], 3: ["7c", "2d"]}


def _table() -> TableState:
    seats = {1: 1_000, 2: 1_000, 3: 1_000}
    return engine.new_table(TableConfig(game="NLHE", blinds=(50, 100), seats=seats, button=1))


def _run(t: TableState, *commands: Command) -> tuple[TableState, list[Event]]:
    out: list[Event] = []
    for command in commands:
        t, events = engine.apply(t, command)
        out += events
    return t, out


def _error(events: list[Event]) -> ErrorEvent:
    found = [e for e in events if isinstance(e, ErrorEvent)]
    assert found, events
    return found[-1]


def test_rule_rp_8_a_held_table_deals_no_new_hand_until_every_hold_is_released() -> None:
    t, events = _run(
        _table(),
        HoldHands("h4h", "hand-for-hand: waiting for the other tables", "RP-8"),
        HoldHands("move-1", "a player moves between hands", "12-A"),
        StartHand(),
    )
    error = _error(events)
    assert (error.code, error.rule) == ("held", "RP-8")
    assert staff_view(t).waiting_on == "held: hand-for-hand: waiting for the other tables (RP-8)"
    t, events = _run(t, ReleaseHands("h4h"), StartHand())
    assert _error(events).rule == "12-A", "the other hold still stands"
    t, events = _run(t, ReleaseHands("move-1"), ReleaseHands("nothing"), StartHand())
    assert any(isinstance(e, HandStart) for e in events)
    # A hold ordered during a hand lets that hand finish; the next one waits.
    t, events = _run(t, HoldHands("stop", "play stopped (12-D)", "12-D"), Act(1, "fold"))
    assert t.holds and not any(isinstance(e, ErrorEvent) for e in events)


def test_rule_rp_8_f_an_all_in_and_call_stays_face_down_until_the_floor_releases_it() -> None:
    t, events = _run(
        _table(),
        HandForHand(),
        StartHand(cards=CARDS),
        Act(1, "all_in"),
        Act(2, "call"),
        Act(3, "fold"),
    )
    held = [e for e in events if isinstance(e, CardsHeld)]
    assert held and held[0].seats == [1, 2] and held[0].rules == ["RP-8-F"]
    assert not any(isinstance(e, ExposeAll) for e in events), "no exposure before the release"
    assert all(not s.cards for s in public_view(t).seats), "no display sees a hole card"
    assert staff_view(t).waiting_on == "floor: release the all-in (hand-for-hand, RP-8-F)"
    t, events = _run(t, Deal("flop", ["2s", "3s", "4d"]))
    assert (_error(events).code, _error(events).rule) == ("cards_held", "RP-8-F")
    t, events = _run(t, ReleaseCards())
    assert any(isinstance(e, ExposeAll) for e in events)
    assert [s.cards for s in public_view(t).seats][:2] == [["As", "Ah"], ["Ks", "Kh"]]
    t, events = _run(
        t, Deal("flop", ["2s", "3s", "4d"]), Deal("turn", ["9c"]), Deal("river", ["Tc"])
    )
    assert any(isinstance(e, HandEnd) for e in events)
    t, events = _run(t, ReleaseCards())
    assert _error(events).code == "not_held"


def test_rule_rp_8_f_a_correction_of_the_last_action_undoes_the_release_too() -> None:
    """24: the floor voids the fold that completed the action; the release and the flop after it
    go with it, and the fold again holds the cards face down (RP-8-F)."""
    t, _ = _run(
        _table(),
        HandForHand(),
        StartHand(cards=CARDS),
        Act(1, "all_in"),
        Act(2, "call"),
        Act(3, "fold"),
        ReleaseCards(),
        Deal("flop", ["2s", "3s", "4d"]),
    )
    t, events = _run(t, Correction(reason="seat 3 had not folded", count=1))
    assert not any(isinstance(e, ErrorEvent) for e in events)
    assert (t.to_act, t.exposed, t.cards_held, t.board) == (3, False, False, [])
    t, events = _run(t, Act(3, "fold"))
    assert t.cards_held and any(isinstance(e, CardsHeld) for e in events)


def test_rule_rp_9_the_button_placed_by_the_tournament_starts_the_rotation() -> None:
    _, events = _run(_table(), SetButton(2), StartHand())
    start = next(e for e in events if isinstance(e, HandStart))
    assert (start.button, start.small_blind, start.big_blind) == (2, 3, 1)


def test_rule_26_a_a_raced_chip_and_the_chip_given_to_a_player_raced_out() -> None:
    seats = {1: 75, 2: 10_075}
    t = engine.new_table(TableConfig(game="NLHE", blinds=(25, 50), seats=seats, button=1))
    t, events = _run(t, ColorUp(chips=[100, 500], removed={1: 75, 2: 75}, won={1: 100}))
    assert [s.stack for s in t.seats] == [100, 10_000]
    t, events = _run(t, ColorUp(chips=[100, 500], removed={1: 100}))
    assert _error(events).code == "raced_out"
