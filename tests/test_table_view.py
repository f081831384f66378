"""The typed table view of a snapshot (issue 10): every state of every test hand gives a view
that decodes, loads in the web station's model, and shows a display no hole card the rules
have not exposed.

The corpus is every hand the engine's own tests play through ``tests.support.play``: while the
test functions run, ``play`` records each scenario it is given (and still plays it). Each
scenario is then applied command by command, and after every event both views are built,
encoded as the ``snapshot`` frame and decoded with the stations' wire decoder. The public view
may hold a seat's cards only when that seat's hand is exposed: shown (14-A), live at an all-in
exposure (17), or the cards shown so far of a partly shown hand (16-A). All distinct views are
then loaded by ``clients/web/js/table.js`` (``TableModel.loadSnapshot``) under Node, with the
helpers the stations render from.
"""

from __future__ import annotations

import importlib
import inspect
import json
import shutil
import subprocess
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import msgspec
import pytest

from protocol import Corrected, Event, Recorded, Show, decode_scenario
from protocol.views import PublicTableView, TableView
from protocol.wire import Snapshot, server_decoder
from server.engine import TableState, apply, evolve, new_table
from server.engine.state import Seat
from server.views import public_events, public_view, snapshot_message, staff_view
from tests import support
from tests.support import last, play
from tests.test_seed_common import act, table

ROOT = Path(__file__).resolve().parents[1]
NODE = shutil.which("node")
_copy = msgspec.msgpack.Decoder(TableState)
Scenario = tuple[dict[str, Any], list[dict[str, Any]]]
CORPUS_SKIPPED = {
    "tests.test_table_view",
    "tests.test_properties",  # random hands drive the engine directly, not through play
    "tests.test_differential_pokerkit",
    "tests.test_differential_stud",  # 1,200 random hands through its own lockstep, not play
    "tests.test_differential_draw",  # 2,000 random draw hands through its own lockstep
    "tests.test_phh_replay",
    "tests.test_engine_imports",
}


# --- the corpus: every hand the engine's tests play ----------------------------------------


@contextmanager
def recording(into: list[Scenario]) -> Iterator[None]:
    """``play`` records what it is given, in every test module that imported it."""
    real = support.play

    def recorder(config: dict[str, Any], commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        events = real(config, commands)
        into.append((json.loads(json.dumps(config)), json.loads(json.dumps(commands))))
        return events

    modules = [m for m in _test_modules() if getattr(m, "play", None) is real]
    for module in modules:
        module.play = recorder  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module in modules:
            module.play = real  # type: ignore[attr-defined]


def _test_modules() -> list[types.ModuleType]:
    names = sorted(f"tests.{p.stem}" for p in (ROOT / "tests").glob("test_*.py"))
    return [importlib.import_module(n) for n in names if n not in CORPUS_SKIPPED]


def _calls(fn: Callable[..., Any]) -> list[tuple[Any, ...]]:
    """The argument lists a test function is run with: none, or its ``parametrize`` cases."""
    marks = [m for m in getattr(fn, "pytestmark", []) if m.name == "parametrize"]
    if not marks:
        return [()] if not inspect.signature(fn).parameters else []
    names, cases = marks[0].args[:2]
    single = isinstance(names, str) and "," not in names
    return [(case,) if single else tuple(case) for case in cases]


@cache
def corpus() -> tuple[Scenario, ...]:
    """Every scenario the engine's tests play. A test failing in its own area still recorded
    what it played: its verdict is its own module's business, not this one's."""
    found: list[Scenario] = []
    with recording(found):
        for module in _test_modules():
            for name, fn in sorted(vars(module).items()):
                if not name.startswith("test_") or not inspect.isfunction(fn):
                    continue
                if inspect.iscoroutinefunction(fn):
                    continue  # the service's own tests (an event loop, no table played)
                for args in _calls(fn):
                    try:
                        fn(*args)
                    except Exception:
                        continue
    return tuple(found)


# --- the walk ------------------------------------------------------------------------------


def steps(
    config: dict[str, Any], commands: list[dict[str, Any]]
) -> Iterator[tuple[Event | None, TableState]]:
    """Each event of the scenario, command by command, with the table right after it."""
    scenario = decode_scenario(json.dumps({"config": config, "commands": commands}))
    state = new_table(scenario.config)
    yield None, state
    for command in scenario.commands:
        after, events = apply(state, command)
        walk = _copy.decode(msgspec.msgpack.encode(state))
        for event in events:
            evolve(walk, event)
            yield event, walk
        state = after


def states(config: dict[str, Any], commands: list[dict[str, Any]]) -> Iterator[TableState]:
    return (state for _, state in steps(config, commands))


def public_cards(state: TableState, seat: Seat) -> set[str]:
    """What the rules put face up of a seat's hand, stated independently of server/views.py."""
    live = seat.dealt and not seat.folded and not seat.mucked
    if seat.shown or (state.exposed and live):
        return set(seat.cards)
    return set(seat.face_up)


def frame(view: TableView | PublicTableView, seq: int) -> tuple[bytes, Snapshot]:
    raw = msgspec.json.encode(Snapshot("main", "1", seq, view))
    decoded = server_decoder.decode(raw)
    assert isinstance(decoded, Snapshot)
    return raw, decoded


def check_state(state: TableState, seq: int) -> tuple[bytes, bytes]:
    """Both views of one state decode as sent; the public one hides what is not exposed."""
    staff, public = staff_view(state), public_view(state)
    raw_staff, got_staff = frame(staff, seq)
    raw_public, got_public = frame(public, seq)
    assert got_staff.state == staff and isinstance(got_staff.state, TableView)
    assert got_public.state == public and isinstance(got_public.state, PublicTableView)
    board = set(state.board)
    seats = sorted([*state.seats, *state.arrived], key=lambda s: s.number)  # arrived: 9-A
    allowed = board.union(*(public_cards(state, s) for s in seats))
    for seat, shown in zip(seats, public.seats, strict=True):
        assert set(shown.cards) <= public_cards(state, seat), (seat, shown)
    for seat, view in zip(seats, staff.seats, strict=True):
        assert view.cards == list(seat.cards)
    hidden = {c for s in state.seats for c in s.cards} - allowed
    leaked = [c for c in hidden if f'"{c}"'.encode() in raw_public]
    assert not leaked, f"hole cards {leaked} reach a display: {raw_public.decode()}"
    return raw_staff, raw_public


NODE_CHECK = r"""
import { readFileSync } from "node:fs";
import { TableModel, callText } from "./table.js";
import { seatLabel, seatState, clockLeft } from "./ui.js";
globalThis.location = new URL("http://station.test/display.html");
const failures = [];
const lines = readFileSync(process.argv[2], "utf8").split("\n").filter(Boolean);
for (const line of lines) {
  const { seq, state } = JSON.parse(line);
  try {
    const model = new TableModel("main", "1");
    model.loadSnapshot(state, seq);
    const v = model.view;
    const texts = [model.waitingOn, model.levelText(), String(model.potWithBets),
      ...model.openCalls.map(callText), clockLeft(v.clock, 0), String(model.chipSet)];
    for (const s of v.seats) texts.push(seatState(v, s), seatLabel(v, s));
    if (v.seats.length !== state.seats.length) throw new Error("seats lost");
    if (v.floor.length !== state.floor.length) throw new Error("floor calls lost");
    const floor = state.phase === "floor" && state.floor.some((c) => c.blocking);
    if (floor && !model.waitingOn.startsWith("Floor: call")) throw new Error(model.waitingOn);
    v.seats.forEach((s, i) => {
      const sent = state.seats[i].cards;
      if (JSON.stringify(s.cards) !== JSON.stringify(sent)) throw new Error("cards changed");
    });
    if (texts.some((t) => typeof t !== "string" || t.includes("undefined") || t.includes("NaN")))
      throw new Error(`bad text ${JSON.stringify(texts)}`);
    TableModel.fromJSON(JSON.parse(JSON.stringify(model.toJSON())));
  } catch (error) {
    failures.push({ seq, error: String(error), state });
    if (failures.length >= 5) break;
  }
}
console.log(JSON.stringify({ checked: lines.length, failures }));
"""


def web_model_failures(frames: list[bytes], work: Path) -> dict[str, Any]:
    """Load every snapshot frame in the web station's model (Node) and collect what throws."""
    assert NODE is not None
    js = work / "js"
    shutil.copytree(ROOT / "clients" / "web" / "js", js)
    (js / "package.json").write_text('{"type": "module"}')
    (js / "check.js").write_text(NODE_CHECK)
    feed = work / "views.jsonl"
    feed.write_bytes(b"\n".join(frames))
    done = subprocess.run(
        [NODE, str(js / "check.js"), str(feed)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return dict(json.loads(done.stdout))


# --- the tests -----------------------------------------------------------------------------


UNDER_CALL = table({1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000}, button=1, blinds=(100, 200))
"""Four seats: seat 4 acts first pre-flop, seat 1 is the button."""


def under_call_waits_for_the_floor() -> list[dict[str, Any]]:
    """Seat 4 raises to 1,200 by chips; seat 1 silently puts in 200: an under-call (53-B)."""
    return [
        {"type": "start_hand"},
        act(4, chips=[1000, 100, 100]),
        act(1, chips=[100, 100]),
    ]


def final_state(config: dict[str, Any], commands: list[dict[str, Any]]) -> TableState:
    *_, state = states(config, commands)
    return state


def test_a_snapshot_taken_while_the_table_waits_for_the_floor_names_the_open_call() -> None:
    commands = under_call_waits_for_the_floor()
    assert last(play(UNDER_CALL, commands), "floor_call")["rule"] == "53-B"
    state = final_state(UNDER_CALL, commands)
    assert state.phase == "floor"
    for view in (staff_view(state), public_view(state)):
        _, sent = frame(view, 3)
        got = msgspec.to_builtins(sent.state)
        assert got["phase"] == "floor"
        assert got["waiting_on"] == "floor: call 1, seat 1 (53-B)"
        [call] = got["floor"]
        assert {k: call[k] for k in ("call", "seat", "rule", "blocking")} == {
            "call": 1,
            "seat": 1,
            "rule": "53-B",
            "blocking": True,
        }
        assert "call" in call["options"]


ALL_IN = table({1: 50_000, 2: 5_000, 3: 5_000}, button=1, blinds=(100, 200))
HOLES = {"1": ["Ah", "Ad"], "2": ["Kh", "Kd"], "3": ["Qh", "Qd"]}


def test_17_a_folded_seat_stays_face_down_when_the_all_in_hands_are_turned_up() -> None:
    """Seat 1 raises and folds to the all-ins of seats 2 and 3: only their hands are turned up
    (17), and a display reloaded during the run-out sees those, never seat 1's."""
    commands = [
        {"type": "start_hand", "cards": HOLES},
        act(1, "raise", 1_000),
        act(2, "raise", 5_000),
        act(3, "call"),
        act(1, "fold"),
    ]
    events = play(ALL_IN, commands)
    assert last(events, "expose_all")
    state = final_state(ALL_IN, commands)
    assert state.exposed
    seats = {s.seat: s for s in public_view(state).seats}
    assert seats[1].cards == [] and not seats[1].exposed
    assert seats[2].cards == ["Kh", "Kd"] and seats[2].exposed
    assert seats[3].cards == ["Qh", "Qd"] and seats[3].exposed
    assert {s.seat: s.cards for s in staff_view(state).seats}[1] == ["Ah", "Ad"]
    check_state(state, len(events))


def test_14_a_a_tabled_hand_is_public_and_a_hand_not_yet_shown_is_not() -> None:
    config = table({1: 10_000, 2: 10_000}, button=1, blinds=(100, 200))
    commands: list[dict[str, Any]] = [
        {"type": "start_hand", "cards": {"1": ["Ah", "Ad"], "2": ["Kh", "Kd"]}},
        act(1, "call"),
        act(2, "check"),
    ]
    for street, cards in (("flop", ["2c", "7d", "9s"]), ("turn", ["Jc"]), ("river", ["3h"])):
        commands += [{"type": "deal", "street": street, "cards": cards}, act(2, "check")]
        commands.append(act(1, "check"))
    commands.append({"type": "show", "seat": 2, "cards": ["Kh", "Kd"]})
    state = final_state(config, commands)
    seats = {s.seat: s for s in public_view(state).seats}
    assert seats[2].cards == ["Kh", "Kd"] and seats[2].shown
    assert seats[1].cards == []


def test_snapshot_frames_are_encoded_once_per_table_event_and_view() -> None:
    state = final_state(UNDER_CALL, under_call_waits_for_the_floor())
    public = snapshot_message("main", "view-cache", 3, state, public=True)
    assert snapshot_message("main", "view-cache", 3, state, public=True) is public
    staff = snapshot_message("main", "view-cache", 3, state, public=False)
    assert staff is not public
    assert server_decoder.decode(public) == Snapshot("main", "view-cache", 3, public_view(state))
    assert server_decoder.decode(staff) == Snapshot("main", "view-cache", 3, staff_view(state))


def test_the_corpus_reaches_floor_calls_out_of_turn_penalties_corrections_and_exposures() -> None:
    """The walk covers the states the issue names: floor calls open (blocking or not), actions
    out of turn pending, penalties, corrections, clocks, partial shows, and all-in exposures
    with a folded seat at the table."""
    seen: set[str] = set()
    for config, commands in corpus():
        for event, state in steps(config, commands):
            seen |= {
                name
                for name, hit in (
                    ("floor", bool(state.floor)),
                    ("notice", bool(state.notices)),
                    ("out_of_turn", bool(state.pending)),
                    ("penalty", bool(state.penalties)),
                    ("correction", isinstance(event, Corrected)),
                    ("exposed_with_fold", state.exposed and any(s.folded for s in state.seats)),
                    ("face_up", any(s.face_up for s in state.seats)),
                    ("clock", state.clock is not None),
                )
                if hit
            }
    assert seen == {
        "floor",
        "notice",
        "out_of_turn",
        "penalty",
        "correction",
        "exposed_with_fold",
        "face_up",
        "clock",
    }


@pytest.mark.skipif(NODE is None, reason="Node.js is not installed (apt-get install nodejs)")
def test_every_event_of_every_test_hand_gives_a_view_that_decodes_renders_and_hides_cards(
    tmp_path: Path,
) -> None:
    frames: dict[bytes, None] = {}
    scenarios = corpus()
    assert len(scenarios) > 200
    for config, commands in scenarios:
        for seq, state in enumerate(states(config, commands)):
            staff, public = check_state(state, seq)
            frames[_state_line(staff)] = None
            frames[_state_line(public)] = None
    result = web_model_failures(list(frames), tmp_path)
    assert result["checked"] == len(frames)
    assert result["failures"] == []


def _state_line(raw: bytes) -> bytes:
    """``{"seq", "state"}`` of a snapshot frame, as the web station's feed hands it on."""
    message = json.loads(raw)
    return json.dumps({"seq": message["seq"], "state": message["state"]}).encode()


def _hidden(state: TableState) -> set[str]:
    """The cards of the seats' hands that the rules have not exposed in this state."""
    seats = [*state.seats, *state.arrived]
    allowed = set(state.board).union(*(public_cards(state, s) for s in seats))
    return {c for s in seats for c in s.cards} - allowed - {"??"}


def test_the_event_stream_a_display_is_sent_carries_no_card_the_rules_have_not_exposed() -> None:
    """The same corpus, event by event through the display's filter (``public_events``): a
    card still hidden after the event, or after the command that made it, is not in the frame.
    The record of a ``show`` comes just before the ``shown`` event that exposes its cards."""
    checked = 0
    for config, commands in corpus():
        scenario = decode_scenario(json.dumps({"config": config, "commands": commands}))
        state = new_table(scenario.config)
        for command in scenario.commands:
            after, events = apply(state, command)
            walk = _copy.decode(msgspec.msgpack.encode(state))
            for event in events:
                evolve(walk, event)
                if isinstance(event, Recorded) and isinstance(event.command, Show):
                    continue
                hidden = _hidden(walk) | _hidden(after)
                (sent,) = public_events([msgspec.json.encode(event)])
                raw = msgspec.json.encode(sent)
                leaked = sorted(c for c in hidden if f'"{c}"'.encode() in raw)
                assert not leaked, f"{leaked} reach a display in {raw.decode()}"
                checked += 1
            state = after
    assert checked > 10_000
