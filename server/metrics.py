"""Prometheus metrics, served at ``/metrics``.

The process metrics (``process_*``) are this module's own collector, not prometheus_client's
default one: that one lists ``/proc/self/fd`` on every scrape to count open files, and with
19,000 stations connected a scrape held the event loop ~18 ms. Here the count is one ``stat``
(:func:`server.descriptors.open_files`), and the other figures come from ``/proc/self/stat``
as before, under the same names.
"""

from __future__ import annotations

import asyncio
import gc
import os
import resource
import time
from collections.abc import Iterator

from prometheus_client import REGISTRY, Counter, Gauge, Histogram
from prometheus_client.metrics_core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.process_collector import PROCESS_COLLECTOR
from prometheus_client.registry import Collector

from server.descriptors import open_files

COMMANDS = Counter("tablewire_commands_total", "Commands received, by outcome", ["outcome"])
COMMAND_SECONDS = Histogram(
    "tablewire_command_seconds",
    "From a command's arrival to its acknowledgement",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
CONNECTIONS = Gauge("tablewire_connections", "Open station connections, by role", ["role"])
LISTEN_BACKLOG = Gauge(
    "tablewire_listen_backlog",
    "The listen backlog asked of the kernel: what the free descriptors can take in one go",
)
FANOUT_LAG = Histogram(
    "tablewire_fanout_lag_seconds",
    "From a commit to its delivery to this instance's stations",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
CONFLICTS = Counter(
    "tablewire_commit_conflicts_total",
    "Commits that lost a race to another instance and were retried",
)
STALE_RULINGS = Counter(
    "tablewire_stale_rulings_total",
    "Tournament commands refused on a copy another instance had moved past, then ruled on again",
)
REPLICA_SHORTFALLS = Counter(
    "tablewire_replica_shortfalls_total",
    "Batches of commits whose WAIT came back with fewer replicas than wanted: not acknowledged,"
    " answered unavailable",
)
GAPS = Counter("tablewire_fanout_gaps_total", "Sequence gaps filled from the log")
KEEPALIVE_TIMEOUTS = Counter(
    "tablewire_keepalive_timeouts_total",
    "Stations closed with 1011: no pong to a keepalive ping within a heartbeat",
)
RECONNECTS = Counter("tablewire_subscription_reconnects_total", "Event subscription reconnections")
SLOW_CLIENTS = Counter("tablewire_slow_clients_total", "Stations told to resync for falling behind")
CATCH_UPS = Counter(
    "tablewire_catch_ups_total",
    "Subscriptions served (each a paged catch-up of its tables), replaced ones included",
)
REFUSED_CONNECTIONS = Counter(
    "tablewire_refused_connections_total",
    "Websocket upgrades refused before sign-in, by reason (open_files: the descriptors left are"
    " the reserve kept for health checks)",
    ["reason"],
)
REFUSED_FRAMES = Counter("tablewire_refused_frames_total", "Frames refused, by reason", ["code"])
COMMIT_SECONDS = Histogram(
    "tablewire_commit_seconds",
    "One atomic commit to Redis: the script's round trip, the AOF fsync included",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
GC_PAUSE_SECONDS = Histogram(
    "tablewire_gc_pause_seconds",
    "Pauses of the garbage collector, by generation: a long one stalls every station at once",
    ["generation"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25),
)
FROZEN_OBJECTS = Gauge(
    "tablewire_gc_frozen_objects",
    "Objects frozen out of the garbage collector's passes (server.collector): the stations,"
    " tables and the rest of what the service holds; freed by reference counting",
)


_collection_started = 0.0


def _on_collection(phase: str, info: dict[str, int]) -> None:
    global _collection_started
    if phase == "start":
        _collection_started = time.perf_counter()
    else:
        pause = time.perf_counter() - _collection_started
        GC_PAUSE_SECONDS.labels(str(info["generation"])).observe(pause)


def time_collections() -> None:
    """Observe every garbage collection's pause in ``GC_PAUSE_SECONDS`` (once per process)."""
    if _on_collection not in gc.callbacks:
        gc.callbacks.append(_on_collection)


LOOP_TICK = 0.01
"""Seconds between the event loop watch's timers: a pause of the loop longer than this shows
as a timer at least that much less late; 100 timers a second cost ~0.1% of a core."""
LOOP_LATENESS_SECONDS = Histogram(
    "tablewire_event_loop_lateness_seconds",
    f"How late the event loop ran a timer set {LOOP_TICK:g} s ahead: while one piece of work"
    " holds the loop (a collection, a long ruling, a large encode) every station waits",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)


async def watch_loop() -> None:
    """Observe the event loop's lateness in ``LOOP_LATENESS_SECONDS`` until cancelled. The
    garbage collector's pauses have their own histogram; this one sees every other pause too,
    which is what a station feels."""
    loop = asyncio.get_running_loop()
    while True:
        due = loop.time() + LOOP_TICK
        await asyncio.sleep(LOOP_TICK)
        LOOP_LATENESS_SECONDS.observe(max(0.0, loop.time() - due))


CHIPS_DIFFERENCE = Gauge(
    "tablewire_tournament_chips_difference",
    "At the last hand end: the tables' stacks minus the chips in play (0: they add up)",
    ["tournament"],
)


class ProcessMetrics(Collector):
    """``process_cpu_seconds_total``, ``process_resident_memory_bytes``,
    ``process_virtual_memory_bytes``, ``process_start_time_seconds``, ``process_open_fds`` and
    ``process_max_fds``, as prometheus_client's own collector names them, without listing the
    open files."""

    def __init__(self) -> None:
        self.ticks = float(os.sysconf("SC_CLK_TCK"))
        self.page = resource.getpagesize()
        with open("/proc/stat", "rb") as stat:
            self.boot = next(float(line.split()[1]) for line in stat if line.startswith(b"btime "))

    def collect(self) -> Iterator[Metric]:
        with open("/proc/self/stat", "rb") as stat:
            parts = stat.read().rpartition(b")")[2].split()
        yield GaugeMetricFamily(
            "process_virtual_memory_bytes", "Virtual memory size in bytes.", value=float(parts[20])
        )
        yield GaugeMetricFamily(
            "process_resident_memory_bytes",
            "Resident memory size in bytes.",
            value=float(parts[21]) * self.page,
        )
        yield GaugeMetricFamily(
            "process_start_time_seconds",
            "Start time of the process since unix epoch in seconds.",
            value=float(parts[19]) / self.ticks + self.boot,
        )
        yield CounterMetricFamily(
            "process_cpu_seconds_total",
            "Total user and system CPU time spent in seconds.",
            value=(float(parts[11]) + float(parts[12])) / self.ticks,
        )
        yield GaugeMetricFamily(
            "process_open_fds", "Number of open file descriptors.", value=open_files()
        )
        yield GaugeMetricFamily(
            "process_max_fds",
            "Maximum number of open file descriptors.",
            value=resource.getrlimit(resource.RLIMIT_NOFILE)[0],
        )


REGISTRY.unregister(PROCESS_COLLECTOR)
REGISTRY.register(ProcessMetrics())
