"""A tournament served by two instances: what one commits, the other's stations see — the
tournament's events, its clock, the tables it seats — through Redis, with no lost subscription.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from protocol.tournament import OpenTable, Register, StartClock
from protocol.wire import Clock, Events, TournamentEvents, TournamentSnapshot
from tests.service.bots import http_get
from tests.service.conftest import ServerProcess
from tests.service.test_tournament_service import next_of, structure

pytestmark = pytest.mark.asyncio


async def test_what_one_instance_commits_the_other_instances_stations_see(
    start_server: Any, connect: Any
) -> None:
    async with asyncio.timeout(60):
        await _both_see(start_server(), start_server(), connect)


async def _both_see(a: ServerProcess, b: ServerProcess, connect: Any) -> None:
    admin = await connect(a, "admin")
    await admin.create_tournament("main", "Two instances", structure())
    await admin.tournament_command("main", OpenTable(table="t1", seats=9))
    display = await connect(b, "display")
    await display.subscribe("main")
    await next_of(display, TournamentSnapshot)
    dealer = await connect(b, "dealer", table="t1")
    await dealer.subscribe("main", "t1")
    assert (await next_of(dealer, Clock)).clock.state == "not_started"

    await admin.tournament_command("main", Register(player="p1", name="Ann Lee"))
    registered = await next_of(display, TournamentEvents)
    assert [e["type"] for e in registered.events][:2] == ["registered", "seated"]
    added = await next_of(dealer, Events)
    assert added.events[0]["type"] == "player_added" and added.events[0]["name"] == "Ann Lee"

    floor = await connect(a, "floor")
    await floor.tournament_command("main", StartClock())
    for station in (display, dealer):
        clock = await next_of(station, Clock, lambda m: m.clock.state == "running")
        assert clock.clock.level is not None and clock.clock.level.level == 1
    log = (b.data_dir / f"server-{b.port}.log").read_text()
    assert "subscription lost" not in log


async def _counted(server: ServerProcess, name: str) -> float:
    _, text = await http_get(server.port, "/metrics")
    return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(name))


async def test_registrations_alternating_between_instances_each_land_once(
    start_server: Any, connect: Any
) -> None:
    """Each instance's copy of the tournament is one registration behind when its next comes:
    the commit finds the log moved on, the instance reads only the events after its copy and
    rules again. Every player is registered and seated once, the two instances' snapshots
    agree, and the path was taken (the conflicts and stale rulings counted)."""
    a, b = start_server(), start_server()
    async with asyncio.timeout(90):
        admins = [await connect(a, "admin"), await connect(b, "admin")]
        await admins[0].create_tournament("main", "Two instances", structure())
        for table in ("t1", "t2", "t3"):
            await admins[0].tournament_command("main", OpenTable(table=table, seats=9))
        players = [f"p{n}" for n in range(24)]
        for n, who in enumerate(players):
            await admins[n % 2].tournament_command("main", Register(player=who, name=who.upper()))
        views = []
        for server in (a, b):
            display = await connect(server, "display")
            await display.subscribe("main")
            views.append(await next_of(display, TournamentSnapshot))
    assert views[0].seq == views[1].seq
    same = [msgspec.structs.replace(v.state, clock=None) for v in views]  # the clock's "now"
    assert same[0] == same[1]
    seats = {(p.table, p.seat) for p in views[0].state.players if p.table is not None}
    assert len(seats) == len(players)
    # Each stale step took one of two paths: its commit found the log moved on (a conflict), or
    # its seat, drawn on the stale copy, was taken at the table (the table's copy follows the
    # other instance live) and the refusal was ruled on again (a stale ruling). Which one is
    # the draw's chance; together they are every registration after each instance's first.
    stale = 0.0
    for server in (a, b):
        stale += await _counted(server, "tablewire_commit_conflicts_total")
        stale += await _counted(server, "tablewire_stale_rulings_total")
    assert stale >= len(players) - 2
