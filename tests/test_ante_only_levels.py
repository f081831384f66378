"""Ante-only levels: antes and no blinds (the structure of some events; stud's, once it is dealt).

A level ``{"blinds": [0, 0], "ante": A, "min_bet": M}`` posts only antes. With nobody owing a
blind the betting opens as it does on every later street: the first player left of the button
acts first (and may check), the smallest bet and raise is the level's ``min_bet`` (45-A, 57-B),
the pot-limit pot is the antes alone (56-B counts only blinds as fully posted), and in limit a
bet of ``min_bet`` is the first of the street's capped bets (50) — there is no posted big blind
to count. A level that names no forced bet at all, a big-blind ante without a big blind
(RP-11), or a ``min_bet`` beside a big blind that is not the big blind is refused at decoding,
naming the field.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
import pytest

from protocol import ProtocolError, decode_command, decode_scenario
from protocol.config import Level, LevelError, TableConfig
from server.engine import apply, new_table, rebuild
from server.replay import run_scenario
from tests.support import last, of_type, play
from tests.test_seed_common import DEEP, act, deal, prompt_for, run, table

GAMES = ["NLHE", "PLHE", "LHE", "NLO", "PLO", "PLO8", "LO8"]
START = {"type": "start_hand"}


def ante_only(
    stacks: dict[int, int], button: int, ante: int, min_bet: int, game: str = "NLHE"
) -> dict[str, Any]:
    cfg = table(stacks, button=button, blinds=(0, 0), game=game, ante=ante)
    cfg["min_bet"] = min_bet
    return cfg


def four_seats(game: str = "NLHE", ante: int = 100, min_bet: int = 200) -> dict[str, Any]:
    """Seats 1-4, button on seat 4: the first player left of the button is seat 1."""
    return ante_only(
        {s: DEEP for s in range(1, 5)}, button=4, ante=ante, min_bet=min_bet, game=game
    )


def refusal(config: dict[str, Any]) -> str:
    with pytest.raises(ProtocolError) as refused:
        decode_scenario(json.dumps({"config": config, "commands": []}))
    return str(refused.value)


# --- The config and the level command -------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_flop_game_may_be_played_at_an_ante_only_level(game: str) -> None:
    events = run(four_seats(game), [START])
    start = last(events, "hand_start")
    assert start["blinds"] == [0, 0]
    assert start["min_bet"] == 200
    assert [(p["seat"], p["kind"], p["amount"]) for p in start["posts"]] == [
        (1, "ante", 100), (2, "ante", 100), (3, "ante", 100), (4, "ante", 100),
    ]  # fmt: skip
    assert "no blinds" in start["text"]
    assert "big blind seat" not in start["text"]


def test_a_level_with_neither_blinds_nor_an_ante_is_refused_naming_blinds() -> None:
    message = refusal(ante_only({1: DEEP, 2: DEEP}, button=1, ante=0, min_bet=200))
    assert "`$.blinds`" in message
    assert "`$.config`" in message


def test_an_ante_only_level_without_a_minimum_bet_is_refused_naming_min_bet() -> None:
    cfg = ante_only({1: DEEP, 2: DEEP}, button=1, ante=100, min_bet=200)
    del cfg["min_bet"]
    assert "`$.min_bet`" in refusal(cfg)


def test_rp_11_a_big_blind_ante_without_a_big_blind_is_refused_naming_bba() -> None:
    """RP-11: the big blind ante is the big blind's to post, after the big blind."""
    cfg = ante_only({1: DEEP, 2: DEEP}, button=1, ante=100, min_bet=200)
    cfg["bba"] = True
    assert "`$.bba`" in refusal(cfg)


def test_a_small_blind_without_a_big_blind_is_refused_naming_blinds() -> None:
    cfg = ante_only({1: DEEP, 2: DEEP}, button=1, ante=100, min_bet=200)
    cfg["blinds"] = [100, 0]
    assert "`$.blinds`" in refusal(cfg)


def test_beside_a_big_blind_the_minimum_bet_is_the_big_blind() -> None:
    """The big blind is the opening bet pre-flop (53-B): a different ``min_bet`` is refused."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=3, blinds=(100, 200))
    assert "`$.min_bet`" in refusal({**cfg, "min_bet": 400})
    events = run({**cfg, "min_bet": 200}, [START])
    assert last(events, "prompt")["min_raise_to"] == 400


def test_the_refusal_is_a_typed_error_naming_the_field() -> None:
    with pytest.raises(LevelError) as refused:
        TableConfig(game="LHE", blinds=(0, 0), seats={1: DEEP, 2: DEEP}, button=1, ante=100)
    assert refused.value.field == "$.min_bet"
    with pytest.raises(LevelError) as refused:
        Level((0, 0), ante=0, min_bet=200)
    assert refused.value.field == "$.blinds"


def test_the_level_command_is_refused_as_the_config_is() -> None:
    with pytest.raises(ProtocolError, match=r"`\$\.min_bet`"):
        decode_command('{"type": "level", "blinds": [0, 0], "ante": 100}')
    with pytest.raises(ProtocolError, match=r"`\$\.blinds`"):
        decode_command('{"type": "level", "blinds": [0, 0], "min_bet": 200}')
    with pytest.raises(ProtocolError, match=r"`\$\.bba`"):
        decode_command(
            '{"type": "level", "blinds": [0, 0], "ante": 100, "bba": true, "min_bet": 1}'
        )


def _ante_only_level(ante: int = 100, min_bet: int = 200) -> dict[str, Any]:
    return {"type": "level", "blinds": [0, 0], "ante": ante, "min_bet": min_bet}


def test_25_an_ante_only_level_applies_from_the_next_hand() -> None:
    """25-A: announced during hand 1 (blinds 100-200), the ante-only level starts with hand 2."""
    cfg = table({s: DEEP for s in range(1, 5)}, button=4, blinds=(100, 200))
    hand_1 = [START, _ante_only_level(), act(3, "fold"), act(4, "fold"), act(1, "fold")]
    events = run(cfg, [*hand_1, START])
    first, second = of_type(events, "hand_start")
    assert {p["kind"] for p in first["posts"]} == {"small_blind", "big_blind"}
    assert second["button"] == 1
    assert [(p["seat"], p["kind"]) for p in second["posts"]] == [
        (1, "ante"), (2, "ante"), (3, "ante"), (4, "ante"),
    ]  # fmt: skip
    p = prompt_for(events, 2)  # the first player left of the button (seat 1)
    assert (p["to_call"], p["min_raise_to"], p["options"]) == (0, 200, ["check", "bet"])


def test_25_blinds_return_with_the_next_level() -> None:
    cfg = four_seats()
    hand_1 = [START, {"type": "level", "blinds": [100, 200]}]
    hand_1 += [act(1, "bet", 200), act(2, "fold"), act(3, "fold"), act(4, "fold")]
    events = run(cfg, [*hand_1, START])
    second = of_type(events, "hand_start")[1]
    assert [(p["seat"], p["kind"]) for p in second["posts"]] == [
        (2, "small_blind"), (3, "big_blind"),
    ]  # fmt: skip
    assert second["min_bet"] == 200
    assert prompt_for(events, 4)["to_call"] == 200


def test_an_ante_only_table_is_rebuilt_from_its_events() -> None:
    """The level's minimum bet travels in the events, so a replayed log gives the same table."""
    scenario = decode_scenario(
        json.dumps(
            {
                "config": table({s: DEEP for s in range(1, 4)}, button=3, blinds=(100, 200)),
                "commands": [
                    START, _ante_only_level(50, 300), act(1, "fold"), act(2, "fold"),
                    START, act(3, "check"), act(1, "check"),
                ],
            }
        )
    )  # fmt: skip
    state = new_table(scenario.config)
    log = []
    for command in scenario.commands:
        state, events = apply(state, command)
        log.extend(events)
    assert state.level == Level((0, 0), ante=50, min_bet=300)
    assert msgspec.to_builtins(rebuild(scenario.config, log)) == msgspec.to_builtins(state)
    assert run_scenario(scenario) == log


# --- The hand start: who posts and who acts first ------------------------------------------


def test_only_antes_are_posted_and_a_short_stack_is_all_in_on_its_ante() -> None:
    cfg = ante_only({1: DEEP, 2: 60, 3: DEEP}, button=3, ante=100, min_bet=200)
    start = last(run(cfg, [START]), "hand_start")
    assert [(p["seat"], p["amount"], p["all_in"]) for p in start["posts"]] == [
        (1, 100, False), (2, 60, True), (3, 100, False),
    ]  # fmt: skip
    assert last(run(cfg, [START, act(1, "check")]), "prompt")["seat"] == 3


def test_with_no_blinds_the_first_player_left_of_the_button_acts_first() -> None:
    cfg = ante_only({s: DEEP for s in range(1, 7)}, button=2, ante=100, min_bet=200)
    assert last(run(cfg, [START]), "prompt")["seat"] == 3


def test_with_blinds_the_first_player_left_of_the_big_blind_acts_first() -> None:
    cfg = table({s: DEEP for s in range(1, 7)}, button=2, blinds=(100, 200))
    assert last(run(cfg, [START]), "prompt")["seat"] == 5


def test_heads_up_with_no_blinds_the_player_left_of_the_button_acts_first_on_every_street() -> None:
    """36-C makes the button act first pre-flop because it is the small blind; without blinds
    every street starts left of the button."""
    cfg = ante_only({1: DEEP, 2: DEEP}, button=1, ante=100, min_bet=200)
    events = run(cfg, [START])
    assert last(events, "prompt")["seat"] == 2
    events = run(cfg, [START, act(2, "check"), act(1, "check"), deal("flop")])
    assert last(events, "prompt")["seat"] == 2


def test_heads_up_with_blinds_the_button_acts_first_pre_flop() -> None:
    cfg = table({1: DEEP, 2: DEEP}, button=1, blinds=(100, 200))
    assert last(run(cfg, [START]), "prompt")["seat"] == 1


def test_with_no_blinds_everyone_may_check_pre_flop() -> None:
    cfg = four_seats()
    events = run(cfg, [START, *[act(s, "check") for s in (1, 2, 3, 4)]])
    end = last(events, "round_end")
    assert (end["street"], end["pots"], end["next"]) == ("preflop", [400], "flop")


def test_with_a_big_blind_a_check_pre_flop_is_refused_before_the_big_blind() -> None:
    cfg = table({s: DEEP for s in range(1, 5)}, button=4, blinds=(100, 200))
    p = last(run(cfg, [START]), "prompt")
    assert (p["seat"], p["to_call"], p["options"]) == (3, 200, ["fold", "call", "raise"])


# --- The minimum bet and raise ---------------------------------------------------------------


def test_45_a_the_minimum_bet_is_the_levels_min_bet() -> None:
    cfg = four_seats(min_bet=300)
    p = last(run(cfg, [START]), "prompt")
    assert (p["seat"], p["min_raise_to"], p["max_raise_to"]) == (1, 300, DEEP - 100)
    events = run(cfg, [START, act(1, "bet", 500)])
    assert prompt_for(events, 2)["min_raise_to"] == 1000


def test_a_bet_under_the_minimum_is_made_up_to_min_bet() -> None:
    """The minimum an under-bet is made up to (54-A, 57-B) is the level's, not a big blind."""
    events = run(four_seats(min_bet=300), [START, act(1, "bet", 100)])
    bet = last(events, "action")
    assert (bet["action"], bet["total"]) == ("bet", 300)
    assert prompt_for(events, 2)["to_call"] == 300


def test_45_a_the_minimum_bet_after_the_flop_is_min_bet_too() -> None:
    cfg = four_seats(min_bet=300)
    checks = [act(s, "check") for s in (1, 2, 3, 4)]
    events = run(cfg, [START, *checks, deal("flop")])
    assert prompt_for(events, 1)["min_raise_to"] == 300


def test_45_a_with_blinds_the_minimum_bet_is_the_big_blind() -> None:
    cfg = table({s: DEEP for s in range(1, 5)}, button=4, blinds=(100, 200))
    calls = [act(3, "call"), act(4, "call"), act(1, "call"), act(2, "check")]
    events = run(cfg, [START, *calls, deal("flop")])
    assert prompt_for(events, 1)["min_raise_to"] == 200


# --- Pot limit (56) ---------------------------------------------------------------------------


def test_56_pot_limit_the_pot_pre_flop_is_the_antes() -> None:
    """56-B counts blinds as fully posted; an ante-only level has none to count."""
    cfg = four_seats("PLO", ante=100, min_bet=200)
    assert last(run(cfg, [START]), "prompt")["max_raise_to"] == 400
    events = run(cfg, [START, act(1, "pot")])
    assert last(events, "action")["total"] == 400
    assert prompt_for(events, 2)["max_raise_to"] == 1600  # call 400, pot 1,200, raise 1,200


def test_56_pot_limit_the_minimum_bet_stands_over_a_smaller_pot() -> None:
    cfg = ante_only({1: DEEP, 2: DEEP, 3: DEEP}, button=3, ante=25, min_bet=200, game="PLHE")
    p = last(run(cfg, [START]), "prompt")
    assert (p["min_raise_to"], p["max_raise_to"]) == (200, 200)


def test_56_b_with_blinds_the_pot_pre_flop_counts_them() -> None:
    """56-B example: PLO 100-200: the first player's pot bet is 700."""
    cfg = table({s: DEEP for s in range(1, 5)}, button=4, blinds=(100, 200), game="PLO")
    assert last(run(cfg, [START]), "prompt")["max_raise_to"] == 700


# --- Limit: the bet unit and the cap (50) -----------------------------------------------------


def test_limit_bets_are_min_bet_then_twice_it() -> None:
    cfg = four_seats("LHE", ante=50, min_bet=200)
    p = last(run(cfg, [START]), "prompt")
    assert (p["min_raise_to"], p["max_raise_to"]) == (200, 200)
    checks = [act(s, "check") for s in (1, 2, 3, 4)]
    to_turn = [START, *checks, deal("flop"), *checks, deal("turn")]
    p = prompt_for(run(cfg, to_turn), 1)
    assert (p["min_raise_to"], p["max_raise_to"]) == (400, 400)


def test_50_with_no_blinds_the_opening_bet_is_the_first_of_the_capped_bets() -> None:
    """50: cap 4 = a bet and three raises; the first bet pre-flop is a player's, not a blind."""
    cfg = four_seats("LO8", ante=50, min_bet=200)
    three = [START, act(1, "bet"), act(2, "raise"), act(3, "raise")]
    p = prompt_for(run(cfg, three), 4)
    assert (p["to_call"], p["can_raise"], p["min_raise_to"]) == (600, True, 800)
    p = prompt_for(run(cfg, [*three, act(4, "raise")]), 1)
    assert (p["to_call"], p["can_raise"], p["options"]) == (600, False, ["fold", "call"])


def test_50_with_blinds_the_posted_big_blind_is_the_first_of_the_capped_bets() -> None:
    cfg = table({s: DEEP for s in range(1, 5)}, button=4, blinds=(100, 200), game="LO8")
    raised = [START, act(3, "raise"), act(4, "raise"), act(1, "raise")]
    events = run(cfg, raised)
    assert last(events, "action")["total"] == 800
    p = prompt_for(events, 2)
    assert (p["to_call"], p["can_raise"]) == (600, False)


def test_50_the_cap_is_lifted_heads_up_in_the_event_at_an_ante_only_level() -> None:
    cfg = {**ante_only({1: DEEP, 2: DEEP}, button=1, ante=50, min_bet=200, game="LHE")}
    cfg["heads_up_event"] = True
    raises = [act(2, "bet"), act(1, "raise"), act(2, "raise"), act(1, "raise")]
    assert prompt_for(play(cfg, [START, *raises]), 2)["can_raise"] is True
