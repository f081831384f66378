"""Property: over random tournaments — registrations, seat draws, re-entries, levels, hands
played to eliminations — chips are conserved (the tables' stacks are the chips in play at
every hand boundary), every player is in exactly one place (seated at one seat the table also
has, out with a place once registration closed, or not yet seated), and the tournament's log
rebuilds its state. And across tables — balancing moves proposed and confirmed (made at once,
or held until a hand ends), dismissed, tables broken, late entries — the same, and no player
moved by balancing misses or doubles a big blind because of the move, read from the tables'
``hand_start`` events (12-A)."""

from __future__ import annotations

from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import HandStart
from protocol.tournament import (
    ChipsRemoved,
    Disqualified,
    Eliminated,
    FinalTableDrawn,
    Moved,
    Seated,
    TableOpened,
    TournamentError,
    Unregistered,
)
from server.tournament import drawn_seat, has_seat, pool, rebuild
from server.tournament.breaks import free_count, free_seats
from server.tournament_replay import TableLine
from tests.tournament.support import Session, conserved, structure, t, table

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
    at_tables = {
        (tid, seat.number)
        for tid, table in replay.tables.items()
        for seat in [*table.seats, *getattr(table, "arrived", [])]
    }
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
    for tid in state.tables:  # the counts read at every hand end, against the seats listed
        assert free_count(state, tid) == sum(len(x) for x in free_seats(state, tid).values())
    seats = pool(state)  # the draw's count of the pool, and its pick, against the seats listed
    assert has_seat(state) == bool(seats)
    for draw in (0, 7, 1_000_003):
        picked = (*seats[draw % len(seats)], len(seats)) if seats else None
        assert drawn_seat(state, draw) == picked


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


# --- across tables: balancing, breaks, moves -----------------------------------------------

MANY = [f"q{i}" for i in range(24)]


def _roles(lines: list[Any]) -> dict[str, list[tuple[str, str, int]]]:
    """Each player's hands, in order, from the tables' ``hand_start`` events: (table, role,
    hand) with role ``bb``, ``sb``, ``button`` or ``hand`` (dealt, no blind), ``heads_up`` for a
    hand of two; and ``moved:<kind>`` where the tournament moved them, after that table's
    ``hand``."""
    where: dict[tuple[str, int], str] = {}
    last: dict[str, int] = {}
    seats: dict[str, int] = {}
    seen: dict[str, list[tuple[str, str, int]]] = {}

    def arrive(who: str, table: str, seat: int, kind: str) -> None:
        # The last free seat of a table leaves no choice of position: ``moved:<kind>:last``.
        free = seats.get(table, 10) - sum(1 for t, _ in where if t == table)
        where[(table, seat)] = who
        tag = f"moved:{kind}" + (":last" if free == 1 else "")
        seen.setdefault(who, []).append((table, tag, last.get(table, 0)))

    for line in lines:
        if isinstance(line, TableLine):
            e = line.event
            if isinstance(e, HandStart):
                last[line.table] = e.hand
                for seat in e.dealt:
                    who = where.get((line.table, seat))
                    if who is None:
                        continue
                    role = (
                        "heads_up"
                        if len(e.dealt) == 2
                        else "bb"
                        if seat == e.big_blind
                        else "sb"
                        if seat == e.small_blind
                        else "button"
                        if seat == e.button
                        else "hand"
                    )
                    seen.setdefault(who, []).append((line.table, role, e.hand))
        elif isinstance(line, TableOpened):
            seats[line.table] = line.seats
        elif isinstance(line, Seated):
            where[(line.table, line.seat)] = line.player
        elif isinstance(line, Eliminated | Disqualified | Unregistered | ChipsRemoved):
            gone = not isinstance(line, ChipsRemoved) or line.kind == "forfeit"
            if gone and line.table is not None and line.seat is not None:
                where.pop((line.table, line.seat), None)
        elif isinstance(line, Moved):
            where.pop((line.from_table, line.from_seat), None)
            arrive(line.player, line.table, line.seat, line.kind)
        elif isinstance(line, FinalTableDrawn):
            for table, seat in line.came_from.values():
                where.pop((table, seat), None)
            for who, seat in line.seats.items():
                arrive(who, line.table, seat, "final")
    return seen


def _no_big_blind_missed_or_doubled(lines: list[Any]) -> None:
    """12-A, from the tables' hand starts: a player moved by balancing did not post the big
    blind in the last hand before the move (he was the next to), and at the new table his
    first blind is the big blind — he neither pays it twice nor rides the button and the small
    blind before paying it (heads-up hands, where the button is the small blind, aside, and a
    table's first hand, dealt from its button: not judged). When
    several players arrive at one table between two of its hands only one of them can have the
    worst position: the check is for a player who arrived alone, to a table with a choice of
    seats (not its last free one)."""
    roles = _roles(lines)
    arrivals: dict[tuple[str, int], int] = {}
    for hands in roles.values():
        for tid, role, hand in hands:
            if role.startswith("moved"):
                arrivals[(tid, hand)] = arrivals.get((tid, hand), 0) + 1
    for who, hands in roles.items():
        for i, (tid, role, hand) in enumerate(hands):
            if role != "moved:balance" or arrivals[(tid, hand)] > 1:
                continue
            # His hands at the table he leaves, since he sat there (a break or an earlier move
            # that brought him is another move's doing).
            since = [j for j, (_, r, _) in enumerate(hands[:i]) if r.startswith("moved")]
            before = [r for _, r, _ in hands[(since[-1] + 1 if since else 0) : i]]
            if before:
                assert before[-1] != "bb", f"{who} posted the big blind just before the move"
            for _, after, number in hands[i + 1 :]:
                if after.startswith("moved") or after == "heads_up":
                    break
                if after == "button" and number == 1:
                    # A table's first hand deals from its button: with every other free seat
                    # posting its first small blind, the button's seat is the one a newcomer
                    # posts the big blind from soonest (positions._first_hand_worst). Not judged.
                    break
                if after in ("bb", "sb", "button"):
                    assert after == "bb", f"{who} got {after} before the big blind: {hands}"
                    break


def _check_across(s: Session) -> None:
    _check(s)
    _no_big_blind_missed_or_doubled(s.replay.lines)


OPS_ACROSS = [
    "hand", "hand", "hand", "hand", "start", "finish", "confirm", "confirm", "confirm",
    "dismiss", "break", "late",
]  # fmt: skip


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_balancing_and_breaks_conserve_chips_place_everyone_once_and_never_skip_a_blind(
    data: st.DataObject,
) -> None:
    sizes = data.draw(st.lists(st.integers(4, 9), min_size=2, max_size=4), label="tables")
    s = Session(_struct(), [{"id": str(i + 1), "seats": n} for i, n in enumerate(sizes)])
    count = data.draw(st.integers(4, min(len(MANY), sum(sizes) - 1)), label="players")
    for who in MANY[:count]:
        _enter(s, data, who, first=True)
    s.do(t({"type": "start_clock"}, at=0))
    late = iter(MANY[count:])
    for _ in range(data.draw(st.integers(10, 40), label="steps")):
        op = data.draw(st.sampled_from(OPS_ACROSS))
        tables = sorted(s.replay.tables)
        tid = data.draw(st.sampled_from(tables))
        if op == "hand":
            _play(s, data, 0)
        elif op == "start":
            s.do(table(tid, {"type": "start_hand"}))
        elif op == "finish" and s.replay.tables[tid].phase != "idle":
            s.play_on(tid)
        elif op in ("confirm", "dismiss") and s.replay.state.proposals:
            number = data.draw(st.sampled_from(sorted(s.replay.state.proposals)))
            s.do(t({"type": f"{op}_move", "proposal": number}))
        elif op == "break":
            draws = data.draw(st.tuples(st.integers(0, 10**9), st.integers(0, 10**9)))
            command = {"type": "break_table", "table": tid, "shuffle": draws[0], "deal": draws[1]}
            s.do(t({**command, "staff": "Ola"}))
        elif op == "late" and (who := next(late, None)) is not None:
            _enter(s, data, who, first=True)
        _check_across(s)
    for tid in sorted(s.replay.tables):
        if s.replay.tables[tid].phase != "idle":
            s.play_on(tid)
    _check_across(s)
