"""The processes of a run and what they cost: the server, the relay, CPU ticks, the server's
metrics, redis-server's latency monitor, py-spy."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from loadgen import ROOT
from server.embedded_redis import EmbeddedRedis, free_port
from server.health import wait_http


def cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, IndexError):
        return 0


def rss_mb(pid: int) -> float:
    """A process's resident memory (the kernel's VmRSS), 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def machine_busy() -> tuple[int, int]:
    parts = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = parts[3] + parts[4]
    return sum(parts) - idle, sum(parts)


def cpu_pressure() -> int:
    """Microseconds in which some runnable task of this machine waited for a core (the
    kernel's pressure stall information, ``/proc/pressure/cpu``); 0 where it is not kept."""
    try:
        some = Path("/proc/pressure/cpu").read_text().splitlines()[0]
    except (OSError, IndexError):
        return 0
    return int(some.rsplit("total=", 1)[1])


def wait_port(port: int, timeout: float = 30.0) -> None:
    import socket

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listening on port {port}")


async def fetch_metrics(port: int) -> dict[str, float]:
    """The server's Prometheus counters; empty if it does not answer within 5 s."""
    import urllib.request

    def get() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
            return r.read().decode()

    try:
        text = await asyncio.get_running_loop().run_in_executor(None, get)
    except OSError:
        return {}
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("tablewire_") and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            with contextlib.suppress(ValueError):
                out[name] = float(value)
    return out


REDIS_SPIKE_MS = 10


async def redis_latency(redis_url: str, reset: bool) -> list[tuple[str, int, int]]:
    """redis-server's latency monitor (events of ``REDIS_SPIKE_MS`` or more): an fsync that
    stalls the disk shows here as ``aof-fsync-always``. ``reset`` clears it afterwards."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url)
    try:
        found = []
        for name, *_ in await client.execute_command("LATENCY", "LATEST"):
            history = await client.execute_command("LATENCY", "HISTORY", name)
            top = max((int(v) for _, v in history), default=0)
            found.append((name.decode() if isinstance(name, bytes) else name, len(history), top))
        if reset:
            await client.execute_command("LATENCY", "RESET")
        return found
    finally:
        await client.aclose()


def log_errors(path: Path) -> Counter[str]:
    """The exceptions a server process logged, by their last traceback line."""
    found: Counter[str] = Counter()
    if not path.exists():
        return found
    for line in path.read_text(errors="replace").splitlines():
        text = line
        if line.startswith("{"):
            with contextlib.suppress(ValueError):
                entry = json.loads(line)
                if entry.get("level") not in ("error", "critical", "warning"):
                    continue
                text = entry.get("error", "").strip().splitlines()[-1:] or [entry["message"]]
                text = f"{entry['level']}: {entry['message']}: {text[0]}"
                found[text[:200]] += 1
            continue
        if line and not line.startswith(" ") and ("Error" in line or "Exception" in line):
            found[line[:200]] += 1
    return found


def _spy_argv(pid: int, seconds: float, workdir: Path) -> list[str]:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    timing = ["--duration", str(max(1, int(seconds))), "--rate", "200", "--nonblocking"]
    output = ["--format", "raw", "--output", str(workdir / "server-profile.txt")]
    return [spy, "record", "--pid", str(pid), *timing, *output]


async def start_profile(pid: int, seconds: float, workdir: Path) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        *_spy_argv(pid, seconds, workdir),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def spy_profile(pid: int, seconds: float, workdir: Path) -> subprocess.Popen[bytes]:
    """The same from a thread (the cold start's restart runs in one); read it with
    ``profile_text`` once it is done."""
    return subprocess.Popen(
        _spy_argv(pid, seconds, workdir), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def profile_text(spy: subprocess.Popen[bytes], workdir: Path) -> str | None:
    """The profile py-spy wrote, once it has ended (it writes when its duration is over)."""
    spy.wait(timeout=60)
    path = workdir / "server-profile.txt"
    return path.read_text() if path.exists() else None


async def finish_profile(spy: asyncio.subprocess.Process, workdir: Path) -> str | None:
    await asyncio.wait_for(spy.wait(), 60)
    path = workdir / "server-profile.txt"
    return path.read_text() if path.exists() else None


PROFILE_PARTS = (
    ("fan-out: outboxes flushed (every station's frames of a loop turn)", "Outbox._flush"),
    ("  of which socket writes (writelines, one writev a station)", "_write_pending"),
    ("commands: Station._command (all of a command's handling)", "Station._command"),
    ("  Tables.apply (engine, encoding, commit)", "Tables.apply"),
    ("    engine apply", "apply (server/engine/__init__.py"),
    ("    Store.commit (redis-py EVALSHA round trip)", "Store.commit"),
    ("  logging (one JSON line per command)", "logging/__init__.py"),
    ("  prometheus metrics", "prometheus_client"),
    ("fan-out: Redis pub/sub listener (Fanout._listen)", "Fanout._listen"),
    ("fan-out: shard-channel reader (ShardChannels._read, Redis 7)", "ShardChannels._read"),
    ("  Fanout.deliver (to the stations following the table)", "Fanout.deliver"),
    ("  Fanout.handle (decode, queue to stations)", "Fanout.handle"),
    ("reading station frames (websocket receive)", "Assembler.get"),
    ("websocket keepalive pings (every connection every 20 s)", "Connection.keepalive"),
    ("session sweep (Sessions.run: every signed-in session)", "Sessions.run"),
    ("event loop: waiting in epoll", "EpollSelector.select"),
    ("event loop: socket reads", "_read_ready__data_received"),
)


def summarize_profile(collapsed: str, top: int = 20) -> list[str]:
    """Where the server's samples fall: named parts (inclusive), then the busiest functions."""
    parts: Counter[str] = Counter()
    own: Counter[str] = Counter()
    total = 0
    for line in collapsed.splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        total += count
        for label, key in PROFILE_PARTS:
            if key in stack:
                parts[label] += count
        own[_short(stack.rsplit(";", 1)[-1])] += count
    if not total:
        return ["(no samples)"]
    lines = [f"{total} samples (py-spy, 200 Hz); share of the server's samples, inclusive:"]
    lines += [f"  {100 * parts[label] / total:5.1f}%  {label}" for label, _ in PROFILE_PARTS]
    lines.append("busiest functions (self time):")
    lines += [f"  {100 * n / total:5.1f}%  {f}" for f, n in own.most_common(top)]
    return lines


def _short(frame: str) -> str:
    # "function (path/to/file.py:123)" -> "function (pkg/file.py)"
    name, _, where = frame.partition(" (")
    where = where.rstrip(")")
    path = where.rsplit(":", 1)[0]
    parts = Path(path).parts
    for anchor in ("site-packages", "main", "python3.11", "python3.12", "python3.13"):
        if anchor in parts:
            parts = parts[parts.index(anchor) + 1 :]
            break
    return f"{name} ({'/'.join(parts[-3:])})" if parts else name


@contextlib.contextmanager
def scratch(
    prefix: str, keep: bool, files: int, fsync: str = "always"
) -> Iterator[tuple[Path, EmbeddedRedis]]:
    """A run's temporary directory with a real ``redis-server`` started in it (AOF,
    ``appendfsync always`` as the service runs, unless ``fsync`` says otherwise), and room for
    ``files`` open files (a socket per station); afterwards Redis is stopped and the directory
    removed, unless ``keep``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, files)), hard))
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    redis = EmbeddedRedis(workdir / "redis", fsync=fsync)
    try:
        redis.start()
        yield workdir, redis
    finally:
        redis.stop()
        if keep:
            print(f"(kept {workdir})")
        else:
            shutil.rmtree(workdir, ignore_errors=True)


def finished(started: float, out: dict[str, Any], path: str | None) -> int:
    """The end of a run: how long it took, and its figures written to ``path`` (JSON) if any."""
    print(f"(run took {time.monotonic() - started:.0f} s)")
    if path:
        Path(path).write_text(json.dumps(out, indent=2))
    return 0


def start_server(
    redis_url: str, secret: str, workdir: Path, port: int | None = None, wait: bool = True
) -> tuple[subprocess.Popen[bytes], int]:
    """``tablewire serve`` on ``port`` (a free one by default), answering ``/readyz`` unless
    ``wait`` is False (several started at once are waited for together)."""
    port = port or free_port()
    log = open(workdir / "server.log", "ab")  # noqa: SIM115 - the child owns it
    env = {**os.environ, "TABLEWIRE_SECRET": secret, "REDIS_URL": redis_url}
    # Bytecode as a deployed server has it: compiled by the first start (into the run's
    # directory), read by a restart, even where the environment says not to write it.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--data-dir",
            str(workdir / "server"),
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    if wait:
        wait_http(port, "/readyz")
    return proc, port


def start_relay(redis_url: str, workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    log = open(workdir / "relay.log", "ab")  # noqa: SIM115 - the child owns it
    proc = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "relay.py"),
            "--port",
            str(port),
            "--redis-url",
            redis_url,
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    wait_port(port)
    return proc, port


async def spawn_worker(
    script: str, spec: dict[str, Any], spec_path: Path, nice: int = 0
) -> asyncio.subprocess.Process:
    """A client process running ``spec``: the benchmark ``script`` with ``--worker``, spoken to
    by lines on its stdin and stdout; ``nice`` lowers its priority (the stations' devices are
    not the server's machine: niced, the clients take the cores the server leaves)."""
    spec_path.write_text(json.dumps(spec))
    return await asyncio.create_subprocess_exec(
        sys.executable,
        script,
        "--worker",
        str(spec_path),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=ROOT,
        limit=2**26,
        preexec_fn=(lambda: os.nice(nice)) if nice else None,
    )


def stop(proc: subprocess.Popen[bytes] | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def wait_quiet(limit: float, patience: float) -> float:
    """Wait (up to ``patience`` s) for the machine to be nearly idle; the busy share seen last."""
    deadline = time.monotonic() + patience
    while True:
        busy0, total0 = machine_busy()
        await asyncio.sleep(2.0)
        busy1, total1 = machine_busy()
        share = (busy1 - busy0) / max(1, total1 - total0)
        if share <= limit or time.monotonic() >= deadline:
            return share
        print(f"(machine {100 * share:.0f}% busy with other work: waiting)", flush=True)
