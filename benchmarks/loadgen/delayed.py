"""Delayed displays under load (issue 10, ``--delayed SECONDS``): display tokens carrying a
``delay``, subscribed to the whole tournament during the Tablewire phases, reading everything
and pinging every second.

They answer what the issue asked of the delay line: every event committed reaches each delayed
display once and in order (no gap, no duplicate, no resync, no close), never before ``delay``
seconds have passed since its dealer sent it, and not much later either; and a ping is answered
at once, not ``delay`` seconds later. They run in their own client process and read for
``delay`` seconds after the last phase ends, so the last events arrive; nobody else waits."""

from __future__ import annotations

import array
import asyncio
import bisect
import contextlib
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from loadgen.common import PHASE_NAMES, TOURNAMENT
from loadgen.stations import Records, decode_reply, encode, open_station, spec_phases
from protocol.wire import Ping, Subscribe

# --- the delayed displays (their own client process) ---------------------------------------


@dataclass
class DelayedRecords:
    recv_display: array.array = field(default_factory=lambda: array.array("i"))
    recv_table: array.array = field(default_factory=lambda: array.array("i"))
    recv_seq: array.array = field(default_factory=lambda: array.array("i"))
    recv_count: array.array = field(default_factory=lambda: array.array("i"))
    recv_t: array.array = field(default_factory=lambda: array.array("d"))
    pong_rtt: array.array = field(default_factory=lambda: array.array("d"))
    pings: int = 0
    problems: Counter[str] = field(default_factory=Counter)

    def dump(self) -> bytes:
        arrays = {k: v.tobytes() for k, v in vars(self).items() if isinstance(v, array.array)}
        return msgspec.msgpack.encode(
            {"arrays": arrays, "pings": self.pings, "problems": dict(self.problems)}
        )

    @classmethod
    def load(cls, data: bytes) -> DelayedRecords:
        raw = msgspec.msgpack.decode(data)
        rec = cls(pings=raw["pings"])
        for k, b in raw["arrays"].items():
            getattr(rec, k).frombytes(b)
        rec.problems.update(raw["problems"])
        return rec


class DelayedDisplay:
    def __init__(self, index: int, ws: ClientConnection, rec: DelayedRecords) -> None:
        self.index = index
        self.ws = ws
        self.rec = rec
        self.pinged: dict[int, float] = {}
        self.ready = asyncio.Event()

    async def read(self) -> None:
        rec = self.rec
        try:
            while True:
                raw = await self.ws.recv(decode=False)
                now = time.monotonic()
                reply = decode_reply(raw)
                if reply.type == "events":
                    rec.recv_display.append(self.index)
                    rec.recv_table.append(int(reply.table or 0))
                    rec.recv_seq.append(reply.seq)
                    rec.recv_count.append(len(reply.events))
                    rec.recv_t.append(now)
                elif reply.type == "pong":
                    sent = self.pinged.pop(reply.nonce, None)
                    if sent is None:
                        self.ready.set()
                    else:
                        rec.pong_rtt.append(now - sent)
                else:
                    rec.problems[f"got {reply.type}: {reply.reason or reply.message}"] += 1
        except msgspec.DecodeError as exc:
            rec.problems[f"could not read a frame: {exc}"] += 1
        except ConnectionClosed as exc:
            rec.problems[f"connection closed: {exc}"] += 1

    async def ping_until(self, end: float) -> None:
        nonce = 0
        while time.monotonic() < end:
            nonce += 1
            self.pinged[nonce] = time.monotonic()
            self.rec.pings += 1
            try:
                await self.ws.send(encode(Ping(nonce)), text=True)
            except ConnectionClosed:
                return
            await asyncio.sleep(1.0)


async def delayed_worker(spec: dict[str, Any]) -> None:
    """The ``--delayed-count`` displays: subscribe before the phases, read until ``delay`` s
    (and the drain) after the last one, then go on while frames still come (bounded)."""
    rec = DelayedRecords()
    loop = asyncio.get_running_loop()
    displays: list[DelayedDisplay] = []
    tasks = []
    for index in range(spec["count"]):
        ws = await open_station(
            spec["url"], spec["secret"].encode(), "display", None, spec["deflate"], spec["delay"]
        )
        display = DelayedDisplay(index, ws, rec)
        tasks.append(loop.create_task(display.read()))
        await ws.send(encode(Subscribe(TOURNAMENT)), text=True)
        await ws.send(encode(Ping(0)), text=True)
        await asyncio.wait_for(display.ready.wait(), 60)
        displays.append(display)
    print("ready", flush=True)
    line = await loop.run_in_executor(None, sys.stdin.readline)
    timeline = spec_phases(spec, float(line.split()[1]))
    end = timeline[-1][2] + spec["delay"] + spec["drain"]
    await asyncio.gather(*(d.ping_until(end) for d in displays))
    deadline = time.monotonic() + spec["max_drain"]
    while time.monotonic() < deadline and rec.recv_t and time.monotonic() - rec.recv_t[-1] < 1.0:
        await asyncio.sleep(0.2)
    await asyncio.sleep(0.5)  # the last pongs
    unanswered = sum(len(d.pinged) for d in displays)
    if unanswered:
        rec.problems["pings never answered"] = unanswered
    Path(spec["out"]).write_bytes(rec.dump())
    for t in tasks:
        t.cancel()
    for d in displays:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(d.ws.close(), 0.5)
    print("done", flush=True)


# --- the figures ---------------------------------------------------------------------------


@dataclass
class DisplayPhase:
    committed: int = 0
    read: int = 0
    lateness: list[float] = field(default_factory=list)
    behind_live: list[float] = field(default_factory=list)
    """Read - the table's own (undelayed) display read it - delay: the delay line's own share,
    without the commit's queueing that both streams wait for."""


@dataclass
class DisplayResult:
    phases: dict[int, DisplayPhase]
    gaps: int = 0
    """Events skipped over when a later one arrived first."""
    repeats: int = 0
    """Events read again, or after a later one (duplicates or out of order)."""
    unmatched: int = 0
    """Events read that no acknowledged command made."""


def _commands(dealers: Records) -> dict[int, tuple[list[int], list[int]]]:
    """Per table, the first event number of each acknowledged command and its index."""
    by_table: dict[int, tuple[list[int], list[int]]] = defaultdict(lambda: ([], []))
    order = sorted(
        (t, k, i)
        for i, (t, k, a) in enumerate(
            zip(dealers.send_table, dealers.send_key, dealers.ack_seq, strict=True)
        )
        if a >= k
    )
    for t, k, i in order:
        by_table[t][0].append(k)
        by_table[t][1].append(i)
    return by_table


def analyse_delayed(
    dealers: Records, delayed: DelayedRecords, phases: list[int], delay: float, count: int
) -> list[DisplayResult]:
    """Match every event each delayed display read to the command that made it."""
    commands = _commands(dealers)
    committed = Counter(
        p
        for p, k, a in zip(dealers.send_phase, dealers.send_key, dealers.ack_seq, strict=True)
        for _ in range(k, a + 1)
    )
    results = [
        DisplayResult({p: DisplayPhase(committed=committed[p]) for p in phases})
        for _ in range(count)
    ]
    live: dict[tuple[int, int], float] = {}
    for sub, table, seq, n, t in zip(
        dealers.recv_sub,
        dealers.recv_table,
        dealers.recv_seq,
        dealers.recv_count,
        dealers.recv_t,
        strict=True,
    ):
        if sub == table:
            for s in range(seq, seq + n):
                live.setdefault((table, s), t)
    last: dict[tuple[int, int], int] = defaultdict(int)
    for d, table, seq, n, t in zip(
        delayed.recv_display,
        delayed.recv_table,
        delayed.recv_seq,
        delayed.recv_count,
        delayed.recv_t,
        strict=True,
    ):
        res = results[d]
        keys, indexes = commands.get(table, ([], []))
        for s in range(seq, seq + n):
            before = last[(d, table)]
            if s <= before:
                res.repeats += 1
                continue
            res.gaps += s - before - 1
            last[(d, table)] = s
            at = bisect.bisect_right(keys, s) - 1
            i = indexes[at] if at >= 0 else -1
            if i < 0 or s > dealers.ack_seq[i]:
                res.unmatched += 1
                continue
            phase = res.phases.get(dealers.send_phase[i])
            if phase is not None:
                phase.read += 1
                phase.lateness.append(t - dealers.send_t[i] - delay)
                seen = live.get((table, s))
                if seen is not None:
                    phase.behind_live.append(t - seen - delay)
    return results


def _pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def report_delayed(
    dealers: Records,
    delayed: DelayedRecords,
    phases: list[int],
    delay: float,
    count: int,
    slow_clients: float,
) -> dict[str, Any]:
    results = analyse_delayed(dealers, delayed, phases, delay, count)
    out: dict[str, Any] = {"delay_s": delay, "displays": count}
    print()
    print(
        f"delayed displays: {count} display tokens with delay {delay:g} s on the whole tournament,"
        f" read until {delay:g} s after the last phase; lateness = read - dealer sent - delay, ms;"
        " gaps, dup/ooo (duplicates or out of order) and unmatched count the display's whole run;"
        " vs live = read - the table's undelayed display read it - delay (negative: the delay"
        " counts from the commit, the live stream also waits for the Redis fan-out)"
    )
    print(
        f"  {'display':8} {'phase':10} {'committed':>9} {'read':>9} {'gaps':>5} {'dup/ooo':>7}"
        f" {'unmatched':>9} {'min':>7} {'p50':>7} {'p99':>7} {'max':>7} {'early':>5}"
        f" {'live p50':>8} {'live p99':>8}"
    )
    everything: list[float] = []
    for d, res in enumerate(results):
        for p, ph in res.phases.items():
            lat = sorted(ph.lateness)
            everything.extend(lat)
            early = sum(1 for x in lat if x < 0)
            behind = sorted(ph.behind_live)
            print(
                f"  {d:<8} {PHASE_NAMES[p]:10} {ph.committed:9d} {ph.read:9d} {res.gaps:5d}"
                f" {res.repeats:7d} {res.unmatched:9d} {_ms(lat[0] if lat else float('nan'))}"
                f" {_ms(_pct(lat, 0.5))} {_ms(_pct(lat, 0.99))}"
                f" {_ms(lat[-1] if lat else float('nan'))} {early:5d}"
                f" {_ms(_pct(behind, 0.5)):>8} {_ms(_pct(behind, 0.99)):>8}"
            )
            out[f"display{d}.{PHASE_NAMES[p]}"] = {
                "committed": ph.committed,
                "read": ph.read,
                "gaps": res.gaps,
                "duplicates_or_out_of_order": res.repeats,
                "unmatched": res.unmatched,
                "early": early,
                "lateness_min_ms": 1000 * lat[0] if lat else None,
                "lateness_p50_ms": 1000 * _pct(lat, 0.5),
                "lateness_p99_ms": 1000 * _pct(lat, 0.99),
                "lateness_max_ms": 1000 * lat[-1] if lat else None,
                "behind_live_p50_ms": 1000 * _pct(behind, 0.5),
                "behind_live_p99_ms": 1000 * _pct(behind, 0.99),
            }
    everything.sort()
    rtt = sorted(delayed.pong_rtt)
    print(
        f"  pongs: {len(rtt)} of {delayed.pings} pings answered; round trip p50"
        f" {_ms(_pct(rtt, 0.5)).strip()} ms, p99 {_ms(_pct(rtt, 0.99)).strip()} ms,"
        f" max {_ms(rtt[-1] if rtt else float('nan')).strip()} ms"
    )
    closes = sum(delayed.problems.values())
    print(
        f"  resyncs, errors, snapshots, closes, unanswered pings (delayed displays): {closes};"
        f" the server's stations told to resync (all roles, whole run): {slow_clients:.0f}"
    )
    for k, v in delayed.problems.most_common(10):
        print(f"    {v:6d}  {k}")
    complete = all(
        ph.read == ph.committed and not r.gaps and not r.repeats and not r.unmatched
        for r in results
        for ph in r.phases.values()
    )
    never_early = bool(everything) and everything[0] >= 0
    ok = complete and never_early and not closes and bool(rtt) and rtt[-1] < 1.0
    print(
        f"  every event once and in order: {'yes' if complete else 'NO'}; never early:"
        f" {'yes' if never_early else 'NO'}; pongs within 1 s: "
        f"{'yes' if rtt and rtt[-1] < 1.0 else 'NO'} — {'MET' if ok else 'MISSED'}"
    )
    out.update(
        pings=delayed.pings,
        pongs=len(rtt),
        pong_p50_ms=1000 * _pct(rtt, 0.5),
        pong_p99_ms=1000 * _pct(rtt, 0.99),
        pong_max_ms=1000 * rtt[-1] if rtt else None,
        problems=dict(delayed.problems),
        goal_met=ok,
    )
    return out


def _ms(x: float) -> str:
    return f"{1000 * x:7.1f}"
