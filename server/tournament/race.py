"""The chip race of a scheduled color-up (26-A, 26-C).

At a break the structure names the denominations raced off. At each table every seat's chips
of those denominations are first exchanged at full value for the smallest chip left in play
(26-C); what cannot be — each seat's odd chips, worth less than one new chip — races. The dealer
records what each seat holds in the raced denominations (``odd``; a seat not named holds its
stack's remainder below the new chip), and the random input ``draw`` deals each seat with odd
chips one card face up, from seat 1. The odd chips together make so many new chips: the
highest cards, suits counting, win one each, at most one a player (26-A). A player who would
lose the last chip in the race is given one chip of the smallest denomination still in play:
nobody is raced out (26-A). What is left below one new chip leaves play without compensation
(26-C). So chips in play change by exactly that remainder, less the chips given to players
who would have been raced out.
"""

from __future__ import annotations

from protocol.tournament import ChipRace, ColorUp
from server.tournament import draws, words
from server.tournament.errors import TournamentIllegal
from server.tournament.moves import Emit
from server.tournament.state import TournamentState


def raced_off(t: TournamentState) -> set[int]:
    """The denominations the breaks so far raced off (26-A)."""
    steps = t.structure.levels[: t.clock.step + 1] if t.clock.started else []
    return {chip for step in steps if step.is_break for chip in step.color_up}


def race(t: TournamentState, cmd: ColorUp, emit: Emit) -> None:
    tab = t.tables.get(cmd.table)
    if tab is None:
        raise TournamentIllegal("", f"no table {cmd.table}", code="unknown_table", field="$.table")
    if cmd.removed:
        raise TournamentIllegal(
            "26-C", "give the race's `draw` or the chips `removed`, not both", field="$.removed"
        )
    raced = raced_off(t)
    left = sorted(c for c in t.structure.chips if c not in raced)
    if not raced or not left:
        raise TournamentIllegal(
            "26-A", "no denomination is raced off by the breaks so far", code="no_race"
        )
    unit = left[0]
    rest: dict[int, int] = {}
    stacks: dict[int, int] = {}
    for seat, who in sorted(tab.occupied.items()):
        stack = t.players[who].stack
        odd = cmd.odd.get(seat)
        if odd is not None and (odd > stack or (stack - odd) % unit):
            raise TournamentIllegal(
                "26-C",
                f"seat {seat} holds {words.chips(stack)}: {words.chips(odd)} in raced chips "
                f"would leave a stack that is not whole {words.chips(unit)} chips",
                field="$.odd",
            )
        stacks[seat] = stack
        if stack % unit:
            rest[seat] = stack % unit
    for seat in cmd.odd:
        if seat not in tab.occupied:
            raise TournamentIllegal("26-A", f"there is no player in seat {seat}", field="$.odd")
    racing = sorted(rest)
    cards = dict(zip(racing, draws.dealt(len(racing), cmd.draw or 0), strict=True))
    chips = sum(rest.values()) // unit
    winners = sorted(draws.by_high_card(cards)[:chips])
    rescued = [s for s in racing if s not in winners and stacks[s] == rest[s]]
    won = {s: unit for s in sorted([*winners, *rescued])}
    remainder = sum(rest.values()) - chips * unit
    wins = ", ".join(f"seat {s} ({cards[s]})" for s in winners) or "nobody"
    saved = (
        f"; seat {', '.join(map(str, rescued))} keeps one chip, not raced out" if rescued else ""
    )
    emit(
        ChipRace(
            table=cmd.table,
            unit=unit,
            chips=left,
            odd=rest,
            cards=cards,
            winners=winners,
            rescued=rescued,
            removed=rest,
            won=won,
            remainder=remainder,
            draw=cmd.draw or 0,
            text=f"Chip race at table {cmd.table}: {words.chips(sum(rest.values()))} in odd "
            f"chips make {chips} chip(s) of {words.chips(unit)}, one each to the high cards: "
            f"{wins}{saved} (26-A); {words.chips(remainder)} removed without compensation "
            "(26-C)",
        )
    )
