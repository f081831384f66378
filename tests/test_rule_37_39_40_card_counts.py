"""A seat dealt the wrong number of cards (37-A-5, 39, 40).

39 covers one case only: the button short a card. It gets the missing card, even after
substantial action (38), unless it has acted with the short hand: then its hand is dead. Every
other case — the button with an extra card, any other seat short or extra — is a misdeal
before substantial action (37-A-5, re-dealt as it was, 37-C) and a dead hand after it (40):
the seat is folded, its chips stay in the pot, its cards go to the muck and dealing goes on
with one burn per street. Hold'em hands hold two cards, Omaha hands four; the ``cards`` of
the report are the cards the seat holds, and they decide whether it is short or has extra.
"""

from __future__ import annotations

from typing import Any

from tests.support import last, of_type, play
from tests.test_seed_common import DEEP, Cmd, Event, act, action_of, deal, prompt_for, run, table

# Seats 1-6, button 6: small blind 1, big blind 2, UTG 3. Blinds 100-200.
SIX = table({s: DEEP for s in range(1, 7)}, button=6, blinds=(100, 200))
SIX_PLO = {**SIX, "game": "PLO"}
# Three-handed, button 1: the button acts first pre-flop (small blind 2, big blind 3).
THREE = table({s: DEEP for s in (1, 2, 3)}, button=1, blinds=(100, 200))
# Heads-up, button 1: the button is the small blind and acts first pre-flop (36-C).
HEADS_UP = table({1: DEEP, 2: DEEP}, button=1, blinds=(100, 200))
# Seats 1-5 with the button on the empty seat 6: a dead button (34); seat 5 is dealt last.
DEAD_BUTTON = table({s: DEEP for s in range(1, 6)}, button=6, blinds=(100, 200))

ONE = ["As"]
THREE_CARDS = ["As", "Kd", "Qh"]
FIVE_CARDS = ["As", "Kd", "Qh", "Jc", "Ts"]
START: list[Cmd] = [{"type": "start_hand"}]
SA = [*START, act(3, "fold"), act(4, "call")]
"""UTG folds and seat 4 calls: two actions, one with chips — substantial action (38-A)."""


def short(seat: int, cards: list[str] | None = None) -> Cmd:
    cmd: Cmd = {"type": "irregularity", "kind": "short_card", "seat": seat}
    if cards is not None:
        cmd["cards"] = cards
    return cmd


def wrong(seat: int, cards: list[str] | None = None) -> Cmd:
    cmd: Cmd = {"type": "irregularity", "kind": "wrong_card_count", "seat": seat}
    if cards is not None:
        cmd["cards"] = cards
    return cmd


def assert_card_given(events: list[Event], seat: int) -> None:
    """39: the button gets its missing card; nobody's hand is killed, nothing is re-dealt."""
    note = last(events, "irregularity")
    assert (note["kind"], note["seat"], note["rules"]) == ("short_card", seat, ["39"])
    assert f"Seat {seat}" in note["text"] and "button" in note["text"]
    assert not of_type(events, "misdeal")
    assert not [e for e in of_type(events, "action") if e["forced"]]


def assert_misdeal(events: list[Event]) -> None:
    """37-A-5: a misdeal, and the hand re-dealt exactly as it was (37-C)."""
    misdeal = last(events, "misdeal")
    assert {"37-A-5", "37-C"} <= set(misdeal["rules"]), misdeal
    first, again = of_type(events, "hand_start")
    assert again["redeal"] is True
    for field in ("hand", "button", "small_blind", "big_blind", "dealt"):
        assert again[field] == first[field], field


def assert_dead(events: list[Event], seat: int, rule: str) -> Event:
    """The seat's hand is dead: a forced fold naming ``rule``, no misdeal (37-D)."""
    assert not of_type(events, "misdeal")
    assert len(of_type(events, "hand_start")) == 1
    fold = action_of(events, seat)
    assert (fold["action"], fold["forced"]) == ("fold", True), fold
    assert rule in fold["rules"], fold
    assert "dead" in fold["text"], fold
    return fold


# --- 39: the button short a card -----------------------------------------------------------


def test_39_button_short_a_card_before_sa_gets_the_card_and_no_misdeal() -> None:
    events = run(SIX, [*START, short(6, ONE)])
    assert_card_given(events, 6)
    prompt_for(events, 3)


def test_39_button_short_a_card_after_sa_still_gets_it_while_it_has_not_acted() -> None:
    events = run(SIX, [*SA, short(6, ONE)])
    assert_card_given(events, 6)
    prompt_for(events, 5)
    events = run(SIX, [*SA, short(6, ONE), act(5, "call")])
    prompt_for(events, 6)


def test_39_button_that_acted_a_card_short_has_a_dead_hand_after_sa() -> None:
    commands = [*SA, act(5, "call"), act(6, "call"), short(6, ONE)]
    events = run(SIX, commands)
    assert_dead(events, 6, "39")
    prompt_for(events, 1)
    # Its call stays in the pot: 100 + 200 (blinds) + 3 calls of 200.
    events = run(SIX, [*commands, act(1, "call"), act(2, "check")])
    assert last(events, "round_end")["pots"] == [1000]


def test_39_button_that_acted_a_card_short_has_a_dead_hand_before_sa() -> None:
    """Three-handed the button acts first: one call is not substantial action, but 39 kills a
    button that acted a card short all the same — no misdeal."""
    events = run(THREE, [*START, act(1, "call"), short(1, ONE)])
    assert not of_type(events, "substantial_action")
    assert_dead(events, 1, "39")
    prompt_for(events, 2)


def test_39_heads_up_the_small_blind_is_the_button() -> None:
    """Heads-up the small blind is the button (36-C) and gets the last card: 39 is its rule.
    Before it acts it gets the card; once it has called a card short, its hand is dead and the
    big blind wins the pot, the dead hand's chips included."""
    assert_card_given(run(HEADS_UP, [*START, short(1, ONE)]), 1)
    prompt_for(run(HEADS_UP, [*START, short(1, ONE)]), 1)
    events = run(HEADS_UP, [*START, act(1, "call"), short(1, ONE)])
    assert_dead(events, 1, "39")
    assert last(events, "hand_end")["stacks"] == {1: DEEP - 200, 2: DEEP + 200}


def test_37_a_5_heads_up_big_blind_short_is_not_the_button() -> None:
    """The big blind is not the button: short a card it is a misdeal before substantial
    action, a dead hand after it — found between streets, the button wins at once."""
    assert_misdeal(run(HEADS_UP, [*START, short(2, ONE)]))
    events = run(HEADS_UP, [*START, act(1, "call"), act(2, "check"), short(2, ONE)])
    assert_dead(events, 2, "40")
    assert last(events, "round_end")["next"] == ""
    assert last(events, "hand_end")["stacks"] == {1: DEEP + 200, 2: DEEP - 200}


def test_40_dead_hand_found_at_the_showdown_cannot_win() -> None:
    checked = [act(2, "check"), act(1, "check")]
    commands = [*START, act(1, "call"), act(2, "check"), deal("flop"), *checked]
    commands += [deal("turn"), *checked, deal("river"), *checked, wrong(1, THREE_CARDS)]
    events = run(HEADS_UP, commands)
    assert_dead(events, 1, "40")
    assert last(events, "hand_end")["stacks"] == {1: DEEP - 200, 2: DEEP + 200}


# --- the button with an extra card: not 39 -----------------------------------------------------


def test_37_a_5_button_with_an_extra_card_before_sa_is_a_misdeal() -> None:
    assert_misdeal(run(SIX, [*START, wrong(6, THREE_CARDS)]))


def test_40_button_with_an_extra_card_after_sa_has_a_dead_hand() -> None:
    events = run(SIX, [*SA, act(5, "call"), wrong(6, THREE_CARDS)])
    assert_dead(events, 6, "40")
    prompt_for(events, 1)


# --- any other seat: 37-A-5 before substantial action, 40 after ------------------------------


def test_37_a_5_seat_other_than_the_button_short_a_card_before_sa_is_a_misdeal() -> None:
    """39 is the button's rule only: seat 4 short a card is a misdeal, however it is reported."""
    assert_misdeal(run(SIX, [*START, short(4, ONE)]))
    assert_misdeal(run(SIX, [*START, short(4)]))
    assert_misdeal(run(SIX, [*START, wrong(4, ONE)]))


def test_37_a_5_seat_other_than_the_button_with_an_extra_card_before_sa_is_a_misdeal() -> None:
    assert_misdeal(run(SIX, [*START, wrong(4, THREE_CARDS)]))
    assert_misdeal(run(SIX, [*START, wrong(1)]))


def test_38_the_line_between_misdeal_and_dead_hand() -> None:
    """Two folds are not substantial action: still a misdeal. A third action is: dead hand."""
    two_folds = [*START, act(3, "fold"), act(4, "fold")]
    assert_misdeal(run(SIX, [*two_folds, wrong(5, THREE_CARDS)]))
    events = run(SIX, [*two_folds, act(5, "fold"), wrong(1, THREE_CARDS)])
    assert of_type(events, "substantial_action")
    assert_dead(events, 1, "40")


def test_40_seat_to_act_short_after_sa_is_dead_and_the_next_seat_is_prompted() -> None:
    events = run(SIX, [*SA, short(5, ONE)])
    assert_dead(events, 5, "40")
    note = last(events, "irregularity")
    assert (note["kind"], note["seat"]) == ("wrong_card_count", 5)
    assert "40" in note["rules"] and "muck" in note["text"]
    prompt_for(events, 6)


def test_40_dead_hand_of_a_seat_not_to_act_keeps_its_chips_in_the_pot() -> None:
    """The small blind found with three cards while seat 5 is to act: its hand is dead, its
    100 stays in the pot, seat 5 is still the one to act and the action skips seat 1."""
    commands = [*SA, wrong(1, THREE_CARDS)]
    events = run(SIX, commands)
    fold = assert_dead(events, 1, "40")
    assert fold["total"] == 100
    prompt_for(events, 5)
    events = run(SIX, [*commands, act(5, "call"), act(6, "call"), act(2, "check")])
    assert last(events, "round_end")["pots"] == [100 + 4 * 200]
    assert all(e["seat"] != 1 for e in of_type(events, "prompt")[1:])


def test_40_dead_hand_on_the_flop_and_between_streets() -> None:
    """After the flop a dead hand is folded where it sits; between streets the dealer deals
    the next street as usual, one burn and the cards from the stub."""
    flop = [*START, act(3, "call"), act(4, "call"), act(5, "call"), act(6, "call")]
    flop += [act(1, "call"), act(2, "check"), deal("flop")]
    events = run(SIX, [*flop, wrong(1, THREE_CARDS)])
    assert_dead(events, 1, "40")
    prompt_for(events, 2)
    between = [*flop, *(act(s, "check") for s in (1, 2, 3, 4, 5, 6)), wrong(4, ONE)]
    events = run(SIX, between)
    assert_dead(events, 4, "40")
    events = run(SIX, [*between, deal("turn")])
    assert last(events, "dealt")["street"] == "turn"
    prompt_for(events, 1)


# --- hold'em and Omaha card counts ---------------------------------------------------------------


def test_39_three_cards_on_the_button_is_short_in_omaha_and_extra_in_holdem() -> None:
    assert_card_given(run(SIX_PLO, [*START, wrong(6, THREE_CARDS)]), 6)
    assert_card_given(run(SIX_PLO, [*SA, short(6, THREE_CARDS)]), 6)
    assert_misdeal(run(SIX, [*START, wrong(6, THREE_CARDS)]))


def test_37_a_5_and_40_omaha_seat_with_five_cards() -> None:
    """Five cards in Omaha are extra, on the button too; three on a button that acted with
    them are short (39)."""
    assert_misdeal(run(SIX_PLO, [*START, wrong(4, FIVE_CARDS)]))
    assert_misdeal(run(SIX_PLO, [*START, wrong(6, FIVE_CARDS)]))
    assert_dead(run(SIX_PLO, [*SA, wrong(5, FIVE_CARDS)]), 5, "40")
    assert_dead(run(SIX_PLO, [*SA, act(5, "call"), wrong(6, FIVE_CARDS)]), 6, "40")
    acted = [*SA, act(5, "call"), act(6, "call"), short(6, THREE_CARDS)]
    assert_dead(run(SIX_PLO, acted), 6, "39")


def _refused(config: dict[str, Any], report: Cmd) -> Event:
    events = play(config, [*START, report])
    error = last(events, "error")
    assert not of_type(events, "misdeal") and not of_type(events, "irregularity")
    return error


def test_37_a_5_the_right_number_of_cards_is_no_irregularity() -> None:
    """Two cards in hold'em, four in Omaha: nothing to rule on. Three cards in hold'em are not
    'short'. The button's wrong count needs its cards: short and extra are ruled differently."""
    assert "2 cards" in _refused(SIX, wrong(4, ["As", "Kd"]))["message"]
    assert "4 cards" in _refused(SIX_PLO, wrong(4, ["As", "Kd", "Qh", "Jc"]))["message"]
    assert _refused(SIX, short(6, THREE_CARDS))["rule"] == "39"
    assert _refused(SIX, wrong(6))["rule"] == "39"


# --- 34: a dead button has no button player ------------------------------------------------------


def test_39_dead_button_no_seat_is_the_button() -> None:
    """With the button dead on the empty seat 6, seat 5 is dealt last but is not the button:
    short a card it is a misdeal before substantial action and a dead hand after it."""
    assert "34" in last(run(DEAD_BUTTON, START), "hand_start")["rules"]
    assert_misdeal(run(DEAD_BUTTON, [*START, short(5, ONE)]))
    events = run(DEAD_BUTTON, [*SA, short(5, ONE)])
    assert_dead(events, 5, "40")
    prompt_for(events, 1)


# --- the deal's entry: whole hands; a wrong count is reported, not entered -------------------


def _start_with(config: dict[str, Any], hands: dict[str, list[str]]) -> Event:
    """A start_hand entering ``hands``: its refusal, and nothing started."""
    events = play(config, [{"type": "start_hand", "cards": hands}])
    assert not of_type(events, "hand_start")
    return last(events, "error")


SIX_PLO8 = {**SIX, "game": "PLO8"}


def test_the_deal_enters_whole_hands_and_a_wrong_count_is_reported_as_an_irregularity() -> None:
    """A hand entered at the deal has the game's cards: two in hold'em, four in Omaha (unknown
    ones as ``??``). One entered short or long is refused, naming the count and the report
    that rules on it (37-A-5, 39, 40); before this check a PLO8 hand of two cards was dealt,
    and its showdown could never read it. Both sides of the line: the whole hand is dealt."""
    for config, hand, want in [
        (SIX, ONE, 2),
        (SIX, THREE_CARDS, 2),
        (SIX_PLO, ["As", "Kd"], 4),
        (SIX_PLO8, FIVE_CARDS, 4),
    ]:
        error = _start_with(config, {"3": hand})
        assert error["code"] == "hand_size", error
        assert f"deals {want} cards, not {len(hand)}" in error["message"]
        assert "irregularity" in error["message"] and "37-A-5" in error["message"]
    for config, hand in [
        (SIX, ["As", "Kd"]),
        (SIX, ["As", "??"]),
        (SIX_PLO8, ["As", "Kd", "Qh", "Jc"]),
    ]:
        events = run(config, [{"type": "start_hand", "cards": {"3": hand}}])
        assert last(events, "hand_start")["cards"] == {3: hand}


def test_a_mixed_table_checks_the_hands_against_the_game_the_hand_deals() -> None:
    """A rotation going from hold'em to PLO8 (an orbit of one hand each): the PLO8 hand's
    entry is checked as PLO8 (four cards), not as the hold'em of the hand before."""
    config = {
        **SIX,
        "game": "LHE",
        "orbit": 1,
        "rotation": [{"game": "LHE", "blinds": [100, 200]}, {"game": "PLO8", "blinds": [100, 200]}],
    }
    folds = [act(n, "fold") for n in (3, 4, 5, 6, 1)]
    two = {"3": ["As", "Kd"]}
    events = play(config, [*START, *folds, {"type": "start_hand", "cards": two}])
    error = last(events, "error")
    assert error["code"] == "hand_size" and "PLO8 deals 4 cards, not 2" in error["message"]
    four = {"3": ["As", "Kd", "Qh", "Jc"]}
    events = run(config, [*START, *folds, {"type": "start_hand", "cards": four}])
    assert last(events, "hand_start")["game"] == "PLO8"
