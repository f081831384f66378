"""``tablewire demo``: the whole thing in one command.

Starts the service with its embedded Redis, creates a tournament of N tables whose bot dealers
play hands continuously (now and then with an irregularity, so rulings and floor calls show),
and prints the URLs — with tokens — of a dealer station, the floor monitor and a display. The
token is in the URL's fragment (``#token=``), which the browser never sends to a server nor in
a Referer; the page moves it into its session storage and takes it out of the address.

The demo is a client of the service like any station: it lives here, not in ``server/``, and
the ``tablewire`` command finds it through the ``tablewire.commands`` entry point.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections.abc import Awaitable
from functools import partial
from pathlib import Path

import anyio
import click
from anyio.abc import TaskGroup

from clients.bots import NAMES, FloorBot, Style, deal_tables
from clients.python import Client, CommandRefused
from protocol.config import TableConfig
from server import logs, loop
from server.app import Settings, StartupError, load_secret, run
from server.tokens import Claims, Role, issue

TOURNAMENT = "demo"
DAY = 24 * 3600
LIVELY = Style(
    bet=0.12,
    fold=0.16,
    raise_=0.12,
    all_in=0.02,
    chips=0.5,
    call_chips=0.06,
    out_of_turn=0.02,
    under_call=0.02,
    players=4,
)
"""Bets and raises half the time pushed as chips, now and then an action out of turn or an
under-call, so the rulings and the floor calls show; new players sit down as others bust."""


def _token(secret: bytes, role: Role, table: str | None = None) -> str:
    return issue(secret, Claims(role, TOURNAMENT, int(time.time()) + DAY, table))


def table_config(rng: random.Random) -> TableConfig:
    """A demo table: seven of nine seats taken, stacks of 40 to 300 big blinds."""
    seats = {n: rng.randrange(8_000, 60_000, 25) for n in rng.sample(range(1, 10), 7)}
    button = rng.randrange(1, 10)
    return TableConfig(
        game="NLHE",
        blinds=(100, 200),
        ante=200,
        bba=True,
        seats=seats,
        button=button if button in seats else min(seats),
        chips=(25, 100, 500, 1000, 5000, 25000),
        names={n: rng.choice(NAMES) for n in seats},
    )


async def _client(group: TaskGroup, url: str, token: str) -> Client:
    client = Client(url, token)
    await client.connect()
    group.start_soon(client.run)
    return client


async def _create_tables(admin: Client, tables: int, seed: int) -> dict[str, TableConfig]:
    """The demo's tournament and tables; those of an earlier demo (same data dir) are
    played on."""
    rng = random.Random(seed)
    configs = {str(n): table_config(rng) for n in range(1, tables + 1)}
    await _unless_there(admin.create_tournament(TOURNAMENT, "Tablewire demo"))
    for table, config in configs.items():
        await _unless_there(admin.create_table(TOURNAMENT, table, config))
    return configs


async def _unless_there(creation: Awaitable[None]) -> None:
    try:
        await creation
    except CommandRefused as refused:
        if refused.error.code != "exists":
            raise


async def demo(settings: Settings, tables: int, pace: float, seed: int) -> None:
    """Serve, and play the tables until the server stops (SIGINT, SIGTERM)."""
    started = asyncio.Event()
    server = asyncio.get_running_loop().create_task(run(settings, started))
    up = asyncio.get_running_loop().create_task(started.wait())
    await asyncio.wait({server, up}, return_when=asyncio.FIRST_COMPLETED)
    if server.done():
        up.cancel()
        server.result()  # it could not start: StartupError
    secret = load_secret(settings)
    url = f"ws://{settings.host}:{settings.port}/"
    async with anyio.create_task_group() as group:
        # An admin's token: the bots seat new players as others bust.
        admin = await _client(group, url, _token(secret, "admin"))
        configs = await _create_tables(admin, tables, seed)
        group.start_soon(
            partial(deal_tables, admin, TOURNAMENT, configs, seed=seed, pace=pace, style=LIVELY)
        )
        floor = await _client(group, url, _token(secret, "floor"))
        group.start_soon(FloorBot(floor, TOURNAMENT).run)
        _print_urls(settings, secret)
        await asyncio.shield(server)
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


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=int, default=8765, show_default=True)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default="demo-data",
    show_default=True,
)
@click.option("--tables", type=int, default=6, show_default=True, help="Tables in the tournament.")
@click.option(
    "--pace", type=float, default=0.6, show_default=True, help="Seconds between a bot's actions."
)
@click.option("--seed", type=int, default=2026, show_default=True)
def command(host: str, port: int, data_dir: Path, tables: int, pace: float, seed: int) -> None:
    """Start the service with bot dealers on N tables and print the stations' URLs."""
    logs.setup("WARNING")
    static = Path(__file__).resolve().parent / "web"
    settings = Settings(
        host=host, port=port, data_dir=data_dir, static_dir=static if static.is_dir() else None
    )
    try:
        with contextlib.suppress(KeyboardInterrupt):
            loop.run(demo(settings, tables, pace, seed))
    except StartupError as exc:
        click.echo(f"tablewire demo: {exc}", err=True)
        sys.exit(1)
