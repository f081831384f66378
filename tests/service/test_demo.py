"""``tablewire demo`` (``clients/demo.py``, found by the ``tablewire`` command through its
``tablewire.commands`` entry point): the service starts with its embedded Redis and a whole
tournament runs in it — 60+ entries, most of them late registrations, the clock running, a bot
dealer at every table, eliminations — the printed URLs open the stations, the tournament clock
and the TD station, Ctrl-C stops it all, and a second demo on the same data dir plays the same
tournament on."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from protocol.tournament.views import TournamentView
from protocol.wire import Clock, TournamentEvents, TournamentSnapshot
from server.embedded_redis import free_port
from tests.service.bots import Station, Stations, http_get
from tests.service.conftest import ROOT

TABLES = 8
"""What the demo opens for its 66 players and 2 re-entries."""
PAGES = {"dealer", "floor", "display", "clock", "td"}
SHOWN = re.compile(
    r"On the display ([\d.]+) s after the demo started: the first entry at ([\d.]+) s, the clock "
    r"running at ([\d.]+) s, the first hand dealt at ([\d.]+) s"
)


@dataclass
class Demo:
    tokens: dict[str, str]
    """The tokens of the URLs it printed, by page."""
    tournament: str
    spawned: float
    """When the test started the process (``time.monotonic()``)."""
    printed: list[str] = field(default_factory=list)
    more: asyncio.Event = field(default_factory=asyncio.Event)

    async def line(self, pattern: re.Pattern[str], timeout: float) -> re.Match[str]:
        """The first line printed that matches ``pattern``, waiting for it."""
        async with asyncio.timeout(timeout):
            while True:
                for line in self.printed:
                    found = pattern.search(line)
                    if found:
                        return found
                self.more.clear()
                await self.more.wait()


@contextlib.asynccontextmanager
async def running_demo(port: int, data_dir: Path, *options: str) -> AsyncIterator[Demo]:
    """``tablewire demo`` with ``options`` until the block ends (then Ctrl-C, which must exit
    0)."""
    spawned = time.monotonic()
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        "demo",
        *("--port", str(port), "--data-dir", str(data_dir), "--pace", "0.05", *options),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    stdout = process.stdout
    assert stdout is not None
    reading: asyncio.Task[None] | None = None
    try:
        printed: list[str] = []
        while not printed or "Press Ctrl-C" not in printed[-1]:
            line = await asyncio.wait_for(stdout.readline(), 60)
            assert line, f"the demo ended before its URLs: {''.join(printed)}"
            printed.append(line.decode())
        text = "".join(printed)
        tournament = re.search(r"\?tournament=([\w-]+)", text)
        assert tournament is not None, text
        demo = Demo(
            dict(re.findall(r"(\w+)\.html\?\S*#token=(\S+)", text)),
            tournament.group(1),
            spawned,
            printed,
        )

        async def read() -> None:
            while line := await stdout.readline():
                demo.printed.append(line.decode())
                demo.more.set()

        reading = asyncio.get_running_loop().create_task(read())
        yield demo
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGINT)
        if reading is not None:
            await asyncio.wait_for(reading, 30)
        rest = await asyncio.wait_for(stdout.read(), 30)
        assert await process.wait() == 0, "".join(printed) + rest.decode()


@dataclass
class Shown:
    """The tournament as a whole-tournament station has been shown it: its snapshot, then the
    tournament's events; the tables' events beside."""

    view: TournamentView | None = None
    entries: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    """The tournament's events since the snapshot."""
    clock: str = "not_started"
    hands: dict[str, int] = field(default_factory=dict)
    """``hand_start`` events by table."""


def shown(station: Station) -> Shown:
    seen = Shown()
    for message in station.received.others:
        if isinstance(message, TournamentSnapshot):
            seen.view, seen.entries, seen.events = message.state, message.state.entries, []
            seen.clock = message.state.clock.state
        elif isinstance(message, TournamentEvents):
            seen.events += message.events
            seen.entries += sum(e["type"] == "registered" for e in message.events)
        elif isinstance(message, Clock):
            seen.clock = message.clock.state
    for table, rows in station.received.events.items():
        seen.hands[table] = sum(e["type"] == "hand_start" for _, e in rows)
    return seen


def eliminated(seen: Shown) -> int:
    before = sum(p.status == "eliminated" for p in seen.view.players) if seen.view else 0
    return before + sum(e["type"] == "eliminated" for e in seen.events)


def a_tournament(seen: Shown) -> bool:
    return (
        seen.entries >= 60
        and seen.clock in ("running", "break")
        and len([t for t, n in seen.hands.items() if n > 0]) == TABLES
        and eliminated(seen) >= 1
    )


async def test_the_demo_runs_a_tournament_its_urls_open_the_stations_and_a_second_plays_on(
    tmp_path: Path, stations: Stations
) -> None:
    port = free_port()
    url = f"ws://127.0.0.1:{port}/"
    async with running_demo(port, tmp_path / "demo-data") as demo:
        assert set(demo.tokens) == PAGES
        for page in demo.tokens:
            if (ROOT / "clients" / "web" / f"{page}.html").exists():  # td.html: being built
                status, _ = await http_get(port, f"/{page}.html")
                assert status == 200, page
        td = await stations.open(url, demo.tokens["td"])
        assert td.client.welcome is not None and td.client.welcome.role == "admin"

        # The clock display's token, on the whole tournament: 60+ entries, the clock running,
        # hands dealt at every table, players eliminated.
        display = await stations.open(url, demo.tokens["clock"], [(demo.tournament, None)])
        assert display.client.welcome is not None
        assert (display.client.welcome.role, display.client.welcome.table) == ("display", None)
        await display.received.wait_for(
            lambda: a_tournament(shown(display)),
            120,
            "60+ entries, the clock running, hands at every table, an elimination",
        )
        seen_at = time.monotonic() - demo.spawned
        seen = shown(display)
        late = sum(e["type"] == "registered" and e.get("late") for e in seen.events)
        # A display that subscribes now is sent all of it in its snapshot.
        again = await stations.open(url, demo.tokens["clock"], [(demo.tournament, None)])
        await again.received.wait_for(lambda: shown(again).view is not None, 10, "a snapshot")
        view = shown(again).view
        assert view is not None and view.entries >= 60 and view.prize_pool == view.entries * 100
        assert view.clock.state in ("running", "break") and view.payouts
        assert view.players_left < view.entries  # entries out (busted, or busted and back)
        timing = await demo.line(SHOWN, 30)
        total, entry, clock, hand = (float(x) for x in timing.groups())
        print(
            f"\ndemo shown {total:.1f} s after its process started: first entry {entry:.1f} s, "
            f"clock running {clock:.1f} s, first hand dealt {hand:.1f} s; the test's display had "
            f"{seen.entries} entries ({late} late after its snapshot), {eliminated(seen)} out and "
            f"hands at all {TABLES} tables {seen_at:.1f} s after the spawn"
        )
        players = {p.player for p in view.players}
        entries = view.entries
        for station in (display, again, td):
            station.client.reconnect = False

    async with running_demo(port, tmp_path / "demo-data") as second:
        assert second.tournament == demo.tournament
        floor = await stations.open(url, second.tokens["floor"], [(second.tournament, None)])

        def played_on() -> bool:
            seen = shown(floor)
            counted = sum(e["type"] == "hand_counted" for e in seen.events)
            return seen.view is not None and counted >= 2

        await floor.received.wait_for(played_on, 90, "two more hands of the first demo's")
        view = shown(floor).view
        assert view is not None and view.entries >= entries
        assert players <= {p.player for p in view.players}


@pytest.mark.parametrize(
    ("game", "tables", "dealt"),
    [("7S", 3, "a stud hand: up-cards and a bring-in"), ("27TD", 4, "draws")],
)
async def test_the_demo_deals_stud_and_draw_games_at_every_table(
    tmp_path: Path, stations: Stations, game: str, tables: int, dealt: str
) -> None:
    """``--game 7S``: eight-handed tables (22 players and 2 re-entries: three tables), each
    dealing stud with up-cards and the bring-in (RP-10); ``--game 27TD``: six-handed tables
    (four), each drawing (RP-25). Every table ends hands, none waits on its dealer for long:
    the bots deal the game through to the end of its hands."""
    port = free_port()
    url = f"ws://127.0.0.1:{port}/"
    async with running_demo(
        port, tmp_path / "demo-data", "--game", game, "--players", "22"
    ) as demo:
        floor = await stations.open(url, demo.tokens["floor"], [(demo.tournament, None)])

        def ended(table: str) -> int:
            rows = floor.received.events.get(table, [])
            return sum(e["type"] == "hand_end" and not e.get("void") for _, e in rows)

        def every_table_played() -> bool:
            return len(floor.received.events) == tables and all(
                ended(t) >= 3 for t in floor.received.events
            )

        await floor.received.wait_for(every_table_played, 120, f"3 hands at {tables} tables")
        for table, rows in floor.received.events.items():
            events = [e for _, e in rows]
            starts = [e for e in events if e["type"] == "hand_start"]
            if game == "7S":
                assert all(e["up"] and e["bring_in"] for e in starts), (table, dealt)
                assert any(e["type"] == "prompt" and e["bring_in"] for e in events), dealt
            else:
                assert all(len(cards) == 5 for e in starts for cards in e["cards"].values())
                assert any(e["type"] == "drawn" and e["count"] for e in events), dealt
