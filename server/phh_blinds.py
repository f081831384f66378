"""The PHH history's head for the games with a button and blinds (the flop games and the draw
games): the players dealt in, in PHH's order, their blinds and antes, the bet sizes and the
stacks before and after the hand.

PHH has no button: its players are listed from the first seat left of the button (heads-up the
big blind first, as PHH and PokerKit read it), and the blinds are the first entries. A hand
whose blinds do not sit where PHH's order puts them is refused rather than written with the
blinds on other players.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from protocol.events import Event, HandEnd, HandStart
from server.engine import TableState
from server.engine.games import FIXED_LIMIT, hole_count
from server.phh_history import Inexpressible, players


def order(start: HandStart) -> list[int]:
    """The seats dealt in, in PHH's order: from the first seat left of the button; heads-up
    the big blind first, the button (the small blind) second."""
    dealt = sorted(start.dealt)
    after = [n for n in dealt if n > start.button] + [n for n in dealt if n <= start.button]
    if len(after) < 2:
        raise Inexpressible("fewer than two players were dealt in")
    if len(after) == 2:
        if after != [start.big_blind, start.small_blind]:
            raise Inexpressible("heads-up, the button does not post the small blind (36-C)")
        return after
    if start.small_blind is not None and after[:2] != [start.small_blind, start.big_blind]:
        raise Inexpressible("the blinds are not the first two seats left of the button")
    if start.small_blind is None and after[0] != start.big_blind and any(start.blinds):
        raise Inexpressible("a dead small blind with the big blind not left of the button")
    for post in start.posts:
        if post.seat not in after:
            raise Inexpressible(f"seat {post.seat} posted without being dealt in")
    return after


Actions = Callable[[HandStart, list[Event], list[int], int], Iterable[str]]
"""A family's actions: the hand's start, its events, the seats in PHH's order, the hole cards."""


def fields(
    variant: str,
    game: str,
    base: TableState,
    events: list[Event],
    ends: tuple[HandStart, HandEnd],
    actions: Actions,
) -> dict[str, object]:
    """A hand dealt with a button and blinds (the flop and the draw games): the head, the
    actions the family writes, the tail."""
    start, end = ends
    seats = order(start)
    return {
        **head(variant, game, base, start, seats),
        "actions": list(actions(start, events, seats, hole_count(game))),
        **tail(base, start, end, seats),
    }


def head(
    variant: str, game: str, base: TableState, start: HandStart, seats: list[int]
) -> dict[str, object]:
    """The fields before the actions: the level as PHH states it and the stacks; the fixed
    limit games bet the level's minimum bet, then twice it (as the engine does)."""
    stacks = {s.number: s.stack for s in base.seats}
    bet = start.min_bet or start.blinds[1]
    sizes: dict[str, object] = (
        {"small_bet": bet, "big_bet": 2 * bet} if game in FIXED_LIMIT else {"min_bet": bet}
    )
    return {
        "variant": variant,
        "antes": _antes(start, seats, stacks),
        "blinds_or_straddles": _blinds(start, seats),
        **sizes,
        "starting_stacks": [stacks[seat] for seat in seats],
    }


def tail(base: TableState, start: HandStart, end: HandEnd, seats: list[int]) -> dict[str, object]:
    """The fields after the actions: the hand's number, who sat where and how they finished."""
    return {
        "hand": start.hand,
        "seats": seats,
        "players": players(base, seats),
        "finishing_stacks": [end.stacks.get(seat, 0) for seat in seats],
    }


def _blinds(start: HandStart, seats: list[int]) -> list[int]:
    small, big = start.blinds
    blinds = [0] * len(seats)
    if not big:
        return blinds
    if len(seats) == 2:
        return [small, big]
    if start.small_blind is None:
        blinds[0] = big
        return blinds
    blinds[0], blinds[1] = small, big
    return blinds


def _antes(start: HandStart, seats: list[int], stacks: dict[int, int]) -> list[int]:
    if not start.ante:
        return [0] * len(seats)
    if not start.bba:
        return [start.ante] * len(seats)
    if stacks[start.big_blind] < start.blinds[1] + start.ante:
        raise Inexpressible(
            "a big blind short of the blind and its ante: RP-11 posts the blind first, PHH the ante"
        )
    return [start.ante if seat == start.big_blind else 0 for seat in seats]
