"""Hand values at showdown, from well-kept evaluator libraries (cards speak, rule 13).

High hands use phevaluator's perfect-hash tables (lower rank is better); the 8-or-better low
and razz's ace-to-five low use PokerKit's evaluators, the maintained library that reads Omaha
lows. The five cards a high hand plays are its strongest five by phevaluator;
:func:`hand_name` and :func:`low_name` put them in words ("flush, ace high", "seven-five low")
for the award events.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from itertools import combinations, islice
from math import prod

from phevaluator import evaluate_cards, evaluate_omaha_cards
from phevaluator.card import Card
from pokerkit import EightOrBetterLowHand, OmahaEightOrBetterLowHand, RegularLowHand

from server.engine.games import ACE_TO_FIVE, OMAHA


def high_rank(game: str, hole: list[str], board: list[str]) -> int:
    """Smaller is stronger. The cards go in as phevaluator's numbers: reading its card names
    takes twice as long as the evaluation."""
    if game in OMAHA:
        return int(evaluate_omaha_cards(*board, *hole))
    return int(evaluate_cards(*[CARD_IDS[c] for c in (*hole, *board)]))


def low_hand(game: str, hole: list[str], board: list[str]) -> object | None:
    """The qualifying 8-or-better low, or None; larger compares as stronger."""
    kind = OmahaEightOrBetterLowHand if game in OMAHA else EightOrBetterLowHand
    try:
        return kind.from_game("".join(hole), "".join(board))
    except ValueError:
        return None


@lru_cache(maxsize=256)
def razz_five(cards: tuple[str, ...]) -> tuple[int, tuple[str, ...]]:
    """Razz's hand: the lowest five of the cards, aces low, straights and flushes not counted,
    with PokerKit's ace-to-five entry index (the smaller, the lower). Of equally low fives, the
    first in the order of combinations, as PokerKit's own ``min`` over them picks. A showdown
    reads each hand for the winner, its name and the odd chip (21-B): read once.

    Most hands hold five different ranks: their five lowest are the lowest five (no pair beats
    any pair), and the first combination of them takes each one's first card, so the 21
    combinations are tried only for a hand with a pair it must play."""
    primes = [LOW_PRIMES[c[0]] for c in cards]  # the primes go up with the ranks, ace low
    lowest = sorted(set(primes))[:5]
    if len(lowest) == 5:
        wanted = set(lowest)
        five = []
        for card, prime in zip(cards, primes, strict=True):
            if prime in wanted:
                wanted.remove(prime)
                five.append(card)
        return _low_index(prod(lowest)), tuple(five)
    products = map(prod, combinations(primes, 5))
    indices = list(map(_low_index, products))
    index = min(indices)
    return index, next(islice(combinations(cards, 5), indices.index(index), None))


@cache
def _low_index(product: int) -> int:
    """PokerKit's ace-to-five entry index of the five ranks whose primes multiply to
    ``product``. Its lookup reads ranks only (flushes ignored, straights not counted), so its
    whole table is 6,175 sets of ranks: each is looked up once, not 21 times a hand through
    PokerKit's card parsing (three quarters of a razz showdown's time)."""
    five = ""
    for rank, prime in LOW_PRIMES.items():
        suit = 0
        while product % prime == 0:
            product //= prime
            five += rank + "cdhs"[suit]  # a rank's repeats in different suits
            suit += 1
    return int(RegularLowHand.lookup.get_entry(five).index)


def best_hand(game: str, hands: dict[int, list[str]], board: list[str]) -> list[int]:
    """The seats whose hands win by the game's ranking: the best high, or razz's lowest
    (PokerKit's entry index: the smaller, the lower, read once a hand)."""
    if game not in ACE_TO_FIVE:
        return best_high(game, hands, board)
    lows = {seat: razz_five((*cards, *board))[0] for seat, cards in hands.items()}
    best = min(lows.values())
    return [seat for seat, index in lows.items() if index == best]


def winning_five(game: str, hole: list[str], board: list[str], low: bool = False) -> list[str]:
    """The five cards a hand wins with: its high five, its 8-or-better low (``low``) or, in
    razz, its lowest five."""
    if game in ACE_TO_FIVE:
        return list(razz_five((*hole, *board))[1])
    if low:
        return _written(low_hand(game, hole, board))
    return list(best_five(game, hole, board))


def _written(hand: object) -> list[str]:
    """A PokerKit hand's cards as Tablewire writes them ("As")."""
    return [f"{c.rank.value}{c.suit.value}" for c in getattr(hand, "cards", ())]


def best_high(game: str, hands: dict[int, list[str]], board: list[str]) -> list[int]:
    ranks = {seat: high_rank(game, cards, board) for seat, cards in hands.items()}
    best = min(ranks.values())
    return [seat for seat, r in ranks.items() if r == best]


def best_low(game: str, hands: dict[int, list[str]], board: list[str]) -> list[int]:
    lows = {seat: low_hand(game, cards, board) for seat, cards in hands.items()}
    qualified = {seat: h for seat, h in lows.items() if h is not None}
    if not qualified:
        return []
    best = max(qualified.values())  # type: ignore[type-var]
    return [seat for seat, h in qualified.items() if h == best]


RANK_ORDER = "23456789TJQKA"
LOW_ORDER = "A23456789TJQK"
LOW_PRIMES = dict(zip(LOW_ORDER, (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41), strict=True))
"""A prime for each rank, aces low: the product of five cards' primes names their ranks in any
order, as PokerKit keys its own tables."""
CARD_IDS = {r + suit: Card(r + suit).id_ for r in RANK_ORDER for suit in "cdhs"}
"""phevaluator's card numbers, looked up once: naming a hand ranks up to 60 fives."""
RANK_WORDS = {
    "A": ("ace", "aces"),
    "K": ("king", "kings"),
    "Q": ("queen", "queens"),
    "J": ("jack", "jacks"),
    "T": ("ten", "tens"),
    "9": ("nine", "nines"),
    "8": ("eight", "eights"),
    "7": ("seven", "sevens"),
    "6": ("six", "sixes"),
    "5": ("five", "fives"),
    "4": ("four", "fours"),
    "3": ("three", "threes"),
    "2": ("deuce", "deuces"),
}


def _one(rank: str) -> str:
    return RANK_WORDS[rank][0]


def _many(rank: str) -> str:
    return RANK_WORDS[rank][1]


def _groups(ranks: list[str]) -> list[str]:
    """The ranks of a five-card hand, most of a kind first, then highest first."""
    return sorted(set(ranks), key=lambda r: (-ranks.count(r), -RANK_ORDER.index(r)))


def _straight_high(ranks: list[str]) -> str:
    """The top card of a straight; the wheel (A-2-3-4-5) is five high."""
    return "5" if set(ranks) == set("A2345") else _groups(ranks)[0]


def best_five(game: str, hole: list[str], board: list[str]) -> tuple[str, ...]:
    """The five cards the high hand plays: the strongest five by phevaluator's 5-card rank
    (Omaha: exactly two from the hand and three from the board); of equally strong fives, the
    first in the order of combinations. The whole hand's rank is the strongest five's, so the
    search stops at the first five that has it."""
    fives: Iterable[tuple[str, ...]] = (
        (h + b for h in combinations(hole, 2) for b in combinations(board, 3))
        if game in OMAHA
        else combinations([*hole, *board], 5)
    )
    best = high_rank(game, hole, board)
    return next(f for f in fives if evaluate_cards(*[CARD_IDS[c] for c in f]) == best)


def _label(ranks: list[str], suits: list[str]) -> str:
    """The class of a five-card high hand."""
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    order = sorted(RANK_ORDER.index(r) for r in set(ranks))
    straight = len(order) == 5 and (order[4] - order[0] == 4 or set(ranks) == set("A2345"))
    flush = len(set(suits)) == 1
    if straight and flush:
        return "STRAIGHT_FLUSH"
    if counts[0] == 4:
        return "FOUR_OF_A_KIND"
    if counts[:2] == [3, 2]:
        return "FULL_HOUSE"
    if flush:
        return "FLUSH"
    if straight:
        return "STRAIGHT"
    if counts[0] == 3:
        return "THREE_OF_A_KIND"
    if counts[:2] == [2, 2]:
        return "TWO_PAIR"
    return "ONE_PAIR" if counts[0] == 2 else "HIGH_CARD"


def high_name(game: str, hole: list[str], board: list[str]) -> str:
    """The best high hand in words: "flush, ace high", "full house, kings full of sevens".

    The words are those of the hand's class, and phevaluator's rank is the class (7,462 of
    them): each is put in words once, from the first hand of it met."""
    rank = high_rank(game, hole, board)
    name = _CLASS_NAMES.get(rank)
    if name is None:
        name = _CLASS_NAMES[rank] = _five_name(best_five(game, hole, board))
    return name


_CLASS_NAMES: dict[int, str] = {}
"""The words of each high-hand class met so far, by phevaluator's rank."""


def _five_name(best: tuple[str, ...]) -> str:
    """A high hand's five cards in words."""
    ranks = [c[0] for c in best]
    label = _label(ranks, [c[1] for c in best])
    g = _groups(ranks)
    if label == "STRAIGHT_FLUSH":
        top = _straight_high(ranks)
        return "royal flush" if top == "A" else f"straight flush, {_one(top)} high"
    names = {
        "FOUR_OF_A_KIND": lambda: f"four of a kind, {_many(g[0])}",
        "FULL_HOUSE": lambda: f"full house, {_many(g[0])} full of {_many(g[1])}",
        "FLUSH": lambda: f"flush, {_one(g[0])} high",
        "STRAIGHT": lambda: f"straight, {_one(_straight_high(ranks))} high",
        "THREE_OF_A_KIND": lambda: f"three of a kind, {_many(g[0])}",
        "TWO_PAIR": lambda: f"two pair, {_many(g[0])} and {_many(g[1])}",
        "ONE_PAIR": lambda: f"pair of {_many(g[0])}",
    }
    return names[label]() if label in names else f"high card, {_one(g[0])}"


def hand_name(game: str, hole: list[str], board: list[str]) -> str:
    """The hand that wins by the game's ranking in words (razz: its low)."""
    if game not in ACE_TO_FIVE:
        return high_name(game, hole, board)
    return razz_name(list(razz_five((*hole, *board))[1]))


def razz_name(five: list[str]) -> str:
    """A razz hand in words: "seven-five low", or what it has to pair when it must ("pair of
    aces, king low", "two pair, aces and threes, king low"), ranks read with aces low."""
    return _razz_words("".join(sorted(c[0] for c in five)))


@cache
def _razz_words(ranks: str) -> str:
    """The words of five ranks (in any order): a table of at most 6,175 sets of ranks, each put
    in words once."""
    by_count = {
        n: sorted({r for r in ranks if ranks.count(r) == n}, key=LOW_ORDER.index)
        for n in (1, 2, 3, 4)
    }
    singles = by_count[1][::-1]
    if len(singles) == 5:
        return f"{_one(singles[0])}-{_one(singles[1])} low"
    made = [f"{'three' if n == 3 else 'four'} {_many(r)}" for n in (4, 3) for r in by_count[n]]
    pairs = by_count[2]
    if len(pairs) == 2:
        made.append(f"two pair, {_many(pairs[0])} and {_many(pairs[1])}")
    elif pairs:
        made.append(f"pair of {_many(pairs[0])}")
    return ", ".join([*made, *([f"{_one(singles[0])} low"] if singles else [])])


def low_name(game: str, hole: list[str], board: list[str]) -> str:
    """The qualifying low in words, highest card first: "eight-six low"; "" without one."""
    low = low_hand(game, hole, board)
    if low is None:
        return ""
    cards = getattr(low, "cards", ())
    ranks = sorted((str(c.rank.value) for c in cards), key=lambda r: -"A23456789".index(r))
    return f"{_one(ranks[0])}-{_one(ranks[1])} low"
