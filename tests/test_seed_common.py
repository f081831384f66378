"""Shared set-up for the seed example tests (tests/test_seed_*.py); holds no tests itself.

Every seed example is played through the replay commands (``support.play``): a table is set,
the hand is brought to the example's street by calls and checks, and the example is then
recorded exactly as the dealer would see it. Seat numbers are mapped to the example's letters
in each test.
"""

from __future__ import annotations

from typing import Any

from tests.support import last, of_type, play

#: Denominations on the table for most examples (the examples' chips must exist).
CHIPS = [25, 100, 500, 1000, 5000, 25000]

Cmd = dict[str, Any]
Event = dict[str, Any]
DEEP = 100_000
"""Stacks deep enough that no example runs anyone out of chips."""


def last_command(events: list[Event]) -> list[Event]:
    """The events of the last command recorded: what its ruling emitted."""
    starts = [i for i, e in enumerate(events) if e["type"] == "recorded"]
    return events[starts[-1] :]


def ruling(call: Event, option: str) -> Cmd:
    """The floor's answer to a ``floor_call`` event."""
    return {"type": "ruling", "call": call["call"], "option": option}


def table(
    stacks: dict[int, int],
    button: int,
    blinds: tuple[int, int],
    game: str = "NLHE",
    chips: list[int] | None = None,
    ante: int = 0,
) -> dict[str, Any]:
    return {
        "game": game,
        "blinds": list(blinds),
        "ante": ante,
        "bba": False,
        "button": button,
        "chips": list(chips or CHIPS),
        "seats": {str(seat): stack for seat, stack in stacks.items()},
    }


def _after(seats: list[int], seat: int) -> int:
    later = [s for s in seats if s > seat]
    return later[0] if later else seats[0]


def positions(config: dict[str, Any]) -> tuple[int, int, list[int], list[int]]:
    """(small blind, big blind, pre-flop order, post-flop order) of the first hand."""
    seats = sorted(int(s) for s in config["seats"])
    button = config["button"]
    sb = button if len(seats) == 2 else _after(seats, button)
    bb = _after(seats, sb)
    pre, post = [], []
    s = bb
    for _ in seats:
        s = _after(seats, s)
        pre.append(s)
    s = button
    for _ in seats:
        s = _after(seats, s)
        post.append(s)
    return sb, bb, pre, post


def act(seat: int, declare: str | None = None, amount: int | None = None, **extra: Any) -> Cmd:
    cmd: Cmd = {"type": "act", "seat": seat}
    if declare is not None:
        cmd["declare"] = declare
    if amount is not None:
        cmd["amount"] = amount
    cmd.update(extra)
    return cmd


def chips(seat: int, *pushed: int, prior: str | None = None) -> Cmd:
    """Chips pushed forward silently."""
    cmd = act(seat, chips=list(pushed))
    if prior is not None:
        cmd["prior"] = prior
    return cmd


def deal(street: str) -> Cmd:
    return {"type": "deal", "street": street}


def limp_preflop(config: dict[str, Any]) -> list[Cmd]:
    """Everyone calls the big blind, which checks."""
    _, bb, pre, _ = positions(config)
    return [act(s, "check" if s == bb else "call") for s in pre]


def check_around(config: dict[str, Any]) -> list[Cmd]:
    _, _, _, post = positions(config)
    return [act(s, "check") for s in post]


def to_flop(config: dict[str, Any]) -> list[Cmd]:
    return [{"type": "start_hand"}, *limp_preflop(config), deal("flop")]


def to_turn(config: dict[str, Any]) -> list[Cmd]:
    return [*to_flop(config), *check_around(config), deal("turn")]


def run(config: dict[str, Any], commands: list[Cmd]) -> list[Event]:
    """Play the scenario; every command must be accepted."""
    events = play(config, commands)
    errors = of_type(events, "error")
    assert not errors, f"the engine refused a command: {errors}"
    return events


def actions_of(events: list[Event], seat: int) -> list[Event]:
    return [e for e in of_type(events, "action") if e["seat"] == seat]


def action_of(events: list[Event], seat: int) -> Event:
    """The seat's last action event."""
    found = actions_of(events, seat)
    assert found, f"no action event for seat {seat}"
    return found[-1]


def prompt_for(events: list[Event], seat: int) -> Event:
    """The last prompt, which must be addressed to ``seat`` (the seat now to act)."""
    p = last(events, "prompt")
    assert p["seat"] == seat, f"the last prompt is for seat {p['seat']}, not seat {seat}: {p}"
    return p


def with_ruling(
    config: dict[str, Any], commands: list[Cmd], option: str, after: list[Cmd] | None = None
) -> tuple[Event, list[Event]]:
    """Play up to a floor call, then answer it with ``option`` and play ``after``."""
    first = run(config, commands)
    call = last(first, "floor_call")
    ruling = {"type": "ruling", "call": call["call"], "option": option}
    return call, run(config, [*commands, ruling, *(after or [])])


def index_of(events: list[Event], predicate: Any) -> int:
    for i, e in enumerate(events):
        if predicate(e):
            return i
    raise AssertionError("no such event")


def assert_ruling(
    event: Event,
    action: str,
    total: int,
    *,
    rules: tuple[str, ...] = (),
    returned: int | None = None,
    all_in: bool | None = None,
) -> None:
    got = {k: event.get(k) for k in ("action", "total", "returned", "all_in", "rules")}
    assert event["action"] == action, got
    assert event["total"] == total, got
    if returned is not None:
        assert event["returned"] == returned, got
    if all_in is not None:
        assert event["all_in"] == all_in, got
    for rule in rules:
        assert rule in event["rules"], f"rule {rule} not cited: {got}"
