"""The event loop the service runs on: uvloop where it is installed, asyncio's own otherwise.

A station server spends most of its time in the event loop and its socket transports — every
event goes out to every station watching the table — and uvloop runs both in C. The load
benchmark runs its bare relay and its clients on the same loop, so the comparison stays fair.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on a fresh event loop (uvloop when available)."""
    try:
        import uvloop
    except ImportError:  # Windows: uvloop does not exist there
        return asyncio.run(main)
    return uvloop.run(main)
