"""Load benchmark (issue acceptance 6): many tables live at once through the real service.

    python benchmarks/load.py                  # 1,000 tables, 500 commands/s paced, then saturation
    python benchmarks/load.py --quick          # 200 tables, 100 commands/s, 6 s phases
    python benchmarks/load.py --profile        # and py-spy the server during its saturation phase
    python benchmarks/load.py --quick --seconds 40 --delayed 30   # and 4 displays 30 s behind
    python benchmarks/load.py --redis single,replica,cluster --phases paced --target tablewire
    python benchmarks/load.py --displays-per-table 36 --instances 2 --rate 200 --door 256
    python benchmarks/load.py --displays-per-table 17 --rate 800 --door 256   # one instance
    python benchmarks/load.py --displays-per-table 17 --rate 800 --clients-nice 10

``--redis`` runs the same phases on each Redis setup named (``loadgen/backends.py``: one
redis-server, one with a replica, a 3-primary + 3-replica cluster) and sets each beside the
single one. ``--displays-per-table N`` is the crowd run instead (``loadgen/crowd.py``,
``loadgen/crowd_run.py``): N displays a table spread over ``--instances`` instances, the paced
phase only, latency to every display of a table from histograms the client processes fill, each
instance's CPU, memory per idle connection and event-loop lateness.

The parts live in ``benchmarks/loadgen/``: the dealer stations and subscribers (``stations``),
the processes and what they cost (``machine``), the figures (``report``).

What runs, all on 127.0.0.1:

- a real ``redis-server`` (``server.embedded_redis.EmbeddedRedis``, AOF, ``appendfsync always``)
  in a temporary directory (``--fsync everysec`` shows how much of the tail is the disk's);
- ``python -m server.cli serve`` as a subprocess on that Redis (``REDIS_URL`` and
  ``TABLEWIRE_SECRET`` in its environment);
- the load: client worker processes (``--workers``, default 2), separate from the server but on
  the same cores. For each of ``--tables`` tables there is one bot dealer (its own websocket,
  dealer token for its table) and one display subscribed to the table; besides, 10 floor
  monitors subscribe to the whole tournament. The tables (9 seats, NLHE 50/100, deep stacks so
  nobody busts; ``--game`` and ``--seats`` for another game: stud at an ante and bring-in of 25
  and a small bet of 100, at most 8 seats) are created by an admin before the clock starts.
- afterwards the bare relay (``benchmarks/relay.py``: PUBLISH the dealer's frame, a pattern
  subscriber forwards it; no engine, no persistence) on the same Redis, driven by the same
  workers, bots and subscribers.

The bots are the bot dealer of the demo and the service tests (``clients/bots.py``) and play
legal poker: ``start_hand`` with hole cards from a shuffled deck, then they answer each prompt
(check or call mostly, fold sometimes, a minimum bet or raise now and then), deal the next
street (with its cards) when ``round_end`` names one, show in the showdown order, and start a
new hand after ``hand_end``. Each bot keeps a mirror of its table (``clients.bots.Mirror``: the
same pure engine, ``server.engine.apply``) so it knows the prompts, and so the event numbers
each command will get, before the server answers. That lets a dealer keep several
commands in flight (saturation) and lets latency be matched exactly: a command's events start
at the number after the table's previous event, and a subscriber's ``events`` frame names its
first number. Every acknowledgement is checked against the mirror (a mismatch or a refusal is
reported and stops that table).

Two phases per target, each ``--seconds`` long, the first ``--warmup`` seconds not counted:

- paced: each dealer sends at exponential (Poisson) intervals so the whole room makes
  ``--rate`` commands/s on average; one command in flight per dealer;
- saturation: every dealer keeps ``--depth`` commands in flight, as fast as acks come back.

``--delayed SECONDS`` adds, during the Tablewire phases, ``--delayed-count`` (4) displays whose
token carries that ``delay``, on the whole tournament, in a client process of their own
(``loadgen/delayed.py``): they read every event until ``delay`` s after the last phase and ping
every second; the report matches each event they read to its command (committed vs read, gaps,
duplicates, lateness = read - sent - delay, which must never be negative) and times the pongs.
The server's resident memory is sampled throughout (peak per phase), to compare with a run
without them.

The server runs as configured by default (a bounded, blocking Redis pool); ``--redis-pool N``
gives it a different pool size through ``REDIS_URL ?max_connections=N``.
Stations offer permessage-deflate as browsers do; ``--no-compression`` turns it off.

Latency is from the moment a dealer hands its command to the websocket (monotonic clock, which
all processes of the machine share) to the moment each subscriber — the table's display and
each of the 10 floor monitors — has read the ``events`` frame carrying the command's events.
Every (command, subscriber) pair is one sample; "all 11" is the latest of a command's
subscribers. Receive times include the load generator's own delays: it shares the 2 cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import secrets
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from loadgen.backends import KINDS, Backend, backend, compare
from loadgen.common import (
    DRAIN_GRACE,
    FLOORS,
    PACED,
    PHASE_NAMES,
    SATURATION,
    TOURNAMENT,
    table_config,
)
from loadgen.crowd import crowd_worker
from loadgen.crowd_run import crowd
from loadgen.delayed import DelayedRecords, delayed_worker
from loadgen.machine import (
    cpu_ticks,
    fetch_metrics,
    finish_profile,
    finished,
    log_errors,
    machine_busy,
    redis_latency,
    rss_mb,
    spawn_worker,
    start_profile,
    start_relay,
    start_server,
    stop,
    summarize_profile,
    wait_quiet,
)
from loadgen.report import PhaseCpu, TargetRun, analyse, report
from loadgen.stations import Records, decode_reply, encode, spec_phases, worker
from websockets.asyncio.client import connect

from protocol.config import MOST_HANDS, Game
from protocol.wire import CreateTable, CreateTournament, Hello
from server import loop
from server.tokens import Claims, issue


async def create_tables(
    url: str,
    secret: bytes,
    count: int,
    seats: int,
    tournament: str = TOURNAMENT,
    game: str = "NLHE",
) -> None:
    """The admin creates the tournament and the tables (several connections: 200 frames/s each)."""
    config = table_config(seats, game)
    per = 300
    claims = Claims("admin", tournament, int(time.time()) + 3600)

    async def batch(tables: list[int], first: bool) -> None:
        async with connect(url, max_size=2**24) as ws:
            await ws.send(encode(Hello(issue(secret, claims))), text=True)
            await ws.recv()
            if first:
                await ws.send(encode(CreateTournament("t", tournament, "Load")), text=True)
                await ws.recv()
            for t in tables:
                await ws.send(encode(CreateTable(f"c{t}", tournament, str(t), config)), text=True)
            for _ in tables:
                reply = decode_reply(await ws.recv(decode=False))
                if reply.type != "ack":
                    raise RuntimeError(f"creating a table failed: {reply}")

    tables = list(range(1, count + 1))
    await batch(tables[:per], True)
    rest = [tables[i : i + per] for i in range(per, count, per)]
    await asyncio.gather(*(batch(part, False) for part in rest))


async def spawn(spec: dict[str, Any], spec_path: Path) -> asyncio.subprocess.Process:
    """A client process running ``spec`` (this file with ``--worker``)."""
    return await spawn_worker(__file__, spec, spec_path)


async def sample_rss(pid: int, samples: list[tuple[float, float]]) -> None:
    """The server's resident memory twice a second, until cancelled."""
    while True:
        samples.append((time.monotonic(), rss_mb(pid)))
        await asyncio.sleep(0.5)


async def run_target(
    args: argparse.Namespace,
    name: str,
    url: str,
    secret: str,
    procs: dict[str, int],
    workdir: Path,
    metrics_port: int | None,
    redis_url: str,
) -> TargetRun:
    workers = []
    tables = list(range(1, args.tables + 1))
    phases = [PACED, SATURATION] if args.phases == "both" else [PHASE_NAMES.index(args.phases)]
    for w in range(args.workers):
        spec = {
            "target": "relay" if name == "relay" else "tablewire",
            "url": url,
            "secret": secret,
            "tables": tables[w :: args.workers],
            "tables_total": args.tables,
            "floors": list(range(FLOORS))[w :: args.workers],
            "seats": args.seats,
            "game": args.game,
            "rate": args.rate,
            "seconds": args.seconds,
            "drain": args.drain,
            "max_drain": args.max_drain,
            "depth": args.depth,
            "phases": phases,
            "seed": args.seed,
            "deflate": not args.no_compression,
            "out": str(workdir / f"{name}-worker{w}.bin"),
        }
        workers.append(await spawn(spec, workdir / f"{name}-worker{w}.json"))
    delayed = None
    if name == "tablewire" and args.delayed:
        delayed_spec = {
            "kind": "delayed",
            "url": url,
            "secret": secret,
            "delay": args.delayed,
            "count": args.delayed_count,
            "phases": phases,
            "seconds": args.seconds,
            "drain": args.drain,
            "max_drain": args.max_drain,
            "deflate": not args.no_compression,
            "out": str(workdir / "delayed.bin"),
        }
        delayed = await spawn(delayed_spec, workdir / "delayed.json")
    clients = [*workers, *([delayed] if delayed else [])]
    main_pid = procs.get("server", procs.get("relay", 0))
    rss: list[tuple[float, float]] = []
    sampler = asyncio.ensure_future(sample_rss(main_pid, rss))
    try:
        for proc in clients:
            assert proc.stdout is not None
            line = await asyncio.wait_for(proc.stdout.readline(), 300)
            if line.strip() != b"ready":
                raise RuntimeError(f"a {name} worker did not start: {line!r}")
        all_procs = {**procs, **{f"client{i}": p.pid for i, p in enumerate(workers)}}
        if delayed is not None:
            all_procs["delayed"] = delayed.pid
        # The cost of the connections alone (keepalive pings, the liveness probe): 3 s idle.
        hz = os.sysconf("SC_CLK_TCK")
        ticks = {k: cpu_ticks(p) for k, p in procs.items()}
        await asyncio.sleep(3.0)
        idle = {k: (cpu_ticks(p) - ticks[k]) / hz / 3.0 for k, p in procs.items()}
        connected = rss[-1][1]
        t0 = time.monotonic() + 1.0
        for proc in clients:
            assert proc.stdin is not None
            proc.stdin.write(f"go {t0}\n".encode())
            await proc.stdin.drain()
        spec_like = {"phases": phases, "seconds": args.seconds, "drain": args.drain}
        timeline = spec_phases(spec_like, t0)
        cpu: dict[int, PhaseCpu] = {}
        metrics: dict[int, dict[str, float]] = {}
        profile = None
        spikes: dict[int, list[tuple[str, int, int]]] = {}
        for phase, start, end in timeline:
            begin = start + args.warmup
            await asyncio.sleep(max(0.0, begin - time.monotonic()))
            await redis_latency(redis_url, reset=True)
            ticks = {k: cpu_ticks(p) for k, p in all_procs.items()}
            busy0, total0 = machine_busy()
            wall0 = time.monotonic()
            before_task = asyncio.ensure_future(
                fetch_metrics(metrics_port) if metrics_port else asyncio.sleep(0, {})
            )
            spy = None
            if args.profile and name != "relay" and phase == phases[-1]:
                spy = await start_profile(procs["server"], end - begin - 0.5, workdir)
            await asyncio.sleep(max(0.0, end - time.monotonic()))
            wall = time.monotonic() - wall0
            busy1, total1 = machine_busy()
            after = await fetch_metrics(metrics_port) if metrics_port else {}
            before = await before_task
            if not before or not after:
                after = {}
            cpu[phase] = PhaseCpu(
                wall,
                {k: (cpu_ticks(p) - ticks[k]) / hz / wall for k, p in all_procs.items()},
                (busy1 - busy0) / max(1, total1 - total0),
            )
            metrics[phase] = {k: after.get(k, 0.0) - before.get(k, 0.0) for k in after}
            spikes[phase] = await redis_latency(redis_url, reset=False)
            if spy is not None:
                profile = await finish_profile(spy, workdir)
        records = Records()
        for w, proc in enumerate(workers):
            await asyncio.wait_for(proc.wait(), args.drain + args.max_drain + DRAIN_GRACE)
            records.extend(Records.load((workdir / f"{name}-worker{w}.bin").read_bytes()))
        delayed_records = None
        if delayed is not None:
            await asyncio.wait_for(
                delayed.wait(), args.delayed + args.drain + args.max_drain + DRAIN_GRACE
            )
            delayed_records = DelayedRecords.load((workdir / "delayed.bin").read_bytes())
        final = await fetch_metrics(metrics_port) if metrics_port else {}
        peaks = {
            phase: max((mb for t, mb in rss if start <= t <= end + args.drain), default=0.0)
            for phase, start, end in timeline
        }
        return TargetRun(
            name,
            records,
            timeline,
            cpu,
            metrics,
            profile,
            idle=idle,
            redis_latency=spikes,
            rss_connected=connected,
            rss_peaks=peaks,
            delayed=delayed_records,
            final_metrics=final,
        )
    finally:
        sampler.cancel()
        for proc in clients:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()


async def orchestrate(args: argparse.Namespace) -> int:
    started = time.monotonic()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    stations = args.tables * (2 + args.displays_per_table)
    want = min(hard, max(soft, 2 * stations + 1000))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    if args.door is not None:  # the instances' environment (start_server passes it on)
        os.environ["TABLEWIRE_MAX_UNSIGNED_PER_ADDRESS"] = str(args.door)
        os.environ["TABLEWIRE_MAX_UNSIGNED"] = str(max(256, args.door))
    workdir = Path(tempfile.mkdtemp(prefix="tablewire-load-"))
    secret = secrets.token_hex(16)
    runs: dict[str, TargetRun] = {}
    waits: dict[str, str] = {}
    version = "?"
    try:
        if args.displays_per_table:
            with backend(args.redis[0], workdir / args.redis[0], args.fsync) as redis:
                print(f"crowd: Redis {args.redis[0]} {redis.version}; {redis.waits}", flush=True)
                out = await crowd(args, redis.url, next(iter(redis.pids.values())), secret, workdir)
            return finished(started, out, args.json)
        for kind in args.redis:
            with backend(kind, workdir / kind, args.fsync) as redis:
                version = redis.version if kind == "single" else version
                waits[kind] = f"redis-server {redis.version}; {redis.waits}"
                runs |= await run_on(args, kind, redis, secret, workdir)
        out = report(args, runs, started, version)
        if len(args.redis) > 1:
            print()
            results = {
                kind: analyse(runs[TARGET_OF[kind]], args)
                for kind in args.redis
                if TARGET_OF[kind] in runs
            }
            for line in compare(results, waits):
                print(line)
        for name, run in runs.items():
            if run.profile:
                print()
                last = "saturation" if args.phases == "both" else args.phases
                print(
                    f"== where the {name} server's time goes (py-spy, {last} phase;"
                    f" raw: {profile_path(args, name)})"
                )
                for line in summarize_profile(run.profile):
                    print(line)
        if args.json:
            Path(args.json).write_text(json.dumps(out, indent=2))
        return 0
    finally:
        if args.keep:
            print(f"(kept {workdir})")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def profile_path(args: argparse.Namespace, name: str) -> Path:
    """Where a target's raw profile goes: ``--profile-out``, suffixed for all but the first."""
    path = Path(args.profile_out)
    return path if name == "tablewire" else path.with_name(f"{path.stem}-{name}{path.suffix}")


TARGET_OF = {"single": "tablewire", "replica": "replica", "cluster": "cluster"}
"""The report's name for the Tablewire target on each kind of Redis."""


async def run_on(
    args: argparse.Namespace, kind: str, redis: Backend, secret: str, workdir: Path
) -> dict[str, TargetRun]:
    """The Tablewire target on this Redis (and, on the single one, the bare relay)."""
    runs: dict[str, TargetRun] = {}
    targets = ["tablewire", "relay"] if args.target == "both" else [args.target]
    if "tablewire" in targets:
        name = TARGET_OF[kind]
        server_url = redis.url
        if args.redis_pool:
            server_url += f"{'&' if '?' in server_url else '?'}max_connections={args.redis_pool}"
            print(f"{name}: REDIS_URL={server_url}", flush=True)
        share = await wait_quiet(0.15, args.wait_quiet)
        print(f"{name}: machine {100 * share:.0f}% busy before the start", flush=True)
        server, port = start_server(server_url, secret, workdir)
        try:
            url = f"ws://127.0.0.1:{port}/"
            t = time.monotonic()
            await create_tables(url, secret.encode(), args.tables, args.seats, game=args.game)
            print(
                f"{name}: {args.tables} tables created in {time.monotonic() - t:.1f} s",
                flush=True,
            )
            procs = {"server": server.pid, **redis.pids}
            runs[name] = await run_target(
                args, name, url, secret, procs, workdir, port, redis.monitor_url
            )
            print(f"{name}: done", flush=True)
            if runs[name].profile:
                profile_path(args, name).write_text(runs[name].profile or "")
        finally:
            stop(server)
        runs[name].log_errors = log_errors(workdir / "server.log")
        (workdir / "server.log").rename(workdir / f"server-{name}.log")  # the next its own
    if "relay" in targets and kind == "single":
        share = await wait_quiet(0.15, args.wait_quiet)
        print(f"relay: machine {100 * share:.0f}% busy before the start", flush=True)
        relay, port = start_relay(redis.url, workdir)
        try:
            procs = {"relay": relay.pid, **redis.pids}
            runs["relay"] = await run_target(
                args, "relay", f"ws://127.0.0.1:{port}/", secret, procs, workdir, None, redis.url
            )
            print("relay: done", flush=True)
        finally:
            stop(relay)
        runs["relay"].log_errors = log_errors(workdir / "relay.log")
    return runs


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        spec = json.loads(Path(sys.argv[2]).read_text())
        kinds = {"delayed": delayed_worker, "crowd": crowd_worker}
        loop.run(kinds.get(spec.get("kind", ""), worker)(spec))
        return
    parser = argparse.ArgumentParser(description="Tablewire load benchmark against a bare relay")
    parser.add_argument("--tables", type=int, help="tables (default 1000; quick 200)")
    parser.add_argument(
        "--rate", type=float, help="paced commands/s in total (default 500; quick 100)"
    )
    parser.add_argument("--seconds", type=float, help="length of each phase (default 20; quick 6)")
    parser.add_argument(
        "--warmup", type=float, help="seconds of each phase not counted (default 2; quick 1)"
    )
    parser.add_argument("--drain", type=float, default=3.0, help="pause after each phase")
    parser.add_argument(
        "--max-drain",
        type=float,
        default=60.0,
        help="at the end, wait at most this long for late acks and deliveries",
    )
    parser.add_argument(
        "--depth", type=int, default=3, help="commands in flight per dealer (saturation)"
    )
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument(
        "--game",
        choices=sorted(Game.__args__),  # type: ignore[attr-defined]
        default="NLHE",
        help="the tables' game (stud at most 8 seats, 2-7 draw 9)",
    )
    parser.add_argument("--workers", type=int, default=2, help="client processes")
    parser.add_argument("--phases", choices=["both", "paced", "saturation"], default="both")
    parser.add_argument("--target", choices=["both", "tablewire", "relay"], default="both")
    parser.add_argument(
        "--clients-nice",
        type=int,
        default=0,
        help="crowd run: the client processes' nice value (10: the server and Redis take the"
        " cores first, as when the stations are other devices; their own reading is late)",
    )
    parser.add_argument(
        "--no-compression", action="store_true", help="clients do not offer permessage-deflate"
    )
    parser.add_argument(
        "--quick", action="store_true", help="200 tables, 100 commands/s, 6 s phases"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="py-spy the server in its last phase (saturation, unless --phases paced), on each"
        " Redis setup",
    )
    parser.add_argument(
        "--profile-out", default=str(Path(tempfile.gettempdir()) / "tablewire-server-profile.txt")
    )
    parser.add_argument(
        "--fsync",
        choices=["always", "everysec"],
        default="always",
        help="redis-server's appendfsync (default always, as the service runs; everysec takes"
        " the disk's fsync stalls out of the acknowledgement path, to see the server's own share)",
    )
    parser.add_argument(
        "--delayed",
        type=float,
        default=0.0,
        help="during the Tablewire phases, displays with this delay (s) on the whole tournament"
        " (0: none)",
    )
    parser.add_argument(
        "--delayed-count", type=int, default=4, help="how many delayed displays (with --delayed)"
    )
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--wait-quiet",
        type=float,
        default=0.0,
        help="before each target, wait up to this many seconds for the machine to be idle",
    )
    parser.add_argument(
        "--redis-pool",
        type=int,
        default=0,
        help="the server's Redis pool size, given as REDIS_URL ?max_connections= (0: its default)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary directory (logs, AOF)"
    )
    parser.add_argument(
        "--redis",
        default="single",
        help="comma-separated Redis setups, each running the same phases: single (one"
        " redis-server), replica (one with a replica: every commit waits for it), cluster"
        " (3 primaries + 3 replicas, redis-server 7); with more than one, each is set beside"
        " single",
    )
    parser.add_argument(
        "--displays-per-table",
        type=int,
        default=0,
        help="the crowd run: N displays a table (each its own websocket), no floors, only the"
        " paced phase at --rate (0: the usual run)",
    )
    parser.add_argument(
        "--instances", type=int, default=1, help="server instances of the crowd run"
    )
    parser.add_argument(
        "--idle", type=float, default=5.0, help="crowd run: seconds idle before the phase"
    )
    parser.add_argument(
        "--door",
        type=int,
        default=None,
        help="unsigned connections the instances admit from one address (every station here"
        " comes from 127.0.0.1; the server's default is 16)",
    )
    args = parser.parse_args()
    args.script = __file__
    args.redis = args.redis.split(",")
    if not set(args.redis) <= set(KINDS):
        parser.error(f"--redis takes {', '.join(KINDS)}")
    if args.seats > MOST_HANDS.get(args.game, 10):
        most = MOST_HANDS[args.game]
        parser.error(f"{args.game} deals at most {most} hands: --seats {args.seats}")
    args.tables = args.tables or (200 if args.quick else 1000)
    args.rate = args.rate or (100.0 if args.quick else 500.0)
    if args.displays_per_table:
        args.phases = "paced"
    args.seconds = args.seconds or (6.0 if args.quick else 20.0)
    args.warmup = args.warmup if args.warmup is not None else (1.0 if args.quick else 2.0)
    if args.seconds <= args.warmup:
        parser.error("--seconds must be longer than --warmup")
    if args.delayed < 0 or args.delayed_count < 1:
        parser.error("--delayed must be >= 0 and --delayed-count >= 1")
    sys.exit(asyncio.run(orchestrate(args)))


if __name__ == "__main__":
    main()
