"""The PHH writer (``server.phh_export``): hands the engine played, written as PHH, read back by
PokerKit's PHH reader (the format's reference implementation), must finish with the stacks the
engine's ``hand_end`` says; a hand PHH has no words for is refused, naming why.

The hands are the bot dealer's (``clients.bots``) at short stacks, so they have all-ins and
side pots, showdowns with mucks, busts and heads-up play, plus a few written by hand.
"""

from __future__ import annotations

import warnings

import msgspec
import pytest
from pokerkit import HandHistory

from clients.bots import DealerBot
from protocol import (
    Act,
    Correction,
    Deal,
    ErrorEvent,
    Event,
    HandEnd,
    Misdeal,
    Show,
    StartHand,
    TableConfig,
)
from protocol.commands import Command
from server.engine import TableState, apply, new_table
from server.hand_record import recorded_commands
from server.phh import parse_phh, to_scenario
from server.phh_export import Inexpressible, to_phh
from server.replay import run_scenario

SHORT = TableConfig(
    game="NLHE",
    blinds=(50, 100),
    seats={1: 2_000, 2: 3_000, 3: 1_500, 4: 4_000, 5: 2_500, 6: 900},
    button=1,
    names={1: 'Ana "the Rock" Diaz', 2: "Bo", 3: "Cy"},
)


def pokerkit_stacks(text: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = HandHistory.loads(text)
    return [int(stack) for stack in state.stacks]


Hand = tuple[TableState, list[Event]]


def hands_played(config: TableConfig, seed: int, count: int) -> list[Hand]:
    """Up to ``count`` hands the bot dealer plays: the table before each, and its events."""
    bot = DealerBot(config, seed)
    state = new_table(config)
    hands: list[Hand] = []
    base, events = state, []
    for _ in range(count * 60):
        command = bot.pending
        if command is None or len(hands) == count:
            break
        if isinstance(command, StartHand):
            base, events = state, []
        state, produced = apply(state, command)
        if isinstance(produced[0], ErrorEvent) and produced[0].code == "short_table":
            break  # everyone but one busted
        assert not isinstance(produced[0], ErrorEvent), (command, produced[0])
        events.extend(produced)
        for event in produced:
            bot.see(event)
        if any(isinstance(e, HandEnd) for e in produced):
            hands.append((base, events))
    return hands


def finishing(events: list[Event], text: str) -> list[int]:
    end = next(e for e in events if isinstance(e, HandEnd))
    seats = parse_phh(text)["seats"]
    return [end.stacks.get(seat, 0) for seat in seats]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bot_hands_written_as_phh_finish_in_pokerkit_with_the_engines_stacks(seed: int) -> None:
    hands = hands_played(SHORT, seed, 40)
    assert len(hands) >= 10
    shown = all_in = 0
    for base, events in hands:
        text = to_phh(base, events, "main", "7")
        assert pokerkit_stacks(text) == finishing(events, text), text
        shown += " sm " in text
        all_in += any(getattr(e, "all_in", False) for e in events)
    assert shown and all_in, "the hands include showdowns and all-ins"


def test_the_history_names_the_players_seats_blinds_and_cards() -> None:
    base, events = hands_played(SHORT, 1, 1)[0]
    hand = parse_phh(to_phh(base, events, "main", "7"))
    assert hand["variant"] == "NT"
    # Button on 1: PHH starts from the small blind, seat 2, and ends with the button.
    assert hand["seats"] == [2, 3, 4, 5, 6, 1]
    assert hand["blinds_or_straddles"] == [50, 100, 0, 0, 0, 0]
    assert hand["starting_stacks"] == [3_000, 1_500, 4_000, 2_500, 900, 2_000]
    assert hand["players"][-1] == 'Ana "the Rock" Diaz'
    assert hand["event"] == "main" and hand["table"] == "7" and hand["hand"] == 1
    assert all(a.startswith("d dh p") and "??" not in a for a in hand["actions"][:6])


def test_heads_up_the_big_blind_is_first_as_pokerkit_reads_it() -> None:
    config = TableConfig(game="NLHE", blinds=(50, 100), seats={3: 1_000, 8: 1_000}, button=3)
    commands: list[Command] = [
        StartHand(cards={3: ["As", "Ad"], 8: ["Kc", "Kd"]}),
        Act(seat=3, declare="raise", amount=300),
        Act(seat=8, declare="call"),
        Deal(street="flop", cards=["2c", "7d", "9h"]),
        Act(seat=8, declare="check"),
        Act(seat=3, declare="check"),
        Deal(street="turn", cards=["Js"]),
        Act(seat=8, declare="check"),
        Act(seat=3, declare="check"),
        Deal(street="river", cards=["3s"]),
        Act(seat=8, declare="check"),
        Act(seat=3, declare="check"),
        Show(seat=8, cards=["Kc", "Kd"]),
        Show(seat=3, cards=["As", "Ad"]),
    ]
    base, events = played(config, commands)
    text = to_phh(base, events)
    assert parse_phh(text)["seats"] == [8, 3]
    assert pokerkit_stacks(text) == finishing(events, text) == [700, 1_300]


def played(config: TableConfig, commands: list[Command]) -> tuple[TableState, list[Event]]:
    base = state = new_table(config)
    events: list[Event] = []
    for command in commands:
        state, produced = apply(state, command)
        assert not isinstance(produced[0], ErrorEvent), (command, produced[0])
        events.extend(produced)
    return base, events


OPEN = [StartHand(cards={1: ["As", "Ad"], 2: ["Kc", "Kd"], 3: ["2h", "7c"]})]
FOLDS = [Act(seat=3, declare="fold"), Act(seat=1, declare="fold")]
"""Button 3: the small blind 1 and the button fold to the big blind, 2."""


@pytest.mark.parametrize(
    ("commands", "why"),
    [
        (
            [*OPEN, Misdeal(reason="card exposed"), *FOLDS],
            "misdeal",
        ),
        (
            [
                *OPEN,
                Act(seat=3, declare="call"),
                Correction(reason="misheard"),
                *FOLDS,
            ],
            "correction",
        ),
    ],
    ids=["misdeal", "correction"],
)
def test_a_ruling_phh_has_no_words_for_is_refused_naming_it(
    commands: list[Command], why: str
) -> None:
    config = TableConfig(game="NLHE", blinds=(50, 100), seats={1: 900, 2: 900, 3: 900}, button=3)
    base, events = played(config, commands)
    assert any(isinstance(e, HandEnd) for e in events)
    with pytest.raises(Inexpressible, match=why):
        to_phh(base, events)


def test_a_game_phh_has_no_variant_for_is_refused_naming_it() -> None:
    config = TableConfig(game="PLHE", blinds=(50, 100), seats={1: 900, 2: 900}, button=1)
    base, events = played(config, [StartHand(), Act(seat=1, declare="fold")])
    with pytest.raises(Inexpressible, match="no variant for pot-limit hold'em"):
        to_phh(base, events)


def pokerkit_departs(events: list[Event]) -> bool:
    """PokerKit awards the hand otherwise (the differential tests' departures): a pot split
    unevenly (odd chips, 21-A) or side pots read apart (23)."""
    end = next(e for e in events if isinstance(e, HandEnd))
    return any(len(set(pot.shares.values())) > 1 or "23" in pot.rules for pot in end.pots)


@pytest.mark.parametrize(("game", "variant"), [("LHE", "FT"), ("PLO", "PO"), ("LO8", "FO/8")])
def test_the_other_flop_games_are_written_and_read_back_with_the_engines_stacks(
    game: str, variant: str
) -> None:
    """Limit hold'em, pot-limit Omaha and limit Omaha hi-lo: PokerKit finishes each hand with
    the engine's stacks (but where PokerKit departs from the TDA's award), ``server.phh``
    replays it to the same ``hand_end`` (chips of 1, the reader's: PHH names no chips)."""
    config = msgspec.structs.replace(SHORT, game=game, chips=(1,))
    compared = 0
    for seed in (1, 2):
        for base, events in hands_played(config, seed, 25):
            text = to_phh(base, events, "main", "7")
            assert parse_phh(text)["variant"] == variant
            if not pokerkit_departs(events):
                compared += 1
                assert pokerkit_stacks(text) == finishing(events, text), text
            replayed = run_scenario(to_scenario(parse_phh(text)))
            end = next(e for e in replayed if isinstance(e, HandEnd))
            assert list(end.stacks.values()) == finishing(events, text)
    assert compared >= 20


def test_a_limit_street_past_phhs_cap_is_refused() -> None:
    """Heads-up at the event's end the cap is lifted (50); PHH's fixed limit stops at four."""
    config = TableConfig(
        game="LHE", blinds=(50, 100), seats={1: 5_000, 2: 5_000}, button=1, heads_up_event=True
    )
    raises = [Act(seat=seat, declare="raise") for seat in (1, 2, 1, 2, 1)]
    base, events = played(config, [StartHand(), *raises, Act(seat=2, declare="fold")])
    with pytest.raises(Inexpressible, match="more than 4 bets and raises on a street"):
        to_phh(base, events)


@pytest.mark.parametrize("seed", [4, 5])
def test_the_recorded_commands_replayed_from_the_table_before_the_hand_end_the_same(
    seed: int,
) -> None:
    for base, events in hands_played(SHORT, seed, 25):
        state = base
        replayed: list[Event] = []
        for command in recorded_commands(base, events):
            state, produced = apply(state, command)
            replayed.extend(produced)
        assert replayed == events
