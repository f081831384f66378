"""Issue 14, hands kept for ever: a table played past its log's trim length keeps every hand.

Real ``tablewire serve`` processes with ``TABLEWIRE_LOG_KEEP=200``, a real redis-server, real
websockets, the bot dealer. Every hand number is fetched by the floor over the websocket and
by ``tablewire hand``; each archived hand's commands, replayed from the table before the hand
through the engine, end in the archived ``hand_end``; its PHH loads in PokerKit with the same
final stacks; its file is written and ``tablewire replay`` plays it; a display or a dealer
cannot fetch a hand (its hole cards); a server killed -9 right after a hand's end loses no
hand; and a tournament's table, whose hand ends the tournament's step commits, keeps its hands
too.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import msgspec
import pytest
from click.testing import CliRunner
from pokerkit import HandHistory

from clients.bots import Style, deal_tables
from clients.python import CommandRefused
from protocol import Act, ErrorEvent, HandEnd, StartHand, TableConfig, encode_event
from protocol.commands import Command, FouledDeck
from protocol.config import DEFAULT_CHIPS
from protocol.tournament import OpenTable, Register, StartClock
from protocol.wire import TournamentEvents
from server import hand_record
from server.archive import fetch_hand
from server.archive_script import unfiled_member
from server.cli import main
from server.engine import TableState, apply, new_table
from server.hand_files import hand_path
from server.keys import hand_key, log_key, unfiled_key
from server.phh import parse_phh
from server.store import Store
from tests.service.bots import Bot, dealer_bot, deep_config, play, setup_tables
from tests.service.conftest import ROOT, ServerProcess, token
from tests.service.test_tournament_service import structure

T = "main"
CONFIG = deep_config(seats=6)
KEEP = "200"
PACK = msgspec.msgpack.Encoder()


def hand_end_of(record: dict[str, Any]) -> dict[str, Any]:
    ends = [e for e in record["events"] if e["type"] == "hand_end"]
    assert ends, f"hand {record['hand']} has no hand_end"
    return ends[-1]


def replayed_hand_end(record: dict[str, Any]) -> dict[str, Any]:
    typed = hand_record.decode(json.dumps(record).encode())
    ends = [e for e in hand_record.replay(typed) if isinstance(e, HandEnd)]
    assert ends, f"hand {record['hand']}: the replay ends no hand"
    return json.loads(encode_event(ends[-1]))


def pokerkit_stacks(phh: str) -> list[int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        *_, state = HandHistory.loads(phh)
    return [int(stack) for stack in state.stacks]


def cli(*args: str, server: ServerProcess) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args],
        cwd=ROOT,
        env={**os.environ, "REDIS_URL": server.redis_url},
        capture_output=True,
        text=True,
        timeout=60,
    )


async def wait_for_files(directory: Path, hands: range, timeout: float = 20.0) -> None:
    """Every hand's file is written (the server writes them after the commits)."""
    deadline = time.monotonic() + timeout
    missing = list(hands)
    while missing:
        missing = [n for n in missing if not hand_path(directory, T, "1", n).is_file()]
        if missing and time.monotonic() > deadline:
            raise AssertionError(f"no file for hands {missing} after {timeout}s")
        if missing:
            await asyncio.sleep(0.05)  # the next look at the directory, not a wait for an event


async def wait_until_filed(redis: Any, timeout: float = 20.0) -> None:
    """The unfiled set is empty: each hand is taken off it once its file is written."""
    deadline = time.monotonic() + timeout
    while left := await redis.smembers(unfiled_key(T)):
        if time.monotonic() > deadline:
            raise AssertionError(f"hands {sorted(left)} still unfiled after {timeout}s")
        await asyncio.sleep(0.05)  # the next look at the set


async def play_hands(bot: Bot, hands: int) -> None:
    """Play until ``hands`` more hands have ended (the bot counts the ``hand_end`` events)."""
    goal = bot.policy.hands + hands
    while bot.policy.hands < goal:
        await play(bot, 1)


async def trimmed_table(start_server: Any, stations: Any, seed: int) -> tuple[Any, Bot]:
    """A server keeping ``KEEP`` events a log, table 1 set up, and its bot dealer."""
    server = start_server(TABLEWIRE_LOG_KEEP=KEEP)
    await setup_tables(server.url, token("admin"), T, ["1"], CONFIG)
    bot = await dealer_bot(stations, server.url, token("dealer", table="1"), T, "1", CONFIG, seed)
    return server, bot


async def test_a_table_played_past_the_trim_length_keeps_every_hand(
    start_server, stations, connect, aredis, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    server, bot = await trimmed_table(start_server, stations, seed=3)
    await play(bot, 500)
    await play_hands(bot, 1)  # the last command sent ends a hand
    hands = bot.policy.hands
    first_kept = await aredis.xrange(log_key(T, "1"), "-", "+", count=1)
    last = int(bot.acked[-1].ack or 0)
    assert int(first_kept[0][0].split(b"-")[0]) > 3 * int(KEEP), "the log was trimmed, often"
    assert last > 5 * int(KEEP) and hands >= 15
    print(f"\n{hands} hands, {last} events; the log keeps them from {first_kept[0][0].decode()}")

    floor = await connect(server, "floor")
    phh_checked = 0
    for number in range(1, hands + 1):
        record = await floor.hand(T, "1", number)
        assert record["hand"] == number and record["complete"]
        end = hand_end_of(record)
        assert end["hand"] == number
        assert replayed_hand_end(record) == end
        assert record["events"][0]["type"] == "hand_start"
        if record["phh"]:
            stacks = pokerkit_stacks(record["phh"])
            seats = parse_phh(record["phh"])["seats"]
            assert stacks == [end["stacks"][str(seat)] for seat in seats], record["phh"]
            phh_checked += 1
    assert phh_checked == hands, "every hand of this no-limit hold'em table has its PHH"

    with pytest.raises(CommandRefused) as refused:
        await floor.hand(T, "1", hands + 1)
    assert refused.value.error.code == "unknown_hand"

    for role, table in (("display", None), ("dealer", "1")):
        station = await connect(server, role, table=table)
        with pytest.raises(CommandRefused) as refused:
            await station.hand(T, "1", 1)
        assert refused.value.error.code == "forbidden", role

    directory = tmp_path / "hands"
    await wait_for_files(directory, range(1, hands + 1))
    runner = CliRunner()
    for number in range(1, hands + 1):
        shown = await asyncio.to_thread(
            runner.invoke, main, ["hand", T, "1", str(number)], env={"REDIS_URL": server.redis_url}
        )
        assert shown.exit_code == 0, shown.output
        filed = hand_path(directory, T, "1", number).read_bytes()
        assert json.loads(shown.stdout) == json.loads(filed)
    for number in (1, hands):
        fetched = json.loads(hand_path(directory, T, "1", number).read_bytes())
        shown = cli("hand", T, "1", str(number), server=server)
        assert shown.returncode == 0 and json.loads(shown.stdout) == fetched, shown.stderr
        replay = cli("replay", str(hand_path(directory, T, "1", number)), server=server)
        assert replay.returncode == 0, replay.stderr
        lines = [json.loads(line) for line in replay.stdout.splitlines()]
        ends = [i for i, e in enumerate(lines) if e["type"] == "hand_end"]
        # The archive stops at the hand_end; its command may go on after it (a seat removed).
        assert lines[: ends[-1] + 1] == fetched["events"]
    phh = cli("hand", T, "1", "1", "--phh", server=server)
    assert phh.returncode == 0 and phh.stdout.startswith('variant = "NT"'), phh.stderr


async def test_a_server_killed_right_after_a_hand_ends_loses_no_hand(
    start_server, stations, connect, aredis, tmp_path
) -> None:  # type: ignore[no-untyped-def]
    server, bot = await trimmed_table(start_server, stations, seed=5)
    await play_hands(bot, 3)
    server.kill()  # kill -9 the moment the third hand's end is acknowledged
    ended = bot.policy.hands
    # Whether or not the killed server wrote the last hand's file, say it did not.
    hand_path(tmp_path / "hands", T, "1", ended).unlink(missing_ok=True)
    await aredis.sadd(unfiled_key(T), unfiled_member("1", ended))
    server.start()
    floor = await connect(server, "floor")
    for number in range(1, ended + 1):
        record = await floor.hand(T, "1", number)
        assert hand_end_of(record)["hand"] == number
    # The restarted server's first commit in the tournament (the next deal) writes it.
    await play(bot, 1)
    await wait_for_files(tmp_path / "hands", range(1, ended + 1))
    await wait_until_filed(aredis)
    assert bot.policy.hands == ended, "no hand ended since the restart"


THREE = TableConfig(game="NLHE", blinds=(50, 100), seats={1: 900, 2: 900, 3: 900}, button=3)
CARDS = {1: ["As", "Ad"], 2: ["Kc", "Kd"], 3: ["2h", "7c"]}


class StoreTable:
    """A table played through the store alone, no server: each command's events committed as
    the service commits them."""

    def __init__(self, store: Store, table: str, state: TableState) -> None:
        self.store, self.table, self.state, self.seq = store, table, state, 0

    @classmethod
    async def open(cls, store: Store, table: str) -> StoreTable:
        state = new_table(THREE)
        await store.create_table(T, table, PACK.encode(state), msgspec.json.encode(THREE))
        return cls(store, table, state)

    async def commit(self, command: Command) -> None:
        self.state, events = apply(self.state, command)
        assert not isinstance(events[0], ErrorEvent), events[0]
        blobs = [encode_event(e) for e in events]
        snap = PACK.encode(self.state)
        done = await self.store.commit(
            T, self.table, self.seq, f"c{self.seq}", snap, b"{}", blobs, 1.0
        )
        assert done.outcome == "ok"
        self.seq = done.seq


async def played_hand(store: Store, table: str) -> None:
    """Hand 1 at a new table: dealt, and folded to the big blind."""
    played = await StoreTable.open(store, table)
    for command in (
        StartHand(cards=CARDS),
        Act(seat=3, declare="fold"),
        Act(seat=1, declare="fold"),
    ):
        await played.commit(command)


async def test_the_operator_sets_how_long_redis_keeps_a_hand(aredis, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``TABLEWIRE_HAND_KEEP`` (``tablewire serve --hand-keep``): the record expires then; 0,
    the default, keeps it."""
    for keep, expected in (("2h", 7_200_000), ("0", -1)):
        monkeypatch.setenv("TABLEWIRE_HAND_KEEP", keep)
        table = f"keep-{keep}"
        await played_hand(Store(aredis), table)
        ttl = await aredis.pttl(hand_key(T, table, 1))
        assert ttl == expected if expected < 0 else 0 <= expected - ttl < 60_000


async def test_a_tournament_tables_hands_are_archived_by_the_tournaments_step(
    start_server, connect
) -> None:  # type: ignore[no-untyped-def]
    """At a tournament's table a hand's end is committed by the tournament's step script: the
    hand is archived there, with what the tournament counted."""
    server = start_server(TABLEWIRE_LOG_KEEP=KEEP)
    admin = await connect(server, "admin")
    await admin.create_tournament(T, "Main event", structure())
    await admin.tournament_command(T, OpenTable(table="t1", seats=9))
    for i in range(4):
        await admin.tournament_command(T, Register(player=f"p{i}", name=f"Player {i}"))
    floor = await connect(server, "floor")
    await floor.subscribe(T)
    await floor.tournament_command(T, StartClock())
    dealers = await connect(server, "floor")
    config = TableConfig(game="NLHE", blinds=(50, 100), seats={}, button=1, chips=DEFAULT_CHIPS)
    playing = asyncio.get_running_loop().create_task(
        deal_tables(dealers, T, {"t1": config}, seed=7, pace=0.0, style=Style(all_in=0.1))
    )
    counted = 0
    async with asyncio.timeout(120):
        async for message in floor.messages():
            if isinstance(message, TournamentEvents):
                counted += sum(e["type"] == "hand_counted" for e in message.events)
            if counted >= 8:
                break
    playing.cancel()
    for number in range(1, counted + 1):
        record = await floor.hand(T, "t1", number)
        end = hand_end_of(record)
        assert end["hand"] == number and replayed_hand_end(record) == end
        if record["phh"]:
            seats = parse_phh(record["phh"])["seats"]
            assert pokerkit_stacks(record["phh"]) == [end["stacks"][str(s)] for s in seats]
        else:
            assert record["phh_refused"], "a hand without PHH says why"


async def test_a_void_hand_is_archived_and_again_with_the_deal_after_it(aredis) -> None:  # type: ignore[no-untyped-def]
    """A fouled deck voids the hand (37-E): its record says so, and the hand dealt again under
    the same number replaces it with both deals, replayed from the same table before them."""
    played = await StoreTable.open(Store(aredis), "1")
    commit = played.commit
    await commit(StartHand(cards=CARDS))
    await commit(FouledDeck(reason="two aces of spades"))
    void = await fetch_hand(aredis, T, "1", 1)
    assert void is not None and void.void and void.first == 1 and void.last == played.seq
    await commit(StartHand(cards=CARDS))
    await commit(Act(seat=3, declare="fold"))
    await commit(Act(seat=1, declare="fold"))
    record = await fetch_hand(aredis, T, "1", 1)
    assert record is not None and not record.void and record.complete
    assert record.first == 1 and record.last == played.seq
    kinds = [msgspec.json.decode(e)["type"] for e in record.events]
    assert kinds.count("hand_start") == 2 and kinds.count("hand_end") == 2
    assert record.state == new_table(THREE)
    ends = [e for e in hand_record.replay(record) if isinstance(e, HandEnd)]
    assert msgspec.json.decode(encode_event(ends[-1])) == msgspec.json.decode(record.events[-1])
    assert "more than once" in record.phh_refused
