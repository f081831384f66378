"""Which Redis the service talks to: one server, a primary found by Sentinel, or a Redis
Cluster named by its seed nodes.

``REDIS_URL`` is one of

- a plain ``redis://`` / ``rediss://`` URL: one server, as always;
- ``redis+sentinel://[user:password@]host:port[,host:port...]/SERVICE`` (``rediss+sentinel://``
  for TLS): the primary of the service ``SERVICE`` as the Sentinels listed report it; the
  credentials are the data nodes' (the Sentinels are asked without). When Sentinel fails the
  primary over, the connections to the old one fail, and the next ones ask the Sentinels again;
- ``redis+cluster://[user:password@]host:port[,host:port...]`` (``rediss+cluster://`` for
  TLS): a Redis Cluster reached through any of the seed nodes listed, with the asyncio cluster
  client. Every key of a tournament carries its hash tag (``server.store``), so each script and
  each transaction of a tournament goes to the one node that owns its slot.

The event subscription does not use the command client's pool: on Redis 7 it holds one
connection of its own per node that owns a watched tournament (``server.shard_channels``),
made here with the URL's credentials and without retries, so a lost connection is noticed
and repaired by the fan-out rather than silently re-made.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any, TypeAlias, cast
from urllib.parse import parse_qs, unquote

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, ClusterPipeline, RedisCluster
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import ExponentialBackoff, NoBackoff
from redis.driver_info import DriverInfo
from redis.exceptions import ClusterDownError, RedisClusterException
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

RedisClient: TypeAlias = Redis | RedisCluster
"""What the service's Redis users are handed: the same command API either way."""

CLUSTER_SCHEMES = {"redis+cluster": False, "rediss+cluster": True}
"""The URL schemes that name a cluster, and whether each uses TLS."""
SENTINEL_SCHEMES = {"redis+sentinel": False, "rediss+sentinel": True}
"""The URL schemes that name Sentinels and a service, and whether the data nodes use TLS."""
RETRY_ON: list[type[Exception]] = [RedisConnectionError, RedisTimeoutError]


@dataclass(frozen=True)
class ClusterSeeds:
    """A cluster as ``REDIS_URL`` names it: seed nodes and the credentials of every node."""

    nodes: tuple[tuple[str, int], ...]
    username: str | None = None
    password: str | None = None
    ssl: bool = False


@dataclass(frozen=True)
class SentinelService:
    """A primary as ``REDIS_URL`` names it: the Sentinels, the service, the data nodes'
    credentials."""

    sentinels: tuple[tuple[str, int], ...]
    service: str
    username: str | None = None
    password: str | None = None
    ssl: bool = False


def cluster_seeds(url: str) -> ClusterSeeds | None:
    """The seeds of a ``redis+cluster://`` URL; None for any other URL."""
    scheme = url.partition("://")[0]
    if scheme not in CLUSTER_SCHEMES:
        return None
    nodes, path, username, password = _hosts(url, "cluster seed")
    if path:
        raise ValueError("a redis+cluster:// URL names no database or service")
    return ClusterSeeds(nodes, username, password, CLUSTER_SCHEMES[scheme])


def sentinel_service(url: str) -> SentinelService | None:
    """The Sentinels and service of a ``redis+sentinel://`` URL; None for any other URL."""
    scheme = url.partition("://")[0]
    if scheme not in SENTINEL_SCHEMES:
        return None
    sentinels, service, username, password = _hosts(url, "sentinel")
    if not service or "/" in service:
        raise ValueError("a redis+sentinel:// URL ends with /SERVICE, the primary's name")
    return SentinelService(sentinels, service, username, password, SENTINEL_SCHEMES[scheme])


def _hosts(url: str, what: str) -> tuple[tuple[tuple[str, int], ...], str, str | None, str | None]:
    """A multi-host URL's ``host:port`` list, its path (without the ``/``) and credentials."""
    scheme, _, rest = url.partition("://")
    rest, _, query = rest.partition("?")
    rest, _, path = rest.partition("/")
    userinfo, _, hosts = rest.rpartition("@")
    username, _, password = userinfo.partition(":")
    nodes = []
    for seed in filter(None, hosts.split(",")):
        host, _, port = seed.rpartition(":")
        if not host or not port.isdigit():
            raise ValueError(f"a {what} must be host:port, not {seed!r}")
        nodes.append((host.strip("[]"), int(port)))
    if not nodes:
        raise ValueError(f"a {scheme}:// URL names at least one {what} host:port")
    if parse_qs(query):
        raise ValueError(f"a {scheme}:// URL takes no query options")
    return tuple(nodes), unquote(path), unquote(username) or None, unquote(password) or None


class _SentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """Sentinel's pool (it asks the Sentinels where the primary is) with the blocking pool's
    wait for a free connection under a burst, as for one server."""


class Cluster(RedisCluster):
    """The cluster client, whose "no node of the cluster can be reached" and "the cluster is
    down" (its slots not all served yet, after a restart) are the connection error one
    unreachable Redis gives: nothing ran, and the service answers ``unavailable`` (send it
    again), as it does when its single Redis is down, not ``internal``."""

    async def initialize(
        self,
        additional_startup_nodes_info: list[tuple[str, int]] | None = None,
        last_failed_node_name: str | None = None,
    ) -> RedisCluster:
        with _unreachable_as_connection_error():
            return await super().initialize(additional_startup_nodes_info, last_failed_node_name)

    async def execute_command(self, *args: Any, **kwargs: Any) -> Any:
        with _unreachable_as_connection_error():
            return await super().execute_command(*args, **kwargs)

    def pipeline(self, transaction: Any | None = None, shard_hint: Any | None = None) -> Any:
        if shard_hint:
            raise RedisClusterException("shard_hint is deprecated in cluster mode")
        return _Pipeline(self, transaction)  # type: ignore[abstract]


class _Pipeline(ClusterPipeline):
    async def execute(
        self, raise_on_error: bool = True, allow_redirections: bool = True
    ) -> list[Any]:
        with _unreachable_as_connection_error():
            found = await super().execute(raise_on_error, allow_redirections)
        return [unavailable(got) if isinstance(got, Exception) else got for got in found]


def unavailable(failure: Exception) -> Exception:
    """``failure``, or the connection error it stands for."""
    if isinstance(failure, ClusterDownError) or (
        isinstance(failure, RedisClusterException) and "cannot be connected" in str(failure)
    ):
        return RedisConnectionError(str(failure))
    if isinstance(failure, AttributeError | RuntimeError) and _raised_in_a_connection(failure):
        return RedisConnectionError(f"the connection was closed under the command: {failure}")
    return failure


def _raised_in_a_connection(failure: Exception) -> bool:
    """Raised through redis-py's connection code: while the nodes of a cluster restart, the
    cluster client can write on a connection another task has just closed (its writer gone,
    ``AttributeError``; its transport closed, ``RuntimeError``). The command did not reach
    Redis, or its outcome is unknown: either way a lost connection, not a fault of the
    service."""
    frame = failure.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code.co_filename.endswith(CONNECTION_CODE):
            return True
        frame = frame.tb_next
    return False


CONNECTION_CODE = os.path.join("redis", "asyncio", "connection.py")


@contextmanager
def _unreachable_as_connection_error() -> Iterator[None]:
    try:
        yield
    except (ClusterDownError, RedisClusterException, AttributeError, RuntimeError) as exc:
        replaced = unavailable(exc)
        if replaced is exc:
            raise
        raise replaced from exc


DRIVER = DriverInfo().add_upstream_driver("tablewire", version("tablewire"))
"""What every connection tells Redis it is (``CLIENT LIST``: ``redis-py(tablewire_v0.1.0)``),
made once: left to itself redis-py 8.1 reads its own package metadata from disk for every new
connection, a fifth of a restarted server's time while a room's stations came back and the
pools filled."""


def connect(url: str, max_connections: int) -> RedisClient:
    """The command client: a bounded pool that waits for a free connection rather than failing
    under a burst (one server), or the cluster client with that many connections per node.
    Commands are idempotent by id, so one on a connection that went stale (a Redis restart,
    a failover) is simply tried again."""
    retry = Retry(ExponentialBackoff(cap=1.0, base=0.05), 3)
    primary = sentinel_service(url)
    if primary is not None:
        client = _sentinel(primary).master_for(
            primary.service,
            connection_pool_class=_SentinelPool,
            max_connections=max_connections,
            timeout=10,
            retry=retry,
            retry_on_error=RETRY_ON,
            socket_keepalive=True,
            driver_info=DRIVER,
        )
        return cast(Redis, client)
    seeds = cluster_seeds(url)
    if seeds is None:
        pool = BlockingConnectionPool.from_url(
            url,
            max_connections=max_connections,
            timeout=10,
            retry=retry,
            retry_on_error=RETRY_ON,
            driver_info=DRIVER,
        )
        return Redis(connection_pool=pool, socket_keepalive=True)
    return Cluster(
        startup_nodes=[ClusterNode(host, port) for host, port in seeds.nodes],
        username=seeds.username,
        password=seeds.password,
        ssl=seeds.ssl,
        max_connections=max_connections,
        retry=retry,
        retry_on_error=RETRY_ON,
        socket_keepalive=True,
        driver_info=DRIVER,
    )


def subscriber(url: str, host: str | None = None, port: int | None = None) -> Redis:
    """A client for one subscription connection, without retries: to the server of ``url``,
    or to the cluster node ``host:port`` with the cluster's credentials."""
    once = Retry(NoBackoff(), 0)
    primary = sentinel_service(url)
    if primary is not None:
        found = _sentinel(primary).master_for(
            primary.service, retry=once, socket_keepalive=True, driver_info=DRIVER
        )
        return cast(Redis, found)
    seeds = cluster_seeds(url)
    if seeds is None:
        return Redis.from_url(url, retry=once, socket_keepalive=True, driver_info=DRIVER)
    return Redis(
        host=host or seeds.nodes[0][0],
        port=port or seeds.nodes[0][1],
        username=seeds.username,
        password=seeds.password,
        ssl=seeds.ssl,
        retry=once,
        socket_keepalive=True,
        driver_info=DRIVER,
    )


def _sentinel(primary: SentinelService) -> Sentinel:
    return Sentinel(  # type: ignore[no-untyped-call,unused-ignore]
        list(primary.sentinels),
        username=primary.username,
        password=primary.password,
        ssl=primary.ssl,
        driver_info=DRIVER,
    )


async def server_version(redis: RedisClient) -> tuple[int, ...]:
    """The Redis version (the oldest node's, on a cluster): sharded pub/sub needs 7."""
    if isinstance(redis, RedisCluster):
        found = await redis.info("server", target_nodes=RedisCluster.PRIMARIES)
        # One node's INFO, or each node's by its name.
        infos = [found] if "redis_version" in found else list(found.values())
        return min(_version(info) for info in infos)
    return _version(await redis.info("server"))


def _version(info: dict[str, Any]) -> tuple[int, ...]:
    return tuple(int(part) for part in str(info["redis_version"]).split(".")[:3])
