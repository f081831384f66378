"""On Redis Cluster a script or a transaction may touch the keys of one hash slot only: every
key each of the stores' scripts and transactions receives must hash to one slot, the
tournament's, for its tables and for the tournament itself.

No server is needed: the stores run on a client that records each call (what the cluster
client would route) and answers as Redis would, and the slots are computed with redis-py's
``key_slot``, as the cluster client computes them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from redis.crc import key_slot

from server.keys import TIMED, TOURNAMENT_LOG, channel, state_key
from server.store import Store
from server.tournament_store import Step, TablePart, TournamentStore

TOURNAMENTS = ["main", "spring-festival/event-7", "{odd}", "ünïcode"]
SCRIPTED = {"evalsha", "script"}
"""Calls whose keys Redis checks together: a script's KEYS."""

REPLIES: dict[str, Any] = {
    "evalsha": [b"ok", b"1"],
    "script": [b"ok", b"1"],
    "xrange": [],
    "hget": b"0",
    "hmget": [None, None, None],
    "smembers": set(),
    "sadd": 1,
    "zrangebyscore": [],
    "exists": 0,
}


class Recorded:
    """What one call sent: its name, its keys, and whether Redis runs them as one."""

    def __init__(self, name: str, keys: list[str], together: bool) -> None:
        self.name, self.keys, self.together = name, keys, together


class _Script:
    def __init__(self, client: Recorder, text: str) -> None:
        self.client, self.script, self.sha = client, text, f"sha-{len(client.scripts)}"

    async def __call__(self, keys: list[str], args: list[Any]) -> Any:
        self.client.calls.append(Recorded("script", list(keys), True))
        if "XRANGE" in self.script:  # a log read: its entries and the table's last number
            return [[], b""]
        return REPLIES["script"]


class _Pipeline:
    def __init__(self, client: Recorder, transaction: bool) -> None:
        self.client, self.transaction = client, transaction
        self.stack: list[Recorded] = []

    def __getattr__(self, name: str) -> Any:
        def queue(*args: Any, **kwargs: Any) -> None:
            command, rest = (
                (str(args[0]).lower(), args[1:])
                if name == "execute_command"
                else (
                    name,
                    args,
                )
            )
            if command == "evalsha":
                keys = [str(k) for k in rest[2 : 2 + int(rest[1])]]
                self.stack.append(Recorded(command, keys, True))
            else:
                self.stack.append(Recorded(command, [str(rest[0])], False))

        return queue

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        if self.transaction:
            keys = [key for call in self.stack for key in call.keys]
            self.client.calls.append(Recorded("transaction", keys, True))
        else:
            self.client.calls.extend(self.stack)
        return [REPLIES[call.name] for call in self.stack]


class Recorder:
    """A client that records every call instead of sending it."""

    def __init__(self) -> None:
        self.calls: list[Recorded] = []
        self.scripts: list[_Script] = []

    def register_script(self, text: str) -> _Script:
        script = _Script(self, text)
        self.scripts.append(script)
        return script

    @asynccontextmanager
    async def _pipe(self, transaction: bool) -> Any:
        yield _Pipeline(self, transaction)

    def pipeline(self, transaction: bool = True) -> Any:
        return self._pipe(transaction)

    def __getattr__(self, name: str) -> Any:
        async def command(key: Any, *args: Any, **kwargs: Any) -> Any:
            self.calls.append(Recorded(name, [str(key)], False))
            return REPLIES.get(name)

        return command

    def together(self) -> Iterator[Recorded]:
        """The calls whose keys must share one slot."""
        return (call for call in self.calls if call.together)


def slots(keys: list[str]) -> set[int]:
    return {key_slot(key.encode()) for key in keys}


async def table_calls(tournament: str) -> Recorder:
    redis = Recorder()
    store = Store(redis)  # type: ignore[arg-type]
    await store.create_tournament(tournament, "Spring Main")
    await store.create_table(tournament, "12", b"snap", b"{}")
    await store.commit(tournament, "12", 3, "cmd-1", b"snap", b"{}", [b'{"type":"x"}'], 1.0)
    await store.commit(
        tournament, "12", 4, "cmd-2", b"snap", b"{}", [b"{}", b"{}"], 2.0, "1700000000000", True
    )
    await store.commit(tournament, TOURNAMENT_LOG, 0, "cmd-3", b"snap", b"{}", [b"{}"], 3.0)
    await store.clear_deadline(tournament, "12", 1700000000000)
    await store.events_since(tournament, "12", 5)
    await store.page(tournament, TOURNAMENT_LOG, 0, 10)
    await store.load(tournament, "12")
    await store.deadlines_due(1700000000000)
    return redis


async def tournament_calls(tournament: str) -> Recorder:
    redis = Recorder()
    store = TournamentStore(redis)  # type: ignore[arg-type]
    await store.create(tournament, "Spring Main", b"snap", b"{}", "")
    parts = [
        TablePart("3", 10, b"snap", b"{}", [b"{}"], deadline="-"),
        TablePart("4", -1, b"snap", b"{}", [b"{}", b"{}"], config=b"{}", created=b"{}"),
    ]
    for origin in (TOURNAMENT_LOG, "3"):
        step = Step(tournament, f"cmd-{origin}", origin, 5, b"", "", "", b"{}", [b"{}"], 1.0)
        step.tables = parts
        await store.commit(step)
    return redis


@pytest.mark.parametrize("tournament", TOURNAMENTS)
def test_every_table_script_and_transaction_stays_in_the_tournaments_slot(
    tournament: str,
) -> None:
    redis = asyncio.run(table_calls(tournament))
    home = slots([state_key(tournament, "12")])
    # The note that the tournament has a clock is a script of one key outside every tag.
    timed = [call for call in redis.together() if call.keys == [TIMED]]
    checked = [call for call in redis.together() if call.keys != [TIMED]]
    assert len(timed) == 1
    assert len(checked) == 6  # 2 creations, 3 commits, 1 deadline
    for call in checked:
        assert slots(call.keys) == home, f"{call.name} on {call.keys} spans slots"
    # The reads (a table, log pages: plain commands, pipelined) are on the tournament's node.
    reads = [call for call in redis.calls if call.name in ("hmget", "hget", "xrange")]
    assert len(reads) == 5  # 2 log reads of two commands each, 1 table read
    assert slots([key for call in reads for key in call.keys]) == home
    assert slots([channel(tournament)]) == home


@pytest.mark.parametrize("tournament", TOURNAMENTS)
def test_every_tournament_step_stays_in_the_tournaments_slot(tournament: str) -> None:
    redis = asyncio.run(tournament_calls(tournament))
    home = slots([state_key(tournament, TOURNAMENT_LOG)])
    checked = [call for call in redis.together() if call.keys != [TIMED]]
    assert len(checked) == 3  # the creation and two steps, each with two tables
    assert all(len(call.keys) >= 3 for call in checked)
    for call in checked:
        assert slots(call.keys) == home, f"{call.name} on {call.keys} spans slots"


def test_tournaments_are_spread_over_slots() -> None:
    """The hash tag is the tournament id: different tournaments land on different slots
    (else one node of the cluster would hold every tournament)."""
    assert len(slots([state_key(t, "1") for t in TOURNAMENTS])) == len(TOURNAMENTS)
