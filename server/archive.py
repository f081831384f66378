"""Fetching an archived hand by its number: from Redis, or from the hand files once Redis no
longer keeps it (its retention ran out, or the tournament's keys were deleted).

Who may fetch: the floor and the admin, any hand of any table of their tournament (a table
token: that table's), hole cards included, as they see them live. A dealer or a display may
not: a display is the public and never sees a hole card the rules did not expose, and a hand's
record keeps every card the dealer entered.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import msgspec

from protocol.wire import Error, FetchHand, HandArchived, encoder
from server.hand_files import hand_path
from server.hand_record import HandRecord, decode, encode, from_redis
from server.keys import hand_key
from server.redis_connect import RedisClient

MAY_FETCH = frozenset({"floor", "admin"})
"""The roles that may fetch an archived hand."""


async def fetch_hand(
    redis: RedisClient, tournament: str, table: str, hand: int, directory: Path | None = None
) -> HandRecord | None:
    """Hand ``hand`` of the table: Redis's record, else its file under ``directory``."""
    fields = cast(dict[bytes, bytes], await redis.hgetall(hand_key(tournament, table, hand)))
    if fields:
        return from_redis(tournament, table, fields)
    if directory is None:
        return None
    path = hand_path(directory, tournament, table, hand)
    return decode(path.read_bytes()) if path.is_file() else None


async def answer(
    redis: RedisClient, role: str, message: FetchHand, directory: Path | None = None
) -> bytes:
    """The frame that answers a station's ``fetch_hand``: the hand, or why not."""
    if role not in MAY_FETCH:
        why = "archived hands are fetched by the floor and the admin: they hold every hole card"
        return encoder.encode(Error("forbidden", why, id=message.id))
    found = await fetch_hand(redis, message.tournament, message.table, message.hand, directory)
    if found is None:
        why = f"table {message.table} has no archived hand {message.hand}"
        return encoder.encode(Error("unknown_hand", why, id=message.id))
    record = msgspec.Raw(encode(found))
    return encoder.encode(
        HandArchived(message.id, message.tournament, message.table, message.hand, record)
    )
