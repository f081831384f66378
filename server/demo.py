"""``tablewire demo``: the whole thing in one command.

Starts the service with its embedded Redis, creates a tournament of N tables whose bot dealers
play hands continuously (now and then with an irregularity, so rulings and floor calls show),
and prints the URLs — with tokens — of a dealer station, the floor monitor and a display. The
token is in the URL's fragment (``#token=``), which the browser never sends to a server nor in
a Referer; the page moves it into its session storage and takes it out of the address.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from pathlib import Path

import anyio

from clients.bots import NAMES, FloorBot, TableBot
from clients.python import Client, CommandRefused
from protocol.config import TableConfig
from server import loop
from server.app import Settings, load_secret, run
from server.tokens import Claims, Role, issue

TOURNAMENT = "demo"
DAY = 24 * 3600


def _token(secret: bytes, role: Role, table: str | None = None) -> str:
    return issue(secret, Claims(role, TOURNAMENT, int(time.time()) + DAY, table))


def _table(rng: random.Random, button: int) -> TableConfig:
    seats = {n: rng.randrange(8_000, 60_000, 25) for n in rng.sample(range(1, 10), 7)}
    names = {n: rng.choice(NAMES) for n in seats}
    return TableConfig(
        game="NLHE",
        blinds=(100, 200),
        ante=200,
        bba=True,
        seats=seats,
        button=min(seats) if button not in seats else button,
        chips=(25, 100, 500, 1000, 5000, 25000),
        names=names,
    )


async def demo(settings: Settings, tables: int, pace: float, seed: int) -> None:
    started = asyncio.Event()
    server = asyncio.get_running_loop().create_task(run(settings, started))
    await started.wait()
    secret = load_secret(settings)
    url = f"ws://{settings.host}:{settings.port}/"
    rng = random.Random(seed)
    admin = Client(url, _token(secret, "admin"))
    await admin.connect()
    stop = anyio.Event()
    async with anyio.create_task_group() as group:
        group.start_soon(admin.run)
        await admin.create_tournament(TOURNAMENT, "Tablewire demo")
        configs = {str(n): _table(rng, rng.randrange(1, 10)) for n in range(1, tables + 1)}
        for table, config in configs.items():
            with contextlib.suppress(CommandRefused):  # the table survives from an earlier demo
                await admin.create_table(TOURNAMENT, table, config)
        for n, (table, config) in enumerate(configs.items()):
            client = Client(url, _token(secret, "admin"))
            await client.connect()
            group.start_soon(client.run)
            bot = TableBot(client, TOURNAMENT, table, seed + n, pace, dict(config.seats))
            group.start_soon(bot.run, stop)
        floor = Client(url, _token(secret, "floor"))
        await floor.connect()
        group.start_soon(floor.run)
        group.start_soon(FloorBot(floor, TOURNAMENT).run, stop)
        _print_urls(settings, secret)
        await asyncio.shield(server)
        stop.set()
        group.cancel_scope.cancel()


def _print_urls(settings: Settings, secret: bytes) -> None:
    base = f"http://{settings.host}:{settings.port}"
    query = f"tournament={TOURNAMENT}"
    dealer = f"{base}/dealer.html?{query}&table=1#token={_token(secret, 'dealer', '1')}"
    floor = f"{base}/floor.html?{query}#token={_token(secret, 'floor')}"
    display = f"{base}/display.html?{query}&table=1#token={_token(secret, 'display', '1')}"
    print()
    print("Tablewire demo: live tables are playing.")
    print(f"  Dealer station (table 1): {dealer}")
    print(f"  Floor monitor:            {floor}")
    print(f"  Table display (table 1):  {display}")
    print("Press Ctrl-C to stop.", flush=True)


def main(host: str, port: int, data_dir: Path, tables: int, pace: float, seed: int) -> None:
    static = Path(__file__).resolve().parents[1] / "clients" / "web"
    settings = Settings(
        host=host, port=port, data_dir=data_dir, static_dir=static if static.is_dir() else None
    )
    with contextlib.suppress(KeyboardInterrupt):
        loop.run(demo(settings, tables, pace, seed))
