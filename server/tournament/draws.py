"""Random inputs read as cards and piles: a shuffle of seat cards, cards dealt face up, the high
card with suits counting (addendum 11, 26-A, RP-9).

The tournament never draws a random number: the service (or the scenario) gives one, and it is
recorded in the event. Here it is read the same way every time, so a draw can be audited by
hand: a shuffle of ``n`` things is the permutation numbered ``draw mod n!`` in the factorial
number system (the first digit picks the top card among all, the next among the rest ...), and
a deal of ``n`` cards from a 52-card deck is read the same way, one falling factor at a time.
The high card counts ranks ace high, then suits: spades, hearts, diamonds, clubs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

RANKS = "23456789TJQKA"
SUITS = "cdhs"
"""Lowest first: clubs, diamonds, hearts, spades (the high card counts suits, 11-B)."""
DECK = [r + s for r in RANKS for s in SUITS]
T = TypeVar("T")


def shuffled(items: Sequence[T], draw: int) -> list[T]:
    """``items`` in the order the random input ``draw`` shuffles them into (top first)."""
    rest = list(items)
    out: list[T] = []
    while rest:
        draw, pick = divmod(draw, len(rest))
        out.append(rest.pop(pick))
    return out


def dealt(count: int, draw: int) -> list[str]:
    """``count`` cards dealt face up from a deck shuffled by ``draw``, in the order dealt."""
    return shuffled(DECK, draw)[:count]


def card_value(card: str) -> int:
    """The high card's value: rank first, then suit (spades highest)."""
    return RANKS.index(card[0]) * 4 + SUITS.index(card[1])


def by_high_card(cards: dict[T, str]) -> list[T]:
    """Who holds the highest card first, suits counting."""
    return sorted(cards, key=lambda who: -card_value(cards[who]))
