"""The service's timers: a clock on a player (rule 31) runs out when it should, by itself.

A station's ``time`` command used to be the only way an expired clock was ruled on, so a clock
called with no dealer station open never ran out, and the next station to open ruled on it
late. Now every commit keeps the table's clock deadline in the tournament's ``deadlines``
(``server.store``), and the instance holding the timers lease (``server.lease``) applies
``Time(at=expires + 1)`` through :meth:`Tables.apply` once the service's wall clock passes it.

The tournament's clock is ruled on the same way: its deadline is the member ``TOURNAMENT_LOG``
of the same sorted set, the end of the running level or break, and the holder applies the
tournament's ``time`` (:meth:`Tournaments.tick`), so a level starts when the clock reaches it
(25-A) whether or not any screen is open, and exactly once: the command id names the step
that ends and when.

The command id is ``clock:{seq}``, the table's last event number when the clock was found
expired, and the command is conditional on that number (``after``): two instances that both
rule on the same expiry (a holder paused past its lease) send the same command, and it is
applied once; one that finds the table moved on reads it again.
"""

from __future__ import annotations

import asyncio
import logging
import time

from protocol.commands import Time
from server.fanout import Fanout, committed_frames
from server.keys import TOURNAMENT_LOG
from server.store import Store
from server.tables import Applied, Busy, Tables
from server.tournaments import Tournaments

log = logging.getLogger("tablewire.timers")
TICK = 0.1
"""Seconds between looks at the deadlines: an expiry is ruled on at most this late."""
LEASE_KEY = "tw:lease:timers"


class Timers:
    def __init__(
        self, store: Store, tables: Tables, fanout: Fanout, tournaments: Tournaments
    ) -> None:
        self.store = store
        self.tables = tables
        self.fanout = fanout
        self.tournaments = tournaments

    async def run(self) -> None:
        """Rule on every expired clock, for as long as this instance holds the lease."""
        while True:
            try:
                for tournament, table, expires in await self.store.deadlines_due(_now_ms()):
                    await self.expire(tournament, table, expires)
            except Exception as failure:
                # Redis away or slow: the deadlines stay stored; look again shortly.
                log.warning("timers could not rule on the clocks: %r", failure)
                await asyncio.sleep(1.0)
            await asyncio.sleep(TICK)

    async def expire(self, tournament: str, table: str, expires: int) -> None:
        if table == TOURNAMENT_LOG:
            await self.level_ends(tournament, expires)
            return
        cached = await self.tables.state(tournament, table)
        clock = cached.state.clock if cached is not None else None
        if cached is None or clock is None or clock.expires != expires:
            # Already ruled on (or replaced by a newer clock, which has its own deadline).
            await self.store.clear_deadline(tournament, table, expires)
            return
        command_id = f"clock:{cached.seq}"
        try:
            result = await self.tables.apply(
                tournament, table, command_id, Time(at=expires + 1), after=cached.seq
            )
        except Busy:
            return
        if isinstance(result, Applied):
            log.info(
                "clock ran out",
                extra={
                    "tournament": tournament,
                    "table": table,
                    "seq": result.seq,
                    "command_id": command_id,
                },
            )
            for frame in committed_frames(tournament, table, result):
                await self.fanout.accept(frame)
        elif result.code in ("stale", "unknown_outcome", "unavailable"):
            return  # the table moved on, or Redis did not answer: look again next tick
        # Ruled on, or refused for good; a clock the ruling left standing is not ruled twice.
        await self.store.clear_deadline(tournament, table, expires)

    async def level_ends(self, tournament: str, expires: int) -> None:
        """The tournament's level or break ends at ``expires``: apply its ``time``."""
        try:
            result = await self.tournaments.tick(tournament, expires)
        except Busy:
            return
        if result is None:
            # Already ruled on, or the clock was changed (paused, time added): its own
            # deadline is stored by that commit.
            await self.store.clear_deadline(tournament, TOURNAMENT_LOG, expires)
            return
        if isinstance(result, Applied):
            log.info("tournament clock", extra={"tournament": tournament, "seq": result.seq})
            for frame in committed_frames(tournament, TOURNAMENT_LOG, result):
                await self.fanout.accept(frame)
            return
        if result.code not in ("unknown_outcome", "unavailable"):
            log.warning(
                "tournament clock refused: %s", result.message, extra={"tournament": tournament}
            )
            await self.store.clear_deadline(tournament, TOURNAMENT_LOG, expires)


def _now_ms() -> int:
    return int(time.time() * 1000)
