"""The button and the blinds as the tournament sees each table (34, 36-B, 11-A), for balancing
(12-A) and the stoppage (12-D).

The tournament never deals: each table's hand end tells it where the next hand puts the button,
the small blind (the last big blind's seat, empty for a dead small blind) and the big blind,
and which seats will not be dealt (``hand_ended``, computed from the table by the glue). From
those facts and the seats it has filled or emptied since, it reads the table the way its
dead-button rotation goes: the big blind moves to the first dealt seat after the last one, so
the player **next to be the big blind** is the first dealt seat clockwise after the next small
blind, and the seat that takes the big blind **soonest** for a newcomer is the first empty seat
clockwise after it — never the small blind's own seat, and a seat whose big blind comes with
a dead small blind (a single big blind) counts like any other (12-A). A newcomer between the
small blind and the button is not dealt in until the button passes (11-A): such seats come
last. One on the empty seat the button moves to would take the button before any blind — the
best position — so that seat is never the worst either: with no other seat free the table gets
no move until its next hand has moved the button on.
"""

from __future__ import annotations

from server.tournament.state import Facts, Table


def clockwise(seats: int, after: int) -> list[int]:
    """Seats 1..``seats`` clockwise, starting with the one after seat ``after`` (0: seat 1)."""
    return [(after + i) % seats or seats for i in range(1, seats + 1)] if seats else []


def between(seat: int, start: int, end: int) -> bool:
    """``seat`` lies strictly clockwise-between ``start`` and ``end``."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def facts(tab: Table) -> Facts:
    """The table's facts; before its first hand, those of a first hand from its button: every
    player is dealt, the small blind is the first player after the button and the big blind
    the next (so the seat right after the small blind's takes the big blind soonest)."""
    if tab.facts is not None:
        return tab.facts
    small = next((s for s in clockwise(tab.seats, tab.button) if s in tab.occupied), 0)
    return Facts(button=tab.button, small_blind=small)


def not_dealt(tab: Table) -> set[int]:
    """Seats the next hand will not deal: those reported, and newcomers since the report who
    sit between the small blind and the button (11-A)."""
    f = tab.facts
    if f is None:
        return set()  # a table's first hand deals every player
    late = {s for s in tab.joined if f.button and between(s, f.button, f.small_blind)}
    return ({*f.waiting, *late} - set(tab.joined)) | late


def next_big_blind(tab: Table, skip: set[int] | None = None) -> int | None:
    """The seat of the player next to be the big blind (12-A) — past the seats in ``skip``
    (players already leaving); None with fewer than two dealt."""
    dealt = set(tab.occupied) - not_dealt(tab)
    if len(dealt) < 2:
        return None
    f = facts(tab)
    skip = skip or set()
    return next((s for s in clockwise(tab.seats, f.small_blind) if s in dealt - skip), None)


def worst_seat(tab: Table, taken: set[int] | None = None) -> int | None:
    """The empty seat a newcomer would take the big blind from soonest (12-A): the first empty
    seat clockwise after the next small blind's, never that seat nor the one the button moves
    to; seats where a newcomer waits for the button come last. None when none is left."""
    taken = taken or set()
    if tab.facts is None:
        return _first_hand_worst(tab, taken)
    f = tab.facts
    empty = [
        s for s in clockwise(tab.seats, f.small_blind) if s not in tab.occupied and s not in taken
    ]
    if f.small_blind:
        empty = [s for s in empty if s != f.small_blind]
    if f.button in empty:
        # A newcomer on the empty seat the button moves to takes the button before any blind:
        # the best position, never the worst (12-A). No move there: the next hand moves it on.
        empty.remove(f.button)
    waits = [s for s in empty if f.button and between(s, f.button, f.small_blind)]
    ordered = [s for s in empty if s not in waits] + waits
    return ordered[0] if ordered else None


def _first_hand_worst(tab: Table, taken: set[int]) -> int | None:
    """Before a table's first hand everyone is dealt from its button: the small blind is the
    first player after the button, the big blind the next — heads up the button's player
    posts the small blind. A newcomer's seat is worst when it posts the big blind in the
    fewest hands counted from the first one; the seat that would post the first small blind
    is never chosen (12-A). An empty table, or a lone player (heads up, every other seat posts
    the first big blind), takes the first seat after the button."""
    there = set(tab.occupied) | taken
    empty = [s for s in clockwise(tab.seats, tab.button) if s not in there]
    if len(there) < 2:
        return empty[0] if empty else None

    def wait(seat: int) -> int | None:
        """Hands before ``seat`` posts the big blind, None when it posts the first small blind."""
        order = [s for s in clockwise(tab.seats, tab.button) if s in there or s == seat]
        if len(order) == 2 and tab.button in order:
            order = [tab.button, *(s for s in order if s != tab.button)]  # heads up
        if order[0] == seat:
            return None
        return (order.index(seat) - 1) % len(order)

    ranked = [(w, i, s) for i, s in enumerate(empty) if (w := wait(s)) is not None]
    return min(ranked)[2] if ranked else None


def blinds_affected(tab: Table) -> bool:
    """The next hand's blinds fall on an empty seat: the small blind's seat is empty (a dead
    small blind), or the big blind would fall on the empty seat after it (12-D, addendum)."""
    f = tab.facts
    if f is None or not f.small_blind:
        return False
    after = f.small_blind % tab.seats + 1
    return f.small_blind not in tab.occupied or after not in tab.occupied


def order_from(dealt: list[int], seat: int) -> list[int]:
    """``dealt`` clockwise from ``seat`` (included when dealt)."""
    dealt = sorted(dealt)
    later = [s for s in dealt if s >= seat]
    return later + [s for s in dealt if s < seat]
