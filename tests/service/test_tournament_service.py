"""The tournament run by the service: real Redis, real server processes, real websockets.

A tournament command and the tables it touches commit as one step; the clock runs in the
service; every station of the tournament gets the clock with the server's time.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec
import pytest

from clients.python import Client, CommandRefused
from protocol import StartHand
from protocol.tournament import (
    AddTime,
    NextLevel,
    OpenTable,
    Register,
    StartClock,
    Structure,
    decode_structure,
)
from protocol.wire import Clock, Snapshot, TournamentEvents, TournamentSnapshot
from server.store import TOURNAMENT_LOG, log_key
from tests.service.conftest import ServerProcess
from tests.service.test_timers import lease_holder

pytestmark = pytest.mark.asyncio

STRUCTURE: dict[str, Any] = {
    "name": "Service test",
    "starting_stack": 10_000,
    "buy_in": 100,
    "late_registration_until": 2,
    "table_size": 9,
    "levels": [
        {"blinds": [50, 100], "minutes": 20},
        {"blinds": [100, 200], "ante": 200, "bba": True, "minutes": 20},
        {"break": 10},
        {"blinds": [200, 400], "ante": 400, "bba": True, "minutes": 20},
    ],
    "payouts": {"places": [{"place": 1, "percent": 65}, {"place": 2, "percent": 35}]},
}


def structure(**changes: Any) -> Structure:
    return decode_structure(msgspec.json.encode({**STRUCTURE, **changes}))


async def next_of(client: Client, kind: type, match: Any = None) -> Any:
    async for message in client.messages():
        if isinstance(message, kind) and (match is None or match(message)):
            return message
    raise AssertionError(f"no {kind.__name__}")


async def test_registration_seats_the_player_at_a_table_in_one_step(
    start_server: Any, connect: Any
) -> None:
    server: ServerProcess = start_server()
    admin = await connect(server, "admin")
    await admin.create_tournament("main", "Main event", structure())
    await admin.tournament_command("main", OpenTable(table="t1", seats=9))
    floor = await connect(server, "floor")
    await floor.subscribe("main")
    snap = await next_of(floor, TournamentSnapshot)
    assert snap.state.tables[0].table == "t1"
    ack = await admin.tournament_command("main", Register(player="p1", name="Ann Lee"))
    assert ack.seq > snap.seq
    events = await next_of(floor, TournamentEvents)
    kinds = [e["type"] for e in events.events]
    assert kinds[:2] == ["registered", "seated"]
    seated = events.events[1]
    dealer = await connect(server, "dealer", table="t1")
    await dealer.subscribe("main", "t1", since=-1)
    table = await next_of(dealer, Snapshot)
    names = {s.seat: s.name for s in table.state.seats}
    assert names == {seated["seat"]: "Ann Lee"}


async def test_tables_hold_hands_until_the_clock_starts_and_levels_reach_the_next_hand(
    start_server: Any, connect: Any
) -> None:
    server: ServerProcess = start_server()
    admin = await connect(server, "admin")
    await admin.create_tournament("main", "Main event", structure())
    await admin.tournament_command("main", OpenTable(table="t1", seats=9))
    for i in range(3):
        await admin.tournament_command("main", Register(player=f"p{i}", name=f"Player {i}"))
    dealer = await connect(server, "dealer", table="t1")
    await dealer.subscribe("main", "t1")
    clock = await next_of(dealer, Clock)
    assert clock.clock.state == "not_started"
    with pytest.raises(CommandRefused) as refused:
        await dealer.command("main", "t1", StartHand())
    assert refused.value.error.code == "not_started"
    assert refused.value.error.rule == "25-A"
    floor = await connect(server, "floor")
    await floor.tournament_command("main", StartClock())
    clock = await next_of(dealer, Clock)
    assert clock.clock.state == "running" and clock.clock.level is not None
    assert clock.clock.level.blinds == (50, 100)
    assert clock.clock.ends_at - clock.clock.now > 19 * 60_000
    await dealer.command("main", "t1", StartHand())
    await floor.tournament_command("main", NextLevel())
    clock = await next_of(dealer, Clock)
    assert clock.clock.level is not None and clock.clock.level.blinds == (100, 200)
    with pytest.raises(CommandRefused) as by_dealer:
        await dealer.tournament_command("main", NextLevel())
    assert by_dealer.value.error.code == "forbidden"


async def tournament_log(aredis: Any, tournament: str = "main") -> list[dict[str, Any]]:
    entries = await aredis.xrange(log_key(tournament, TOURNAMENT_LOG))
    return [msgspec.json.decode(fields[b"e"]) for _, fields in entries]


async def test_kill_9_of_the_clock_holder_mid_level_another_instance_starts_the_next_once(
    start_server: Any, connect: Any, aredis: Any
) -> None:
    a, b = start_server(), start_server()
    pid = await lease_holder(aredis, 10)
    holder, other = (a, b) if a.process.pid == pid else (b, a)
    admin = await connect(other, "admin")
    await admin.create_tournament("main", "Main event", structure())
    await admin.tournament_command("main", OpenTable(table="t1", seats=9))
    for i in range(4):
        await admin.tournament_command("main", Register(player=f"p{i}", name=f"Player {i}"))
    floor = await connect(other, "floor")
    await floor.tournament_command("main", StartClock())
    # Level 1 (20 minutes) ends in 9 s: after the lease can have expired (5 s) and moved.
    await floor.tournament_command("main", AddTime(ms=-(20 * 60_000 - 9_000)))
    display = await connect(other, "display")
    await display.subscribe("main")
    clock = await next_of(display, Clock)
    ends_at = clock.clock.ends_at
    assert clock.clock.level is not None and clock.clock.level.level == 1
    holder.kill()
    killed = time.monotonic()
    assert await lease_holder(aredis, 10, not_pid=pid) == other.process.pid
    took_over = time.monotonic() - killed
    clock = await next_of(display, Clock, lambda m: m.clock.level.level == 2)
    late = clock.clock.now - ends_at
    print(f"clock lease taken over {took_over:.1f} s after kill -9; level 2 {late} ms late")
    assert 0 <= late < 1_000
    started = [e for e in await tournament_log(aredis) if e["type"] == "level_started"]
    assert [e["level"] for e in started] == [1, 2]
    assert started[1]["at"] == ends_at  # the level starts when the clock reached it (25-A)
