"""The ``tablewire`` command: replay a scenario or hand history, serve, issue and revoke
tokens; and the subcommands other packages add (the demo, in ``clients/``)."""

from __future__ import annotations

import contextlib
import importlib.metadata
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
import msgspec

from protocol import Event, ProtocolError, Scenario, decode_scenario, encode_event
from protocol.tournament import decode_tournament_scenario, is_tournament_scenario
from server.archive_script import seconds
from server.tokens import Role

if TYPE_CHECKING:
    from server.hand_record import HandRecord

# The engine (and the hand tables it builds on import, half a second) is imported by the
# commands that play hands, not here: ``tablewire serve`` binds its port first.
COMMANDS = "tablewire.commands"
"""The entry-point group of the subcommands other packages add (``tablewire demo`` is
``clients.demo``'s): the service names none of its clients."""


class _Commands(click.Group):
    """The commands defined here, then those of the ``COMMANDS`` entry points, each imported
    only when it is run or listed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        added = {entry.name for entry in importlib.metadata.entry_points(group=COMMANDS)}
        return sorted({*super().list_commands(ctx), *added})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            return found
        for entry in importlib.metadata.entry_points(group=COMMANDS, name=cmd_name):
            command = entry.load()
            if isinstance(command, click.Command):
                return command
        return None


@click.group(cls=_Commands)
def main() -> None:
    """Tablewire: TDA rulings for every station at a live poker table."""


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay(file: Path) -> None:
    """Replay FILE (a JSON scenario, a PHH .phh/.phhs hand history, or an archived hand's file),
    one JSON event per line.

    A scenario with a top-level ``structure`` is a tournament's: its table events are printed
    as ``{"table": id, "event": {...}}``. An archived hand (``tablewire hand``, the hand files)
    is played again from the table before it."""
    from server.hand_record import is_hand_document
    from server.replay import run_scenario

    if file.suffix not in (".phh", ".phhs") and is_hand_document(file.read_bytes()):
        _replay_hand(file)
        return
    if file.suffix not in (".phh", ".phhs") and is_tournament_scenario(file.read_bytes()):
        _replay_tournament(file)
        return
    for scenario in _scenarios(file):
        _print_events(run_scenario(scenario))


def _replay_hand(file: Path) -> None:
    from server.hand_record import decode as decode_hand
    from server.hand_record import replay as replay_hand

    try:
        record = decode_hand(file.read_bytes())
    except msgspec.DecodeError as exc:
        click.echo(f"tablewire replay: {file}: {exc}", err=True)
        sys.exit(2)
    if record.state is None:
        click.echo(f"tablewire replay: {file}: the table before the hand is not archived", err=True)
        sys.exit(2)
    _print_events(replay_hand(record))


def _print_events(events: list[Event]) -> None:
    out = sys.stdout.buffer
    for event in events:
        out.write(encode_event(event) + b"\n")
    out.flush()


def _replay_tournament(file: Path) -> None:
    from server.tournament_replay import encode_line, run_tournament

    try:
        scenario = decode_tournament_scenario(file.read_bytes())
        lines = run_tournament(scenario)
    except ProtocolError as exc:
        click.echo(f"tablewire replay: {file}: {exc}", err=True)
        sys.exit(2)
    out = sys.stdout.buffer
    for line in lines:
        out.write(encode_line(line) + b"\n")
    out.flush()


def _scenarios(file: Path) -> list[Scenario]:
    if file.suffix in (".phh", ".phhs"):
        from server import phh

        found: list[Scenario] = []
        for label, item in phh.scenarios_from_file(file):
            if isinstance(item, Scenario):
                found.append(item)
            else:
                click.echo(f"skipped {label}: {item}", err=True)
        return found
    from server.replay import check_seats

    try:
        scenario = decode_scenario(file.read_bytes())
        check_seats(scenario)
        return [scenario]
    except ProtocolError as exc:
        click.echo(f"tablewire replay: {file}: {exc}", err=True)
        sys.exit(2)


ROLES: dict[str, Role] = {
    "dealer": "dealer",
    "floor": "floor",
    "display": "display",
    "admin": "admin",
}


def _secret_options(command: Callable[..., None]) -> Callable[..., None]:
    """The token secret comes from a file or the environment, never the command line (where
    ``ps`` shows it to every user of the machine)."""
    command = click.option(
        "--secret-file",
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        default=lambda: os.environ.get("TABLEWIRE_SECRET_FILE"),
        help="File holding the token secret (or TABLEWIRE_SECRET; default: kept in the data dir).",
    )(command)
    return click.option(
        "--secret",
        hidden=True,
        expose_value=False,
        callback=_no_secret_on_the_command_line,
    )(command)


def _no_secret_on_the_command_line(ctx: click.Context, param: click.Parameter, value: Any) -> None:
    if value is not None:
        raise click.BadParameter(
            "a secret on the command line is visible to every user in `ps`: put it in a file "
            "(--secret-file) or in TABLEWIRE_SECRET",
            ctx,
            param,
        )


def _secret(secret_file: Path | None) -> str | None:
    if secret_file is not None:
        text = secret_file.read_text().strip()
        if not text:
            raise click.UsageError(f"the secret file {secret_file} is empty")
        return text
    return os.environ.get("TABLEWIRE_SECRET") or None


def _seconds(text: str, ctx: click.Context, param: click.Parameter) -> int:
    try:
        return seconds(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a duration (30d, 12h, 45m, 90s)") from None


@main.command()
@click.option(
    "--host",
    default=lambda: os.environ.get("TABLEWIRE_HOST", "127.0.0.1"),
    show_default="127.0.0.1",
)
@click.option(
    "--port",
    type=int,
    default=lambda: int(os.environ.get("TABLEWIRE_PORT", "8765")),
    show_default="8765",
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=lambda: os.environ.get("TABLEWIRE_DATA", "data"),
    show_default="data",
    help="Embedded Redis data, AOF and the token secret.",
)
@click.option(
    "--redis-url",
    default=lambda: os.environ.get("REDIS_URL"),
    help="Use this Redis (default: embedded).",
)
@_secret_options
@click.option(
    "--name",
    default=lambda: os.environ.get("TABLEWIRE_NAME", "tablewire"),
    help="This instance's name.",
)
@click.option(
    "--fsync", type=click.Choice(["always", "everysec"]), default="always", show_default=True
)
@click.option(
    "--allow-origin",
    "allow_origin",
    multiple=True,
    default=lambda: [o for o in os.environ.get("TABLEWIRE_ALLOWED_ORIGINS", "").split(",") if o],
    help="A web origin (https://host[:port], or *) whose pages may open a websocket, besides "
    "the server's own; repeat for more.",
)
@click.option(
    "--max-unsigned",
    type=click.IntRange(1),
    default=lambda: int(os.environ.get("TABLEWIRE_MAX_UNSIGNED", "256")),
    show_default="256",
    help="Connections waiting to sign in, in all; more are refused (503).",
)
@click.option(
    "--max-unsigned-per-address",
    type=click.IntRange(1),
    default=lambda: int(os.environ.get("TABLEWIRE_MAX_UNSIGNED_PER_ADDRESS", "16")),
    show_default="16",
    help="Connections waiting to sign in from one remote address.",
)
@click.option(
    "--hello-timeout",
    type=click.FloatRange(0.1),
    default=lambda: float(os.environ.get("TABLEWIRE_HELLO_TIMEOUT", "3")),
    show_default="3",
    help="Seconds a connection has to upgrade and send its hello.",
)
@click.option(
    "--archive-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=lambda: os.environ.get("TABLEWIRE_ARCHIVE_DIR"),
    help="Where every finished hand is written, one file a hand (default: <data dir>/hands).",
)
@click.option(
    "--hand-keep",
    default=lambda: os.environ.get("TABLEWIRE_HAND_KEEP", "0"),
    callback=lambda ctx, param, value: _seconds(value, ctx, param),
    show_default="0: for ever",
    help="How long Redis keeps an archived hand: 30d, 12h ... (the files stay).",
)
@click.option(
    "--wait-replicas",
    default=lambda: os.environ.get("TABLEWIRE_WAIT_REPLICAS", "auto"),
    show_default="auto: 1 where the primary has a replica",
    help="Replicas that must hold a commit before it is acknowledged (Redis WAIT): auto or N.",
)
@click.option(
    "--wait-timeout",
    type=click.FloatRange(min=0.001),
    default=lambda: float(os.environ.get("TABLEWIRE_WAIT_TIMEOUT", "2")),
    show_default="2",
    help="Seconds a commit waits for its replicas before it is answered unavailable.",
)
@click.option(
    "--heartbeat",
    type=click.FloatRange(min=0.1),
    default=lambda: float(os.environ.get("TABLEWIRE_HEARTBEAT", "15")),
    show_default="15",
    help="Seconds between keepalive pings to a station; one unanswered for as long closes it"
    " (1011). Stations are told it in their welcome.",
)
def serve(
    host: str,
    port: int,
    data_dir: Path,
    redis_url: str | None,
    secret_file: Path | None,
    name: str,
    fsync: str,
    allow_origin: tuple[str, ...],
    max_unsigned: int,
    max_unsigned_per_address: int,
    hello_timeout: float,
    archive_dir: Path | None,
    hand_keep: int,
    wait_replicas: str,
    wait_timeout: float,
    heartbeat: float,
) -> None:
    """Run the real-time service (embedded redis-server unless --redis-url / REDIS_URL)."""
    if wait_replicas != "auto" and not wait_replicas.isdigit():
        raise click.BadParameter("auto or a number of replicas", param_hint="--wait-replicas")
    # The hand archive's and the replicas' settings reach the service through the environment.
    os.environ["TABLEWIRE_ARCHIVE_DIR"] = str(archive_dir or data_dir / "hands")
    os.environ["TABLEWIRE_HAND_KEEP"] = str(hand_keep)
    os.environ["TABLEWIRE_WAIT_REPLICAS"] = wait_replicas
    os.environ["TABLEWIRE_WAIT_TIMEOUT"] = repr(wait_timeout)
    from server import descriptors, logs

    logs.setup()
    # Listening before the service is imported: a room of stations coming back waits in the
    # backlog for readiness instead of being refused (``server.descriptors``).
    descriptors.raise_open_files_limit()
    try:
        listening = descriptors.listen(host, port)
    except OSError as exc:
        why = exc.strerror or exc
        click.echo(f"tablewire serve: cannot listen on {host}:{port}: {why}", err=True)
        sys.exit(1)
    from server import loop
    from server.app import Settings, StartupError, run

    static = Path(__file__).resolve().parents[1] / "clients" / "web"
    settings = Settings(
        host=host,
        port=port,
        data_dir=data_dir,
        redis_url=redis_url,
        secret=_secret(secret_file),
        name=name,
        fsync=fsync,
        static_dir=static if static.is_dir() else None,
        allowed_origins=tuple(o.strip().rstrip("/") for o in allow_origin),
        max_unsigned=max_unsigned,
        max_unsigned_per_address=max_unsigned_per_address,
        hello_timeout=hello_timeout,
        heartbeat=heartbeat,
    )
    try:
        loop.run(run(settings, listening=listening))
    except StartupError as exc:
        click.echo(f"tablewire serve: {exc}", err=True)
        sys.exit(1)


@main.group(invoke_without_command=True)
@click.option("--role", type=click.Choice(["dealer", "floor", "display", "admin"]))
@click.option("--tournament", help="Tournament id ('*' for an admin of all).")
@click.option(
    "--table", default=None, help="Table id (required for a dealer; confines any role to it)."
)
@click.option("--ttl", default="12h", show_default=True, help="Lifetime: 30m, 12h, 2d ...")
@click.option("--delay", type=float, default=0.0, help="Display delay in seconds.")
@click.option(
    "--name", default="", help="Who holds the token: the floor's rulings say 'ruled by NAME'."
)
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=lambda: os.environ.get("TABLEWIRE_DATA", "data"),
)
@_secret_options
@click.pass_context
def token(
    ctx: click.Context,
    role: str | None,
    tournament: str | None,
    table: str | None,
    ttl: str,
    delay: float,
    name: str,
    data_dir: Path,
    secret_file: Path | None,
) -> None:
    """Issue a signed station token: the token on stdout, its id (for `tablewire token revoke
    ID`) on stderr."""
    if ctx.invoked_subcommand is not None:
        return
    if role is None or tournament is None:
        raise click.UsageError("a token needs --role and --tournament")
    from server.app import Settings, load_secret
    from server.tokens import Claims, issue, new_id

    if len(name.strip()) > 80:
        raise click.UsageError("--name is at most 80 characters")
    key = load_secret(Settings(data_dir=data_dir, secret=_secret(secret_file)))
    claims = Claims(
        role=ROLES[role],
        tournament=tournament,
        table=table,
        exp=int(time.time()) + seconds(ttl),
        delay=delay,
        id=new_id(),
        name=name.strip(),
    )
    try:
        click.echo(issue(key, claims))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"token id {claims.id} (revoke with: tablewire token revoke {claims.id})", err=True)


def _redis_options(command: Callable[..., None]) -> Callable[..., None]:
    """``--data-dir`` and ``--redis-url``: which Redis a command reads or writes (``_redis``)."""
    command = click.option(
        "--redis-url",
        default=lambda: os.environ.get("REDIS_URL"),
        help="The Redis the servers use (default: the embedded one of --data-dir).",
    )(command)
    return click.option(
        "--data-dir",
        type=click.Path(file_okay=False, path_type=Path),
        default=lambda: os.environ.get("TABLEWIRE_DATA", "data"),
        help="The embedded Redis's data dir (when no --redis-url / REDIS_URL).",
    )(command)


@token.command()
@click.argument("token_id")
@_redis_options
def revoke(token_id: str, data_dir: Path, redis_url: str | None) -> None:
    """Revoke the token whose id is TOKEN_ID (printed when it was issued). Every server refuses
    it within a second and closes the stations signed in with it (4003)."""
    import asyncio

    from server.admission import REVOKED
    from server.redis_connect import connect

    if not token_id or len(token_id) > 64:
        raise click.UsageError("TOKEN_ID is the id printed with the token")

    async def revoke_in(url: str) -> bool:
        client = connect(url, 2)
        try:
            return bool(await client.hsetnx(REVOKED, token_id, int(time.time())))
        finally:
            await client.aclose()

    with _redis(data_dir, redis_url) as url:
        added = asyncio.run(revoke_in(url))
    click.echo(f"token {token_id} {'revoked' if added else 'was revoked already'}")


@contextlib.contextmanager
def _redis(data_dir: Path, redis_url: str | None) -> Iterator[str]:
    """The URL of the Redis the servers use: ``redis_url``, the running server's embedded one
    of ``data_dir``, or that one started for the command and stopped after it."""
    from server.embedded_redis import DataDirInUse, EmbeddedRedis, lock_data_dir, running_url

    url = redis_url or running_url(data_dir / "redis")
    with contextlib.ExitStack() as started:
        if url is None:
            # No server runs on this data dir: its Redis is started for the command, and stopped.
            try:
                started.enter_context(lock_data_dir(data_dir))
            except DataDirInUse as exc:
                raise click.ClickException(f"{exc}, and its Redis does not answer") from None
            embedded = EmbeddedRedis(data_dir / "redis")
            started.callback(embedded.stop)
            embedded.start()
            url = embedded.url
        yield url


@main.command()
@click.argument("tournament")
@click.argument("table")
@click.argument("number", metavar="HAND", type=click.IntRange(1))
@click.option("--phh", is_flag=True, help="Print the hand's PHH hand history instead.")
@_redis_options
@click.option(
    "--archive-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=lambda: os.environ.get("TABLEWIRE_ARCHIVE_DIR"),
    help="The servers' hand files, read when Redis no longer has the hand "
    "(default: <data dir>/hands).",
)
def hand(
    tournament: str,
    table: str,
    number: int,
    phh: bool,
    data_dir: Path,
    redis_url: str | None,
    archive_dir: Path | None,
) -> None:
    """Print hand HAND (its number) of TABLE in TOURNAMENT as archived (the hand file format:
    one JSON document, which `tablewire replay` reads), or its PHH with --phh."""
    import asyncio

    from server.archive import fetch_hand
    from server.hand_record import encode
    from server.redis_connect import connect

    async def fetch(url: str) -> HandRecord | None:
        client = connect(url, 2)
        try:
            directory = archive_dir or data_dir / "hands"
            return await fetch_hand(client, tournament, table, number, directory)
        finally:
            await client.aclose()

    with _redis(data_dir, redis_url) as url:
        record = asyncio.run(fetch(url))
    if record is None:
        raise click.ClickException(f"table {table} of {tournament} has no archived hand {number}")
    if not phh:
        click.echo(encode(record).decode())
    elif record.phh:
        click.echo(record.phh, nl=False)
    else:
        raise click.ClickException(f"hand {number} has no PHH: {record.phh_refused}")


if __name__ == "__main__":
    main()
