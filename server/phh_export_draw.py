"""A draw hand (2-7 triple draw, no-limit 2-7 single draw, badugi) as a PHH history
(``F2L3D``, ``N2L1D``, ``FB``).

The head is the flop games' (``server.phh_blinds``: a button and blinds). Each draw is PHH's
``sd`` a seat, in the table's order (the first live hand left of the button first, RP-25-D),
with the cards thrown, then once the round is drawn the cards dealt for them (``d dh``), as
PHH lists a round and ``server.phh`` reads it back. A hand's cards are written when the dealer
entered all of them, the hand and every draw's discards and cards; otherwise every card of it
is ``??`` and only the count of each draw is written, the hand tabled at the showdown being
the one the table read. A reshuffle of the stub (RP-25) is not PHH's to say, but the cards
each hand was dealt are, so such a hand is written.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.events import (
    ActionEvent,
    CardsShown,
    Dealt,
    Drawn,
    Event,
    ExposeAll,
    HandEnd,
    HandStart,
)
from server import phh_blinds
from server.engine import TableState
from server.phh_history import (
    Inexpressible,
    act,
    at_showdown,
    card_text,
    known,
    labels,
    last_in,
)


def fields(
    variant: str, game: str, base: TableState, start: HandStart, end: HandEnd, events: list[Event]
) -> dict[str, object]:
    return phh_blinds.fields(variant, game, base, events, (start, end), _actions)


def _entered(start: HandStart, events: list[Event], count: int) -> set[int]:
    """The seats whose every card the dealer entered: the hand dealt, and for every draw the
    cards thrown (from the hand held) and as many dealt."""
    held = {s: list(c) for s, c in start.cards.items() if len(c) == count and known(list(c))}
    for e in events:
        if not isinstance(e, Drawn) or e.seat not in held or not e.count:
            continue
        thrown, dealt = list(e.thrown), list(e.cards)
        entered = len(thrown) == len(dealt) == e.count and known(thrown + dealt)
        if not entered or not set(thrown) <= set(held[e.seat]):
            del held[e.seat]
            continue
        held[e.seat] = [c for c in held[e.seat] if c not in thrown] + dealt
    return set(held)


def _actions(start: HandStart, events: list[Event], seats: list[int], count: int) -> Iterable[str]:
    """The deal, the betting and the draws in order, then the showdown: PHH shows the hands
    once the last draw is dealt, so a hand exposed at an all-in (17) is shown there."""
    player = labels(seats)
    entered = _entered(start, events, count)
    held = {seat: list(start.cards[seat]) if seat in entered else [] for seat in seats}
    for seat in seats:
        yield f"d dh {player[seat]} {card_text(held[seat], count)}"
    folded: set[int] = set()
    tabled: dict[int, list[str] | None] = {}
    """The showdown: each seat's hand as tabled (None: mucked), in the table's order."""
    dealing: list[str] = []
    for e in events:
        if isinstance(e, ActionEvent | Dealt):
            yield from dealing
            dealing.clear()
        match e:
            case ActionEvent():
                folded |= {e.seat} if e.action == "fold" else set()
                yield act(e, player[e.seat])
            case Drawn():
                if e.seat in tabled and e.seat not in entered and e.count:
                    raise Inexpressible(
                        f"seat {e.seat} drew after its hand was tabled, its discards not "
                        "entered: PHH cannot follow its cards"
                    )
                thrown = card_text(list(e.thrown) if e.seat in entered else None, e.count)
                yield f"{player[e.seat]} sd {thrown}" if e.count else f"{player[e.seat]} sd"
                if e.count:
                    dealt = list(e.cards) if e.seat in entered else None
                    dealing.append(f"d dh {player[e.seat]} {card_text(dealt, e.count)}")
                if e.seat in entered:
                    kept = [c for c in held[e.seat] if c not in e.thrown]
                    held[e.seat] = kept + list(e.cards)
            case ExposeAll():
                for seat in seats:
                    if seat not in folded and seat not in tabled:
                        tabled[seat] = list(e.cards.get(seat, []))
            case CardsShown() if at_showdown(e, len(seats) - len(folded), folded, set(tabled)):
                tabled[e.seat] = None if e.mucked else list(e.cards)
    yield from dealing
    for seat, cards in tabled.items():
        hand = held[seat] if seat in entered else cards
        yield (
            f"{player[seat]} sm" if cards is None else f"{player[seat]} sm {card_text(hand, count)}"
        )
    winner = last_in(seats, folded, set(tabled))
    if winner is not None and winner in entered:
        yield f"{player[winner]} sm {card_text(held[winner], count)}"
