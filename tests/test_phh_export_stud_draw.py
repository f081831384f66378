"""The PHH writer for stud (7S, 7S8, RAZZ: ``F7S``, ``F7S/8``, ``FR``) and the draw games (27TD,
27SD, BADUGI: ``F2L3D``, ``N2L1D``, ``FB``).

The hands are the differential tests' random hands (``tests/stud_lockstep.py``,
``tests/draw_lockstep.py``: played in lockstep with PokerKit, every card entered, all-ins, side
pots, short stubs). Each is written as PHH and read back two ways: by PokerKit's PHH reader (the
format's reference), which must deal every hand the cards the engine dealt and finish with the
engine's stacks, and by ``server.phh`` into a scenario the engine replays to the same
``hand_end``. PokerKit's known departures from the TDA (``tests/test_differential_*.py``: odd
chips 21-A/21-B, side pots 23, equal boards RP-10-D) leave its stacks out for those hands only.
A hand PHH has no words for must be refused, naming why.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest
from pokerkit import HandHistory, HoleDealing

from protocol import Act, Draw, Drawn, HandEnd, HandStart, Muck, Show, StartHand, TableConfig
from protocol.commands import Command
from protocol.events import Dealt, Event
from server.engine import TableState, new_table
from server.phh import parse_phh, to_scenario
from server.phh_export import Inexpressible, to_phh
from server.replay import run_scenario
from tests import test_differential_draw as draw_sample
from tests import test_differential_stud as stud_sample
from tests.stud_lockstep import Hand
from tests.test_phh_export import played

HANDS = 40
"""Random hands of each game (about 10 s for the module)."""
STUD = ("7S", "7S8", "RAZZ")
DRAW = ("27TD", "27SD", "BADUGI")
POKERKIT_DEPARTS = frozenset({"21-A", "21-B", "23", "RP-10-D"})
"""Where PokerKit's award (odd chips, pots apart) or order (equal boards) is not the TDA's."""
COMMUNITY = "seventh street dealt as one community card (RP-10-H)"


def random_hand(game: str, seed: int) -> tuple[TableState, Hand]:
    """The differential test's hand ``seed`` of ``game`` and the table before it."""
    sample: Any = stud_sample if game in STUD else draw_sample
    table = sample.random_table(random.Random(f"{game}:{seed}"), game)[0]
    hand: Hand = sample.play(game, seed)
    return new_table(table.config()), hand


def pokerkit_read(text: str) -> tuple[list[int], list[list[str]]]:
    """PokerKit's finishing stacks and the cards it dealt each player, in PHH's order."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # past the stub PokerKit warns of cards not its own
        *_, state = HandHistory.loads(text)
    dealt: list[list[str]] = [[] for _ in state.stacks]
    for op in state.operations:
        if isinstance(op, HoleDealing):
            dealt[op.player_index] += [f"{c.rank.value}{c.suit.value}" for c in op.cards]
    return [int(stack) for stack in state.stacks], dealt


def engine_dealt(events: list[Event]) -> dict[int, list[str]]:
    """The cards the engine dealt each seat, in the order dealt (stud: down, down, up, the
    later streets; the draw games: the hand, then each draw's cards)."""
    dealt: dict[int, list[str]] = {}
    for e in events:
        match e:
            case HandStart():
                for seat in e.dealt:
                    dealt[seat] = [*e.cards.get(seat, []), *e.up.get(seat, [])]
            case Dealt():
                for seat, cards in {**e.up, **e.down}.items():
                    dealt[seat] += cards
            case Drawn():
                dealt[e.seat] += e.cards
    return dealt


def end_of(events: list[Event]) -> HandEnd:
    return next(e for e in events if isinstance(e, HandEnd))


def replayed_stacks(text: str) -> dict[int, int]:
    """The history read back by ``server.phh`` and replayed: the stacks by the original seats
    (the reader seats ``pN`` in seat N)."""
    seats = parse_phh(text)["seats"]
    events = run_scenario(to_scenario(parse_phh(text)))
    assert not [e for e in events if type(e).__name__ == "ErrorEvent"], events
    return {seats[n - 1]: stack for n, stack in end_of(events).stacks.items()}


@pytest.mark.parametrize("game", STUD + DRAW)
def test_random_hands_are_written_and_read_back_with_the_engines_cards_and_stacks(
    game: str,
) -> None:
    written = compared = 0
    for seed in range(HANDS):
        base, hand = random_hand(game, seed)
        end = end_of(hand.events)
        try:
            text = to_phh(base, hand.events, "main", "4")
        except Inexpressible as refused:
            assert str(refused).startswith(COMMUNITY), (game, seed, refused)
            assert any(isinstance(e, Dealt) and e.cards for e in hand.events)
            continue
        written += 1
        seats = parse_phh(text)["seats"]
        assert replayed_stacks(text) == end.stacks, (game, seed, text)
        stacks, dealt = pokerkit_read(text)
        assert dealt == [engine_dealt(hand.events)[seat] for seat in seats], text
        if not POKERKIT_DEPARTS & set(hand.divergences):
            compared += 1
            assert stacks == [end.stacks[seat] for seat in seats], (game, seed, text)
    assert written >= HANDS * 3 // 4 and compared >= HANDS // 2, (written, compared)


def test_stud_plays_by_seat_number_from_the_bring_in() -> None:
    base, hand = random_hand("7S", 3)
    fields = parse_phh(to_phh(base, hand.events))
    assert fields["variant"] == "F7S"
    assert fields["seats"] == [2, 3, 9]
    assert (fields["bring_in"], fields["small_bet"], fields["big_bet"]) == (20, 40, 80)
    assert fields["actions"][0] == "d dh p1 Kc7s3h"  # two down-cards, then the up-card


def test_a_reshuffled_stub_is_written_with_the_cards_each_hand_was_dealt() -> None:
    """RP-25-B and -C are procedure, not PHH's to say; the cards the hands got are."""
    reshuffled = [
        (game, seed)
        for game in ("27TD", "BADUGI")
        for seed in range(HANDS)
        if {"RP-25-B", "RP-25-C"} & set(random_hand(game, seed)[1].cases)
    ]
    assert reshuffled
    for game, seed in reshuffled:
        base, hand = random_hand(game, seed)
        text = to_phh(base, hand.events)
        assert replayed_stacks(text) == end_of(hand.events).stacks


SINGLE_DRAW = TableConfig(
    game="27SD", blinds=(50, 100), seats={2: 1_000, 5: 1_000, 8: 1_000}, button=8, chips=(1,)
)


def test_draws_the_dealer_counted_only_are_written_as_unknown_cards() -> None:
    """No card entered: every card is ``??``, each draw its count; the hands tabled settle it."""
    commands: list[Command] = [
        StartHand(),
        Act(seat=8, declare="call"),
        Act(seat=2, declare="call"),
        Act(seat=5, declare="check"),
        Draw(seat=2, count=2),
        Draw(seat=5, count=0),
        Draw(seat=8, count=1),
        Act(seat=2, declare="bet", amount=200),
        Act(seat=5, declare="fold"),
        Act(seat=8, declare="call"),
        Show(seat=2, cards=["7c", "5d", "4h", "3s", "2c"]),
        Show(seat=8, cards=["8c", "6d", "4c", "3h", "2d"]),
    ]
    base, events = played(SINGLE_DRAW, commands)
    text = to_phh(base, events)
    actions = parse_phh(text)["actions"]
    assert actions[:3] == ["d dh p1 ??????????", "d dh p2 ??????????", "d dh p3 ??????????"]
    assert actions[6:11] == ["p1 sd ????", "p2 sd", "p3 sd ??", "d dh p1 ????", "d dh p3 ??"]
    assert actions[-2:] == ["p1 sm 7c5d4h3s2c", "p3 sm 8c6d4c3h2d"]
    stacks, _ = pokerkit_read(text)
    assert stacks == [1_400, 900, 700] == [end_of(events).stacks[s] for s in (2, 5, 8)]
    assert replayed_stacks(text) == end_of(events).stacks


def test_the_winner_left_alone_at_the_showdown_is_written_with_its_cards() -> None:
    """Seat 2 mucks and seat 8 wins unseen (18-B): PHH settles a showdown by the hands shown,
    so the last one's cards close the history; ``server.phh`` reads no show from it."""
    config = TableConfig(game="27SD", blinds=(50, 100), seats={2: 1_000, 8: 1_000}, button=8)
    cards = {2: ["Kc", "Qd", "9h", "5s", "2c"], 8: ["7c", "5d", "4h", "3s", "2d"]}
    commands: list[Command] = [
        StartHand(cards=cards),
        Act(seat=8, declare="call"),
        Act(seat=2, declare="check"),
        Draw(seat=2, count=0),
        Draw(seat=8, count=0),
        Act(seat=2, declare="check"),
        Act(seat=8, declare="check"),
        Muck(seat=2),
    ]
    base, events = played(config, commands)
    text = to_phh(base, events)
    assert parse_phh(text)["actions"][-2:] == ["p1 sm", "p2 sm 7c5d4h3s2d"]
    assert pokerkit_read(text)[0] == [900, 1_100]
    assert replayed_stacks(text) == end_of(events).stacks == {2: 900, 8: 1_100}


def test_seventh_street_as_a_community_card_is_refused_naming_rp_10_h() -> None:
    refused = []
    for game in STUD:
        for seed in range(HANDS):
            base, hand = random_hand(game, seed)
            if any(isinstance(e, Dealt) and e.cards for e in hand.events):
                with pytest.raises(Inexpressible, match="RP-10-H") as why:
                    to_phh(base, hand.events)
                refused.append(str(why.value))
    assert refused, "the sample deals a community card"
    assert all("PHH deals every stud card to a hand" in why for why in refused)


def test_a_down_card_exposed_on_the_deal_is_refused_naming_rp_10_a() -> None:
    config = TableConfig(
        game="7S", blinds=(0, 0), ante=10, bring_in=20, min_bet=40, seats={1: 500, 2: 500},
        button=1,
    )  # fmt: skip
    deal = StartHand(
        cards={1: ["Ac", "Kd"], 2: ["Qs", "Jh"]}, up={1: ["2c"], 2: ["9d"]}, exposed=[1]
    )
    base, events = played(
        config, [deal, Act(seat=1, declare="bring_in"), Act(seat=2, declare="fold")]
    )
    with pytest.raises(Inexpressible, match="RP-10-A"):
        to_phh(base, events)
