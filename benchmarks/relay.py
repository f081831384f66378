"""A bare websocket relay over Redis pub/sub: the reference the load benchmark compares against.

    python benchmarks/relay.py --port 9000 --redis-url redis://127.0.0.1:6379/0

It speaks just enough of Tablewire's wire protocol for the load benchmark's stations to run
unchanged, and does nothing else: no engine, no persistence, no roles, no per-station queue.

- ``hello`` is answered with ``welcome`` (the token is not checked);
- ``subscribe`` registers the connection for one table (``table``) or for the whole
  tournament (no ``table``);
- ``ping`` is answered with ``pong`` (in order, so a pong confirms the frames before it);
- ``command`` gets the table's next number (an in-memory counter), is wrapped as an ``events``
  message ``{"type": "events", "tournament", "table", "seq", "events": [<the command>]}``,
  PUBLISHed to Redis, and acknowledged with ``ack`` once Redis has answered the PUBLISH.
  One pattern subscription receives every message back and sends it, as it is, to each
  connection subscribed to the table or its tournament.

Frames of one connection are handled one at a time, as Tablewire does. It listens on
127.0.0.1 only and runs until SIGTERM or SIGINT.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from collections import defaultdict
from pathlib import Path

import msgspec
from redis.asyncio import BlockingConnectionPool, Redis
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from server import loop

CHANNEL = "relay:"
POOL = 100


class Incoming(msgspec.Struct):
    type: str
    id: str = ""
    tournament: str = ""
    table: str | None = None
    nonce: int = 0
    command: msgspec.Raw = msgspec.Raw(b"null")


class Forward(msgspec.Struct, tag_field="type", tag="events"):
    tournament: str
    table: str
    seq: int
    events: list[msgspec.Raw]


class AckOut(msgspec.Struct, tag_field="type", tag="ack"):
    id: str
    tournament: str
    table: str
    seq: int


_decode = msgspec.json.Decoder(Incoming).decode
_encode = msgspec.json.Encoder().encode
WELCOME = b'{"type":"welcome","role":"relay","tournament":"*","server":"relay"}'


class Relay:
    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.by_table: dict[tuple[str, str], set[ServerConnection]] = defaultdict(set)
        self.by_tournament: dict[str, set[ServerConnection]] = defaultdict(set)
        self.counters: dict[tuple[str, str], int] = defaultdict(int)
        # PUBLISHes wait their turn here, first come first served: redis-py's blocking pool
        # lets a newcomer take a connection a woken waiter was about to get, and under
        # saturation some frames then wait for seconds (Tablewire queues its commits the same way).
        self.turns = asyncio.Semaphore(POOL)

    async def handle(self, ws: ServerConnection) -> None:
        watching: list[set[ServerConnection]] = []
        try:
            async for raw in ws:
                message = _decode(raw)
                kind = message.type
                if kind == "command":
                    key = (message.tournament, message.table or "")
                    self.counters[key] += 1
                    seq = self.counters[key]
                    frame = _encode(Forward(key[0], key[1], seq, [message.command]))
                    payload = key[0].encode() + b"\n" + key[1].encode() + b"\n" + frame
                    async with self.turns:
                        await self.redis.publish(CHANNEL + key[0], payload)
                    await ws.send(_encode(AckOut(message.id, key[0], key[1], seq)), text=True)
                elif kind == "subscribe":
                    if message.table is None:
                        group = self.by_tournament[message.tournament]
                    else:
                        group = self.by_table[(message.tournament, message.table)]
                    group.add(ws)
                    watching.append(group)
                elif kind == "ping":
                    await ws.send(b'{"type":"pong","nonce":%d}' % message.nonce, text=True)
                elif kind == "hello":
                    await ws.send(WELCOME, text=True)
        except ConnectionClosed:
            pass
        finally:
            for group in watching:
                group.discard(ws)

    async def forward(self) -> None:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await pubsub.psubscribe(CHANNEL + "*")
        async for message in pubsub.listen():
            if message.get("type") != "pmessage":
                continue
            tournament, table, frame = message["data"].split(b"\n", 2)
            t = tournament.decode()
            targets = self.by_table.get((t, table.decode()), set()) | self.by_tournament.get(
                t, set()
            )
            for ws in targets:
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(frame, text=True)


async def main(port: int, redis_url: str) -> None:
    # At most POOL PUBLISHes at a time; a dealer frame waits for a free connection (redis-py's
    # default pool raises "Too many connections" past 100 instead).
    redis = Redis(
        connection_pool=BlockingConnectionPool.from_url(
            redis_url, max_connections=POOL, timeout=None
        )
    )
    relay = Relay(redis)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    forwarder = loop.create_task(relay.forward())
    async with serve(relay.handle, "127.0.0.1", port, max_size=64 * 1024, max_queue=64) as server:
        bound = server.sockets[0].getsockname()[1] if server.sockets else port
        print(f"relay ready on ws://127.0.0.1:{bound}/", flush=True)
        await stop.wait()
    forwarder.cancel()
    await redis.aclose()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="bare websocket relay over Redis pub/sub")
    parser.add_argument("--port", type=int, default=9000)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    loop.run(main(args.port, args.redis_url))
