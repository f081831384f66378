"""The archived hands written to files, so a hand outlives its tournament's keys in Redis.

The commit script that archives a hand also adds it to the tournament's unfiled set; after the
commit the server writes the unfiled hands of that tournament, each to
``<archive dir>/<tournament>/<table>/hand-<N>.json`` (the hand document of
``server.hand_record``: what ``tablewire replay`` reads), and only then takes it out of the set.
A file is written whole or not at all (a temporary file, flushed to disk, renamed into place),
so a server killed in the middle leaves the hand in the set, to be written by the next server
to commit in that tournament (its first commit there), or after the next hand archived there.
Several servers writing the same hand write the same bytes.

The directory is ``TABLEWIRE_ARCHIVE_DIR`` (``tablewire serve --archive-dir``, by default
``<data dir>/hands``); without it no files are written (a store used outside the service).
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import cast

from redis.asyncio import Redis

from server.hand_record import encode, from_redis

log = logging.getLogger("tablewire.hands")
_SAFE = re.compile(r"[^A-Za-z0-9._-]")


def hand_path(directory: Path, tournament: str, table: str, hand: int) -> Path:
    """Where a hand's file goes; ids are made safe as file names (``/`` and the like become
    ``_``, a leading dot too)."""
    return directory / _safe(tournament) / _safe(table) / f"hand-{hand}.json"


def _safe(name: str) -> str:
    cleaned = _SAFE.sub("_", name)
    return "_" + cleaned[1:] if cleaned.startswith(".") else cleaned


class HandFiles:
    def __init__(
        self,
        redis: Redis,
        directory: Path | None,
        unfiled_key: Callable[[str], str],
        hand_key: Callable[[str, str, int], str],
    ) -> None:
        self.redis = redis
        self.directory = directory
        self.unfiled_key = unfiled_key
        self.hand_key = hand_key
        self._writing: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._seen: set[str] = set()

    @staticmethod
    def directory_from_environment() -> Path | None:
        found = os.environ.get("TABLEWIRE_ARCHIVE_DIR")
        return Path(found) if found else None

    def committed(self, tournament: str, archived: bool) -> None:
        """After a commit in the tournament: its unfiled hands are written when it archived a
        hand, and on this process's first commit there (what a server killed before writing
        them left behind)."""
        if archived or tournament not in self._seen:
            self._seen.add(tournament)
            self.file_soon(tournament)

    def file_soon(self, tournament: str) -> None:
        """Write the tournament's unfiled hands in the background: one writer per tournament,
        which looks again when more hands were archived meanwhile."""
        if self.directory is None:
            return
        if tournament in self._writing:
            self._again.add(tournament)
            return
        task = asyncio.get_running_loop().create_task(self._write_all(tournament))
        self._writing[tournament] = task
        task.add_done_callback(lambda _: self._writing.pop(tournament, None))

    async def _write_all(self, tournament: str) -> None:
        while True:
            self._again.discard(tournament)
            try:
                await self.write_unfiled(tournament)
            except Exception:
                log.exception("hand files not written", extra={"tournament": tournament})
                return
            if tournament not in self._again:
                return

    async def write_unfiled(self, tournament: str) -> int:
        """Write every unfiled hand of the tournament; how many were written."""
        assert self.directory is not None
        key = self.unfiled_key(tournament)
        members = cast(set[bytes], await self.redis.smembers(key))
        written = 0
        for member in sorted(members):
            number, _, table = member.decode().partition(":")
            fields = cast(
                dict[bytes, bytes],
                await self.redis.hgetall(self.hand_key(tournament, table, int(number))),
            )
            if fields:
                record = from_redis(tournament, table, fields)
                path = hand_path(self.directory, tournament, table, record.hand)
                await asyncio.to_thread(write_whole, path, encode(record) + b"\n")
                written += 1
            await self.redis.srem(key, member)
        return written


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all: a temporary file, flushed to disk,
    renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with open(handle, "wb") as out:
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
