"""Latency histograms the client processes fill and the orchestrator merges: with 40,000
displays a raw sample per frame would be millions of numbers to ship and sort, where a
histogram of 1% wide buckets is a few thousand counts and a percentile is read off it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

STEPS = 100
"""Buckets per factor e (about 1% apart): a percentile is within 1% of the sample's value."""
FLOOR_US = 1.0


@dataclass
class Histogram:
    """Seconds, bucketed by the logarithm of their microseconds; the largest kept exactly."""

    counts: dict[int, int] = field(default_factory=dict)
    total: int = 0
    largest: float = 0.0

    def add(self, seconds: float) -> None:
        bucket = int(STEPS * math.log(max(FLOOR_US, seconds * 1e6)))
        self.counts[bucket] = self.counts.get(bucket, 0) + 1
        self.total += 1
        if seconds > self.largest:
            self.largest = seconds

    def merge(self, other: Histogram) -> None:
        for bucket, n in other.counts.items():
            self.counts[bucket] = self.counts.get(bucket, 0) + n
        self.total += other.total
        self.largest = max(self.largest, other.largest)

    def percentile(self, q: float) -> float:
        """The upper edge of the bucket holding the ``q`` quantile (seconds; NaN when empty),
        never past the largest sample."""
        if not self.total:
            return float("nan")
        rank = min(self.total - 1, int(q * self.total))
        seen = 0
        for bucket in sorted(self.counts):
            seen += self.counts[bucket]
            if seen > rank:
                return min(self.largest, math.exp((bucket + 1) / STEPS) / 1e6)
        return self.largest

    def dump(self) -> dict[str, Any]:
        return {"counts": [[b, n] for b, n in self.counts.items()], "largest": self.largest}

    @classmethod
    def load(cls, data: dict[str, Any]) -> Histogram:
        counts = {int(b): int(n) for b, n in data["counts"]}
        return cls(counts, sum(counts.values()), float(data["largest"]))
