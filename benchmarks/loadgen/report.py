"""From the workers' records to the printed report: latency percentiles, CPU, goals."""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from loadgen.common import (
    FLOORS,
    GOAL_P99_MS,
    GOAL_RATE,
    GOAL_RELAY_RATIO,
    PACED,
    PHASE_NAMES,
    SATURATION,
)
from loadgen.delayed import DelayedRecords, report_delayed
from loadgen.machine import REDIS_SPIKE_MS
from loadgen.stations import Records


@dataclass
class PhaseCpu:
    seconds: float
    procs: dict[str, float]
    machine: float


@dataclass
class TargetRun:
    name: str
    records: Records
    phases: list[tuple[int, float, float]]
    cpu: dict[int, PhaseCpu]
    metrics: dict[int, dict[str, float]]
    profile: str | None = None
    log_errors: Counter[str] = field(default_factory=Counter)
    idle: dict[str, float] = field(default_factory=dict)
    redis_latency: dict[int, list[tuple[str, int, int]]] = field(default_factory=dict)
    """Per phase, redis-server's own latency events: (event, seconds it occurred in, max ms)."""
    rss_connected: float = 0.0
    """The server's (or relay's) resident MB with every station connected, before the phases."""
    rss_peaks: dict[int, float] = field(default_factory=dict)
    """Its peak resident MB in each phase and the drain after it."""
    delayed: DelayedRecords | None = None
    final_metrics: dict[str, float] = field(default_factory=dict)
    """The server's counters once every client process was done."""


# --- analysis ------------------------------------------------------------------------------


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


@dataclass
class PhaseResult:
    phase: int
    rate: float
    acked: int
    sent: int
    deliveries: int
    expected: int
    latency: list[float]
    worst: list[float]
    ack: list[float]
    by_second: dict[int, list[float]] = field(default_factory=dict)
    """Latency samples by the second (from the phase's counted start) their command was sent."""


def analyse(run: TargetRun, args: argparse.Namespace) -> dict[int, PhaseResult]:
    r = run.records
    windows = {p: (s + args.warmup, e) for p, s, e in run.phases}
    sent_at: dict[tuple[int, int], int] = {}
    for i, (t, k) in enumerate(zip(r.send_table, r.send_key, strict=True)):
        sent_at[(t, k)] = i
    per_command: dict[int, list[float]] = defaultdict(list)
    for table, seq, count, t in zip(r.recv_table, r.recv_seq, r.recv_count, r.recv_t, strict=True):
        for s in range(seq, seq + count):
            i = sent_at.get((table, s))
            if i is not None:
                per_command[i].append(t - r.send_t[i])
    subscribers = 1 + FLOORS
    results = {}
    for phase, (begin, end) in windows.items():
        span = end - begin
        acked = sent = deliveries = 0
        latency: list[float] = []
        worst: list[float] = []
        ack: list[float] = []
        by_second: dict[int, list[float]] = defaultdict(list)
        for i in range(len(r.send_t)):
            if r.send_phase[i] != phase:
                continue
            a = r.ack_t[i]
            if begin <= a <= end:
                acked += 1
            if not begin <= r.send_t[i] <= end:
                continue
            sent += 1
            if a == a:
                ack.append(a - r.send_t[i])
            got = per_command.get(i, [])
            deliveries += len(got)
            latency.extend(got)
            by_second[int(r.send_t[i] - begin)].extend(got)
            if len(got) >= subscribers:
                worst.append(max(got))
        latency.sort()
        worst.sort()
        ack.sort()
        results[phase] = PhaseResult(
            phase,
            acked / span,
            acked,
            sent,
            deliveries,
            sent * subscribers,
            latency,
            worst,
            ack,
            {k: sorted(v) for k, v in by_second.items()},
        )
    return results


def stalls(m: dict[str, float]) -> list[str]:
    """What the server's histograms say about its own stalls during a phase."""
    commands = m.get("tablewire_command_seconds_count", 0.0)
    quick = m.get('tablewire_command_seconds_bucket{le="0.025"}', 0.0)
    commits = m.get("tablewire_commit_seconds_count", 0.0)
    slow_commits = commits - m.get('tablewire_commit_seconds_bucket{le="0.01"}', 0.0)
    commit_bound = min(
        (
            float(k.split('le="')[1].rstrip('"}'))
            for k, v in m.items()
            if k.startswith("tablewire_commit_seconds_bucket") and v >= commits
        ),
        default=float("inf"),
    )
    gcs = {
        k.split('"')[1]: v for k, v in m.items() if k.startswith("tablewire_gc_pause_seconds_count")
    }
    long_gcs = {
        g: gcs[g] - m.get(f'tablewire_gc_pause_seconds_bucket{{generation="{g}",le="0.01"}}', 0.0)
        for g in gcs
    }
    gc_time = sum(v for k, v in m.items() if k.startswith("tablewire_gc_pause_seconds_sum"))
    return [
        f"{100 * quick / max(1.0, commands):.2f}% of commands acked within 25 ms of arrival;"
        f" Redis commits over 10 ms: {slow_commits:.0f} of {commits:.0f}"
        f" (all within {1000 * commit_bound:g} ms)",
        "garbage collections: "
        + ", ".join(f"gen {g} x{gcs[g]:.0f} ({long_gcs[g]:.0f} over 10 ms)" for g in sorted(gcs))
        + f"; {1000 * gc_time:.0f} ms in all",
        loop_lateness(m),
    ]


def loop_lateness(m: dict[str, float]) -> str:
    """The server's event-loop watch (``tablewire_event_loop_lateness_seconds``): how many of
    its timers ran over 25 ms late (a pause every station felt), and the bucket of the latest."""
    name = "tablewire_event_loop_lateness_seconds"
    count = m.get(f"{name}_count", 0.0)
    if not count:
        return "event loop lateness: not measured (a server without the watch)"
    late = count - m.get(f'{name}_bucket{{le="0.025"}}', 0.0)
    bound = min(
        (
            float(k.split('le="')[1].rstrip('"}'))
            for k, v in m.items()
            if k.startswith(f"{name}_bucket") and v >= count
        ),
        default=float("inf"),
    )
    return (
        f"event loop: {late:.0f} of {count:.0f} timers (every 10 ms) ran over 25 ms late;"
        f" the latest within {1000 * bound:g} ms"
    )


def ms(x: float) -> str:
    return f"{1000 * x:7.1f}"


def report(
    args: argparse.Namespace, runs: dict[str, TargetRun], started: float, redis_version: str
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    analysed = {name: analyse(run, args) for name, run in runs.items()}
    print()
    print(
        f"== Tablewire load: {args.tables} tables x {args.seats} seats, a bot dealer and a display"
        f" per table, {FLOORS} floor monitors on the whole tournament"
    )
    print(
        f"   {os.cpu_count()} cores; redis-server {redis_version} (AOF, appendfsync"
        f" {args.fsync}, ext4 temp dir); websocket permessage-deflate"
        f" {'off' if args.no_compression else 'on'}"
    )
    print(
        f"   load generator: {args.workers} client processes, separate from the server process"
        f" but on the same {os.cpu_count()} cores (their CPU is shown below)"
    )
    print(
        f"   phases: {args.seconds:g} s each, first {args.warmup:g} s not counted; paced ="
        f" Poisson arrivals at {args.rate:g} commands/s in total, 1 in flight per dealer;"
        f" saturation = {args.depth} in flight per dealer"
    )
    print()
    header = (
        f"{'target':10} {'phase':10} {'cmd/s':>8} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}"
        f" {'all-11 p99':>10} {'ack p50':>8} {'ack p99':>8} {'delivered':>9}"
    )
    print("latency, ms: dealer sends -> each subscriber has the events (display + 10 floors)")
    print(header)
    for name, phases in analysed.items():
        for phase, res in phases.items():
            lat = res.latency
            print(
                f"{name:10} {PHASE_NAMES[phase]:10} {res.rate:8.0f} {ms(percentile(lat, 0.5))}"
                f" {ms(percentile(lat, 0.95))} {ms(percentile(lat, 0.99))}"
                f" {ms(lat[-1] if lat else float('nan'))}"
                f" {ms(percentile(res.worst, 0.99)):>10} {ms(percentile(res.ack, 0.5)):>8}"
                f" {ms(percentile(res.ack, 0.99)):>8}"
                f" {100 * res.deliveries / max(1, res.expected):8.2f}%"
            )
            out[f"{name}.{PHASE_NAMES[phase]}"] = {
                "commands_per_s": res.rate,
                "commands_acked": res.acked,
                "commands_sent_in_window": res.sent,
                "p50_ms": 1000 * percentile(lat, 0.5),
                "p95_ms": 1000 * percentile(lat, 0.95),
                "p99_ms": 1000 * percentile(lat, 0.99),
                "max_ms": 1000 * lat[-1] if lat else None,
                "all_subscribers_p99_ms": 1000 * percentile(res.worst, 0.99),
                "ack_p50_ms": 1000 * percentile(res.ack, 0.5),
                "ack_p99_ms": 1000 * percentile(res.ack, 0.99),
                "delivered_fraction": res.deliveries / max(1, res.expected),
            }
    print()
    print(
        "CPU during the counted part of each phase (1.0 = one core busy; other = the rest of the"
        " machine: other processes, kernel network work)"
    )
    noisy: list[str] = []
    for name, run in runs.items():
        for phase, c in run.cpu.items():
            parts = "  ".join(f"{k} {v:4.2f}" for k, v in c.procs.items())
            clients = sum(v for k, v in c.procs.items() if k.startswith("client"))
            other = max(0.0, c.machine * (os.cpu_count() or 1) - sum(c.procs.values()))
            print(
                f"  {name:10} {PHASE_NAMES[phase]:10} {parts}  (clients total {clients:4.2f});"
                f" machine {100 * c.machine:3.0f}% busy, other {other:4.2f}"
            )
            if other > 0.2:
                noisy.append(f"{name} {PHASE_NAMES[phase]} ({other:.2f} cores)")
            out[f"{name}.{PHASE_NAMES[phase]}"]["cpu"] = c.procs
            out[f"{name}.{PHASE_NAMES[phase]}"]["machine_busy"] = c.machine
    for name, run in runs.items():
        idle = "  ".join(f"{k} {v:4.2f}" for k, v in run.idle.items())
        print(f"  {name:10} {'idle':10} {idle}  (all stations connected, no commands)")
    print("server CPU per command (robust to other load on the machine):")
    for name, run in runs.items():
        proc = "relay" if name == "relay" else "server"
        results = analysed[name]
        for phase, c in run.cpu.items():
            rate = results[phase].rate
            if rate:
                per = c.procs.get(proc, 0.0) / rate
                redis = sum(v for k, v in c.procs.items() if k.startswith(("redis", "replica")))
                with_redis = per + redis / rate
                print(
                    f"  {name:10} {PHASE_NAMES[phase]:10} {1000 * per:5.3f} ms of {proc} CPU"
                    " a command"
                    f" ({1000 * with_redis:5.3f} with redis-server): one full core would carry"
                    f" about {1 / per if per else float('nan'):,.0f} commands/s"
                )
                out[f"{name}.{PHASE_NAMES[phase]}"]["server_cpu_ms_per_command"] = 1000 * per
    if noisy:
        print(
            f"  WARNING: the machine was busy with other work during {', '.join(noisy)}:"
            " those figures are pessimistic"
        )
    for name, run in runs.items():
        peaks = ", ".join(f"{PHASE_NAMES[p]} {mb:.0f} MB" for p, mb in run.rss_peaks.items())
        print(
            f"  {name} process resident memory: {run.rss_connected:.0f} MB with every station"
            f" connected; peak {peaks}"
        )
        out[f"{name}.rss_mb"] = {"connected": run.rss_connected} | {
            PHASE_NAMES[p]: mb for p, mb in run.rss_peaks.items()
        }
    tw = runs.get("tablewire")
    if tw is not None:
        for phase, m in tw.metrics.items():
            count = m.get("tablewire_command_seconds_count", 0.0)
            lag = m.get("tablewire_fanout_lag_seconds_count", 0.0)
            if count:
                mean = m.get("tablewire_command_seconds_sum", 0.0) / count
                lag_mean = m.get("tablewire_fanout_lag_seconds_sum", 0.0) / max(1, lag)
                print(
                    f"  server's own metrics, {PHASE_NAMES[phase]}: command arrival -> ack mean"
                    f" {1000 * mean:.1f} ms over {count:.0f}; commit -> fan-out mean"
                    f" {1000 * lag_mean:.1f} ms"
                )
                for line in stalls(m):
                    print(f"    {line}")
    for name, run in runs.items():
        for phase, events in run.redis_latency.items():
            seen = ", ".join(f"{e} in {n} s (max {top} ms)" for e, n, top in events) or "none"
            print(
                f"  redis-server latency events of {REDIS_SPIKE_MS} ms or more, {name}"
                f" {PHASE_NAMES[phase]}: {seen}"
            )
    for name, phases in analysed.items():
        for phase, res in phases.items():
            worst_seconds = sorted(
                ((percentile(v, 0.99), k) for k, v in res.by_second.items() if v), reverse=True
            )[:3]
            listed = ", ".join(f"+{k} s p99 {1000 * p:.1f} ms" for p, k in worst_seconds)
            print(f"  {name} {PHASE_NAMES[phase]}: worst seconds {listed}")
    problems: Counter[str] = Counter()
    for name, run in runs.items():
        for k, v in run.records.problems.items():
            problems[f"{name}: {k}"] += v
        if run.records.late:
            print(f"  {name}: {run.records.late} paced sends waited for the previous ack")
    for name, run in runs.items():
        for k, v in run.log_errors.items():
            problems[f"{name} log: {k}"] += v
    if problems:
        print("problems:")
        for k, v in problems.most_common(20):
            print(f"  {v:6d}  {k}")
    if tw is not None and tw.delayed is not None:
        out["tablewire.delayed"] = report_delayed(
            tw.records,
            tw.delayed,
            [p for p, _, _ in tw.phases],
            args.delayed,
            args.delayed_count,
            tw.final_metrics.get("tablewire_slow_clients_total", float("nan")),
        )
    print()
    print(
        "goals"
        + (
            " (smaller than the goals' setting of 1,000 tables at 500 commands/s: indicative only)"
            if args.tables < 1000 or args.rate < 500
            else ""
        )
    )
    goals = []
    tw_res = analysed.get("tablewire", {})
    relay_res = analysed.get("relay", {})
    if PACED in tw_res:
        p99 = 1000 * percentile(tw_res[PACED].latency, 0.99)
        rate = tw_res[PACED].rate
        delivered = tw_res[PACED].deliveries / max(1, tw_res[PACED].expected)
        ok = p99 < GOAL_P99_MS and rate >= 0.95 * args.rate and delivered >= 0.9999
        goals.append(ok)
        print(
            f"  p99 < {GOAL_P99_MS:g} ms at {args.rate:g} commands/s over {args.tables} tables:"
            f" p99 {p99:.1f} ms at {rate:.0f} commands/s achieved — {'MET' if ok else 'MISSED'}"
        )
        fsync_stalls = [
            top
            for event, _, top in runs["tablewire"].redis_latency.get(PACED, [])
            if event.startswith("aof-fsync") and top >= GOAL_P99_MS
        ]
        if not ok and fsync_stalls:
            print(
                "    (the disk: redis-server's fsyncs stalled for up to"
                f" {max(fsync_stalls)} ms in this phase, and an acknowledgement waits for its"
                " fsync; see --fsync everysec)"
            )
        out["goal_latency_met"] = ok
        out["paced_fsync_stall_max_ms"] = max(fsync_stalls, default=0)
    if SATURATION in tw_res:
        rate = tw_res[SATURATION].rate
        ok = rate >= GOAL_RATE
        goals.append(ok)
        print(
            f"  >= {GOAL_RATE:,.0f} commands/s sustained: {rate:,.0f} commands/s —"
            f" {'MET' if ok else 'MISSED'}"
        )
        out["goal_throughput_met"] = ok
        if SATURATION in relay_res:
            relay_rate = relay_res[SATURATION].rate
            ratio = rate / relay_rate if relay_rate else float("nan")
            ok = ratio >= GOAL_RELAY_RATIO
            goals.append(ok)
            print(
                f"  >= {GOAL_RELAY_RATIO:g} x the bare relay's throughput: {rate:,.0f} /"
                f" {relay_rate:,.0f} = {ratio:.2f} — {'MET' if ok else 'MISSED'}"
            )
            out["relay_ratio"] = ratio
            out["goal_relay_ratio_met"] = ok
    print(f"(run took {time.monotonic() - started:.0f} s)")
    return out
