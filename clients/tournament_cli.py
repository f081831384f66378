"""``tablewire tournament create|register|start|status``: scripted set-up of a tournament against
a running server, with an admin token.

The token is read from ``TABLEWIRE_TOKEN`` or ``--token-file``, never from the command line
(where ``ps`` shows it to every local user). Every command is a station like any other: it
signs in, sends tournament commands and reads the answers; a refusal prints the server's
message and its rule and exits with status 1.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import click

from clients.python import Client, CommandRefused
from protocol.tournament import (
    CloseRegistration,
    OpenTable,
    Register,
    StartClock,
    Structure,
    decode_structure,
)
from protocol.tournament.views import TournamentView
from protocol.wire import TournamentEvents, TournamentSnapshot


def _token(token_file: Path | None) -> str:
    if token_file is not None:
        return token_file.read_text().strip()
    found = os.environ.get("TABLEWIRE_TOKEN")
    if not found:
        raise click.UsageError("give an admin token in TABLEWIRE_TOKEN or --token-file")
    return found


def _structure(path: Path) -> Structure:
    """A structure file: JSON, or TOML by its suffix (the README's structure format)."""
    raw = path.read_bytes()
    if path.suffix.lower() == ".toml":
        import tomllib

        import msgspec

        raw = msgspec.json.encode(tomllib.loads(raw.decode()))
    return decode_structure(raw)


def _run(url: str, token: str, work: Callable[[Client], Awaitable[Any]]) -> Any:
    """Sign in, do ``work``, sign out; a refusal exits with its message and rule."""

    async def main() -> Any:
        client = Client(url, token, reconnect=False)
        await client.connect()
        async with anyio.create_task_group() as group:
            group.start_soon(client.run)
            try:
                return await work(client)
            except CommandRefused as refused:
                return refused
            finally:
                await client.close()
                group.cancel_scope.cancel()

    result = anyio.run(main)
    if isinstance(result, CommandRefused):
        error = result.error
        rule = f" ({error.rule})" if error.rule else ""
        click.echo(f"refused: {error.message}{rule} [{error.code}]", err=True)
        sys.exit(1)
    return result


def player_id(name: str) -> str:
    """A player id from a name: lower case, words joined by dashes ("Ann Lee" -> "ann-lee")."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return slug or "player"


async def _view(client: Client, tournament: str) -> TournamentView:
    await client.subscribe(tournament)
    async for message in client.messages():
        if isinstance(message, TournamentSnapshot):
            return message.state
    raise click.ClickException("the server sent no tournament snapshot")


@click.group()
@click.option("--url", default=lambda: os.environ.get("TABLEWIRE_URL", "ws://127.0.0.1:8765/"))
@click.option("--token-file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.pass_context
def tournament(ctx: click.Context, url: str, token_file: Path | None) -> None:
    """Set up and follow a tournament on a running server (admin token)."""
    ctx.obj = (url, token_file)


@tournament.command()
@click.argument("tournament_id")
@click.argument("structure", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--name", default="", help="The tournament's name (default: the structure's).")
@click.option("--tables", type=click.IntRange(0, 1000), default=0, help="Tables to open: 1..N.")
@click.option("--seats", type=click.IntRange(2, 10), default=None, help="Seats per table.")
@click.pass_obj
def create(
    obj: tuple[str, Path | None],
    tournament_id: str,
    structure: Path,
    name: str,
    tables: int,
    seats: int | None,
) -> None:
    """Create TOURNAMENT_ID from a STRUCTURE file (JSON or TOML) and open its tables."""
    url, token_file = obj
    parsed = _structure(structure)

    async def work(client: Client) -> None:
        await client.create_tournament(tournament_id, name or parsed.name, parsed)
        for n in range(1, tables + 1):
            size = seats or parsed.table_size
            await client.tournament_command(tournament_id, OpenTable(table=str(n), seats=size))
        click.echo(f"tournament {tournament_id} created; {tables} tables open")

    _run(url, _token(token_file), work)


@tournament.command()
@click.argument("tournament_id")
@click.argument("names", nargs=-1, required=True)
@click.pass_obj
def register(obj: tuple[str, Path | None], tournament_id: str, names: tuple[str, ...]) -> None:
    """Register players by NAME and print each one's table and seat."""
    url, token_file = obj

    async def work(client: Client) -> None:
        await _view(client, tournament_id)
        for name in names:
            who = player_id(name)
            await client.tournament_command(tournament_id, Register(player=who, name=name))
            click.echo(f"{name} ({who}): {await _seat_of(client, who)}")

    _run(url, _token(token_file), work)


async def _seat_of(client: Client, who: str) -> str:
    """Where the registration that was just acknowledged seated the player: its events come
    in one ``tournament_events`` frame."""
    async for message in client.messages():
        if not isinstance(message, TournamentEvents):
            continue
        mine = [e for e in message.events if e.get("player") == who]
        for event in mine:
            if event.get("type") == "seated":
                return f"table {event['table']} seat {event['seat']}"
        if mine:
            return "registered; no free seat yet (seated when a table opens)"
    return "registered"


@tournament.command()
@click.argument("tournament_id")
@click.pass_obj
def start(obj: tuple[str, Path | None], tournament_id: str) -> None:
    """Start the clock: level 1 starts now (25-A)."""
    url, token_file = obj

    async def work(client: Client) -> None:
        await client.tournament_command(tournament_id, StartClock())
        click.echo(f"tournament {tournament_id}: the clock is running")

    _run(url, _token(token_file), work)


@tournament.command("close-registration")
@click.argument("tournament_id")
@click.pass_obj
def close_registration(obj: tuple[str, Path | None], tournament_id: str) -> None:
    """Close registration: the payout table is fixed from the entries."""
    url, token_file = obj

    async def work(client: Client) -> None:
        await client.tournament_command(tournament_id, CloseRegistration())
        click.echo(f"tournament {tournament_id}: registration closed")

    _run(url, _token(token_file), work)


@tournament.command()
@click.argument("tournament_id")
@click.pass_obj
def status(obj: tuple[str, Path | None], tournament_id: str) -> None:
    """Print the clock, the field, the prize pool and the payouts, and every player."""
    url, token_file = obj
    view: TournamentView = _run(url, _token(token_file), lambda c: _view(c, tournament_id))
    for line in status_lines(view):
        click.echo(line)


def status_lines(view: TournamentView) -> list[str]:
    clock = view.clock
    level = clock.level
    blinds = f"{level.blinds[0]:,}/{level.blinds[1]:,}" if level else "-"
    ante = f" ante {level.ante:,}" if level and level.ante else ""
    lines = [
        f"{view.name or view.tournament}: {clock.state.replace('_', ' ')}",
        f"level {level.level if level else '-'}: {blinds}{ante}",
        f"players {view.players_left} of {view.entries} entries; average stack"
        f" {view.average_stack:,}; chips in play {view.chips_in_play:,}",
        f"prize pool {view.prize_pool:,}; payouts "
        + ", ".join(f"{i + 1}. {p:,}" for i, p in enumerate(view.payouts[:10])),
    ]
    for p in sorted(view.players, key=lambda p: (p.status, p.table or "", p.seat or 0)):
        where = f"table {p.table} seat {p.seat}" if p.table else p.status
        out = f" place {p.place}" if p.place else ""
        lines.append(f"  {p.name or p.player} [{p.player}] {where} stack {p.stack:,}{out}")
    return lines
