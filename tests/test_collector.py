"""The collector's policy (``server.collector``): young passes on a timer, survivors frozen, a
full pass only while the instance is quiet.

These run the real ``Collector`` on this process's own collector (restored afterwards): what
survives a tick must be frozen — so no later pass walks it — and cyclic garbage that was frozen
must be freed by a quiet full pass, and only then.
"""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Iterator

import pytest

from server.collector import REGROWTH, Collector, full_collection_due


class Node:
    """A cycle's member; a weak reference tells when it was freed."""

    def __init__(self) -> None:
        self.other: Node | None = None


@pytest.fixture(autouse=True)
def own_collector() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*threshold)
    gc.collect()


def busy() -> float:
    return time.monotonic()


def long_quiet() -> float:
    return 0.0


async def ticks(collector: Collector, until: asyncio.Event | None = None, n: int = 5) -> None:
    """Let the collector run ``n`` ticks (or until ``until`` is set)."""
    task = asyncio.get_running_loop().create_task(collector.run())
    try:
        if until is not None:
            await asyncio.wait_for(until.wait(), 10)
        else:
            for _ in range(n):
                await asyncio.sleep(0.1)
    finally:
        task.cancel()


def frozen_cycle(freed: asyncio.Event | None = None) -> weakref.ref[Node]:
    """Two nodes in a cycle, frozen, then dropped: garbage only a full pass can free."""
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a, (lambda _: freed.set()) if freed is not None else None)
    gc.freeze()
    del a, b
    return gone


def test_a_full_collection_is_due_only_when_enough_was_frozen_since_the_last() -> None:
    assert not full_collection_due(110_000, 100_000)
    assert full_collection_due(int(100_000 * (1 + REGROWTH)) + 1, 100_000)
    assert not full_collection_due(90_000, 100_000)


async def test_what_survives_a_young_pass_is_frozen() -> None:
    collector = Collector(busy)
    collector.start()
    before = gc.get_freeze_count()
    kept = [[n] for n in range(5_000)]  # tracked, alive: they survive the next young pass
    await ticks(collector)
    assert gc.get_freeze_count() >= before + len(kept)
    assert len(gc.get_objects(1)) + len(gc.get_objects(2)) < 1_000


async def test_frozen_cyclic_garbage_is_freed_once_the_instance_is_quiet() -> None:
    collector = Collector(long_quiet, quiet=0.2)
    collector.start()
    freed = asyncio.Event()
    gone = frozen_cycle(freed)
    # Grown well past the last full pass, so one is worth it.
    kept = [[n] for n in range(collector.frozen_after_full)]
    await ticks(collector, until=freed)
    assert gone() is None
    assert kept


async def test_nothing_frozen_is_walked_while_stations_are_being_sent_frames() -> None:
    collector = Collector(busy, quiet=0.2)
    collector.start()
    gone = frozen_cycle()
    kept = [[n] for n in range(collector.frozen_after_full)]
    await ticks(collector, n=6)
    assert gone() is not None
    assert kept
