"""Commits made in the same turn of the event loop go to Redis together, one pipeline per node,
each followed by ``WAIT`` where its primary has replicas to wait for (``server.replication``).

Each commit is still its own Lua script, atomic on its own; only the round trip is shared. At
a couple of thousand commands a second this saves a pool checkout, a socket write and a read
per command — the Redis client's own overhead was about a fifth of the server's time. A commit
that fails with the batch (Redis gone) fails as it would alone; a retry is safe: a commit seen
before answers ``duplicate``.

``WAIT`` counts the replicas that have every write *of the connection it is sent on*, so a
batch that waits is sent on one connection of the node that owns its keys, the ``WAIT`` last.
Its scripts are told (their last argument, ``'1'``) not to publish their events; the events
are published here once the replicas confirmed them, so no live event shows a commit that a
failover could still take back (``server.confirming`` publishes those confirmed late). A
shortfall fails every commit of the batch with :class:`NotConfirmed` (a connection error: the
outcome is unknown; the command is sent again by its id). On a cluster every batch goes this
way, with or without a ``WAIT``: a node lost mid-batch fails its calls as a lost connection,
and the slot map is read again (the cluster client's own pipeline answered some of them with
errors of its own, seen as ``internal``).
One Redis with nothing to wait for gets the batch as one pipeline through the client, which
retries it as it always did.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio.cluster import ClusterNode, PipelineCommand, RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.redis_connect import RedisClient
from server.replication import SINGLE, ReplicaWait
from server.turns import Turn

log = logging.getLogger("tablewire.batch")

PUBLISH_LUA = """
local DEFERRED = ARGV[#ARGV] == '1'
local function publish(events_channel, message)
  if not DEFERRED then
    redis.call(redis.REDIS_VERSION_NUM and 'SPUBLISH' or 'PUBLISH', events_channel, message)
  end
end
"""
"""Prepended to a script that publishes: ``publish()`` holds the events back when the batch
publishes them after its ``WAIT`` (the script's last argument ``'1'``)."""

PUBLISH_NOW = "redis.call(redis.REDIS_VERSION_NUM and 'SPUBLISH' or 'PUBLISH', KEYS[1], ARGV[1])"
"""A held-back message, published on the node of its channel's slot (sharded on Redis 7)."""

REPUBLISH_PAUSES = (0.1, 0.5, 2.0)
"""Between the tries of publishing confirmed events that could not be sent."""

MOVED_ON = (MovedError, AskError, TryAgainError, ClusterDownError)
"""A cluster node's answers that mean the slot is (being) served elsewhere: nothing ran."""


class NotConfirmed(RedisConnectionError):
    """The commit ran on the primary, but its replicas did not confirm it in time (or the
    connection went before they did): not acknowledged, its outcome unknown."""


@dataclass
class _Call:
    script: AsyncScript
    keys: list[str]
    args: list[Any]
    publish: Sequence[tuple[str, bytes]] | None
    future: asyncio.Future[Any] = field(repr=False)

    def command(self, hold_back: bool) -> tuple[Any, ...]:
        flag = ["1" if hold_back else "0"] if self.publish is not None else []
        return ("EVALSHA", self.script.sha, len(self.keys), *self.keys, *self.args, *flag)


class ScriptBatch:
    def __init__(self, redis: RedisClient, wait: ReplicaWait | None = None) -> None:
        self.redis = redis
        self.wait = wait
        self._turn = Turn(self._run)
        self._sending: set[asyncio.Task[None]] = set()
        """Publications tried again later, held until done."""
        self._publish_now = redis.register_script(PUBLISH_NOW)
        self._refreshing: asyncio.Task[None] | None = None

    def __call__(
        self,
        script: AsyncScript,
        keys: list[str],
        args: list[Any],
        publish: Sequence[tuple[str, bytes]] | None = None,
    ) -> asyncio.Future[Any]:
        """Run ``script`` on ``keys`` and ``args`` with the others of this turn. A script that
        publishes (it starts with ``PUBLISH_LUA``) names what it publishes as ``publish``
        (channel, message): sent after the ``WAIT`` when its result is ``ok``."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._turn.add(_Call(script, keys, args, publish, future))
        return future

    async def _run(self, batch: list[_Call]) -> None:
        try:
            if isinstance(self.redis, RedisCluster):
                await self.redis.initialize()  # the slot map, read once (or again when lost)
            groups = self._by_node(batch)
        except Exception as failure:  # no node of the cluster answers, or none has a key's slot
            _fail(batch, _unavailable(failure))
            return
        if SINGLE in groups and self._wanted(SINGLE) == 0:
            await self._unwaited(batch)
            return
        done = await asyncio.gather(
            *(self._waited(name, node, calls) for name, (node, calls) in groups.items()),
            return_exceptions=True,
        )
        for fault in done:
            if isinstance(fault, Exception):
                # A fault here must not leave a station waiting for ever.
                log.error("a batch of commits failed", exc_info=fault)
                _fail(batch, RedisConnectionError(f"the commit failed: {fault!r}"))

    def _by_node(self, batch: list[_Call]) -> dict[str, tuple[ClusterNode | None, list[_Call]]]:
        if not isinstance(self.redis, RedisCluster):
            return {SINGLE: (None, batch)}
        groups: dict[str, tuple[ClusterNode | None, list[_Call]]] = {}
        for call in batch:
            node = self.redis.get_node_from_key(call.keys[0])
            assert node is not None
            groups.setdefault(node.name, (node, []))[1].append(call)
        return groups

    def _wanted(self, name: str) -> int:
        return self.wait.wanted(name) if self.wait is not None else 0

    async def _unwaited(self, batch: list[_Call]) -> None:
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for call in batch:
                    pipe.execute_command(*call.command(hold_back=False))
                results = await pipe.execute(raise_on_error=False)
        except Exception as failure:
            _fail(batch, failure)
            return
        for call, result in zip(batch, results, strict=True):
            if isinstance(result, NoScriptError):
                # Redis restarted without the script: the script object loads it again.
                try:
                    flag = ["0"] if call.publish is not None else []
                    result = await call.script(keys=call.keys, args=[*call.args, *flag])
                except Exception as failure:
                    result = failure
            _settle(call, result)

    async def _waited(
        self, name: str, node: ClusterNode | None, calls: list[_Call], reloaded: bool = False
    ) -> None:
        """The node's calls on one connection, then ``WAIT``; the events published after."""
        wanted = self._wanted(name)
        commands = [call.command(hold_back=wanted > 0) for call in calls]
        if wanted:
            assert self.wait is not None
            commands.append(("WAIT", wanted, self.wait.timeout_ms))
        try:
            results = await self._on_node(node, commands)
        except Exception as failure:
            self._moved_on(node, failure)
            _fail(calls, _unavailable(failure))
            return
        shortfall: NotConfirmed | None = None
        if wanted:
            confirmed = results.pop()
            if isinstance(confirmed, Exception) or int(confirmed) < wanted:
                assert self.wait is not None
                self.wait.short(name, confirmed if isinstance(confirmed, int) else 0)
                self._moved_on(node, confirmed)
                shortfall = NotConfirmed(f"the replicas did not confirm: {confirmed!r}")
        again: list[_Call] = []
        outgoing: list[tuple[str, bytes]] = []
        for call, result in zip(calls, results, strict=True):
            if isinstance(result, NoScriptError) and not reloaded:
                again.append(call)  # it did nothing: run again below, whatever the WAIT said
                continue
            if shortfall is not None:
                _settle(call, shortfall)
                continue
            if isinstance(result, MOVED_ON):
                self._moved_on(node, result)
                result = RedisConnectionError(str(result))
            if wanted and call.publish and _outcome(result) == b"ok":
                outgoing.extend(call.publish)
            _settle(call, result)
        if outgoing:
            await self._publish(node, outgoing)
        if again:
            # A promoted replica, or a restarted Redis, has no scripts: load them and run the
            # calls that found none (their scripts did nothing) once more.
            sources = {c.script.script for c in again}
            try:
                if node is None:
                    for source in sources:
                        await self.redis.script_load(source)
                else:  # on that node only: another primary away must not stop it
                    await self._on_node(node, [("SCRIPT", "LOAD", source) for source in sources])
            except Exception as failure:
                _fail(again, _unavailable(failure))
                return
            await self._waited(name, node, again, reloaded=True)

    async def announce(self, events_channel: str, message: bytes) -> None:
        """Publish one message now, on the node of the channel's slot."""
        await self._publish_now(keys=[events_channel], args=[message])

    async def _publish(self, node: ClusterNode | None, messages: list[tuple[str, bytes]]) -> None:
        """The confirmed commits' events; tried again a few times when they could not be sent
        (a connection lost, a node's connections all taken, no script), then left to the
        instances' gap fills."""
        commands = [("EVALSHA", self._publish_now.sha, 1, ch, msg) for ch, msg in messages]
        try:
            results = await self._on_node(node, commands)
            if any(isinstance(r, NoScriptError) for r in results):
                await self._on_node(node, [("SCRIPT", "LOAD", PUBLISH_NOW), *commands])
        except Exception as exc:
            log.warning("confirmed events not published yet", extra={"error": str(exc)})
            task = asyncio.get_running_loop().create_task(self._publish_later(messages))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def _publish_later(self, messages: list[tuple[str, bytes]]) -> None:
        for pause in REPUBLISH_PAUSES:
            await asyncio.sleep(pause)
            try:
                for events_channel, message in messages:
                    await self.announce(events_channel, message)
            except Exception as exc:
                log.debug("confirmed events still not published", extra={"error": str(exc)})
                continue
            return
        log.warning("confirmed events not published; left to the instances' gap fills")

    async def _on_node(
        self, node: ClusterNode | None, commands: list[tuple[Any, ...]]
    ) -> list[Any]:
        """Send ``commands`` on one connection, in order; each one's result or error."""
        if node is None:
            async with self.redis.pipeline(transaction=False) as pipe:
                for command in commands:
                    pipe.execute_command(*command)
                return list(await pipe.execute(raise_on_error=False))
        sent = [PipelineCommand(i, *command) for i, command in enumerate(commands)]
        await node.execute_pipeline(sent)
        return [command.result for command in sent]

    def _moved_on(self, node: ClusterNode | None, failure: object) -> None:
        """A cluster node gone or no longer serving the slot: read the cluster's slot map
        again (once at a time), so the next batch goes to the node that serves it now."""
        if node is None or not isinstance(self.redis, RedisCluster):
            return
        if not isinstance(failure, (*MOVED_ON, RedisConnectionError, ResponseError)):
            return
        if self._refreshing is not None and not self._refreshing.done():
            return
        self._refreshing = asyncio.get_running_loop().create_task(self._refresh(self.redis))

    @staticmethod
    async def _refresh(cluster: RedisCluster) -> None:
        with contextlib.suppress(Exception):
            await cluster.nodes_manager.initialize()


def _outcome(result: Any) -> bytes | None:
    if isinstance(result, list) and result and isinstance(result[0], bytes):
        return result[0]
    return None


def _unavailable(failure: Exception) -> Exception:
    if isinstance(failure, RedisConnectionError | RedisTimeoutError):
        return failure
    return RedisConnectionError(str(failure))


def _settle(call: _Call, result: Any) -> None:
    if call.future.done():
        return
    if isinstance(result, Exception):
        call.future.set_exception(result)
    else:
        call.future.set_result(result)


def _fail(calls: list[_Call], failure: Exception) -> None:
    for call in calls:
        if not call.future.done():
            call.future.set_exception(failure)
