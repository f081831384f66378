"""The service end to end: a dealer's command reaches a display through Redis, without hole
cards; a retried command id is not applied twice; a stale command is refused."""

from __future__ import annotations

import json

import anyio
import pytest

from clients.python import CommandRefused
from protocol import Act, StartHand, TableConfig
from protocol.wire import Events

CONFIG = TableConfig(
    game="NLHE", blinds=(50, 100), seats={1: 10_000, 2: 10_000, 3: 10_000}, button=1
)


def kinds(message: Events) -> list[str]:
    return [
        json.loads(bytes(e))["type"] if not isinstance(e, dict) else e["type"]
        for e in message.events
    ]


async def test_a_dealers_command_reaches_a_display_without_hole_cards(
    start_server, connect
) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    admin = await connect(server, "admin")
    await admin.create_tournament("main", "Main Event")
    await admin.create_table("main", "1", CONFIG)
    display = await connect(server, "display")
    await display.subscribe("main")
    dealer = await connect(server, "dealer", table="1")
    ack = await dealer.command("main", "1", StartHand(cards={1: ["As", "Ad"]}))
    assert ack.seq == 2
    with anyio.fail_after(5):
        async for message in display.messages():
            assert isinstance(message, Events)
            assert kinds(message) == ["hand_start", "prompt"]
            start = message.events[0]
            start = start if isinstance(start, dict) else json.loads(bytes(start))
            assert start["cards"] == {}
            break
    retry = await dealer.command("main", "1", Act(seat=1, declare="call"), command_id="same")
    again = await dealer.command("main", "1", Act(seat=1, declare="call"), command_id="same")
    assert (again.seq, again.duplicate) == (retry.seq, True)
    with pytest.raises(CommandRefused) as refused:
        await dealer.command("main", "1", Act(seat=2, declare="call"), after=ack.seq)
    assert refused.value.error.code == "stale"
