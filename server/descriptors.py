"""The process's file descriptors: how many are open, how many are kept free, and the
listening socket whose backlog they bound.

Every station is a descriptor, so the open-files limit is the service's capacity. This module
is imported by ``tablewire serve`` before the rest of the service (the engine and its hand
tables take half a second to import): the port is bound and listening within a few
milliseconds of a restart, so a room of stations coming back waits in the backlog, answered at
readiness, instead of being refused and backing off (a browser station waits up to 3 s after
a few refusals, ``clients/web/js/connection.js``).
"""

from __future__ import annotations

import logging
import os
import resource
import socket
import time

log = logging.getLogger("tablewire.descriptors")

RESERVE = 64
"""Open-file descriptors kept free at the least (``server.admission.FileBudget``)."""
MAX_RESERVE = 2048
MAX_BACKLOG = 4096
"""The longest listen backlog asked for (Linux's default ``somaxconn`` since 5.4; the kernel
caps it there anyway). A room whose server restarts knocks all at once: a backlog shorter
than the room drops the extra handshakes, and each dropped one waits a second or more for
TCP to try again (1,005 stations an instance on the event loop's default backlog of 100:
1,881 dropped, the last station back 4.4 s after its instance was ready)."""
LIST_EVERY = 1.0
"""Seconds between listings of ``/proc/self/fd`` on a kernel that does not count them."""

_listed: tuple[float, int] = (0.0, 0)


def open_files() -> int:
    """File descriptors this process has open, at a cost that does not grow with them.

    Linux 6.2 and later report the count as the size of ``/proc/self/fd``: one ``stat``. An
    older kernel reports 0 there; the directory is then listed, at most once every
    ``LIST_EVERY`` seconds (the count may be that old)."""
    global _listed
    counted = os.stat("/proc/self/fd").st_size
    if counted > 0:
        return counted
    now = time.monotonic()
    if now - _listed[0] >= LIST_EVERY:
        _listed = (now, len(os.listdir("/proc/self/fd")))
    return _listed[1]


def reserve_for(limit: int) -> int:
    """Descriptors a process with this open-files limit keeps free: 1/16 of them, between
    ``RESERVE`` and ``MAX_RESERVE``."""
    return max(RESERVE, min(limit // 16, MAX_RESERVE))


def backlog_for(limit: int, in_use: int) -> int:
    """The listen backlog with ``in_use`` descriptors open: what the free ones can take in
    one go. The event loop accepts what waits in the backlog at once, before the server sees
    any of it, so a full backlog must leave half the reserve free; at the refusal line
    (``limit - reserve`` open) that is half the reserve, far from it up to ``MAX_BACKLOG``,
    rounded down to 64 so the socket is told again only when it changes by that much."""
    reserve = reserve_for(limit)
    fits = max(reserve // 2, limit - in_use - reserve // 2)
    return min(MAX_BACKLOG, fits - fits % 64 if fits >= 64 else fits)


def raise_open_files_limit() -> None:
    """Let the process open as many files as the system allows it: every station is one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    if soft == target:
        log.info("open files limit %d", soft)
        return
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError) as exc:
        log.warning("open files limit stays %d: %s", soft, exc)
        return
    log.info("open files limit raised from %d to %d", soft, target)


def listen(host: str, port: int) -> socket.socket:
    """The listening socket, non-blocking, its backlog what the free descriptors can take
    (``FileBudget`` tells it again as they are used); ``OSError`` when the port is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(backlog_for(resource.getrlimit(resource.RLIMIT_NOFILE)[0], open_files()))
    except OSError:
        sock.close()
        raise
    sock.setblocking(False)
    return sock
