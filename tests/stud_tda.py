"""The TDA's answers for a stud hand, worked out apart from Tablewire and PokerKit.

Used by the stud lockstep (``tests/stud_lockstep.py``): who brings it in and which board acts
first (RP-10, RP-10-D), the limit betting of a street (:class:`Book`: 49-B, 50), the final
stacks (:func:`tda_result`: 21-B, 21-C, 23), and the ways a dealer station may record an action
that the TDA reads as the one meant (:func:`recorded`: 42-47). Only hand values are borrowed,
from PokerKit's evaluators; how the rules use them is stated here.
"""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

from pokerkit import (
    BadugiHand,
    EightOrBetterLowHand,
    RegularLowHand,
    StandardHighHand,
    StandardLowHand,
)

from protocol import Act
from tests.test_differential_pokerkit import _chips_for as chips_for

RANKS = "23456789TJQKA"
LOW_RANKS = "A23456789TJQK"
SUITS = "cdhs"
CAP = 4
"""Bets and raises a street: PokerKit's in its fixed-limit games, Tablewire's default ``cap``."""
DRAW_HANDS: dict[str, Any] = {
    "27TD": StandardLowHand,
    "27SD": StandardLowHand,
    "BADUGI": BadugiHand,
}
"""The draw games' hand values (``tests/draw_lockstep.py``): 2-7 lowball and badugi."""


def card_key(card: str, ace_low: bool) -> tuple[int, int]:
    return (LOW_RANKS if ace_low else RANKS).index(card[0]), SUITS.index(card[1])


def bringer(game: str, ups: list[str]) -> int:
    """RP-10: the lowest up-card by rank, then suit (clubs lowest), brings it in; in razz the
    highest, aces low."""
    if game == "RAZZ":
        return max(range(len(ups)), key=lambda i: card_key(ups[i], True))
    return min(range(len(ups)), key=lambda i: card_key(ups[i], False))


def board_strength(game: str, up: list[str]) -> tuple[list[int], list[int]]:
    """The hand the up-cards show, larger acting first: in stud more of a rank, then the ranks
    high to low (no straights or flushes); in razz fewer of a rank, then the ranks low."""
    order = LOW_RANKS if game == "RAZZ" else RANKS
    ranks = [order.index(c[0]) for c in up]
    groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
    sign = -1 if game == "RAZZ" else 1
    return [sign * g[0] for g in groups], [sign * g[1] for g in groups]


def best_board(game: str, boards: dict[int, list[str]]) -> int:
    """RP-10-D: the best board acts first; of equal boards, the one with the highest card by
    suit (in razz the ace is low: the highest card of A-2 is the deuce)."""
    razz = game == "RAZZ"

    def key(i: int) -> tuple[tuple[list[int], list[int]], tuple[int, int]]:
        return board_strength(game, boards[i]), max(card_key(c, razz) for c in boards[i])

    return max(boards, key=key)


def equal_boards(a: list[str], b: list[str]) -> bool:
    return sorted(c[0] for c in a) == sorted(c[0] for c in b)


class Book:
    """The TDA's record of a limit betting round, kept by the test.

    A completion, bet or raise of at least half a bet over the current bet is a full one (49-B;
    short all-ins add up: reaching the last full bet plus a bet is full too). It counts toward
    the cap (50) and the next raise is a bet over it. An all-in short of that is no raise: the
    next raise completes the bet (a bet over the last full one), and a seat that has acted (the
    bring-in included) may raise again only facing at least half a bet (49-B).
    """

    def __init__(self, unit: int, uncapped: bool) -> None:
        self.unit, self.uncapped = unit, uncapped
        self.current = self.full = self.count = 0
        self.acted: set[int] = set()
        self.short = 0
        """All-ins this street short of a full bet over the current one (PokerKit differs)."""

    def raise_to(self) -> int:
        return self.full + self.unit

    def capped(self) -> bool:
        return not self.uncapped and self.count >= CAP

    def reopened(self, i: int, bet: int) -> bool:
        return i not in self.acted or (self.current - bet) * 2 >= self.unit

    def record(self, i: int, kind: str, total: int) -> None:
        if kind == "fold":
            return
        self.acted.add(i)
        if kind == "bring_in":
            self.current = total
        if total <= self.current:
            return
        self.short += total - self.current < self.unit
        if (total - self.current) * 2 >= self.unit or total >= self.full + self.unit:
            self.full, self.count = total, self.count + 1
        self.current = total


def hand_values(game: str) -> tuple[Any, Any | None]:
    """PokerKit's hand classes for the pot (high, or razz's low) and for stud/8's low half."""
    if game in DRAW_HANDS:
        return DRAW_HANDS[game], None
    if game == "RAZZ":
        return RegularLowHand, None
    return StandardHighHand, EightOrBetterLowHand if game == "7S8" else None


def value(kind: Any, cards: list[str] | tuple[str, ...]) -> Any:
    try:
        return kind.from_game("".join(cards), "")
    except ValueError:
        return None  # no eight-or-better low


def top_card(
    kind: Any, cards: list[str], worth: Any, ace_low: bool, first: bool
) -> tuple[int, int]:
    """21-B: the highest card by suit of the five the hand wins with; of two fives of its
    value, the one with the higher card (the player's best reading of the hand), or
    (``first``) PokerKit's: the first five in the order of ``cards``."""
    if first:
        five = kind.from_game("".join(cards), "").cards
        return max(card_key(c.rank.value + c.suit.value, ace_low) for c in five)
    fives = [five for five in combinations(cards, 5) if value(kind, five) == worth]
    return max(card_key(c, ace_low) for five in fives for c in five)


def share(amount: int, winners: list[int], order: dict[int, tuple[int, int]]) -> dict[int, int]:
    """Split ``amount``; odd chips one each to the winners with the highest cards (21-B)."""
    ranked = sorted(winners, key=lambda j: order.get(j, (0, 0)), reverse=True)
    each, odd = divmod(amount, len(ranked))
    return {j: each + (k < odd) for k, j in enumerate(ranked)}


def tda_result(
    game: str,
    stacks: list[int],
    paid: list[int],
    live: list[int],
    cards: dict[int, list[str]],
    first: bool = False,
) -> tuple[list[int], list[tuple[int, list[int]]]]:
    """Final stacks by the TDA, and the pots as (amount, winners).

    Pots are layered by what each seat paid, antes included (a layer no live seat matched joins
    the pot below; adjacent layers with the same contenders are one pot), and each is split on
    its own (23): the best hands share it (razz: the lowest); in stud/8 the high hand takes half
    and the odd chip (21-C), the best eight-or-better low among that pot's contenders the other
    half, or the high hand all of it when none of them has a low. In the draw games (one
    hand value, no suits read) the odd chips go one each to the first winners left of the
    button (21-A): ``cards`` keyed by index clockwise from the button's left.
    """
    final = [s - p for s, p in zip(stacks, paid, strict=True)]
    if len(live) == 1:
        final[live[0]] += sum(paid)
        return final, [(sum(paid), live)]
    high_kind, low_kind = hand_values(game)
    high = {j: value(high_kind, cards[j]) for j in live}
    low = {j: value(low_kind, cards[j]) for j in live} if low_kind else {}
    pots: list[tuple[int, list[int]]] = []
    floor = 0
    for level in sorted(set(paid)):
        amount = sum(min(p, level) - min(p, floor) for p in paid)
        eligible = [j for j in live if paid[j] >= level]
        floor = level
        if pots and (not eligible or pots[-1][1] == eligible):
            pots[-1] = (pots[-1][0] + amount, pots[-1][1])
        elif amount:
            pots.append((amount, eligible))
    awarded = []
    for amount, eligible in pots:
        halves = [(amount, high_kind, high, game == "RAZZ")]
        if any(low.get(j) is not None for j in eligible):
            halves = [(amount - amount // 2, high_kind, high, False)]
            halves.append((amount // 2, low_kind, low, True))
        winners: list[int] = []
        for half, kind, values, ace_low in halves:
            best = max(values[j] for j in eligible if values[j] is not None)
            won = [j for j in eligible if values[j] == best]
            # (a hand's fives are read only for a tie; the draw games' order is the index's)
            tied = won if len(won) > 1 and game not in DRAW_HANDS else []
            order = {j: top_card(kind, cards[j], best, ace_low, first) for j in tied}
            for j, chips in share(half, won, order).items():
                final[j] += chips
            winners += [j for j in won if j not in winners]
        awarded.append((amount, winners))
    return final, awarded


# --- the dealer's records -------------------------------------------------------------------


def _not_all_needed(pushed: list[int], call: int) -> bool:
    """More than one chip and not all needed to call: a silent push the 50% rule reads (45-A,
    47-B); otherwise it is a call (46, 47-A)."""
    return len(pushed) > 1 and sum(pushed) - pushed[-1] >= call


def recorded(
    rng: random.Random,
    seat: int,
    kind: str,
    total: int,
    mine: int,
    before: int,
    top: int,
    unit: int,
) -> tuple[Act, str]:
    """The action as a dealer station may record it, and a label of the way.

    ``kind`` is bring_in, complete (the bring-in seat's), fold, check, call or raise to
    ``total``; ``mine`` is the seat's bet before it, ``before`` the bet it faced, ``top`` its
    all-in total, ``unit`` the street's bet. Every variant must be read as the same action.
    """
    r = rng.random()
    if kind in ("fold", "check"):
        return Act(seat=seat, declare=kind), kind  # type: ignore[arg-type]
    if kind == "bring_in":
        if r < 0.3:
            return Act(seat=seat, chips=chips_for(total)), "bring-in: exact chips"
        if r < 0.45:
            return Act(seat=seat, amount=total), "bring-in: an amount (42-C)"
        return Act(seat=seat, declare="bring_in"), "bring_in"
    if kind == "call":
        extra = (unit + 1) // 2 - 1
        if top <= before and r < 0.25:
            return Act(seat=seat, declare="all_in"), "call all-in: declared all-in"
        if r < 0.45:
            return Act(seat=seat, chips=chips_for(total - mine)), "call: exact chips (46, 47-A)"
        if r < 0.6 and extra >= 1 and before + extra < top:
            over = chips_for(before + rng.randint(1, extra) - mine)
            return Act(seat=seat, chips=over), "call: chips under half a bet over it (45-A)"
        return Act(seat=seat, declare="call"), "call"
    # A completion, bet or raise to ``total``.
    facing = before > mine
    pushed = chips_for(total - mine)
    half = before + (unit + 1) // 2
    if total == top and r < 0.25:
        return Act(seat=seat, declare="all_in"), "raise all-in: declared all-in"
    if r < 0.5 and (not facing or _not_all_needed(pushed, before - mine)):
        return Act(seat=seat, chips=pushed), "raise: exact chips"
    if r < 0.65 and facing and half < total < top:
        short = chips_for(rng.randint(half, total - 1) - mine)
        if _not_all_needed(short, before - mine):
            return Act(seat=seat, chips=short), "raise: chips over half a bet, made full (45-A)"
    if kind == "complete" or (r < 0.75 and before and total == unit):
        return Act(seat=seat, declare="complete"), "complete"
    word = "raise" if before else "bet"
    if r < 0.9:
        return Act(seat=seat, declare=word, amount=total), f"{word} with its amount"  # type: ignore[arg-type]
    return Act(seat=seat, declare=word), word  # type: ignore[arg-type]


def declared(seat: int, kind: str, total: int, before: int) -> Act:
    """The plain declaration (the benchmark's dealer)."""
    if kind == "raise":
        return Act(seat=seat, declare="raise" if before else "bet", amount=total)
    return Act(seat=seat, declare=kind)  # type: ignore[arg-type]
