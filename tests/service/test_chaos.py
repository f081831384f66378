"""Crash recovery while bot dealers play on 20 tables: kill -9 of a ``tablewire serve`` process,
then kill -9 of ``redis-server`` itself (restarted from its append-only file).

Every bot keeps each command's id and whether it was acknowledged, and retries an unanswered
command with the same id after its client reconnected by itself. Afterwards, from Redis: every
acknowledged command is in its table's log exactly once, at the seq its ack named; the log is
gapless and replays to the stored snapshot (nothing half-applied); and every station that was
watching was handed every event exactly once, in order, across its reconnections.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import Any

from tests.service.bots import (
    Bot,
    Station,
    Stations,
    check_log,
    check_received,
    dealer_bot,
    deep_config,
    http_get,
    read_table,
    setup_tables,
    wait_status,
)
from tests.service.conftest import ServerProcess, token

T = "main"
TABLES = [f"t{n:02d}" for n in range(1, 21)]
CONFIG = deep_config(seats=6)


PLAY_LIMIT = 2_000  # commands per bot, at most
PLAY_SECONDS = 75  # and at most this long
OUTAGE = 2.0  # seconds redis-server stays dead
KILLS = 2  # kill -9 of the server, twice
BEFORE_KILL = 1_000  # acknowledged commands (all tables) before each kill
AFTER = 25  # commands every bot plays after a restart


Watchers = dict[str, tuple[Station, list[str], bool]]


@dataclass
class Room:
    """Twenty tables played by bot dealers on two instances, watched by displays on both and
    a floor station on B."""

    bots: list[Bot]
    watchers: Watchers


async def open_room(
    a: ServerProcess,
    b: ServerProcess,
    stations: Stations,
    seed: int,
    seconds: float,
    playing: list[Bot] | None = None,
) -> Room:
    """The room on servers A and B, its bots playing for at most ``seconds`` (added to
    ``playing``, the caller's list of bots to stop)."""
    await setup_tables(a.url, token("admin"), T, TABLES, CONFIG)
    watchers: Watchers = {}
    for i, server in enumerate((a, b, a, b)):
        mine = TABLES[i * 5 : i * 5 + 5]
        station = await stations.open(server.url, token("display"), [(T, t) for t in mine])
        watchers[f"display {i} on {'AB'[i % 2]}"] = (station, mine, True)
    floor = await stations.open(b.url, token("floor"), [(T, None)])
    watchers["floor on B (tournament)"] = (floor, TABLES, False)
    bots = [
        await dealer_bot(
            stations, (a, b)[i % 2].url, token("dealer", table=t), T, t, CONFIG, seed + i
        )
        for i, t in enumerate(TABLES)
    ]
    deadline = time.monotonic() + seconds
    for bot in bots:
        bot.start(PLAY_LIMIT, deadline)
    if playing is not None:
        playing += bots
    return Room(bots, watchers)


def total_acks(bots: list[Bot]) -> int:
    return sum(len(b.acked) for b in bots)


async def wait_until(predicate: Any, timeout: float, what: str) -> float:
    """Poll ``predicate()`` every 20 ms; the seconds it took, or fail after ``timeout``."""
    started = time.monotonic()
    while not predicate():
        if time.monotonic() - started > timeout:
            raise AssertionError(f"timed out after {timeout}s: {what}")
        for bot in getattr(predicate, "bots", []):
            if bot.task is not None and bot.task.done() and bot.task.exception():
                raise bot.task.exception()  # type: ignore[misc]
        await asyncio.sleep(0.02)
    return time.monotonic() - started


def progress(bots: list[Bot], count: int) -> Any:
    """True once every bot has ``count`` more acknowledgements than now."""
    marks = {id(b): len(b.acked) + count for b in bots}

    def done() -> bool:
        return all(len(b.acked) >= marks[id(b)] for b in bots)

    done.bots = bots  # type: ignore[attr-defined]
    return done


def acks_reached(bots: list[Bot], count: int) -> Any:
    def done() -> bool:
        return total_acks(bots) >= count

    done.bots = bots  # type: ignore[attr-defined]
    return done


async def finish(bots: list[Bot]) -> None:
    """Stop the bots after the command each has in hand is acknowledged."""
    for bot in bots:
        bot.stop()
    await asyncio.wait_for(asyncio.gather(*(b.task for b in bots if b.task)), 60)


async def verify(
    redis: Any, bots: list[Bot], watchers: dict[str, tuple[Station, list[str], bool]]
) -> dict[str, int]:
    """The invariants of every table, and of every station watching it."""
    numbers = {"events": 0, "commands": 0, "compared": 0}
    for bot in bots:
        log = await read_table(redis, T, bot.table)
        counted = check_log(log, bot.sent, bot.table)
        numbers["events"] += counted["events"]
        numbers["commands"] += counted["commands"]
        for who, (station, tables, display) in watchers.items():
            if bot.table not in tables:
                continue
            await station.received.wait_for(
                lambda s=station, t=bot.table, n=log.seq: s.received.last(t) >= n,
                20,
                f"{who} to reach event {log.seq} of table {bot.table}",
            )
            numbers["compared"] += check_received(station.received, log, bot.table, display, who)
    for who, (station, _, _) in watchers.items():
        assert not station.received.snapshots, f"{who} was sent a snapshot"
    return numbers


async def test_kill_9_of_a_server_while_bots_play_loses_and_doubles_nothing(
    start_server, stations, aredis
) -> None:  # type: ignore[no-untyped-def]
    a, b = start_server(), start_server()
    await setup_tables(a.url, token("admin"), T, TABLES, CONFIG)
    watchers: dict[str, tuple[Station, list[str], bool]] = {}
    for i in range(4):  # displays on A, five tables each, one subscription per table
        mine = TABLES[i * 5 : i * 5 + 5]
        station = await stations.open(a.url, token("display"), [(T, t) for t in mine])
        watchers[f"display {i} on A"] = (station, mine, True)
    floor_a = await stations.open(a.url, token("floor"), [(T, t) for t in TABLES])
    watchers["floor on A (20 tables)"] = (floor_a, TABLES, False)
    floor_b = await stations.open(b.url, token("floor"), [(T, None)])
    watchers["floor on B (tournament)"] = (floor_b, TABLES, False)
    bots = [
        await dealer_bot(stations, a.url, token("dealer", table=t), T, t, CONFIG, 100 + i)
        for i, t in enumerate(TABLES)
    ]
    a_watchers = [w[0] for k, w in watchers.items() if "on A" in k]
    deadline = time.monotonic() + PLAY_SECONDS
    for bot in bots:
        bot.start(PLAY_LIMIT, deadline)

    kills = []
    for _ in range(KILLS):
        target = total_acks(bots) + BEFORE_KILL
        await wait_until(acks_reached(bots, target), 40, "more acknowledged commands")
        acked_before = total_acks(bots)
        in_hand = sum(1 for b in bots for s in b.sent if s.ack is None)
        killed_at = time.monotonic()
        a.kill()
        await asyncio.to_thread(a.start)  # same port; returns once /readyz answers 200
        restarted = time.monotonic() - killed_at
        recovery = await wait_until(progress(bots, 1), 30, "every bot acknowledged again")
        await wait_until(progress(bots, AFTER), 45, "every bot played on")
        kills.append(
            f"after {acked_before} acks with {in_hand} commands in hand: A back in "
            f"{restarted:.2f}s, every bot acknowledged again {recovery:.2f}s after that"
        )
    await finish(bots)

    numbers = await verify(aredis, bots, watchers)
    duplicates = sum(1 for b in bots for s in b.sent if s.duplicate)
    retried = sum(1 for b in bots for s in b.sent if s.attempts > 1)
    reconnects = {
        "dealers": sum(b.client.reconnects for b in bots),
        "watchers on A": sum(s.client.reconnects for s in a_watchers),
        "floor on B": floor_b.client.reconnects,
    }
    assert all(s.client.reconnects >= KILLS for s in [*a_watchers, *(b.station for b in bots)])
    assert floor_b.client.reconnects == 0
    assert all(s.ack is not None for b in bots for s in b.sent)
    print(
        f"\nkill -9 of A, {'; then '.join(kills)}. "
        f"{total_acks(bots)} commands acknowledged in all, {retried} sent more than once, "
        f"{duplicates} answered 'duplicate' (applied before the kill, ack lost); "
        f"{numbers['events']} events in 20 logs; {numbers['compared']} station events checked; "
        f"reconnects {reconnects}"
    )


async def test_kill_9_of_redis_loses_no_acknowledged_command_and_everyone_recovers(
    redis_server, start_server, stations, aredis
) -> None:  # type: ignore[no-untyped-def]
    a, b = start_server(), start_server()
    servers = {"A": a, "B": b}
    room = await open_room(a, b, stations, 200, PLAY_SECONDS)
    bots, watchers = room.bots, room.watchers

    await wait_until(acks_reached(bots, BEFORE_KILL), 40, "acknowledged commands before the kill")
    assert redis_server.process is not None
    redis_server.process.kill()
    redis_server.process.wait()
    killed_at = time.monotonic()
    before = {b.table: {s.id: s.ack for s in b.acked} for b in bots}
    retries = sum(b.retries for b in bots)
    not_ready = {name: await wait_status(s.port, "/readyz", 503, 10) for name, s in servers.items()}
    # A display signs in while Redis is down (its subscription cannot be served yet).
    late = await stations.open(b.url, token("display"), [(T, t) for t in TABLES[:5]])
    watchers["display signed in during the outage, on B"] = (late, TABLES[:5], True)
    # Redis stays down for OUTAGE seconds; the servers must say not ready all along.
    polls = 0
    while time.monotonic() - killed_at < OUTAGE:
        for server in servers.values():
            status, _ = await http_get(server.port, "/readyz")
            assert status == 503
            polls += 1
        await asyncio.sleep(0.05)
    failed = sum(b.retries for b in bots) - retries
    await asyncio.to_thread(redis_server.start)  # same port and directory: loads the AOF
    redis_back = time.monotonic() - killed_at
    ready = {name: await wait_status(s.port, "/readyz", 200, 20) for name, s in servers.items()}
    recovery = await wait_until(progress(bots, 1), 30, "every bot acknowledged again")
    await wait_until(progress(bots, AFTER), 45, "every bot played on")
    await finish(bots)

    for bot in bots:
        log = await read_table(aredis, T, bot.table)
        lost = {cid: seq for cid, seq in before[bot.table].items() if log.commands.get(cid) != seq}
        assert not lost, f"table {bot.table}: acknowledged commands lost by the restart: {lost}"
    numbers = await verify(aredis, bots, watchers)
    duplicates = sum(1 for b in bots for s in b.sent if s.duplicate)
    retried = sum(1 for b in bots for s in b.sent if s.attempts > 1)
    print(
        f"\nkill -9 of redis after {sum(len(v) for v in before.values())} acks; /readyz 503 "
        f"after {', '.join(f'{k} {v:.2f}s' for k, v in not_ready.items())}; {polls} polls said 503 "
        f"while it was down, {failed} command attempts failed; redis back after "
        f"{redis_back:.2f}s; /readyz 200 again "
        f"{', '.join(f'{k} {v:.2f}s' for k, v in ready.items())} later; "
        f"every bot acknowledged again {recovery:.2f}s after that; "
        f"{total_acks(bots)} acks in all, {retried} commands sent more than once, "
        f"{duplicates} answered 'duplicate'; {numbers['events']} events; "
        f"{numbers['compared']} station events checked; the display that signed in during the "
        f"outage reconnected {late.client.reconnects} times; reconnects: dealers "
        f"{sum(b.client.reconnects for b in bots)}, watchers "
        f"{sum(w[0].client.reconnects for w in watchers.values())}"
    )
