"""Moves benchmark (issue 13, acceptance 5): table breaks of 9 players into 8 tables, and
balancing moves, under ~500 table commands/s, through the real service.

    python benchmarks/tournament_moves.py          # 500 commands/s, up to 20 breaks in 240 s
    python benchmarks/tournament_moves.py --quick  # 250 commands/s, up to 2 breaks in 35 s

The processes, the server, the Redis and the bots are those of ``load.py`` and
``tournament.py`` (``benchmarks/loadgen/``); the trials run in this file's worker.

What runs, all on 127.0.0.1:

- a real ``redis-server`` (AOF, ``appendfsync always``) and ``python -m server.cli serve`` on it;
- the tournament of the moves (``loadgen.registration.TOURNAMENT``): 9 tables of 10 seats and 73
  players registered by the admin (the service draws their seats). 10 seats and 73, not 9 and
  81: a table of 9 breaks into the 8 others only if they have 9 free seats, which balanced
  9-seat tables never have; balanced here, one table has 9 and the others 8. Deep stacks, so
  nobody busts; 12-D stoppage off, so the table a break opens is not stopped while it fills.
  Each table has a dealer station whose bot (``clients.bots.DealerBot``, fed the table's events,
  as ``tournament.py``'s) plays at most ``--table-rate`` commands/s, paced (Poisson) across the
  tables at ``--tournament-rate`` in all; a display on each table; one floor monitor on the whole
  tournament, which sends the moves. They run in one client process (this file, ``--worker``).
- around it, ``--rate`` minus the tournament's share: ``--background`` plain 9-seat tables
  played by ``load.py``'s workers (``loadgen.stations``: a bot dealer and a display per table,
  one floor monitor per worker), paced (Poisson) for the whole run.

The trials, one at a time, by the floor:

- a balancing move while the tournament has a proposal (``move_proposed``: the random seats
  may leave the tables unbalanced at first, and every break leaves a new table): the two
  tables' dealers finish the hand they are in and start no new one; once both are between hands
  the floor sends ``confirm_move``, which the service makes at once (12-A);
- a table break once the tables are balanced and none is proposed: all 9 tables finish their
  hands; the floor sends ``break_table`` for the table of 9 (the service draws the two random
  inputs, 11-B); its players go to the 8 others (one of them gets two); then the admin opens a
  new table, whose filling makes the next moves;
- the floor's own move (``move``, rule 8) of the new table's first two players, from the
  fullest tables, timed the same way: the tournament proposes a move to a table that has not
  dealt one at a time, and none to one whose only player sits on the button seat (see
  ``loadgen.moves.Room.floor_work``), so two players are seated there before the proposals.

The tables wait for their hands to end so that what is timed is the service's: a move sent
while a table plays waits there for the hand's end (by the rules), which would time the hand.
Latency of a move: from the floor's send to the moment the last station of every table it
touched — each one's dealer station and display — has read the ``events`` frame with the
move's ``player_removed`` / ``player_added`` (the tables come from the floor's ``moved`` or
``table_broken``). Beside it, the table commands of the same run, as ``load.py`` and
``tournament.py`` measure them: from the dealer's send to each subscriber having the events
frame (the tournament's: dealer station, display and floor; the plain tables': display and
floor), each (command, subscriber) pair one sample, the first ``--warmup`` s not counted. The
monotonic clock is shared by every process of the machine; the clients share its cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import secrets
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import load
from loadgen import ROOT
from loadgen.common import DRAIN_GRACE, PACED
from loadgen.machine import (
    cpu_ticks,
    finished,
    log_errors,
    machine_busy,
    scratch,
    start_server,
    stop,
)
from loadgen.moves import PLAYERS, SEATS, TABLES, Trial, moves_worker, set_up
from loadgen.registration import Records
from loadgen.report import TargetRun, analyse
from loadgen.stations import Records as PlainRecords
from tournament import (
    cpu_columns,
    elsewhere,
    every_process,
    line,
    percentile,
    read_line,
    table_commands,
    tell,
)

from server import loop
from server.embedded_redis import EmbeddedRedis

GOAL_MS = 50.0
# --- the orchestrator --------------------------------------------------------------------


async def spawn(spec: dict[str, Any], spec_path: Path) -> asyncio.subprocess.Process:
    """The tournament's client process (this file with ``--worker``)."""
    spec_path.write_text(json.dumps(spec))
    return await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--worker", str(spec_path),
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip


@dataclass
class Run:
    t0: float
    records: Records
    plain: PlainRecords
    trials: list[Trial]
    cpu: dict[str, float]
    machine: float
    log_errors: Counter[str]
    others: list[tuple[str, float]]
    """Other processes' CPU during the run, by name (cores): the machine is shared."""


async def run(args: argparse.Namespace, workdir: Path, redis: EmbeddedRedis) -> Run:
    secret = secrets.token_hex(16)
    assert redis.process is not None
    server, port = start_server(redis.url, secret, workdir)
    try:
        url = f"ws://127.0.0.1:{port}/"
        await set_up(url, secret.encode())
        if args.background:
            await load.create_tables(url, secret.encode(), args.background, 9)
        common = {
            "url": url, "secret": secret, "seconds": args.seconds, "drain": 2.0,
            "max_drain": 30.0, "seed": args.seed, "deflate": True,
        }  # fmt: skip
        plain_rate = args.rate - args.tournament_rate
        tables = list(range(1, args.background + 1))
        plain = []
        for w in range(args.workers if args.background and plain_rate > 0 else 0):
            spec = {
                **common, "target": "tablewire", "tables": tables[w :: args.workers],
                "tables_total": args.background, "floors": [w], "seats": 9, "rate": plain_rate,
                "depth": 1, "phases": [PACED], "out": str(workdir / f"plain{w}.bin"),
            }  # fmt: skip
            plain.append(await load.spawn(spec, workdir / f"plain{w}.json"))
        spec = {
            **common, "kind": "moves", "players": PLAYERS, "rate": args.tournament_rate,
            "table_rate": args.table_rate, "breaks": args.breaks,
            "out": str(workdir / "moves.bin"), "trials": str(workdir / "trials.json"),
        }  # fmt: skip
        moves = await spawn(spec, workdir / "moves.json")
        clients = [moves, *plain]
        try:
            for proc in clients:
                if (said := await read_line(proc, 300)) != "ready":
                    raise RuntimeError(f"a worker did not start: {said!r}")
            procs = {
                "server": server.pid,
                "redis": redis.process.pid,
                "tournament client": moves.pid,
            }
            procs |= {f"plain client{i}": p.pid for i, p in enumerate(plain)}
            ticks = {k: cpu_ticks(p) for k, p in procs.items()}
            busy0, total0 = machine_busy()
            everyone0, columns0 = every_process(), cpu_columns()
            wall0 = time.monotonic()
            t0 = wall0 + 1.0
            for proc in clients:
                await tell(proc, f"go {t0}\n")
            await asyncio.sleep(max(0.0, t0 + args.seconds - time.monotonic()))
            wall = time.monotonic() - wall0
            hz = os.sysconf("SC_CLK_TCK")
            cpu = {k: (cpu_ticks(p) - ticks[k]) / hz / wall for k, p in procs.items()}
            busy1, total1 = machine_busy()
            ours = {os.getpid(), *procs.values()}
            seen = (everyone0, every_process(), ours, (columns0, cpu_columns()))
            others = elsewhere(*seen, wall)[0]
            if (said := await read_line(moves, 60 + DRAIN_GRACE)) != "done":
                raise RuntimeError(f"the tournament's worker ended with {said!r}")
            for proc in plain:
                await asyncio.wait_for(proc.wait(), 60 + DRAIN_GRACE)
        finally:
            for proc in clients:
                if proc.returncode is None:
                    proc.kill()
                    await proc.wait()
        records = Records.load((workdir / "moves.bin").read_bytes())
        trials = [Trial(**t) for t in json.loads((workdir / "trials.json").read_text())]
        plain_records = PlainRecords()
        for w in range(len(plain)):
            plain_records.extend(PlainRecords.load((workdir / f"plain{w}.bin").read_bytes()))
        machine = (busy1 - busy0) / max(1, total1 - total0)
    finally:
        stop(server)
    errors = log_errors(workdir / "server.log")
    return Run(t0, records, plain_records, trials, cpu, machine, errors, others)


def trial_lines(kind: str, title: str, trials: list[Trial]) -> dict[str, float]:
    done = [t for t in trials if t.kind == kind and not t.why]
    total = sorted(t.last - t.sent for t in done)
    print(title)
    print(f"  {'latency, ms':34} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    print(line("send -> every station (goal)", total))
    print(line("send -> the floor's ack", sorted(t.ack - t.sent for t in done)))
    print(line("send -> the floor has the move", sorted(t.floor - t.sent for t in done)))
    tables = Counter(len(t.touched) for t in done)
    waited = sorted(t.waited for t in done)
    longest = max(waited, default=math.nan)
    touched = ", ".join(f"{n} tables in {c}" for n, c in sorted(tables.items())) or "none"
    print(
        f"  {len(done)} counted, touching {touched}; before the send, its tables finished their"
        f" hands in {percentile(waited, 0.5):.1f} s (median; max {longest:.1f})"
    )
    for why, n in Counter(t.why for t in trials if t.kind == kind and t.why).items():
        print(f"  {n} not counted: {why}")
    return {"p50": 1000 * percentile(total, 0.5), "p95": 1000 * percentile(total, 0.95),
            "p99": 1000 * percentile(total, 0.99), "n": len(total)}  # fmt: skip


def report(args: argparse.Namespace, run: Run, load_avg: str) -> dict[str, Any]:
    begin, end = run.t0 + args.warmup, run.t0 + args.seconds
    ours = table_commands(run.records, begin, end, 2, args.seconds)
    window = TargetRun("tablewire", run.plain, [(PACED, run.t0, end)], {}, {})
    plain = analyse(window, argparse.Namespace(warmup=args.warmup)).get(PACED)
    ours_rate = ours.acked / (end - begin)
    plain_rate = plain.rate if plain else 0.0
    every = sorted(ours.latency + (plain.latency if plain else []))
    cores = os.cpu_count() or 1
    print()
    print(
        f"== Tablewire moves: breaks of 9 players into 8 tables and balancing moves in a"
        f" {TABLES}-table tournament ({PLAYERS} players, {SEATS} seats), beside"
        f" {args.background} plain tables; ~{args.rate:g} table commands/s in all"
    )
    print(
        f"   {cores} cores (load average before: {load_avg}); run {args.seconds:g} s, the first"
        f" {args.warmup:g} s of table commands not counted; the clients share the cores"
    )
    print()
    out = {
        "break": trial_lines(
            "break", "table breaks: the floor's break_table -> each dealer station and display"
            " of the 9 tables has its player_removed / player_added", run.trials,
        ),
    }  # fmt: skip
    print()
    out["move"] = trial_lines(
        "move", "balancing moves: the floor's confirm_move -> both tables' dealer station and"
        " display have the player_removed / player_added", run.trials,
    )  # fmt: skip
    print()
    out["seat"] = trial_lines(
        "seat", "the floor's own moves (move: a new table's first two players) -> both tables'"
        " dealer station and display have the player_removed / player_added", run.trials,
    )  # fmt: skip
    print()
    print("table commands: dealer sends -> each subscriber has the events")
    print(f"  {'latency, ms':34} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    print(line(f"tournament, {ours_rate:.0f}/s", ours.latency))
    if plain:
        print(line(f"plain tables, {plain_rate:.0f}/s", plain.latency))
    print(line(f"all, {ours_rate + plain_rate:.0f}/s", every))
    print(
        f"  tournament: {ours.acked:,} of {ours.sent:,} sent applied; {run.records.missed:,}"
        " arrivals found no table ready (the trials stop tables at their hands' end)"
    )
    print()
    parts = "  ".join(f"{k} {v:4.2f}" for k, v in run.cpu.items())
    print(f"CPU (1.0 = a core): {parts}; machine {100 * run.machine:.0f}% busy")
    listed = ", ".join(f"{name} {c:4.2f}" for name, c in run.others) or "none"
    print(f"  other processes: {listed}")
    if sum(c for name, c in run.others if not name.startswith(("kworker", "ksoftirq"))) > 0.2:
        print("  WARNING: other processes took CPU during the run: the figures are pessimistic")
    problems = run.records.problems + run.plain.problems
    problems += Counter({f"server log: {k}": v for k, v in run.log_errors.items()})
    refusals = ", ".join(f"{k} x{v}" for k, v in sorted(run.records.refusals.items()))
    print(f"refusals at the tournament: {refusals or 'none'}")
    for what, count in problems.most_common(15):
        print(f"  problem: {count:6d}  {what}")
    read = "the floor read "
    notes = sorted(run.records.notes.items())
    floor = [f"{k.removeprefix(read)} {v}" for k, v in notes if k.startswith(read)]
    print(f"  {read}(tournament events): {', '.join(floor)}")
    for what, count in notes:
        if not what.startswith(read):
            print(f"  note: {count:6d}  {what}")
    print()
    p99 = 1000 * percentile(every, 0.99)
    print(f"goals (under {args.rate:g} table commands/s: {ours_rate + plain_rate:.0f}/s achieved)")
    for kind in ("break", "move"):
        got = out[kind]["p99"]
        verdict = "MET" if got < GOAL_MS else "MISSED"
        print(
            f"  {kind} p99 < {GOAL_MS:g} ms to every station of its tables: {got:.1f} ms"
            f" (n={out[kind]['n']}) — {verdict}; table commands p99 beside it {p99:.1f} ms"
        )
    out["commands"] = {"per_s": ours_rate + plain_rate, "p99_ms": p99}
    return out


async def orchestrate(args: argparse.Namespace) -> int:
    started = time.monotonic()
    files = 4 * args.background + 1000
    with scratch("tablewire-moves-", args.keep, files) as (workdir, redis):
        load_avg = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        result = await run(args, workdir, redis)
        out = report(args, result, load_avg)
        return finished(started, out, args.json)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        loop.run(moves_worker(json.loads(Path(sys.argv[2]).read_text())))
        return
    parser = argparse.ArgumentParser(description="Tablewire: table breaks and balancing moves")
    parser.add_argument(
        "--quick", action="store_true", help="2 breaks at most, 35 s, 250 commands/s, 100 tables"
    )
    parser.add_argument("--rate", type=float, help="table commands/s in all (500; quick 250)")
    parser.add_argument(
        "--tournament-rate", type=float, default=100.0, help="of which the tournament's tables"
    )
    parser.add_argument(
        "--table-rate", type=float, default=20.0, help="commands/s a tournament table makes at most"
    )
    parser.add_argument("--background", type=int, help="plain tables (300; quick 100)")
    parser.add_argument("--workers", type=int, default=1, help="plain tables' client processes")
    parser.add_argument("--seconds", type=float, help="the run (240; quick 35)")
    parser.add_argument("--breaks", type=int, help="breaks at most (20; quick 2)")
    parser.add_argument("--warmup", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    q = args.quick
    args.rate = args.rate or (250.0 if q else 500.0)
    args.background = args.background if args.background is not None else (100 if q else 300)
    args.seconds = args.seconds or (35.0 if q else 240.0)
    args.breaks = args.breaks if args.breaks is not None else (2 if q else 20)
    sys.exit(asyncio.run(orchestrate(args)))


if __name__ == "__main__":
    main()
