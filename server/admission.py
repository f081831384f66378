"""Who may hold a connection: stations waiting to sign in, and signed-in tokens that stop being
valid.

A connection that has not sent its ``hello`` costs a file descriptor and a handler and proves
nothing. The ``Door`` counts them, in all and per remote address, refuses extras before the
websocket upgrade (HTTP 503) and gives each a short time to sign in, so a flood of idle
connections cannot take the descriptors real stations need. Refusals are logged at most once a
second, with the number left out, so the flood cannot fill the log either.

The ``FileBudget`` refuses websocket upgrades (HTTP 503) while the process is near its
open-files limit, so the descriptors left keep ``/healthz``, ``/readyz`` and ``/metrics``
answering and the refusals themselves clean.

``Sessions`` knows every signed-in station's claims and the revoked token ids. The ids live in
Redis (``REVOKED``, a hash: id -> the Unix time it was revoked) so every instance sees them, and
are read again every ``REFRESH`` seconds; a station whose token expired or was revoked is closed
(4001 / 4003) within that time, and any command it sends meanwhile is refused.
"""

from __future__ import annotations

import asyncio
import logging
import math
import resource
import socket
import time
import weakref
from collections import Counter
from typing import Protocol

from redis.exceptions import RedisError
from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

from server import metrics
from server.descriptors import backlog_for, open_files, reserve_for
from server.redis_connect import RedisClient
from server.tokens import Claims, TokenError, expired

log = logging.getLogger("tablewire.admission")
REVOKED = "tw:revoked"
"""Redis hash of revoked token ids (id -> Unix time of the revocation)."""
REFRESH = 1.0
"""Seconds between reads of the revoked ids and checks of the signed-in tokens."""


class Throttled:
    """A warning said at once, then at most once every ``every`` seconds while it repeats, with
    how many times it was not said meanwhile: a burst of refusals is a line, not a flood."""

    def __init__(self, every: float) -> None:
        self.every = every
        self._said_at = -math.inf
        self.unsaid = 0

    def warn(self, message: str, *args: object, extra: dict[str, str]) -> None:
        """``message`` ends with a ``%d`` for the times not said since the last line."""
        now = time.monotonic()
        if now - self._said_at < self.every:
            self.unsaid += 1
            return
        log.warning(message, *args, self.unsaid, extra=extra)
        self._said_at = now
        self.unsaid = 0


class FileBudget:
    """Websocket upgrades are admitted while fewer than ``limit - reserve`` descriptors are
    open; past that each is answered 503 with the reason, and a warning is logged once per
    burst (at once, then at most every ``LOG_EVERY`` seconds, with the number refused). The
    listen backlog follows the descriptors left (``backlog_for``), told to the socket at each
    upgrade when it has changed.

    Refusing the upgrade, not letting ``accept`` fail, is the point: a process out of
    descriptors cannot accept a health check either. At ``EMFILE`` uvloop (libuv) accepts
    each waiting connection on a spare descriptor and closes it at once, unanswered and
    unlogged: handshakes were refused silently and ``/readyz`` closed without an answer until
    stations left (seen at a limit of 256: 236 displays, then every connection reset). The
    reserve covers what must go on at the limit: health checks and scrapes, the refusals
    themselves (each holds a descriptor until its 503 is written), the Redis connections the
    pool has not opened yet, and a backlog taken in one go. Each check is one ``stat``
    (:func:`server.descriptors.open_files`).
    """

    LOG_EVERY = 10.0

    def __init__(self, listening: socket.socket | None = None) -> None:
        self.limit = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        self.reserve = reserve_for(self.limit)
        self._warning = Throttled(self.LOG_EVERY)
        self._listening = listening
        self.backlog = 0
        self.retune(open_files())

    def retune(self, in_use: int) -> None:
        """Tell the listening socket its backlog again when the descriptors left change it
        (``listen`` on a listening socket sets its backlog on Linux)."""
        backlog = backlog_for(self.limit, in_use)
        if backlog == self.backlog:
            return
        self.backlog = backlog
        metrics.LISTEN_BACKLOG.set(backlog)
        if self._listening is not None:
            self._listening.listen(backlog)

    def refusal(self) -> str | None:
        """Why another websocket may not be admitted now, or None."""
        in_use = open_files()
        self.retune(in_use)
        if in_use < self.limit - self.reserve:
            return None
        self._warning.warn(
            "websocket refused at the open-files limit: %d of %d descriptors open, %d kept for"
            " health checks; %d more refused since the last line",
            in_use,
            self.limit,
            self.reserve,
            extra={"code": "open_files_limit"},
        )
        return "the server is at its open-files limit; try again shortly"


class Door:
    """Connections upgraded to a websocket that have not signed in yet."""

    def __init__(self, total: int = 256, per_address: int = 16, hello_timeout: float = 3.0) -> None:
        self.total = total
        self.per_address = per_address
        self.hello_timeout = hello_timeout
        self.waiting: dict[ServerConnection, str] = {}
        self.by_address: Counter[str] = Counter()
        self.refused = 0
        self._warning = Throttled(1.0)

    def admit(self, connection: ServerConnection, address: str | None) -> str | None:
        """Count ``connection`` as waiting to sign in; why it may not, or None. ``address``
        None (this machine, not through a proxy) counts in the total only."""
        if connection in self.waiting:
            return None
        if len(self.waiting) >= self.total:
            self._forget_closed()
        why = None
        if len(self.waiting) >= self.total:
            why = "too many connections are waiting to sign in; try again shortly"
        elif address is not None and self.by_address[address] >= self.per_address:
            why = "too many connections from your address are waiting to sign in"
        if why is None:
            self.waiting[connection] = address or ""
            if address is not None:
                self.by_address[address] += 1
            return None
        self.refused += 1
        self._log_refusal(address)
        return why

    def leave(self, connection: ServerConnection) -> None:
        """The connection signed in, was refused or is gone: it waits no more."""
        address = self.waiting.pop(connection, None)
        if not address:
            return
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]

    def _forget_closed(self) -> None:
        """Connections that closed without passing through ``leave`` (a handshake that failed
        after it was counted) give their place back."""
        for connection in [c for c in self.waiting if c.state is State.CLOSED]:
            self.leave(connection)

    def _log_refusal(self, address: str | None) -> None:
        self._warning.warn(
            "connection refused before sign-in: %d waiting (cap %d, %d per address); "
            "%d more refused since the last line",
            len(self.waiting),
            self.total,
            self.per_address,
            extra={"remote": address or "local", "code": "too_many_unsigned"},
        )


class Session(Protocol):
    """A signed-in station, as far as its token goes."""

    claims: Claims | None

    async def end_session(self, error: TokenError) -> None: ...


class Sessions:
    """The signed-in stations and the revoked token ids."""

    def __init__(self) -> None:
        self.revoked: set[str] = set()
        self.live: weakref.WeakSet[Session] = weakref.WeakSet()
        self._failing = False
        self._ending: set[asyncio.Task[None]] = set()
        self._swept: set[str] | None = None
        """The revoked ids as of the last sweep (None: none yet)."""
        self._next_expiry = math.inf
        """The earliest expiry among the signed-in tokens, as of the last sweep and sign-in."""

    def join(self, session: Session) -> None:
        """A station signed in: it is swept when its token expires or is revoked."""
        self.live.add(session)
        if session.claims is not None:
            self._next_expiry = min(self._next_expiry, session.claims.exp)

    def refusal(self, claims: Claims, now: float) -> TokenError | None:
        """Why these claims no longer sign anything in (expired, revoked), or None."""
        if expired(claims, now):
            return TokenError("token_expired", "the token has expired: sign in again")
        if claims.id and claims.id in self.revoked:
            return TokenError("token_revoked", "the token was revoked: sign in again")
        return None

    async def refresh(self, redis: RedisClient) -> None:
        """Read the revoked ids; on a Redis error keep the last ones (and say so once)."""
        try:
            ids = await redis.hkeys(REVOKED)
        except (RedisError, OSError) as exc:
            if not self._failing:
                log.warning("cannot read the revoked tokens: %s", exc)
            self._failing = True
            return
        self._failing = False
        self.revoked = {i.decode() if isinstance(i, bytes) else str(i) for i in ids}

    async def run(self, redis: RedisClient) -> None:
        """Every ``REFRESH`` seconds: read the revoked ids, close the stations whose token
        expired or was revoked."""
        while True:
            await self.refresh(redis)
            now = time.time()
            # Only when a token may have ended: a new revocation, or the earliest expiry passed
            # (every station every second was 5-7% of a server holding 18,000 of them).
            if self.revoked != self._swept or now > self._next_expiry:
                self._sweep(now)
            await asyncio.sleep(REFRESH)

    def _sweep(self, now: float) -> None:
        self._swept = set(self.revoked)
        self._next_expiry = math.inf
        for session in list(self.live):
            error = self.refusal(session.claims, now) if session.claims else None
            if error is None:
                if session.claims is not None:
                    self._next_expiry = min(self._next_expiry, session.claims.exp)
                continue
            self.live.discard(session)
            # Each waits on its own close handshake; the next check does not.
            task = asyncio.get_running_loop().create_task(session.end_session(error))
            self._ending.add(task)
            task.add_done_callback(self._ending.discard)
