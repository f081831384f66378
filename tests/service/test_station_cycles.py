"""A station that leaves is freed by reference counting, not by the garbage collector (issue 14,
acceptance 5: one instance, 18,000 displays, no pause of the event loop over 25 ms).

The collector's passes were the tail of the crowd benchmark: every station that came or went
left its ``Station``, ``Outbox`` and ``Following`` in cycles (bound methods handed to each
other; a cancelled catch-up's traceback holding its hold), and with them its websocket
connection, protocol and transport: ~40 objects a station that only a full pass frees (one
such pass, after a room of 18,000 came in, took 1.3 s). Freed by reference counting they cost
no pass, and a room can be frozen out of the collector without leaking what leaves it.

The server runs in a child process (``tests.service.garbage_probe``) on the test's Redis, with
each kind of station coming and going: every kind must leave none of the server's objects to the
collector.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from server.embedded_redis import EmbeddedRedis
from tests.service.conftest import ROOT
from tests.service.redis_cluster import LocalCluster


def test_stations_that_leave_leave_nothing_for_the_collector(
    redis_server: EmbeddedRedis | LocalCluster, tmp_path: Path
) -> None:
    probe = subprocess.run(
        [sys.executable, "-m", "tests.service.garbage_probe", redis_server.url, str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert probe.returncode == 0, probe.stderr[-2000:]
    report = json.loads(probe.stdout.strip().splitlines()[-1])
    for scenario, found in report.items():
        print(scenario, found)
    assert {name: found["stations"] for name, found in report.items()} == {
        "dealer": 6,
        "displays": 60,
        "floors": 20,
        "left_catching_up": 40,
        "played": 11,
        "refused": 20,
    }
    assert {name: found["garbage"] for name, found in report.items()} == {
        name: {} for name in report
    }
