"""The crowd run (``benchmarks/load.py --displays-per-table N``): many displays a table over
``--instances`` instances on one Redis, the bot dealers paced at ``--rate``; what it costs each
instance and how late the last display of a table sees each command.

The client processes (``loadgen.crowd``) hold whole tables; the orchestrator here starts the
instances, measures each one's resident memory before the stations come and once they are all
connected and idle (the memory an idle connection costs), its CPU idle and in the counted part
of the phase, its counters (the event-loop watch, the collector) across the phase, and prints
the figures beside the issue's goals.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loadgen.histogram import Histogram
from loadgen.machine import (
    REDIS_SPIKE_MS,
    cpu_pressure,
    cpu_ticks,
    fetch_metrics,
    finish_profile,
    log_errors,
    machine_busy,
    redis_latency,
    rss_mb,
    spawn_worker,
    start_profile,
    start_server,
    stop,
    summarize_profile,
    wait_quiet,
)
from loadgen.report import loop_lateness, stalls
from loadgen.stations import spec_phases
from server.health import wait_http

GOAL_P99_MS = 50.0
GOAL_KB_PER_IDLE = 16.0
GOAL_LOOP_MS = 25.0
FD_PER_WORKER = 15_000
"""Stations a client process holds at most: its open-files limit is 20,000, as the server's."""
TICK = os.sysconf("SC_CLK_TCK")


@dataclass
class Instance:
    port: int
    proc: subprocess.Popen[bytes]
    stations: int = 0
    rss_before: float = 0.0
    rss_idle: float = 0.0
    rss_peak: float = 0.0
    cpu_idle: float = 0.0
    cpu_phase: float = 0.0
    metrics: dict[str, float] = field(default_factory=dict)


def placement(tables: int, displays: int, instances: int) -> list[int]:
    """How many stations each instance holds: a table's dealer on ``table % K``, its display
    ``n`` on ``(table + n) % K`` (what ``loadgen.crowd`` connects)."""
    counts = [0] * instances
    for t in range(1, tables + 1):
        counts[t % instances] += 1
        for n in range(displays):
            counts[(t + n) % instances] += 1
    return counts


async def crowd(
    args: argparse.Namespace, redis_url: str, redis_pid: int, secret: str, workdir: Path
) -> dict[str, Any]:
    """Start the instances, run the crowd, print the report; the figures as a dict."""
    from load import create_tables

    share = await wait_quiet(0.15, args.wait_quiet)
    print(f"crowd: machine {100 * share:.0f}% busy before the start", flush=True)
    started = [start_server(redis_url, secret, workdir, wait=False) for _ in range(args.instances)]
    instances = [Instance(port, proc) for proc, port in started]
    workers: list[asyncio.subprocess.Process] = []
    try:
        for inst in instances:
            await asyncio.to_thread(wait_http, inst.port, "/readyz")
        urls = [f"ws://127.0.0.1:{inst.port}/" for inst in instances]
        await create_tables(urls[0], secret.encode(), args.tables, args.seats)
        for inst, count in zip(
            instances, placement(args.tables, args.displays_per_table, args.instances), strict=True
        ):
            inst.stations = count
            inst.rss_before = rss_mb(inst.proc.pid)
        stations = args.tables * (1 + args.displays_per_table)
        count = max(args.workers, -(-stations // FD_PER_WORKER))
        tables = list(range(1, args.tables + 1))
        for w in range(count):
            spec = {
                "kind": "crowd",
                "secret": secret,
                "urls": urls,
                "tables": tables[w::count],
                "tables_total": args.tables,
                "displays": args.displays_per_table,
                "seats": args.seats,
                "rate": args.rate,
                "phases": [0],
                "seconds": args.seconds,
                "warmup": args.warmup,
                "drain": args.drain,
                "max_drain": args.max_drain,
                "seed": args.seed,
                "deflate": not args.no_compression,
                "gate": 32,
                "out": str(workdir / f"crowd{w}.json"),
            }
            workers.append(
                await spawn_worker(args.script, spec, workdir / f"crowd{w}.spec", args.clients_nice)
            )
        connecting = time.monotonic()
        for proc in workers:
            assert proc.stdout is not None
            line = await asyncio.wait_for(proc.stdout.readline(), 1800)
            if line.strip() != b"ready":
                raise RuntimeError(f"a crowd worker did not start: {line!r}")
        print(
            f"crowd: {stations:,} stations connected over {count} client processes in"
            f" {time.monotonic() - connecting:.0f} s",
            flush=True,
        )
        return await measure(args, instances, workers, (redis_url, redis_pid), workdir, stations)
    finally:
        for proc in workers:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
        for inst in instances:
            stop(inst.proc)


async def measure(
    args: argparse.Namespace,
    instances: list[Instance],
    workers: list[asyncio.subprocess.Process],
    redis: tuple[str, int],
    workdir: Path,
    stations: int,
) -> dict[str, Any]:
    """Idle, then the paced phase: what each instance costs; then the workers' tallies."""
    redis_url, redis_pid = redis
    pids = {f"instance{i}": inst.proc.pid for i, inst in enumerate(instances)}
    pids["redis"] = redis_pid
    pids |= {f"client{i}": w.pid for i, w in enumerate(workers)}
    ticks = {k: cpu_ticks(p) for k, p in pids.items()}
    await asyncio.sleep(args.idle)
    idle = {k: (cpu_ticks(p) - ticks[k]) / TICK / args.idle for k, p in pids.items()}
    for i, inst in enumerate(instances):
        inst.rss_idle = rss_mb(inst.proc.pid)
        inst.cpu_idle = idle[f"instance{i}"]
    t0 = time.monotonic() + 1.0
    for proc in workers:
        assert proc.stdin is not None
        proc.stdin.write(f"go {t0}\n".encode())
        await proc.stdin.drain()
    ((_, start, end),) = spec_phases({"phases": [0], "seconds": args.seconds, "drain": 0}, t0)
    begin = start + args.warmup
    await asyncio.sleep(max(0.0, begin - time.monotonic()))
    before = await asyncio.gather(*(fetch_metrics(inst.port) for inst in instances))
    await redis_latency(redis_url, reset=True)
    ticks = {k: cpu_ticks(p) for k, p in pids.items()}
    busy0, total0 = machine_busy()
    waited0 = cpu_pressure()
    wall0 = time.monotonic()
    spy = None
    if args.profile:
        spy = await start_profile(instances[0].proc.pid, end - begin - 0.5, workdir)
    while time.monotonic() < end:
        for inst in instances:
            inst.rss_peak = max(inst.rss_peak, rss_mb(inst.proc.pid))
        await asyncio.sleep(min(0.5, max(0.0, end - time.monotonic())))
    wall = time.monotonic() - wall0
    busy1, total1 = machine_busy()
    waiting = (cpu_pressure() - waited0) / 1e6 / wall
    phase_cpu = {k: (cpu_ticks(p) - ticks[k]) / TICK / wall for k, p in pids.items()}
    after = await asyncio.gather(*(fetch_metrics(inst.port) for inst in instances))
    spikes = await redis_latency(redis_url, reset=False)
    for i, inst in enumerate(instances):
        inst.cpu_phase = phase_cpu[f"instance{i}"]
        inst.metrics = {k: after[i].get(k, 0.0) - before[i].get(k, 0.0) for k in after[i]}
    profile = await finish_profile(spy, workdir) if spy is not None else None
    tallies = []
    for w, proc in enumerate(workers):
        await asyncio.wait_for(proc.wait(), args.drain + args.max_drain + 300)
        tallies.append(json.loads((workdir / f"crowd{w}.json").read_text()))
    machine = (busy1 - busy0) / max(1, total1 - total0)
    out = report(args, instances, tallies, idle, phase_cpu, machine, stations, workdir)
    print(
        f"cores wanted: some process of the machine waited for a core {100 * waiting:.0f}% of"
        " the phase (the kernel's CPU pressure): a loop timer late while the instance waits"
        " for a core is the machine's, not the instance's"
    )
    out["cpu_pressure"] = waiting
    seen = ", ".join(f"{name} in {n} s (max {top} ms)" for name, n, top in spikes) or "none"
    print(f"redis-server latency events of {REDIS_SPIKE_MS} ms or more in the phase: {seen}")
    out["redis_latency"] = spikes
    if profile:
        Path(args.profile_out).write_text(profile)
        print(f"\n== where instance 0's time goes (py-spy, paced phase; raw: {args.profile_out})")
        for line in summarize_profile(profile):
            print(line)
    return out


def report(
    args: argparse.Namespace,
    instances: list[Instance],
    tallies: list[dict[str, Any]],
    idle: dict[str, float],
    phase_cpu: dict[str, float],
    machine: float,
    stations: int,
    workdir: Path,
) -> dict[str, Any]:
    each, every, ack = Histogram(), Histogram(), Histogram()
    commands = acked = frames = short = unmatched = late = 0
    problems: Counter[str] = Counter()
    for t in tallies:
        each.merge(Histogram.load(t["each"]))
        every.merge(Histogram.load(t["every"]))
        ack.merge(Histogram.load(t["ack"]))
        commands += t["commands"]
        acked += t["acked_in_window"]
        frames += t["frames"]
        short += t["short"]
        unmatched += t["unmatched"]
        late += t["late"]
        problems.update(t["problems"])
    problems.update({f"server log: {k}": v for k, v in log_errors(workdir / "server.log").items()})
    span = args.seconds - args.warmup
    n = args.displays_per_table
    displays = args.tables * n
    print()
    print(
        f"== Tablewire crowd: {args.tables} tables x {n} displays = {displays:,} displays and"
        f" {args.tables} bot dealers ({stations:,} websockets) over {len(instances)}"
        f" instance(s), {len(tallies)} client processes; paced {args.rate:g} commands/s"
        f" (Poisson), {args.seconds:g} s, first {args.warmup:g} s not counted"
    )
    print(
        f"   {os.cpu_count()} cores shared by the instances, redis-server and the clients;"
        f" the stations {'do not offer' if args.no_compression else 'offer'} permessage-deflate"
        " (the server declines it)"
        + (f"; the clients run at nice {args.clients_nice}" if args.clients_nice else "")
    )
    print(
        f"commands: {acked / span:.0f}/s acknowledged ({commands} sent in the window);"
        f" display frames delivered: {frames / span:,.0f}/s"
        f" (expected {acked / span * n:,.0f}/s)"
    )

    def row(label: str, h: Histogram) -> str:
        return (
            f"  {label:34} p50 {1000 * h.percentile(0.5):7.1f}"
            f"  p95 {1000 * h.percentile(0.95):7.1f}  p99 {1000 * h.percentile(0.99):7.1f}"
            f"  max {1000 * h.largest:7.1f}  (n={h.total:,})"
        )

    print("latency, ms (histograms of 1% buckets):")
    print(row("dealer -> each display", each))
    print(row(f"dealer -> every display (all {n})", every))
    print(row("dealer -> its ack", ack))
    print(
        f"  commands whose {n} displays did not all see them: {short};"
        f" frames matching no command: {unmatched}; paced sends that waited for an ack: {late}"
    )
    print("instances:")
    rows = []
    for i, inst in enumerate(instances):
        per_conn = 1024 * (inst.rss_idle - inst.rss_before) / max(1, inst.stations)
        rows.append(per_conn)
        print(
            f"  instance {i} ({inst.stations:,} stations): CPU idle {inst.cpu_idle:4.2f},"
            f" paced {inst.cpu_phase:4.2f} cores; RSS {inst.rss_before:.0f} MB before the"
            f" stations, {inst.rss_idle:.0f} MB connected and idle ({per_conn:.1f} KB a"
            f" connection), peak {inst.rss_peak:.0f} MB in the phase"
        )
        for line in stalls(inst.metrics):
            print(f"    {line}")
    others = "  ".join(f"{k} {v:4.2f}" for k, v in phase_cpu.items() if not k.startswith("inst"))
    print(
        f"  other CPU in the phase: {others}; machine {100 * machine:.0f}% busy"
        f" (idle: redis {idle.get('redis', 0.0):4.2f})"
    )
    if problems:
        print("problems:")
        for k, v in problems.most_common(15):
            print(f"  {v:6d}  {k}")
    p99 = 1000 * every.percentile(0.99)
    per_conn = max(rows)
    late_timers = [_late_timers(inst.metrics) for inst in instances]
    print("goals:")
    print(
        f"  p99 dealer -> every display < {GOAL_P99_MS:g} ms: {p99:.1f} ms —"
        f" {'MET' if p99 < GOAL_P99_MS else 'MISSED'}"
    )
    print(
        f"  <= {GOAL_KB_PER_IDLE:g} KB of server memory an idle connection: {per_conn:.1f} KB"
        f" (the larger instance's) — {'MET' if per_conn <= GOAL_KB_PER_IDLE else 'MISSED'}"
    )
    print(
        f"  no pause of the event loop over {GOAL_LOOP_MS:g} ms: "
        + ", ".join(f"instance {i}: {n:.0f} timers late" for i, n in enumerate(late_timers))
        + f" — {'MET' if not any(late_timers) else 'MISSED'}"
    )
    return {
        "tables": args.tables,
        "displays_per_table": n,
        "instances": len(instances),
        "commands_per_s": acked / span,
        "frames_per_s": frames / span,
        "each_ms": _figures(each),
        "every_ms": _figures(every),
        "ack_ms": _figures(ack),
        "short": short,
        "kb_per_idle_connection": rows,
        "instance_cpu": [inst.cpu_phase for inst in instances],
        "instance_cpu_idle": [inst.cpu_idle for inst in instances],
        "instance_rss_mb": [[i.rss_before, i.rss_idle, i.rss_peak] for i in instances],
        "loop_late_timers": late_timers,
        "loop_lateness": [loop_lateness(inst.metrics) for inst in instances],
        "problems": dict(problems),
    }


def _late_timers(m: dict[str, float]) -> float:
    name = "tablewire_event_loop_lateness_seconds"
    return m.get(f"{name}_count", 0.0) - m.get(f'{name}_bucket{{le="0.025"}}', 0.0)


def _figures(h: Histogram) -> dict[str, float]:
    return {
        "p50": 1000 * h.percentile(0.5),
        "p95": 1000 * h.percentile(0.95),
        "p99": 1000 * h.percentile(0.99),
        "max": 1000 * h.largest,
        "n": h.total,
    }
