"""Failover of the Redis primary that holds the tournament while bot dealers play 20 tables on
two instances (issue 14, acceptance 2), on a Redis Cluster of its own (3 primaries, 3
replicas) and on a primary with one replica behind three Sentinels.

- kill -9 of the primary: the replica is promoted by the cluster or the Sentinels, the
  instances follow by themselves, every command acknowledged before the kill is in its log at
  its acked seq (0 lost), none applied twice, and every station is handed every event exactly
  once, in order.
- Both sides of the ``WAIT`` line: the replica stopped (SIGSTOP) and made to fall behind, then
  the primary killed and the replica made primary. Without waiting for a replica
  (``TABLEWIRE_WAIT_REPLICAS=0``) the commands acknowledged meanwhile are lost; with the default
  (``auto``: 1 where the primary has a replica) they were answered ``unavailable``, sent again
  under the same id, and none is lost.

Each test makes its own Redis nodes (killing one must not disturb the other tests'); they skip
without Redis 7's binaries and fail without them under ``CI=true``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.service.bots import Bot, Station, Stations, dealer_bot, read_table, setup_tables
from tests.service.conftest import ServerProcess, redis7_or_skip, token
from tests.service.failover_targets import ClusterShard, Shard, fill_backlog
from tests.service.redis_cluster import LocalCluster
from tests.service.redis_sentinel import LocalSentinel
from tests.service.test_abuse import metric
from tests.service.test_chaos import (
    CONFIG,
    TABLES,
    acks_reached,
    finish,
    progress,
    total_acks,
    verify,
    wait_until,
)

T = "main"
NODE_TIMEOUT_MS = 1500
"""The cluster's node timeout: a primary unreachable this long is failed over (default 5 s)."""
PLAY_LIMIT = 2_000
PLAY_SECONDS = 80
BEFORE_KILL = 1_000  # acknowledged commands (all tables) before the kill
WARM_UP = 200  # acknowledged commands before the replica is stopped
AFTER = 25  # commands every bot plays after the failover

Watchers = dict[str, tuple[Station, list[str], bool]]


@pytest.fixture(params=["cluster", "sentinel"])
def shard(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Shard]:
    """Fresh Redis nodes holding the tournament: a cluster's or the Sentinels'."""
    server, cli = redis7_or_skip()
    made: Shard
    if request.param == "cluster":
        cluster = LocalCluster(tmp_path / "cluster", server, cli, node_timeout_ms=NODE_TIMEOUT_MS)
        made = ClusterShard(cluster, T)
    else:
        made = LocalSentinel(tmp_path / "sentinel", server)
    try:
        made.create()
        yield made
    finally:
        made.stop()


@pytest.fixture
def serve(shard: Shard, tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """``serve(NAME=value, ...)``: a ``tablewire serve`` on the shard's URL with that
    environment; its log is ``server-PORT.log`` in the test's directory."""
    started: list[ServerProcess] = []

    def start(**env: str) -> ServerProcess:
        server = ServerProcess(shard.url, tmp_path, env=env)
        started.append(server)
        return server.start()

    yield start
    for server in started:
        server.stop()


@pytest.fixture
async def playing(stations: Stations) -> AsyncIterator[list[Bot]]:
    """The test's bots; those still playing when it ends (it failed) are cancelled before
    their stations close."""
    bots: list[Bot] = []
    yield bots
    await stop_bots(bots)


@dataclass
class Room:
    """Twenty tables played by bot dealers on two instances, watched by displays on both and
    a floor station on B."""

    bots: list[Bot]
    watchers: Watchers

    def retries(self) -> int:
        """Attempts sent again: after a refusal (``unavailable``), a timeout or a drop."""
        return sum(b.retries + b.client.resent for b in self.bots)


async def open_room(
    a: ServerProcess, b: ServerProcess, stations: Stations, playing: list[Bot], seed: int
) -> Room:
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
    deadline = time.monotonic() + PLAY_SECONDS
    for bot in bots:
        bot.start(PLAY_LIMIT, deadline)
    playing += bots
    return Room(bots, watchers)


def acknowledged(bots: list[Bot]) -> dict[str, dict[str, int]]:
    """Each table's acknowledged commands so far: id -> the seq its ack named."""
    return {b.table: {s.id: s.ack for s in b.acked if s.ack is not None} for b in bots}


async def lost(shard: Shard, acked: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
    """The acknowledged commands the new primary does not have at their seq, by table."""
    redis = shard.async_client()
    try:
        missing = {}
        for table, commands in acked.items():
            log = await read_table(redis, T, table)
            gone = {cid: seq for cid, seq in commands.items() if log.commands.get(cid) != seq}
            if gone:
                missing[table] = gone
        return missing
    finally:
        await redis.aclose()


async def checked(shard: Shard, room: Room) -> dict[str, int]:
    """``verify`` (logs and stations) on the primary that serves now."""
    redis = shard.async_client()
    try:
        return await verify(redis, room.bots, room.watchers)
    finally:
        await redis.aclose()


async def test_kill_9_of_the_tournaments_primary_fails_over_and_loses_nothing(
    shard: Shard, serve: Callable[..., ServerProcess], stations: Stations, playing: list[Bot]
) -> None:
    a, b = serve(), serve()
    room = await open_room(a, b, stations, playing, 300)
    bots = room.bots
    await wait_until(acks_reached(bots, BEFORE_KILL), 60, "acknowledged commands before the kill")
    before = acknowledged(bots)
    in_hand = sum(1 for b in bots for s in b.sent if s.ack is None)
    retries = room.retries()
    killed_at = time.monotonic()
    old = await asyncio.to_thread(shard.kill_primary)
    new = await asyncio.to_thread(shard.wait_promoted, old)
    promoted = time.monotonic() - killed_at
    recovery = await wait_until(progress(bots, 1), 45, "every bot acknowledged again")
    recovered = time.monotonic() - killed_at
    await wait_until(progress(bots, AFTER), 45, "every bot played on")
    await finish(bots)

    assert not await lost(shard, before), "acknowledged commands lost by the failover"
    numbers = await checked(shard, room)
    duplicates = sum(1 for b in bots for s in b.sent if s.duplicate)
    resent = sum(1 for b in bots for s in b.sent if s.attempts > 1)
    print(
        f"\n{type(shard).__name__}: kill -9 of the primary {old} after "
        f"{sum(len(v) for v in before.values())} acks with {in_hand} commands in hand; "
        f"{new} promoted {promoted:.2f}s after the kill; every bot acknowledged again "
        f"{recovered:.2f}s after the kill ({recovery:.2f}s after the promotion seen); "
        f"0 of them lost; {total_acks(bots)} acks in all, {room.retries() - retries} attempts "
        f"sent again since the kill, {resent} commands sent more than once by their bot, "
        f"{duplicates} answered 'duplicate'; {numbers['events']} events in 20 logs; "
        f"{numbers['compared']} station events checked; reconnects: dealers "
        f"{sum(b.client.reconnects for b in bots)}, watchers "
        f"{sum(w[0].client.reconnects for w in room.watchers.values())}"
    )


@dataclass
class Mark:
    """Where a bot stood when the replica fell behind: commands sent so far, retries."""

    sent: int
    retries: int

    def answered_since(self, bot: Bot) -> bool:
        """A command sent after the mark was acknowledged, or one was refused or resent."""
        later = bot.sent[self.sent :]
        return any(s.ack is not None for s in later) or bot.retries + bot.client.resent > (
            self.retries
        )


def marks(bots: list[Bot], in_hand: bool) -> dict[str, Mark]:
    """Each bot's mark now; ``in_hand``: the command it is waiting on counts as after it."""
    return {b.table: Mark(len(b.sent) - in_hand, b.retries + b.client.resent) for b in bots}


async def shortfalls(servers: list[ServerProcess]) -> float:
    """Batches of commits the instances did not acknowledge: WAIT found too few replicas."""
    return sum([await metric(s.port, "tablewire_replica_shortfalls_total") for s in servers])


def every_bot_answered(bots: list[Bot], since: dict[str, Mark]) -> Any:
    def done() -> bool:
        return all(since[b.table].answered_since(b) for b in bots)

    done.bots = bots  # type: ignore[attr-defined]
    return done


def acked_after(bots: list[Bot], since: dict[str, Mark]) -> dict[str, dict[str, int]]:
    """The commands sent after the mark and acknowledged, by table."""
    return {
        b.table: {s.id: s.ack for s in b.sent[since[b.table].sent :] if s.ack is not None}
        for b in bots
    }


async def stop_bots(bots: list[Bot]) -> None:
    """Cancel the bots (what they saw is no longer what Redis holds)."""
    for bot in bots:
        if bot.task is not None:
            bot.task.cancel()
    for bot in bots:
        if bot.task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await bot.task


@pytest.mark.parametrize("wait", ["0", "auto"])
async def test_a_command_is_acknowledged_only_once_a_replica_has_it(
    shard: Shard,
    serve: Callable[..., ServerProcess],
    stations: Stations,
    playing: list[Bot],
    wait: str,
) -> None:
    env = {"TABLEWIRE_WAIT_REPLICAS": wait} if wait != "auto" else {}  # auto is the default
    a, b = serve(**env), serve(**env)
    room = await open_room(a, b, stations, playing, 500)
    bots = room.bots
    await wait_until(acks_reached(bots, WARM_UP), 40, "acknowledged commands before the stop")
    short = await shortfalls([a, b])
    at_stop = marks(bots, in_hand=True)  # it may commit after the stop
    stopped_at = time.monotonic()
    replica = await asyncio.to_thread(shard.pause_replica)
    filler = await asyncio.to_thread(fill_backlog, shard, T)
    behind = marks(bots, in_hand=False)  # only commands sent from now on are behind for sure
    await wait_until(every_bot_answered(bots, behind), 20, "every bot answered since")
    acked = acknowledged(bots)
    while_behind = acked_after(bots, behind)
    while_stopped = acked_after(bots, at_stop)
    refused = room.retries() - sum(m.retries for m in behind.values())
    short = await shortfalls([a, b]) - short
    killed_at = time.monotonic()
    old = await asyncio.to_thread(shard.kill_primary)
    shard.resume(replica)
    await asyncio.to_thread(shard.promote, replica)
    new = await asyncio.to_thread(shard.wait_promoted, old)
    promoted = time.monotonic() - killed_at
    window = f"{killed_at - stopped_at:.2f}s"
    count = sum(len(v) for v in while_behind.values())
    stopped = sum(len(v) for v in while_stopped.values())
    summary = (
        f"\n{type(shard).__name__}, TABLEWIRE_WAIT_REPLICAS={wait}: replica {replica} stopped "
        f"{window} after {sum(len(v) for v in acked.values())} acks, {filler} bytes of filler "
        f"put it behind; {stopped} commands acknowledged while it was stopped, {count} of "
        f"them after it was behind; {refused} attempts sent again and {short:g} batches not "
        f"acknowledged for want of a replica meanwhile; primary {old} "
        f"killed, {new} primary {promoted:.2f}s later"
    )

    if wait == "0":
        await stop_bots(bots)
        missing = await lost(shard, acked)
        gone = {cid for table in missing.values() for cid in table}
        print(f"{summary}; {len(gone)} acknowledged commands lost")
        assert count > 0, "no command was acknowledged while the replica was behind"
        assert short == 0, "commits waited for a replica"
        assert {cid for t in while_behind.values() for cid in t} <= gone, "some survived"
        assert gone <= {cid for t in while_stopped.values() for cid in t}, (
            "commands acknowledged before the replica stopped were lost"
        )
        return

    assert count == 0, f"commands acknowledged while the replica was behind: {while_behind}"
    assert short > 0, "no commit was refused for want of a replica"
    recovery = await wait_until(progress(bots, 1), 45, "every bot acknowledged again")
    await wait_until(progress(bots, AFTER), 45, "every bot played on")
    await finish(bots)
    assert not await lost(shard, acked), "acknowledged commands lost by the failover"
    numbers = await checked(shard, room)
    duplicates = sum(1 for b in bots for s in b.sent if s.duplicate)
    print(
        f"{summary}; every bot acknowledged again {recovery:.2f}s after that; 0 lost; "
        f"{total_acks(bots)} acks in all, {duplicates} answered 'duplicate'; "
        f"{numbers['events']} events; {numbers['compared']} station events checked"
    )
