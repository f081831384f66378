"""Waiting for a state of the test's Redis nodes (a replica in sync, a new primary): asked
again every few milliseconds until it holds, never a fixed sleep."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from redis.exceptions import RedisError

Found = TypeVar("Found")


class NotYet(Exception):
    """The state waited for does not hold yet; the message says what is still missing."""


def poll(probe: Callable[[], Found], timeout: float, what: str, every: float = 0.05) -> Found:
    """What ``probe()`` returns once it stops raising ``NotYet`` (or a Redis or socket error:
    a node that does not answer yet); after ``timeout`` seconds the last reason is raised."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            return probe()
        except (NotYet, RedisError, OSError) as missing:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{what}: not after {timeout:g} s: {missing}") from missing
        time.sleep(every)


def wait_new_primary(
    named: Callable[[], int], serving: Callable[[int], str], old: int, timeout: float
) -> int:
    """Until ``named()`` (the primary the cluster or the Sentinels agree on; ``NotYet`` while
    they disagree) is not ``old`` and ``serving(port)`` has no objection ("" once it serves);
    its port."""

    def promoted() -> int:
        port = named()
        if port == old:
            raise NotYet(f"{port} is still named the primary")
        objection = serving(port)
        if objection:
            raise NotYet(f"{port}: {objection}")
        return port

    return poll(promoted, timeout, f"a primary other than {old}")
