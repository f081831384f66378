"""What a station leaves for the garbage collector once it is gone: a server in this process.

Run by ``tests/service/test_station_cycles.py`` as ``python -m tests.service.garbage_probe
REDIS_URL DATA_DIR``. The server (``server.app.run``, uvloop, on the given Redis) runs on this
process's main thread; the stations of each scenario connect from another thread, on a plain
asyncio loop, so the server's objects are told apart from theirs by type: ``server.*``,
websockets' server-side protocol and connection, uvloop's transports. Once every handler of a
scenario has returned, one collection with ``DEBUG_SAVEALL`` keeps what only the collector could
free (the server's frozen objects unfrozen first); the server's part of it is printed, by
type, as one JSON object per scenario.

A station's objects must go by reference counting when it leaves: a room's stations are frozen
out of the collector (``server.app``), and what is frozen and cyclic would never be freed.
"""

from __future__ import annotations

import asyncio
import gc
import json
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection
from websockets.server import ServerProtocol

from server.app import Settings, run
from server.loop import run as run_loop
from server.tokens import Claims, Role, issue
from tests.service.bots import Stations, dealer_bot, deep_config, play

SECRET = "garbage-probe"
EXPIRES = int(time.time()) + 3600
SEATS = {"1": 10_000, "2": 10_000, "3": 10_000}


def token(role: Role, table: str | None = None) -> str:
    return issue(SECRET.encode(), Claims(role, "t1", EXPIRES, table))


async def signed_in(url: str, role: Role, table: str | None = None) -> ClientConnection:
    ws = await connect(url)
    await ws.send(json.dumps({"type": "hello", "token": token(role, table)}))
    await ws.recv()
    return ws


async def answered(ws: ClientConnection, message: dict[str, Any]) -> None:
    """Send ``message`` and a ping; return once the pong is back (everything before it was
    handled)."""
    await ws.send(json.dumps(message))
    await ws.send(json.dumps({"type": "ping", "nonce": 1}))
    while '"pong"' not in str(await ws.recv()):
        pass


def command(n: int, body: dict[str, Any]) -> dict[str, Any]:
    return {"type": "command", "id": f"c{n}", "tournament": "t1", "table": "a", "command": body}


async def setup(url: str) -> int:
    async with await signed_in(url, "admin") as ws:
        await answered(ws, {"type": "create_tournament", "id": "t", "tournament": "t1"})
        config = {"game": "NLHE", "blinds": [50, 100], "seats": SEATS, "button": 1}
        table = {"type": "create_table", "id": "a", "tournament": "t1", "table": "a"}
        await answered(ws, {**table, "config": config})
    return 1


async def dealer(url: str) -> int:
    """A hand begun and played on by the dealer: commands applied and commands refused."""
    async with await signed_in(url, "dealer", "a") as ws:
        await answered(ws, command(1, {"type": "start_hand"}))
        for n, seat in enumerate([1, 2, 3, 1, 7], start=2):
            await answered(ws, command(n, {"type": "act", "seat": seat, "declare": "call"}))
    return 6


async def displays(url: str) -> int:
    """Displays of one table come, are caught up, and leave."""

    async def one() -> None:
        async with await signed_in(url, "display", "a") as ws:
            await answered(ws, {"type": "subscribe", "tournament": "t1", "table": "a", "since": 0})

    await asyncio.gather(*(one() for _ in range(60)))
    return 60


async def floors(url: str) -> int:
    """Floor monitors follow the whole tournament, and leave."""

    async def one() -> None:
        async with await signed_in(url, "floor") as ws:
            await answered(ws, {"type": "subscribe", "tournament": "t1", "since": 0})

    await asyncio.gather(*(one() for _ in range(20)))
    return 20


async def left_catching_up(url: str) -> int:
    """Displays that leave while their catch-up is still reading the log."""

    async def one() -> None:
        async with await signed_in(url, "display", "a") as ws:
            await ws.send(
                json.dumps({"type": "subscribe", "tournament": "t1", "table": "a", "since": 0})
            )

    await asyncio.gather(*(one() for _ in range(40)))
    return 40


async def played(url: str) -> int:
    """A bot dealer plays 200 commands on a table of its own while 10 displays watch."""
    config = deep_config()
    async with await signed_in(url, "admin") as ws:
        table = {"type": "create_table", "id": "b", "tournament": "t1", "table": "b"}
        await answered(ws, {**table, "config": msgspec.to_builtins(config)})
    stations = Stations()
    for _ in range(10):
        await stations.open(url, token("display", "b"), [("t1", "b")])
    bot = await dealer_bot(stations, url, token("dealer", "b"), "t1", "b", config, seed=7)
    await play(bot, 200)
    bot.stop()
    await stations.close()
    return 11


async def refused(url: str) -> int:
    """Connections whose hello is refused (a forged token)."""

    async def one() -> None:
        async with connect(url) as ws:
            await ws.send(json.dumps({"type": "hello", "token": "forged.token"}))
            await ws.recv()
            await ws.wait_closed()

    await asyncio.gather(*(one() for _ in range(20)))
    return 20


SCENARIOS: dict[str, Callable[[str], Coroutine[Any, Any, int]]] = {
    "dealer": dealer,
    "displays": displays,
    "floors": floors,
    "left_catching_up": left_catching_up,
    "played": played,
    "refused": refused,
}


def servers_own(thing: object) -> bool:
    """By type only: ``isinstance`` would follow a dead weak proxy (the library's logger
    holds one of its connection) and raise. The engine's types are the client's too (a
    table's state on the server is held by ``server.tables``, whose types count)."""
    kind = type(thing)
    if kind.__module__.startswith("server.engine"):
        return False  # the bot dealer mirrors its table with the engine's own states
    return kind.__module__.startswith(("server.", "uvloop")) or issubclass(
        kind, (ServerConnection, ServerProtocol)
    )


async def stations_from_a_thread(
    url: str, scenario: Callable[[str], Coroutine[Any, Any, int]]
) -> int:
    """Run ``scenario`` on its own plain asyncio loop in another thread; wait for it here
    without blocking the server's loop."""
    done = asyncio.get_running_loop().create_future()
    loop = asyncio.get_running_loop()

    def stations() -> None:
        with asyncio.Runner(loop_factory=asyncio.SelectorEventLoop) as runner:
            try:
                count = runner.run(scenario(url))
            except BaseException as exc:
                loop.call_soon_threadsafe(done.set_exception, exc)
                return
        loop.call_soon_threadsafe(done.set_result, count)

    threading.Thread(target=stations, daemon=True).start()
    return int(await done)


async def handlers_done(baseline: int) -> None:
    """Wait until the server runs no more tasks than before the scenario (every connection
    handler has returned)."""
    while len(asyncio.all_tasks()) > baseline:
        await asyncio.sleep(0.01)


async def probe(redis_url: str, data_dir: Path) -> dict[str, Any]:
    settings = Settings(
        port=0, data_dir=data_dir, redis_url=redis_url, secret=SECRET, max_unsigned_per_address=256
    )
    started = asyncio.Event()
    server = asyncio.get_running_loop().create_task(run(settings, started))
    await started.wait()
    url = f"ws://127.0.0.1:{settings.port}/"
    baseline = len(asyncio.all_tasks())
    report: dict[str, Any] = {}
    await stations_from_a_thread(url, setup)
    await handlers_done(baseline)
    for name, scenario in SCENARIOS.items():
        # The server freezes what survives its young passes (``server.collector``): garbage
        # that was frozen is found only once unfrozen.
        gc.unfreeze()
        gc.collect()
        stations = await stations_from_a_thread(url, scenario)
        await handlers_done(baseline)
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = Counter(
            f"{type(o).__module__}.{type(o).__qualname__}" for o in gc.garbage if servers_own(o)
        )
        gc.set_debug(0)
        gc.garbage.clear()
        report[name] = {"stations": stations, "garbage": dict(left)}
    server.cancel()
    return report


def main() -> None:
    redis_url, data_dir = sys.argv[1], Path(sys.argv[2])
    report = run_loop(probe(redis_url, Path(tempfile.mkdtemp(dir=data_dir))))
    print(json.dumps(report))


if __name__ == "__main__":
    main()
