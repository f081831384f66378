"""Showdown rulings (2026 TDA rules 13-20): cards speak, tabling, killing hands, partial shows,
all-in exposure and playing the board.

A hand is tabled when all its hole cards are face up (14-A): two in hold'em, four in Omaha. Only
tabled hands are read (13, 20); a hand with some of its cards shown waits for the rest (16-A)
and may still be mucked where mucking is allowed, giving up the pot (14-B). A tabled hand cannot
be killed (14-C, 16-C), and once an all-in is called with no more betting possible every hand
in the pots stays live (17): a muck there is refused, never a silent win for the other seat.

Unless a test says otherwise: seat 3 holds the button, seat 1 the small blind, seat 2 the big
blind; seat 1 shows first at a showdown without a river bet (18-A).
"""

from __future__ import annotations

from typing import Any

from tests.support import last, of_type, play
from tests.test_seed_common import DEEP, Cmd, Event, act, deal, run, table

HOLDEM = table({1: DEEP, 2: DEEP, 3: DEEP}, button=3, blinds=(100, 200))
BOARD = ["2c", "7d", "9h", "Jc", "3s"]
ROYAL = ["Ts", "Js", "Qs", "Ks", "As"]


def show(seat: int, *cards: str) -> Cmd:
    cmd: Cmd = {"type": "show", "seat": seat}
    if cards:
        cmd["cards"] = list(cards)
    return cmd


def muck(seat: int) -> Cmd:
    return {"type": "muck", "seat": seat}


def award(pot: int, *winners: int) -> Cmd:
    return {"type": "award", "pot": pot, "winners": list(winners)}


def _start(cards: dict[int, list[str]]) -> Cmd:
    return {"type": "start_hand", "cards": {str(n): c for n, c in cards.items()}}


def _streets(board: list[str]) -> list[tuple[str, list[str]]]:
    return [("flop", board[:3]), ("turn", board[3:4]), ("river", board[4:])]


def _check_down(board: list[str], seats: list[int]) -> list[Cmd]:
    commands: list[Cmd] = []
    for street, cards in _streets(board):
        commands.append({**deal(street), "cards": cards})
        commands += [act(n, "check") for n in seats]
    return commands


def heads_up(cards: dict[int, list[str]], board: list[str] = BOARD) -> list[Cmd]:
    """Seat 3 folds, seats 1 and 2 check the hand down to a showdown for a 400 pot."""
    return [
        _start(cards),
        act(3, "fold"),
        act(1, "call"),
        act(2, "check"),
        *_check_down(board, [1, 2]),
    ]


def three_way(cards: dict[int, list[str]], board: list[str] = BOARD) -> list[Cmd]:
    """All three limp and check the hand down to a showdown for a 600 pot."""
    return [
        _start(cards),
        act(3, "call"),
        act(1, "call"),
        act(2, "check"),
        *_check_down(board, [1, 2, 3]),
    ]


def all_in_called(cards: dict[int, list[str]]) -> tuple[dict[str, Any], list[Cmd]]:
    """Seat 1 (3,000) is all-in pre-flop and seat 2 calls: no betting is possible, every hand
    is face up (17); the board is dealt out."""
    cfg = table({1: 3000, 2: DEEP, 3: DEEP}, button=3, blinds=(100, 200))
    return cfg, [
        _start(cards),
        act(3, "fold"),
        act(1, "all_in"),
        act(2, "call"),
        deal("flop"),
        deal("turn"),
        deal("river"),
    ]


def shown_of(events: list[Event], seat: int) -> Event:
    found = [e for e in of_type(events, "shown") if e["seat"] == seat]
    assert found, f"no shown event for seat {seat}"
    return found[-1]


def refused(config: dict[str, Any], commands: list[Cmd]) -> Event:
    """The last command is refused; every command before it is accepted."""
    run(config, commands[:-1])
    events = play(config, commands)
    error = events[-1]
    assert error["type"] == "error", f"accepted: {events[-3:]}"
    return error


def winners(events: list[Event]) -> dict[int, list[int]]:
    return {p["pot"]: p["winners"] for p in last(events, "hand_end")["pots"]}


# --- 13: cards speak ----------------------------------------------------------------------


def test_13_cards_speak_the_better_tabled_hand_wins_whichever_shows_first() -> None:
    """13: the hands decide, not the order or the words. Seat 1 (aces) and seat 2 (queens)."""
    cards = {1: ["As", "Ad"], 2: ["Qs", "Qd"]}
    first = run(HOLDEM, [*heads_up(cards), show(1), show(2)])
    second = run(HOLDEM, [*heads_up(cards), show(2), show(1)])
    assert winners(first) == winners(second) == {0: [1]}
    assert last(first, "hand_end")["stacks"][1] == DEEP + 200


def test_13_a_dealer_award_against_the_tabled_cards_is_refused() -> None:
    """13: seat 1's tabled aces beat seat 2's tabled queens, so the pot cannot go to seat 2;
    seat 3 tabled cards the dealer did not enter, so the engine waits for the dealer's award
    and takes it for seat 1 (or for seat 3, whose hand only the dealer can read)."""
    cards = {1: ["As", "Ad"], 2: ["Qs", "Qd"]}
    tabled = [*three_way(cards), show(1), show(2), show(3)]
    events = run(HOLDEM, tabled)
    assert not of_type(events, "hand_end")
    error = refused(HOLDEM, [*tabled, award(0, 2)])
    assert error["rule"] == "13" and "seat 1" in error["message"]
    assert winners(run(HOLDEM, [*tabled, award(0, 1)])) == {0: [1]}
    assert winners(run(HOLDEM, [*tabled, award(0, 3)])) == {0: [3]}


# --- 14-A: a tabled hand is every hole card face up ---------------------------------------


def test_14_a_one_card_shown_is_not_a_tabled_hand() -> None:
    """14-A, 16-A: seat 1 shows one ace; seat 2 tables queens. The pot waits: seat 1's hand is
    read only once its other card is shown, and then wins."""
    cards = {1: ["As", "Ad"], 2: ["Qs", "Qd"]}
    partial = [*heads_up(cards), show(1, "As"), show(2)]
    events = run(HOLDEM, partial)
    assert not of_type(events, "hand_end")
    one = shown_of(events, 1)
    assert one["partial"] is True and one["cards"] == ["As"]
    assert "16-A" in one["rules"] and "Seat 1" in one["text"]
    events = run(HOLDEM, [*partial, show(1, "Ad")])
    assert shown_of(events, 1)["partial"] is False
    assert shown_of(events, 1)["cards"] == ["As", "Ad"]
    assert winners(events) == {0: [1]}


def test_14_a_both_cards_shown_are_a_tabled_hand() -> None:
    """14-A: showing both hole cards (or the hand the engine knows, without naming them)
    tables the hand: the showdown is settled as soon as both hands are tabled."""
    cards = {1: ["As", "Ad"], 2: ["Qs", "Qd"]}
    named = run(HOLDEM, [*heads_up(cards), show(1, "Ad", "As"), show(2)])
    assert shown_of(named, 1)["partial"] is False and "14-A" in shown_of(named, 1)["rules"]
    assert winners(named) == {0: [1]}


def test_14_a_omaha_three_cards_of_four_are_not_tabled() -> None:
    """14-A: in Omaha all four hole cards are the hand; three shown are not a tabled hand."""
    cfg = {**HOLDEM, "game": "PLO"}
    cards = {1: ["As", "Ad", "Kc", "Qh"], 2: ["8s", "8d", "5c", "4h"]}
    three = [*heads_up(cards), show(2), show(1, "As", "Ad", "Kc")]
    events = run(cfg, three)
    assert not of_type(events, "hand_end") and shown_of(events, 1)["partial"] is True
    assert winners(run(cfg, [*three, show(1, "Qh")])) == {0: [1]}


def test_14_a_cards_shown_one_by_one_without_card_entry_are_read_when_complete() -> None:
    """14-A: at a table that enters hole cards only when they are shown, a hand shown card by
    card is tabled with its second card, and read then."""
    steps = [*heads_up({}), show(1, "As"), show(2, "Qs", "Qd")]
    assert not of_type(run(HOLDEM, steps), "hand_end")
    events = run(HOLDEM, [*steps, show(1, "Ad")])
    assert shown_of(events, 1)["cards"] == ["As", "Ad"]
    assert winners(events) == {0: [1]}


def test_14_a_a_card_already_face_up_or_too_many_cards_are_refused() -> None:
    """14-A: a hold'em hand is two cards; a card shown twice, or on the board, is not one of
    them."""
    steps = [*heads_up({}), show(1, "As")]
    assert refused(HOLDEM, [*steps, show(1, "As")])["message"]
    assert refused(HOLDEM, [*steps, show(1, "2c")])["rule"] == "37-E"
    assert refused(HOLDEM, [*heads_up({}), show(1, "As", "Ad", "Kd")])["rule"] == "14-A"
    known = heads_up({1: ["As", "Ad"], 2: ["Qs", "Qd"]})
    assert refused(HOLDEM, [*known, show(1, "Kd")])["message"]


def test_14_a_a_hand_tabled_without_card_entry_waits_for_the_dealer() -> None:
    """14-A, 13: hands tabled without their cards entered cannot be read by the engine: the
    dealer reads them and awards the pot."""
    tabled = [*heads_up({}), show(1), show(2)]
    assert not of_type(run(HOLDEM, tabled), "hand_end")
    events = run(HOLDEM, [*tabled, award(0, 2)])
    assert winners(events) == {0: [2]}
    assert last(events, "hand_end")["stacks"][2] == DEEP + 200


def test_14_a_an_untabled_hand_is_not_awarded_a_contested_pot() -> None:
    """14-A, 16-A: seat 2 has shown one card; seat 1 tabled. The pot cannot go to seat 2, nor
    be settled while seat 2's hand is half shown; once seat 2 tables, the dealer awards it."""
    half = [*heads_up({}), show(1), show(2, "Qs")]
    assert refused(HOLDEM, [*half, award(0, 2)])["rule"] == "14-A"
    assert refused(HOLDEM, [*half, award(0, 1)])["rule"] == "16-A"
    assert winners(run(HOLDEM, [*half, show(2), award(0, 2)])) == {0: [2]}


# --- 14-B, 14-C, 15, 16-C: killing hands -------------------------------------------------


def test_14_b_a_muck_after_one_card_shown_gives_up_the_pot() -> None:
    """14-B: seat 1 shows one ace of the winning aces and mucks: the hand was never tabled,
    it has no claim to the pot, and seat 2's tabled queens win."""
    cards = {1: ["As", "Ad"], 2: ["Qs", "Qd"]}
    events = run(HOLDEM, [*heads_up(cards), show(2), show(1, "As"), muck(1)])
    mucked = shown_of(events, 1)
    assert mucked["mucked"] is True and "14-B" in mucked["rules"]
    assert winners(events) == {0: [2]}


def test_14_c_a_tabled_hand_cannot_be_killed() -> None:
    """14-C: the dealer cannot kill seat 1's tabled winning aces; seat 2 tables and seat 1
    wins."""
    cards = {1: ["As", "Ad"], 2: ["Qs", "Qd"]}
    tabled = [*heads_up(cards), show(1)]
    error = refused(HOLDEM, [*tabled, muck(1)])
    assert error["rule"] == "14-C" and "seat 1" in error["message"]
    assert winners(run(HOLDEM, [*tabled, show(2)])) == {0: [1]}


def test_16_c_a_tabled_losing_hand_stays_until_the_pot_is_awarded() -> None:
    """16-C: seat 1 tables the losing queens; they stay identifiable until the pot is awarded
    and are not mucked. A hand not yet tabled may be mucked (18-B): seat 2 then wins."""
    cards = {1: ["Qs", "Qd"], 2: ["As", "Ad"]}
    assert refused(HOLDEM, [*heads_up(cards), show(1), muck(1)])["rule"] == "14-C"
    events = run(HOLDEM, [*heads_up(cards), muck(1)])
    assert shown_of(events, 1)["mucked"] is True
    assert winners(events) == {0: [2]}


def test_15_a_mucked_hand_is_dead() -> None:
    """15: a hand the dealer has pushed into the muck is killed: it cannot be tabled after,
    and the pot goes to the best of the hands still live, though seat 1 held the aces."""
    cards = {1: ["As", "Ad"], 2: ["Qs", "Qd"], 3: ["8s", "8d"]}
    dead = [*three_way(cards), muck(1)]
    assert refused(HOLDEM, [*dead, show(1)])["message"]
    assert winners(run(HOLDEM, [*dead, show(2), show(3)])) == {0: [2]}


# --- 17: all-in exposure ------------------------------------------------------------------


def test_17_a_hand_that_called_an_all_in_cannot_be_mucked() -> None:
    """17: seat 1 is all-in and seat 2 called; no cards were entered. Neither hand may be
    mucked: the muck is refused, nobody wins by it and nobody is eliminated by it."""
    cfg, commands = all_in_called({})
    for seat in (1, 2):
        error = refused(cfg, [*commands, muck(seat)])
        assert error["rule"] == "17" and f"seat {seat}" in error["message"]
    events = run(cfg, [*commands, show(1), show(2), award(0, 1)])
    assert last(events, "hand_end")["busted"] == []
    assert last(events, "hand_end")["stacks"][1] == 6000


def test_17_a_muck_before_the_river_is_refused_by_17_too() -> None:
    """17: the hands are face up as soon as the all-in is called, before the board is out."""
    cfg, commands = all_in_called({})
    error = refused(cfg, [*commands[:-2], muck(2)])
    assert error["rule"] == "17"


def test_17_without_all_in_a_muck_is_accepted() -> None:
    """17 applies only to an all-in: at a showdown without one, seat 1 may muck (18-B)."""
    events = run(HOLDEM, [*heads_up({}), muck(1)])
    assert winners(events) == {0: [2]}


def test_17_hands_in_the_side_pot_stay_live() -> None:
    """17: all hands in the main and side pots are tabled and live. Seat 1 is all-in for
    1,000; seats 2 and 3 bet on and seat 2 is all-in on the turn; seat 3 calls. Seat 3's hand
    (side pot) cannot be mucked either."""
    cfg = table({1: 1000, 2: 5000, 3: DEEP}, button=3, blinds=(100, 200))
    commands = [
        {"type": "start_hand"},
        act(3, "call"),
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
    ]
    assert last(run(cfg, commands), "expose_all")["seats"] == [1, 2, 3]
    assert refused(cfg, [*commands, muck(3)])["rule"] == "17"
    events = run(cfg, [*commands, award(1, 3), award(0, 1)])
    assert winners(events) == {1: [3], 0: [1]}


def test_17_exposed_hands_with_entered_cards_are_read_at_once() -> None:
    """17, 13: with the hole cards entered, the exposed hands are read as soon as the board is
    out: nobody has to show or muck."""
    cfg, commands = all_in_called({1: ["As", "Ad"], 2: ["Qs", "Qd"]})
    events = run(cfg, [*commands[:-3], *[{**deal(s), "cards": c} for s, c in _streets(BOARD)]])
    assert winners(events) == {0: [1]}


# --- 18: showdown without all-in ----------------------------------------------------------


def test_18_b_the_last_live_hand_wins_without_showing() -> None:
    """18-B: seats 1 and 2 muck without showing; seat 3, the last live hand, wins unshown."""
    events = run(HOLDEM, [*three_way({}), muck(1), muck(2)])
    assert winners(events) == {0: [3]}
    assert not [e for e in of_type(events, "shown") if e["seat"] == 3]
    assert "18-B" in last(events, "hand_end")["pots"][0]["rules"]


def test_18_a_pot_is_awarded_once_every_live_hand_is_tabled_or_mucked() -> None:
    """18: while seat 2 has neither tabled nor mucked, the pot is not awarded to seat 1."""
    shown = [*heads_up({}), show(1)]
    assert refused(HOLDEM, [*shown, award(0, 1)])["rule"] == "18"
    assert winners(run(HOLDEM, [*shown, muck(2)])) == {0: [1]}


# --- 20: playing the board ----------------------------------------------------------------


def test_20_playing_the_board_needs_every_hole_card_shown() -> None:
    """20: the board is a royal flush. Seat 1 tables; seat 2 shows one card only: seat 2's
    hand is not read, and if seat 2 mucks seat 1 takes the whole pot; if seat 2 shows its other
    card too, the board plays for both and the pot is split."""
    cards = {1: ["2d", "3c"], 2: ["4h", "5d"]}
    half = [*heads_up(cards, ROYAL), show(1), show(2, "4h")]
    assert not of_type(run(HOLDEM, half), "hand_end")
    assert winners(run(HOLDEM, [*half, muck(2)])) == {0: [1]}
    split = run(HOLDEM, [*half, show(2, "5d")])
    assert winners(split) == {0: [1, 2]}
    assert last(split, "hand_end")["pots"][0]["shares"] == {1: 200, 2: 200}


def test_13_showdown_texts_name_seats_and_the_main_pot() -> None:
    """Texts: 'Seat 1 tables As Ad', 'main pot', never 'seat 0' or 'pot 0'."""
    cards = {1: ["As", "Ad"], 2: ["Qs", "Qd"]}
    events = run(HOLDEM, [*heads_up(cards), show(1, "As"), show(1, "Ad"), muck(2)])
    texts = [e["text"] for e in events if e["type"] in ("shown", "hand_end")]
    assert all("pot 0" not in t and "seat 0" not in t.lower() for t in texts), texts
    assert "main pot" in last(events, "hand_end")["text"]
