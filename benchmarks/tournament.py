"""Tournament load benchmark (issue 12, acceptance 4): players registering into a running
tournament while its tables play, through the real service.

    python benchmarks/tournament.py            # 5,000 players into 500 tables at 50/s, 500 cmds/s
    python benchmarks/tournament.py --quick    # 400 players into 50 tables at 20/s, 100 cmds/s

The parts live in ``benchmarks/loadgen/``: the stations and the admin (``registration``), the
processes and what they cost (``machine``, shared with ``load.py``).

What runs, all on 127.0.0.1:

- a real ``redis-server`` (``server.embedded_redis.EmbeddedRedis``, AOF, ``appendfsync always``)
  in a temporary directory, and ``python -m server.cli serve`` as a subprocess on it;
- set-up, by an admin: one tournament with a structure (levels of 4 hours, late registration
  open, ``table_size`` 10, a starting stack of 1,000,000 at 50/100 so nobody busts during the
  run), ``--tables`` tables opened with the tournament command ``open_table``, the clock started;
- client processes, separate from the server but on the same cores: ``--workers`` (2) processes
  holding one dealer station per table (dealer token for its table, subscribed to it) and the
  ``--floors`` (5) floor monitors subscribed to the whole tournament; one process for the admin.

Then, at once:

- the admin registers ``--players`` players at ``--reg-rate`` a second (Poisson arrivals, or
  ``--pacing even``), each on a free one of ``--admins`` (1) connections, one registration in
  flight on each (an arrival waits for one: "queued"). The service draws the seat and seats the
  player in the same commit: the floors get ``tournament_events`` with ``registered`` and
  ``seated``, the table's dealer station the table's ``events`` with ``player_added``. A
  registration refused with a code that changed nothing and may pass next time
  (``hand_in_play``, which the service answered while it seated players only between hands;
  ``busy``, ``unavailable``, ``rate_limited``, ``unknown_outcome``) is sent again at once (or
  after ``--retry-after`` ms) under the same id, so the service draws again; every refusal is
  counted by its code. Registrations still unanswered 1.2 x the schedule + 5 s after the start
  are given up and counted;
- each dealer station's bot (``clients.bots.DealerBot``, the demo's) is fed the table's events
  as the station reads them (the engine's ``evolve`` keeps a copy of the table, so a start_hand
  never deals a seat that waits for the button: 9-A, 11-A) and plays legal poker at a table
  with at least 2 players. A pacer in each worker process draws Poisson arrivals so the room
  makes ``--rate`` table commands a second in all; each arrival sends the next command of a
  table picked at random among those that can send: 2+ players, nothing in flight (one command
  in flight per dealer), and 1 / ``--table-max-rate`` (4) s since its last command, since a
  dealer is only so fast and the room's pace must not pile onto the few tables playing early.
  An arrival that finds no table ready is counted as missed. Commands carry ``after`` (the last
  event the station read), so a start_hand that crosses a registration's ``player_added`` is
  refused ``stale`` and the bot decides again. A hand's end at a tournament table commits with
  the tournament's events in one step (the table's command and its ``hand_counted``): that is
  part of what is measured.

The run ends when the last registration is answered; the counted window starts ``--warmup`` s
in. Latency of a registration: from the admin's first send of it to the last of its affected
stations (every floor has ``seated``, the seat's dealer station has ``player_added``), and
beside it from the send of the attempt that was applied. Latency of a table command: from the
dealer's send to each subscriber (the table's dealer station and every floor) having the
``events`` frame carrying its first event, each (command, subscriber) pair one sample, as
``load.py`` measures it; "all" is the latest of a command's subscribers.

The goals: both p99 under 50 ms over the whole counted window; the registrations at 95% of
their rate; the table commands at 95% of theirs from the first moment the room can make it —
enough tables with 2+ players for the rate at ``--table-max-rate`` each (125 for 500/s). With
even seating a table has its second player only once every table has its first (about 12 s
in at 50/s), so before that there is no poker to play; the rate over the whole window is
printed beside it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import secrets
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loadgen.machine import (
    REDIS_SPIKE_MS,
    cpu_ticks,
    fetch_metrics,
    finish_profile,
    finished,
    log_errors,
    machine_busy,
    redis_latency,
    rss_mb,
    scratch,
    spawn_worker,
    start_profile,
    start_server,
    stop,
    summarize_profile,
    wait_quiet,
)
from loadgen.registration import (
    TOURNAMENT,
    Records,
    admin_worker,
    ask,
    dealer_worker,
    encode,
    structure,
)
from loadgen.report import loop_lateness
from websockets.asyncio.client import connect

from protocol.tournament import OpenTable, StartClock
from protocol.wire import CreateTournament, Hello, SendTournament
from server import loop
from server.embedded_redis import EmbeddedRedis
from server.tokens import Claims, issue

GOAL_MS = 50.0
DRAIN_GRACE = 120.0


# --- set-up ------------------------------------------------------------------------------


async def set_up(url: str, secret: bytes, args: argparse.Namespace) -> None:
    """The tournament, its tables (``open_table``, one step each) and the clock started."""
    claims = Claims("admin", TOURNAMENT, int(time.time()) + 3600)
    async with connect(url, max_size=2**26) as ws:
        await ws.send(encode(Hello(issue(secret, claims))), text=True)
        await ws.recv()
        s = structure(args.table_size)
        await ask(ws, CreateTournament("t", TOURNAMENT, "Benchmark", s))
        for t in range(1, args.tables + 1):
            command = OpenTable(table=str(t), seats=args.table_size)
            await ask(ws, SendTournament(f"open{t}", TOURNAMENT, command))
        await ask(ws, SendTournament("clock", TOURNAMENT, StartClock()))


async def spawn(spec: dict[str, Any], spec_path: Path) -> asyncio.subprocess.Process:
    """A client process running ``spec`` (this file with ``--worker``)."""
    return await spawn_worker(__file__, spec, spec_path)


async def tell(proc: asyncio.subprocess.Process, line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line.encode())
    await proc.stdin.drain()


async def read_line(proc: asyncio.subprocess.Process, timeout: float) -> str:
    assert proc.stdout is not None
    return (await asyncio.wait_for(proc.stdout.readline(), timeout)).decode().strip()


# --- the run -----------------------------------------------------------------------------


def every_process() -> dict[int, tuple[str, int]]:
    """Every process's name and CPU ticks (utime + stime), kernel threads included."""
    found: dict[int, tuple[str, int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            text = (entry / "stat").read_text()
        except OSError:
            continue
        name = text[text.find("(") + 1 : text.rfind(")")]
        fields = text.rsplit(")", 1)[1].split()
        found[int(entry.name)] = (name, int(fields[11]) + int(fields[12]))
    return found


def cpu_columns() -> list[int]:
    """The machine's ``cpu`` line of /proc/stat: user nice system idle iowait irq softirq ..."""
    return [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]


def elsewhere(
    before: dict[int, tuple[str, int]],
    after: dict[int, tuple[str, int]],
    ours: set[int],
    columns: tuple[list[int], list[int]],
    wall: float,
) -> tuple[list[tuple[str, float]], float, float]:
    """Where the machine's CPU went besides our processes: other processes by name (cores),
    interrupt and softirq time (the loopback network's packets, cores), iowait (cores idle
    waiting on the disk: redis-server's fsyncs)."""
    hz = os.sysconf("SC_CLK_TCK")
    by_name: Counter[str] = Counter()
    for pid, (name, ticks) in after.items():
        if pid in ours:
            continue
        was = before.get(pid, (name, 0))[1]
        if ticks - was > 0 and name.startswith("python"):
            name = _cmdline(pid) or name
        by_name[name] += ticks - was
    others = [(name, n / hz / wall) for name, n in by_name.most_common(4) if n > 0]
    delta = [b - a for a, b in zip(*columns, strict=True)]
    irq = (delta[5] + delta[6]) / hz / wall
    iowait = delta[4] / hz / wall
    return others, irq, iowait


@dataclass
class Run:
    records: Records
    t0: float
    begin: float
    end: float
    cpu: dict[str, float]
    machine: float
    idle: dict[str, float]
    metrics: dict[str, float]
    redis_events: list[tuple[str, int, int]]
    rss: list[tuple[float, float]]
    set_up_s: float
    others: list[tuple[str, float]] = field(default_factory=list)
    irq: float = 0.0
    iowait: float = 0.0
    profile: str | None = None
    log_errors: Counter[str] = field(default_factory=Counter)


def _cmdline(pid: int) -> str:
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return ""
    return " ".join(w.decode(errors="replace") for w in words if w)[:60]


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


async def sample_rss(pid: int, samples: list[tuple[float, float]]) -> None:
    while True:
        samples.append((time.monotonic(), rss_mb(pid)))
        await asyncio.sleep(0.5)


async def run(args: argparse.Namespace, workdir: Path, redis: EmbeddedRedis) -> Run:
    secret = secrets.token_hex(16)
    assert redis.process is not None
    server, port = start_server(redis.url, secret, workdir)
    try:
        url = f"ws://127.0.0.1:{port}/"
        started = time.monotonic()
        await set_up(url, secret.encode(), args)
        set_up_s = time.monotonic() - started
        print(
            f"tablewire: tournament with {args.tables} tables open and its clock started in"
            f" {set_up_s:.1f} s",
            flush=True,
        )
        common = {"url": url, "secret": secret, "deflate": not args.no_compression}
        tables = list(range(1, args.tables + 1))
        floors = list(range(args.floors))
        dealers = []
        for w in range(args.workers):
            spec = {
                **common,
                "kind": "dealers",
                "tables": tables[w :: args.workers],
                "floors": floors[w :: args.workers],
                "table_size": args.table_size,
                "rate": args.rate / args.workers,
                "table_max_rate": args.table_max_rate,
                "seed": args.seed + w,
                "drain": args.drain,
                "max_drain": args.max_drain,
                "out": str(workdir / f"dealers{w}.bin"),
            }
            dealers.append(await spawn(spec, workdir / f"dealers{w}.json"))
        admin_spec = {
            **common,
            "kind": "admin",
            "players": args.players,
            "rate": args.reg_rate,
            "pacing": args.pacing,
            "admins": args.admins,
            "retry_after": args.retry_after / 1000,
            "seed": args.seed,
            "out": str(workdir / "admin.bin"),
        }
        admin = await spawn(admin_spec, workdir / "admin.json")
        clients = [*dealers, admin]
        rss: list[tuple[float, float]] = []
        sampler = asyncio.ensure_future(sample_rss(server.pid, rss))
        try:
            for proc in clients:
                line = await read_line(proc, 300)
                if line != "ready":
                    raise RuntimeError(f"a worker did not start: {line!r}")
            procs = {"server": server.pid, "redis": redis.process.pid}
            procs |= {f"client{i}": p.pid for i, p in enumerate(dealers)}
            procs["admin"] = admin.pid
            hz = os.sysconf("SC_CLK_TCK")
            await asyncio.sleep(2.0)  # the floors' catch-ups of every table settle
            ticks = {k: cpu_ticks(p) for k, p in procs.items()}
            await asyncio.sleep(3.0)
            idle = {k: (cpu_ticks(p) - ticks[k]) / hz / 3.0 for k, p in procs.items()}
            t0 = time.monotonic() + 1.0
            for proc in clients:
                await tell(proc, f"go {t0}\n")
            begin = t0 + args.warmup
            await asyncio.sleep(max(0.0, begin - time.monotonic()))
            await redis_latency(redis.url, reset=True)
            ticks = {k: cpu_ticks(p) for k, p in procs.items()}
            busy0, total0 = machine_busy()
            everyone0, columns0 = every_process(), cpu_columns()
            before = await fetch_metrics(port)
            wall0 = time.monotonic()
            spy = None
            if args.profile:
                spy = await start_profile(server.pid, args.profile, workdir)
            timeout = 3 * args.players / args.reg_rate + 300
            line = await read_line(admin, timeout)
            if not line.startswith("registered"):
                raise RuntimeError(f"the admin did not finish: {line!r}")
            end = float(line.split()[1])
            for proc in dealers:
                await tell(proc, f"stop {end}\n")
            wall = time.monotonic() - wall0
            cpu = {k: (cpu_ticks(p) - ticks[k]) / hz / wall for k, p in procs.items()}
            busy1, total1 = machine_busy()
            kids = {int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()}
            ours = {os.getpid(), *procs.values()} | {
                pid for pid in kids if _parent(pid) in {server.pid, os.getpid()}
            }
            others, irq, iowait = elsewhere(
                everyone0, every_process(), ours, (columns0, cpu_columns()), wall
            )
            after = await fetch_metrics(port)
            profile = await finish_profile(spy, workdir) if spy is not None else None
            spikes = await redis_latency(redis.url, reset=False)
            metrics = {k: v - before.get(k, 0.0) for k, v in after.items()} if before else {}
            records = Records()
            for proc in clients:
                await asyncio.wait_for(proc.wait(), args.drain + args.max_drain + DRAIN_GRACE)
            for w in range(args.workers):
                records.extend(Records.load((workdir / f"dealers{w}.bin").read_bytes()))
            records.extend(Records.load((workdir / "admin.bin").read_bytes()))
        finally:
            sampler.cancel()
            for proc in clients:
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()
        result = Run(
            records,
            t0,
            begin,
            end,
            cpu,
            (busy1 - busy0) / max(1, total1 - total0),
            idle,
            metrics,
            spikes,
            rss,
            set_up_s,
            others,
            irq,
            iowait,
            profile,
        )
    finally:
        stop(server)
    result.log_errors = log_errors(workdir / "server.log")
    return result


# --- analysis ----------------------------------------------------------------------------


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    return values[min(len(values) - 1, int(q * len(values)))]


def ms(x: float) -> str:
    return f"{1000 * x:7.1f}"


@dataclass
class Commands:
    sent: int
    acked: int
    latency: list[float]
    worst: list[float]
    ack: list[float]
    deliveries: int
    by_slice: dict[int, list[float]]


def table_commands(r: Records, begin: float, end: float, floors: int, slice_s: float) -> Commands:
    index: dict[tuple[int, int], int] = {}
    for n, (tab, key, last) in enumerate(zip(r.cmd_table, r.cmd_key, r.cmd_ack_seq, strict=True)):
        if last > 0:
            index[(tab, key)] = n
    got: dict[int, list[float]] = defaultdict(list)
    for table, seq, count, at in zip(r.fr_table, r.fr_seq, r.fr_count, r.fr_t, strict=True):
        for number in range(seq, seq + count):
            found = index.get((table, number))
            if found is not None:
                got[found].append(at - r.cmd_t[found])
    subscribers = floors + 1
    sent = acked = deliveries = 0
    latency: list[float] = []
    worst: list[float] = []
    ack: list[float] = []
    by_slice: dict[int, list[float]] = defaultdict(list)
    for i, t in enumerate(r.cmd_t):
        if not begin <= t <= end:
            continue
        sent += 1
        if r.cmd_ack_seq[i] <= 0:
            continue
        acked += 1
        ack.append(r.cmd_ack_t[i] - t)
        lat = got.get(i, [])
        deliveries += len(lat)
        latency += lat
        by_slice[int((t - begin) // slice_s)] += lat
        if len(lat) >= subscribers:
            worst.append(max(lat))
    latency.sort()
    worst.sort()
    ack.sort()
    return Commands(sent, acked, latency, worst, ack, deliveries, by_slice)


@dataclass
class Registrations:
    total: int
    registered: int
    counted: int
    complete: int
    first: list[float]
    applied: list[float]
    ack: list[float]
    attempts: list[int]
    waited: list[float]
    """From its arrival to its first send: waiting for a free admin connection."""
    by_slice: dict[int, list[tuple[float, int]]]
    """(latency from the first send, attempts) by the slice of the first send."""
    missing: Counter[str]


def registrations(
    r: Records, begin: float, end: float, floors: int, slice_s: float
) -> Registrations:
    seated: dict[int, list[tuple[int, int, float]]] = defaultdict(list)
    for sub, player, table, t in zip(r.st_sub, r.st_player, r.st_table, r.st_t, strict=True):
        seated[player].append((sub, table, t))
    added: dict[tuple[int, int], float] = {}
    for table, player, t in zip(r.pa_table, r.pa_player, r.pa_t, strict=True):
        added[(table, player)] = t
    first: list[float] = []
    applied: list[float] = []
    ack: list[float] = []
    attempts: list[int] = []
    by_slice: dict[int, list[tuple[float, int]]] = defaultdict(list)
    missing: Counter[str] = Counter()
    counted = complete = 0
    waited: list[float] = []
    rows = zip(
        r.rg_player,
        r.rg_due_t,
        r.rg_first_t,
        r.rg_last_t,
        r.rg_ack_t,
        r.rg_attempts,
        r.rg_ok,
        strict=True,
    )
    for player, t_due, t_first, t_last, t_ack, tries, ok in rows:
        if not ok or not begin <= t_first <= end:
            continue
        counted += 1
        waited.append(max(0.0, t_first - t_due))
        attempts.append(tries)
        ack.append(t_ack - t_last)
        seen = seated.get(player, [])
        subs = {sub for sub, _, _ in seen}
        if len(subs) < floors:
            missing["a floor did not get `seated`"] += 1
            continue
        table = seen[0][1]
        at_dealer = added.get((table, player))
        if at_dealer is None:
            missing["the seat's dealer station did not get `player_added`"] += 1
            continue
        complete += 1
        last = max(at_dealer, *(t for _, _, t in seen))
        first.append(last - t_first)
        applied.append(last - t_last)
        by_slice[int((t_first - begin) // slice_s)].append((last - t_first, tries))
    first.sort()
    applied.sort()
    ack.sort()
    return Registrations(
        len(r.rg_player),
        sum(r.rg_ok),
        counted,
        complete,
        first,
        applied,
        ack,
        sorted(attempts),
        sorted(waited),
        by_slice,
        missing,
    )


def room_rate(args: argparse.Namespace, run: Run) -> tuple[float, float]:
    """When the room could first make the target rate (a worker's sample had enough tables
    with 2+ players, at the fastest a table may go, for its share), and the commands/s
    acknowledged from then to the end. A tournament fills as players register: with even
    seating a table has its second player only once every table has its first."""
    r = run.records
    needed = args.rate / args.table_max_rate / args.workers
    ready = [t for t, n2 in zip(r.smp_t, r.smp_two, strict=True) if n2 >= needed]
    start = max(run.begin, min(ready, default=run.end))
    acked = sum(
        1
        for t, seq in zip(r.cmd_t, r.cmd_ack_seq, strict=True)
        if start <= t <= run.end and seq > 0
    )
    return start, acked / max(1e-9, run.end - start)


def playing(
    r: Records, begin: float, slice_s: float, workers: int
) -> dict[int, tuple[float, float]]:
    """Per slice: tables with 2+ players and tables in a hand (each worker's mean, summed)."""
    two: dict[int, list[int]] = defaultdict(list)
    hand: dict[int, list[int]] = defaultdict(list)
    for t, n2, nh in zip(r.smp_t, r.smp_two, r.smp_hand, strict=True):
        k = int((t - begin) // slice_s)
        two[k].append(n2)
        hand[k].append(nh)
    return {
        k: (workers * sum(v) / len(v), workers * sum(hand[k]) / len(hand[k]))
        for k, v in two.items()
    }


PROFILE_PARTS = (
    ("table commands (Station._command)", "Station._command"),
    ("  hand ends committed with the tournament (Tournaments.hand_step)", "hand_step"),
    ("tournament commands: registrations (Station._tournament_command)", "_tournament_command"),
    ("tournament steps (Tournaments._step: rule, order the tables, commit)", "Tournaments._step"),
    ("  the tournament engine copying its state (TournamentState.clone)", "clone (server"),
    ("  the free seats listed (tournament.pool)", "pool (server"),
    ("  the script's round trip (TournamentStore.commit)", "TournamentStore.commit"),
    ("the tournament reloaded from Redis (Tournaments.load: after a conflict)", "Tournaments.load"),
    ("table commits (Store.commit)", "Store.commit"),
    ("fan-out: Redis pub/sub listener (Fanout._listen)", "Fanout._listen"),
    ("socket writes to the stations (Connection._write_pending)", "Connection._write_pending"),
)


def inclusive(collapsed: str) -> list[str]:
    """The share of the server's samples under each named part (inclusive; parts overlap)."""
    parts: Counter[str] = Counter()
    total = 0
    for entry in collapsed.splitlines():
        stack, _, count = entry.rpartition(" ")
        if not stack:
            continue
        total += int(count)
        for label, key in PROFILE_PARTS:
            if key in stack:
                parts[label] += int(count)
    if not total:
        return ["(no samples)"]
    return [f"{total} samples (200 Hz), inclusive shares:"] + [
        f"  {100 * parts[label] / total:5.1f}%  {label}" for label, _ in PROFILE_PARTS
    ]


def line(name: str, values: list[float]) -> str:
    top = values[-1] if values else math.nan
    return (
        f"  {name:34} {ms(percentile(values, 0.5))} {ms(percentile(values, 0.95))}"
        f" {ms(percentile(values, 0.99))} {ms(top)}   n={len(values)}"
    )


def report(args: argparse.Namespace, run: Run, version: str, load: str) -> dict[str, Any]:
    r = run.records
    span = run.end - run.begin
    cmds = table_commands(r, run.begin, run.end, args.floors, args.slice)
    regs = registrations(r, run.begin, run.end, args.floors, args.slice)
    reg_rate = regs.registered / max(1e-9, run.end - run.t0)
    cmd_rate = cmds.acked / max(1e-9, span)
    steady_from, steady_rate = room_rate(args, run)
    cores = os.cpu_count() or 1
    print()
    print(
        f"== Tablewire tournament load: {args.players:,} players registered into {args.tables}"
        f" tables of {args.table_size} at {args.reg_rate:g}/s ({args.pacing}) while bot dealers"
        f" make ~{args.rate:g} table commands/s; {args.floors} floor monitors on the tournament"
    )
    print(
        f"   {cores} cores (load average before: {load}); redis-server {version} (AOF,"
        f" appendfsync {args.fsync}); permessage-deflate {'off' if args.no_compression else 'on'};"
        f" clients: {args.workers} dealer/floor processes and 1 admin process"
        f" ({args.admins} connections), on the same cores"
    )
    print(
        f"   set-up {run.set_up_s:.1f} s; run {run.end - run.t0:.1f} s (ends with the last"
        f" registration), first {args.warmup:g} s not counted"
    )
    print()
    print(
        "registrations: admin sends `register` -> every floor has `seated` and the seat's dealer"
        " station `player_added`"
    )
    print(
        f"  registered {regs.registered:,} of {regs.total:,} at {reg_rate:.1f}/s achieved"
        f" (target {args.reg_rate:g}/s); {r.late} arrivals waited for a free admin connection"
    )
    tries = regs.attempts
    if tries:
        mean = sum(tries) / len(tries)
        print(
            f"  attempts per registration: mean {mean:.2f}, p50 {tries[len(tries) // 2]},"
            f" p99 {tries[min(len(tries) - 1, int(0.99 * len(tries)))]}, max {tries[-1]}"
            f" ({sum(1 for n in tries if n > 1)} of {len(tries)} needed more than one)"
        )
    print(f"  {'latency, ms':34} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    print(line("from the first send (goal)", regs.first))
    print(line("from the applied attempt's send", regs.applied))
    print(line("applied attempt -> its ack", regs.ack))
    print(line("arrival -> first send (queued)", regs.waited))
    for why, n in regs.missing.items():
        print(f"  {n} registrations incomplete: {why}")
    print()
    print(
        f"table commands: dealer sends -> each subscriber has the events (its dealer station and"
        f" {args.floors} floors)"
    )
    print(
        f"  {cmd_rate:.0f} commands/s acknowledged (target {args.rate:g}); {cmds.sent:,} sent in"
        f" the window, {cmds.acked:,} applied; {r.missed:,} arrivals found no table ready;"
        f" delivered {100 * cmds.deliveries / max(1, cmds.acked * (args.floors + 1)):.2f}%"
    )
    print(
        f"  {steady_rate:.0f} commands/s from +{steady_from - run.begin:.1f} s, once"
        f" {args.rate / args.table_max_rate:.0f} tables had 2+ players ({args.rate:g}/s at"
        f" {args.table_max_rate:g}/s a table; before, the room had too few players to make it)"
    )
    print(f"  {'latency, ms':34} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    print(line("each (command, subscriber)", cmds.latency))
    print(line(f"all {args.floors + 1} subscribers", cmds.worst))
    print(line("ack", cmds.ack))
    print()
    print(
        "refusals by code (the service's answers): "
        + (", ".join(f"{k} x{v}" for k, v in sorted(r.refusals.items())) or "none")
    )
    commands_by = {
        k.split('"')[1]: v
        for k, v in run.metrics.items()
        if k.startswith("tablewire_commands_total{") and v
    }
    if commands_by:
        print(
            "  server's count of command outcomes in the window (table and tournament commands):"
            f" {', '.join(f'{k} {v:.0f}' for k, v in sorted(commands_by.items()))}"
            f" ({sum(commands_by.values()) / max(1e-9, span):.0f}/s in all);"
            f" commit conflicts {run.metrics.get('tablewire_commit_conflicts_total', 0.0):.0f}"
        )
    print()
    tables = playing(r, run.begin, args.slice, args.workers)
    print(
        f"over time ({args.slice:g} s slices from the counted start): registration p99 ms"
        " (mean attempts) | table-command p99 ms (commands/s) | tables with 2+ players / in a"
        " hand"
    )
    for k in sorted(set(regs.by_slice) | set(cmds.by_slice)):
        if k < 0:
            continue
        rv = sorted(x for x, _ in regs.by_slice.get(k, []))
        ra = [n for _, n in regs.by_slice.get(k, [])]
        cv = sorted(cmds.by_slice.get(k, []))
        two, hand = tables.get(k, (math.nan, math.nan))
        print(
            f"  +{int(k * args.slice):4d} s  {ms(percentile(rv, 0.99))}"
            f" ({sum(ra) / max(1, len(ra)):5.2f}) | {ms(percentile(cv, 0.99))}"
            f" ({len(cv) / (args.floors + 1) / args.slice:4.0f}) |"
            f" {two:5.0f} / {hand:5.0f}"
        )
    print()
    print("CPU in the counted window (1.0 = one core busy):")
    parts = "  ".join(f"{k} {v:4.2f}" for k, v in run.cpu.items())
    other = max(0.0, run.machine * cores - sum(run.cpu.values()))
    print(f"  {parts}; machine {100 * run.machine:.0f}% busy, not in these {other:4.2f}")
    print(
        "  idle, every station connected: "
        + "  ".join(f"{k} {v:4.2f}" for k, v in run.idle.items())
    )
    listed = ", ".join(f"{name} {cores:4.2f}" for name, cores in run.others) or "none"
    print(
        f"  besides: interrupts and softirq (loopback network) {run.irq:4.2f}; other processes:"
        f" {listed}; idle waiting on the disk (iowait) {run.iowait:4.2f}"
    )
    foreign = sum(
        c for name, c in run.others if not name.startswith(("kworker", "jbd2", "ksoftirq"))
    )
    if foreign > 0.2:
        print(
            f"  WARNING: other processes took {foreign:.2f} cores during the run:"
            " the figures are pessimistic"
        )
    peak = max((mb for t, mb in run.rss if run.t0 <= t <= run.end), default=0.0)
    print(f"  server resident memory: peak {peak:.0f} MB")
    m = run.metrics
    commits = m.get("tablewire_commit_seconds_count", 0.0)
    if commits:
        slow = commits - m.get('tablewire_commit_seconds_bucket{le="0.01"}', 0.0)
        mean = m.get("tablewire_commit_seconds_sum", 0.0) / commits
        gcs = sum(v for k, v in m.items() if k.startswith("tablewire_gc_pause_seconds_sum"))
        print(
            f"  server's metrics: Redis commits {commits:.0f}, mean {1000 * mean:.1f} ms,"
            f" {slow:.0f} over 10 ms; garbage collection {1000 * gcs:.0f} ms in all"
        )
        print(f"  server's {loop_lateness(m)}")
    seen = ", ".join(f"{e} in {n} s (max {top} ms)" for e, n, top in run.redis_events) or "none"
    print(f"  redis-server latency events of {REDIS_SPIKE_MS} ms or more: {seen}")
    problems = r.problems + Counter({f"server log: {k}": v for k, v in run.log_errors.items()})
    if problems:
        print("problems:")
        for what, count in problems.most_common(25):
            print(f"  {count:6d}  {what}")
    for what, count in r.notes.items():
        print(f"  note: {count} x {what}")
    if run.profile:
        print(f"where the server's time went (py-spy, the first {args.profile:g} s counted):")
        for text in inclusive(run.profile):
            print(f"  {text}")
        for text in summarize_profile(run.profile)[-16:]:
            print(f"  {text}")
    print()
    full = args.players >= 5000 and args.tables >= 500 and args.rate >= 500
    print("goals" + ("" if full else " (a smaller setting than the goal's: indicative only)"))
    reg_p99 = 1000 * percentile(regs.first, 0.99)
    reg_ok = (
        reg_p99 < GOAL_MS
        and reg_rate >= 0.95 * args.reg_rate
        and regs.registered == regs.total
        and regs.complete == regs.counted
    )
    print(
        f"  registration p99 < {GOAL_MS:g} ms (command -> every affected station) at"
        f" {args.reg_rate:g}/s: p99 {reg_p99:.1f} ms at {reg_rate:.1f}/s,"
        f" {regs.registered:,}/{regs.total:,} registered — {'MET' if reg_ok else 'MISSED'}"
    )
    cmd_p99 = 1000 * percentile(cmds.latency, 0.99)
    cmd_ok = cmd_p99 < GOAL_MS and steady_rate >= 0.95 * args.rate
    print(
        f"  table commands p99 < {GOAL_MS:g} ms at {args.rate:g}/s beside it: p99 {cmd_p99:.1f} ms"
        f" at {steady_rate:.0f}/s once the room could make it ({cmd_rate:.0f}/s over the whole"
        f" window) — {'MET' if cmd_ok else 'MISSED'}"
    )
    return {
        "registrations_per_s": reg_rate,
        "registered": regs.registered,
        "registration_p50_ms": 1000 * percentile(regs.first, 0.5),
        "registration_p95_ms": 1000 * percentile(regs.first, 0.95),
        "registration_p99_ms": reg_p99,
        "registration_max_ms": 1000 * regs.first[-1] if regs.first else None,
        "registration_applied_p99_ms": 1000 * percentile(regs.applied, 0.99),
        "registration_attempts_mean": sum(tries) / max(1, len(tries)),
        "commands_per_s": cmd_rate,
        "commands_per_s_once_playing": steady_rate,
        "command_p50_ms": 1000 * percentile(cmds.latency, 0.5),
        "command_p95_ms": 1000 * percentile(cmds.latency, 0.95),
        "command_p99_ms": cmd_p99,
        "command_max_ms": 1000 * cmds.latency[-1] if cmds.latency else None,
        "refusals": dict(r.refusals),
        "cpu": run.cpu,
        "goal_registration_met": reg_ok,
        "goal_commands_met": cmd_ok,
    }


# --- main --------------------------------------------------------------------------------


async def orchestrate(args: argparse.Namespace) -> int:
    started = time.monotonic()
    files = 4 * args.tables + 1000
    with scratch("tablewire-tournament-", args.keep, files, args.fsync) as (workdir, redis):
        import redis as redis_lib

        client = redis_lib.Redis.from_url(redis.url)
        version = str(client.info("server").get("redis_version", "?"))
        client.config_set("latency-monitor-threshold", REDIS_SPIKE_MS)
        client.close()
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        share = await wait_quiet(0.15, args.wait_quiet)
        print(
            f"tablewire: machine {100 * share:.0f}% busy before the start; load {load}", flush=True
        )
        result = await run(args, workdir, redis)
        out = report(args, result, version, load)
        return finished(started, out, args.json)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        spec = json.loads(Path(sys.argv[2]).read_text())
        loop.run(admin_worker(spec) if spec["kind"] == "admin" else dealer_worker(spec))
        return
    parser = argparse.ArgumentParser(
        description="Tablewire: registrations into a running tournament beside table commands"
    )
    parser.add_argument("--players", type=int, help="players to register (5000; quick 400)")
    parser.add_argument("--tables", type=int, help="tables opened (500; quick 50)")
    parser.add_argument("--table-size", type=int, default=10)
    parser.add_argument("--reg-rate", type=float, help="registrations/s (50; quick 20)")
    parser.add_argument(
        "--rate", type=float, help="table commands/s in all (500; quick 100; 0: none)"
    )
    parser.add_argument(
        "--table-max-rate",
        type=float,
        default=4.0,
        help="commands/s one table may make at most (the room's pace spreads over the tables"
        " playing; 4: a dealer's command every 250 ms at the fastest)",
    )
    parser.add_argument("--pacing", choices=["poisson", "even"], default="poisson")
    parser.add_argument(
        "--admins", type=int, default=1, help="admin connections, one registration in flight each"
    )
    parser.add_argument(
        "--retry-after",
        type=float,
        default=0.0,
        help="ms the admin waits before sending a refused registration again (0: at once)",
    )
    parser.add_argument("--floors", type=int, default=5, help="floor monitors")
    parser.add_argument("--workers", type=int, default=2, help="dealer/floor client processes")
    parser.add_argument("--warmup", type=float, help="seconds not counted (2; quick 1)")
    parser.add_argument(
        "--slice", type=float, help="seconds per line of the timeline (10; quick 5)"
    )
    parser.add_argument("--drain", type=float, default=2.0)
    parser.add_argument("--max-drain", type=float, default=60.0)
    parser.add_argument("--no-compression", action="store_true")
    parser.add_argument("--quick", action="store_true", help="400 players, 50 tables, 20/s, 100/s")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument(
        "--wait-quiet", type=float, default=0.0, help="wait up to this long for an idle machine"
    )
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    parser.add_argument(
        "--fsync",
        choices=["always", "everysec"],
        default="always",
        help="redis-server's appendfsync (always, as the service runs; everysec takes the"
        " disk's fsyncs out of the acknowledgement path, to see the server's own share)",
    )
    parser.add_argument(
        "--profile", type=float, default=0.0, help="py-spy the server for this many s (0: no)"
    )
    args = parser.parse_args()
    q = args.quick
    args.players = args.players or (400 if q else 5000)
    args.tables = args.tables or (50 if q else 500)
    args.reg_rate = args.reg_rate or (20.0 if q else 50.0)
    args.rate = args.rate if args.rate is not None else (100.0 if q else 500.0)
    args.warmup = args.warmup if args.warmup is not None else (1.0 if q else 2.0)
    args.slice = args.slice or (5.0 if q else 10.0)
    if args.players > args.tables * args.table_size:
        parser.error("more players than seats")
    sys.exit(asyncio.run(orchestrate(args)))


if __name__ == "__main__":
    main()
