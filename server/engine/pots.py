"""Main and side pots, and splitting them to the chip (rules 21, 23).

Pots are layered by what each seat put in this hand; a seat is eligible for every layer it
matched. Dead money (a big-blind ante) belongs to the main pot.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.state import TableState


@dataclass(frozen=True)
class Pot:
    amount: int
    eligible: tuple[int, ...]


def layered(t: TableState, returned: dict[int, int] | None = None) -> list[Pot]:
    """Main pot first, then each side pot; adjacent layers with the same players merge.

    ``returned`` takes uncalled chips off their owners first, as at the end of a round.
    """
    back = returned or {}
    paid = {s.number: s.paid - back.get(s.number, 0) for s in t.seats if s.paid > 0}
    live = [s.number for s in t.live()]
    levels = sorted({paid.get(n, 0) for n in live})
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


def split(t: TableState, amount: int, winners: list[int]) -> dict[int, int]:
    """Share ``amount`` equally in units of the smallest chip in play; odd units go to the
    first winners left of the button (21-A). Anything below one unit goes the same way."""
    order = seats_from_button(t, winners)
    unit = min(t.chips) if amount % len(order) else 1
    units, rest = divmod(amount, unit)
    each, odd = divmod(units, len(order))
    shares = {n: each * unit for n in order}
    for n in order[:odd]:
        shares[n] += unit
    shares[order[0]] += rest
    return shares


def split_hi_lo(t: TableState, amount: int, high: list[int], low: list[int]) -> dict[int, int]:
    """Halve a pot for high and low; the odd chip of the halving goes high (21-C)."""
    if not low:
        return split(t, amount, high)
    unit = min(t.chips) if amount % 2 else 1
    low_half = (amount // unit // 2) * unit
    shares = split(t, amount - low_half, high)
    for seat, chips in split(t, low_half, low).items():
        shares[seat] = shares.get(seat, 0) + chips
    return shares
