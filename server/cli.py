"""The ``tablewire`` command: replay a scenario or hand history (and, later, serve)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from protocol import ProtocolError, Scenario, decode_scenario, encode_event
from server.replay import check_seats, run_scenario


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


if __name__ == "__main__":
    main()
