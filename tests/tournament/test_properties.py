"""Property: over random tournaments — registrations, seat draws, re-entries, levels, hands
played to eliminations — chips are conserved (the tables' stacks are the chips in play at
every hand boundary), every player is in exactly one place (seated at one seat the table also
has, out with a place once registration closed, or not yet seated), and the tournament's log
rebuilds its state."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol.tournament import TournamentError
from server.tournament import rebuild
from server.tournament_replay import TableLine
from tests.tournament.support import Session, conserved, structure, t

PLAYERS = [f"p{i}" for i in range(10)]


def _struct() -> dict[str, Any]:
    return structure(
        late_registration_until=2,
        reentry_until=2,
        payouts={"curve": "standard"},
        levels=[
            {"blinds": [50, 100], "minutes": 10},
            {"blinds": [100, 200], "ante": 200, "bba": True, "minutes": 10},
            {"blinds": [500, 1000], "minutes": 10},
        ],
    )


def _check(s: Session) -> None:
    replay = s.replay
    state = replay.state
    if all(table.phase == "idle" for table in replay.tables.values()):
        assert conserved(replay)
    at_tables = {(tid, seat.number) for tid, table in replay.tables.items() for seat in table.seats}
    held = {(tid, n) for tid, tab in state.tables.items() for n in tab.occupied}
    assert at_tables == held, "the tables and the tournament agree on every seat"
    for p in state.players.values():
        seated = [
            (tid, n)
            for tid, tab in state.tables.items()
            for n, w in tab.occupied.items()
            if w == p.player
        ]
        if p.status == "seated":
            assert seated == [(p.table, p.seat)]
        else:
            assert seated == [] and p.table is None
        if p.status == "eliminated":
            result = next(r for r in p.results if r.entry == p.entry)
            assert (result.place > 0) == state.closed or result.how == "forfeited"
    log = [x for x in replay.lines if not isinstance(x, TableLine | TournamentError)]
    assert not [x for x in log if x.__struct_config__.tag == "chips_miscounted"]
    rebuilt = rebuild(state.structure, log, state.id)
    assert msgspec.to_builtins(rebuilt) == msgspec.to_builtins(state)


def _play(s: Session, data: st.DataObject, now: int) -> None:
    playing = [tid for tid, tab in s.replay.tables.items() if len(tab.seats) >= 2]
    if not playing:
        return
    tid = data.draw(st.sampled_from(playing))
    seats = [seat.number for seat in s.replay.tables[tid].seats]
    shove = data.draw(st.lists(st.sampled_from(seats), unique=True), label="all-in")
    order = data.draw(st.permutations(seats), label="best hands")
    s.now = now
    s.hand(tid, dict.fromkeys(shove, "all_in"), list(order))


def _enter(s: Session, data: st.DataObject, who: str, first: bool) -> None:
    kind = "register" if first else "reenter"
    s.do(t({"type": kind, "player": who}))
    s.do(t({"type": "seat", "player": who, "draw": data.draw(st.integers(0, 10**6))}))


OPS = ["hand", "hand", "hand", "late", "reenter", "wait", "tick", "next", "unregister"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_tournaments_conserve_chips_place_everyone_once_and_rebuild(
    data: st.DataObject,
) -> None:
    sizes = data.draw(st.lists(st.integers(2, 6), min_size=1, max_size=3), label="tables")
    s = Session(_struct(), [{"id": str(i + 1), "seats": n} for i, n in enumerate(sizes)])
    first = data.draw(st.integers(2, 6), label="players at the start")
    for who in PLAYERS[:first]:
        _enter(s, data, who, first=True)
    _check(s)
    now = 0
    s.do(t({"type": "start_clock"}, at=now))
    for _ in range(data.draw(st.integers(5, 25), label="steps")):
        op = data.draw(st.sampled_from(OPS))
        who = data.draw(st.sampled_from(PLAYERS))
        if op == "hand":
            _play(s, data, now)
        elif op == "late":
            _enter(s, data, who, first=True)
        elif op == "reenter":
            _enter(s, data, who, first=False)
        elif op == "wait":
            s.do(t({"type": "register", "player": who}))
        elif op == "unregister":
            s.do(t({"type": "unregister", "player": who}))
        elif op == "tick":
            now += data.draw(st.integers(0, 700_000))
            s.do(t({"type": "time"}, at=now))
        else:
            s.do(t({"type": "next_level"}, at=now))
        _check(s)
