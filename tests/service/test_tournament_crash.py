"""kill -9 of a server in the middle of a table break and of a balancing move (issue 13,
acceptance 3): after a restart each move is applied exactly once or not at all, on both tables.

A move touches three logs: the tournament's and the two tables' (a break: the broken table's
and every table it sends players to). The service commits them in one script (``STEP`` in
:mod:`server.tournament_store`), and the command id with them. A commit that were not one
would leave, after a kill between its writes, exactly what these tests look for in Redis: a
``moved`` in the tournament's log without the tables' ``player_removed``/``player_added`` (or
the other way), a player at two tables or at none, chips gone from one table and not arrived
at the other, a tournament seat map the tables disagree with. A command id that were not
idempotent would, sent again after the restart, move a player a second time or be refused
although it was applied (the floor would be told "no such move" for the move it just made).

The server is killed at points the test waits for, not at random times: right after the
command is written to its socket (wherever the server then is: it may or may not have
committed); with its commit on its way to Redis (Redis paused for writes: the step is decided,
its script waits, then the process dies and Redis drops the script with its connection); and
once the commit is in Redis but before the station reads the answer (the answer is lost, so
the station must send the id again). And while a move waits for a hand to end (the table in
a hand): after the confirmation or the break is recorded, then again while the dealer's
hand-ending command commits the move from the hand end, which a restarted server then
finishes. The points are chosen from outside the server process, so none of them can fall
between two writes of a commit for sure: a commit made of two writes would be caught when a
``sent`` kill happened to land between them, and every check is what such a kill would
break. Each time a new server on the same Redis is checked from Redis and from a fresh
subscription, the same command id is sent again, and the check is made once more.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from clients.python import Client, CommandRefused
from protocol import Act, Command, ErrorEvent, HandEnd, StartHand
from protocol.codec import decode_event
from protocol.tournament import (
    BreakTable,
    ConfirmMove,
    MovePlayer,
    OpenTable,
    Register,
    StartClock,
    Unregister,
    decode_tournament_event,
)
from protocol.wire import Send, SendTournament, Snapshot, TournamentSnapshot, encoder
from server import engine, tournament
from server.engine.buttons import next_positions
from server.keys import TOURNAMENT_LOG, commands_key, log_key, state_key, tables_key
from server.tournament import TournamentState
from tests.service.bots import TableLog, read_table
from tests.service.conftest import ServerProcess
from tests.service.test_tournament_service import STRUCTURE, structure

pytestmark = pytest.mark.asyncio

STACK = STRUCTURE["starting_stack"]
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
_tournament_state = msgspec.msgpack.Decoder(TournamentState)

BREAK_LAYOUT = [("1", 9, 9), ("2", 9, 9), ("3", 9, 3)]
"""Tables 1 and 2 filled, then table 3 opened: its 3 players fit the 4 seats freed by the
four who unregister from tables 1 and 2 (``BREAK_GONE``): 7, 7 and 3."""
BREAK_GONE = ["p0", "p1", "p9", "p10"]
BALANCE_LAYOUT = [("1", 7, 7), ("2", 9, 3)]
"""Table 1 full with 7, table 2 with 3: more than one apart, so table 1's first hand end
proposes moves from table 1 to table 2 (12-A)."""
BALANCE_SEATS = {2, 3, 4}
"""Where table 2's three sit (moved there, 8): the draw may seat them where no move can go yet
— at 1, 8 and 9 with the button at 1, every empty seat would post the first small blind (12-A
gives no move until that table has dealt)."""


# --- setting tournaments up ---------------------------------------------------------------------


async def open_tournament(
    connect: Any,
    server: ServerProcess,
    tid: str,
    layout: list[tuple[str, int, int]],
    gone: list[str],
) -> None:
    """Tables opened one after the other, each filled from the seat pool before the next
    opens, so who sits where is known; ``gone`` unregister (their seats go back to the pool);
    the clock started."""
    admin = await connect(server, "admin", tournament=tid)
    await admin.create_tournament(tid, f"Crash {tid}", structure())
    n = 0
    for table, seats, players in layout:
        await admin.tournament_command(tid, OpenTable(table=table, seats=seats))
        for _ in range(players):
            await admin.tournament_command(tid, Register(player=f"p{n}", name=f"Player {n}"))
            n += 1
    for who in gone:
        await admin.tournament_command(tid, Unregister(player=who))
    await admin.tournament_command(tid, StartClock())


async def dealer_command(
    aredis: Any, tid: str, table: str, legal: bool = True
) -> tuple[Command, bool]:
    """The dealer's next command at ``table`` as Redis holds it — a new hand, else the seat to
    act folds (everyone folds to the big blind: nobody busts, the blinds move) — and whether
    it ends the hand."""
    state = (await read_table(aredis, tid, table)).snap
    command: Command
    if state.phase == "idle":
        where = next_positions(state)
        assert where is not None, f"table {table} cannot deal"
        deck = DECK[:]
        command = StartHand(cards={seat: [deck.pop(), deck.pop()] for seat in where.dealt})
    else:
        assert state.to_act is not None, f"table {table}: nobody to act"
        command = Act(seat=state.to_act, declare="fold")
    _, events = engine.apply(state, command)
    assert not legal or not any(isinstance(e, ErrorEvent) for e in events), (table, events)
    return command, any(isinstance(e, HandEnd) for e in events)


async def start_hand(dealer: Client, aredis: Any, tid: str, table: str) -> None:
    command, _ = await dealer_command(aredis, tid, table)
    assert isinstance(command, StartHand)
    await dealer.command(tid, table, command)


async def fold_to_the_last(dealer: Client, aredis: Any, tid: str, table: str) -> Command:
    """Folds until the next one ends the hand; that one is returned, not sent."""
    for _ in range(20):
        command, ends = await dealer_command(aredis, tid, table)
        if ends:
            return command
        await dealer.command(tid, table, command)
    raise AssertionError(f"table {table}: the hand never ends")


async def balance_tournament(connect: Any, server: ServerProcess, aredis: Any, tid: str) -> int:
    """Table 1 (7) and table 2 (3); table 1 plays a hand, whose end proposes the moves. The
    number of the first proposal, from table 1 to table 2."""
    await open_tournament(connect, server, tid, BALANCE_LAYOUT, [])
    seated = {
        e["player"]: e["seat"]
        for e in await tournament_log(aredis, tid)
        if e.get("table") == "2" and e["type"] == "seated"
    }
    free = sorted(BALANCE_SEATS - set(seated.values()))
    admin = await connect(server, "admin", tournament=tid)
    for who, seat in seated.items():
        if seat not in BALANCE_SEATS:
            await admin.tournament_command(tid, MovePlayer(player=who, table="2", seat=free.pop()))
    dealer = await connect(server, "floor", tournament=tid)
    await start_hand(dealer, aredis, tid, "1")
    await dealer.command(tid, "1", await fold_to_the_last(dealer, aredis, tid, "1"))
    proposals = [e for e in await tournament_log(aredis, tid) if e["type"] == "move_proposed"]
    assert proposals and (proposals[0]["from_table"], proposals[0]["table"]) == ("1", "2")
    return int(proposals[0]["proposal"])


# --- what Redis holds -------------------------------------------------------------------------


async def tournament_log(aredis: Any, tid: str) -> list[dict[str, Any]]:
    entries = await aredis.xrange(log_key(tid, TOURNAMENT_LOG))
    return [msgspec.json.decode(fields[b"e"]) for _, fields in entries]


@dataclass
class Held:
    """A tournament as Redis holds it, checked whole."""

    seq: int
    log: list[dict[str, Any]]
    state: TournamentState
    tables: dict[str, TableLog]
    seated: dict[str, tuple[str, int]]


async def held(aredis: Any, tid: str) -> Held:
    """Read the tournament and all its tables from Redis and check that they agree:

    - each log is 1..seq without a hole; each table's snapshot is what its log describes;
    - every seated player sits at exactly one table, at the seat the tournament says, and no
      table holds a player the tournament does not seat there;
    - the chips at the tables are the chips in play (nothing lost or doubled by a move);
    - each table's ``player_added``/``player_removed``, in order, are the ones the tournament's
      ``seated``/``moved``/``unregistered`` order it, a moved player arriving with the stack
      the old table let go.
    """
    seq_, snap, snap_seq = await aredis.hmget(
        state_key(tid, TOURNAMENT_LOG), ["seq", "snap", "snap_seq"]
    )
    seq = int(seq_)
    entries = await aredis.xrange(log_key(tid, TOURNAMENT_LOG))
    assert [int(i.split(b"-")[0]) for i, _ in entries] == list(range(1, seq + 1)), tid
    state = _tournament_state.decode(snap)
    for _, fields in entries[int(snap_seq or 0) :]:
        tournament.evolve(state, decode_tournament_event(fields[b"e"]))
    log = [msgspec.json.decode(fields[b"e"]) for _, fields in entries]
    in_redis = {name.decode() for name in await aredis.smembers(tables_key(tid))}
    assert in_redis == set(state.tables), f"{tid}: tables {in_redis} in Redis, {state.tables}"
    tables = {name: await read_table(aredis, tid, name) for name in state.tables}
    for name, table in tables.items():
        assert [s for s, _ in table.events] == list(range(1, table.seq + 1)), (tid, name)
        rebuilt = engine.rebuild(table.config, (decode_event(raw) for _, raw in table.events))
        assert rebuilt == table.snap, f"{tid} table {name}: the snapshot is not its log"

    players = state.players
    seated = {
        p.player: (p.table, p.seat)
        for p in players.values()
        if p.status == "seated" and p.table is not None and p.seat is not None
    }
    assert len(seated) == sum(p.status == "seated" for p in players.values())
    occupied = {
        (name, seat): who
        for name, tab in state.tables.items()
        for seat, who in tab.occupied.items()
    }
    assert occupied == {where: who for who, where in seated.items()}, f"{tid}: the seat map"
    at_tables = sorted(
        (seat.name, name, seat.number)
        for name, table in tables.items()
        for seat in table.snap.seats
    )
    expected = sorted((players[who].name, t, s) for who, (t, s) in seated.items())
    assert at_tables == expected, f"{tid}: the tables seat {at_tables}, the tournament {expected}"

    chips = sum(
        seat.stack + (seat.paid if table.snap.phase != "idle" else 0)
        for table in tables.values()
        for seat in table.snap.seats
    )
    assert chips == STACK * len(seated) == tournament.chips_in_play(state), f"{tid}: chips"

    _logs_agree(tid, log, tables)
    return Held(seq, log, state, tables, seated)


def _logs_agree(tid: str, log: list[dict[str, Any]], tables: dict[str, TableLog]) -> None:
    """Walk the tournament's log: each order it gives a table is that table's next
    ``player_added``/``player_removed``, and nothing else is there."""
    rows: dict[str, list[tuple[str, int, int]]] = {
        name: [
            (e["type"], e["seat"], e.get("stack", 0))
            for _, e in table.dicts()
            if e["type"] in ("player_added", "player_removed")
        ]
        for name, table in tables.items()
    }
    at = dict.fromkeys(tables, 0)

    def next_row(table: str, kind: str, seat: int, why: str) -> int:
        assert at[table] < len(rows[table]), f"{tid}: table {table} never got: {why}"
        got = rows[table][at[table]]
        assert got[:2] == (kind, seat), f"{tid}: table {table} has {got}, not: {why}"
        at[table] += 1
        return got[2]

    for e in log:
        if e["type"] == "seated":
            assert next_row(e["table"], "player_added", e["seat"], e["text"]) == e["stack"]
        elif e["type"] == "unregistered" and e.get("table"):
            next_row(e["table"], "player_removed", e["seat"], e["text"])
        elif e["type"] == "moved":
            left = next_row(e["from_table"], "player_removed", e["from_seat"], e["text"])
            came = next_row(e["table"], "player_added", e["seat"], e["text"])
            assert left == came > 0, f"{tid}: left with {left}, arrived with {came}: {e['text']}"
    for name in tables:
        assert at[name] == len(rows[name]), f"{tid}: table {name} seated or removed on its own"


async def applied(aredis: Any, tid: str, origin: str, cid: str) -> bool:
    """Whether the command id was committed (its log's commands hash names it)."""
    return bool(await aredis.hexists(commands_key(tid, origin), cid))


async def fresh_subscription_agrees(
    connect: Any, server: ServerProcess, tid: str, seen: Held
) -> None:
    """A station subscribing now is told what Redis holds: the tournament's seat map, and each
    table's seats and stacks."""
    floor = await connect(server, "floor", tournament=tid)
    await floor.subscribe(tid)
    async with asyncio.timeout(10):
        snap = await next_message(floor, lambda m: isinstance(m, TournamentSnapshot))
    assert snap.seq == seen.seq
    places = {p.player: (p.table, p.seat) for p in snap.state.players if p.status == "seated"}
    assert places == seen.seated
    counts = {t.table: t.players for t in snap.state.tables}
    for name, table in seen.tables.items():
        assert counts.get(name, 0) == len(table.snap.seats), (tid, name)
    dealer = await connect(server, "floor", tournament=tid)
    for name, table in seen.tables.items():
        await dealer.subscribe(tid, name, since=-1)
        async with asyncio.timeout(10):
            view = await next_message(dealer, _snapshot_of(name))
        assert view.seq == table.seq
        assert sorted((s.seat, s.name, s.stack) for s in view.state.seats) == sorted(
            (s.number, s.name, s.stack) for s in table.snap.seats
        ), (tid, name)


def _snapshot_of(table: str) -> Callable[[Any], bool]:
    return lambda m: isinstance(m, Snapshot) and m.table == table


async def next_message(client: Client, match: Callable[[Any], bool]) -> Any:
    async for message in client.messages():
        if match(message):
            return message
    raise AssertionError("the client closed")


# --- killing the server at a point ---------------------------------------------------------------


async def until(condition: Callable[[], Awaitable[bool]], what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.002)


async def blocked_commits(aredis: Any) -> int:
    """Scripts waiting at the paused Redis with a step's snapshots in them (a lease renewal's
    script is a few bytes)."""
    listed = (await aredis.execute_command("CLIENT", "LIST")).decode()
    found = 0
    for line in listed.splitlines():
        fields = dict(f.split("=", 1) for f in line.split(" ") if "=" in f)
        if "b" in fields["flags"] and fields["cmd"] in ("eval", "evalsha"):
            found += int(fields["argv-mem"]) > 500
    return found


async def anyone_blocked(aredis: Any) -> bool:
    listed = (await aredis.execute_command("CLIENT", "LIST")).decode()
    return any("flags=b" in line for line in listed.splitlines())


@dataclass
class InFlight:
    client: Client
    message: Send | SendTournament
    tid: str
    origin: str
    """The log whose commands hash records the id: the tournament's, or the dealer's table."""

    @property
    def cid(self) -> str:
        return self.message.id


async def send_and_kill(
    server: ServerProcess, aredis: Any, position: str, flights: list[InFlight]
) -> None:
    """Write the commands to the server's sockets and kill -9 it at ``position``, never reading
    an answer: ``sent`` at once; ``at_redis`` with every command's commit waiting at Redis
    (paused for writes) — it dies there, unrun; ``committed`` once every command id is in Redis."""
    if position == "at_redis":
        await aredis.execute_command("CLIENT", "PAUSE", 30_000, "WRITE")
    try:
        for n, f in enumerate(flights, start=1):
            assert f.client.ws is not None
            await f.client.ws.send(encoder.encode(f.message).decode())
            if position == "at_redis":
                # One at a time: commits of one turn of the server's loop share a pipeline, and
                # only the first of a paused pipeline shows as blocked.

                async def waiting(n: int = n) -> bool:
                    return await blocked_commits(aredis) >= n

                await until(waiting, f"the commits to reach Redis ({n} of {len(flights)})")
        if position == "committed":

            async def recorded() -> bool:
                return all([await applied(aredis, f.tid, f.origin, f.cid) for f in flights])

            await until(recorded, "the commits")
        server.kill()
        if position == "at_redis":

            async def gone() -> bool:
                return not await anyone_blocked(aredis)

            await until(gone, "Redis to drop the dead server's connections")
    finally:
        if position == "at_redis":
            await aredis.execute_command("CLIENT", "UNPAUSE")


async def station(connect: Any, server: ServerProcess, tid: str) -> Client:
    """A floor client that does not reconnect: what it sent dies with the server."""
    client: Client = await connect(server, "floor", tournament=tid, reconnect=False)
    return client


# --- the tests ---------------------------------------------------------------------------------


POSITIONS = ("sent", "at_redis", "committed")


async def test_kill_9_mid_table_break_and_mid_balancing_move_each_applied_once_or_not_at_all(
    start_server: Any, connect: Any, aredis: Any
) -> None:
    """Both tables between hands: the break and the move are made by the command's own step.
    At each kill point a break and a move are in flight at once (two tournaments)."""
    server: ServerProcess = start_server()
    proposals: dict[str, int] = {}
    for position in POSITIONS:
        await open_tournament(connect, server, f"break-{position}", BREAK_LAYOUT, BREAK_GONE)
        proposals[position] = await balance_tournament(connect, server, aredis, f"move-{position}")
    outcomes: dict[str, bool] = {}
    for position in POSITIONS:
        broken, moving = f"break-{position}", f"move-{position}"
        before = {tid: await held(aredis, tid) for tid in (broken, moving)}
        flights = [
            InFlight(
                await station(connect, server, broken),
                SendTournament(
                    f"{broken}-cmd", broken, BreakTable(table="3", shuffle=0, deal=0, staff="Kim")
                ),
                broken,
                TOURNAMENT_LOG,
            ),
            InFlight(
                await station(connect, server, moving),
                SendTournament(f"{moving}-cmd", moving, ConfirmMove(proposal=proposals[position])),
                moving,
                TOURNAMENT_LOG,
            ),
        ]
        await send_and_kill(server, aredis, position, flights)
        server.start()
        for f in flights:
            done = await applied(aredis, f.tid, f.origin, f.cid)
            outcomes[f.tid] = done
            after = await held(aredis, f.tid)
            if f.tid == broken:
                _break_made(after, once=done)
            else:
                _move_made(after, proposals[position], once=done)
            if not done:
                assert after.seq == before[f.tid].seq, f"{f.tid}: not applied, yet events"
                assert {n: t.seq for n, t in after.tables.items()} == {
                    n: t.seq for n, t in before[f.tid].tables.items()
                }, f"{f.tid}: a table moved on without the tournament"
            await fresh_subscription_agrees(connect, server, f.tid, after)
            # The same id again, on the new server: applied now if it was not, else nothing.
            assert isinstance(f.message, SendTournament)
            floor = await connect(server, "floor", tournament=f.tid)
            ack = await floor.tournament_command(f.tid, f.message.command, f.cid)
            assert ack.duplicate == done, f"{f.tid}: sent again, duplicate={ack.duplicate}"
            again = await held(aredis, f.tid)
            if f.tid == broken:
                _break_made(again, once=True)
            else:
                _move_made(again, proposals[position], once=True)
            ack_2 = await floor.tournament_command(f.tid, f.message.command, f.cid)
            assert ack_2.duplicate and ack_2.seq == ack.seq == again.seq
            assert (await held(aredis, f.tid)).seq == again.seq
            await fresh_subscription_agrees(connect, server, f.tid, again)
    print(f"kill -9 outcomes (applied before the resend): {outcomes}")
    assert not outcomes["break-at_redis"] and not outcomes["move-at_redis"]
    assert outcomes["break-committed"] and outcomes["move-committed"]


def _break_made(seen: Held, once: bool) -> None:
    """Table 3's three players moved once each to tables 1 and 2 (11-B), or nobody moved."""
    kinds = [e["type"] for e in seen.log]
    moved = [e for e in seen.log if e["type"] == "moved"]
    assert kinds.count("table_broken") == int(once)
    assert len(moved) == (3 if once else 0)
    assert len({e["player"] for e in moved}) == len(moved)
    assert all(e["from_table"] == "3" and e["kind"] == "break" for e in moved)
    at_three = [w for w, (t, _) in seen.seated.items() if t == "3"]
    assert len(at_three) == (0 if once else 3)
    assert not seen.tables["3"].snap.seats if once else len(seen.tables["3"].snap.seats) == 3
    assert len(seen.seated) == 17


def _move_made(seen: Held, proposal: int, once: bool) -> None:
    """One player moved from table 1 to table 2 by the proposal (12-A), or nobody moved (the
    set-up's moves to ``BALANCE_SEATS`` have no proposal)."""
    moved = proposed_moves(seen.log)
    assert [(e["proposal"], e["from_table"], e["table"]) for e in moved] == (
        [(proposal, "1", "2")] if once else []
    )
    counts = {n: len(t.snap.seats) for n, t in seen.tables.items()}
    assert counts == ({"1": 6, "2": 4} if once else {"1": 7, "2": 3})


async def test_kill_9_while_a_move_and_a_break_wait_for_a_hand_then_at_the_hand_end(
    start_server: Any, connect: Any, aredis: Any
) -> None:
    """The tables in a hand: the confirmed move and the break wait for it (held, no new hand).
    Killed with the confirmation and the break just committed; on the restarted server the
    hand is finished, and killed again with the hand end's commit (the table's command, which
    makes the move) waiting at Redis, then just after it committed."""
    server: ServerProcess = start_server()
    moving, broken = "move-waits", "break-waits"
    proposal = await balance_tournament(connect, server, aredis, moving)
    await open_tournament(connect, server, broken, BREAK_LAYOUT, BREAK_GONE)
    dealer = await connect(server, "floor", tournament=moving)
    await start_hand(dealer, aredis, moving, "1")
    dealer_3 = await connect(server, "floor", tournament=broken)
    await start_hand(dealer_3, aredis, broken, "3")

    confirm = ConfirmMove(proposal=proposal)
    breaking = BreakTable(table="3", shuffle=0, deal=0, staff="Kim")
    flights = [
        InFlight(
            await station(connect, server, moving),
            SendTournament("confirm", moving, confirm),
            moving,
            TOURNAMENT_LOG,
        ),
        InFlight(
            await station(connect, server, broken),
            SendTournament("break", broken, breaking),
            broken,
            TOURNAMENT_LOG,
        ),
    ]
    await send_and_kill(server, aredis, "committed", flights)
    server.start()
    waits: list[tuple[str, ConfirmMove | BreakTable, str]] = [
        (moving, confirm, "move_confirmed"),
        (broken, breaking, "break_announced"),
    ]
    for tid, command, waiting in waits:
        seen = await held(aredis, tid)
        kinds = [e["type"] for e in seen.log]
        assert kinds.count(waiting) == 1 and kinds.count("tables_held") == 1
        assert not proposed_moves(seen.log) and "table_broken" not in kinds
        await fresh_subscription_agrees(connect, server, tid, seen)
        floor = await connect(server, "floor", tournament=tid)
        ack = await floor.tournament_command(tid, command, "confirm" if tid == moving else "break")
        assert ack.duplicate and ack.seq == (await held(aredis, tid)).seq == seen.seq
    # The hold survived the kill: the move's other table starts no hand (12-A).
    dealer = await connect(server, "floor", tournament=moving)
    held_back, _ = await dealer_command(aredis, moving, "2", legal=False)
    with pytest.raises(CommandRefused) as refused:
        await dealer.command(moving, "2", held_back)
    assert (refused.value.error.code, refused.value.error.rule) == ("held", "12-A")

    # Table 1's hand ends on the new server; it dies with the hand end's commit at Redis.
    last = await fold_to_the_last(dealer, aredis, moving, "1")
    ending = InFlight(
        await station(connect, server, moving), Send("last-fold", moving, "1", last), moving, "1"
    )
    await send_and_kill(server, aredis, "at_redis", [ending])
    server.start()
    assert not await applied(aredis, moving, "1", "last-fold")
    seen = await held(aredis, moving)
    assert seen.tables["1"].snap.phase != "idle", "the hand end never ran"
    assert not proposed_moves(seen.log)
    await fresh_subscription_agrees(connect, server, moving, seen)
    dealer = await connect(server, "floor", tournament=moving)
    ack = await dealer.command(moving, "1", last, "last-fold")
    assert not ack.duplicate
    _waited_move_made(await held(aredis, moving), proposal)
    again = await dealer.command(moving, "1", last, "last-fold")
    assert again.duplicate and again.seq == ack.seq
    seen = _waited_move_made(await held(aredis, moving), proposal)
    await fresh_subscription_agrees(connect, server, moving, seen)

    # Table 3's hand ends; killed once the hand end and the break are committed.
    dealer_3 = await connect(server, "floor", tournament=broken)
    last = await fold_to_the_last(dealer_3, aredis, broken, "3")
    ending = InFlight(
        await station(connect, server, broken), Send("last-fold", broken, "3", last), broken, "3"
    )
    await send_and_kill(server, aredis, "committed", [ending])
    server.start()
    seen = await held(aredis, broken)
    _break_made(seen, once=True)
    await fresh_subscription_agrees(connect, server, broken, seen)
    dealer_3 = await connect(server, "floor", tournament=broken)
    ack = await dealer_3.command(broken, "3", last, "last-fold")
    assert ack.duplicate
    again = await held(aredis, broken)
    assert again.seq == seen.seq and {n: t.seq for n, t in again.tables.items()} == {
        n: t.seq for n, t in seen.tables.items()
    }
    _break_made(again, once=True)
    kinds = [e["type"] for e in again.log]
    assert (
        kinds.count("tables_released") == 1 and kinds.count("hand_counted") == 1
    )  # table 3's hand, once


def proposed_moves(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The balancing moves made (12-A); not the set-up's moves to ``BALANCE_SEATS``."""
    return [e for e in log if e["type"] == "moved" and e.get("proposal")]


def _waited_move_made(seen: Held, proposal: int) -> Held:
    """The confirmed move made once, at the hand end, and the tables released (12-A)."""
    _move_made(seen, proposal, once=True)
    kinds = [e["type"] for e in seen.log]
    assert kinds.count("move_confirmed") == 1 and kinds.count("tables_released") == 1
    assert all(t.snap.phase == "idle" for t in seen.tables.values())
    return seen
