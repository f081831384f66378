"""Hand values of the draw games: 2-7 lowball and badugi, from PokerKit's lookups (rule 13).

2-7 (deuce-to-seven): the lowest five wins, the ace high, straights and flushes counting
against the hand; 7-5-4-3-2 is the best. Badugi: the most cards of four different ranks and
suits wins (a four-card badugi over any three-card hand), then the lowest, aces low. PokerKit's
``StandardLowHand`` and ``BadugiHand`` read them (its lookup's entry index: the smaller, the
better); a badugi hand is read once per showdown and the readings cached, since the winner and
the hand's name both ask for it. A 2-7 hand's entry is looked up by its ranks and whether it is
suited (:func:`_deuce_index`).
"""

from __future__ import annotations

from functools import cache, lru_cache
from operator import add

from pokerkit import BadugiHand, Hand, StandardLowHand

from server.engine.hands import RANK_ORDER, RANK_WORDS, high_name

LOW_ORDER = "A23456789TJQK"


@lru_cache(maxsize=512)
def _read(ranking: str, cards: str) -> Hand:
    kind = BadugiHand if ranking == "badugi" else StandardLowHand
    return kind.from_game(cards)


def value(ranking: str, cards: list[str]) -> int:
    """The hand's place in its game's order: the smaller, the better."""
    if ranking == "badugi":
        return int(_read(ranking, "".join(cards)).entry.index)
    suited = len({c[1] for c in cards}) == 1
    return _deuce_index("".join(sorted(c[0] for c in cards)), suited)


@cache
def _deuce_index(ranks: str, suited: bool) -> int:
    """PokerKit's 2-7 entry index of the five cards of ``ranks`` (sorted), one suit or not. Its
    lookup reads only the ranks and whether the five are suited, so its whole table is 7,462
    such hands: each is looked up once, not parsed from the cards at every showdown (PokerKit's
    parsing was nearly all of a 2-7 showdown's time). Sorted, a rank's repeats sit side by side
    and get different suits, and "cdhsc" is not one suit."""
    suits = "ccccc" if suited else "cdhsc"
    return int(StandardLowHand.lookup.get_entry("".join(map(add, ranks, suits))).index)


def best(ranking: str, hands: dict[int, list[str]]) -> list[int]:
    """The seats whose hands win by 2-7 or badugi."""
    values = {seat: value(ranking, cards) for seat, cards in hands.items()}
    top = min(values.values())
    return [seat for seat, v in values.items() if v == top]


def playing(ranking: str, cards: list[str]) -> list[str]:
    """The cards a hand plays: all five in 2-7, the badugi's cards (up to four) in badugi."""
    hand = _read(ranking, "".join(cards))
    return [f"{c.rank.value}{c.suit.value}" for c in hand.cards]


def name(ranking: str, cards: list[str]) -> str:
    """The hand in words: "seven-five low" or what spoils it ("pair of sevens", "straight,
    six high") in 2-7; "badugi, seven high" or "three cards, six high" in badugi."""
    if ranking == "badugi":
        played = playing(ranking, cards)
        top = max((c[0] for c in played), key=LOW_ORDER.index)
        count = {4: "badugi", 3: "three cards", 2: "two cards", 1: "one card"}[len(played)]
        return f"{count}, {RANK_WORDS[top][0]} high"
    made = high_name("2-7", cards, [])
    wheel = {c[0] for c in cards} == set("A2345") and not made.startswith("straight flush")
    if not made.startswith("high card") and not wheel:
        return made
    # The ace is high in 2-7: A-5-4-3-2 is no straight, an ace-five low.
    ranks = sorted((c[0] for c in cards), key=RANK_ORDER.index, reverse=True)
    return f"{RANK_WORDS[ranks[0]][0]}-{RANK_WORDS[ranks[1]][0]} low"
