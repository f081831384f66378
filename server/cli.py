"""The ``tablewire`` command: replay a scenario or hand history (and, later, serve)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import click

from protocol import ProtocolError, Scenario, decode_scenario, encode_event
from server.replay import check_seats, run_scenario
from server.tokens import Role


@click.group()
def main() -> None:
    """Tablewire: TDA rulings for every station at a live poker table."""


@main.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay(file: Path) -> None:
    """Replay FILE (a JSON scenario, or a PHH .phh/.phhs hand history), one JSON event per line."""
    for scenario in _scenarios(file):
        out = sys.stdout.buffer
        for event in run_scenario(scenario):
            out.write(encode_event(event) + b"\n")
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


def _duration(text: str) -> int:
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    if text[-1:] in units:
        return int(float(text[:-1]) * units[text[-1]])
    return int(text)


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
@click.option(
    "--secret",
    default=lambda: os.environ.get("TABLEWIRE_SECRET"),
    help="Token secret (default: data dir).",
)
@click.option(
    "--name",
    default=lambda: os.environ.get("TABLEWIRE_NAME", "tablewire"),
    help="This instance's name.",
)
@click.option(
    "--fsync", type=click.Choice(["always", "everysec"]), default="always", show_default=True
)
def serve(
    host: str,
    port: int,
    data_dir: Path,
    redis_url: str | None,
    secret: str | None,
    name: str,
    fsync: str,
) -> None:
    """Run the real-time service (embedded redis-server unless --redis-url / REDIS_URL)."""
    from server import logs, loop
    from server.app import Settings, run

    logs.setup()
    static = Path(__file__).resolve().parents[1] / "clients" / "web"
    settings = Settings(
        host=host,
        port=port,
        data_dir=data_dir,
        redis_url=redis_url,
        secret=secret,
        name=name,
        fsync=fsync,
        static_dir=static if static.is_dir() else None,
    )
    loop.run(run(settings))


@main.command()
@click.option("--role", type=click.Choice(["dealer", "floor", "display", "admin"]), required=True)
@click.option("--tournament", required=True, help="Tournament id ('*' for an admin of all).")
@click.option("--table", default=None, help="Table id (required for a dealer).")
@click.option("--ttl", default="12h", show_default=True, help="Lifetime: 30m, 12h, 2d ...")
@click.option("--delay", type=float, default=0.0, help="Display delay in seconds.")
@click.option(
    "--data-dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=lambda: os.environ.get("TABLEWIRE_DATA", "data"),
)
@click.option("--secret", default=lambda: os.environ.get("TABLEWIRE_SECRET"))
def token(
    role: str,
    tournament: str,
    table: str | None,
    ttl: str,
    delay: float,
    data_dir: Path,
    secret: str | None,
) -> None:
    """Issue a signed station token."""
    from server.app import Settings, load_secret
    from server.tokens import Claims, issue

    key = load_secret(Settings(data_dir=data_dir, secret=secret))
    claims = Claims(
        role=ROLES[role],
        tournament=tournament,
        table=table,
        exp=int(time.time()) + _duration(ttl),
        delay=delay,
    )
    try:
        click.echo(issue(key, claims))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


@main.command()
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
def demo(host: str, port: int, data_dir: Path, tables: int, pace: float, seed: int) -> None:
    """Start the service with bot dealers on N tables and print the stations' URLs."""
    from server import demo as demo_module
    from server import logs

    logs.setup("WARNING")
    demo_module.main(host, port, data_dir, tables, pace, seed)


if __name__ == "__main__":
    main()
