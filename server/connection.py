"""The server's websocket connection: frames are written without a task switch, many at once.

A floor monitor watches every table of the tournament, so it is sent a frame for every command
in the room. Sending each frame through the library's ``send`` costs a coroutine and a socket
write apiece; at a couple of thousand commands a second that was most of the server's time.
Here a station's outbox (``server.outbox``) hands over all the frames queued during one turn
of the event loop, and they leave in one ``writelines`` call, which uvloop (and asyncio from
Python 3.12) turns into a single ``writev``.

Nothing of the library is overridden. What this uses beyond its documented API — the
connection's ``paused`` flag and ``drain()`` for flow control — is pinned by the version range
in ``pyproject.toml`` and checked by ``tests/test_websockets_contract.py``.
"""

from __future__ import annotations

import contextlib

from websockets.asyncio.server import ServerConnection
from websockets.protocol import State


class Connection(ServerConnection):
    @property
    def writable(self) -> bool:
        """False while the socket is backed up (the station is not reading fast enough)."""
        return not self.paused

    def write_frames(self, frames: list[bytes]) -> None:
        """Put text frames (UTF-8 JSON) on the socket now; nothing once the connection is
        closing. The transport buffers what the socket does not take at once."""
        if self.protocol.state is not State.OPEN:
            return
        for frame in frames:
            self.protocol.send_text(frame)
        self._write_pending()

    async def writable_again(self) -> None:
        """Return once the socket takes data again (or the connection is gone)."""
        with contextlib.suppress(Exception):
            await self.drain()

    def _write_pending(self) -> None:
        """Write everything the protocol has queued in one call; half-close if it asked to.

        The sans-I/O protocol marks a half-close with an empty chunk after the close frame;
        it is honoured as the library itself does.
        """
        chunks = self.protocol.data_to_send()
        data = [chunk for chunk in chunks if chunk]
        if data:
            self.transport.writelines(data)
        if len(data) == len(chunks):
            return
        if self.transport.can_write_eof():
            # write_eof() does not document what it raises; closing goes on regardless.
            with contextlib.suppress(Exception):
                self.transport.write_eof()
        else:
            self.transport.close()
