"""What ``server.connection`` uses of websockets beyond its documented API, pinned.

The server writes a station's queued frames in one ``writelines`` through the sans-I/O protocol
(``send_text``, ``data_to_send``) and follows flow control with the connection's ``paused`` and
``drain()``. None of the library's methods is overridden; this test fails if a websockets
release inside the pinned range changes what those names are.
"""

from __future__ import annotations

import inspect
import re
from importlib.metadata import version
from pathlib import Path

from websockets.asyncio.connection import Connection as LibraryConnection
from websockets.protocol import Protocol

from server.connection import Connection

ROOT = Path(__file__).resolve().parents[1]


def test_the_installed_websockets_is_inside_the_pinned_range() -> None:
    pinned = re.search(r'"websockets>=(\d+),<(\d+)"', (ROOT / "pyproject.toml").read_text())
    assert pinned, "pyproject.toml pins websockets to a range"
    low, high = int(pinned.group(1)), int(pinned.group(2))
    assert low <= int(version("websockets").split(".")[0]) < high


def test_the_connection_overrides_no_method_of_the_library() -> None:
    ours = {n for n, v in vars(Connection).items() if callable(v) or isinstance(v, property)}
    inherited = {n for n in dir(LibraryConnection) if not n.startswith("__")}
    assert ours & inherited == set()


def test_what_the_connection_relies_on_is_still_there() -> None:
    assert inspect.iscoroutinefunction(LibraryConnection.drain)
    assert "paused" in inspect.getsource(LibraryConnection.pause_writing)
    assert callable(Protocol.send_text) and callable(Protocol.data_to_send)
    assert "transport" in inspect.getsource(LibraryConnection.connection_made)
