"""RP-25: the stub of a draw game running short, through the replay format.

The stub is 52 cards less the hands dealt (five a hand, badugi four), one burn before each
draw's first card and the cards drawn. When a seat's draw needs more than it holds the dealer
uses its last card (A); mixes the stub and the burns, burning one unless every card is needed
(B); or shuffles the stub, the burns and the muck (folded hands, discards taken) and burns one
(C). Six-handed hands drawing many cards over three draws run it short: each ``drawn`` event's
``stub`` and ``burns`` are checked against the arithmetic done here by hand, on both sides of
each line. A card of the muck is in play until C shuffles it back into the stub (37-E).

The table: six seats, button on seat 1, blinds 25-50: seats 2, 3, 4, 5, 6, 1 draw in that order.
"""

from __future__ import annotations

import pytest

from tests.support import last, of_type, play
from tests.test_rule_rp_25_draw import (
    DECK,
    checks,
    draw,
    draw_prompts,
    drawn,
    error,
    start,
    swap,
    table,
)
from tests.test_seed_common import Cmd, Event, act, run

# --- the lines RP-25 draws -------------------------------------------------------------------


SIX = {n: 10_000 for n in range(1, 7)}
ORDER = (2, 3, 4, 5, 6, 1)
"""Six-handed, the button on seat 1: the draw order and the betting order after a draw."""


def six_limped(game: str = "27TD", folds: tuple[int, ...] = ()) -> list[Cmd]:
    """Six dealt; seats 4, 5, 6, 1 and 2 call the big blind (or fold), seat 3 checks."""
    return [
        start(),
        *(act(n, "fold" if n in folds else "call") for n in (4, 5, 6, 1, 2)),
        act(3, "check"),
    ]


def draws(counts: list[int], seats: tuple[int, ...] = ORDER) -> list[Cmd]:
    return [draw(n, c) for n, c in zip(seats, counts, strict=True)]


def stub_after(events: list[Event]) -> list[tuple[int, str, int, int]]:
    """Each draw as (count, procedure, stub, burns)."""
    return [
        (e["count"], e["rules"][0] if e["rules"] else "", e["stub"], e["burns"])
        for e in drawn(events)
    ]


def test_rp_25_the_stub_is_the_deck_less_the_hands_a_burn_and_the_cards_drawn() -> None:
    """Six hands of five: 52 - 30 = 22 in the stub; a card burnt before the first card drawn."""
    events = run(table(stacks=SIX), [*six_limped(), *draws([0, 1, 2, 0, 3, 4])])
    assert last(events, "hand_start")["dealt"] == list(range(1, 7))
    assert of_type(events, "draw_prompt")[0]["stub"] == 22
    assert stub_after(events) == [
        (0, "", 22, 0),  # pat: nothing burnt yet
        (1, "", 22 - 1 - 1, 1),  # the burn and one card: 20
        (2, "", 22 - 1 - 3, 1),
        (0, "", 18, 1),
        (3, "", 22 - 1 - 6, 1),
        (4, "", 22 - 1 - 10, 1),  # 11 left
    ]
    assert "11 cards in the stub" in last(events, "dealt")["text"]
    assert [p["stub"] for p in of_type(events, "draw_prompt")] == [22, 22, 20, 18, 18, 15]


@pytest.mark.parametrize(
    ("count", "procedure", "stub", "burns", "says"),
    [
        # the first four draw 5 each: 22 - 1 burnt - 20 = 1 card left, 1 burnt
        (0, "", 1, 1, "stands pat (first draw)"),
        # A: one card wanted, the stub's last card is it
        (1, "RP-25-A", 0, 1, "the stub's last card is used (RP-25-A)"),
        # B: two wanted; the stub (1) and the burn (1) are exactly two: no burn
        (2, "RP-25-B", 0, 0, "every card needed: no burn (RP-25-B)"),
        # C: three wanted; stub and burn make 2; with the muck (the four discards, 20 cards):
        # 22 cards shuffled, one burnt, three dealt: 18 left
        (3, "RP-25-C", 22 - 1 - 3, 1, "shuffled into a new stub, one burnt (RP-25-C)"),
        (5, "RP-25-C", 22 - 1 - 5, 1, "shuffled into a new stub, one burnt (RP-25-C)"),
    ],
)
def test_rp_25_a_b_c_by_how_far_the_stub_falls_short(
    count: int, procedure: str, stub: int, burns: int, says: str
) -> None:
    events = run(table(stacks=SIX), [*six_limped(), *draws([5, 5, 5, 5, count, 0])])
    assert stub_after(events)[:4] == [(5, "", 16, 1), (5, "", 11, 1), (5, "", 6, 1), (5, "", 1, 1)]
    fifth = drawn(events)[4]
    assert stub_after(events)[4] == (count, procedure, stub, burns)
    assert fifth["text"].endswith(says)
    assert of_type(events, "draw_prompt")[5]["stub"] == stub
    cards = "card" if stub == 1 else "cards"
    assert f"{stub} {cards} in the stub" in last(events, "dealt")["text"]


def test_rp_25_b_with_more_than_enough_the_top_card_of_the_new_stub_is_burnt() -> None:
    """First draw 16 cards: 22 - 1 - 16 = 5 left. Second draw, seat 2 draws 4: a burn and four
    cards are exactly the 5 left (A). Seat 3 draws 1: the stub is empty, the two burns make a
    new stub of 2, more than the one card needed: one is burnt, one dealt, none left (B).
    Seat 4 then draws 3 from an empty stub with one burn: a second shortfall in the same draw,
    C: the muck is the 16 + 4 + 1 discards, the burn 1, the stub 0: 22 cards, one burnt, three
    dealt, 18 left. The rest draw from it."""
    commands = [*six_limped(), *draws([5, 5, 3, 2, 1, 0]), *checks(*ORDER)]
    events = run(table(stacks=SIX), [*commands, *draws([4, 1, 3, 2, 1, 0])])
    assert stub_after(events) == [
        (5, "", 16, 1),
        (5, "", 11, 1),
        (3, "", 8, 1),
        (2, "", 6, 1),
        (1, "", 5, 1),
        (0, "", 5, 1),
        (4, "RP-25-A", 0, 2),  # 5 - 1 burnt - 4
        (1, "RP-25-B", 2 - 1 - 1, 1),  # stub 0 + burns 2, one burnt, one dealt
        (3, "RP-25-C", 22 - 1 - 3, 1),
        (2, "", 16, 1),
        (1, "", 15, 1),
        (0, "", 15, 1),
    ]
    second_b = drawn(events)[7]
    assert second_b["text"].endswith("mixed into a new stub, one burnt (RP-25-B)")
    assert "15 cards in the stub" in last(events, "dealt")["text"]


def test_rp_25_b_then_c_in_the_same_draw_after_a_reshuffle_with_no_burn() -> None:
    """First draw: 5, 5, 5, 5 leave 1 card and 1 burn; seat 6 draws 2: B with no burn leaves
    nothing at all (stub 0, burns 0). Seat 1 draws 4: C, the muck is every discard (22): one
    burnt, four dealt, 17 left. The second draw burns one more before its first card."""
    commands = [*six_limped(), *draws([5, 5, 5, 5, 2, 4])]
    events = run(table(stacks=SIX), [*commands, *checks(*ORDER), *draws([1, 0, 0, 0, 0, 2])])
    assert stub_after(events)[4:] == [
        (2, "RP-25-B", 0, 0),
        (4, "RP-25-C", 22 - 1 - 4, 1),
        (1, "", 17 - 1 - 1, 2),  # the second draw's burn
        (0, "", 15, 2),
        (0, "", 15, 2),
        (0, "", 15, 2),
        (0, "", 15, 2),
        (2, "", 13, 2),
    ]


def test_rp_25_c_the_muck_holds_the_folded_hands() -> None:
    """Seat 1 folds before the draw: its five cards were dealt (22 in the stub) and lie in the
    muck. First draw, 5, 5, 5, 5 and 1: the last card is used (A). Second draw, seat 2 draws 5
    from an empty stub and one burn: C, the stub, the burn and the muck (the folded hand and
    the 21 discards): 52 - 25 in the live hands = 27 cards, one burnt, five dealt: 21 left."""
    commands = [*six_limped(folds=(1,)), *draws([5, 5, 5, 5, 1], ORDER[:5])]
    events = run(table(stacks=SIX), [*commands, *checks(*ORDER[:5]), draw(2, 5), draw(3, 1)])
    assert draw_prompts(events) == [2, 3, 4, 5, 6, 2, 3, 4]
    assert of_type(events, "draw_prompt")[0]["stub"] == 22
    assert stub_after(events)[4:] == [
        (1, "RP-25-A", 0, 1),
        (5, "RP-25-C", 52 - 25 - 1 - 5, 1),
        (1, "", 20, 1),
    ]


def test_rp_25_a_with_the_burn_the_last_card_is_the_last_card_drawn() -> None:
    """The stub holds exactly a burn and the cards wanted at a draw's first card: A."""
    commands = [*six_limped(), *draws([5, 5, 5, 2, 0, 0]), *checks(*ORDER)]
    events = run(table(stacks=SIX), [*commands, *draws([3, 0, 0, 0, 0, 0])])
    assert stub_after(events)[6] == (3, "RP-25-A", 0, 2)  # 22 - 1 - 17 = 4: a burn and three
    events = run(table(stacks=SIX), [*commands, *draws([2, 0, 0, 0, 0, 0])])
    assert stub_after(events)[6] == (2, "", 1, 2)  # one to spare: no procedure


def test_rp_25_the_stub_through_three_draws_by_hand_arithmetic() -> None:
    """Every drawn event's stub and burns against 52 - 6 x 5 - burns - cards drawn: a burn for
    each draw in which a card has been drawn (none for a pat hand drawing first)."""
    rounds = [[0, 3, 2, 3, 1, 2], [1, 1, 0, 2, 0, 1], [1, 0, 0, 1, 0, 0]]  # 11 + 5 + 2
    commands = six_limped()
    for counts in rounds:
        commands += [*draws(counts), *checks(*ORDER)]
    events = run(table(stacks=SIX), commands[:-6])
    taken, burnt = 0, set()
    for e in drawn(events):
        taken += e["count"]
        if e["count"]:
            burnt.add(e["street"])
        assert e["rules"] == []
        assert (e["stub"], e["burns"]) == (52 - 6 * 5 - len(burnt) - taken, len(burnt)), e
    assert (taken, len(burnt)) == (18, 3) and drawn(events)[-1]["stub"] == 1
    assert last(events, "prompt")["seat"] == 2  # the betting after the third draw


def test_rp_25_badugi_deals_four_a_hand_and_counts_its_stub_the_same_way() -> None:
    """Six badugi hands: 52 - 24 = 28. First draw, 4 each: 28 - 1 - 24 = 3. Second draw:
    seat 2 draws 2, a burn and two: A. Seat 3 draws 2: the burns (2) are exactly enough: B,
    no burn. Seat 4 draws 4: C, 52 - 24 = 28 shuffled, one burnt, four dealt: 23."""
    config = table("BADUGI", SIX)
    commands = [*six_limped("BADUGI"), *draws([4, 4, 4, 4, 4, 4]), *checks(*ORDER)]
    events = run(config, [*commands, *draws([2, 2, 4, 0, 0, 0])])
    assert of_type(events, "draw_prompt")[0]["stub"] == 28
    assert stub_after(events)[5:] == [
        (4, "", 3, 1),
        (2, "RP-25-A", 0, 2),
        (2, "RP-25-B", 0, 0),
        (4, "RP-25-C", 28 - 1 - 4, 1),
        (0, "", 23, 1),
        (0, "", 23, 1),
        (0, "", 23, 1),
    ]


def test_rp_25_single_draw_six_handed_runs_short_on_its_one_draw() -> None:
    """27SD: one draw from 22 cards: a burn and 21 more. The fifth seat's one card is the
    last (A); six seats drawing five each (30) run it short on the fifth seat (C)."""
    config = table("27SD", SIX)
    events = run(config, [*six_limped("27SD"), *draws([5, 5, 5, 5, 1, 0])])
    assert stub_after(events)[4] == (1, "RP-25-A", 0, 1)
    events = run(config, [*six_limped("27SD"), *draws([5, 5, 5, 5, 5, 5])])
    assert [e[1] for e in stub_after(events)] == ["", "", "", "", "RP-25-C", ""]
    assert stub_after(events)[4:] == [(5, "RP-25-C", 16, 1), (5, "", 11, 1)]


# --- RP-25-C: the muck comes back into play ------------------------------------------------


HANDS_SIX = {n: " ".join(DECK[5 * (n - 1) : 5 * n]) for n in range(1, 7)}
"""Seat 1 2c 2d 2h 2s 3c, seat 2 3d 3h 3s 4c 4d, ... seat 6 8d 8h 8s 9c 9d."""


def _folded_then_short() -> list[Cmd]:
    """Seat 1 folds its entered hand before the draw; the five others draw 5, 5, 5, 5 and 1
    (none entered): the stub is empty, one card burnt (see the folded-hand test above)."""
    commands = [start(HANDS_SIX), *(act(n, "call") for n in (4, 5, 6)), act(1, "fold")]
    commands += [act(2, "call"), act(3, "check"), *draws([5, 5, 5, 5, 1], ORDER[:5])]
    return [*commands, *checks(*ORDER[:5])]


def test_37_e_before_a_reshuffle_a_folded_hand_s_card_is_not_in_the_stub() -> None:
    refused = error(play(table(stacks=SIX), [*_folded_then_short()[:7], swap(2, "3d", "2c")]))
    assert refused["rule"] == "37-E" and "2c" in refused["message"]


def test_rp_25_c_after_the_muck_is_shuffled_in_a_folded_hand_s_card_may_be_dealt() -> None:
    """Seat 2's second draw of five is served by C: the stub, the burn and the muck (seat 1's
    folded 2c 2d 2h 2s 3c among it) are shuffled. Seat 2 is dealt the 2c: a legal card."""
    events = run(table(stacks=SIX), [*_folded_then_short(), draw(2, 5, cards="2c 7h 8h 9h Kd")])
    assert drawn(events)[-1]["rules"] == ["RP-25-C"]


def _discarded_then_short() -> list[Cmd]:
    """Six hands entered; seat 2 throws its five (entered), seats 3, 4 and 5 draw five each:
    one card left in the stub, one burnt, the discards in the muck."""
    commands = [start(HANDS_SIX), *(act(n, "call") for n in (4, 5, 6, 1, 2)), act(3, "check")]
    return [*commands, swap(2, "3d 3h 3s 4c 4d", "Jd Jh Js Qc Qd"), *draws([5, 5, 5], ORDER[1:4])]


def test_37_e_rp_25_b_mixes_only_the_stub_and_the_burns_a_discard_is_still_in_the_muck() -> None:
    """Seat 6 draws two: the stub (1) and the burn (1) are mixed (B); seat 2's discards are not
    among them, so a 3d dealt is a duplicate (37-E). Two other cards are taken."""
    refused = error(play(table(stacks=SIX), [*_discarded_then_short(), swap(6, "8d 8h", "3d Kc")]))
    assert refused["rule"] == "37-E" and "3d" in refused["message"]
    events = run(table(stacks=SIX), [*_discarded_then_short(), swap(6, "8d 8h", "Kc Kd")])
    assert drawn(events)[-1]["rules"] == ["RP-25-B"]


def test_rp_25_c_a_card_discarded_before_the_reshuffle_may_be_dealt_after_it() -> None:
    commands = _discarded_then_short()
    commands.append(draw(6, 3))  # 1 left, 1 burnt: C, 52 - 30 = 22 shuffled, 18 left
    events = run(table(stacks=SIX), commands)
    assert drawn(events)[-1]["rules"] == ["RP-25-C"]
    events = run(table(stacks=SIX), [*commands, swap(1, "2c 2d", "3d 3h")])
    assert drawn(events)[-1]["cards"] == ["3d", "3h"]


def test_rp_25_ten_hands_of_2_7_are_too_many_nine_are_dealt() -> None:
    """Ten hands of five leave two cards: the first seat's draw of five with its burn could not
    be served, and the muck of RP-25-C would be empty. Nine leave seven: dealt. Badugi (four
    cards a hand) deals ten."""
    ten = {n: 1_000 for n in range(1, 11)}
    refused = play({"game": "27TD", "blinds": [25, 50], "seats": ten, "button": 1}, [start()])
    assert (last(refused, "error")["code"], last(refused, "error")["rule"]) == (
        "too_many_hands",
        "RP-25",
    )
    nine = {n: 1_000 for n in range(1, 10)}
    dealt = play({"game": "27TD", "blinds": [25, 50], "seats": nine, "button": 1}, [start()])
    assert of_type(dealt, "hand_start")
    badugi = play({"game": "BADUGI", "blinds": [25, 50], "seats": ten, "button": 1}, [start()])
    assert of_type(badugi, "hand_start")
