"""Where the button and the blinds go for the next hand (rules 9, 11, 34, 36).

Tournaments play a dead button (34): the big blind moves to the next player, the small blind
sits where the big blind was, and the button where the small blind was — even on an empty
seat. When the button would be dead and several seats are empty, it moves past them so that
as many new players as possible can play at once (36-B). A new player plays from any seat,
the blinds' and the button's included, except one between the small blind and the button,
which waits for the button to pass (9-A, 11-A). Heads-up the small blind is the button
(36-C), and nobody takes the big blind twice in a row.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.engine.state import TableState


@dataclass(frozen=True)
class Positions:
    button: int
    small_blind: int | None
    sb_pos: int
    big_blind: int
    dealt: tuple[int, ...]


def _after(numbers: list[int], seat: int) -> int:
    """The first of ``numbers`` clockwise after seat ``seat``."""
    later = [n for n in numbers if n > seat]
    return later[0] if later else numbers[0]


def _between(seat: int, start: int, end: int) -> bool:
    """Seat lies strictly clockwise-between ``start`` and ``end``."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def next_positions(t: TableState) -> Positions | None:
    """Button, blinds and the seats dealt in; None when fewer than two can play."""
    players = [s.number for s in t.seats if s.stack > 0]
    if len(players) < 2:
        return None
    if not t.started:
        first = t.button
        if t.dead_small_blind and len(players) > 2:
            # 34: the big blind left of the button, no small blind; the button stays for the
            # next hand, whose small blind is this big blind.
            return Positions(first, None, first, _after(players, first), tuple(players))
        small = first if len(players) == 2 and first in players else _after(players, first)
        return Positions(first, small, small, _after(players, small), tuple(players))
    sb_pos = t.big_blind
    button = _button(t, players, sb_pos)
    # 9-A, 11-A: a new player plays from any seat, the button's included, but one seated
    # between the small blind and the button waits for the button to pass.
    waiting = {s.number for s in t.seats if s.waiting and _between(s.number, button, sb_pos)}
    dealt = [n for n in players if n not in waiting]
    if len(dealt) < 2:
        return None
    bb = _after(dealt, t.big_blind)
    if len(dealt) == 2:
        other = next(n for n in dealt if n != bb)
        return Positions(other, other, other, bb, tuple(dealt))
    sb = sb_pos if sb_pos in dealt else None
    return Positions(button, sb, sb_pos, bb, tuple(dealt))


def _button(t: TableState, players: list[int], sb_pos: int) -> int:
    """Where the button goes: where the small blind was (34), moved on past empty seats (36-B).

    Seats taken by new players since the last hand still count as empty here: the button moved
    past them when the hand ended, before anyone sat down (36-B). When nobody sits after the
    last big blind before the last small blind (heads-up, 36-C, or down to two), the last small
    blind is the next big blind — nobody skips it (36-B) — so the button cannot go there: it
    goes to the seat right of the small blind, and new players seated before it play.
    """
    if _after(players, t.big_blind) == t.sb_pos:
        return _before(sb_pos)
    button = t.sb_pos
    occupied = {s.number for s in t.seats if not s.waiting}
    if button not in occupied:
        step = button % 10 + 1
        while step != sb_pos and step not in occupied:
            button = step
            step = step % 10 + 1
    return button


def rotation(t: TableState) -> tuple[int, int] | None:
    """Where a started table's rotation puts the next hand's button and small blind when three
    or more play (34, 36-B) — heads-up included, where a third player sitting down would play
    it so (what the tournament reads to seat a moved player, 12-A). None before a first hand."""
    if not t.started:
        return None
    players = [s.number for s in t.seats if s.stack > 0]
    if not players:
        return None
    return _button(t, players, t.big_blind), t.big_blind


def placed_at(t: TableState, correct: Positions, button: int) -> Positions:
    """The blinds that follow from a button the dealer put on ``button`` instead (36-A)."""
    dealt = list(correct.dealt)
    if len(dealt) == 2:
        small = button if button in dealt else _after(dealt, button)
    else:
        small = _after(dealt, button)
    return Positions(button, small, small, _after(dealt, small), correct.dealt)


def _before(seat: int) -> int:
    """The seat to the right of ``seat`` (seats 1-10 round the table)."""
    return (seat - 2) % 10 + 1
