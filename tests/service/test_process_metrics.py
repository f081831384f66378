"""``/metrics`` serves the process metrics an operator relies on without listing the open files
(issue 14: a scrape listed ``/proc/self/fd``, ~18 ms of event loop at 19,000 connections)."""

from __future__ import annotations

import os
import signal
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from server import metrics
from tests.service.conftest import ServerProcess

PROCESS = (
    "process_cpu_seconds_total",
    "process_resident_memory_bytes",
    "process_virtual_memory_bytes",
    "process_start_time_seconds",
    "process_open_fds",
    "process_max_fds",
)
listings: list[tuple[Any, ...]] | None = None
"""The directories listed while a test looks (``os.listdir`` audit events), else None."""


def _listed(event: str, args: tuple[Any, ...]) -> None:
    if listings is not None and event == "os.listdir":
        listings.append(args)


sys.addaudithook(_listed)


def values(text: str) -> dict[str, float]:
    return {s.name: s.value for f in text_string_to_metric_families(text) for s in f.samples}


@pytest.mark.skipif(
    os.stat("/proc/self/fd").st_size == 0, reason="this kernel does not count open files (< 6.2)"
)
def test_a_scrape_does_not_list_the_open_files() -> None:
    global listings
    opened = [os.open(os.devnull, os.O_RDONLY) for _ in range(50)]
    listings = []
    try:
        body = generate_latest()
    finally:
        found, listings = listings, None
        for fd in opened:
            os.close(fd)
    assert found == [], f"a scrape listed {found}"
    served = values(body.decode())
    assert set(PROCESS) <= set(served)
    assert abs(served["process_open_fds"] - (len(os.listdir("/proc/self/fd")) + 50)) <= 2
    assert served["process_open_fds"] == metrics.open_files() + 50


def test_the_server_serves_the_process_metrics(start_server) -> None:  # type: ignore[no-untyped-def]
    server: ServerProcess = start_server()
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics", timeout=5) as answer:
        served = values(answer.read().decode())
    assert server.process is not None
    pid = server.process.pid
    assert set(PROCESS) <= set(served), sorted(set(PROCESS) - set(served))
    assert served["process_cpu_seconds_total"] > 0
    assert served["process_resident_memory_bytes"] > 10 * 1024 * 1024
    assert abs(served["process_start_time_seconds"] - time.time()) < 120
    assert abs(served["process_open_fds"] - len(os.listdir(f"/proc/{pid}/fd"))) <= 3
    limits = Path(f"/proc/{pid}/limits").read_text()
    soft = next(line for line in limits.splitlines() if line.startswith("Max open files"))
    assert served["process_max_fds"] == float(soft.split()[3])


def _lateness(port: int) -> tuple[float, float]:
    """The event-loop watch's timers so far, and how many of them ran over 0.25 s late."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as answer:
        text = answer.read().decode()
    total = within = 0.0
    for family in text_string_to_metric_families(text):
        if family.name != "tablewire_event_loop_lateness_seconds":
            continue
        for sample in family.samples:
            if sample.name == "tablewire_event_loop_lateness_seconds_count":
                total = sample.value
            elif sample.name.endswith("_bucket") and sample.labels.get("le") == "0.25":
                within = sample.value
    return total, total - within


def test_a_pause_of_the_event_loop_shows_in_its_lateness(start_server) -> None:  # type: ignore[no-untyped-def]
    """The whole process stopped for 0.4 s (SIGSTOP: as a long collection or a stuck call would
    hold the loop): the watch's next timer runs over 0.25 s late; the idle server before it had
    no such lateness."""
    server: ServerProcess = start_server()
    assert server.process is not None
    deadline = time.monotonic() + 10
    while (seen := _lateness(server.port))[0] < 20 and time.monotonic() < deadline:
        pass  # until the watch has run a while
    assert seen[0] >= 20 and seen[1] == 0
    os.kill(server.process.pid, signal.SIGSTOP)
    try:
        time.sleep(0.4)  # the pause itself, not a wait for anything
    finally:
        os.kill(server.process.pid, signal.SIGCONT)
    deadline = time.monotonic() + 10
    while (seen := _lateness(server.port))[1] == 0 and time.monotonic() < deadline:
        pass
    assert seen[1] >= 1
