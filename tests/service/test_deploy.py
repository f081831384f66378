"""The operator's files in ``deploy/``, each run for real or checked where its tool is absent.

- The Redis config starts the real ``redis-server``: AOF fsynced on every write, a password,
  loopback only, no eviction; a ``tablewire serve`` reaches it with the password in REDIS_URL.
- The systemd unit passes ``systemd-analyze verify`` and keeps the drain, file-limit and secret
  settings; its own ExecStart, environment and readiness command start the instances below.
- The nginx config passes ``nginx -t`` and, started for real with a throwaway certificate in
  front of two instances on one Redis, carries websockets over TLS round robin without
  stickiness, so stations on different instances see each other's events; a rolling restart
  (SIGTERM drains one instance) loses no command a station retries with its id.
- The Dockerfile and the compose file are parsed (docker is not there to build them) and agree
  with the other files; the image's health check runs against a live server.

Each shipped file is the tested file: only its host paths and ports are substituted, and a
substitution that no longer matches fails the test rather than testing something else.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest
from redis import Redis
from redis.exceptions import RedisError
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from server.embedded_redis import binary, free_port
from server.tokens import Claims, Role, issue
from tests.service.conftest import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNIT = DEPLOY / "systemd" / "tablewire@.service"
ENV_EXAMPLE = DEPLOY / "systemd" / "tablewire.env.example"
REDIS_CONF = DEPLOY / "redis" / "redis-tablewire.conf"
REDIS_PASSWORD_EXAMPLE = DEPLOY / "redis" / "tablewire-password.conf.example"
NGINX_CONF = DEPLOY / "nginx" / "tablewire.conf"
DOCKERFILE = DEPLOY / "docker" / "Dockerfile"
DOCKERIGNORE = DEPLOY / "docker" / "Dockerfile.dockerignore"
COMPOSE = DEPLOY / "docker" / "compose.yaml"
VENV_BIN = Path(sys.executable).parent
PLACEHOLDER = "REPLACE-WITH-OPENSSL-RAND-HEX-32"

NGINX = shutil.which("nginx") or next(
    (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
)
OPENSSL = shutil.which("openssl")
needs_nginx = pytest.mark.skipif(
    NGINX is None or OPENSSL is None,
    reason="nginx or openssl is not installed (apt-get install nginx openssl; .ci/run does)",
)
needs_console_script = pytest.mark.skipif(
    not (VENV_BIN / "tablewire").exists(),
    reason=f"no tablewire console script in {VENV_BIN} (pip install -e .)",
)


def render(text: str, substitutions: dict[str, str]) -> str:
    """The shipped text with host paths and ports swapped for the test's; every one must match."""
    for old, new in substitutions.items():
        assert old in text, f"the deploy file no longer contains {old!r}"
        text = text.replace(old, new)
    return text


def deadline_poll(check: Any, timeout: float, what: str) -> Any:
    """Call ``check()`` until it returns something truthy; fail after ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        result = check()
        if result:
            return result
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


# --- Redis -----------------------------------------------------------------------------------


@dataclass
class ProductionRedis:
    port: int
    password: str
    data_dir: Path
    config: Path
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://:{self.password}@127.0.0.1:{self.port}/0"

    def client(self) -> Redis:
        return Redis(port=self.port, password=self.password, decode_responses=True)


@pytest.fixture
def production_redis(tmp_path: Path) -> Iterator[ProductionRedis]:
    """redis-server started with deploy/redis/redis-tablewire.conf and its password include."""
    base = tmp_path / "redis"
    data = base / "data"
    data.mkdir(parents=True)
    password = secrets.token_hex(32)
    password_file = base / "tablewire-password.conf"
    password_file.write_text(render(REDIS_PASSWORD_EXAMPLE.read_text(), {PLACEHOLDER: password}))
    port = free_port()
    config = base / "redis-tablewire.conf"
    config.write_text(
        render(
            REDIS_CONF.read_text(),
            {
                "include /etc/redis/tablewire-password.conf": f"include {password_file}",
                "pidfile /run/redis-tablewire/redis-server.pid": f"pidfile {base}/redis.pid",
                "logfile /var/log/redis/redis-server-tablewire.log": f"logfile {base}/redis.log",
                "dir /var/lib/redis/tablewire": f"dir {data}",
                "port 6379\n": f"port {port}\n",
            },
        )
    )
    process = subprocess.Popen([binary(), str(config)], cwd=base)
    server = ProductionRedis(port, password, data, config, process)

    def answers() -> bool:
        assert process.poll() is None, (base / "redis.log").read_text()
        with contextlib.suppress(RedisError, OSError), server.client() as client:
            return bool(client.ping())
        return False

    deadline_poll(answers, 10, "redis-server to answer")
    yield server
    process.terminate()
    process.wait(timeout=10)


def test_redis_config_fsyncs_every_write_needs_a_password_and_binds_loopback(
    production_redis: ProductionRedis, tmp_path: Path
) -> None:
    with production_redis.client() as client:
        config = {key: client.config_get(key)[key] for key in CONFIG_EXPECTED}
        assert config == CONFIG_EXPECTED
        assert client.config_get("requirepass")["requirepass"] == production_redis.password
        client.set("tw:{deploy}:probe", "acknowledged-means-on-disk")
    assert raw_redis(production_redis.port, b"PING").startswith(b"-NOAUTH")
    assert raw_redis(production_redis.port, b"AUTH wrong").startswith((b"-WRONGPASS", b"-ERR"))
    aof = [p for p in production_redis.data_dir.rglob("*.aof*") if p.is_file()]
    assert any(b"acknowledged-means-on-disk" in p.read_bytes() for p in aof), aof
    server = ServerProcess(production_redis.url, tmp_path).start()
    try:
        assert http_get(f"http://127.0.0.1:{server.port}/readyz") == 200
    finally:
        server.stop()


def raw_redis(port: int, line: bytes) -> bytes:
    """One inline command on a fresh connection, with no client library retrying around it."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as connection:
        connection.sendall(line + b"\r\n")
        return connection.recv(200)


CONFIG_EXPECTED = {
    "appendonly": "yes",
    "appendfsync": "always",
    "no-appendfsync-on-rewrite": "no",
    "bind": "127.0.0.1 -::1",
    "protected-mode": "yes",
    "maxmemory-policy": "noeviction",
    "save": "",
}


def http_get(url: str, context: ssl.SSLContext | None = None) -> int:
    try:
        with urllib.request.urlopen(url, timeout=5, context=context) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


# --- systemd ---------------------------------------------------------------------------------


def read_unit(path: Path) -> dict[str, list[tuple[str, str]]]:
    """A unit file's sections as (key, value) lists: keys repeat (Environment=, ...)."""
    sections: dict[str, list[tuple[str, str]]] = {}
    current: list[tuple[str, str]] = []
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), [])
            continue
        key, _, value = line.partition("=")
        current.append((key.strip(), value.strip()))
    return sections


def one(entries: list[tuple[str, str]], key: str) -> str:
    values = [v for k, v in entries if k == key]
    assert len(values) == 1, f"{key}= appears {len(values)} times"
    return values[0]


def read_env_file(text: str) -> dict[str, str]:
    pairs = (line.split("=", 1) for line in text.splitlines() if line and line[0] != "#")
    return {key: value for key, value in pairs}


def test_systemd_unit_drains_on_sigterm_with_the_secret_only_in_its_environment_file() -> None:
    service = read_unit(UNIT)["Service"]
    assert int(one(service, "LimitNOFILE")) >= 65536
    assert one(service, "KillSignal") == "SIGTERM"
    assert one(service, "KillMode") == "mixed"
    # The drain waits up to 5 s for commands in flight, then 2 s for sockets to close.
    assert int(one(service, "TimeoutStopSec")) >= 15
    assert one(service, "Restart") in ("always", "on-failure")
    assert one(service, "EnvironmentFile") == "/etc/tablewire/tablewire.env"
    exec_start = one(service, "ExecStart")
    assert shlex.split(exec_start) == ["/opt/tablewire/.venv/bin/tablewire", "serve"]
    environment = dict(v.split("=", 1) for k, v in service if k == "Environment")
    assert environment["TABLEWIRE_HOST"] == "127.0.0.1"
    assert environment["TABLEWIRE_PORT"] == "%i"
    for key, value in service:
        assert "SECRET" not in value and "redis://" not in value, f"{key}= carries a secret"
    shipped = read_env_file(ENV_EXAMPLE.read_text())
    assert set(shipped) == {"REDIS_URL", "TABLEWIRE_SECRET"}
    assert shipped["TABLEWIRE_SECRET"] == PLACEHOLDER


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")
@needs_console_script
def test_systemd_analyze_verify_accepts_the_unit(tmp_path: Path) -> None:
    env_file = tmp_path / "tablewire.env"
    env_file.write_text(ENV_EXAMPLE.read_text())
    unit = tmp_path / "tablewire@8765.service"
    unit.write_text(
        render(
            UNIT.read_text(),
            {
                "/opt/tablewire/.venv/bin/": f"{VENV_BIN}/",
                "/etc/tablewire/tablewire.env": str(env_file),
            },
        )
    )
    verify = subprocess.run(
        ["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60
    )
    complaints = [line for line in verify.stderr.splitlines() if unit.name in line]
    assert verify.returncode == 0 and not complaints, verify.stderr


@dataclass
class Instance:
    """A ``tablewire serve`` started the way the systemd unit starts ``tablewire@PORT``."""

    port: int
    env: dict[str, str]
    cwd: Path
    process: subprocess.Popen[bytes] | None = None
    service: list[tuple[str, str]] = field(default_factory=lambda: read_unit(UNIT)["Service"])

    @property
    def name(self) -> str:
        return self.env["TABLEWIRE_NAME"]

    def _command(self, key: str) -> list[str]:
        text = one(self.service, key).replace("%i", str(self.port))
        return shlex.split(text.replace("/opt/tablewire/.venv/bin/", f"{VENV_BIN}/"))

    def start(self) -> Instance:
        log = open(self.cwd / f"server-{self.port}.log", "ab")  # noqa: SIM115 - the child owns it
        self.process = subprocess.Popen(
            self._command("ExecStart"), cwd=self.cwd, env=self.env, stdout=log, stderr=log
        )
        ready = subprocess.run(self._command("ExecStartPost"), cwd=self.cwd, env=self.env)
        assert ready.returncode == 0, f"ExecStartPost: {self.port} never became ready"
        return self

    def terminate(self) -> int:
        """What ``systemctl stop`` does: KillSignal, then wait up to TimeoutStopSec."""
        assert self.process is not None
        self.process.send_signal(getattr(signal, one(self.service, "KillSignal")))
        return self.process.wait(timeout=int(one(self.service, "TimeoutStopSec")))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def unit_instance(port: int, env_file: dict[str, str], state: Path) -> Instance:
    """The environment systemd gives ``tablewire@PORT``: the env file, then Environment=."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TABLEWIRE_")}
    env.pop("REDIS_URL", None)
    env.update(env_file)
    for key, value in read_unit(UNIT)["Service"]:
        if key == "Environment":
            name, _, setting = value.partition("=")
            setting = setting.replace("%i", str(port)).replace("%H", socket.gethostname())
            env[name] = setting.replace("/var/lib/tablewire", str(state))
    Path(env["TABLEWIRE_DATA"]).mkdir(parents=True, exist_ok=True)
    return Instance(port, env, state)


# --- nginx -----------------------------------------------------------------------------------


@dataclass
class Proxy:
    https: int
    http: int
    context: ssl.SSLContext
    process: subprocess.Popen[bytes] | None = None


def make_certificate(directory: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for localhost and 127.0.0.1."""
    cert, key = directory / "fullchain.pem", directory / "privkey.pem"
    subprocess.run(
        [
            str(OPENSSL), "req", "-x509", "-newkey", "ec", "-pkeyopt",
            "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def nginx_config(directory: Path, upstreams: tuple[int, int]) -> tuple[Path, Proxy]:
    """deploy/nginx/tablewire.conf on the test's ports and certificate, inside the minimal
    main config Debian's nginx.conf amounts to (conf.d/*.conf included in http)."""
    directory.mkdir(parents=True, exist_ok=True)
    cert, key = make_certificate(directory)
    proxy = Proxy(free_port(), free_port(), ssl.create_default_context(cafile=str(cert)))
    site = directory / "tablewire.conf"
    site.write_text(
        render(
            NGINX_CONF.read_text(),
            {
                "server 127.0.0.1:8765 ": f"server 127.0.0.1:{upstreams[0]} ",
                "server 127.0.0.1:8766 ": f"server 127.0.0.1:{upstreams[1]} ",
                "listen 80;": f"listen 127.0.0.1:{proxy.http};",
                "listen [::]:80;": "",
                "listen 443 ssl;": f"listen 127.0.0.1:{proxy.https} ssl;",
                "listen [::]:443 ssl;": "",
                "/etc/ssl/tablewire/fullchain.pem": str(cert),
                "/etc/ssl/tablewire/privkey.pem": str(key),
            },
        )
    )
    temp = "\n".join(
        f"    {kind}_temp_path {directory}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    main = directory / "nginx.conf"
    main.write_text(
        f"""daemon off;
worker_processes 2;
pid {directory}/nginx.pid;
{"user root;" if os.geteuid() == 0 else ""}
events {{ worker_connections 512; }}
http {{
    access_log {directory}/access.log;
{temp}
    include {site};
}}
"""
    )
    return main, proxy


def nginx_args(main: Path) -> list[str]:
    return [str(NGINX), "-p", str(main.parent), "-c", str(main), "-e", f"{main.parent}/error.log"]


@needs_nginx
def test_nginx_t_accepts_the_proxy_config(tmp_path: Path) -> None:
    main, _ = nginx_config(tmp_path / "nginx", (free_port(), free_port()))
    checked = subprocess.run([*nginx_args(main), "-t"], capture_output=True, text=True, timeout=30)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


@dataclass
class Stack:
    proxy: Proxy
    instances: list[Instance]
    secret: bytes
    redis: ProductionRedis

    def token(self, role: Role, table: str | None = None) -> str:
        return issue(self.secret, Claims(role, "main", int(time.time()) + 600, table, 0.0))

    @property
    def url(self) -> str:
        return f"wss://127.0.0.1:{self.proxy.https}/"


@pytest.fixture
def stack(production_redis: ProductionRedis, tmp_path: Path) -> Iterator[Stack]:
    """nginx with the shipped config in front of two unit-started instances on one Redis."""
    secret = secrets.token_hex(32)
    env_file = read_env_file(
        render(
            ENV_EXAMPLE.read_text(),
            {
                "REPLACE-WITH-THE-REDIS-PASSWORD": production_redis.password,
                "@127.0.0.1:6379/": f"@127.0.0.1:{production_redis.port}/",
                PLACEHOLDER: secret,
            },
        )
    )
    instances = [unit_instance(free_port(), env_file, tmp_path / "state") for _ in range(2)]
    main, proxy = nginx_config(tmp_path / "nginx", (instances[0].port, instances[1].port))
    try:
        for instance in instances:
            instance.start()
        proxy.process = subprocess.Popen(nginx_args(main))

        def healthy() -> bool:
            assert proxy.process is not None and proxy.process.poll() is None, (
                main.parent / "error.log"
            ).read_text()
            with contextlib.suppress(OSError):
                return http_get(f"https://127.0.0.1:{proxy.https}/healthz", proxy.context) == 200
            return False

        deadline_poll(healthy, 15, "nginx to proxy /healthz")
        yield Stack(proxy, instances, secret.encode(), production_redis)
    finally:
        if proxy.process is not None:
            proxy.process.terminate()
            proxy.process.wait(timeout=10)
        for instance in instances:
            instance.stop()


async def station(stack: Stack, role: Role, table: str | None = None) -> Station:
    ws = await connect(stack.url, ssl=stack.proxy.context, compression=None, open_timeout=10)
    await ws.send(json.dumps({"type": "hello", "token": stack.token(role, table)}))
    welcome = json.loads(await ws.recv())
    assert welcome["type"] == "welcome", welcome
    return Station(ws, welcome["server"])


@dataclass
class Station:
    ws: ClientConnection
    server: str

    async def request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a request and return its answer (ack or error), skipping other frames."""
        await self.ws.send(json.dumps(message))
        with anyio.fail_after(10):
            while True:
                reply = json.loads(await self.ws.recv())
                if reply.get("id") == message["id"] and reply["type"] in ("ack", "error"):
                    return dict(reply)

    async def events(self, table: str) -> list[dict[str, Any]]:
        """The next ``events`` frame of ``table``."""
        with anyio.fail_after(10):
            while True:
                frame = json.loads(await self.ws.recv())
                if frame["type"] == "events" and frame["table"] == table:
                    return list(frame["events"])


CONFIG = {"game": "NLHE", "blinds": [50, 100], "button": 1, "seats": {"1": 10_000, "2": 10_000}}


def command(cid: str, body: dict[str, Any]) -> dict[str, Any]:
    return {"type": "command", "id": cid, "tournament": "main", "table": "1", "command": body}


async def open_table(stack: Stack) -> None:
    admin = await station(stack, "admin")
    made = await admin.request({"type": "create_tournament", "id": "t", "tournament": "main"})
    assert made["type"] == "ack", made
    table = {"type": "create_table", "id": "c", "tournament": "main", "table": "1"}
    made = await admin.request({**table, "config": CONFIG})
    assert made["type"] == "ack", made
    await admin.ws.close()


@needs_nginx
@needs_console_script
async def test_through_the_proxy_stations_on_either_instance_see_each_others_commands(
    stack: Stack,
) -> None:
    opened = [await station(stack, "display") for _ in range(4)]
    servers = [s.server for s in opened]
    assert set(servers) == {i.name for i in stack.instances}, servers
    assert servers[0::2] == [servers[0]] * 2 and servers[1::2] == [servers[1]] * 2, (
        f"not plain round robin: {servers}"
    )
    response = opened[0].ws.response
    assert response is not None and response.status_code == 101
    assert response.headers["Upgrade"].lower() == "websocket"
    assert "upgrade" in response.headers["Connection"].lower()
    await open_table(stack)
    display_a, display_b = opened[0], opened[1]
    for display in (display_a, display_b):
        await display.ws.send(
            json.dumps({"type": "subscribe", "tournament": "main", "table": "1", "since": 0})
        )
    dealers: dict[str, Station] = {}
    while len(dealers) < 2:
        dealer = await station(stack, "dealer", "1")
        if dealers.setdefault(dealer.server, dealer) is not dealer:
            await dealer.ws.close()
    dealer_a, dealer_b = dealers[display_a.server], dealers[display_b.server]
    ack = await dealer_a.request(command("start", {"type": "start_hand"}))
    assert ack["type"] == "ack" and not ack.get("duplicate", False), ack
    for display in (display_b, display_a):
        assert [e["type"] for e in await display.events("1")] == ["hand_start", "prompt"]
    retried = await dealer_b.request(command("start", {"type": "start_hand"}))
    assert (retried["seq"], retried["duplicate"]) == (ack["seq"], True)
    called = await dealer_b.request(command("call", {"type": "act", "seat": 1, "declare": "call"}))
    assert called["type"] == "ack", called
    action = next(e for e in await display_a.events("1") if e["type"] == "action")
    assert (action["seat"], action["action"]) == (1, "call")
    context = stack.proxy.context
    assert http_get(f"https://127.0.0.1:{stack.proxy.https}/healthz", context) == 200
    assert http_get(f"https://127.0.0.1:{stack.proxy.https}/readyz", context) == 200
    assert http_get(f"https://127.0.0.1:{stack.proxy.https}/metrics", context) == 403
    plain = http.client.HTTPConnection("127.0.0.1", stack.proxy.http, timeout=5)
    plain.request("GET", "/healthz", headers={"Host": "tablewire.example.org"})
    redirect = plain.getresponse()
    assert redirect.status == 308
    assert redirect.getheader("Location") == "https://tablewire.example.org/healthz"
    plain.close()
    for opened_station in [*opened, *dealers.values()]:
        await opened_station.ws.close()


@needs_nginx
@needs_console_script
async def test_a_rolling_restart_behind_the_proxy_loses_no_command(stack: Stack) -> None:
    """RUNBOOK "Upgrade": stop one instance (SIGTERM drains, sockets close with 1001), the
    station reconnects through the proxy and retries with the same command id; start it again
    and the proxy sends stations to it once more."""
    await open_table(stack)
    display = await station(stack, "display")
    await display.ws.send(
        json.dumps({"type": "subscribe", "tournament": "main", "table": "1", "since": 0})
    )
    leaving = next(i for i in stack.instances if i.name != display.server)
    dealer = await station(stack, "dealer", "1")
    while dealer.server != leaving.name:
        await dealer.ws.close()
        dealer = await station(stack, "dealer", "1")
    start = command("start", {"type": "start_hand"})
    await dealer.ws.send(json.dumps(start))
    assert leaving.terminate() == 0
    with anyio.fail_after(10), pytest.raises(ConnectionClosed) as closed:
        while True:
            await dealer.ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
    again = await station(stack, "dealer", "1")
    assert again.server == display.server
    ack = await again.request(start)
    assert ack["type"] == "ack", ack
    with stack.redis.client() as client:
        log = [json.loads(e["e"]) for _, e in client.xrange("tw:{main}:table:1:log")]
    assert [e["type"] for e in log].count("hand_start") == 1
    assert len(log) == ack["seq"]
    assert "hand_start" in [e["type"] for e in await display.events("1")]
    leaving.start()
    names: set[str] = set()
    with anyio.fail_after(20):
        while leaving.name not in names:
            probe = await station(stack, "display")
            names.add(probe.server)
            await probe.ws.close()
            await anyio.sleep(0.1)
    for opened in (display, again):
        await opened.ws.close()


# --- container image and compose -------------------------------------------------------------


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    joined = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in joined.splitlines()]
    return [
        (word.upper(), rest.strip())
        for word, _, rest in (line.partition(" ") for line in lines if line and line[0] != "#")
    ]


def test_dockerfile_builds_the_package_and_runs_it_unprivileged_as_pid_1() -> None:
    steps = dockerfile_instructions()
    kinds = [kind for kind, _ in steps]
    image = dict(steps)["FROM"]
    assert re.fullmatch(r"python:3\.1[1-9]-slim-\w+", image), image
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = {*project["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]}
    wanted |= {"pyproject.toml", project["project"]["readme"]}
    copied = {src for kind, args in steps if kind == "COPY" for src in args.split()[:-1]}
    assert wanted <= copied, wanted - copied
    assert all((ROOT / src).exists() for src in copied), copied
    assert kinds.index("USER") > kinds.index("RUN", kinds.index("COPY"))
    assert dict(steps)["USER"] not in ("root", "0")
    assert json.loads(dict(steps)["CMD"]) == ["tablewire", "serve"]
    assert dict(steps)["STOPSIGNAL"] == "SIGTERM"
    env = dict(pair.split("=", 1) for kind, args in steps if kind == "ENV" for pair in args.split())
    assert env["TABLEWIRE_HOST"] == "0.0.0.0" and dict(steps)["EXPOSE"] == env["TABLEWIRE_PORT"]
    for kind, args in steps:
        assert kind == "RUN" or "SECRET" not in args, f"{kind} {args}: a secret in the image"
    ignored = DOCKERIGNORE.read_text().split()
    assert {".git", ".venv", "data", "tests"} <= set(ignored)


def healthcheck_command() -> list[str]:
    args = dict(dockerfile_instructions())["HEALTHCHECK"]
    form = json.loads(args[args.index("CMD") + 3 :])
    assert form[0] == "python"
    return [sys.executable, *form[1:]]


def test_the_image_health_check_passes_on_a_ready_server_and_fails_on_a_dead_one(
    start_server: Any,
) -> None:
    server = start_server()
    env = {**os.environ, "TABLEWIRE_PORT": str(server.port)}
    assert subprocess.run(healthcheck_command(), env=env, timeout=30).returncode == 0
    server.kill()
    dead = subprocess.run(healthcheck_command(), env=env, timeout=30, capture_output=True)
    assert dead.returncode != 0


def read_yaml_subset(text: str) -> Any:
    """Block-style YAML as compose.yaml uses it: mappings, lists, quoted/flow JSON scalars.
    For machines without PyYAML; anything outside the subset fails loudly."""
    rows = [
        (len(line) - len(line.lstrip(" ")), line.strip())
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith("#")
    ]

    def scalar(value: str) -> Any:
        if value[:1] in ('"', "[", "{"):
            return json.loads(value)
        return int(value) if value.isdigit() else value

    def block(start: int, indent: int) -> tuple[Any, int]:
        if rows[start][1].startswith("- "):
            items: list[Any] = []
            while start < len(rows) and rows[start][0] == indent:
                assert rows[start][1].startswith("- "), rows[start]
                items.append(scalar(rows[start][1][2:]))
                start += 1
            return items, start
        mapping: dict[str, Any] = {}
        while start < len(rows) and rows[start][0] == indent:
            key, sep, value = rows[start][1].partition(":")
            assert sep, f"not a mapping line: {rows[start][1]!r}"
            if value.strip():
                mapping[key] = scalar(value.strip())
                start += 1
            else:
                mapping[key], start = block(start + 1, rows[start + 1][0])
        assert start == len(rows) or rows[start][0] < indent, f"bad indent at {rows[start]}"
        return mapping, start

    parsed, end = block(0, 0)
    assert end == len(rows)
    return parsed


def compose() -> dict[str, Any]:
    try:
        import yaml
    except ImportError:
        return dict(read_yaml_subset(COMPOSE.read_text()))
    return dict(yaml.safe_load(COMPOSE.read_text()))


def test_compose_runs_two_instances_on_the_ports_nginx_balances_secrets_from_an_env_file() -> None:
    services = compose()["services"]
    nginx_ports = re.findall(r"server 127\.0\.0\.1:(\d+) ", NGINX_CONF.read_text())
    published: list[str] = []
    for name in ("tablewire-a", "tablewire-b"):
        service = services[name]
        assert service["env_file"] == ["tablewire.env"]
        assert not {"TABLEWIRE_SECRET", "REDIS_URL"} & set(service.get("environment", {}))
        assert service["stop_signal"] == "SIGTERM"
        assert int(service["stop_grace_period"].rstrip("s")) >= 15
        assert int(service["ulimits"]["nofile"]) >= 65536
        build = service["build"]
        assert (COMPOSE.parent / build["context"] / build["dockerfile"]).resolve() == DOCKERFILE
        host, port, inside = service["ports"][0].split(":")
        assert host == "127.0.0.1" and inside == "8765"
        published.append(port)
    assert published == nginx_ports
    redis = services["redis"]
    assert "ports" not in redis, "Redis must not be published"
    mounts = dict(volume.rsplit(":", 2)[:2] for volume in redis["volumes"] if ":ro" in volume)
    config_inside = next(
        inside for src, inside in mounts.items() if (COMPOSE.parent / src).resolve() == REDIS_CONF
    )
    assert redis["command"][:2] == ["redis-server", config_inside]
    assert "/etc/redis/tablewire-password.conf" in mounts.values()


def compose_tool() -> list[str] | None:
    for candidate in (["docker", "compose"], ["docker-compose"], ["podman", "compose"]):
        if shutil.which(candidate[0]):
            probe = subprocess.run([*candidate, "version"], capture_output=True, timeout=30)
            if probe.returncode == 0:
                return candidate
    return None


@pytest.mark.skipif(compose_tool() is None, reason="no docker compose / podman compose")
def test_compose_config_accepts_the_compose_file(tmp_path: Path) -> None:
    copy = tmp_path / "repo"
    shutil.copytree(DEPLOY, copy / "deploy")
    (copy / "deploy" / "docker" / "tablewire.env").write_text(ENV_EXAMPLE.read_text())
    shutil.copy(REDIS_PASSWORD_EXAMPLE, copy / "deploy" / "docker" / "redis-password.conf")
    tool = compose_tool()
    assert tool is not None
    checked = subprocess.run(
        [*tool, "-f", str(copy / "deploy" / "docker" / "compose.yaml"), "config", "--quiet"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr
