"""The clock on a player (rule 31) belongs to the service: real ``tablewire serve`` processes on a
real redis-server, real websockets, no dealer station open.

- a clock the floor calls runs out when it should, ruled by the service itself: a seat facing a
  bet has a dead hand, one that is not checks; a display sees it;
- the instance holding the timers lease is killed (kill -9): the other takes the lease over and
  rules on the next expiry, once.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from protocol import Act, Clock, StartHand
from server.keys import deadlines_key
from server.timers import LEASE_KEY
from tests.service.bots import deep_config, read_table, setup_tables
from tests.service.conftest import token

T = "main"
CONFIG = deep_config(seats=6)
CLOCK_MS = 30_000
"""25 seconds, then a 5-second countdown (31)."""


def now_ms() -> int:
    return int(time.time() * 1000)


def ruled_by_the_clock(events: list[tuple[int, dict[str, Any]]], seat: int) -> list[int]:
    """The numbers of the actions the clock forced on ``seat``."""
    return [
        seq
        for seq, e in events
        if e["type"] == "action" and e["seat"] == seat and "31" in e.get("rules", [])
    ]


def arrived_ms(station: Any, table: str, seq: int) -> int:
    """When event ``seq`` reached the station, in wall-clock ms."""
    monotonic = station.received.arrived[(table, seq)]
    return int((time.time() - (time.monotonic() - monotonic)) * 1000)


async def lease_holder(aredis: Any, timeout: float, not_pid: int | None = None) -> int:
    """The pid of the instance holding the timers lease (another than ``not_pid``)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        owner = await aredis.get(LEASE_KEY)
        if owner is not None:
            pid = int(owner.decode().split(":")[-2])
            if pid != not_pid:
                return pid
        await asyncio.sleep(0.05)
    raise AssertionError(f"no instance (other than {not_pid}) took the timers lease")


async def test_a_clock_called_with_no_dealer_station_open_runs_out_by_the_service(
    start_server: Any, stations: Any, aredis: Any
) -> None:
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1"], CONFIG)
    floor = await stations.open(server.url, token("floor"))
    display = await stations.open(server.url, token("display"), [(T, "1")])
    await floor.client.command(T, "1", StartHand())  # seat 4 is to act, facing the big blind

    # Called 28 s ago (the floor's `at`): it runs out in 2 s, with no station sending `time`.
    expires = now_ms() - 28_000 + CLOCK_MS
    await floor.client.command(T, "1", Clock(at=expires - CLOCK_MS))
    await display.received.wait_for(
        lambda: ruled_by_the_clock(display.received.events.get("1", []), 4),
        10,
        "the clock on seat 4 to run out",
    )
    seq = ruled_by_the_clock(display.received.events["1"], 4)[0]
    event = dict(display.received.events["1"])[seq]
    late = arrived_ms(display, "1", seq) - expires
    print(f"seat 4 facing a bet: {event['action']} ({event['text']}), {late} ms after expiry")
    assert event["action"] == "fold" and "dead" in event["text"]
    assert 0 < late < 1_000

    # The big blind with its option (nobody raised): time runs out, it checks.
    for seat in (5, 6, 1, 2):
        await floor.client.command(T, "1", Act(seat=seat, declare="call"))
    expires = now_ms() - 28_500 + CLOCK_MS
    await floor.client.command(T, "1", Clock(at=expires - CLOCK_MS))
    await display.received.wait_for(
        lambda: ruled_by_the_clock(display.received.events.get("1", []), 3),
        10,
        "the clock on seat 3 to run out",
    )
    seq = ruled_by_the_clock(display.received.events["1"], 3)[0]
    event = dict(display.received.events["1"])[seq]
    late = arrived_ms(display, "1", seq) - expires
    print(f"big blind, no bet to face: {event['action']}, {late} ms after expiry")
    assert event["action"] == "check" and 0 < late < 1_000

    log = await read_table(aredis, T, "1")
    ruled = [cid for cid in log.commands if cid.startswith("clock:")]
    assert len(ruled) == 2 and len(ruled_by_the_clock(log.dicts(), 4)) == 1
    assert await aredis.zcard(deadlines_key(T)) == 0  # nothing left to rule on


async def test_the_other_instance_takes_the_timers_over_when_their_holder_is_killed(
    start_server: Any, stations: Any, aredis: Any
) -> None:
    a, b = start_server(), start_server()
    pid = await lease_holder(aredis, 10)
    holder, other = (a, b) if a.process.pid == pid else (b, a)
    await setup_tables(other.url, token("admin"), T, ["1"], CONFIG)
    floor = await stations.open(other.url, token("floor"))
    display = await stations.open(other.url, token("display"), [(T, "1")])
    await floor.client.command(T, "1", StartHand())

    expires = now_ms() + 9_000  # after the lease can have expired (5 s) and been taken over
    await floor.client.command(T, "1", Clock(at=expires - CLOCK_MS))
    holder.kill()
    killed = time.monotonic()
    assert await lease_holder(aredis, 10, not_pid=pid) == other.process.pid
    took_over = time.monotonic() - killed
    await display.received.wait_for(
        lambda: ruled_by_the_clock(display.received.events.get("1", []), 4),
        15,
        "the clock on seat 4 to run out",
    )
    seq = ruled_by_the_clock(display.received.events["1"], 4)[0]
    late = arrived_ms(display, "1", seq) - expires
    print(f"lease taken over {took_over:.1f}s after kill -9; expiry ruled {late} ms after it")
    assert 0 < late < 1_000

    log = await read_table(aredis, T, "1")
    assert len(ruled_by_the_clock(log.dicts(), 4)) == 1
    assert len([cid for cid in log.commands if cid.startswith("clock:")]) == 1
