"""A floor monitor resuming a whole tournament from the last numbers it read, as every floor
does when its server restarts: the tables with nothing new go live without reading their log
(one read of every table's last number), the others are caught up, and nothing is missed or
handed twice — also while the tables keep playing during the resume."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect

from tests.service.bots import Bot, dealer_bot, deep_config, play, read_table, setup_tables
from tests.service.conftest import token

T = "main"
CONFIG = deep_config(seats=6)


class Resumed:
    """A raw floor websocket resumed with ``tables_since``; every events frame it is handed."""

    def __init__(self, ws: ClientConnection, since: dict[str, int]) -> None:
        self.ws, self.since = ws, since
        self.seqs: dict[str, list[int]] = {}
        self.events: dict[str, list[dict[str, Any]]] = {}
        self.others: list[dict[str, Any]] = []
        self.changed = asyncio.Event()
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            message = json.loads(raw)
            if message["type"] == "events":
                table, first = message["table"], message["seq"]
                self.seqs.setdefault(table, []).extend(range(first, first + len(message["events"])))
                self.events.setdefault(table, []).extend(message["events"])
            else:
                self.others.append(message)
            self.changed.set()

    def last(self, table: str) -> int:
        return (self.seqs.get(table) or [self.since[table]])[-1]

    async def until(self, done: Any, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            left = deadline - time.monotonic()
            assert left > 0, f"timed out; handed {self.seqs}, others {self.others[-3:]}"
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 0.5))

    async def pong(self, n: int) -> None:
        """A ping answered: every frame the server sent before it has been read."""
        await self.ws.send(json.dumps({"type": "ping", "nonce": n}))
        await self.until(
            lambda: any(m["type"] == "pong" and m.get("nonce") == n for m in self.others)
        )


async def resume(stack: contextlib.AsyncExitStack, url: str, since: dict[str, int]) -> Resumed:
    ws = await stack.enter_async_context(ws_connect(url, max_size=2**24))
    await ws.send(json.dumps({"type": "hello", "token": token("floor")}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    await ws.send(json.dumps({"type": "subscribe", "tournament": T, "tables_since": since}))
    return Resumed(ws, since)


async def log_reads(aredis: Any) -> int:
    """XRANGE calls Redis has served (scripts' calls included)."""
    stats = await aredis.info("commandstats")
    return int(stats.get("cmdstat_xrange", {}).get("calls", 0))


async def heads(aredis: Any, tables: list[str]) -> dict[str, int]:
    return {t: (await read_table(aredis, T, t)).seq for t in tables}


async def played_room(
    url: str, stations: Any, count: int, commands: int
) -> tuple[list[str], list[Bot]]:
    """``count`` tables, a bot dealer on each, every one ``commands`` commands in."""
    tables = [str(n) for n in range(1, count + 1)]
    await setup_tables(url, token("admin"), T, tables, CONFIG)
    bots = [
        await dealer_bot(stations, url, token("dealer", table=t), T, t, CONFIG, i)
        for i, t in enumerate(tables)
    ]
    await asyncio.gather(*(play(bot, commands) for bot in bots))
    return tables, bots


async def test_a_floor_resuming_at_the_head_of_most_tables_reads_only_the_logs_behind(
    start_server, stations, aredis
) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    tables, bots = await played_room(server.url, stations, 12, 6)
    since = await heads(aredis, tables)
    await asyncio.gather(*(play(bot, 4) for bot in bots[:3]))  # tables 1-3 move on
    now = await heads(aredis, tables)
    before = await log_reads(aredis)
    async with contextlib.AsyncExitStack() as stack:
        floor = await resume(stack, server.url, since)
        await floor.until(lambda: all(floor.last(t) == now[t] for t in tables[:3]))
        await floor.pong(1)
        reads = await log_reads(aredis) - before
        assert {t: floor.seqs[t] for t in floor.seqs} == {
            t: list(range(since[t] + 1, now[t] + 1)) for t in tables[:3]
        }
        assert not [m for m in floor.others if m["type"] in ("snapshot", "error", "resync")]
        assert reads == 3, f"{reads} log reads for 3 tables behind of {len(tables)}"
        # The tables that went live at once are live: their next events come.
        await play(bots[11], 2)
        later = (await heads(aredis, ["12"]))["12"]
        await floor.until(lambda: floor.last("12") == later)
        assert floor.seqs["12"] == list(range(now["12"] + 1, later + 1))


async def test_floors_resuming_while_every_table_plays_miss_nothing_and_get_nothing_twice(
    start_server, stations, aredis
) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    tables, bots = await played_room(server.url, stations, 8, 10)
    live = await stations.open(server.url, token("floor"), [(T, None)])
    deadline = time.monotonic() + 30
    for bot in bots:
        bot.start(400, deadline)
    async with contextlib.AsyncExitStack() as stack:
        floors = []
        for _ in range(12):  # each resumes from what the live floor had read at that moment
            since = {t: live.received.last(t) for t in tables}
            floors.append(await resume(stack, server.url, since))
            target = len(bots[0].acked) + 3
            await bots[0].station.received.wait_for(lambda n=target: len(bots[0].acked) >= n, 10)
        for bot in bots:
            bot.stop()
        await asyncio.gather(*(bot.task for bot in bots if bot.task is not None))
        logs = {t: await read_table(aredis, T, t) for t in tables}
        for i, floor in enumerate(floors):
            await floor.until(lambda f=floor: all(f.last(t) == logs[t].seq for t in tables))
            for t in tables:
                first = floor.since[t]
                assert floor.seqs.get(t, []) == list(range(first + 1, logs[t].seq + 1)), (i, t)
                logged = [json.loads(raw) for seq, raw in logs[t].events if seq > first]
                assert floor.events.get(t, []) == logged, (i, t)
