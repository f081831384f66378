"""A stud hand (seven-card stud, stud hi-lo, razz) as a PHH history (``F7S``, ``F7S/8``, ``FR``).

Stud has no button or blinds: the players are listed by seat number, the order both the table
and PHH act in (clockwise, wrapping round), and PHH finds the bring-in and the best board from
the up-cards as the table did. Each street is one ``d dh`` a hand: third street's two
down-cards and its up-card, one card on each later street, seventh street's down-card (``??``
when not entered; a down-card tabled at the showdown is written where it was dealt). The
bring-in is ``pb``, the completion a ``cbr`` to the small bet, as ``server.phh`` reads them back.

Refused besides the rulings every game refuses: a down-card exposed on the deal and played as
the up-card (RP-10-A), and seventh street dealt as one community card (RP-10-H): PHH deals
every stud card to a hand, face down or face up as the street says.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.events import ActionEvent, CardsShown, Dealt, Event, ExposeAll, HandEnd, HandStart
from server.engine import TableState
from server.phh_history import (
    UNKNOWN_CARD,
    Inexpressible,
    act,
    at_showdown,
    labels,
    last_in,
    players,
)

_SLOTS = {"fourth": 3, "fifth": 4, "sixth": 5, "seventh": 6}
"""Where each later street's card sits among a hand's seven (0, 1 down, 2 up: third street)."""


def fields(
    variant: str, game: str, base: TableState, start: HandStart, end: HandEnd, events: list[Event]
) -> dict[str, object]:
    if start.exposed:
        raise Inexpressible(
            "a down-card exposed on the deal and played as the up-card (RP-10-A), "
            "which PHH has no words for"
        )
    seats = sorted(start.dealt)
    if len(seats) < 2:
        raise Inexpressible("fewer than two players were dealt in")
    stacks = {s.number: s.stack for s in base.seats}
    return {
        "variant": variant,
        "antes": [start.ante] * len(seats),
        "bring_in": start.bring_in,
        "small_bet": start.min_bet,
        "big_bet": 2 * start.min_bet,
        "starting_stacks": [stacks[seat] for seat in seats],
        "actions": list(_actions(start, events, seats, _cards(start, events))),
        "hand": start.hand,
        "seats": seats,
        "players": players(base, seats),
        "finishing_stacks": [end.stacks.get(seat, 0) for seat in seats],
    }


def _cards(start: HandStart, events: list[Event]) -> dict[int, list[str]]:
    """Each hand's seven cards in the order dealt, ``??`` where never entered nor tabled."""
    cards = {seat: [UNKNOWN_CARD] * 7 for seat in start.dealt}

    def down(seat: int, known: list[str]) -> None:
        """The down-cards as entered or tabled: the first two, then seventh street's."""
        for slot, card in zip((0, 1, 6), known, strict=False):
            cards[seat][slot] = card

    for seat, dealt in start.cards.items():
        down(seat, list(dealt))
    for seat, up in start.up.items():
        cards[seat][2] = up[0]
    for e in events:
        match e:
            case Dealt() if e.cards:
                raise Inexpressible(
                    "seventh street dealt as one community card (RP-10-H): "
                    "PHH deals every stud card to a hand"
                )
            case Dealt():
                for seat, dealt in {**e.up, **e.down}.items():
                    cards[seat][_SLOTS[e.street]] = dealt[0]
            case CardsShown() if not e.partial and not e.mucked:
                down(e.seat, list(e.cards))
            case ExposeAll():
                for seat, shown in e.cards.items():
                    down(seat, list(shown))
    return cards


def _actions(
    start: HandStart, events: list[Event], seats: list[int], cards: dict[int, list[str]]
) -> Iterable[str]:
    """The deal and the betting street by street, then the showdown: PHH's stud shows the
    hands once the last card is out, so a hand exposed at an all-in (17) is shown there."""
    player = labels(seats)
    held = dict.fromkeys(seats, 3)
    for seat in seats:
        yield f"d dh {player[seat]} {''.join(cards[seat][:3])}"
    folded: set[int] = set()
    tabled: list[tuple[int, bool]] = []
    """The showdown: each seat shown or mucked (true), in the table's order."""
    opened = False

    def hand(seat: int) -> str:
        """The seat's cards dealt so far."""
        return "".join(cards[seat][: held[seat]])

    for e in events:
        shown = {seat for seat, _ in tabled}
        match e:
            case ActionEvent():
                folded |= {e.seat} if e.action == "fold" else set()
                if not opened and e.action != "fold":
                    opened = True
                    if e.action != "bring_in" and e.total <= start.bring_in:
                        # A bring-in of all the seat had, read as a bet: PHH's bring-in.
                        yield f"{player[e.seat]} pb"
                        continue
                yield act(e, player[e.seat])
            case Dealt():
                opened = True
                slot = _SLOTS[e.street]
                for seat in seats:
                    if seat not in folded:
                        held[seat] = slot + 1
                        yield f"d dh {player[seat]} {cards[seat][slot]}"
            case ExposeAll():
                tabled += [(seat, False) for seat in seats if seat not in folded | shown]
            case CardsShown() if at_showdown(e, len(seats) - len(folded), folded, shown):
                tabled.append((e.seat, e.mucked))
    for seat, mucked in tabled:
        yield (f"{player[seat]} sm" if mucked else f"{player[seat]} sm {hand(seat)}")
    winner = last_in(seats, folded, {seat for seat, _ in tabled})
    if winner is not None and UNKNOWN_CARD not in hand(winner):
        yield f"{player[winner]} sm {hand(winner)}"
