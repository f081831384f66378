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

from clients.python import CommandRefused
from protocol.commands import StartHand
from tests.service.bots import Bot, Stations, read_table, setup_tables
from tests.service.conftest import ServerProcess, redis7_or_skip, token
from tests.service.failover_targets import ClusterShard, Shard, fill_backlog, wait_replicated
from tests.service.redis_cluster import LocalCluster
from tests.service.redis_sentinel import LocalSentinel
from tests.service.test_abuse import metric
from tests.service.test_chaos import (
    CONFIG,
    Room,
    acks_reached,
    finish,
    open_room,
    progress,
    total_acks,
    verify,
    wait_until,
)

T = "main"
NODE_TIMEOUT_MS = 1500
"""The cluster's node timeout: a primary unreachable this long is failed over (default 5 s)."""
PLAY_SECONDS = 80
BEFORE_KILL = 1_000  # acknowledged commands (all tables) before the kill
WARM_UP = 200  # acknowledged commands before the replica is stopped
AFTER = 25  # commands every bot plays after the failover


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


def retries(bots: list[Bot]) -> int:
    """Attempts sent again: after a refusal (``unavailable``), a timeout or a drop."""
    return sum(b.retries + b.client.resent for b in bots)


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


async def recover(
    shard: Shard, room: Room, acked: dict[str, dict[str, int]]
) -> tuple[float, dict[str, int]]:
    """Every bot is acknowledged again and plays on; then none of ``acked`` is lost, and
    ``verify`` (logs and stations) holds on the primary that serves now. The seconds until
    every bot was acknowledged again, and the numbers (with the answers ``duplicate``)."""
    recovery = await wait_until(progress(room.bots, 1), 45, "every bot acknowledged again")
    await wait_until(progress(room.bots, AFTER), 45, "every bot played on")
    await finish(room.bots)
    assert not await lost(shard, acked), "acknowledged commands lost by the failover"
    redis = shard.async_client()
    try:
        numbers = await verify(redis, room.bots, room.watchers)
    finally:
        await redis.aclose()
    numbers["duplicates"] = sum(1 for b in room.bots for s in b.sent if s.duplicate)
    return recovery, numbers


async def test_kill_9_of_the_tournaments_primary_fails_over_and_loses_nothing(
    shard: Shard, serve: Callable[..., ServerProcess], stations: Stations, playing: list[Bot]
) -> None:
    a, b = serve(), serve()
    room = await open_room(a, b, stations, 300, PLAY_SECONDS, playing)
    bots = room.bots
    await wait_until(acks_reached(bots, BEFORE_KILL), 60, "acknowledged commands before the kill")
    before = acknowledged(bots)
    in_hand = sum(1 for b in bots for s in b.sent if s.ack is None)
    sent_again = retries(bots)
    killed_at = time.monotonic()
    old = await asyncio.to_thread(shard.kill_primary)
    new = await asyncio.to_thread(shard.wait_promoted, old)
    promoted = time.monotonic() - killed_at
    recovery, numbers = await recover(shard, room, before)
    sent_again = retries(bots) - sent_again
    resent = sum(1 for b in bots for s in b.sent if s.attempts > 1)
    print(
        f"\n{type(shard).__name__}: kill -9 of the primary {old} after "
        f"{sum(len(v) for v in before.values())} acks with {in_hand} commands in hand; "
        f"{new} promoted {promoted:.2f}s after the kill; every bot acknowledged again "
        f"{promoted + recovery:.2f}s after the kill ({recovery:.2f}s after the promotion "
        f"seen); 0 of them lost; {total_acks(bots)} acks in all, {sent_again} attempts sent "
        f"again since the kill, {resent} commands sent more than once by their bot, "
        f"{numbers['duplicates']} answered 'duplicate'; {numbers['events']} events in 20 logs; "
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


def acked_after(bots: list[Bot], since: dict[str, Mark]) -> set[str]:
    """The ids of the commands sent after the mark and acknowledged."""
    return {s.id for b in bots for s in b.sent[since[b.table].sent :] if s.ack is not None}


async def stop_bots(bots: list[Bot]) -> None:
    """Cancel the bots (what they saw is no longer what Redis holds)."""
    for bot in bots:
        if bot.task is not None:
            bot.task.cancel()
    for bot in bots:
        if bot.task is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await bot.task


@dataclass
class Behind:
    """What happened while the replica was stopped and behind, up to its promotion."""

    acked: dict[str, dict[str, int]]
    """Every command acknowledged before the primary was killed."""
    while_stopped: set[str]
    """Those sent (or in hand) since just before the replica stopped."""
    while_behind: set[str]
    """Those sent after the replica was surely behind."""
    shortfalls: float
    summary: str


async def fall_behind_and_fail_over(
    shard: Shard, servers: list[ServerProcess], bots: list[Bot]
) -> Behind:
    """Stop the replica and put it behind; once every bot has been answered since, kill -9
    the primary, resume the replica and make it the primary."""
    await wait_until(acks_reached(bots, WARM_UP), 40, "acknowledged commands before the stop")
    short = await shortfalls(servers)
    at_stop = marks(bots, in_hand=True)  # it may commit after the stop
    await asyncio.to_thread(wait_replicated, shard)  # what was acknowledged before is on it
    stopped_at = time.monotonic()
    replica = await asyncio.to_thread(shard.pause_replica)
    filler = await asyncio.to_thread(fill_backlog, shard, T)
    behind = marks(bots, in_hand=False)  # only commands sent from now on are behind for sure
    await wait_until(every_bot_answered(bots, behind), 20, "every bot answered since")
    acked = acknowledged(bots)
    while_stopped = acked_after(bots, at_stop)
    while_behind = acked_after(bots, behind)
    resent = retries(bots) - sum(m.retries for m in behind.values())
    short = await shortfalls(servers) - short
    killed_at = time.monotonic()
    old = await asyncio.to_thread(shard.kill_primary)
    shard.resume(replica)
    await asyncio.to_thread(shard.promote, replica)
    new = await asyncio.to_thread(shard.wait_promoted, old)
    summary = (
        f"\n{type(shard).__name__}: replica {replica} stopped {killed_at - stopped_at:.2f}s "
        f"after {sum(len(v) for v in acked.values())} acks, {filler} bytes of filler put it "
        f"behind; {len(while_stopped)} commands acknowledged since just before the stop, "
        f"{len(while_behind)} of them sent after it was behind; {resent} attempts sent again "
        f"and {short:g} batches not acknowledged for want of a replica meanwhile; primary "
        f"{old} killed, {new} primary {time.monotonic() - killed_at:.2f}s later"
    )
    return Behind(acked, while_stopped, while_behind, short, summary)


async def test_without_wait_what_is_acknowledged_while_the_replica_is_behind_is_lost(
    shard: Shard, serve: Callable[..., ServerProcess], stations: Stations, playing: list[Bot]
) -> None:
    """``TABLEWIRE_WAIT_REPLICAS=0``: the other side of the line, and proof that the test
    sees a loss when there is one."""
    a, b = serve(TABLEWIRE_WAIT_REPLICAS="0"), serve(TABLEWIRE_WAIT_REPLICAS="0")
    room = await open_room(a, b, stations, 500, PLAY_SECONDS, playing)
    behind = await fall_behind_and_fail_over(shard, [a, b], room.bots)
    await stop_bots(room.bots)  # what they saw is no longer what Redis holds
    gone = {cid for table in (await lost(shard, behind.acked)).values() for cid in table}
    print(f"{behind.summary}; {len(gone)} acknowledged commands lost")
    assert behind.while_behind, "no command was acknowledged while the replica was behind"
    assert behind.shortfalls == 0, "commits waited for a replica"
    assert behind.while_behind <= gone, "acknowledged behind the replica, yet not lost"
    assert gone <= behind.while_stopped, "commands acknowledged before the stop were lost"


async def test_by_default_a_command_is_acknowledged_only_once_the_replica_has_it(
    shard: Shard, serve: Callable[..., ServerProcess], stations: Stations, playing: list[Bot]
) -> None:
    """``TABLEWIRE_WAIT_REPLICAS`` unset (auto: the primary has a replica, so 1)."""
    a, b = serve(), serve()
    room = await open_room(a, b, stations, 700, PLAY_SECONDS, playing)
    behind = await fall_behind_and_fail_over(shard, [a, b], room.bots)
    assert not behind.while_behind, f"acknowledged behind the replica: {behind.while_behind}"
    assert behind.shortfalls > 0, "no commit was refused for want of a replica"
    recovery, numbers = await recover(shard, room, behind.acked)
    print(
        f"{behind.summary}; every bot acknowledged again {recovery:.2f}s after that; 0 lost; "
        f"{total_acks(room.bots)} acks in all, {numbers['duplicates']} answered 'duplicate'; "
        f"{numbers['events']} events; {numbers['compared']} station events checked"
    )


@pytest.mark.parametrize("shard", ["sentinel"], indirect=True)
async def test_a_commit_its_replica_confirms_late_still_reaches_every_station(
    shard: Shard, serve: Callable[..., ServerProcess], stations: Stations, connect: Any
) -> None:
    """A command whose ``WAIT`` fell short is answered ``unknown_outcome`` and its events are
    held back; a dealer station that does not send it again (the browser's drops an unknown
    outcome) must not leave it unseen once the replica has it: the instance confirms it in the
    background and publishes it, and a display on the other instance gets it."""
    a, b = serve(TABLEWIRE_WAIT_TIMEOUT="0.5"), serve(TABLEWIRE_WAIT_TIMEOUT="0.5")
    await setup_tables(a.url, token("admin"), T, ["1"], CONFIG)
    display = await stations.open(b.url, token("display"), [(T, "1")])
    dealer = await connect(a, "dealer", table="1")
    replica = await asyncio.to_thread(shard.pause_replica)
    try:
        with pytest.raises(CommandRefused) as refused:
            await dealer.command(T, "1", StartHand(), patience=0.1)
        assert refused.value.error.code == "unknown_outcome"
        redis = shard.async_client()
        try:
            logged = await read_table(redis, T, "1")
        finally:
            await redis.aclose()
        assert logged.seq > 0, "the commit is on the primary"
        assert display.received.last("1") < logged.seq, "published before its replica had it"
    finally:
        shard.resume(replica)
    await display.received.wait_for(
        lambda: display.received.last("1") >= logged.seq, 20, "the late commit on B's display"
    )
    assert await metric(a.port, "tablewire_replica_shortfalls_total") >= 1
