"""Breaking tables (11-B, 12-C, RP-16) and the final table (RP-9).

When the free seats at the other tables can take a table's players, the tournament proposes the
next table to break by the structure's predetermined order (``break_order``; else the table
with the fewest players). The order is never announced (12-C): the proposal is staff only, and
a public view drops it (:func:`protocol.tournament.public`). The floor breaks a table with
``break_table``. Its players get new tables and seats by the two-step random procedure
(addendum 11): the free seat cards — taken so the tables stay as even as they can, the shortest
table first — are shuffled into a pile (the first random input), each player is dealt a card
face up from seat 1 (the second), and from the highest card, suits counting, each takes the
next seat card. Both inputs are in the command and the draw in the event, so it can be checked
by hand and a replay gives the same seats. A player sits down anywhere and is dealt in except
between the small blind and the button (11-A: the table does that). The chips of a player
away from the table are carried by staff, and the move says who (RP-16). A break that needs
more seats than are free is refused, and nothing moves.

A break is made between hands: the broken table and the tables it sends players to are held,
and it is made when the last of their hands ends (the seat cards are kept for it meanwhile).

The final table (RP-9): once the players left fit one table of the final size (9 for 9- and
8-handed events, from two tables of 5; 7 for 7- and 6-handed, from two of 4), the tournament
says so; the floor brings them together with ``final_table``: every player's seat drawn with a
recorded random input, then the button by the structure's policy — a high card dealt to each
player (suits counting), or where it keeps the big blind's continuity (the player next to be
the big blind at the largest table posts it).
"""

from __future__ import annotations

from protocol.tournament import (
    BreakAnnounced,
    BreakProposed,
    BreakTable,
    FinalTable,
    FinalTableAnnounced,
    FinalTableDrawn,
    FinalTableProposed,
    Moved,
    TableBroken,
    TablesHeld,
    TablesReleased,
)
from server.tournament import balancing, draws, handforhand, positions
from server.tournament.errors import TournamentIllegal
from server.tournament.moves import Emit
from server.tournament.state import PendingBreak, PendingFinal, TournamentState


def free_seats(t: TournamentState, but: str) -> dict[str, list[int]]:
    """Free seats of every table in play but ``but`` (and tables breaking), none promised."""
    reserved, breaking = t.reserved(), t.breaking()
    return {
        name: [
            s
            for s in range(1, tab.seats + 1)
            if s not in tab.occupied and (name, s) not in reserved
        ]
        for name, tab in t.in_play().items()
        if name != but and name not in breaking
    }


def free_count(t: TournamentState, but: str) -> int:
    """How many seats :func:`free_seats` lists, counted without listing them (at every hand
    end, over every table)."""
    promised: dict[str, int] = {}
    for name, seat in t.reserved():
        tab = t.tables.get(name)
        if tab is not None and seat not in tab.occupied:
            promised[name] = promised.get(name, 0) + 1
    breaking = t.breaking()
    return sum(
        tab.seats - len(tab.occupied) - promised.get(name, 0)
        for name, tab in t.tables.items()
        if not tab.broken and name != but and name not in breaking
    )


def seat_cards(t: TournamentState, table: str, count: int) -> list[tuple[str, int]] | None:
    """``count`` seat cards for the players of ``table``: one at a time at the table with the
    fewest players (with those already given), the lowest free seat; None if too few are free."""
    free = free_seats(t, table)
    found = balancing.counts(t)
    players = {name: found.get(name, len(t.tables[name].occupied)) for name in free}
    cards: list[tuple[str, int]] = []
    for _ in range(count):
        open_ = [name for name in free if free[name]]
        if not open_:
            return None
        name = min(open_, key=lambda n: (players[n], list(free).index(n)))
        cards.append((name, free[name].pop(0)))
        players[name] += 1
    return sorted(cards)


def propose_break(t: TournamentState, emit: Emit) -> bool:
    """Staff only (12-C): the next table to break, once the others' free seats can take its
    players. True when it is proposed now (the balancing can wait for it)."""
    if t.breaks:
        return False
    playing = {n: tab for n, tab in t.in_play().items() if tab.occupied}
    if len(playing) < 2:
        return False
    order = [n for n in t.structure.break_order if n in playing]
    if not order:
        names = list(playing)
        order = [min(reversed(names), key=lambda n: len(playing[n].occupied))]
    table = order[0]
    if t.break_proposed == table:
        return False
    players = len(playing[table].occupied)
    free = free_count(t, table)
    if players > free:
        return False
    emit(
        BreakProposed(
            table=table,
            players=players,
            free=free,
            reason=f"{free} free seats at the other tables take its {players} players",
            text=f"Staff only: table {table} is next to break - {free} free seats elsewhere take "
            f"its {players} players (12-C: the break order is not announced)",
        )
    )
    return True


def break_table(t: TournamentState, cmd: BreakTable, emit: Emit) -> None:
    tab = t.tables.get(cmd.table)
    if tab is None:
        raise TournamentIllegal("", f"no table {cmd.table}", code="unknown_table", field="$.table")
    if tab.broken or cmd.table in t.breaking():
        raise TournamentIllegal("11-B", f"table {cmd.table} is already broken or breaking")
    if len([n for n, x in t.in_play().items() if x.occupied]) < 2:
        raise TournamentIllegal("11-B", "the last table in play does not break")
    players = len(tab.occupied)
    pile = seat_cards(t, cmd.table, players)
    if pile is None:
        free = sum(len(s) for s in free_seats(t, cmd.table).values())
        raise TournamentIllegal(
            "11-B",
            f"table {cmd.table} has {players} players and the other tables {free} free seats: "
            "it cannot break yet",
            code="no_seat",
        )
    away = [w for w in tab.occupied.values() if t.players[w].absent]
    if away and not cmd.staff:
        raise TournamentIllegal(
            "RP-16",
            f"{len(away)} player(s) away from table {cmd.table}: staff carry their chips - name "
            "who moves them",
            field="$.staff",
        )
    pile = draws.shuffled(pile, cmd.shuffle)
    pending = PendingBreak(cmd.table, pile, cmd.shuffle, cmd.deal, cmd.staff)
    involved = sorted({cmd.table, *(name for name, _ in pile)})
    waiting = sorted(set(cmd.playing) & set(involved))
    if not waiting:
        execute(t, pending, emit)
        return
    emit(
        BreakAnnounced(
            table=cmd.table,
            pile=pile,
            shuffle=cmd.shuffle,
            deal=cmd.deal,
            staff=cmd.staff,
            waiting=waiting,
            text=f"Table {cmd.table} breaks once table {', '.join(waiting)} finish the hand; "
            f"the seat cards are shuffled into a pile (11-B)",
        )
    )
    emit(_hold(f"break-{cmd.table}", involved, f"table {cmd.table} breaks between hands"))


def _hold(hold: str, tables: list[str], why: str) -> TablesHeld:
    return TablesHeld(
        hold=hold,
        tables=tables,
        reason=why,
        rules=["11-B"],
        text=f"Tables {', '.join(tables)}: finish the hand, then wait ({why})",
    )


def execute(t: TournamentState, b: PendingBreak, emit: Emit) -> None:
    """The break, now that its tables are between hands: cards dealt from seat 1, and from the
    highest card each player takes the next seat card of the pile (11-B)."""
    tab = t.tables[b.table]
    seated = [tab.occupied[s] for s in sorted(tab.occupied)]
    pile = [(name, s) for name, s in b.pile if s not in t.tables[name].occupied]
    if len(pile) < len(seated):
        pile += seat_cards(t, b.table, len(seated) - len(pile)) or []
    cards = dict(zip(seated, draws.dealt(len(seated), b.deal), strict=True))
    order = draws.by_high_card(cards)
    seats = dict(zip(order, pile, strict=False))
    held = bool(b.waiting) or any(x.table == b.table for x in t.breaks)
    emit(
        TableBroken(
            table=b.table,
            pile=list(b.pile),
            cards=cards,
            seats=seats,
            shuffle=b.shuffle,
            deal=b.deal,
            staff=b.staff,
            rules=["11-B", "RP-16"] if b.staff else ["11-B"],
            text=f"Table {b.table} breaks: the seat cards shuffled into a pile, a card dealt face"
            " up to each player, and from the highest card each takes the next seat card (11-B)",
        )
    )
    for number, prop in sorted(t.proposals.items()):
        if b.table in (prop.from_table, prop.table):
            balancing.withdraw(t, number, f"table {b.table} broke", emit)
    for who in order:
        if who not in seats:
            continue
        p = t.players[who]
        assert p.table is not None and p.seat is not None
        table, seat = seats[who]
        carried = f"; chips carried by {b.staff} (RP-16)" if p.absent and b.staff else ""
        emit(
            Moved(
                player=who,
                from_table=b.table,
                from_seat=p.seat,
                table=table,
                seat=seat,
                kind="break",
                absent=p.absent,
                by=b.staff if p.absent else "",
                rules=["11-B", "11-A", "RP-16"] if p.absent else ["11-B", "11-A"],
                text=f"{p.name or who} ({cards[who]}): table {table} seat {seat}{carried}"
                " (11-B; dealt in except between the small blind and the button, 11-A)",
            )
        )
    if held:
        involved = sorted({b.table, *(name for name, _ in b.pile)})
        emit(TablesReleased(hold=f"break-{b.table}", tables=involved, text="Play on"))
    balancing.review_stoppages(t, emit)
    handforhand.settle(t, t.clock.at, emit)  # the broken table no longer plays its H4H hand


def propose_final(t: TournamentState, emit: Emit) -> bool:
    """RP-9: the players left fit the final table. True once it is proposed or waiting."""
    if t.final is not None:
        return True
    size = t.structure.final_size
    players = sum(len(tab.occupied) for tab in t.tables.values() if not tab.broken)
    if players > size:
        return False
    tables = sorted(n for n, tab in t.in_play().items() if tab.occupied)
    if len(tables) < 2:
        return False
    if not t.final_proposed:
        emit(
            FinalTableProposed(
                tables=tables,
                players=players,
                size=size,
                text=f"{players} players left on tables {', '.join(tables)}: the final table "
                f"({size}-handed) (RP-9)",
            )
        )
    return True


def final_table(t: TournamentState, cmd: FinalTable, emit: Emit) -> None:
    tab = t.tables.get(cmd.table)
    if tab is None or tab.broken:
        raise TournamentIllegal(
            "RP-9", f"no table {cmd.table} in play", code="unknown_table", field="$.table"
        )
    if t.final is not None:
        raise TournamentIllegal("RP-9", "the final table is already being drawn")
    players = [p for p in t.players.values() if p.status == "seated"]
    if len(players) > tab.seats:
        raise TournamentIllegal(
            "RP-9",
            f"{len(players)} players do not fit table {cmd.table}'s {tab.seats} seats",
            code="no_seat",
        )
    pending = PendingFinal(cmd.table, cmd.draw, cmd.button_draw)
    involved = sorted({cmd.table, *(p.table for p in players if p.table)})
    waiting = sorted(set(cmd.playing) & set(involved))
    if not waiting:
        execute_final(t, pending, emit)
        return
    emit(
        FinalTableAnnounced(
            table=cmd.table,
            draw=cmd.draw,
            button_draw=cmd.button_draw,
            waiting=waiting,
            text=f"The final table at table {cmd.table} once table {', '.join(waiting)} finish "
            "the hand (RP-9)",
        )
    )
    emit(
        TablesHeld(
            hold="final",
            tables=involved,
            reason="the final table is drawn between hands",
            rules=["RP-9"],
            text=f"Tables {', '.join(involved)}: finish the hand, then wait for the final table",
        )
    )


def execute_final(t: TournamentState, f: PendingFinal, emit: Emit) -> None:
    """Every player to a drawn seat of the final table, then the button by the policy (RP-9)."""
    tab = t.tables[f.table]
    players = sorted(
        (p for p in t.players.values() if p.status == "seated"),
        key=lambda p: (list(t.tables).index(p.table or ""), p.seat or 0),
    )
    drawn = draws.shuffled(list(range(1, tab.seats + 1)), f.draw)[: len(players)]
    seats = {p.player: s for p, s in zip(players, drawn, strict=True)}
    came = {p.player: (p.table or "", p.seat or 0) for p in players}
    button, cards, how = _button(t, f, seats)
    held = f is t.final
    names = "; ".join(
        f"seat {s}: {t.players[w].name or w}" for w, s in sorted(seats.items(), key=lambda x: x[1])
    )
    why = (
        f"the high card {cards[next(w for w, s in seats.items() if s == button)]}"
        if how == "high_card"
        else "the big blind's continuity"
    )
    for number in sorted(t.proposals):
        balancing.withdraw(t, number, "the final table is drawn", emit)
    emit(
        FinalTableDrawn(
            table=f.table,
            seats=seats,
            came_from=came,
            button=button,
            button_by=how,
            draw=f.draw,
            button_draw=f.button_draw,
            cards=cards,
            text=f"The final table, table {f.table}, seats drawn: {names}; the button on seat "
            f"{button} by {why} (RP-9)",
        )
    )
    if held:
        involved = sorted({f.table, *(name for name, _ in came.values())})
        emit(TablesReleased(hold="final", tables=involved, text="The final table: play on"))
    handforhand.settle(t, t.clock.at, emit)


def _button(
    t: TournamentState, f: PendingFinal, seats: dict[str, int]
) -> tuple[int, dict[str, str], str]:
    """The final table's first button: the seat of the high card, or two dealt seats before
    the player who was next to be the big blind at the largest table (RP-9)."""
    order = sorted(seats, key=lambda w: seats[w])
    if t.structure.final_button == "high_card":
        cards = dict(zip(order, draws.dealt(len(order), f.button_draw), strict=True))
        return seats[draws.by_high_card(cards)[0]], cards, "high_card"
    tables = [n for n, tab in t.in_play().items() if tab.occupied]
    largest = max(tables, key=lambda n: (len(t.tables[n].occupied), n == f.table))
    big = positions.next_big_blind(t.tables[largest])
    who = t.tables[largest].occupied.get(big or 0, order[0])
    dealt = positions.order_from(list(seats.values()), seats[who])
    # The big blind is the second dealt seat after the button: the button is two before him;
    # heads-up the button is the small blind, one before (36-C).
    back = 1 if len(dealt) == 2 else 2
    return dealt[-back], {}, "big_blind"
