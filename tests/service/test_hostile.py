"""Hostile input over real websockets: the server answers every bad frame and nothing changes.

The fuzz test signs raw websocket connections in as a dealer (table 1) or the floor and sends
Hypothesis-generated batches of bad frames: random bytes, binary frames, text that is not JSON,
JSON of the wrong shape, well-formed envelopes with wrong types deep inside their commands,
unknown types, huge and negative numbers, nested garbage, unicode, frames just under and over
the 64 KiB limit, floods, commands for unknown tables and tournaments, stale ``after`` values,
forged and expired tokens, and frames sent before signing in.

Every frame is predicted by an oracle that decodes it with the protocol's own decoder and, for a
well-formed command on the real table, runs the engine on the stored state: the server must
answer with exactly that typed ``error`` (naming the field path of a schema error), a ``pong``
for a ping, or close the connection with 1008 (policy) / 1009 (too big). A well-formed command
the engine would accept is made stale first, so the table never changes: its Redis keys are
byte-identical before and after, a display watching the table the whole time receives nothing,
and a dealer connected throughout can still play the next action.

The tests at the end of this file pin bugs the fuzz found and that are now fixed: deep
nesting, integers beyond 64 bits, invalid levels, out-of-range ``since`` and field paths of
dict-key and root errors.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import hashlib
import hmac
import json
import random
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import anyio
import msgspec
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from redis import Redis
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol import Act, StartHand, TableConfig
from protocol.events import ErrorEvent
from protocol.wire import (
    CreateTable,
    CreateTournament,
    Error,
    Events,
    Hello,
    Ping,
    Pong,
    Send,
    Snapshot,
    Subscribe,
    Unsubscribe,
    Welcome,
    client_decoder,
    encoder,
    server_decoder,
)
from server.app import MAX_FRAME
from server.engine import TableState
from server.engine import apply as engine_apply
from server.keys import state_key
from server.station import BURST, FLOOD_LIMIT, RATE
from server.tokens import TokenError, verify
from tests.service.conftest import SECRET, ServerProcess, token

TOURNAMENT = "main"
TABLE = "1"
CONFIG = TableConfig(
    game="NLHE", blinds=(50, 100), seats={1: 10_000, 2: 10_000, 3: 10_000}, button=1
)
FUZZ_EXAMPLES = 80
MIN_FRAMES = 10_000
REPLY_TIMEOUT = 30.0
BUDGET_MARGIN = 50
"""Rate-limit tokens kept in hand: the server's bucket can trail the estimate by the refill
during the delay between sending a frame and the server reading it."""
_state_decoder = msgspec.msgpack.Decoder(TableState)


# --- the oracle: what the server must answer -----------------------------------------------


@dataclass(frozen=True)
class Expect:
    """One frame's required answer: an ``error`` with ``code`` (and one of ``fields``, and
    ``id``), or a ``pong`` carrying ``nonce`` when ``code`` is None."""

    code: str | None
    fields: tuple[str | None, ...] = (None,)
    id: str | None = None
    nonce: int | None = None

    def problem(self, reply: Any) -> str | None:
        if self.code is None:
            if not isinstance(reply, Pong) or reply.nonce != self.nonce:
                return f"expected pong {self.nonce}"
            return None
        if not isinstance(reply, Error):
            return f"expected error {self.code}"
        if reply.code != self.code:
            return f"expected error {self.code}"
        if reply.field not in self.fields:
            return f"expected field in {self.fields}"
        if reply.id != self.id:
            return f"expected id {self.id!r}"
        return None


_SERVER_PATH = re.compile(r" - at `(\$[^`]*)`")
_ANY_PATH = re.compile(r"`(\$[^`]*)`")
_INSIDE = re.compile(r"^`\$([^`]*)`: .* - at `(\$[^`]*)`$", re.S)


def schema_fields(exc: msgspec.ValidationError) -> tuple[str | None, ...]:
    """The ``field`` a schema error must name: the path msgspec reports; a check inside a
    struct (a level's blinds) names its field below that path."""
    text = str(exc)
    inside = _INSIDE.match(text)
    if inside:
        return (inside.group(2) + inside.group(1),)
    exact = _SERVER_PATH.search(text)
    if exact:
        return (exact.group(1),)
    loose = _ANY_PATH.search(text)
    if loose:
        # An error in a dict key ("- at `key` in `$.command.cards`") names the dict.
        return (loose.group(1),)
    # An error at the root ("Object missing required field `type`") names the root.
    return ("$",)


@dataclass
class World:
    """The table as it stands (and must stay) during the fuzzing."""

    seq: int
    state: TableState


DEALER_FORBIDDEN = {"ruling", "penalty", "correction", "add_player", "remove_player", "level"}
FLOOR_FORBIDDEN = {"add_player", "remove_player"}


def _tag(command: Any) -> str:
    return str(type(command).__struct_config__.tag)


def _out_of_scope(role: str, tournament: str, table: str | None) -> bool:
    return tournament != TOURNAMENT or (role == "dealer" and table != TABLE)


class _TopId(msgspec.Struct):
    """A JSON object's ``id``, whatever else it holds (its other values are skipped)."""

    id: object = None


def request_id(payload: str) -> str | None:
    """The id a refusal of an unreadable message names: the frame's own, when the frame is
    wholly JSON (no trailing bytes) and the id a string of at most 128 characters at the top
    of its object."""
    try:
        found = msgspec.json.decode(payload, type=_TopId).id
    except msgspec.DecodeError:
        return None
    return found if isinstance(found, str) and len(found) <= 128 else None


def classify(payload: str | bytes, role: str, world: World) -> tuple[str | bytes, Expect] | None:
    """What a signed-in ``role`` must be answered for ``payload``; None for a frame that is
    rightly answered with nothing (unsubscribe, a valid subscription), which the fuzz drops.
    A well-formed command the engine would accept on the real table is rewritten stale."""
    if isinstance(payload, bytes):
        return payload, Expect("bad_message")
    payload = str(payload)
    try:
        message = client_decoder.decode(payload)
    except msgspec.ValidationError as exc:
        return payload, Expect("bad_message", schema_fields(exc), id=request_id(payload))
    except (msgspec.DecodeError, RecursionError):
        return payload, Expect("bad_json")
    match message:
        case Hello():
            return payload, Expect("bad_message")
        case Ping():
            return payload, Expect(None, nonce=message.nonce)
        case Unsubscribe():
            return None
        case Subscribe():
            if _out_of_scope(role, message.tournament, message.table):
                return payload, Expect("forbidden")
            if message.table is None or message.table == TABLE:
                return None
            return payload, Expect("unknown_table")
        case CreateTournament() | CreateTable():
            return payload, Expect("forbidden", id=message.id)
        case Send():
            forbidden = DEALER_FORBIDDEN if role == "dealer" else FLOOR_FORBIDDEN
            if _out_of_scope(role, message.tournament, message.table) or (
                _tag(message.command) in forbidden
            ):
                return payload, Expect("forbidden", id=message.id)
            if message.table != TABLE:
                return payload, Expect("unknown_table", id=message.id)
            if message.after is not None and message.after != world.seq:
                return payload, Expect("stale", id=message.id)
            try:
                _, events = engine_apply(world.state, message.command)
                refused = len(events) == 1 and isinstance(events[0], ErrorEvent)
            except Exception:
                # An engine exception is answered `internal`; the fuzz makes such commands stale.
                refused = False
            if refused:
                # The engine's own code reaches the station ("hand_in_play", "illegal", ...).
                error = events[0]
                assert isinstance(error, ErrorEvent)
                return payload, Expect(error.code, id=message.id)
            stale = msgspec.structs.replace(message, after=world.seq - 1)
            return encoder.encode(stale).decode(), Expect("stale", id=message.id)
    raise AssertionError(f"unclassified message {message!r}")


def classify_first(payload: str | bytes) -> str | None:
    """The error code a frame sent before signing in must get (then close 1008); None when it
    is a valid hello."""
    try:
        message = client_decoder.decode(payload)
    except (msgspec.DecodeError, RecursionError):
        return "bad_message"
    if not isinstance(message, Hello):
        return "auth_required"
    try:
        verify(SECRET.encode(), message.token, time.time())
    except TokenError as exc:
        return exc.code
    return None


# --- strategies ----------------------------------------------------------------------------

HUGE = [0, -1, -(2**31), 2**31, 2**53 + 1, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30, -(10**30)]
ints = st.one_of(st.integers(-3, 12), st.sampled_from(HUGE), st.integers())
scalars = st.one_of(
    st.none(), st.booleans(), ints, st.floats(), st.text(max_size=6), st.sampled_from(["", "1"])
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=5,
)

VALID_COMMANDS: list[dict[str, Any]] = [
    {"type": "start_hand", "cards": {"1": ["As", "Ad"]}, "button": 2},
    {"type": "act", "seat": 1, "declare": "call"},
    {"type": "act", "seat": 1, "declare": "raise", "amount": 300, "chips": [100, 100, 100]},
    {"type": "act", "seat": 2, "chips": [500], "first": "chips", "prior": "pulled", "at": 1},
    {"type": "act", "seat": 3, "declare": "fold", "as_played": True},
    {"type": "deal", "street": "flop", "cards": ["2c", "3d", "4h"], "burned": False},
    {"type": "show", "seat": 1, "cards": ["As", "Ad"]},
    {"type": "muck", "seat": 2},
    {"type": "award", "winners": [1], "pot": 0},
    {"type": "add_player", "seat": 5, "stack": 1000, "name": "x"},
    {"type": "remove_player", "seat": 3},
    {"type": "level", "blinds": [100, 200], "ante": 25, "bba": True},
    {"type": "ruling", "call": 1, "option": "binding"},
    {"type": "misdeal", "reason": "r", "cards": {"2": ["Kc", "Kd"]}},
    {"type": "fouled_deck", "reason": "two aces of spades"},
    {"type": "irregularity", "kind": "short_card", "seat": 1, "cards": ["5s"]},
    {"type": "clock", "at": 1000, "seat": 1},
    {"type": "time", "at": 27_000},
    {"type": "penalty", "seat": 1, "kind": "hands", "count": 3, "chips": 0, "reason": "x"},
    {"type": "correction", "reason": "misread", "count": 1, "by": "floor"},
    {"type": "ask", "seat": 1, "question": "call_amount", "about": 2},
    {"type": "count", "seat": 1, "of": 2, "told": 100},
]
OTHER_MESSAGES: list[dict[str, Any]] = [
    {"type": "subscribe", "tournament": "main", "table": "1", "since": 0},
    {"type": "subscribe", "tournament": "main", "tables_since": {"1": 0}},
    {"type": "unsubscribe", "tournament": "main", "table": "1"},
    {"type": "hello", "token": "not-a-token"},
    {"type": "ping", "nonce": 7},
    {"type": "create_tournament", "id": "c", "tournament": "main", "name": "Main"},
    {
        "type": "create_table",
        "id": "c",
        "tournament": "main",
        "table": "9",
        "config": {"game": "NLHE", "blinds": [50, 100], "seats": {"1": 500}, "button": 1},
    },
]
TAGS = [c["type"] for c in VALID_COMMANDS] + [m["type"] for m in OTHER_MESSAGES] + ["command"]
tournaments = st.one_of(
    st.sampled_from(["main"] * 12 + ["other", "", "*", "MAIN"]), st.text(max_size=5)
)
tables = st.one_of(st.sampled_from(["1"] * 12 + ["2", "", "01", "*"]), st.text(max_size=5))
MISSING = object()
afters = st.one_of(
    st.just(MISSING), st.just(MISSING), st.none(), st.integers(-2, 5), st.sampled_from(HUGE)
)
unknown_tags = st.one_of(st.sampled_from(TAGS), st.text(max_size=8), json_values)


def _paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [here]
    if isinstance(value, dict):
        for key, inner in value.items():
            found += _paths(inner, (*here, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            found += _paths(inner, (*here, index))
    return found


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    parent = root
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return root


@st.composite
def hostile_objects(draw: st.DrawFn) -> Any:
    """A real message (mostly a command envelope) put out of scope and mutated."""
    if draw(st.integers(0, 3)):
        message: Any = {
            "type": "command",
            "id": "h-" + draw(st.text(max_size=4)),
            "tournament": draw(tournaments),
            "table": draw(tables),
            "command": copy.deepcopy(draw(st.sampled_from(VALID_COMMANDS))),
        }
        after = draw(afters)
        if after is not MISSING:
            message["after"] = after
    else:
        message = copy.deepcopy(draw(st.sampled_from(OTHER_MESSAGES)))
    for _ in range(draw(st.sampled_from([0, 1, 1, 2]))):
        path = draw(st.sampled_from(_paths(message)))
        op = draw(
            st.sampled_from(["wrong_type", "wrong_type", "number", "delete", "extra", "retag"])
        )
        if op == "wrong_type":
            message = _set(message, path, draw(json_values))
        elif op == "number":
            message = _set(message, path, draw(ints))
        elif op == "delete" and path:
            target = message
            for step in path[:-1]:
                target = target[step]
            del target[path[-1]]
        elif op == "extra":
            target = message
            for step in path:
                target = target[step]
            if isinstance(target, dict):
                target[draw(st.text(max_size=4))] = draw(scalars)
        elif op == "retag":
            command = message.get("command") if isinstance(message, dict) else None
            target = command if isinstance(command, dict) and draw(st.booleans()) else message
            if isinstance(target, dict):
                target["type"] = draw(unknown_tags)
    return message


@st.composite
def text_frames(draw: st.DrawFn) -> str:
    """A hostile object as JSON text, sometimes damaged on the way."""
    text = json.dumps(draw(hostile_objects()), ensure_ascii=draw(st.booleans()))
    damage = draw(
        st.sampled_from(["none"] * 8 + ["truncate", "trail", "bom", "dupkey", "bignum", "spaces"])
    )
    if damage == "truncate":
        return text[: draw(st.integers(0, max(0, len(text) - 1)))]
    if damage == "trail":
        return text + draw(st.sampled_from([" x", "}", ",", "\x00", "{}", "\u2028"]))
    if damage == "bom":
        return "\ufeff" + text
    if damage == "dupkey" and text.startswith("{"):
        return '{"type": "ping", ' + text[1:]
    if damage == "bignum":
        number = draw(st.sampled_from(["1e999", "-1e999", "1" + "0" * 400, "-0", "1.5", "NaN"]))
        return re.sub(r"-?\d+", number, text, count=1)
    if damage == "spaces":
        return text.replace(":", " :\n\t ")
    return text


class Long(str):
    """A long frame that Hypothesis reports by its length and start."""

    def __repr__(self) -> str:
        return f"Long({str.__repr__(self[:60])}... {len(self)} chars)"


@st.composite
def deep_frames(draw: st.DrawFn) -> str:
    """Nested garbage, kept under the decoder's recursion depth so the oracle's answer does not
    depend on the stack it runs on; deeper nesting has its own tests
    (test_deeply_nested_json_is_refused_not_crashing)."""
    depth = draw(st.integers(1, 400))
    inner = draw(st.sampled_from(["[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth]))
    where = draw(st.sampled_from(["bare", "before_tag", "command", "field"]))
    if where == "before_tag":
        return Long('{"x": ' + inner + ', "type": "ping"}')
    if where == "command":
        return Long(
            '{"type": "command", "id": "h-d", "tournament": "main", "table": "1", '
            '"command": {"z": ' + inner + ', "type": "act", "seat": 1}}'
        )
    if where == "field":
        return Long('{"type": "ping", "nonce": ' + inner + "}")
    return Long(inner)


@st.composite
def big_frames(draw: st.DrawFn) -> str:
    """A frame near the 64 KiB limit, but within it."""
    size = draw(st.integers(MAX_FRAME - 2048, MAX_FRAME))
    fill = draw(st.sampled_from(["A", "é", "1"]))
    template = draw(
        st.sampled_from(
            [
                '{"type": "hello", "token": "%s"}',
                '{"type": "command", "id": "%s", "tournament": "main", "table": "1",'
                ' "command": {"type": "act", "seat": 1, "declare": "call"}}',
                '{"type": "ping", "nonce": %s}',
                "%s",
            ]
        )
    )
    text = template % (fill * ((size - len(template) + 2) // len(fill.encode())))
    assert len(text.encode()) <= MAX_FRAME
    return Long(text)


binary_frames = st.one_of(
    st.binary(max_size=48),
    hostile_objects().map(lambda m: json.dumps(m).encode()),
    st.sampled_from([b"\xff\xfe", b"\x00" * 16, b'{"type": "ping"}']),
)
frames = st.one_of(
    text_frames(),
    text_frames(),
    text_frames(),
    text_frames(),
    json_values.map(lambda v: json.dumps(v)),
    st.text(max_size=24),
    binary_frames,
    deep_frames(),
    st.one_of(big_frames(), text_frames(), text_frames(), text_frames()),
)
roles = st.sampled_from(["dealer", "floor"])


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def sign(body: bytes, secret: bytes) -> str:
    return f"{_b64(body)}.{_b64(hmac.new(secret, body, hashlib.sha256).digest())}"


def _claims(role: str, exp: int, **extra: Any) -> bytes:
    return json.dumps({"role": role, "tournament": "main", "exp": exp, **extra}).encode()


@st.composite
def bad_tokens(draw: st.DrawFn) -> str:
    now = int(time.time())
    role = draw(st.sampled_from(["dealer", "floor", "display", "admin", "god", ""]))
    kind = draw(st.sampled_from(["garbage", "forged", "expired", "tampered", "swapped", "claims"]))
    if kind == "garbage":
        return draw(
            st.one_of(st.text(max_size=30), st.sampled_from(["", ".", "..", "a.b.c", "=.="]))
        )
    if kind == "forged":
        secret = draw(st.sampled_from([b"", b"guess", SECRET.encode() + b"x"]))
        return sign(_claims(role, now + 3600, table="1"), secret)
    if kind == "expired":
        return sign(_claims("admin", now - draw(st.integers(1, 10**9))), SECRET.encode())
    if kind == "tampered":
        good = token("admin")
        at = draw(st.integers(0, len(good) - 1))
        return good[:at] + draw(st.sampled_from("A_-.=x")) + good[at + 1 :]
    if kind == "swapped":
        body = _b64(_claims("admin", now + 3600))
        return body + "." + token("display").split(".")[1]
    body = draw(
        st.sampled_from(
            [
                b"not json",
                b"{}",
                b"[]",
                _claims("god", now + 3600),
                json.dumps({"role": "admin", "tournament": 5, "exp": now + 3600}).encode(),
                json.dumps({"role": "admin", "tournament": "main", "exp": "soon"}).encode(),
            ]
        )
    )
    return sign(body, SECRET.encode())


first_frames = st.one_of(
    bad_tokens().map(lambda t: json.dumps({"type": "hello", "token": t})),
    bad_tokens().map(lambda t: json.dumps({"type": "hello", "token": t, "extra": 1})),
    st.sampled_from(['{"type": "hello"}', '{"type": "hello", "token": 5}', "", "hello"]),
    hostile_objects().map(json.dumps),
    st.binary(max_size=24),
    st.text(max_size=16),
)


# --- the hostile side ----------------------------------------------------------------------


async def raw_connect(server: ServerProcess) -> ClientConnection:
    return await ws_connect(
        server.url, max_size=2**22, compression=None, open_timeout=10, ping_interval=None
    )


def _show(payload: str | bytes) -> str:
    shown = repr(payload)
    return shown if len(shown) < 300 else shown[:300] + f"... ({len(payload)} long)"


class Hostile:
    """A raw websocket signed in as ``role``, with an estimate of its rate-limit tokens: a
    batch goes to a connection with the tokens for it (and a margin), so its frames are
    answered for what they are. A frame the server still finds over the limit is answered
    ``rate_limited``, a right answer too, just not counted as checked."""

    def __init__(self, server: ServerProcess, role: str) -> None:
        self.server = server
        self.role = role
        self.ws: ClientConnection | None = None
        self.tokens = 0.0
        self.at = 0.0
        self.nonce = -(2**62)

    async def open(self) -> Hostile:
        self.ws = await raw_connect(self.server)
        await self.ws.send(json.dumps({"type": "hello", "token": self.token()}))
        assert isinstance(server_decoder.decode(await self.ws.recv()), Welcome)
        self.tokens, self.at = BURST, time.monotonic()
        return self

    def token(self) -> str:
        return token(self.role, TOURNAMENT, TABLE if self.role == "dealer" else None)  # type: ignore[arg-type]

    def budget(self) -> float:
        return min(BURST, self.tokens + (time.monotonic() - self.at) * RATE)

    def spend(self, count: int) -> None:
        self.tokens, self.at = self.budget() - count, time.monotonic()

    async def exchange(self, payloads: list[str | bytes], sentinel: bool = True) -> list[Any]:
        """Send the frames (and a ping); return one reply per frame. Every frame is answered
        exactly once and in order, so the pong after them proves none is missing."""
        assert self.ws is not None
        ws = self.ws
        self.nonce -= 1
        nonce = self.nonce
        ping = [json.dumps({"type": "ping", "nonce": nonce})] if sentinel else []
        sending = [*payloads, *ping]
        self.spend(len(sending))

        async def send_all() -> None:
            for payload in sending:
                await ws.send(payload)

        replies: list[Any] = []
        sender = asyncio.get_running_loop().create_task(send_all())
        try:
            async with asyncio.timeout(REPLY_TIMEOUT):
                for _ in sending:
                    replies.append(server_decoder.decode(await ws.recv()))
                await sender
        except ConnectionClosed as exc:
            sender.cancel()
            raise AssertionError(
                f"connection closed ({exc.rcvd}) instead of answering frame {len(replies)}:"
                f" {_show(sending[len(replies)])}"
            ) from exc
        except TimeoutError:
            sender.cancel()
            raise AssertionError(
                f"{len(sending)} frames got only {len(replies)} answers; the first unanswered"
                f" may be {_show(sending[len(replies)])}"
            ) from None
        if sentinel:
            last = replies.pop()
            limited = isinstance(last, Error) and last.code == "rate_limited"
            assert limited or (isinstance(last, Pong) and last.nonce == nonce), last
        return replies

    async def oversize(self, size: int) -> None:
        """A frame over the limit: the server must close with 1009."""
        assert self.ws is not None
        ws, self.ws = self.ws, None
        await ws.send("x" * size)
        with pytest.raises(ConnectionClosed) as closed:
            async with asyncio.timeout(REPLY_TIMEOUT):
                while True:
                    reply = server_decoder.decode(await ws.recv())
                    raise AssertionError(f"answered an oversized frame with {reply}")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009, closed.value


def check_answers(sent: list[tuple[str | bytes, Expect]], replies: list[Any]) -> Counter[str]:
    """Each reply is the frame's own answer or ``rate_limited``; the tally of both."""
    assert len(replies) == len(sent)
    tally: Counter[str] = Counter()
    for index, ((payload, expect), reply) in enumerate(zip(sent, replies, strict=True)):
        if isinstance(reply, Error) and reply.code == "rate_limited":
            tally["rate_limited"] += 1
            continue
        problem = expect.problem(reply)
        assert problem is None, f"frame {index}: {_show(payload)}\n{problem}, got {reply!r}"
        tally[expect.code or "pong"] += 1
    return tally


async def healthz(port: int) -> int:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: tablewire\r\n\r\n")
        status = await asyncio.wait_for(reader.readline(), 10)
        return int(status.split()[1])
    finally:
        writer.close()


async def first_frame(server: ServerProcess, payload: str | bytes, code: str) -> None:
    """A frame before signing in: the typed error, then close 1008."""
    async with await raw_connect(server) as ws:
        await ws.send(payload)
        async with asyncio.timeout(REPLY_TIMEOUT):
            reply = server_decoder.decode(await ws.recv())
            assert isinstance(reply, Error) and reply.code == code, (_show(payload), reply)
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008, closed.value


@dataclass
class Fuzzer:
    server: ServerProcess
    world: World
    pool: dict[str, list[Hostile]] = field(default_factory=lambda: {"dealer": [], "floor": []})
    frames: int = 0
    codes: Counter[str] = field(default_factory=Counter)
    rate_limited: int = 0
    made_stale: int = 0
    oversized: int = 0
    before_sign_in: int = 0

    async def connection(self, role: str, frames: int) -> Hostile:
        for hostile in self.pool[role]:
            if hostile.ws is not None and hostile.budget() >= frames + BUDGET_MARGIN:
                return hostile
        hostile = await Hostile(self.server, role).open()
        self.pool[role].append(hostile)
        return hostile

    async def batch(self, role: str, payloads: list[str | bytes], oversize: int | None) -> None:
        sent = [c for p in payloads if (c := classify(p, role, self.world)) is not None]
        self.made_stale += sum(payload not in payloads for payload, _ in sent)
        hostile = await self.connection(role, len(sent) + 1)
        replies = await hostile.exchange([payload for payload, _ in sent])
        tally = check_answers(sent, replies)
        self.frames += len(sent)
        self.rate_limited += tally.pop("rate_limited", 0)
        self.codes.update(tally)
        if oversize is not None:
            await hostile.oversize(oversize)
            self.pool[role].remove(hostile)
            self.frames += 1
            self.oversized += 1

    async def firsts(self, payloads: list[str | bytes]) -> None:
        checks = [(p, code) for p in payloads if (code := classify_first(p)) is not None]
        await asyncio.gather(*(first_frame(self.server, p, code) for p, code in checks))
        self.frames += len(checks)
        self.before_sign_in += len(checks)

    async def flood(self, role: str, payloads: list[str | bytes], count: int) -> None:
        """``count`` frames at once, more than the burst allows, on a fresh connection: each is
        answered, by its own answer or ``rate_limited``, and the connection stays open (under
        the flood limit). Only frames the server answers without Redis, so that it keeps up."""
        cheap = [
            c
            for p in payloads
            if (c := classify(p, role, self.world)) is not None
            and c[1].code in (None, "bad_json", "bad_message")
        ]
        if not cheap:
            return
        sent = (cheap * (count // len(cheap) + 1))[:count]
        hostile = await Hostile(self.server, role).open()
        assert hostile.ws is not None
        started = time.monotonic()
        try:
            replies = await hostile.exchange([payload for payload, _ in sent], sentinel=False)
        finally:
            elapsed = time.monotonic() - started
            await hostile.ws.close()
        limited = check_answers(sent, replies)["rate_limited"]
        assert limited >= 1
        assert limited >= len(sent) - BURST - RATE * elapsed - 1, (limited, len(sent), elapsed)
        self.frames += len(sent)
        self.rate_limited += limited


# --- the fuzz test -------------------------------------------------------------------------


async def _table_keys(redis: Redis) -> dict[bytes, Any]:
    """Every key in Redis with its content, read off the event loop's thread."""

    def read() -> dict[bytes, Any]:
        found: dict[bytes, Any] = {}
        for key in sorted(redis.keys("*")):
            kind = redis.type(key)
            if kind == b"hash":
                found[key] = sorted(redis.hgetall(key).items())
            elif kind == b"stream":
                found[key] = redis.xrange(key)
            elif kind == b"set":
                found[key] = sorted(redis.smembers(key))
            else:
                found[key] = kind
        return found

    return await anyio.to_thread.run_sync(read)


async def make_table(start_server, connect) -> tuple[ServerProcess, Any, int]:  # type: ignore[no-untyped-def]
    """A server with table 1 of the main tournament in its first hand (seat 1 to act)."""
    server = start_server()
    admin = await connect(server, "admin")
    await admin.create_tournament(TOURNAMENT, "Main Event")
    await admin.create_table(TOURNAMENT, TABLE, CONFIG)
    dealer = await connect(server, "dealer", table=TABLE)
    started = await dealer.command(TOURNAMENT, TABLE, StartHand(cards={1: ["As", "Ad"]}))
    return server, dealer, started.seq


async def test_hostile_frames_are_answered_and_change_nothing(
    start_server, connect, redis_client, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    # Keepalive pings draw their payload from the global ``random``, which Hypothesis watches
    # while it generates in its thread: give this test's connections their own generator.
    monkeypatch.setattr("websockets.asyncio.connection.random", random.Random(2026))
    server, dealer, seq = await make_table(start_server, connect)
    display = await connect(server, "display")
    await display.subscribe(TOURNAMENT, TABLE, since=seq)

    stored, snap = redis_client.hmget(state_key(TOURNAMENT, TABLE), ["seq", "snap"])
    assert int(stored) == seq
    world = World(seq, _state_decoder.decode(snap))
    keys_before = await _table_keys(redis_client)
    fuzzer = Fuzzer(server, world)
    loop = asyncio.get_running_loop()
    clock = time.monotonic()

    def server_fine() -> None:
        assert server.process is not None and server.process.poll() is None
        assert display.reconnects == 0 and display.ws is not None
        assert display.ws.state is State.OPEN

    @settings(
        max_examples=FUZZ_EXAMPLES,
        deadline=None,
        database=None,
        # no shrinking against a live server: a failure names the frame and its answer
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(
        role=roles,
        batch=st.lists(frames, min_size=170, max_size=230),
        oversize=st.one_of(
            st.none(), st.none(), st.none(), st.integers(MAX_FRAME + 1, 3 * MAX_FRAME)
        ),
        firsts=st.lists(first_frames, max_size=4),
        flood=st.one_of(
            st.none(), st.none(), st.none(), st.none(), st.tuples(roles, st.integers(650, 900))
        ),
    )
    def example(
        role: str,
        batch: list[str | bytes],
        oversize: int | None,
        firsts: list[str | bytes],
        flood: tuple[str, int] | None,
    ) -> None:
        async def run() -> None:
            await fuzzer.batch(role, batch, oversize)
            await fuzzer.firsts(firsts)
            if flood is not None:
                flood_role, count = flood
                await fuzzer.flood(flood_role, batch, count)
            assert await healthz(server.port) == 200
            server_fine()

        asyncio.run_coroutine_threadsafe(run(), loop).result()

    await anyio.to_thread.run_sync(example)

    # A flood past the limit: rate_limited answers, then close 1008; the display stays open.
    flooder = await Hostile(server, "floor").open()
    assert flooder.ws is not None
    flood_frame = '{"type": "ping", "nonce": "loud"}'
    limited = sent = 0

    async def pour() -> None:
        """Enough frames to pass the flood limit even if the bucket refills for seconds."""
        nonlocal sent
        assert flooder.ws is not None
        with contextlib.suppress(ConnectionClosed):
            for _ in range(int(FLOOD_LIMIT + BURST + 10 * RATE)):
                await flooder.ws.send(flood_frame)
                sent += 1

    pouring = loop.create_task(pour())
    with pytest.raises(ConnectionClosed) as closed:
        async with asyncio.timeout(REPLY_TIMEOUT):
            while True:
                reply = server_decoder.decode(await flooder.ws.recv())
                assert isinstance(reply, Error) and reply.code in ("rate_limited", "bad_message")
                limited += reply.code == "rate_limited"
    await pouring
    assert closed.value.rcvd is not None, closed.value
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "flood")
    assert limited > 0
    fuzzer.frames += sent
    fuzzer.rate_limited += limited
    assert await healthz(server.port) == 200
    server_fine()

    # Text that is not UTF-8 breaks the websocket protocol itself: 1007 (RFC 6455, 8.1).
    bad_text = await Hostile(server, "dealer").open()
    assert bad_text.ws is not None
    await bad_text.ws.send(b'{"type": "ping", "nonce": 1}\xff', text=True)
    with pytest.raises(ConnectionClosed) as closed:
        async with asyncio.timeout(REPLY_TIMEOUT):
            await bad_text.ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007, closed.value
    fuzzer.frames += 1

    elapsed = time.monotonic() - clock
    checked = sum(fuzzer.codes.values())
    print(
        f"\nhostile frames: {fuzzer.frames} in {elapsed:.1f}s; {checked} checked against their"
        f" exact answer {dict(fuzzer.codes)}; {fuzzer.before_sign_in} before sign-in,"
        f" {fuzzer.oversized} oversized, {fuzzer.rate_limited} rate limited,"
        f" {fuzzer.made_stale} commands the engine would take sent stale"
    )
    assert fuzzer.frames >= MIN_FRAMES
    assert checked >= MIN_FRAMES

    # Nothing changed, nobody else noticed, and the table still plays.
    assert await _table_keys(redis_client) == keys_before
    assert display.reconnects == 0 and dealer.reconnects == 0
    ack = await dealer.command(TOURNAMENT, TABLE, Act(seat=1, declare="call"))
    assert ack.seq > seq
    with anyio.fail_after(10):
        async for message in display.messages():
            assert isinstance(message, Events), message
            assert message.seq == seq + 1
            assert message.seq + len(message.events) - 1 == ack.seq
            break
    for hostiles in fuzzer.pool.values():
        for hostile in hostiles:
            if hostile.ws is not None:
                await hostile.ws.close()


# --- exact answers, and the server bugs found ----------------------------------------------

COMMAND = '{"type": "command", "id": "x", "tournament": "main", "table": "1", "command": %s}'


async def answers(ws: ClientConnection, frame: str) -> list[Any]:
    """What the server says to ``frame``, up to the pong of a ping sent after it; fails if the
    connection closes instead."""
    await ws.send(frame)
    await ws.send('{"type": "ping", "nonce": 424242}')
    replies: list[Any] = []
    async with asyncio.timeout(REPLY_TIMEOUT):
        while True:
            reply = server_decoder.decode(await ws.recv())
            if isinstance(reply, Pong) and reply.nonce == 424242:
                return replies
            replies.append(reply)


SCHEMA_ERRORS = [
    (COMMAND % '{"type": "act", "seat": "three"}', "$.command.seat"),
    (COMMAND % '{"type": "act", "seat": 1, "declare": "shout"}', "$.command.declare"),
    (COMMAND % '{"type": "act", "seat": 1, "amount": -5}', "$.command.amount"),
    (COMMAND % '{"type": "act", "seat": 1, "amount": 0}', "$.command"),
    (COMMAND % '{"type": "act", "seat": 1, "chips": [100, 0]}', "$.command"),
    (
        COMMAND % '{"type": "act", "seat": 1, "declare": "call", "as_played": "yes"}',
        "$.command.as_played",
    ),
    (COMMAND % '{"type": "deal", "street": "eighth"}', "$.command.street"),
    (COMMAND % '{"type": "level", "blinds": [1, 2, 3]}', "$.command.blinds"),
    (COMMAND % '{"type": "start_hand", "cards": {"1": ["As", 3]}}', "$.command.cards[...][1]"),
    (COMMAND % '{"type": "nope"}', "$.command.type"),
    (COMMAND % '{"type": "act"}', "$.command"),
    (COMMAND % "[1]", "$.command"),
    ('{"type": "nope"}', "$.type"),
    ('{"type": 5}', "$.type"),
    ('{"type": "ping", "nonce": 1e999}', "$.nonce"),
    (
        '{"type": "subscribe", "tournament": "main", "tables_since": {"1": "x"}}',
        "$.tables_since[...]",
    ),
    (
        '{"type": "create_table", "id": "c", "tournament": "main", "table": "2", "config":'
        ' {"game": "NLHE", "blinds": [50, 100], "seats": {"1": -5}, "button": 1}}',
        "$.config.seats[...]",
    ),
]


async def test_schema_errors_name_the_field(start_server) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    ws = await Hostile(server, "floor").open()
    assert ws.ws is not None
    for frame, path in SCHEMA_ERRORS:
        replies = await answers(ws.ws, frame)
        assert len(replies) == 1 and isinstance(replies[0], Error), (frame, replies)
        assert (replies[0].code, replies[0].field) == ("bad_message", path), (frame, replies)
    await ws.ws.close()


@pytest.mark.parametrize(
    ("frame", "path"),
    [
        (COMMAND % '{"type": "start_hand", "cards": {"one": ["As"]}}', "$.command.cards"),
        ('{"type": "command", "id": "x", "tournament": "main", "table": "1"}', "$"),
        ("[1, 2]", "$"),
        ('{"type": "ping", "nonce": 1, "extra": 2}', "$"),
    ],
    ids=["dict_key", "missing_field_at_root", "array_at_root", "unknown_field_at_root"],
)
async def test_schema_errors_in_dict_keys_and_at_the_root_name_the_field(
    start_server, frame: str, path: str
) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    ws = await Hostile(server, "floor").open()
    assert ws.ws is not None
    replies = await answers(ws.ws, frame)
    assert len(replies) == 1 and isinstance(replies[0], Error), replies
    assert replies[0].code == "bad_message"
    assert replies[0].field is not None and replies[0].field.startswith(path), replies[0]


STUD_NINE_HANDED = json.dumps(
    {
        "type": "create_tournament",
        "id": "t-1",
        "tournament": "main",
        "name": "Stud",
        "structure": {
            "game": "7S",
            "starting_stack": 5000,
            "payouts": {"curve": "standard"},
            "levels": [
                {"blinds": [0, 0], "ante": 25, "bring_in": 25, "min_bet": 100, "minutes": 20}
            ],
        },
    }
)


@pytest.mark.parametrize(
    ("frame", "asked", "path", "words"),
    [
        (STUD_NINE_HANDED, "t-1", "$.structure.table_size", "7S deals at most 8 hands"),
        (COMMAND % '{"type": "level", "blinds": [200, 100]}', "x", "$.command.blinds", "small"),
        (
            '{"type": "command", "id": "c-7", "tournament": "main", "table": "1", "after": "x",'
            ' "command": {"type": "muck", "seat": 1}}',
            "c-7",
            "$.after",
            "Expected `int | null`",
        ),
        (
            '{"type": "command", "id": 7, "tournament": "main", "table": "1",'
            ' "command": {"type": "muck", "seat": 1}}',
            None,
            "$.id",
            "Expected `str`",
        ),
    ],
    ids=["structure_check", "level_check", "schema", "id_not_a_string"],
)
async def test_an_unreadable_request_is_refused_by_its_id_naming_the_field_of_a_check(
    start_server, frame: str, asked: str | None, path: str, words: str
) -> None:  # type: ignore[no-untyped-def]
    """A request that does not decode is answered with its own id (when it has a readable
    one), so the station knows which of its requests was refused; a check inside a struct (a
    structure's table size, a level's blinds) names its field under the struct's path, and
    its words say why."""
    server = start_server()
    ws = await Hostile(server, "admin").open()
    assert ws.ws is not None
    replies = await answers(ws.ws, frame)
    assert len(replies) == 1 and isinstance(replies[0], Error), replies
    error = replies[0]
    assert (error.code, error.id, error.field) == ("bad_message", asked, path), error
    assert words in error.message and error.message.endswith(f"- at `{path}`"), error.message
    await ws.ws.close()


def _nested(depth: int) -> str:
    return '{"x": ' + "[" * depth + "]" * depth + ', "type": "ping"}'


async def test_deeply_nested_json_is_refused_not_crashing(start_server) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    ws = await Hostile(server, "floor").open()
    assert ws.ws is not None
    replies = await answers(ws.ws, _nested(5000))  # 10 kB, far under the frame limit
    assert [type(r) for r in replies] == [Error], replies
    assert replies[0].code in ("bad_json", "bad_message")


async def test_deeply_nested_json_before_sign_in_is_refused(start_server) -> None:  # type: ignore[no-untyped-def]
    server = start_server()
    await first_frame(server, _nested(5000), "bad_message")


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "subscribe", "tournament": "main", "table": "1", "since": -5}',
        '{"type": "subscribe", "tournament": "main", "tables_since": {"1": -7}}',
        pytest.param(
            '{"type": "subscribe", "tournament": "main", "table": "1",'
            ' "since": 18446744073709551615}',
        ),
        pytest.param(
            '{"type": "subscribe", "tournament": "main",'
            ' "tables_since": {"1": 10000000000000000000000}}',
        ),
    ],
    ids=["negative", "tables_since_negative", "u64_max", "tables_since_huge"],
)
async def test_subscribing_from_a_bad_since_is_answered_not_crashing(
    start_server, connect, frame: str
) -> None:  # type: ignore[no-untyped-def]
    server, _, _ = await make_table(start_server, connect)
    ws = await Hostile(server, "floor").open()
    assert ws.ws is not None
    replies = await answers(ws.ws, frame)  # an error, or the table from its start
    assert replies and all(isinstance(r, Error | Events | Snapshot) for r in replies), replies


@pytest.mark.parametrize(
    ("role", "command"),
    [
        (
            "dealer",
            '{"type": "act", "seat": 1, "declare": "call", "at": 1000000000000000000000000000000}',
        ),
        ("dealer", '{"type": "act", "seat": 1, "chips": [1000000000000000000000000000000]}'),
        ("dealer", '{"type": "time", "at": 1000000000000000000000000000000}'),
        ("floor", '{"type": "level", "blinds": [50, 1000000000000000000000000000000]}'),
    ],
    ids=["act_at", "act_chips", "time_at", "level_blinds"],
)
async def test_out_of_range_integers_in_a_command_are_answered_not_crashing(
    start_server, connect, redis_client, role: str, command: str
) -> None:  # type: ignore[no-untyped-def]
    server, _, seq = await make_table(start_server, connect)
    ws = await Hostile(server, role).open()
    assert ws.ws is not None
    replies = await answers(ws.ws, COMMAND % command)
    assert len(replies) == 1, replies
    if isinstance(replies[0], Error):  # refused (bad_message / illegal): nothing changed
        assert int(redis_client.hget(state_key(TOURNAMENT, TABLE), "seq")) == seq
    else:
        assert replies[0].seq > seq, replies  # or taken and stored


@pytest.mark.parametrize(
    "command",
    [
        '{"type": "level", "blinds": [200, 100]}',
        '{"type": "level", "blinds": [50, 100], "ante": -1}',
    ],
    ids=["small_over_big", "negative_ante"],
)
async def test_a_level_the_config_rejects_is_refused_not_crashing(
    start_server, connect, redis_client, command: str
) -> None:  # type: ignore[no-untyped-def]
    server, _, seq = await make_table(start_server, connect)
    ws = await Hostile(server, "floor").open()
    assert ws.ws is not None
    replies = await answers(ws.ws, COMMAND % command)
    assert len(replies) == 1 and isinstance(replies[0], Error), replies
    assert replies[0].code in ("bad_message", "illegal"), replies
    assert int(redis_client.hget(state_key(TOURNAMENT, TABLE), "seq")) == seq
