"""An operator's mistakes with ``tablewire serve`` and its embedded Redis, on real processes.

- Two servers on one ``--data-dir``: the second refuses at once, naming the holder's pid, and
  only one redis-server ever writes that AOF.
- ``kill -9`` of the server takes its embedded Redis with it, and the next start serves the
  data again.
- A port in use: exit 1 at once with a message, and no redis-server left behind.
- The embedded Redis wants a password (kept in the data dir, not on its command line) and the
  data dir is readable by its owner only.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.embedded_redis import free_port
from server.health import wait_http
from tests.service.conftest import ROOT, SECRET


class Embedded:
    """``tablewire serve`` with its own embedded Redis in ``data_dir``."""

    def __init__(self, data_dir: Path, port: int | None = None) -> None:
        self.data_dir = data_dir
        self.port = port or free_port()
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--port", str(self.port),
             "--data-dir", str(data_dir)],
            cwd=ROOT,
            env={**env, "TABLEWIRE_SECRET": SECRET},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def exited(self, within: float) -> tuple[int | None, str]:
        try:
            out, _ = self.process.communicate(timeout=within)
        except subprocess.TimeoutExpired:
            return None, ""
        return self.process.returncode, out

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@pytest.fixture
def embedded() -> Iterator[object]:
    started: list[Embedded] = []

    def start(data_dir: Path, port: int | None = None) -> Embedded:
        server = Embedded(data_dir, port)
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
    for server in started:  # a redis-server a failing run left behind goes too
        for pid in redis_serving(server.data_dir):
            os.kill(pid, 9)


def redis_serving(data_dir: Path) -> list[int]:
    """The live (not zombie) redis-server processes working in ``data_dir``'s Redis dir."""
    where = (data_dir / "redis").resolve()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if Path(os.readlink(entry / "cwd")) != where:
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().decode(errors="replace")
            if "redis" in command and state != "Z":
                found.append(int(entry.name))
        except (OSError, IndexError):
            continue
    return found


def wait_for(condition, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())


def test_a_second_server_on_one_data_dir_refuses_naming_the_holder(  # type: ignore[no-untyped-def]
    embedded, tmp_path: Path
) -> None:
    first = embedded(tmp_path / "data")
    wait_http(first.port, "/readyz")
    second = embedded(tmp_path / "data")
    code, out = second.exited(15.0)
    assert code == 1, (code, out)
    assert f"data dir {tmp_path / 'data'} is in use by pid {first.process.pid}" in out, out
    assert len(redis_serving(tmp_path / "data")) == 1
    wait_http(first.port, "/readyz", timeout=5)


def test_kill_9_of_the_server_takes_its_embedded_redis_along(  # type: ignore[no-untyped-def]
    embedded, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    first = embedded(data)
    wait_http(first.port, "/readyz")
    children = redis_serving(data)
    assert len(children) == 1
    first.process.kill()
    first.process.communicate()
    assert wait_for(lambda: not redis_serving(data), 10.0), f"redis-server {children} lives on"
    again = embedded(data)
    wait_http(again.port, "/readyz")
    assert len(redis_serving(data)) == 1


def test_a_port_in_use_exits_1_at_once_and_leaves_no_redis(  # type: ignore[no-untyped-def]
    embedded, tmp_path: Path
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server = embedded(tmp_path / "data", port)
        started = time.monotonic()
        code, out = server.exited(15.0)
        took = time.monotonic() - started
    assert code == 1, (code, out)
    assert f"cannot listen on 127.0.0.1:{port}" in out, out
    assert not redis_serving(tmp_path / "data")
    print(f"\nport in use: exit {code} after {took:.2f} s")


def test_the_embedded_redis_wants_a_password_and_its_files_are_private(
    embedded, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    data = tmp_path / "data"
    server = embedded(data)
    wait_http(server.port, "/readyz")
    (pid,) = redis_serving(data)
    listening = _ports_of(pid)
    assert listening, "the redis-server listens nowhere"
    for port in listening:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"PING\r\n")
            answer = s.recv(200)
        assert answer.startswith(b"-NOAUTH"), answer
    password = (data / "redis" / "password").read_text().strip()
    assert len(password) >= 32
    assert password.encode() not in Path(f"/proc/{pid}/cmdline").read_bytes(), "password in ps"
    for root, dirs, files in os.walk(data):
        for name in dirs + files:
            mode = stat.S_IMODE(os.stat(os.path.join(root, name)).st_mode)
            assert mode & 0o077 == 0, f"{os.path.join(root, name)} is {oct(mode)}"
    assert stat.S_IMODE(data.stat().st_mode) == 0o700


def _ports_of(pid: int) -> list[int]:
    """The TCP ports process ``pid`` listens on (from /proc/net/tcp and its sockets)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with_target = os.readlink(fd)
        if with_target.startswith("socket:["):
            inodes.add(with_target[8:-1])
    ports = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # LISTEN
                ports.append(int(fields[1].rsplit(":", 1)[1], 16))
    return ports
