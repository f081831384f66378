"""The prize pool and the payout table (shown before registration closes, fixed when it does).

The pool follows the entries, re-entries, rebuys and add-ons; a guarantee tops it up. A
percentage table is paid in whole units, rounded down, the odd units to first place. Players
out in the same hand with equal starting stacks share their places' prizes (22), the odd units
one each in the order they are listed.
"""

from __future__ import annotations

from fractions import Fraction

from protocol.tournament import Prize, Structure
from server.tournament.state import TournamentState

#: The standard curve (percent by place), by the fewest entries it applies to.
STANDARD: tuple[tuple[int, tuple[int, ...]], ...] = (
    (1, (100,)),
    (7, (65, 35)),
    (11, (50, 30, 20)),
    (21, (45, 25, 18, 12)),
    (31, (40, 23, 16, 12, 9)),
    (51, (35, 21, 15, 11, 8, 6, 4)),
    (76, (31, 19, 13, 10, 8, 6, 5, 4, 4)),
)


def collected(state: TournamentState) -> int:
    """Buy-ins, rebuys and add-ons: what the players paid into the pool."""
    s = state.structure
    return state.entries * s.buy_in + state.rebuys * s.rebuy_price + state.add_ons * s.add_on_price


def prize_pool(state: TournamentState) -> int:
    return max(collected(state), state.structure.guarantee)


def payout_table(structure: Structure, entries: int, pool: int) -> list[int]:
    """Prizes by place (index 0 is first) for ``entries`` entries and a pool of ``pool``."""
    if entries < 1:
        return []
    places = _places(structure, entries)
    if places and places[0].amount:
        return [p.amount for p in places for _ in range(p.place, p.last + 1)]
    percents = [Fraction(str(p.percent)) for p in places for _ in range(p.place, p.last + 1)]
    if not percents:
        percents = [Fraction(w) for w in _standard(entries)]
    percents = percents[: max(1, entries)]
    scale = sum(percents, Fraction(0))
    prizes = [int(pool * pct / scale) for pct in percents]
    prizes[0] += pool - sum(prizes)
    return prizes


def _places(structure: Structure, entries: int) -> list[Prize]:
    payouts = structure.payouts
    if payouts.places:
        return list(payouts.places)
    chosen: list[Prize] = []
    for bracket in payouts.by_entries:
        if entries >= bracket.entries or not chosen:
            chosen = list(bracket.places)
    return chosen


def _standard(entries: int) -> tuple[int, ...]:
    if entries <= 100:
        return next(w for least, w in reversed(STANDARD) if entries >= least)
    paid = entries // 10
    return tuple(10_000 // place for place in range(1, paid + 1))


def shares(prizes: list[int], first: int, count: int) -> list[int]:
    """What each of ``count`` entries sharing places ``first`` .. get (22): equal parts."""
    total = sum(prizes[first - 1 + i] if first - 1 + i < len(prizes) else 0 for i in range(count))
    each, odd = divmod(total, count)
    return [each + (1 if i < odd else 0) for i in range(count)]
