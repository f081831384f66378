"""Spoken amounts: unclear (59) or clear and short (54-A).

59 is for words that can mean several amounts: "bet five" with no unit is the largest
reasonable reading up to the pot. The dealer station marks such an amount with ``spoken`` (the
words as said); an amount smaller than the smallest chip in play can only have lost its unit
and is read the same way. A spoken amount with its unit ("one hundred") is clear: below the
minimum it is an under-bet, corrected to the minimum (54-A), never read as ten times more.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import last, of_type, play
from tests.test_seed_common import (
    DEEP,
    Cmd,
    act,
    action_of,
    assert_ruling,
    deal,
    run,
    table,
    to_flop,
)

Config = dict[str, Any]


def _flop_200_400() -> tuple[Config, list[Cmd]]:
    """NLHE 200-400, three players limp to the flop: 1,200 in the pot, seat 1 first."""
    cfg = table({1: DEEP, 2: DEEP, 3: DEEP}, button=3, blinds=(200, 400))
    return cfg, to_flop(cfg)


def test_59_five_said_without_its_unit_is_500_with_less_than_5000_in_the_pot() -> None:
    """59: "bet five" (recorded with its words) with 1,200 in the pot is a bet of 500."""
    cfg, cmds = _flop_200_400()
    events = run(cfg, [*cmds, act(1, "bet", 5, spoken="five")])
    assert_ruling(action_of(events, 1), "bet", 500, rules=("59",))


def test_59_five_said_without_its_unit_is_5000_with_5000_in_the_pot() -> None:
    """59: "bet five" with 5,000 in the pot is a bet of 5,000."""
    cfg = table({1: DEEP, 2: DEEP}, button=2, blinds=(200, 400))
    cmds = [{"type": "start_hand"}, act(2, "raise", 2500), act(1, "call"), deal("flop")]
    events = run(cfg, [*cmds, act(1, "bet", 5, spoken="five")])
    assert_ruling(action_of(events, 1), "bet", 5000, rules=("59",))


def test_59_one_without_its_unit_at_the_size_of_a_chip_is_still_unclear() -> None:
    """59: "bet one" recorded as 100 with its words: the unit is missing, so it is read up to
    1,000 (the largest reading within the 1,200 pot), not as a short bet of 100."""
    cfg, cmds = _flop_200_400()
    events = run(cfg, [*cmds, act(1, "bet", 100, spoken="one")])
    assert_ruling(action_of(events, 1), "bet", 1000, rules=("59",))


def test_54_a_one_hundred_with_its_unit_is_an_under_bet_corrected_to_the_minimum() -> None:
    """54-A: "bet one hundred" is clear: below the 400 minimum it is made up to 400, not read
    as 1,000 (59 is only for amounts that can mean several things)."""
    cfg, cmds = _flop_200_400()
    events = run(cfg, [*cmds, act(1, "bet", 100)])
    bet = action_of(events, 1)
    assert_ruling(bet, "bet", 400, rules=("54-A",))
    assert "59" not in bet["rules"]


def test_54_a_a_bare_clear_amount_short_of_the_minimum_bet_is_corrected() -> None:
    """54-A with 42-C: "one hundred" alone, no bet to face, is a bet made up to 400."""
    cfg, cmds = _flop_200_400()
    events = run(cfg, [*cmds, act(1, amount=100)])
    assert_ruling(action_of(events, 1), "bet", 400, rules=("42-C", "54-A"))


def test_53_b_a_bare_clear_amount_short_of_the_call_is_an_under_call() -> None:
    """42-C, 53-B: facing the 400 opening bet, "one hundred" alone is an under-call of the
    opening bet — a full call of 400 — not a raise to 1,000."""
    cfg, cmds = _flop_200_400()
    events = run(cfg, [*cmds, act(1, "bet", 400), act(2, amount=100)])
    assert not of_type(events, "floor_call")
    assert_ruling(action_of(events, 2), "call", 400, rules=("42-C", "53-B"))


def test_59_old_form_amount_below_the_smallest_chip_has_lost_its_unit() -> None:
    """59, the old form: "bet 5" recorded without its words still reads 500, because no chip
    in play is smaller than 25."""
    cfg, cmds = _flop_200_400()
    events = run(cfg, [*cmds, act(1, "bet", 5)])
    assert_ruling(action_of(events, 1), "bet", 500, rules=("59",))


def test_59_spoken_without_an_amount_is_refused_as_malformed() -> None:
    """``spoken`` says how an amount was said: without the amount the act is malformed."""
    cfg, cmds = _flop_200_400()
    with pytest.raises(Exception, match="spoken"):
        play(cfg, [*cmds, act(1, "bet", spoken="five")])


def test_59_spoken_words_are_in_the_ruling_text() -> None:
    """59: the floor reads which words were taken for which amount."""
    cfg, cmds = _flop_200_400()
    events = run(cfg, [*cmds, act(1, "bet", 5, spoken="five")])
    assert "'five'" in last(events, "action")["text"]
