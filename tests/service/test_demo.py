"""``tablewire demo`` (``clients/demo.py``, found by the ``tablewire`` command through its
``tablewire.commands`` entry point): the service starts with its embedded Redis, the printed
URLs open the stations, every table is played by its bot dealer, Ctrl-C stops it all, and a
second demo on the same data dir plays the same tables on."""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from server.embedded_redis import free_port
from tests.service.bots import Station, Stations, http_get
from tests.service.conftest import ROOT

TABLES = 3


@contextlib.asynccontextmanager
async def running_demo(port: int, data_dir: Path) -> AsyncIterator[dict[str, str]]:
    """``tablewire demo`` until the block ends (then Ctrl-C, which must exit 0); yields the
    tokens of the URLs it printed, by page."""
    demo = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server.cli",
        "demo",
        *("--port", str(port), "--data-dir", str(data_dir), "--tables", str(TABLES)),
        *("--pace", "0.02"),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert demo.stdout is not None
    try:
        printed: list[str] = []
        while not printed or "Press Ctrl-C" not in printed[-1]:
            line = await asyncio.wait_for(demo.stdout.readline(), 60)
            assert line, f"the demo ended before its URLs: {''.join(printed)}"
            printed.append(line.decode())
        yield dict(re.findall(r"(\w+)\.html\?\S*#token=(\S+)", "".join(printed)))
    finally:
        if demo.returncode is None:
            demo.send_signal(signal.SIGINT)
        rest = await asyncio.wait_for(demo.stdout.read(), 30)
        assert await demo.wait() == 0, rest.decode()


def hands_ended(floor: Station) -> dict[str, int]:
    return {
        table: sum(e["type"] == "hand_end" for _, e in rows)
        for table, rows in floor.received.events.items()
    }


async def test_the_demo_plays_every_table_and_its_urls_open_the_stations(
    tmp_path: Path, stations: Stations
) -> None:
    port = free_port()
    url = f"ws://127.0.0.1:{port}/"
    async with running_demo(port, tmp_path / "demo-data") as tokens:
        assert set(tokens) == {"dealer", "floor", "display"}
        for page in tokens:
            status, _ = await http_get(port, f"/{page}.html")
            assert status == 200, page
        floor = await stations.open(url, tokens["floor"], [("demo", None)])
        await floor.received.wait_for(
            lambda: len(hands_ended(floor)) == TABLES and min(hands_ended(floor).values()) >= 2,
            90,
            "two hands played at every table",
        )
        display = await stations.open(url, tokens["display"], [("demo", "1")])
        await display.received.wait_for(lambda: display.received.last("1") > 0, 10, "table 1")
        floor.client.reconnect = False
    played = hands_ended(floor)

    async with running_demo(port, tmp_path / "demo-data") as tokens:
        again = await stations.open(url, tokens["floor"], [("demo", None)])
        await again.received.wait_for(
            lambda: all(hands_ended(again).get(t, 0) >= n + 2 for t, n in played.items()),
            90,
            "two more hands at every table of the first demo",
        )
