"""RP-10-A and RP-10-B: cards the dealer exposes in a stud deal, through the replay format.

Both sides of each line: a down-card exposed on the first deal of stud is the up-card (and may
bring it in), in a flop game it is a misdeal (37-A-6) and ``start_hand.exposed`` is refused;
a seventh-street card exposed while betting is left is replaced (back into the stub, no burn),
with none left it stands; reported after seventh street's action began, or on another street,
it is refused.
"""

from __future__ import annotations

from tests.support import last, of_type, play
from tests.test_rule_rp_10_stud import DOWN, THIRD, _played_to_seventh, error, start, stud
from tests.test_seed_common import Cmd, act, prompt_for, run, table

# --- RP-10-A: a down-card exposed on the first deal -----------------------------------------


def test_rp_10_a_the_exposed_down_card_is_the_up_card_and_may_bring_it_in() -> None:
    """Seat 3's down-card 2d was exposed: it is its up-card (the 9h that would have been went
    down). The deuce of diamonds is lower than nothing else here but seat 2's 2c: seat 2
    still brings it in; with seat 2's card a king, seat 3's exposed deuce does."""
    up = {1: "Kd", 2: "2c", 3: "2d"}
    events = run(stud(), [{**start(up, DOWN), "exposed": [3]}])
    begun = last(events, "hand_start")
    assert "RP-10-A" in begun["rules"]
    assert "seat 3's down-card 2d was exposed in the deal: it is the up-card" in begun["text"]
    assert "and it brings it in" not in begun["text"]
    assert prompt_for(events, 2)["options"] == ["bring_in", "complete"]

    up = {1: "Kd", 2: "Kc", 3: "2d"}
    events = run(stud(), [{**start(up, DOWN), "exposed": [3]}])
    assert (
        "2d was exposed in the deal: it is the up-card and its third-street card was dealt "
        in (last(events, "hand_start")["text"])
    )
    assert "and it brings it in (RP-10-A)" in last(events, "hand_start")["text"]
    assert prompt_for(events, 3)["options"] == ["bring_in", "complete"]


def test_rp_10_a_without_an_exposed_card_the_rule_is_not_cited() -> None:
    begun = last(run(stud(), [start(THIRD, DOWN)]), "hand_start")
    assert "RP-10-A" not in begun["rules"] and "exposed" not in begun["text"]


def test_37_a_in_a_flop_game_an_exposed_down_card_is_a_misdeal_not_rp_10_a() -> None:
    holdem = table({1: 1_000, 2: 1_000, 3: 1_000}, button=1, blinds=(50, 100))
    events = play(holdem, [{"type": "start_hand", "exposed": [2]}])
    refused = error(events)
    assert refused["rule"] == "37-A" and "misdeal" in refused["message"]
    assert not of_type(events, "hand_start")
    assert of_type(run(holdem, [{"type": "start_hand"}]), "hand_start")


def test_rp_10_a_a_seat_not_dealt_in_had_no_card_exposed() -> None:
    refused = error(play(stud(), [{**start(THIRD), "exposed": [5]}]))
    assert refused["rule"] == "RP-10-A" and "seat 5" in refused["message"]


# --- RP-10-B: a seventh-street card exposed -------------------------------------------------


SEVENTH: list[Cmd] = [start(THIRD, DOWN), *_played_to_seventh(False)[1:-2]]
"""Seats 1 and 3 dealt seventh street (Ac and Ah, down), before its action: seat 1 holds
Qs Js / Kd Kh 2d 5d / Ac, seat 3 Qh Jh / 9h 9s 4s 6s / Ah."""


def _exposed(seat: int, card: str) -> Cmd:
    return {"type": "irregularity", "kind": "seventh_exposed", "seat": seat, "cards": [card]}


def test_rp_10_b_with_betting_left_the_exposed_card_is_replaced_without_a_burn() -> None:
    events = run(stud(), [*SEVENTH, _exposed(1, "Ac")])
    ruling = last(events, "irregularity")
    assert (ruling["kind"], ruling["seat"], ruling["reshuffle"]) == ("seventh_exposed", 1, ["Ac"])
    assert ruling["rules"] == ["RP-10-B"]
    assert "goes back into the stub" in ruling["text"] and "no burn" in ruling["text"]
    assert "may not keep the card and move all-in" in ruling["text"]
    # The replacement is face down and not entered: seat 1 tables it (Ts) with its two
    # down-cards, and the hands are read with it; seat 3's Ah is still seat 3's.
    played = [*SEVENTH, _exposed(1, "Ac"), act(1, "check"), act(3, "check")]
    taken = error(play(stud(), [*played, {"type": "show", "seat": 1, "cards": ["Qs", "Js", "Ah"]}]))
    assert taken["rule"] == "37-E"
    shows: list[Cmd] = [
        {"type": "show", "seat": 1, "cards": ["Qs", "Js", "Ts"]},
        {"type": "show", "seat": 3},
    ]
    events = run(stud(), [*played, *shows])
    assert last(events, "hand_end")["pots"][0]["winners"] == [1]
    assert of_type(events, "shown")[0]["cards"] == ["Qs", "Js", "Ts"]


def test_rp_10_b_with_no_betting_left_the_exposed_card_stands() -> None:
    """Seat 3 is all-in on sixth street: no betting is left on seventh. Its exposed card
    stands, and the players not at risk turn their cards first. (Cards not entered: with
    every card known the hand would be read at once.)"""
    config = stud({1: 1_000, 2: 1_000, 3: 190})
    commands: list[Cmd] = [
        start(THIRD),
        act(2, "bring_in"),
        act(3, "call"),
        act(1, "call"),
        {"type": "deal", "street": "fourth", "up": {"1": ["Kh"], "2": ["3c"], "3": ["9s"]}},
        act(1, "bet"),
        act(2, "fold"),
        act(3, "call"),
        {"type": "deal", "street": "fifth", "up": {"1": ["2d"], "3": ["4s"]}},
        act(1, "bet"),
        act(3, "call"),
        {"type": "deal", "street": "sixth", "up": {"1": ["5d"], "3": ["6s"]}},
        act(1, "bet"),
        act(3, "call"),
        {"type": "deal", "street": "seventh"},
    ]
    events = run(config, [*commands, _exposed(3, "Ah")])
    ruling = last(events, "irregularity")
    assert ruling["rules"] == ["RP-10-B"] and ruling["reshuffle"] == []
    assert "it stands" in ruling["text"] and "not at risk of elimination" in ruling["text"]


def test_rp_10_b_is_refused_once_seventh_streets_action_began_or_before_seventh() -> None:
    late = error(play(stud(), [*SEVENTH, act(1, "check"), _exposed(3, "Ah")]))
    assert late["rule"] == "RP-10-B" and "action has begun" in late["message"]
    early = error(play(stud(), [*SEVENTH[:-1], _exposed(1, "Ac")]))
    assert early["rule"] == "RP-10-B" and "seventh street" in early["message"]
    wrong = error(play(stud(), [*SEVENTH, _exposed(1, "Ah")]))
    assert wrong["rule"] == "RP-10-B" and "is Ac, not Ah" in wrong["message"]


# --- a hand whose seventh-street card was not entered ----------------------------------------


def test_14_a_a_stud_hand_entered_to_sixth_street_is_tabled_with_its_seventh_card() -> None:
    """The down-cards were entered on third street, seventh street's were not: the hand is
    tabled with all three down-cards and read. (It used to be refused: "seat 1's hand is 2
    cards, not 3".) Its entered cards must be among them."""
    played = [*SEVENTH[:-1], {"type": "deal", "street": "seventh"}]
    played += [act(1, "check"), act(3, "check")]
    wrong = error(play(stud(), [*played, {"type": "show", "seat": 1, "cards": ["Qs", "Tc", "Ts"]}]))
    assert "Qs Js" in wrong["message"]
    shows: list[Cmd] = [
        {"type": "show", "seat": 1, "cards": ["Qs", "Js", "Ac"]},
        {"type": "show", "seat": 3, "cards": ["Qh", "Jh", "Ah"]},
    ]
    end = last(run(stud(), [*played, *shows]), "hand_end")
    assert end["pots"][0]["winners"] == [1] and end["pots"][0]["hands"][1] == "pair of kings"
