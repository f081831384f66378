"""The bot dealer (``clients/bots.py``) the demo, the service tests and the load benchmark share:
against the pure engine, every style plays only legal commands and never stalls, whatever
the floor is called for; its choices follow its seed and the events alone; and it picks up a
table from a snapshot.
"""

from __future__ import annotations

import random

import pytest

from clients.bots import DealerBot, Mirror, Style
from clients.demo import LIVELY, table_config
from protocol import (
    Act,
    AddPlayer,
    Deal,
    ErrorEvent,
    FloorCall,
    Ruling,
    Show,
    StartHand,
    TableConfig,
)
from protocol.commands import Command
from server.engine import TableState, apply, new_table
from server.views import staff_view

DEEP = TableConfig(
    game="NLHE", blinds=(50, 100), seats={n: 1_000_000 for n in range(1, 10)}, button=1
)
BENCH = Style(bet=0.04, fold=0.11, raise_=0.04)


def play(state: TableState, bot: DealerBot, commands: int) -> tuple[TableState, list[Command]]:
    """Apply the bot's commands; the floor answers a blocking call with its first option (its
    rulings are among the commands returned)."""
    sent: list[Command] = []
    for _ in range(commands):
        command = bot.pending
        assert command is not None, f"the bot stalled after {sent[-3:]}"
        state, events = apply(state, command)
        assert not isinstance(events[0], ErrorEvent), (command, events[0])
        sent.append(command)
        while events:
            for event in events:
                bot.see(event)
            calls = [e for e in events if isinstance(e, FloorCall) and e.blocking]
            events = []
            if calls:
                ruling = Ruling(call=calls[0].call, option=calls[0].options[0])
                state, events = apply(state, ruling)
                sent.append(ruling)
    return state, sent


@pytest.mark.parametrize("style", [Style(), BENCH], ids=["tests", "benchmark"])
def test_the_plain_styles_play_legal_poker_that_never_needs_the_floor(style: Style) -> None:
    mirror = Mirror(DEEP, 3, style)
    for _ in range(2000):
        mirror.step()  # raises on an illegal move or a floor call
    assert mirror.bot.hands > 30


def test_the_demo_style_seats_players_gets_rulings_and_plays_on() -> None:
    sent: list[Command] = []
    for seed in range(12):
        config = table_config(random.Random(seed))
        sent += play(new_table(config), DealerBot(config, seed, LIVELY), 1500)[1]
    kinds = {type(c) for c in sent}
    assert {StartHand, Act, Deal, Show, AddPlayer, Ruling} <= kinds
    assert any(isinstance(c, Act) and c.chips for c in sent), "no chips pushed silently"


def test_two_bots_with_one_seed_fed_one_table_decide_alike() -> None:
    """What the service tests rely on when a second station picks up a bot's table."""
    state, first = new_table(DEEP), DealerBot(DEEP, 9)
    second = DealerBot(DEEP, 9)
    for _ in range(500):
        assert first.pending == second.pending
        assert first.pending is not None
        state, events = apply(state, first.pending)
        for event in events:
            first.see(event)
            second.see(event)


@pytest.mark.parametrize("at", [1, 7, 40, 333])
def test_a_bot_picks_up_a_table_from_its_staff_view(at: int) -> None:
    state, _ = play(new_table(DEEP), DealerBot(DEEP, 5), at)
    late = DealerBot(DEEP, 6)
    late.resume(staff_view(state))
    play(state, late, 300)
