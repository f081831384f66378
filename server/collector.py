"""When the garbage collector runs: often and small, never over the whole room while it plays.

CPython collects its youngest generation when allocations minus deallocations pass a
threshold. A server holding 18,000 stations breaks that rule: every station keeps a few objects
it replaces at each frame or ping (the parser's generator, the last frame read, a list of
writes), so the old ones die as fast as new ones are made, the count stands still, and the
young generation grows unseen: the crowd benchmark (1,000 tables, 17 displays each, 800
commands a second) found 184,000 young objects at a pass the count called 20,000, a 131 ms
pause; then the first pass of an older generation walked the whole room (400,000 objects,
247 ms), and a full one 1.3 s.

So the young generation is collected on a timer, every ``YOUNG_EVERY`` seconds, whatever the
count says: a pass walks what a tenth of a second made, a millisecond or two. What survives it
is frozen (``gc.freeze``): moved out of every generation, never walked again, still freed by
reference counting when it dies. An older generation then holds next to nothing, so its passes
cost nothing either; the thresholds still start a pass when a burst (a room coming in) makes
more than ``YOUNG_THRESHOLD`` objects between two ticks.

What is frozen and later becomes cyclic garbage can only be freed by a full pass over the
unfrozen heap. A station leaves none (``tests/service/test_station_cycles.py``); for whatever
else might, a full collection runs when the instance has been quiet — no frame delivered for
``QUIET`` seconds and no station came in, so nobody waits on it (a break, the night) — and
the frozen objects grew by a ``REGROWTH`` share since the last one. It is logged with what it
took and freed. (Counting the frozen objects walks them, so they are counted only then, at
most once every ``QUIET`` seconds; ``tablewire_gc_frozen_objects`` is that count.)
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time
from collections.abc import Callable

from server import metrics

log = logging.getLogger("tablewire.collector")
YOUNG_EVERY = 0.1
"""Seconds between two collections of the youngest generation."""
YOUNG_THRESHOLD = 20_000
"""Allocations that start a young collection between two ticks (a burst)."""
QUIET = 60.0
"""Seconds without a frame delivered before a full collection may run."""
REGROWTH = 0.1
"""Growth of the frozen objects since the last full collection that makes another worth it."""


def full_collection_due(frozen: int, frozen_after_last: int) -> bool:
    """A full collection (while quiet) is worth its pause: enough was frozen since the last
    one that some of it may be garbage."""
    return frozen > frozen_after_last * (1 + REGROWTH)


class Collector:
    """Runs the young collections and the quiet full ones; ``last_activity`` tells when a
    frame was last delivered or a station last came in (``time.monotonic``)."""

    def __init__(self, last_activity: Callable[[], float], quiet: float = QUIET) -> None:
        self.last_activity = last_activity
        self.quiet = quiet
        self.frozen_after_full = 0

    def start(self) -> None:
        """Freeze what the start-up made (the service's own objects live as long as the
        process), set the thresholds and time every pass from now on."""
        gc.collect()
        gc.freeze()
        self.frozen_after_full = gc.get_freeze_count()
        gc.set_threshold(YOUNG_THRESHOLD, 20, 20)
        metrics.FROZEN_OBJECTS.set(self.frozen_after_full)
        metrics.time_collections()

    async def run(self) -> None:
        checked = time.monotonic()
        while True:
            await asyncio.sleep(YOUNG_EVERY)
            gc.collect(0)
            gc.freeze()
            now = time.monotonic()
            if now - self.last_activity() >= self.quiet and now - checked >= self.quiet:
                # Counting the frozen objects walks them all: only when quiet, once a while.
                checked = now
                frozen = gc.get_freeze_count()
                metrics.FROZEN_OBJECTS.set(frozen)
                if full_collection_due(frozen, self.frozen_after_full):
                    self.full(frozen)

    def full(self, frozen: int) -> None:
        began = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.frozen_after_full = gc.get_freeze_count()
        metrics.FROZEN_OBJECTS.set(self.frozen_after_full)
        log.info(
            "full collection while quiet: %d objects walked, %d unreachable freed, %.0f ms",
            frozen,
            freed,
            (time.perf_counter() - began) * 1000,
            extra={"walked": frozen, "freed": freed},
        )
