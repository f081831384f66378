"""Hostile and careless stations, measured: what one connection can make the server hold.

Each test pins a class of abuse found from outside (issue 10): stations that ask for a long
history again and again and never read, a ``since`` the table never reached, an unsubscribe that
dropped every other subscription, a flood whose answer did not say which command it dropped, a
tournament created twice, and a delayed display that dropped itself (pongs held back) or was
told to resync in a loop (its delayed frames counted as backlog).
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from protocol.wire import Error, Pong
from server.station import BURST
from tests.service.bots import (
    dealer_bot,
    deep_config,
    http_get,
    play,
    read_table,
    setup_tables,
)
from tests.service.conftest import token
from tests.service.test_service import slow_clients, slow_floor

T = "main"
CONFIG = deep_config(6)


def rss_mb(pid: int) -> float:
    """Resident memory of a process, from the kernel's own count."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


async def metric(port: int, name: str) -> float:
    _, text = await http_get(port, "/metrics")
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return 0.0


async def test_stations_that_never_read_and_resubscribe_to_a_long_log_cost_bounded_memory(
    start_server, stations, aredis
) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1"], CONFIG)
    bot = await dealer_bot(stations, server.url, token("dealer", table="1"), T, "1", CONFIG, 7)
    await play(bot, 1200, timeout=180)
    log = await read_table(aredis, T, "1")
    log_kb = sum(len(raw) for _, raw in log.events) / 1024
    before = rss_mb(server.process.pid)
    flooders = [await slow_floor(server) for _ in range(8)]
    asks = 380  # under the burst of the rate limit: every one is served, none refused
    assert asks < BURST
    served = await metric(server.port, "tablewire_catch_ups_total")
    peak = before
    try:
        frame = json.dumps({"type": "subscribe", "tournament": T, "table": "1", "since": 0})
        for ws in flooders:
            for _ in range(asks):
                await ws.send(frame)
        total = served + asks * len(flooders)
        deadline = time.monotonic() + 60
        while await metric(server.port, "tablewire_catch_ups_total") < total:
            peak = max(peak, rss_mb(server.process.pid))
            assert time.monotonic() < deadline, "the subscribes were not all served"
            await asyncio.sleep(0.05)
        for _ in range(20):  # and while the last catch-ups stall on their unread sockets
            peak = max(peak, rss_mb(server.process.pid))
            await asyncio.sleep(0.05)
        await play(bot, 20)  # live frames for the flooders go to their bounded outboxes
        # The dealer is still served at once, and a reading display gets every event.
        display = await stations.open(server.url, token("display"), [(T, "1")], since=0)
        final = await read_table(aredis, T, "1")
        await display.received.wait_for(lambda: display.received.last("1") >= final.seq, 30)
        peak = max(peak, rss_mb(server.process.pid))
    finally:
        for ws in flooders:
            await ws.close()
    grown = peak - before
    print(
        f"log of {log.seq} events ({log_kb:.0f} KB JSON); {len(flooders)} stations x {asks}"
        f" subscribe since 0 without reading: server RSS {before:.0f} MB -> peak {peak:.0f} MB"
        f" (+{grown:.0f} MB); slow clients told to resync: {await slow_clients(server.port):.0f}"
    )
    assert grown < 64, f"the server grew {grown:.0f} MB for stations that never read"


async def test_a_since_ahead_of_the_table_is_answered_with_a_snapshot(
    start_server, stations
) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1"], CONFIG)
    bot = await dealer_bot(stations, server.url, token("dealer", table="1"), T, "1", CONFIG, 3)
    await play(bot, 5)
    at = bot.acked[-1].ack
    # A station that kept its place from another Redis (a restore from backup) asks from 900.
    station = await stations.open(server.url, token("display"), [(T, "1")], since=900)
    await station.received.wait_for(lambda: station.received.snapshots, 5, "a snapshot")
    assert station.received.snapshots[0].seq == at
    await play(bot, 2)
    last = bot.acked[-1].ack
    await station.received.wait_for(lambda: station.received.last("1") >= last, 5)
    assert station.received.seqs("1") == list(range(at + 1, last + 1))


async def test_unsubscribing_one_table_keeps_every_other_subscription(
    start_server, stations
) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1", "2"], CONFIG)
    one = await dealer_bot(stations, server.url, token("dealer", table="1"), T, "1", CONFIG, 1)
    two = await dealer_bot(stations, server.url, token("dealer", table="2"), T, "2", CONFIG, 2)
    floor = await stations.open(server.url, token("floor"), [(T, "1"), (T, "2")])
    assert floor.client.ws is not None
    await floor.client.ws.send(json.dumps({"type": "unsubscribe", "tournament": T, "table": "1"}))
    await round_trip(floor)  # the unsubscribe is done once a ping sent after it is answered
    await play(two, 3)
    await play(one, 3)
    await play(two, 1)
    last_two = two.acked[-1].ack
    await floor.received.wait_for(lambda: floor.received.last("2") >= last_two, 5, "table 2")
    assert floor.received.seqs("2") == list(range(1, last_two + 1))
    assert floor.received.seqs("1") == [], "table 1 was unsubscribed"


async def round_trip(station: Any, nonce: int = 7) -> None:
    await station.client.ws.send(json.dumps({"type": "ping", "nonce": nonce}))
    await station.received.wait_for(
        lambda: any(isinstance(m, Pong) and m.nonce == nonce for m in station.received.others),
        5,
        "the pong",
    )


async def raw_station(server: Any, role: str, **claims: Any) -> Any:
    from websockets.asyncio.client import connect as ws_connect

    ws = await ws_connect(server.url, compression=None)
    await ws.send(json.dumps({"type": "hello", "token": token(role, **claims)}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


async def test_a_rate_limited_answer_names_the_command_it_dropped(start_server) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1"], CONFIG)
    ws = await raw_station(server, "dealer", table="1")
    start = json.dumps({"type": "start_hand"})
    try:
        # Commands for another table: refused at once, so the flood outruns the refill.
        for i in range(int(BURST) * 3):
            frame = f'{{"type": "command", "id": "c{i}", "tournament": "{T}", "table": "2",'
            await ws.send(frame + f' "command": {start}}}')
        limited: list[dict[str, Any]] = []
        async with asyncio.timeout(10):
            while len(limited) < 10:
                reply = json.loads(await ws.recv())
                if reply.get("code") == "rate_limited":
                    limited.append(reply)
    finally:
        await ws.close()
    assert all(r["id"] and r["id"].startswith("c") for r in limited), limited[:3]
    assert all(r["id"] in r["message"] for r in limited)


async def test_create_tournament_on_an_existing_id_answers_exists_and_changes_nothing(
    start_server, aredis
) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    await setup_tables(server.url, token("admin"), T, ["1"], CONFIG)
    ws = await raw_station(server, "admin")
    try:
        await ws.send(
            json.dumps(
                {"type": "create_tournament", "id": "again", "tournament": T, "name": "Other"}
            )
        )
        reply = json.loads(await ws.recv())
    finally:
        await ws.close()
    assert (reply["type"], reply["code"], reply["id"]) == ("error", "exists", "again")
    assert await aredis.hget("tw:{main}:meta", "name") == T.encode()


async def test_a_delayed_display_answers_pings_at_once_and_keeps_up_with_a_busy_room(
    start_server, stations, aredis
) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    tables = [str(n) for n in range(1, 7)]
    await setup_tables(server.url, token("admin"), T, tables, CONFIG)
    delay = 3.0
    delayed = await stations.open(server.url, token("display", delay=delay), [(T, None)])
    bots = [
        await dealer_bot(stations, server.url, token("dealer", table=t), T, t, CONFIG, int(t))
        for t in tables
    ]
    started = time.monotonic()
    pongs: list[float] = []

    async def ping_all_along() -> None:
        assert delayed.client.ws is not None
        while time.monotonic() - started < delay * 2:
            sent = time.monotonic()
            nonce = len(pongs) + 1
            await delayed.client.ws.send(json.dumps({"type": "ping", "nonce": nonce}))
            await delayed.received.wait_for(
                lambda n=nonce: any(
                    isinstance(m, Pong) and m.nonce == n for m in delayed.received.others
                ),
                delay,
                f"pong {nonce}",
            )
            pongs.append(time.monotonic() - sent)
            await asyncio.sleep(0.1)  # pacing, well under the rate limit

    pinger = asyncio.get_running_loop().create_task(ping_all_along())
    await asyncio.gather(*(play(bot, 120, timeout=120) for bot in bots))
    await pinger
    finals = {t: (await read_table(aredis, T, t)).seq for t in tables}
    await delayed.received.wait_for(
        lambda: all(delayed.received.last(t) >= finals[t] for t in tables), delay + 30
    )
    errors = [m for m in delayed.received.others if isinstance(m, Error)]
    assert errors == [] and await slow_clients(server.port) == 0
    for t in tables:
        assert delayed.received.seqs(t) == list(range(1, finals[t] + 1))
    first_seen = min(delayed.received.arrived.values())
    events = sum(finals.values())
    print(
        f"delay {delay}s, {events} events on {len(tables)} tables in"
        f" {time.monotonic() - started:.1f}s; first delayed event after"
        f" {first_seen - started:.2f}s; pongs in {max(pongs) * 1000:.0f} ms at most"
        f" ({len(pongs)} pings)"
    )
    assert first_seen - started >= delay, "an event reached the delayed display early"
    assert max(pongs) < delay, "a pong waited as long as the delay"
