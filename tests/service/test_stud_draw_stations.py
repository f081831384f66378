"""Stud, razz, the draw games and a mixed table through the real service: the bot dealer
(``clients/bots.py``, the demo's) plays each table through its dealer station while a display
and the floor follow it.

The display is handed every event in order with the hidden cards taken out — the hole and
down-cards, seventh street's down-card, a draw's discards and the cards it dealt — and no
such card ever appears in anything it gets (a field, a text) except where a rule turned it
up (a hand shown, all hands turned up, 17). The floor is handed every card. A display
subscribing with a snapshot mid-hand gets the public view: up-cards and draw counts, no
hidden card, no muck. Every hand is archived: the floor fetches it, it replays to its
``hand_end``, and its PHH loads in PokerKit with the same final stacks.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from websockets.asyncio.client import connect as ws_connect

from protocol import TableConfig
from protocol.config import GameLevel
from server.phh import parse_phh
from tests.service.bots import (
    check_received,
    dealer_bot,
    play,
    read_table,
    setup_tables,
)
from tests.service.conftest import token
from tests.service.test_hand_archive import hand_end_of, pokerkit_stacks, replayed_hand_end

T = "main"
CHIPS = (25, 100, 500, 1_000, 5_000, 25_000)
STUD_LEVEL: dict[str, Any] = {"blinds": (0, 0), "ante": 25, "bring_in": 25, "min_bet": 100}
SEATS = {n: 500_000 for n in range(1, 7)}
TABLES = {
    "7S": TableConfig(game="7S", seats=SEATS, button=1, chips=CHIPS, **STUD_LEVEL),
    "RAZZ": TableConfig(game="RAZZ", seats=SEATS, button=1, chips=CHIPS, **STUD_LEVEL),
    "27TD": TableConfig(
        game="27TD", blinds=(50, 100), min_bet=100, seats=SEATS, button=1, chips=CHIPS
    ),
    "BADUGI": TableConfig(
        game="BADUGI", blinds=(50, 100), min_bet=100, seats=SEATS, button=1, chips=CHIPS
    ),
    "mixed": TableConfig(
        game="LHE",
        blinds=(50, 100),
        seats=SEATS,
        button=1,
        chips=CHIPS,
        orbit=2,
        rotation=[
            GameLevel(blinds=(50, 100), game="LHE"),
            GameLevel(game="7S8", **STUD_LEVEL),
            GameLevel(blinds=(50, 100), min_bet=100, game="27TD"),
            GameLevel(game="RAZZ", **STUD_LEVEL),
            GameLevel(blinds=(50, 100), game="27SD"),
            GameLevel(blinds=(50, 100), min_bet=100, game="BADUGI"),
        ],
    ),
}
HANDS = 10
ARCHIVED = 25
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")
EXPOSING = ("shown", "expose_all")
"""The events that turn hidden cards up by rule: a hand shown (14-A), all hands up (17)."""


def hidden_cards(events: list[dict[str, Any]]) -> set[str]:
    """The cards of a hand (the floor's events) a display may not see until they are shown."""
    hidden: set[str] = set()
    for e in events:
        if e["type"] == "hand_start":
            hidden.update(c for cards in e["cards"].values() for c in cards)
        elif e["type"] == "dealt":
            hidden.update(c for cards in e.get("down", {}).values() for c in cards)
        elif e["type"] == "drawn":
            hidden.update([*e.get("thrown", []), *e.get("cards", [])])
    hidden.discard("??")
    return hidden


def by_hand(events: list[tuple[int, dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    hands: list[list[dict[str, Any]]] = []
    for _, e in events:
        if e["type"] == "hand_start":
            hands.append([])
        if hands:
            hands[-1].append(e)
    return hands


@pytest.mark.parametrize("game", list(TABLES))
async def test_a_display_never_sees_a_hidden_card_of_stud_or_draw_but_the_floor_does(
    start_server, stations, aredis, game: str
) -> None:  # type: ignore[no-untyped-def]
    config = TABLES[game]
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1"], config)
    display = await stations.open(server.url, token("display"), [(T, "1")])
    floor = await stations.open(server.url, token("floor"), [(T, "1")])
    bot = await dealer_bot(stations, server.url, token("dealer", table="1"), T, "1", config, 3)
    for _ in range(200):
        await play(bot, 10)
        if bot.policy.hands >= HANDS:
            break
    await play(bot, 4)  # into the next hand: hidden cards in play for the snapshot below
    log = await read_table(aredis, T, "1")
    for station in (display, floor):
        await station.received.wait_for(lambda s=station: s.received.last("1") >= log.seq, 5)
    check_received(display.received, log, "1", display=True, who="display")
    check_received(floor.received, log, "1", display=False, who="floor")

    floor_hands = by_hand(floor.received.events["1"])
    shown_hands = by_hand(display.received.events["1"])
    assert len(floor_hands) > HANDS
    games = set()
    for floor_hand, display_hand in zip(floor_hands, shown_hands, strict=True):
        hidden = hidden_cards(floor_hand)
        assert hidden, f"the floor saw no hidden card in hand {floor_hand[0]['hand']}"
        seen = json.dumps([e for e in display_hand if e["type"] not in EXPOSING])
        leaked = hidden & set(CARD.findall(seen))
        assert not leaked, f"hand {display_hand[0]['hand']}: {leaked} reached the display"
        games.add(floor_hand[0].get("game") or "")
    if game == "mixed":
        assert len(games - {""}) >= 4, games

    hidden_now = hidden_cards(floor_hands[-1])
    async with ws_connect(server.url, open_timeout=5) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token("display")}))
        subscribe = {"type": "subscribe", "tournament": T, "table": "1", "snapshot": True}
        await ws.send(json.dumps(subscribe))
        while (message := json.loads(await ws.recv()))["type"] != "snapshot":
            pass
    view = message["state"]
    assert view["view"] == "public" and "muck" not in view
    assert view["phase"] != "idle"
    leaked = hidden_now & set(CARD.findall(json.dumps(view)))
    assert not leaked, f"the public snapshot holds {leaked}"


@pytest.mark.parametrize("game", list(TABLES))
async def test_every_stud_and_draw_hand_is_archived_replays_and_its_phh_loads_in_pokerkit(
    start_server, stations, connect, game: str
) -> None:  # type: ignore[no-untyped-def]
    """The floor fetches every hand the bot played: complete, its commands replayed from the
    table before it end in the archived ``hand_end``, and its PHH (the variant's: ``F7S``,
    ``FR``, ``F2L3D``, ``FB`` ...) loads in PokerKit with the same final stacks."""
    config = TABLES[game]
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1"], config)
    bot = await dealer_bot(stations, server.url, token("dealer", table="1"), T, "1", config, 5)
    while bot.policy.hands < ARCHIVED:
        await play(bot, 1)
    floor = await connect(server, "floor")
    variants = set()
    for number in range(1, ARCHIVED + 1):
        record = await floor.hand(T, "1", number)
        assert record["hand"] == number and record["complete"]
        end = hand_end_of(record)
        assert replayed_hand_end(record) == end
        assert record["phh"], f"hand {number} of {game} has no PHH"
        seats = parse_phh(record["phh"])["seats"]
        assert pokerkit_stacks(record["phh"]) == [end["stacks"][str(s)] for s in seats], record[
            "phh"
        ]
        variants.add(record["phh"].split("\n", 1)[0])
    print(f"\n{game}: {ARCHIVED} hands archived, PHH {sorted(variants)}")
