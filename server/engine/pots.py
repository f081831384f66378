"""Main and side pots, and splitting them to the chip (rules 21, 23).

Pots are layered by what each seat put in this hand; a seat is eligible for every layer it
matched. Dead money (a big-blind ante) belongs to the main pot.
"""

from __future__ import annotations

from itertools import pairwise
from math import gcd

import msgspec

from server.engine import stud
from server.engine.state import TableState


class Pot(msgspec.Struct, frozen=True):
    """A pot and who may win it; a struct rather than a frozen dataclass: every round's end
    makes its pots, and a struct is made in a fifth of the time."""

    amount: int
    eligible: tuple[int, ...]


def layered(t: TableState, returned: dict[int, int] | None = None) -> list[Pot]:
    """Main pot first, then each side pot; adjacent layers with the same players merge.

    ``returned`` takes uncalled chips off their owners first, as at the end of a round.
    """
    back = returned or {}
    paid: dict[int, int] = {}
    live: list[int] = []
    for s in t.seats:
        if s.paid > 0:
            paid[s.number] = s.paid - back.get(s.number, 0)
        if s.dealt and not s.folded and not s.mucked:
            live.append(s.number)
    levels = sorted({paid.get(n, 0) for n in live})
    if len(levels) == 1:
        # Every live hand put in the same: one pot, everything in it (asked at every round's
        # end and at the showdown, this is most hands).
        return [Pot(sum(paid.values()) + t.dead, tuple(live))]
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        amount = sum(min(p, level) - min(p, floor) for p in paid.values())
        eligible = tuple(n for n in live if paid.get(n, 0) >= level)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount or not pots:
            pots.append(Pot(amount, eligible))
        floor = level
    leftover = sum(paid.values()) - sum(p.amount for p in pots)
    if not pots:
        pots.append(Pot(0, tuple(live)))
    if leftover:
        # Chips from seats that folded after putting in more than any live seat matched.
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    if t.dead:
        pots[0] = Pot(pots[0].amount + t.dead, pots[0].eligible)
    return pots


def seats_from_button(t: TableState, seats: list[int]) -> list[int]:
    """Order seats clockwise starting left of the button (21-A: the odd chip goes first)."""
    return sorted(seats, key=lambda n: (n <= t.button, n))


def smallest_chip(t: TableState) -> int:
    """The smallest chip in play, into which odd chips are changed first (21).

    ``t.chips`` are the table's denominations. One is in play while something at the table
    needs it: a stack, a seat's chips in this hand, the dead money, a blind or the ante is not
    a whole number of the next larger chip. Once nothing needs it, it has been raced off
    (colour-up, 26-A) and the next one up is the smallest in play. Amounts that even the
    smallest listed chip cannot make (a table that lists too few chips) are paid in the unit
    that makes every one of them.
    """
    amounts = [*t.level.blinds, t.level.ante, t.level.bring_in, t.dead]
    for s in t.seats:
        amounts += [s.stack, s.paid]
    chip = t.chips[-1]
    for smaller, larger in pairwise(t.chips):
        if any(a % larger for a in amounts):
            chip = smaller
            break
    return gcd(chip, *amounts)


def split(t: TableState, amount: int, winners: list[int], low: bool = False) -> dict[int, int]:
    """Share ``amount`` equally in whole units of the smallest chip in play; the odd units go
    one each to the first winners left of the button (21-A); in stud to the winner holding
    the highest card by suit (21-B; ``low``: in the five of its low)."""
    if len(winners) == 1:
        return {winners[0]: amount}
    if stud.is_stud(t):
        order = stud.odd_chip_order(t, winners, low)
    else:
        order = seats_from_button(t, winners)
    unit = smallest_chip(t)
    each, odd = divmod(amount // unit, len(order))
    return {n: (each + (i < odd)) * unit for i, n in enumerate(order)}


def odd_chip_rule(t: TableState) -> str:
    """The rule an odd chip of a split pot goes by: by position (21-A), in stud by suit (21-B)."""
    return "21-B" if stud.is_stud(t) else "21-A"


def split_hi_lo(t: TableState, amount: int, high: list[int], low: list[int]) -> dict[int, int]:
    """Halve a pot for high and low in units of the smallest chip in play; the odd unit of
    the halving goes high (21-C). Each half is then split by 21-A."""
    if not low:
        return split(t, amount, high)
    unit = smallest_chip(t)
    low_half = amount // unit // 2 * unit
    shares = split(t, amount - low_half, high)
    for seat, chips in split(t, low_half, low, low=True).items():
        shares[seat] = shares.get(seat, 0) + chips
    return shares
