"""Events by sharded pub/sub (Redis 7), on one Redis 7 and on the local Redis Cluster: an
instance subscribes to a tournament's channel only while one of its stations watches that
tournament and drops it when the last one leaves; every event still reaches every station
exactly once and in order, across instances, and across the loss of the cluster node that
serves the tournament (kill -9 of its primary: its replica takes over)."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from redis import Redis
from redis.asyncio import Redis as AsyncRedis

from server.embedded_redis import EmbeddedRedis
from server.fanout import Fanout, Frame, Key
from server.keys import Published, channel
from server.redis_connect import connect
from server.store import Store
from tests.service.bots import (
    Stations,
    check_received,
    dealer_bot,
    deep_config,
    play,
    read_table,
    setup_tables,
    wait_status,
)
from tests.service.conftest import ServerProcess, local_cluster, redis7_or_skip, token
from tests.service.redis_cluster import PASSWORD, LocalCluster

CONFIG = deep_config(seats=6)


class Target:
    """Where the servers' Redis is, and how many of them subscribe to a tournament."""

    def __init__(self, url: str, cluster: LocalCluster | None, password: str) -> None:
        self.url, self.cluster, self.password = url, cluster, password

    def node_of(self, tournament: str) -> tuple[int, subprocess.Popen[bytes] | None]:
        """The port of the Redis serving the tournament's channel (and its process)."""
        if self.cluster is None:
            return int(self.url.rsplit(":", 1)[1].split("/")[0]), None
        with self.cluster.client() as client:
            node = client.get_node_from_key(channel(tournament))
            port = int(node.port)
        return port, self.cluster.processes[self.cluster.ports.index(port)]

    def subscribers(self, tournament: str) -> int:
        port, _ = self.node_of(tournament)
        with Redis("127.0.0.1", port, password=self.password) as node:
            _, count = node.execute_command("PUBSUB", "SHARDNUMSUB", channel(tournament))
        return int(count)

    async def wait_subscribers(self, tournament: str, count: int, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while (found := await asyncio.to_thread(self.subscribers, tournament)) != count:
            assert time.monotonic() < deadline, f"{tournament}: {found} subscribers, not {count}"
            await asyncio.sleep(0.05)


@pytest.fixture(params=["redis7", "cluster"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Target]:
    """One Redis 7 (not a cluster), or the local Redis Cluster."""
    if request.param == "cluster":
        cluster = local_cluster(request)
        yield Target(cluster.url, cluster, PASSWORD)
        return
    server = EmbeddedRedis(tmp_path / "redis7", server=redis7_or_skip()[0])
    server.start()
    yield Target(server.url, None, server.password)
    server.stop()


@pytest.fixture
def servers(target: Target, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    """Two instances on the target's Redis."""
    started = [ServerProcess(target.url, tmp_path).start() for _ in range(2)]
    yield started
    for server in started:
        server.stop()


async def test_an_instance_subscribes_to_the_tournaments_its_stations_watch(
    target: Target, servers: list[ServerProcess], stations: Stations, aredis_of: Any
) -> None:
    a, b = servers
    await setup_tables(a.url, token("admin", "north"), "north", ["1"], CONFIG)
    await setup_tables(a.url, token("admin", "south"), "south", ["1"], CONFIG)
    await target.wait_subscribers("north", 0)
    bot = await dealer_bot(stations, a.url, token("dealer", "north", "1"), "north", "1", CONFIG, 3)
    await target.wait_subscribers("north", 1)
    display = await stations.open(b.url, token("display", "north"), [("north", "1")])
    await target.wait_subscribers("north", 2)
    await play(bot, 12)
    assert await asyncio.to_thread(target.subscribers, "south") == 0

    log = await read_table(aredis_of(target), "north", "1")
    await display.received.wait_for(lambda: display.received.last("1") >= log.seq, 10)
    check_received(display.received, log, "1", display=True, who="display on B")

    # The last station of "north" on B leaves: B drops the channel, A keeps it.
    await display.client.close()
    await target.wait_subscribers("north", 1)
    # A floor monitor of "south" on B: B subscribes to "south" (and only then).
    floor = await stations.open(b.url, token("floor", "south"), [("south", None)])
    await target.wait_subscribers("south", 1)
    dealer = token("dealer", "south", "1")
    south = await dealer_bot(stations, a.url, dealer, "south", "1", CONFIG, 4)
    await target.wait_subscribers("south", 2)
    await play(south, 8)
    south_log = await read_table(aredis_of(target), "south", "1")
    await floor.received.wait_for(lambda: floor.received.last("1") >= south_log.seq, 10)
    check_received(floor.received, south_log, "1", display=False, who="floor on B")


@pytest.mark.parametrize("target", ["cluster"], indirect=True)
async def test_the_loss_of_the_tournaments_primary_loses_no_event(
    target: Target, servers: list[ServerProcess], stations: Stations, aredis_of: Any
) -> None:
    a, b = servers
    await setup_tables(a.url, token("admin", "north"), "north", ["1"], CONFIG)
    bot = await dealer_bot(stations, a.url, token("dealer", "north", "1"), "north", "1", CONFIG, 5)
    display = await stations.open(b.url, token("display", "north"), [("north", "1")])
    await play(bot, 6)
    port, process = target.node_of("north")
    assert process is not None
    process.kill()
    process.wait()
    # Commands wait out the failover (the cluster client follows it), then go on.
    await play(bot, 10, timeout=60)
    assert target.node_of("north")[0] != port, "the replica did not take over"
    for server in servers:
        await wait_status(server.port, "/readyz", 200, 30)
    await play(bot, 6)
    log = await read_table(aredis_of(target), "north", "1")
    await display.received.wait_for(lambda: display.received.last("1") >= log.seq, 20)
    check_received(display.received, log, "1", display=True, who="display on B")


class Recorder:
    """The fan-out's side of a station: keeps the frames it is offered."""

    delay = 0.0

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self.offered = asyncio.Event()

    def offer(self, key: Key, frame: Frame) -> None:
        self.frames.append(frame)
        self.offered.set()

    def new_table(self, key: Key) -> None:
        pass

    def resync(self, reason: str) -> None:
        pass

    def clock(self, message: bytes) -> None:
        pass


async def test_a_commit_made_before_the_subscription_is_live_still_reaches_the_station(
    target: Target,
) -> None:
    """A station's catch-up reads the log before this instance's subscription to the
    tournament is confirmed: what is committed in between comes through no subscription. The
    fan-out reads the last event of each watched log once it is confirmed, and offers it."""
    redis = connect(target.url, 8)
    store = Store(redis)  # type: ignore[arg-type]
    fanout = Fanout(redis, store, target.url)
    running = asyncio.get_running_loop().create_task(fanout.run())
    try:
        await store.create_table("east", "1", b"snap", b"{}")
        event = b'{"type":"note","text":"before"}'
        published = msgspec.json.encode(Published("east", "1", 1, 1.0, [msgspec.Raw(event)]))
        committed = await store.commit("east", "1", 0, "c1", b"snap", published, [event], 1.0)
        assert committed.outcome == "ok"
        station = Recorder()
        fanout.watch(station, "east", "1")
        await asyncio.wait_for(station.offered.wait(), 10)
        assert [(f.seq, f.events) for f in station.frames] == [(1, [event])]
        await target.wait_subscribers("east", 1)
        fanout.forget(station)
        await target.wait_subscribers("east", 0)
        assert not fanout.last_seq
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
        await redis.aclose()


@pytest.fixture
async def aredis_of() -> Any:
    """``aredis_of(target)``: an asyncio client of the target's Redis, closed afterwards."""
    made: list[Any] = []

    def make(target: Target) -> Any:
        client = (
            target.cluster.async_client()
            if target.cluster is not None
            else AsyncRedis.from_url(target.url)
        )
        made.append(client)
        return client

    yield make
    for client in made:
        await client.aclose()
