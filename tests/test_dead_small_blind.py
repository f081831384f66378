"""A first hand dealt with a dead small blind (34): one posted blind, the big blind.

Under the dead button (34) the small blind can be missing: the player who would post it
busted as last hand's big blind. A replayed hand (a PHH file, a disputed hand) can start in
that spot, so the config says so with ``dead_small_blind``: nobody posts the small blind, the
first player left of the button posts the big blind, and the next player acts first. The
button stays where it is for the next hand, whose small blind is this hand's big blind.
Heads-up the button is the small blind (36-C), so there is no dead small blind to deal.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from protocol import ProtocolError, decode_scenario
from tests.support import last, of_type
from tests.test_seed_common import DEEP, act, prompt_for, run, table

START = {"type": "start_hand"}


def dead_small_blind(
    stacks: dict[int, int], button: int, blinds: tuple[int, int], game: str = "NLHE"
) -> dict[str, Any]:
    return {**table(stacks, button=button, blinds=blinds, game=game), "dead_small_blind": True}


def four_seats(game: str = "NLHE") -> dict[str, Any]:
    return dead_small_blind({s: DEEP for s in range(1, 5)}, button=4, blinds=(100, 200), game=game)


def test_34_with_a_dead_small_blind_only_the_big_blind_posts() -> None:
    events = run(four_seats(), [START])
    start = last(events, "hand_start")
    assert (start["button"], start["small_blind"], start["big_blind"]) == (4, None, 1)
    assert [(p["seat"], p["kind"], p["amount"]) for p in start["posts"]] == [(1, "big_blind", 200)]
    assert "34" in start["rules"]
    assert "dead small blind" in start["text"]
    p = prompt_for(events, 2)
    assert (p["to_call"], p["min_raise_to"]) == (200, 400)


def test_34_without_a_dead_small_blind_both_blinds_post() -> None:
    cfg = four_seats()
    del cfg["dead_small_blind"]
    events = run(cfg, [START])
    start = last(events, "hand_start")
    assert (start["button"], start["small_blind"], start["big_blind"]) == (4, 1, 2)
    assert "34" not in start["rules"]
    assert prompt_for(events, 3)["to_call"] == 200


def test_34_the_next_hand_keeps_the_button_and_the_big_blind_becomes_the_small_blind() -> None:
    """As the WSOP hands 76 and 77 of 2023 event 43 day 5 show (data/wsop/2023/43/5/)."""
    folds = [act(2, "fold"), act(3, "fold"), act(4, "fold")]
    events = run(four_seats(), [START, *folds, START])
    second = of_type(events, "hand_start")[1]
    assert (second["button"], second["small_blind"], second["big_blind"]) == (4, 1, 2)
    assert "34" not in second["rules"]
    assert prompt_for(events, 3)["to_call"] == 200


def test_34_the_big_blind_may_check_its_option() -> None:
    calls = [act(2, "call"), act(3, "call"), act(4, "call")]
    events = run(four_seats(), [START, *calls])
    p = prompt_for(events, 1)
    assert (p["to_call"], p["options"]) == (0, ["check", "raise"])
    end = last(run(four_seats(), [START, *calls, act(1, "check")]), "round_end")
    assert (end["street"], end["pots"]) == ("preflop", [800])


def test_56_b_example_1_pot_limit_counts_the_dead_small_blind_as_posted() -> None:
    """56-B example 1: PLO 100-200, no small blind, the big blind posts 200: the first
    player's pot-limit bet is 700."""
    p = last(run(four_seats("PLO"), [START]), "prompt")
    assert (p["seat"], p["max_raise_to"]) == (2, 700)


def _refusal(config: dict[str, Any]) -> str:
    with pytest.raises(ProtocolError) as refused:
        decode_scenario(json.dumps({"config": config, "commands": []}))
    return str(refused.value)


def test_36_c_heads_up_there_is_no_dead_small_blind() -> None:
    """36-C: heads-up the button posts the small blind."""
    cfg = dead_small_blind({1: DEEP, 2: DEEP}, button=1, blinds=(100, 200))
    assert "`$.dead_small_blind`" in _refusal(cfg)


def test_a_dead_small_blind_needs_a_big_blind() -> None:
    cfg = dead_small_blind({1: DEEP, 2: DEEP, 3: DEEP}, button=1, blinds=(0, 0))
    cfg.update(ante=100, min_bet=200)
    assert "`$.dead_small_blind`" in _refusal(cfg)
