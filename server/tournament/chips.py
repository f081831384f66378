"""Chips in play, and what adds and removes them: rebuys and add-ons (29), chip penalties
(74-A, RP-26), disqualifications (74-D, RP-23-A), color-up leftovers (26-C).

:func:`chips_in_play` is the number the service checks at every hand boundary against the sum
of the stacks at every table, to the chip; forfeited chips (9-B) are counted in ``removed``.
A rebuy announced before a new hand plays that hand as holding the chips (29): the tournament
tells the table, which adds them before its next hand.
"""

from __future__ import annotations

from protocol.tournament import (
    AddOn,
    ChipPenalty,
    ChipsAdded,
    ChipsRemoved,
    ColorUp,
    Disqualified,
    Disqualify,
    Rebuy,
)
from server.tournament import payouts, race, words
from server.tournament.errors import TournamentIllegal
from server.tournament.moves import Emit
from server.tournament.registration import player, seated
from server.tournament.state import TournamentState


def chips_in_play(t: TournamentState) -> int:
    """Entries x the starting stack, plus rebuys and add-ons, minus chips out of play. An entry
    not yet seated has no chips on a table yet: they come into play with the seat (7)."""
    return chip_count(t)[1]


def chip_count(t: TournamentState) -> tuple[int, int]:
    """The tables' stacks (every seated player's, each as of its table's last hand end) and
    the chips in play, in one pass over the players: a hand end asks for both, with 5,000."""
    counted = waiting = 0
    for p in t.players.values():
        if p.status == "seated":
            counted += p.stack
        elif p.status == "registered":
            waiting += 1
    s = t.structure
    in_play = (
        (t.entries - waiting) * s.starting_stack
        + t.rebuys * s.rebuy_stack
        + t.add_ons * s.add_on_stack
        - t.removed
    )
    return counted, in_play


def _level(t: TournamentState) -> int:
    return t.structure.level_number(t.clock.step) if t.clock.started else 0


def rebuy(t: TournamentState, cmd: Rebuy, emit: Emit) -> None:
    s = t.structure
    if not s.rebuy_until or _level(t) > s.rebuy_until:
        raise TournamentIllegal("29", "no rebuys now", code="rebuy_closed")
    p = seated(t, cmd.player)
    assert p.table is not None and p.seat is not None
    if s.max_rebuys and p.rebuys >= s.max_rebuys:
        raise TournamentIllegal("29", f"{s.max_rebuys} rebuys at most", code="rebuy_limit")
    ceiling = s.rebuy_max_stack or s.starting_stack
    if p.stack > ceiling:
        raise TournamentIllegal(
            "29", f"a rebuy is for {words.chips(ceiling)} or less", code="rebuy_stack"
        )
    emit(
        ChipsAdded(
            player=p.player,
            table=p.table,
            seat=p.seat,
            chips=s.rebuy_stack,
            kind="rebuy",
            price=s.rebuy_price,
            pool=payouts.collected(t) + s.rebuy_price,
            rules=["29"],
            text=f"{p.name or p.player} rebuys: plays the next hand with "
            f"{words.chips(p.stack + s.rebuy_stack)} (29)",
        )
    )


def add_on(t: TournamentState, cmd: AddOn, emit: Emit) -> None:
    s = t.structure
    if not s.add_on_until or _level(t) > s.add_on_until:
        raise TournamentIllegal("29", "no add-ons now", code="add_on_closed")
    p = seated(t, cmd.player)
    assert p.table is not None and p.seat is not None
    if p.add_on:
        raise TournamentIllegal("29", "one add-on per entry", code="add_on_taken")
    emit(
        ChipsAdded(
            player=p.player,
            table=p.table,
            seat=p.seat,
            chips=s.add_on_stack,
            kind="add_on",
            price=s.add_on_price,
            pool=payouts.collected(t) + s.add_on_price,
            rules=["29"],
            text=f"{p.name or p.player} takes the add-on: {words.chips(s.add_on_stack)}",
        )
    )


def chip_penalty(t: TournamentState, cmd: ChipPenalty, emit: Emit) -> None:
    p = seated(t, cmd.player)
    assert p.table is not None and p.seat is not None
    removed = min(cmd.chips, p.stack)
    if removed < 1:
        raise TournamentIllegal(
            "RP-26", "a chip penalty names the chips to take out of play", field="$.chips"
        )
    emit(
        ChipsRemoved(
            player=p.player,
            table=p.table,
            seat=p.seat,
            chips=removed,
            kind="penalty",
            reason=cmd.reason,
            rules=["74-A", "RP-26"],
            text=f"{p.name or p.player}: {words.chips(removed)} chips out of play"
            + (f" for {cmd.reason}" if cmd.reason else "")
            + " (74-A, RP-26)",
        )
    )


def disqualify(t: TournamentState, cmd: Disqualify, emit: Emit) -> None:
    p = player(t, cmd.player)
    if p.status not in ("registered", "seated"):
        raise TournamentIllegal("74-D", f"{p.name or p.player} is not in the tournament")
    chips = p.stack if p.status == "seated" else 0
    emit(
        Disqualified(
            player=p.player,
            entry=p.entry,
            table=p.table,
            seat=p.seat,
            chips=chips,
            reason=cmd.reason,
            text=f"{p.name or p.player} disqualified"
            + (f" for {cmd.reason}" if cmd.reason else "")
            + f"; {words.chips(chips)} chips out of play (74-D, RP-23-A)",
        )
    )


def color_up(t: TournamentState, cmd: ColorUp, emit: Emit) -> None:
    if cmd.draw is not None:
        race.race(t, cmd, emit)
        return
    tab = t.tables.get(cmd.table)
    if tab is None:
        raise TournamentIllegal("", f"no table {cmd.table}", code="unknown_table", field="$.table")
    for seat, chips in sorted(cmd.removed.items()):
        who = t.at_seat(cmd.table, seat)
        if who is None or chips > who.stack:
            raise TournamentIllegal(
                "26-C", f"seat {seat} cannot give up {words.chips(chips)}", field="$.removed"
            )
    for seat, chips in sorted(cmd.removed.items()):
        if not chips:
            continue
        emit(
            ChipsRemoved(
                player=tab.occupied[seat],
                table=cmd.table,
                seat=seat,
                chips=chips,
                kind="color_up",
                rules=["26-C"],
                text=f"Seat {seat}: {words.chips(chips)} in colored-up chips removed (26-C)",
            )
        )
