"""Registration and seating (7-9, 11): entries, the seat pool and the random draw.

Every new entry — a registration, a late registration, an alternate, a re-entry — buys a full
stack and gets a random table and seat from the same seat pool (8, 9-A). The draw is an input
(``draw``, recorded in ``seated``), so a replay seats everyone the same way. A new player sits
anywhere, but is not dealt in between the small blind and the button: the table engine's
``add_player`` already waits for the button to pass (9-A, 11-A). A player who has not played
may unregister; a drawn seat returns to the pool. A player found at the wrong seat moves to the
right one with the whole stack (8).
"""

from __future__ import annotations

from protocol.tournament import (
    Alternate,
    AlternateListed,
    ChipsRemoved,
    CloseTable,
    Moved,
    MovePlayer,
    OpenTable,
    Reenter,
    Register,
    Registered,
    Seated,
    SeatPlayer,
    TableClosed,
    TableOpened,
    Unregister,
    Unregistered,
)
from server.tournament import payouts
from server.tournament.errors import TournamentIllegal
from server.tournament.moves import Emit
from server.tournament.state import Player, TournamentState


def player(t: TournamentState, who: str) -> Player:
    p = t.players.get(who)
    if p is None:
        raise TournamentIllegal(
            "", f"{who} is not a player of this tournament", code="unknown_player", field="$.player"
        )
    return p


def seated(t: TournamentState, who: str) -> Player:
    p = player(t, who)
    if p.status != "seated" or p.table is None or p.seat is None:
        raise TournamentIllegal("7", f"{p.name or who} is not seated", code="not_seated")
    return p


def pool(t: TournamentState) -> list[tuple[str, int]]:
    """The seat pool of a new entry, in table order then seat order; the draw picks one of
    them at random (8, 9-A). Not the seats of a table broken or breaking, nor seats promised to
    a move or a break.

    By default (``seating: even``) only the free seats of the tables with the fewest players
    (the promised seats counted as taken): an entry drawn to a nearly full table while another
    has few leaves that one short through no elimination, and the tournament would then balance
    and stop tables (12-A, 12-D) for what seating did. Drawing among the shortest keeps the
    tables within one player of each other as they fill — what 12-D's last sentence asks of the
    TD. ``seating: any`` draws from every free seat."""
    tables, promised = _pool_tables(t)
    return [(table, seat) for table, _ in tables for seat in _free(t, table, promised)]


def has_seat(t: TournamentState) -> bool:
    """Whether the pool has a seat, found at the first open table (a new entry is seated at
    once, or waits: 9-A); counting the pool would go through all 500."""
    reserved = t.reserved()
    breaking = t.breaking()
    for table, tab in t.tables.items():
        if tab.broken or table in breaking:
            continue
        taken = len(tab.occupied)
        if reserved:
            taken += sum(1 for at, seat in reserved if at == table and seat not in tab.occupied)
        if taken < tab.seats:
            return True
    return False


def drawn_seat(t: TournamentState, draw: int) -> tuple[str, int, int] | None:
    """The seat ``draw`` picks from the pool — its ``draw mod size``-th seat — and the pool's
    size, without listing every seat of it (500 tables); None when the pool is empty."""
    tables, promised = _pool_tables(t)
    size = sum(n for _, n in tables)
    if not size:
        return None
    index = draw % size
    for table, free in tables:
        if index < free:
            return table, _free(t, table, promised)[index], size
        index -= free
    raise AssertionError("the pool's tables add up to its size")


def _pool_tables(t: TournamentState) -> tuple[list[tuple[str, int]], dict[str, set[int]]]:
    """The pool's tables in table order with their free seats' count, and the promised seats
    of every table."""
    promised: dict[str, set[int]] = {}
    for table, seat in t.reserved():
        promised.setdefault(table, set()).add(seat)
    breaking = t.breaking()
    even = t.structure.seating == "even"
    fewest = -1  # even seating: the fewest seats taken at an open table so far
    found: list[tuple[str, int]] = []
    for table, tab in t.tables.items():
        if tab.broken or table in breaking:
            continue
        taken = len(tab.occupied)
        if table in promised:
            taken += len(promised[table] - tab.occupied.keys())
        if taken >= tab.seats or (even and 0 <= fewest < taken):
            continue
        if even and taken != fewest:
            fewest, found = taken, []
        found.append((table, tab.seats - taken))
    return found, promised


def _free(t: TournamentState, table: str, promised: dict[str, set[int]]) -> list[int]:
    tab = t.tables[table]
    return [
        seat
        for seat in range(1, tab.seats + 1)
        if seat not in tab.occupied and seat not in promised.get(table, ())
    ]


def open_table(t: TournamentState, cmd: OpenTable, emit: Emit) -> None:
    if cmd.table in t.tables:
        raise TournamentIllegal("", f"table {cmd.table} is already open", field="$.table")
    if cmd.seats > t.structure.table_size:
        raise TournamentIllegal(
            "", f"tables seat {t.structure.table_size} at most here", field="$.seats"
        )
    emit(
        TableOpened(
            table=cmd.table,
            seats=cmd.seats,
            button=cmd.button,
            text=f"Table {cmd.table} open: {cmd.seats} seats into the draw",
        )
    )


def close_table(t: TournamentState, cmd: CloseTable, emit: Emit) -> None:
    tab = t.tables.get(cmd.table)
    if tab is None:
        raise TournamentIllegal("", f"no table {cmd.table}", code="unknown_table", field="$.table")
    if tab.occupied:
        raise TournamentIllegal("", f"table {cmd.table} still has players", code="table_in_use")
    emit(TableClosed(table=cmd.table, text=f"Table {cmd.table} closed"))


def _open_for_entries(t: TournamentState, what: str) -> bool:
    """Whether registration is open; late when the clock has started (9-A)."""
    if t.closed:
        raise TournamentIllegal("9-A", f"registration is closed: no {what}", code="closed")
    return t.clock.started


def register(t: TournamentState, cmd: Register, emit: Emit) -> None:
    if cmd.player in t.players:
        raise TournamentIllegal(
            "9-A",
            f"{cmd.player} is already registered: a new entry is a re-entry",
            code="registered",
            field="$.player",
        )
    late = _open_for_entries(t, "registration")
    _entry(t, cmd.player, cmd.name, 1, emit, late=late)


def _entry(
    t: TournamentState,
    who: str,
    name: str,
    entry: int,
    emit: Emit,
    *,
    late: bool = False,
    reentry: bool = False,
    alternate: bool = False,
) -> None:
    kind = (
        "re-entry" if reentry else "alternate" if alternate else "late registration" if late else ""
    )
    if late and not has_seat(t):
        # 9-A: a late entry buys a full stack and a random seat; with no seat free it would be
        # in the tournament at no table (counted among the players left, never dealt in).
        raise TournamentIllegal(
            "9-A",
            f"no free seat for this {kind}: every seat is taken or promised to a move or a break"
            " - try again when one is free, or join the alternate list",
            code="no_seat",
        )
    pool_after = payouts.collected(t) + t.structure.buy_in
    emit(
        Registered(
            player=who,
            name=name,
            entry=entry,
            late=late,
            reentry=reentry,
            alternate=alternate,
            pool=pool_after,
            rules=["9-A"] if kind else [],
            text=f"{name or who} registered"
            + (f" ({kind}, entry {entry})" if kind else "")
            + " - a full stack, a random seat",
        )
    )


def alternate(t: TournamentState, cmd: Alternate, emit: Emit) -> None:
    if cmd.player in t.players:
        raise TournamentIllegal(
            "9-A", f"{cmd.player} is already registered", code="registered", field="$.player"
        )
    _open_for_entries(t, "alternates")
    emit(
        AlternateListed(
            player=cmd.player,
            name=cmd.name,
            position=len(t.alternates) + 1,
            text=f"{cmd.name or cmd.player}: alternate {len(t.alternates) + 1}",
        )
    )


def unregister(t: TournamentState, cmd: Unregister, emit: Emit) -> None:
    p = player(t, cmd.player)
    if p.status not in ("registered", "seated", "alternate") or p.played:
        raise TournamentIllegal(
            "7", f"{p.name or p.player} has played: no refund", code="has_played"
        )
    refund = 0 if p.status == "alternate" else t.structure.buy_in
    emit(
        Unregistered(
            player=p.player,
            table=p.table,
            seat=p.seat,
            pool=payouts.collected(t) - refund,
            text=f"{p.name or p.player} unregistered"
            + (f"; table {p.table} seat {p.seat} back in the draw" if p.table else ""),
        )
    )


def reenter(t: TournamentState, cmd: Reenter, emit: Emit) -> None:
    p = player(t, cmd.player)
    s = t.structure
    level = s.level_number(t.clock.step) if t.clock.started else 0
    if not s.reentry_until or t.closed or level > s.reentry_until:
        raise TournamentIllegal(
            "9-A",
            f"re-entry is not open (it ends with level {s.reentry_until})"
            if s.reentry_until
            else "this event has no re-entry",
            code="reentry_closed",
        )
    if cmd.forfeit:
        if not s.forfeit_reentry:
            raise TournamentIllegal(
                "9-B",
                "this event does not let a player forfeit chips to re-enter",
                field="$.forfeit",
            )
        holder = seated(t, cmd.player)
        assert holder.table is not None and holder.seat is not None
        emit(
            ChipsRemoved(
                player=p.player,
                table=holder.table,
                seat=holder.seat,
                chips=holder.stack,
                kind="forfeit",
                rules=["9-B"],
                text=f"{p.name or p.player} forfeits {holder.stack:,} chips to re-enter:"
                " out of play (9-B)",
            )
        )
    elif p.status != "eliminated":
        raise TournamentIllegal(
            "9-A",
            f"{p.name or p.player} still has chips: re-entry is for a busted entry",
            code="not_busted",
        )
    _entry(t, p.player, p.name, p.entry + 1, emit, late=True, reentry=True)


def seat(t: TournamentState, cmd: SeatPlayer, emit: Emit) -> None:
    p = player(t, cmd.player)
    if p.status == "alternate":
        if t.alternates and t.alternates[0] != p.player:
            raise TournamentIllegal(
                "9-A",
                f"alternates are seated in order: {t.alternates[0]} first",
                code="out_of_order",
            )
        _open_for_entries(t, "alternates")
        _entry(t, p.player, p.name, 1, emit, late=t.clock.started, alternate=True)
    elif p.status != "registered":
        raise TournamentIllegal(
            "8", f"{p.name or p.player} is not waiting for a seat", code="not_waiting"
        )
    drawn = drawn_seat(t, cmd.draw)
    if drawn is None:
        raise TournamentIllegal("8", "no free seat in the draw", code="no_seat")
    table, number, size = drawn
    entry = t.players[p.player].entry
    emit(
        Seated(
            player=p.player,
            name=p.name,
            entry=entry,
            table=table,
            seat=number,
            stack=t.structure.starting_stack,
            draw=cmd.draw,
            free=size,
            rules=["8", "9-A", "11-A"] if t.clock.started else ["8"],
            text=f"{p.name or p.player}: table {table}, seat {number} (random draw from "
            f"{size} free seats)",
        )
    )


def move(t: TournamentState, cmd: MovePlayer, emit: Emit) -> None:
    p = seated(t, cmd.player)
    assert p.table is not None and p.seat is not None
    tab = t.tables.get(cmd.table)
    if tab is None:
        raise TournamentIllegal("8", f"no table {cmd.table}", code="unknown_table", field="$.table")
    if not 1 <= cmd.seat <= tab.seats or cmd.seat in tab.occupied:
        raise TournamentIllegal(
            "8", f"table {cmd.table} seat {cmd.seat} is not free", code="no_seat", field="$.seat"
        )
    if tab.broken or cmd.table in t.breaking() or (cmd.table, cmd.seat) in t.reserved():
        raise TournamentIllegal(
            "11-B",
            f"table {cmd.table} seat {cmd.seat} is kept for a break or a move",
            code="no_seat",
            field="$.seat",
        )
    emit(
        Moved(
            player=p.player,
            from_table=p.table,
            from_seat=p.seat,
            table=cmd.table,
            seat=cmd.seat,
            text=f"{p.name or p.player} moves from table {p.table} seat {p.seat} to table "
            f"{cmd.table} seat {cmd.seat} with the whole stack (8)",
        )
    )
