"""``tablewire demo``: a whole tournament in one command.

Starts the service with its embedded Redis and runs a tournament in it as a card room would,
sped up: a structure of 2-minute levels (a 1-minute break after level 3 colors up the 25s,
late registration and re-entry through level 3, nine places paid) in the game ``--game``
names — no-limit hold'em by default, any game a table deals, or H.O.R.S.E. and the 8-game mix
a level each (:mod:`clients.demo_structures`); its tables opened with the
tournament's ``open_table``; players registering — a few at once, the rest as late
registrations while the first hands are played, and a re-entry or two for players busted
early —; the clock started; a bot dealer at every table (:func:`clients.bots.deal_tables`) and
a floor bot (:class:`clients.bots.FloorBot`) that answers floor calls nobody answers, moves a
player left alone at a table to the fullest table with a free seat and colors the chips up at
the break. Eliminations, places and payouts follow from the hands, in the service.

It prints the URLs — with tokens — of a dealer station, the floor monitor, a table display,
the tournament clock and the TD station, then how many seconds after the process started a
display had the first entry, the clock running and the first hand. The token is in the URL's
fragment (``#token=``), which the browser never sends to a server nor in a Referer; the page
moves it into its session storage and takes it out of the address.

When a winner is crowned the demo keeps serving the finished tournament (its results stay on
the clock and the TD station); a demo started again on the same data dir plays on a tournament
left unfinished, and starts a new one (``demo-2``, ``demo-3`` ...) after a finished one.

The demo is a client of the service like any station: it lives here, not in ``server/``, and
the ``tablewire`` command finds it through the ``tablewire.commands`` entry point.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import math
import os
import random
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import anyio
import click
from anyio.abc import TaskGroup
from websockets.exceptions import ConnectionClosed

from clients.bots import NAMES, FloorBot, Style, deal_tables, event_of
from clients.demo_structures import GAMES, structure
from clients.python import Client, CommandRefused
from protocol.config import TableConfig
from protocol.events import HandStart
from protocol.tournament import OpenTable, Reenter, Register, StartClock, Structure
from protocol.wire import Clock, Events, ServerMessage, TournamentEvents, TournamentSnapshot
from server import logs, loop
from server.app import Settings, StartupError, load_secret, run
from server.tokens import Claims, Role, issue

LOADED = time.monotonic()
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
under-call, so the rulings and the floor calls show; at a table of its own (``table_config``)
new players sit down as others bust."""
DEALING = dataclasses.replace(LIVELY, players=0, all_in=0.005)
"""The demo's dealers: :data:`LIVELY` at the tournament's tables, where the tournament seats
the players."""


AT_ONCE = 18
"""Players registered before the clock starts; the others register late."""
LATE_EVERY = 0.25
"""Seconds between two late registrations."""
DESKS = 3
"""Registrations in flight at once: one whose drawn seat is at a table with a hand in play is
refused (``hand_in_play``) and sent again until its draw lands between hands."""
RETRY = 0.05
REENTRIES = 2
FIRST_NAMES = (*NAMES, "Mia", "Noah", "Omar", "Pia", "Quinn", "Rosa", "Sven", "Tara", "Uma")
LAST_NAMES = ("Lee", "Okafor", "Silva", "Novak", "Berg", "Costa", "Ito", "Khan", "Moreau", "Ruiz")


def _token(secret: bytes, role: Role, tournament: str, table: str | None = None) -> str:
    return issue(secret, Claims(role, tournament, int(time.time()) + DAY, table))


def table_config(rng: random.Random) -> TableConfig:
    """A table of its own for :data:`LIVELY`: seven of nine seats taken, stacks of 40 to 300
    big blinds (the bot's tests play on it)."""
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


def roster(players: int, seed: int) -> list[tuple[str, str]]:
    """The players who will register: an id and a name each, names all different."""
    rng = random.Random(seed)
    names = [f"{first} {last}" for first in FIRST_NAMES for last in LAST_NAMES]
    rng.shuffle(names)
    return [(f"p{n:03d}", names[n % len(names)]) for n in range(1, players + 1)]


def process_age() -> float:
    """Seconds since this process started (Linux's /proc; elsewhere since this module was
    loaded)."""
    try:
        with open("/proc/self/stat") as f:
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            uptime = float(f.read().split()[0])
        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return time.monotonic() - LOADED


async def _client(group: TaskGroup, url: str, token: str) -> Client:
    client = Client(url, token)
    await client.connect()
    group.start_soon(client.run)
    return client


# --- what a display is shown ------------------------------------------------------------------


class Watch:
    """What a display subscribed to the whole tournament has been shown, and when: seconds since
    the process ``started`` (a ``time.monotonic()``) of the first entry, the clock running and
    the first hand dealt. Its client is read by nobody else."""

    def __init__(self, started: float) -> None:
        self.started = started
        self.first: dict[str, float] = {}
        self.entries = 0
        self.players: dict[str, int] = {}
        """Player -> the current entry's number."""
        self.busted: list[str] = []
        """Players eliminated, in order (each entry once)."""
        self.tables: set[str] = set()
        self.clock = "not_started"
        self.closed = False
        """Registration closed."""
        self.winner = ""
        self.seen = anyio.Event()
        """The first tournament snapshot arrived."""
        self.shown = anyio.Event()
        """Entry, clock and hand: all three."""
        self.changed = anyio.Event()

    async def run(self, client: Client, tournament: str) -> None:
        await client.subscribe(tournament)
        async for message in client.messages():
            self.take(message)

    def take(self, message: ServerMessage) -> None:
        if isinstance(message, TournamentSnapshot):
            view = message.state
            self.entries = view.entries
            self.players = {p.player: p.entry for p in view.players if p.status != "alternate"}
            self.busted = [p.player for p in view.players if p.status == "eliminated"]
            self.tables = {t.table for t in view.tables}
            self.closed = not view.registration_open
            self._clock(view.clock.state)
            if view.finished:
                self.winner = next((p.name for p in view.players if p.place == 1), "?")
            self.seen.set()
        elif isinstance(message, TournamentEvents):
            for e in message.events:
                self._event(e)
        elif isinstance(message, Clock):
            self._clock(message.clock.state)
        elif isinstance(message, Events) and any(
            isinstance(event_of(raw), HandStart) for raw in message.events
        ):
            self._mark("hand")
        if self.entries:
            self._mark("entry")
        self.changed.set()
        self.changed = anyio.Event()

    def _event(self, e: dict[str, Any]) -> None:
        kind = e.get("type")
        if kind == "registered":
            self.entries += 1
            self.players[e["player"]] = e["entry"]
        elif kind == "unregistered":
            self.entries -= 1
        elif kind == "eliminated":
            self.busted.append(e["player"])
        elif kind == "registration_closed":
            self.closed = True
        elif kind == "table_opened":
            self.tables.add(e["table"])
        elif kind == "winner":
            self.winner = e.get("text") or e["player"]

    def _clock(self, state: str) -> None:
        self.clock = state
        if state != "not_started":
            self._mark("clock")

    def _mark(self, what: str) -> None:
        if what not in self.first:
            self.first[what] = time.monotonic() - self.started
            if len(self.first) == 3:
                self.shown.set()


# --- the registration desk -------------------------------------------------------------------


class Desk:
    """The TD's registration desk: the ``roster`` buys in, ``AT_ONCE`` of them before the clock
    starts and the others one every ``LATE_EVERY`` seconds after; the first players busted while
    re-entry is open re-enter (``REENTRIES`` in all). Players an earlier demo registered are
    skipped."""

    def __init__(
        self, admin: Client, tournament: str, players: list[tuple[str, str]], watch: Watch
    ) -> None:
        self.admin, self.tournament, self.players, self.watch = admin, tournament, players, watch
        self.desks = anyio.CapacityLimiter(DESKS)
        self.registered = {player for player, _ in players if player in watch.players}

    async def at_once(self) -> None:
        for player, name in self.players[:AT_ONCE]:
            if player not in self.watch.players and not self.watch.closed:
                await self._enter(Register(player=player, name=name))

    async def late(self) -> None:
        """The late registrations, and the re-entries meanwhile; returns when every player of
        the roster is in (or registration closed)."""
        async with anyio.create_task_group() as group:
            group.start_soon(self._reentries)
            async with anyio.create_task_group() as registering:
                for player, name in self.players[AT_ONCE:]:
                    if player in self.watch.players:
                        continue
                    await anyio.sleep(LATE_EVERY)
                    if self.watch.closed:
                        break
                    registering.start_soon(self._at_desk, Register(player=player, name=name))
            print(
                f"{len(self.registered)} of {len(self.players)} players registered "
                f"{time.monotonic() - self.watch.started:.1f} s after the demo started.",
                flush=True,
            )

    async def _reentries(self) -> None:
        ours = {player for player, _ in self.players}
        done = sum(entry - 1 for player, entry in self.watch.players.items() if player in ours)
        looked = 0
        while done < REENTRIES and not self.watch.closed:
            busted = self.watch.busted[looked:]
            looked += len(busted)
            for player in busted:
                if done < REENTRIES and player in ours and self.watch.players.get(player) == 1:
                    done += 1
                    async with self.desks:
                        if await self._enter(Reenter(player=player)) == "reentry_closed":
                            return
            await self.watch.changed.wait()

    async def _at_desk(self, command: Register) -> None:
        async with self.desks:
            await self._enter(command)

    async def _enter(self, command: Register | Reenter) -> str:
        """Send until applied, under one command id; the code of a refusal for good
        (``closed``, ``reentry_closed`` ...), or "" once in."""
        cid = self.admin.next_id()
        while True:
            try:
                await self.admin.tournament_command(self.tournament, command, command_id=cid)
            except CommandRefused as refused:
                code = refused.error.code
                if code == "registered":
                    self.registered.add(command.player)
                    return ""
                if code not in ("hand_in_play", "busy"):
                    return code
            except (TimeoutError, ConnectionError, ConnectionClosed):
                pass  # the outcome is unknown: the same id again
            else:
                self.registered.add(command.player)
                return ""
            await anyio.sleep(RETRY)


# --- the demo -------------------------------------------------------------------------------


async def _choose(url: str, secret: bytes, sheet: Structure) -> str:
    """The demo's tournament: a new one, or the one an earlier demo on this data dir left
    unfinished. A finished one — or one without a structure, of an older demo — is left as it
    is and the next id tried: ``demo-2``, ``demo-3`` ..."""
    for n in itertools.count(1):
        tournament = TOURNAMENT if n == 1 else f"{TOURNAMENT}-{n}"
        async with anyio.create_task_group() as group:
            admin = Client(url, _token(secret, "admin", tournament), reconnect=False)
            await admin.connect()
            group.start_soon(admin.run)
            try:
                if await _created_or_in_play(admin, tournament, sheet):
                    return tournament
            finally:
                await admin.close()
                group.cancel_scope.cancel()
    raise AssertionError("unreachable")


async def _created_or_in_play(admin: Client, tournament: str, sheet: Structure) -> bool:
    try:
        await admin.create_tournament(tournament, sheet.name, sheet)
        return True
    except CommandRefused as refused:
        if refused.error.code != "exists":
            raise
    await admin.subscribe(tournament)
    with anyio.move_on_after(5):
        async for message in admin.messages():
            if isinstance(message, TournamentSnapshot):
                return not message.state.finished
            if not isinstance(message, Clock):
                return False  # a table's events came first: a tournament without a clock
    return False


async def demo(
    settings: Settings, sheet: Structure, tables: int, players: int, pace: float, seed: int
) -> None:
    """Serve, and run the tournament until the server stops (SIGINT, SIGTERM)."""
    started = time.monotonic() - process_age()
    up = asyncio.Event()
    server = asyncio.get_running_loop().create_task(run(settings, up))
    waiting = asyncio.get_running_loop().create_task(up.wait())
    await asyncio.wait({server, waiting}, return_when=asyncio.FIRST_COMPLETED)
    if server.done():
        waiting.cancel()
        server.result()  # it could not start: StartupError
    secret = load_secret(settings)
    url = f"ws://{settings.host}:{settings.port}/"
    tournament = await _choose(url, secret, sheet)
    async with anyio.create_task_group() as group:
        watch = Watch(started)
        display = await _client(group, url, _token(secret, "display", tournament))
        group.start_soon(watch.run, display, tournament)
        await watch.seen.wait()
        admin = await _client(group, url, _token(secret, "admin", tournament))
        opened = set(watch.tables)  # by an earlier demo on this data dir
        for table in map(str, range(1, tables + 1)):
            if table not in opened:
                await admin.tournament_command(
                    tournament, OpenTable(table=table, seats=sheet.table_size)
                )
                opened.add(table)
        names = sorted(opened, key=lambda t: (len(t), t))
        # The tables as they open (the level in force, no one seated), dealt four to a client.
        first_level = sheet.levels[0].level
        config = TableConfig(
            game=sheet.game,
            blinds=first_level.blinds,
            ante=first_level.ante,
            min_bet=first_level.min_bet,
            bring_in=first_level.bring_in,
            seats={},
            button=1,
            chips=sheet.chips,
        )
        for first in range(0, len(names), 4):
            dealer = await _client(group, url, _token(secret, "floor", tournament))
            chunk = dict.fromkeys(names[first : first + 4], config)
            deal = partial(deal_tables, seed=seed + first, pace=pace, style=DEALING)
            group.start_soon(deal, dealer, tournament, chunk)
        floor = await _client(group, url, _token(secret, "floor", tournament))
        group.start_soon(FloorBot(floor, tournament, moves=True, chips=sheet.chips).run)
        desk = Desk(admin, tournament, roster(players, seed), watch)
        await desk.at_once()
        if watch.clock == "not_started":
            with contextlib.suppress(CommandRefused):
                await admin.tournament_command(tournament, StartClock())
        _print_urls(settings, secret, tournament)
        group.start_soon(desk.late)
        group.start_soon(_report, watch)
        await asyncio.shield(server)
        group.cancel_scope.cancel()


async def _report(watch: Watch) -> None:
    await watch.shown.wait()
    first = watch.first
    print(
        f"On the display {max(first.values()):.1f} s after the demo started: the first entry "
        f"at {first['entry']:.1f} s, the clock running at {first['clock']:.1f} s, the first "
        f"hand dealt at {first['hand']:.1f} s.",
        flush=True,
    )
    while not watch.winner:
        await watch.changed.wait()
    print(f"{watch.winner}. The finished tournament stays on the stations.", flush=True)


def _print_urls(settings: Settings, secret: bytes, tournament: str) -> None:
    base = f"http://{settings.host}:{settings.port}"
    query = f"tournament={tournament}"

    def page(name: str, role: Role, table: str | None = None) -> str:
        where = f"&table={table}" if table else ""
        return f"{base}/{name}.html?{query}{where}#token={_token(secret, role, tournament, table)}"

    print()
    print(f"Tablewire demo: tournament {tournament} is playing.")
    print(f"  Tournament clock:         {page('clock', 'display')}")
    print(f"  TD station:               {page('td', 'admin')}")
    print(f"  Floor monitor:            {page('floor', 'floor')}")
    print(f"  Dealer station (table 1): {page('dealer', 'dealer', '1')}")
    print(f"  Table display (table 1):  {page('display', 'display', '1')}")
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
@click.option(
    "--players",
    type=click.IntRange(2, 900),
    default=66,
    show_default=True,
    help="Players who register (plus two re-entries).",
)
@click.option(
    "--tables",
    type=click.IntRange(1, 100),
    default=None,
    help="Tables opened  [default: enough for the players and re-entries].",
)
@click.option(
    "--pace", type=float, default=0.6, show_default=True, help="Seconds between a bot's actions."
)
@click.option("--seed", type=int, default=2026, show_default=True)
@click.option(
    "--game",
    type=click.Choice(GAMES),
    default="NLHE",
    show_default=True,
    help="The game dealt, or a mix of them a level each (HORSE, 8GAME).",
)
def command(
    host: str,
    port: int,
    data_dir: Path,
    players: int,
    tables: int | None,
    pace: float,
    seed: int,
    game: str,
) -> None:
    """Start the service, run a whole tournament in it with bot dealers and print the stations'
    URLs."""
    sheet = structure(game)
    size = sheet.table_size
    tables = tables or math.ceil((players + REENTRIES) / size)
    if tables * size < players + REENTRIES:
        raise click.BadParameter(
            f"{tables} tables seat {tables * size}: too few for {players} players and "
            f"{REENTRIES} re-entries",
            param_hint="--tables",
        )
    logs.setup("WARNING")
    static = Path(__file__).resolve().parent / "web"
    settings = Settings(
        host=host, port=port, data_dir=data_dir, static_dir=static if static.is_dir() else None
    )
    try:
        with contextlib.suppress(KeyboardInterrupt):
            loop.run(demo(settings, sheet, tables, players, pace, seed))
    except StartupError as exc:
        click.echo(f"tablewire demo: {exc}", err=True)
        sys.exit(1)
