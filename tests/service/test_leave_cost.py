"""What a station's subscribe, unsubscribe and leave cost the fan-out: what that station
watches, never every table or every station (issue 14: 19,500 displays closing took ~3 s of a
core). The same for a tournament's clock: its own stations, not every watched table.

The work is counted as the Python bytecode instructions the fan-out runs (``sys.settrace``
with opcode events), on a real ``Fanout`` with many stations on many tables: a walk of every
table shows as instructions that grow with the tables. Times are printed, never asserted.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

import msgspec
import pytest
from redis.asyncio import Redis

from protocol.tournament.views import ClockView
from server.fanout import Fanout, Frame, Key
from server.store import Store


class Display:
    """A subscriber that keeps what it is sent (the fan-out's side of a station, no socket)."""

    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.clocks: list[bytes] = []

    def offer(self, key: Key, frame: Frame) -> None:
        pass

    def new_table(self, key: Key) -> None:
        pass

    def resync(self, reason: str) -> None:
        pass

    def clock(self, message: bytes) -> None:
        self.clocks.append(message)


def instructions(action: Callable[[], object]) -> int:
    """Python bytecode instructions run by ``action`` and everything it calls."""
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Callable[..., Any]:
        nonlocal count
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        action()
    finally:
        sys.settrace(None)
    return count


def unconnected() -> Fanout:
    """A fan-out whose Redis is never reached: watching and leaving are its own indexes."""
    redis = Redis(host="127.0.0.1", port=1)
    return Fanout(redis, Store(redis))


@pytest.fixture
def fanout() -> Iterator[Fanout]:
    yield unconnected()


def crowd(fanout: Fanout, tables: int, per_table: int, delay: float = 0.0) -> list[Display]:
    """``per_table`` displays on each of ``tables`` tables of tournament "big"."""
    displays = []
    for t in range(tables):
        for _ in range(per_table):
            display = Display(delay)
            fanout.watch(display, "big", str(t))
            displays.append(display)
    return displays


def one_station_costs(tables: int) -> dict[str, int]:
    """Instructions the fan-out runs for one station's subscribe, unsubscribe, leave and for a
    clock of its tournament, with ``tables`` other tables watched by 3 displays each."""
    fanout = unconnected()
    crowd(fanout, tables, 3)
    crowd(fanout, tables, 1, delay=30.0)
    station = Display(delay=10.0)
    view = msgspec.json.encode(ClockView("main", "running"))
    costs = {
        "subscribe": instructions(lambda: fanout.watch(station, "main", "1")),
        "clock": instructions(lambda: fanout._clock("main", view)),
        "unsubscribe": instructions(lambda: fanout.unwatch(station, "main", "1")),
    }
    fanout.watch(station, "main", "1")
    fanout.watch(station, "main", None)
    costs["leave"] = instructions(lambda: fanout.forget(station))
    assert len(station.clocks) == 1
    return costs


def test_a_station_costs_what_it_watches_not_every_table() -> None:
    few, many = one_station_costs(10), one_station_costs(2_000)
    print(f"\ninstructions per station, 10 tables watched: {few}; 2,000 tables: {many}")
    assert few == many


def test_a_clock_reaches_its_tournament_stations_only(fanout: Fanout) -> None:
    others = crowd(fanout, 50, 2)
    ours = [Display() for _ in range(3)]
    fanout.watch(ours[0], "main", "1")
    fanout.watch(ours[1], "main", "2")
    fanout.watch(ours[2], "main", None)
    fanout._clock("main", msgspec.json.encode(ClockView("main", "running")))
    assert [len(d.clocks) for d in ours] == [1, 1, 1]
    assert not any(d.clocks for d in others)
    fanout.forget(ours[0])
    fanout.unwatch(ours[1], "main", "2")
    assert "main" not in fanout.watched_tables
    assert not fanout.watched.get(ours[0]) and not fanout.watched.get(ours[1])


def test_leaving_empties_every_index(fanout: Fanout) -> None:
    displays = crowd(fanout, 20, 5) + crowd(fanout, 20, 2, delay=30.0)
    for display in displays:
        fanout.forget(display)
    assert not fanout.by_table and not fanout.by_tournament and not fanout.watched
    assert not fanout.watched_tables and not fanout.delayed and not fanout.lines


@pytest.mark.parametrize("tables", [20, 1_950])
def test_measure_19_500_displays_leaving(fanout: Fanout, tables: int) -> None:
    """Prints what 19,500 displays leaving costs, spread over few or many tables."""
    displays = crowd(fanout, tables, 19_500 // tables)
    started = time.perf_counter()
    for display in displays:
        fanout.forget(display)
    took = time.perf_counter() - started
    print(
        f"\n{len(displays)} displays on {tables} tables left in {took * 1000:.1f} ms"
        f" ({took / len(displays) * 1e6:.2f} us each)"
    )
    assert not fanout.by_table
