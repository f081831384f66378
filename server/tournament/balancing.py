"""Balancing the tables and stopping a short one (12-A, 12-B, 12-D).

After every hand end the tournament knows how many players each table has. Tables more than
the structure's ``balance`` apart (one by default) are unbalanced, and the tournament proposes
a move to the floor: in flop games the player **next to be the big blind** at the long table
goes to the **worst position** at the short one, the seat that takes the big blind soonest —
a single big blind included, never the small blind (12-A, :mod:`positions`). So nobody at
either table skips or doubles a big blind because of the move. The floor confirms it, changes
who or where, or dismisses it. A confirmed move is made between hands of both tables: at once
when neither is in a hand, else the tables are held (no new hand) and the move is made when
the last of their hands ends. The player and seat are read again then, from the tables as they
are (the blinds have moved on), unless the floor chose them; a move no longer needed is
withdrawn.

A table 3 or more players short of the fullest table (the structure's ``stoppage``; tables of
8 or more by default) stops when its blinds are affected — the big blind would fall on an empty
seat (12-D, addendum: 9-handed, table A has 5, B has 8: A stops when its big blind falls on an
empty seat). The TD may waive it, which is logged and not a misdeal; it ends once the table is
no longer that short.

Mixed games (12-B): when the game goes from hold'em to stud, each table's button stays where
the next hold'em hand would have it, and is frozen there during stud (the hand ends do not
move it); the player moved during stud is the one who would be the big blind were it hold'em;
hold'em starts again from the frozen button.
"""

from __future__ import annotations

from protocol.tournament import (
    STUD_GAMES,
    ButtonFrozen,
    ButtonUnfrozen,
    ConfirmMove,
    DismissMove,
    MoveConfirmed,
    Moved,
    MoveDismissed,
    MoveProposed,
    PlayStopped,
    StoppageEnded,
    StoppageWaived,
    TablesHeld,
    TablesReleased,
    WaiveStoppage,
)
from server.tournament import positions
from server.tournament.errors import TournamentIllegal
from server.tournament.moves import Emit
from server.tournament.state import Proposal, TournamentState


def counts(t: TournamentState) -> dict[str, int]:
    """Players at each table in play once the moves proposed and the breaks waiting are made."""
    breaking = t.breaking()
    found = {name: len(tab.occupied) for name, tab in t.in_play().items() if name not in breaking}
    for b in t.breaks:
        for table, _ in b.pile[: len(t.tables[b.table].occupied)]:
            if table in found:
                found[table] += 1
    for p in t.proposals.values():
        if p.from_table in found and p.table in found:
            found[p.from_table] -= 1
            found[p.table] += 1
    return found


def _pick(found: dict[str, int], value: int, ended: str) -> str:
    """The table with ``value`` players: the one whose hand just ended first (its facts are
    fresh and it is between hands), then in table order."""
    tied = [name for name, n in found.items() if n == value]
    return ended if ended in tied else tied[0]


def _taken(t: TournamentState, table: str, but: int = 0) -> set[int]:
    """Seats of ``table`` promised to a break (its seat cards are drawn, 11-B) or another move
    (not proposal ``but``). A proposal names the worst seat past those other proposals name.
    A move being made takes the worst seat past only the seats the floor chose for other
    moves: any other move's seat, even a confirmed one's waiting for a hand to end, is read
    again when that move is made (12-A)."""
    making = t.proposals.get(but)
    breaks = {seat for b in t.breaks for name, seat in b.pile if name == table}
    return breaks | {
        p.seat
        for k, p in t.proposals.items()
        if k != but and p.table == table and (p.fixed_seat or not (making and making.confirmed))
    }


def _leaving(t: TournamentState, table: str, but: int = 0) -> set[int]:
    """Seats of ``table`` whose players another move already takes away. A proposal names the
    next big blind past those other proposals name. A move being made moves the next big blind
    past only the players the floor chose for other moves: the player of any other move, even
    a confirmed one waiting for a hand to end, is read again when that move is made — it may
    never be (dismissed, or no longer needed) — so the next big blind goes now (12-A)."""
    tab = t.tables[table]
    making = t.proposals.get(but)
    players = {
        p.player
        for k, p in t.proposals.items()
        if k != but
        and p.from_table == table
        and (p.fixed_player or not (making and making.confirmed))
    }
    return {seat for seat, who in tab.occupied.items() if who in players}


def _choose(t: TournamentState, src: str, dst: str, but: int = 0) -> tuple[int, int] | None:
    """Who moves (the next big blind at ``src``) and where (the worst seat at ``dst``)."""
    seat_from = positions.next_big_blind(t.tables[src], _leaving(t, src, but))
    seat_to = positions.worst_seat(t.tables[dst], _taken(t, dst, but))
    if seat_from is None or seat_to is None:
        return None
    return seat_from, seat_to


def _needed(t: TournamentState, p: Proposal) -> bool:
    """The move still balances its tables (without it they would be too far apart)."""
    found = counts(t)
    if p.from_table not in found or p.table not in found:
        return False
    return found[p.from_table] + 1 - (found[p.table] - 1) > t.structure.balance


def _reason(t: TournamentState, src: str, dst: str, found: dict[str, int]) -> str:
    return (
        f"table {src} has {found[src]} players and table {dst} {found[dst]}: more than "
        f"{t.structure.balance} apart"
    )


def propose(t: TournamentState, ended: str, emit: Emit) -> None:
    """Propose moves while the tables, counted with the moves already proposed, are unbalanced."""
    for _ in range(len(t.tables) * 10):
        found = counts(t)
        if len(found) < 2 or max(found.values()) - min(found.values()) <= t.structure.balance:
            return
        src = _pick(found, max(found.values()), ended)
        dst = _pick(found, min(found.values()), ended)
        chosen = _choose(t, src, dst)
        if chosen is None:
            return
        _proposal(t, t.proposed + 1, src, dst, chosen, _reason(t, src, dst, found), emit)


def _proposal(
    t: TournamentState,
    number: int,
    src: str,
    dst: str,
    chosen: tuple[int, int],
    reason: str,
    emit: Emit,
    revised: bool = False,
) -> None:
    seat_from, seat_to = chosen
    who = t.players[t.tables[src].occupied[seat_from]]
    stud = " (the big blind were it hold'em, 12-B)" if t.frozen else ""
    emit(
        MoveProposed(
            proposal=number,
            from_table=src,
            from_seat=seat_from,
            player=who.player,
            table=dst,
            seat=seat_to,
            reason=reason,
            counts={n: len(x.occupied) for n, x in t.in_play().items()},
            revised=revised,
            rules=["12-A", "12-B"] if t.frozen else ["12-A"],
            text=f"Move {number}{' (revised)' if revised else ''}: {who.name or who.player}, "
            f"next big blind at table {src} seat {seat_from}{stud}, to table {dst} seat "
            f"{seat_to}, the big blind soonest and never the small blind - {reason} (12-A)",
        )
    )


def revise(t: TournamentState, ended: str, emit: Emit) -> None:
    """Proposals not yet confirmed follow the tables: withdrawn when no longer needed, the
    player and seat read again when the hand that just ended moved the blinds."""
    for number, p in sorted(t.proposals.items()):
        if p.confirmed:
            continue
        if not _needed(t, p):
            withdraw(t, number, "the tables are balanced without it", emit)
        elif ended in (p.from_table, p.table):
            chosen = _choose(t, p.from_table, p.table, number)
            if chosen is None:
                withdraw(t, number, "no player or seat for it now", emit)
                continue
            who = t.tables[p.from_table].occupied[chosen[0]]
            if (who, chosen[1]) != (p.player, p.seat):
                found = counts(t)
                found[p.from_table] += 1  # the tables as they are, without this move
                found[p.table] -= 1
                reason = _reason(t, p.from_table, p.table, found)
                _proposal(t, number, p.from_table, p.table, chosen, reason, emit, revised=True)


def withdraw(t: TournamentState, number: int, why: str, emit: Emit, by: str = "") -> None:
    p = t.proposals[number]
    emit(
        MoveDismissed(
            proposal=number,
            reason=why,
            by=by,
            text=f"Move {number} ({p.from_table} to {p.table}) "
            + (f"dismissed by the floor{': ' + why if why else ''}" if by else f"withdrawn: {why}"),
        )
    )
    if p.held:
        emit(_released(number, p))


def _released(number: int, p: Proposal) -> TablesReleased:
    tables = sorted({p.from_table, p.table})
    return TablesReleased(
        hold=f"move-{number}", tables=tables, text=f"Tables {', '.join(tables)}: play on"
    )


def confirm(t: TournamentState, cmd: ConfirmMove, emit: Emit) -> None:
    p = t.proposals.get(cmd.proposal)
    if p is None:
        raise TournamentIllegal(
            "12-A",
            f"there is no move {cmd.proposal} to confirm",
            code="unknown_proposal",
            field="$.proposal",
        )
    if p.confirmed:
        raise TournamentIllegal("12-A", f"move {cmd.proposal} is already confirmed")
    src, dst = t.tables[p.from_table], t.tables[p.table]
    if cmd.player is not None and cmd.player not in src.occupied.values():
        raise TournamentIllegal(
            "12-A", f"{cmd.player} is not at table {p.from_table}", field="$.player"
        )
    if cmd.seat is not None and (
        cmd.seat > dst.seats or cmd.seat in dst.occupied or cmd.seat in _taken(t, p.table, p.id)
    ):
        raise TournamentIllegal(
            "12-A", f"table {p.table} seat {cmd.seat} is not free", code="no_seat", field="$.seat"
        )
    waiting = sorted(set(cmd.playing) & {p.from_table, p.table})
    who = t.players[cmd.player or p.player]
    where = f"seat {cmd.seat}" if cmd.seat else "the worst position"
    changed = " (changed by the floor)" if cmd.player or cmd.seat else ""
    after = (
        f"; made when table {' and '.join(waiting)} finish{'es' if len(waiting) == 1 else ''}"
        " the hand: no new hand there until then"
        if waiting
        else ""
    )
    emit(
        MoveConfirmed(
            proposal=p.id,
            player=cmd.player,
            seat=cmd.seat,
            waiting=waiting,
            text=f"Move {p.id} confirmed{changed}: {who.name or who.player} to table {p.table}, "
            f"{where}{after} (12-A)",
        )
    )
    if waiting:
        tables = sorted({p.from_table, p.table})
        emit(
            TablesHeld(
                hold=f"move-{p.id}",
                tables=tables,
                reason=f"a player moves from table {p.from_table} to table {p.table} between hands",
                rules=["12-A"],
                text=f"Tables {', '.join(tables)}: finish the hand, then wait for the move",
            )
        )
        return
    make(t, p.id, emit)


def dismiss(t: TournamentState, cmd: DismissMove, emit: Emit) -> None:
    if cmd.proposal not in t.proposals:
        raise TournamentIllegal(
            "12-A", f"there is no move {cmd.proposal}", code="unknown_proposal", field="$.proposal"
        )
    withdraw(t, cmd.proposal, cmd.reason, emit, by="floor")


def make(t: TournamentState, number: int, emit: Emit) -> None:
    """A confirmed move, now that both tables are between hands: the player and the seat read
    from the tables as they are, unless the floor chose them (12-A)."""
    p = t.proposals[number]
    src, dst = t.tables[p.from_table], t.tables[p.table]
    if not p.fixed_player and not _needed(t, p):
        withdraw(t, number, "the tables balanced themselves meanwhile", emit)
        return
    chosen = _choose(t, p.from_table, p.table, number)
    seat_from = chosen[0] if chosen else None
    if p.fixed_player:
        seat_from = next((s for s, w in src.occupied.items() if w == p.player), None)
    seat_to = chosen[1] if chosen else None
    if p.fixed_seat and p.seat not in dst.occupied:
        seat_to = p.seat
    if seat_from is None or seat_to is None:
        withdraw(t, number, "the player or the seat is no longer there", emit)
        return
    who = t.players[src.occupied[seat_from]]
    emit(
        Moved(
            player=who.player,
            from_table=p.from_table,
            from_seat=seat_from,
            table=p.table,
            seat=seat_to,
            kind="balance",
            proposal=number,
            absent=who.absent,
            rules=["12-A"],
            text=f"{who.name or who.player} moves from table {p.from_table} seat {seat_from} to "
            f"table {p.table} seat {seat_to} with the whole stack (12-A)",
        )
    )
    if p.held:
        emit(_released(number, p))
    review_stoppages(t, emit)


def check_stop(t: TournamentState, table: str, emit: Emit) -> None:
    """12-D: at its hand end, a table short enough stops when its blinds are affected."""
    short = t.structure.stop_short
    tab = t.tables.get(table)
    if not short or tab is None or tab.broken or tab.stopped or tab.waived:
        return
    if len(tab.occupied) < 2 or not positions.blinds_affected(tab):
        return  # asked first: the fullest table is a pass over every table
    players = len(tab.occupied)
    fullest = max((len(x.occupied) for x in t.tables.values() if not x.broken), default=0)
    behind = fullest - players
    if behind < short:
        return
    reason = (
        f"{players} players, {behind} short of the fullest table ({fullest}); the big blind "
        "would fall on an empty seat"
    )
    emit(
        PlayStopped(
            table=table,
            players=players,
            fullest=fullest,
            short=behind,
            reason=reason,
            text=f"Table {table} stops: {reason}. It waits for players, or the TD's waiver (12-D)",
        )
    )
    emit(
        TablesHeld(
            hold="stop",
            tables=[table],
            reason=f"play stopped: {reason}",
            rules=["12-D"],
            text=f"Table {table}: no new hand until players come or the TD waives it (12-D)",
        )
    )


def review_stoppages(t: TournamentState, emit: Emit) -> None:
    """A stopped (or waived) table no longer short enough plays on normally (12-D)."""
    if not any(tab.stopped or tab.waived for tab in t.tables.values()):
        return
    found = {name: len(x.occupied) for name, x in t.in_play().items()}
    fullest = max(found.values(), default=0)
    for name, tab in t.tables.items():
        if not (tab.stopped or tab.waived):
            continue
        if not tab.broken and fullest - found.get(name, 0) >= t.structure.stop_short > 0:
            continue
        held = tab.stopped
        emit(StoppageEnded(table=name, text=f"Table {name} is no longer short: play on (12-D)"))
        if held:
            emit(TablesReleased(hold="stop", tables=[name], text=f"Table {name}: play on"))


def waive(t: TournamentState, cmd: WaiveStoppage, emit: Emit) -> None:
    tab = t.tables.get(cmd.table)
    if tab is None:
        raise TournamentIllegal("", f"no table {cmd.table}", code="unknown_table", field="$.table")
    if not tab.stopped:
        raise TournamentIllegal("12-D", f"table {cmd.table} is not stopped", code="not_stopped")
    by = f" by {cmd.by}" if cmd.by else ""
    why = f" ({cmd.reason})" if cmd.reason else ""
    emit(
        StoppageWaived(
            table=cmd.table,
            by=cmd.by,
            reason=cmd.reason,
            text=f"Table {cmd.table}: the stoppage is waived{by}{why}; play goes on - a waiver "
            "is not a misdeal (12-D)",
        )
    )
    emit(TablesReleased(hold="stop", tables=[cmd.table], text=f"Table {cmd.table}: play on"))


def freeze(t: TournamentState, index: int, emit: Emit) -> None:
    """12-B: a level of stud after hold'em freezes each table's button where the next hold'em
    hand would have it; hold'em again starts from there."""
    s = t.structure
    stud = s.game_at(index) in STUD_GAMES
    buttons = {name: tab.facts.button for name, tab in t.in_play().items() if tab.facts is not None}
    if stud and not t.frozen:
        emit(
            ButtonFrozen(
                buttons=buttons,
                game=s.game_at(index),
                text="Stud: each table's button stays where the next hold'em hand has it"
                + "".join(f"; table {k}: seat {v}" for k, v in buttons.items())
                + " (12-B)",
            )
        )
    elif not stud and t.frozen:
        emit(
            ButtonUnfrozen(
                buttons=buttons,
                text="Hold'em again: each table's button starts where it was frozen (12-B)",
            )
        )
