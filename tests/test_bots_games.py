"""The bot dealer deals stud, razz and the draw games, and a mixed table's rotation, against
the pure engine: only legal commands, never a stall, the short stub's procedures followed as
the engine rules them (RP-10-H on seventh street, RP-25 in the draws), every card dealt
once, and a table picked up from its view mid-hand plays on.
"""

from __future__ import annotations

from collections import Counter

import pytest

from clients.bots import DealerBot, Style
from clients.demo import LIVELY
from protocol import ErrorEvent, FloorCall, Ruling, TableConfig
from protocol.commands import AddPlayer, Command, Deal, Draw, SetLevel, StartHand
from protocol.events import Dealt, Drawn, Event, HandEnd, HandStart, RoundEnd
from server.engine import TableState, apply, new_table
from server.views import staff_view
from tests.game_tables import CALLING, CHIPS, HORSE, TABLES, stud

Played = list[tuple[Command, list[Event]]]


def play(state: TableState, bot: DealerBot, commands: int) -> tuple[TableState, Played]:
    """Apply the bot's commands, the floor answering a blocking call with its first option;
    each command with the events it made."""
    played: Played = []
    for _ in range(commands):
        command: Command | None = bot.pending
        assert command is not None, f"the bot stalled after {played[-3:]}"
        while command is not None:
            state, events = apply(state, command)
            assert not isinstance(events[0], ErrorEvent), (command, events[0])
            played.append((command, events))
            for event in events:
                bot.see(event)
            calls = [e for e in events if isinstance(e, FloorCall) and e.blocking]
            command = Ruling(call=calls[0].call, option=calls[0].options[0]) if calls else None
    return state, played


def events_of(played: Played) -> list[Event]:
    return [event for _, events in played for event in events]


RESHUFFLES = ("RP-10-H", "RP-25-B", "RP-25-C")
"""The procedures that mix burnt or mucked cards back into the stub."""


def no_card_twice(played: Played) -> None:
    """Within a hand no card is dealt twice, until a short stub's procedure mixes the burns or
    the muck back in (RP-10-H, RP-25 B and C)."""
    seen: Counter[str] = Counter()
    reshuffled = False
    for command, events in played:
        if isinstance(command, StartHand):
            seen, reshuffled = Counter(), False
            cards = [*command.cards.values(), *command.up.values()]
        elif isinstance(command, Deal):
            cards = [command.cards, *command.up.values(), *command.down.values()]
        elif isinstance(command, Draw):
            cards = [command.cards]
        else:
            continue
        reshuffled = reshuffled or any(
            rule.startswith(RESHUFFLES)
            for e in events
            if isinstance(e, Dealt | Drawn)
            for rule in e.rules
        )
        seen.update(card for hand in cards for card in hand)
        if not reshuffled:
            assert max(seen.values(), default=0) == 1, (command, seen.most_common(2))


@pytest.mark.parametrize("name", list(TABLES))
@pytest.mark.parametrize("style", [CALLING, LIVELY], ids=["calling", "lively"])
def test_the_bot_deals_every_game_legally_and_never_stalls(name: str, style: Style) -> None:
    config = TABLES[name]
    bot = DealerBot(config, 11, style)
    _, played = play(new_table(config), bot, 2_500)
    assert bot.hands >= 25
    games = {e.game for e in events_of(played) if isinstance(e, HandStart) and e.game}
    if name == "mixed":
        assert games == {g.game for g in HORSE}
    no_card_twice(played)


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("7S", {"RP-10-H"}),
        ("RAZZ", {"RP-10-H"}),
        ("27TD", {"RP-25-A", "RP-25-B", "RP-25-C"}),
        ("BADUGI", {"RP-25-B", "RP-25-C"}),
    ],
)
def test_the_short_stub_is_met_with_the_procedures_the_engine_rules(
    name: str, rules: set[str]
) -> None:
    """Eight-handed stud with few folds reaches seventh street short of cards; six-handed
    triple draw throws enough to run the stub out. The engine accepted every deal (else
    ``play`` fails), so the bot's procedure was the one the stub called for."""
    config = TABLES[name]
    _, played = play(new_table(config), DealerBot(config, 5, CALLING), 4_000)
    said = {r for e in events_of(played) if isinstance(e, Dealt | Drawn) for r in e.rules}
    assert rules <= {r.removesuffix(" A").removesuffix(" B").removesuffix(" C") for r in said}


@pytest.mark.parametrize("name", list(TABLES))
@pytest.mark.parametrize("at", [7, 40, 101, 222, 333, 555])
def test_a_bot_picks_up_a_game_from_its_staff_view_mid_hand(name: str, at: int) -> None:
    config = TABLES[name]
    state, _ = play(new_table(config), DealerBot(config, 5, CALLING), at)
    late = DealerBot(config, 6, CALLING)
    late.resume(staff_view(state))
    state, _ = play(state, late, 600)
    assert late.hands >= 5


def play_until(state: TableState, bot: DealerBot, found: type[Event], said: str) -> TableState:
    """Play until an event of type ``found`` says ``said``; the state just after it."""
    for _ in range(20_000):
        command = bot.pending
        assert command is not None
        state, events = apply(state, command)
        assert not isinstance(events[0], ErrorEvent), (command, events[0])
        for event in events:
            bot.see(event)
        if any(isinstance(e, found) and said in getattr(e, "text", "") for e in events):
            return state
    raise AssertionError(f"no {found.__name__} saying {said} in 20,000 commands")


@pytest.mark.parametrize("procedure", ["A", "B", "C"])
def test_a_bot_picking_up_stud_before_a_short_seventh_street_deals_its_procedure(
    procedure: str,
) -> None:
    """The round before seventh street ends with the stub short (RP-10-H): a bot that picks
    the table up from the view then counts the stub as the engine does (the burns before
    fourth to sixth street included) and deals the procedure it calls for: a card to each
    hand (A) or one community card (B, C)."""
    config = TABLES["7S"]
    said = f"(RP-10-H {procedure})"
    state = play_until(new_table(config), DealerBot(config, 1, CALLING), RoundEnd, said)
    late = DealerBot(config, 100, CALLING)
    late.resume(staff_view(state))
    state, played = play(state, late, 200)
    dealt = [e for e in events_of(played) if isinstance(e, Dealt) and e.street == "seventh"]
    assert dealt and said in dealt[0].text


@pytest.mark.parametrize("game", ["27TD", "BADUGI"])
@pytest.mark.parametrize("seed", range(3))
def test_a_bot_picking_up_a_draw_game_after_the_muck_went_back_deals_no_card_twice(
    game: str, seed: int
) -> None:
    """After a draw mixed the muck back into the stub (RP-25-C) and more cards were thrown, a
    bot picking the table up knows the discards from the staff view's ``muck`` and deals
    none of them again, nor a card in a hand."""
    config = TABLES[game]
    state = play_until(new_table(config), DealerBot(config, seed, CALLING), Drawn, "(RP-25-C)")
    view = staff_view(state)
    assert view.muck  # the discards of the draw that mixed the muck in
    late = DealerBot(config, 100 + seed, CALLING)
    late.resume(view)
    play(state, late, 300)
    assert late.hands >= 3


def test_hand_end_follows_every_hand_the_bot_starts() -> None:
    """Every stud and draw hand the bot starts ends (no hand left waiting on the dealer)."""
    config = TABLES["mixed"]
    _, played = play(new_table(config), DealerBot(config, 3, LIVELY), 1_500)
    starts = sum(1 for e in events_of(played) if isinstance(e, HandStart))
    ends = sum(1 for e in events_of(played) if isinstance(e, HandEnd))
    assert starts - ends in (0, 1)


def test_a_level_naming_the_next_game_is_dealt_from_the_next_hand() -> None:
    """A mixed event by level (the tournament's ``level`` command names the game, 25): announced
    during a hand, the bot deals the hand in play on as it is and the next one in the new game
    — hold'em, then stud, then triple draw, then hold'em again."""
    config = TABLES["mixed"]
    config = TableConfig(game="LHE", blinds=(50, 100), seats=config.seats, button=1, chips=CHIPS)
    state, bot = new_table(config), DealerBot(config, 8, CALLING)
    levels = [
        SetLevel(blinds=(0, 0), ante=25, bring_in=25, min_bet=100, game="7S"),
        SetLevel(blinds=(50, 100), game="27TD"),
        SetLevel(blinds=(50, 100), game="LHE"),
    ]
    dealt = []
    for level in levels:
        state, _ = play(state, bot, 5)  # into a hand
        state, events = apply(state, level)
        for event in events:
            bot.see(event)
        state, played = play(state, bot, 150)
        dealt += [e.game for e in events_of(played) if isinstance(e, HandStart) and e.game]
    assert dealt == ["7S", "27TD", "LHE"]


def test_a_player_seated_between_stud_hands_is_dealt_in_by_a_bot_picked_up_from_a_view() -> None:
    """Stud deals every seat with chips (no button to wait for, RP-10): a player seated between
    hands is dealt the next hand. A bot that picked the table up from its view used the button
    games' rule (a newcomer between the blinds and the button waits) and left the seat out: its
    start_hand was refused (``up_cards_needed``) and the table waited for ever."""
    config = stud("7S", players=6)
    state, _ = play(new_table(config), DealerBot(config, 4, CALLING), 60)
    late = DealerBot(config, 5, CALLING)
    late.resume(staff_view(state))
    hands = late.hands
    while late.hands < hands + 2 or state.phase != "idle":  # a whole hand of its own seen
        state, _ = play(state, late, 1)
    for seat in (7, 8):
        state, events = apply(state, AddPlayer(seat=seat, stack=50_000, name=f"New {seat}"))
        for event in events:
            late.see(event)
    state, played = play(state, late, 200)
    dealt = [e.dealt for e in events_of(played) if isinstance(e, HandStart)]
    assert dealt and dealt[0] == list(range(1, 9))


def test_a_second_level_naming_no_game_keeps_the_game_announced() -> None:
    """A level names stud for the next hand; a second level during the same hand raises the
    stud limits without naming a game: the next hand is still stud (the engine keeps the
    announcement), and the bot deals it so."""
    config = TableConfig(
        game="LHE", blinds=(50, 100), seats=TABLES["mixed"].seats, button=1, chips=CHIPS
    )
    state, bot = new_table(config), DealerBot(config, 8, CALLING)
    state, _ = play(state, bot, 5)
    for level in (
        SetLevel(blinds=(0, 0), ante=25, bring_in=25, min_bet=100, game="7S"),
        SetLevel(blinds=(0, 0), ante=50, bring_in=50, min_bet=200),
    ):
        state, events = apply(state, level)
        assert not isinstance(events[0], ErrorEvent), events
        for event in events:
            bot.see(event)
    state, played = play(state, bot, 150)
    assert [e.game for e in events_of(played) if isinstance(e, HandStart) and e.game] == ["7S"]


@pytest.mark.parametrize("game", ["27TD", "BADUGI"])
def test_a_bot_picking_up_a_draw_after_a_card_was_dealt_in_it_burns_no_second_card(
    game: str,
) -> None:
    """Picked up mid-draw after a seat drew cards (the draw's burn made), the bot burns no
    second card: after its next draw its stub holds what the engine counts (RP-25)."""
    config = TABLES[game]
    state, bot = new_table(config), DealerBot(config, 2, CALLING)
    for _ in range(3_000):
        command = bot.pending
        assert command is not None
        state, events = apply(state, command)
        for event in events:
            bot.see(event)
        drew = [e for e in events if isinstance(e, Drawn) and e.count]
        if drew and state.phase == "draw" and not drew[0].rules:
            break
    late = DealerBot(config, 3, CALLING)
    late.resume(staff_view(state))
    command = late.pending
    assert isinstance(command, Draw)
    state, events = apply(state, command)
    drawn = next(e for e in events if isinstance(e, Drawn))
    assert len(late.cards.stub) == drawn.stub
