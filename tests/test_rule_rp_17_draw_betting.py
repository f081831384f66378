"""The draw games' betting (2026 TDA RP-17, 50, 17, RP-8-F), through the replay format.

Triple draw (``27TD``) and badugi are fixed limit: the small bet before the draw and after the
first draw, the big bet after the second and the third; bets and raises are capped (50). No-limit
single draw (``27SD``) allows limping (RP-17): a call of the big blind before the draw is a call,
and raises go to any amount. An all-in hand still draws: the hands are turned up (17) once the
last draw's betting is over, never before a draw. Each line is tested from both sides.

The table: button on seat 1, blinds 25-50 (the small bet 50, the big bet 100 in limit).
"""

from __future__ import annotations

import pytest

from tests.support import last, of_type, play
from tests.test_rule_rp_25_draw import (
    THREE,
    checks,
    draw,
    draw_prompts,
    drawn,
    error,
    start,
    table,
)
from tests.test_seed_common import Cmd, Event, act, prompt_for, run

PAT = [draw(2), draw(3), draw(1)]
"""Three-handed, everyone pat: the draw order is seats 2, 3, 1."""


LIMPED = [start(), act(1, "call"), act(2, "call"), act(3, "check")]
"""Three-handed, no hand entered, every seat in for the big blind (any draw game)."""


def to_street(street: str) -> list[Cmd]:
    """Three-handed triple draw or badugi, limped and checked to the betting of ``street``,
    every hand pat."""
    commands = [*LIMPED, *PAT]
    rounds = ("first_draw", "second_draw", "third_draw")
    for _ in rounds[: rounds.index(street)]:
        commands += [*checks(2, 3, 1), *PAT]
    return commands


# --- 50 and the fixed limits: the small bet, then the big bet -------------------------------


@pytest.mark.parametrize("game", ["27TD", "BADUGI"])
def test_limit_draw_before_the_draw_the_bet_is_the_small_bet(game: str) -> None:
    events = run(table(game), [start()])
    prompt = prompt_for(events, 1)
    assert prompt["to_call"] == 50 and prompt["min_raise_to"] == prompt["max_raise_to"] == 100
    prompt = prompt_for(run(table(game), [start(), act(1, "raise", 100)]), 2)
    assert prompt["min_raise_to"] == prompt["max_raise_to"] == 150


@pytest.mark.parametrize("game", ["27TD", "BADUGI"])
@pytest.mark.parametrize(
    ("street", "bet"), [("first_draw", 50), ("second_draw", 100), ("third_draw", 100)]
)
def test_limit_draw_the_big_bet_comes_after_the_second_draw(
    game: str, street: str, bet: int
) -> None:
    events = run(table(game), to_street(street))
    assert last(events, "dealt")["street"] == street
    prompt = prompt_for(events, 2)
    assert prompt["options"] == ["check", "bet"]
    assert prompt["min_raise_to"] == prompt["max_raise_to"] == bet
    events = run(table(game), [*to_street(street), act(2, "bet")])
    assert last(events, "action")["total"] == bet
    assert prompt_for(events, 3)["min_raise_to"] == prompt_for(events, 3)["max_raise_to"] == 2 * bet
    # the street's bet whatever amount is said: the other limit is not this street's
    other = 150 - bet
    events = run(table(game), [*to_street(street), act(2, "bet", other)])
    assert last(events, "action")["total"] == bet


@pytest.mark.parametrize("game", ["27TD", "BADUGI"])
def test_50_before_the_draw_the_big_blind_and_three_raises_cap_the_betting(game: str) -> None:
    commands = [start(), act(1, "raise", 100), act(2, "raise", 150)]
    prompt = prompt_for(run(table(game), commands), 3)
    assert prompt["can_raise"] and prompt["max_raise_to"] == 200  # the third raise: allowed
    commands.append(act(3, "raise", 200))
    prompt = prompt_for(run(table(game), commands), 1)
    assert prompt["options"] == ["fold", "call"] and not prompt["can_raise"]
    refused = error(play(table(game), [*commands, act(1, "raise", 250)]))
    assert refused["rule"] == "50" and "capped at 4 bets" in refused["message"]


def test_50_after_a_draw_a_bet_and_three_raises_cap_the_betting() -> None:
    commands = [*to_street("second_draw"), act(2, "bet"), act(3, "raise", 200)]
    commands.append(act(1, "raise", 300))
    prompt = prompt_for(run(table(), commands), 2)
    assert prompt["can_raise"] and prompt["max_raise_to"] == 400
    commands.append(act(2, "raise", 400))
    prompt = prompt_for(run(table(), commands), 3)
    assert prompt["options"] == ["fold", "call"] and prompt["to_call"] == 200


def test_50_the_cap_is_lifted_when_the_event_is_heads_up() -> None:
    commands = [start(), act(1, "raise", 100), act(2, "raise", 150), act(3, "raise", 200)]
    prompt = prompt_for(run(table(heads_up_event=True), commands), 1)
    assert prompt["can_raise"] and prompt["max_raise_to"] == 250


# --- RP-17: limping in single draw; no-limit raises -----------------------------------------


def test_rp_17_single_draw_a_call_of_the_big_blind_is_a_call() -> None:
    events = run(table("27SD"), [start()])
    prompt = prompt_for(events, 1)
    assert "call" in prompt["options"] and prompt["to_call"] == 50
    events = run(table("27SD"), [start(), act(1, "call"), act(2, "call")])
    calls = [(e["seat"], e["action"], e["total"]) for e in of_type(events, "action")]
    assert calls == [(1, "call", 50), (2, "call", 50)]
    assert prompt_for(events, 3)["options"] == ["check", "raise"]  # the big blind's option
    events = run(table("27SD"), [start(), act(1, "call"), act(2, "call"), act(3, "check")])
    assert last(events, "round_end")["next"] == "draw"
    assert draw_prompts(events) == [2] and last(events, "draw_prompt")["street"] == "draw"


def test_rp_17_single_draw_is_no_limit_any_raise_from_the_minimum_to_all_in() -> None:
    prompt = prompt_for(run(table("27SD"), [start()]), 1)
    assert (prompt["min_raise_to"], prompt["max_raise_to"]) == (100, 1_000)
    raised = last(run(table("27SD"), [start(), act(1, "raise", 375)]), "action")
    assert (raised["action"], raised["total"]) == ("raise", 375)
    prompt = prompt_for(run(table("27SD"), [start(), act(1, "raise", 375)]), 2)
    assert (prompt["min_raise_to"], prompt["max_raise_to"]) == (700, 1_000)
    short = last(run(table("27SD"), [start(), act(1, "raise", 75)]), "action")
    assert short["total"] == 100 and "45-A" in short["rules"]  # made up to the minimum


def test_rp_17_single_draw_one_draw_then_no_limit_betting_then_the_showdown() -> None:
    commands = [*LIMPED, draw(2, 1), draw(3, 2), draw(1)]
    events = run(table("27SD"), commands)
    assert last(events, "dealt")["street"] == "draw"
    prompt = prompt_for(events, 2)
    assert (prompt["min_raise_to"], prompt["max_raise_to"]) == (50, 950)
    events = run(table("27SD"), [*commands, act(2, "bet", 333), act(3, "fold"), act(1, "call")])
    assert last(events, "round_end")["next"] == "showdown"
    assert last(events, "showdown")["order"] == [2, 1]
    assert len(of_type(events, "draw_prompt")) == 3


def test_limit_triple_draw_a_call_of_the_big_blind_is_a_call_too() -> None:
    events = run(table(), [start(), act(1, "call")])
    assert last(events, "action")["action"] == "call" and last(events, "action")["total"] == 50


# --- 17: an all-in hand still draws; the hands are turned up after the last draw ------------


def _kinds(events: list[Event]) -> list[str]:
    return [e["type"] for e in events]


def _exposed_after_the_last_draw(events: list[Event]) -> None:
    kinds = _kinds(events)
    assert kinds.count("expose_all") == 1
    assert kinds.index("expose_all") > len(kinds) - 1 - kinds[::-1].index("drawn")
    assert last(events, "expose_all")["rules"] == ["17"]


SHORT_2 = {1: 1_000, 2: 100, 3: 1_000}


def test_17_an_all_in_before_the_draw_still_draws_three_times_face_down() -> None:
    """Seat 2 calls seat 1's raise all-in for 100; seat 3 folds: nobody can bet, yet every
    draw is dealt, the hands face down, and only after the third are they turned up."""
    commands = [start(THREE), act(1, "raise", 100), act(2, "call"), act(3, "fold")]
    events = run(table(stacks=SHORT_2), commands)
    assert last(events, "action")["seat"] == 3 and of_type(events, "action")[1]["all_in"]
    assert not of_type(events, "expose_all") and draw_prompts(events) == [2]
    for street in ("first_draw", "second_draw"):
        commands += [draw(2, 1), draw(1)]
        events = run(table(stacks=SHORT_2), commands)
        assert not of_type(events, "expose_all"), street
        assert last(events, "round_end")["street"] == street  # no betting: the round is over
    events = run(table(stacks=SHORT_2), [*commands, draw(2, 1)])
    assert not of_type(events, "expose_all")
    events = run(table(stacks=SHORT_2), [*commands, draw(2, 1), draw(1)])
    assert draw_prompts(events) == [2, 1, 2, 1, 2, 1]
    _exposed_after_the_last_draw(events)
    assert last(events, "expose_all")["seats"] == [1, 2]


def test_17_an_all_in_while_others_bet_on_draws_in_turn_on_every_draw() -> None:
    """Seat 2 is all-in before the draw; seats 1 and 3 bet on. Seat 2 draws on each draw in
    its turn; the hands are turned up when the third draw's betting is over."""
    commands = [start(), act(1, "raise", 100), act(2, "call"), act(3, "call")]
    commands += [draw(2, 2), draw(3, 1), draw(1), act(3, "bet"), act(1, "call")]
    commands += [draw(2, 1), draw(3, 1), draw(1), *checks(3, 1)]
    commands += [draw(2, 1), draw(3), draw(1), act(3, "bet")]
    events = run(table(stacks=SHORT_2), commands)
    assert draw_prompts(events) == [2, 3, 1] * 3
    assert not of_type(events, "expose_all")
    events = run(table(stacks=SHORT_2), [*commands, act(1, "call")])
    _exposed_after_the_last_draw(events)
    assert last(events, "expose_all")["seats"] == [1, 2, 3]
    assert last(events, "round_end")["pots"] == [300, 300]  # 3 x 100; 2 x (50 + 100)


def test_17_an_all_in_after_the_first_draw_is_turned_up_only_after_the_third() -> None:
    stacks = {1: 1_000, 2: 125, 3: 1_000}  # seat 2: 50 before the draw, 75 left
    commands = [*LIMPED, *PAT, act(2, "bet"), act(3, "raise", 100), act(1, "fold")]
    events = run(table(stacks=stacks), [*commands, act(2, "call")])
    assert last(events, "action")["all_in"] and not of_type(events, "expose_all")
    commands += [act(2, "call"), draw(2, 2), draw(3, 1)]  # the second draw: no betting after
    events = run(table(stacks=stacks), [*commands, draw(2, 1)])
    assert not of_type(events, "expose_all") and last(events, "draw_prompt")["seat"] == 3
    assert last(events, "draw_prompt")["street"] == "third_draw"
    events = run(table(stacks=stacks), [*commands, draw(2, 1), draw(3, 1)])
    _exposed_after_the_last_draw(events)
    assert last(events, "expose_all")["seats"] == [2, 3]


@pytest.mark.parametrize("game", ["27SD", "BADUGI"])
def test_17_single_draw_and_badugi_turn_all_in_hands_up_after_the_last_draw(game: str) -> None:
    commands = [start(), act(1, "raise", 100), act(2, "call"), act(3, "fold"), draw(2, 1)]
    events = run(table(game, SHORT_2), commands)
    assert not of_type(events, "expose_all")
    draws = 1 if game == "27SD" else 3
    commands += [draw(1)] + [draw(2, 1), draw(1)] * (draws - 1)
    events = run(table(game, SHORT_2), commands)
    _exposed_after_the_last_draw(events)
    assert len(drawn(events)) == 2 * draws


def test_17_without_an_all_in_nothing_is_turned_up_the_showdown_goes_in_order() -> None:
    commands = [*to_street("third_draw"), *checks(2, 3, 1)]
    events = run(table(), commands)
    assert not of_type(events, "expose_all") and last(events, "showdown")["order"] == [2, 3, 1]


def test_17_after_the_exposure_an_all_in_hand_cannot_be_mucked() -> None:
    commands = [start(), act(1, "raise", 100), act(2, "call"), act(3, "fold")]
    commands += [draw(2), draw(1)] * 3
    assert of_type(run(table(stacks=SHORT_2), commands), "expose_all")
    refused = error(play(table(stacks=SHORT_2), [*commands, {"type": "muck", "seat": 1}]))
    assert refused["rule"] == "17"


def test_rp_8_f_hand_for_hand_an_all_in_and_call_before_the_draw_waits_for_the_floor() -> None:
    commands = [{"type": "hand_for_hand"}, start(), act(1, "raise", 100), act(2, "call")]
    events = run(table(stacks=SHORT_2), [*commands, act(3, "fold")])
    assert of_type(events, "cards_held") and not draw_prompts(events)
    refused = error(play(table(stacks=SHORT_2), [*commands, act(3, "fold"), draw(2, 1)]))
    assert refused["code"] == "cards_held"


def test_rp_8_f_released_the_draws_go_on_face_down_and_the_hands_turn_up_after_the_last() -> None:
    """Once the floor releases the all-in, the draws are prompted (seat 2, then seat 1), no hand
    is turned up before a draw, nothing waits again, and the hands are turned up (17) when the
    third draw is done and no betting is left."""
    commands = [{"type": "hand_for_hand"}, start(), act(1, "raise", 100), act(2, "call")]
    commands += [act(3, "fold"), {"type": "release_cards"}]
    released = run(table(stacks=SHORT_2), commands)
    assert draw_prompts(released) == [2] and not of_type(released, "expose_all")
    for _ in range(2):
        commands += [draw(2, 1), draw(1, 0)]
        assert not of_type(run(table(stacks=SHORT_2), commands), "expose_all")
    commands += [draw(2, 1), draw(1, 0)]
    events = run(table(stacks=SHORT_2), commands)
    assert len(of_type(events, "cards_held")) == 1
    kinds = [e["type"] for e in events]
    assert kinds.count("expose_all") == 1
    assert kinds.index("expose_all") > max(i for i, k in enumerate(kinds) if k == "drawn")


def test_rp_8_f_hand_for_hand_with_betting_still_open_the_draw_goes_on() -> None:
    commands = [{"type": "hand_for_hand"}, start(), act(1, "raise", 100), act(2, "call")]
    events = run(table(stacks=SHORT_2), [*commands, act(3, "call")])
    assert not of_type(events, "cards_held") and draw_prompts(events) == [2]
