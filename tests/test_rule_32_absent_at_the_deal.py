"""Rule 32 and RP-10-C: a player not at the seat when the last card of the first deal is dealt
has no live hand, through the replay format.

The dealer names the seats away in ``start_hand.absent``. Both sides of each line: a seat
away is killed, one present plays; a blind or ante posted by a seat away stays in the pot; in
stud the seat away that was dealt the bring-in card posts the bring-in too, any other seat away
only its ante; a dead stud hand gets no fourth-street card (RP-10-C); the re-deal after a
misdeal deals the seat away in again (37-C); a seat not dealt in, or every seat away, is
refused.
"""

from __future__ import annotations

from tests.support import last, of_type, play
from tests.test_rule_rp_10_stud import error, start, street, stud
from tests.test_seed_common import Cmd, Event, act, actions_of, prompt_for, run, table

HOLDEM = table({1: 1_000, 2: 1_000, 3: 1_000, 4: 1_000}, button=1, blinds=(50, 100))
"""Button seat 1, small blind 2, big blind 3: seat 4 acts first."""


def _killed(events: list[Event], seat: int) -> Event:
    kill = [a for a in actions_of(events, seat) if a["action"] == "fold"]
    assert kill, f"seat {seat} was not killed"
    return kill[-1]


def _away(*seats: int, **extra: object) -> Cmd:
    return {"type": "start_hand", "absent": list(seats), **extra}


# --- the flop games -------------------------------------------------------------------------


def test_32_a_seat_away_at_the_deal_is_killed_and_one_present_plays() -> None:
    events = run(HOLDEM, [_away(4)])
    kill = _killed(events, 4)
    assert kill["forced"] and kill["rules"] == ["32"]
    assert "not at the seat" in kill["text"]
    # The action goes past the dead hand: the button acts first.
    assert prompt_for(events, 1)["options"][0] == "fold"
    assert not actions_of(run(HOLDEM, [{"type": "start_hand"}]), 4)


def test_24_a_correction_keeps_the_hand_of_a_seat_away_at_the_deal_dead() -> None:
    """The floor voids the small blind's call: the hand is played again from its deal with
    seat 4 still away (its hand killed first, 32, then the button's call), and the small blind
    is to act again; before, the re-played deal had seat 4 present and prompted it."""
    commands: list[Cmd] = [_away(4), act(1, "call"), act(2, "call")]
    events = run(HOLDEM, [*commands, {"type": "correction", "reason": "misheard", "count": 1}])
    redone = last(events, "correction")["events"]
    assert [e["seat"] for e in redone if e["type"] == "action"][:2] == [4, 1]
    assert last(events, "prompt")["seat"] == 2
    assert last(events, "hand_start")["absent"] == [4]


def test_32_the_big_blind_away_posts_it_and_the_post_stays_in_the_pot() -> None:
    """Seat 3 posted the big blind while away: killed, its 100 stays in the pot. Seat 4
    calls, the button folds, the small blind completes: the flop is checked down to the river
    with no option for the dead big blind, and the pot holds its 100."""
    commands: list[Cmd] = [_away(3), act(4, "call"), act(1, "fold"), act(2, "call")]
    events = run(HOLDEM, commands)
    assert _killed(events, 3)["total"] == 100
    end = last(events, "round_end")
    assert end["street"] == "preflop" and end["pots"] == [300]
    assert not [p for p in of_type(events, "prompt") if p["seat"] == 3]


def test_32_with_one_player_present_he_takes_the_posts() -> None:
    config = table({1: 1_000, 2: 1_000, 3: 1_000}, button=1, blinds=(50, 100))
    events = run(config, [_away(2, 3)])
    end = last(events, "hand_end")
    assert end["pots"][0]["winners"] == [1] and end["stacks"][1] == 1_150


def test_32_every_seat_away_or_a_seat_not_dealt_in_is_refused() -> None:
    everyone = error(play(HOLDEM, [_away(1, 2, 3, 4)]))
    assert everyone["rule"] == "32" and "every seat" in everyone["message"]
    nobody = error(play(HOLDEM, [_away(7)]))
    assert nobody["rule"] == "32" and "seat 7" in nobody["message"]
    assert not of_type(play(HOLDEM, [_away(7)]), "hand_start"), "nothing changed"


def test_37_c_the_re_deal_deals_the_seat_away_in_again() -> None:
    events = run(HOLDEM, [_away(4), {"type": "misdeal", "reason": "first card boxed"}])
    redeal = last(events, "hand_start")
    assert redeal["redeal"] and 4 in redeal["dealt"]
    after = events[events.index(redeal) :]
    assert not [a for a in after if a["type"] == "action" and a["seat"] == 4]
    assert prompt_for(events, 4)["options"][0] == "fold", "seat 4 plays the re-deal"


# --- stud: the bring-in card dealt to a seat away -----------------------------------------


STUD = stud({1: 1_000, 2: 1_000, 3: 1_000, 4: 1_000})
UP = {1: "Kd", 2: "2c", 3: "9h", 4: "Jc"}
"""Seat 2's deuce of clubs brings it in."""


def test_32_stud_the_seat_away_dealt_the_bring_in_card_posts_it_and_is_killed() -> None:
    events = run(STUD, [{**start(UP), "absent": [2]}])
    posted = [a for a in actions_of(events, 2) if a["action"] == "bring_in"]
    assert posted and posted[0]["forced"] and posted[0]["total"] == 20
    assert posted[0]["rules"] == ["RP-10", "32"]
    assert _killed(events, 2)["rules"] == ["32"]
    # Seat 3, on its left, faces the bring-in: it folds, calls it or completes.
    prompt = prompt_for(events, 3)
    assert prompt["to_call"] == 20 and "complete" not in prompt["options"]
    assert {"fold", "call"} <= set(prompt["options"])
    events = run(
        STUD, [{**start(UP), "absent": [2]}, act(3, "call"), act(4, "call"), act(1, "call")]
    )
    # antes 40 and three calls of the bring-in besides its own: 40 + 80
    assert last(events, "round_end")["pots"] == [120]


def test_32_stud_any_other_seat_away_loses_only_its_ante_and_gets_no_fourth_street_card() -> None:
    commands: list[Cmd] = [
        {**start(UP), "absent": [4]},
        act(2, "bring_in"),
        act(3, "call"),
        act(1, "call"),
    ]
    events = run(STUD, commands)
    assert not [a for a in actions_of(events, 4) if a["action"] == "bring_in"]
    assert _killed(events, 4)["total"] == 0
    assert last(events, "round_end")["pots"] == [100]
    refused = error(play(STUD, [*commands, street("fourth", {1: "Ks", 2: "3c", 3: "9s", 4: "Jd"})]))
    assert refused["rule"] == "RP-10-C" and "seat 4" in refused["message"]
    run(STUD, [*commands, street("fourth", {1: "Ks", 2: "3c", 3: "9s"})])


def test_74_c_a_killed_big_blind_of_a_seat_on_penalty_stays_in_the_pot_too() -> None:
    """The same line for 74-C: seat 3, on a penalty, posts the big blind and is killed; the
    others fold to the small blind, who takes the whole 150 — none of the killed hand's 100
    goes back to it as an uncalled bet. (Before, the unmatched 50 went back to the dead big
    blind, here and under rule 32.)"""
    config = table({1: 1_000, 2: 1_000, 3: 1_000, 4: 1_000}, button=1, blinds=(50, 100))
    penalty: Cmd = {"type": "penalty", "seat": 3, "kind": "hands", "count": 1, "reason": "abuse"}
    events = run(config, [penalty, {"type": "start_hand"}, act(4, "fold"), act(1, "fold")])
    end = last(events, "hand_end")
    assert end["pots"][0]["winners"] == [2]
    assert end["stacks"][2] == 1_100 and end["stacks"][3] == 900
