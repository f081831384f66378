"""A tournament the service runs, for the browser tests of the TD's screens (issue 12): its
structure, and the admin and floor commands the tests send through the Python client.
"""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgspec

from clients.python import Client
from protocol.commands import Command
from protocol.tournament import (
    OpenTable,
    Register,
    StartClock,
    Structure,
    TournamentCommand,
    decode_structure,
)
from protocol.tournament.views import TournamentView
from protocol.views import AnyTableView
from protocol.wire import Snapshot, TournamentSnapshot
from tests.browser.conftest import run_admin
from tests.service.conftest import ServerProcess, token

STRUCTURE: dict[str, Any] = {
    "name": "Sunday Main Event",
    "starting_stack": 20_000,
    "buy_in": 100,
    "fee": 10,
    "late_registration_until": 2,
    "table_size": 9,
    "levels": [
        {"blinds": [100, 200], "minutes": 10},
        {"blinds": [200, 400], "ante": 400, "bba": True, "minutes": 10},
        {"break": 5},
        {"blinds": [300, 600], "ante": 600, "bba": True, "minutes": 15},
        {"blinds": [400, 800], "ante": 800, "bba": True, "minutes": 15},
    ],
    "payouts": {"places": [{"place": 1, "percent": 65}, {"place": 2, "percent": 35}]},
}
NAMES = ["Ann Lee", "Bo Diaz", "Cy Park", "Di Moss", "Eve Kane", "Fay Wu"]


def structure(**changes: Any) -> Structure:
    return decode_structure(json.dumps({**STRUCTURE, **changes}).encode())


def create_tournament(
    server: ServerProcess,
    names: list[str] = NAMES,
    tables: tuple[tuple[str, int], ...] = (("1", 9),),
    start: bool = True,
    **changes: Any,
) -> None:
    """The tournament ``main`` with its tables open, ``names`` registered (player ids p1, p2,
    ...; each seated at random by the service) and, with ``start``, its clock running."""

    async def work(client: Client) -> None:
        await client.create_tournament("main", "Main Event", structure(**changes))
        for table, seats in tables:
            await client.tournament_command("main", OpenTable(table=table, seats=seats))
        for i, name in enumerate(names, 1):
            await client.tournament_command("main", Register(player=f"p{i}", name=name))
        if start:
            await client.tournament_command("main", StartClock())

    run_admin(server, work)


def tournament_command(server: ServerProcess, *commands: TournamentCommand) -> int:
    """Send tournament commands as the admin; the tournament log's last event number."""

    async def work(client: Client) -> int:
        seq = 0
        for command in commands:
            seq = (await client.tournament_command("main", command)).seq
        return seq

    return int(run_admin(server, work))


def table_command(server: ServerProcess, table: str, *commands: Command) -> int:
    async def work(client: Client) -> int:
        seq = 0
        for command in commands:
            seq = (await client.command("main", table, command)).seq
        return seq

    return int(run_admin(server, work))


def _read(server: ServerProcess, role: str, table: str | None, kind: type) -> Any:
    async def main() -> Any:
        client = Client(server.url, token(role, "main", table), reconnect=False)  # type: ignore[arg-type]
        await client.connect()
        reader = asyncio.get_running_loop().create_task(client.run())
        try:
            await client.subscribe("main", table, since=-1 if table else None)
            async for message in client.messages():
                if isinstance(message, kind):
                    return getattr(message, "state")  # noqa: B009 - a Snapshot or TournamentSnapshot
        finally:
            await client.close()
            reader.cancel()

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result(timeout=30)


def tournament_view(server: ServerProcess) -> TournamentView:
    """The tournament as the service shows it now (a ``tournament_snapshot``)."""
    return _read(server, "floor", None, TournamentSnapshot)  # type: ignore[no-any-return]


def table_view(server: ServerProcess, table: str) -> AnyTableView:
    return _read(server, "floor", table, Snapshot)  # type: ignore[no-any-return]


def seconds(text: str) -> int:
    """ "12:34" or "1:02:03" as seconds."""
    assert re.fullmatch(r"\d+(:\d\d){1,2}", text), text
    total = 0
    for part in text.split(":"):
        total = total * 60 + int(part)
    return total


def as_json(value: Any) -> Any:
    return json.loads(msgspec.json.encode(value))
