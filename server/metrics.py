"""Prometheus metrics, served at ``/metrics``."""

from __future__ import annotations

import gc
import time

from prometheus_client import Counter, Gauge, Histogram

COMMANDS = Counter("tablewire_commands_total", "Commands received, by outcome", ["outcome"])
COMMAND_SECONDS = Histogram(
    "tablewire_command_seconds",
    "From a command's arrival to its acknowledgement",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
CONNECTIONS = Gauge("tablewire_connections", "Open station connections, by role", ["role"])
FANOUT_LAG = Histogram(
    "tablewire_fanout_lag_seconds",
    "From a commit to its delivery to this instance's stations",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0),
)
CONFLICTS = Counter(
    "tablewire_commit_conflicts_total",
    "Commits that lost a race to another instance and were retried",
)
GAPS = Counter("tablewire_fanout_gaps_total", "Sequence gaps filled from the log")
RECONNECTS = Counter("tablewire_subscription_reconnects_total", "Event subscription reconnections")
SLOW_CLIENTS = Counter("tablewire_slow_clients_total", "Stations told to resync for falling behind")
CATCH_UPS = Counter(
    "tablewire_catch_ups_total",
    "Subscriptions served (each a paged catch-up of its tables), replaced ones included",
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
CHIPS_DIFFERENCE = Gauge(
    "tablewire_tournament_chips_difference",
    "At the last hand end: the tables' stacks minus the chips in play (0: they add up)",
    ["tournament"],
)
