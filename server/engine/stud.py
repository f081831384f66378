"""Seven-card stud, stud/8 and razz: the deal, the bring-in and who acts first by the cards
showing (RP-10, 21-B, 18-A).

Stud has no button and no blinds. Every seat with chips antes and is dealt two down-cards and
one up-card; the lowest up-card (by rank, then suit: clubs, diamonds, hearts, spades) brings it
in, or completes to the small bet; in razz, where aces are low and the lowest hand wins, the
highest up-card does (a tie by suit going to the higher suit). From fourth street the best hand
showing acts first (razz: the lowest), ties going to the highest card by suit (RP-10-D), and an
open pair on fourth street does not double the bet (RP-10-F,
:func:`server.engine.betting.bet_unit`). An odd chip goes to the winning hand whose five cards
hold the highest card by suit (21-B), and at a showdown without a bet on seventh street the
best board shows first (18-A).

A card's rank is read the way the hand plays it: an ace is high in stud's high hands and low in
razz and in stud/8's low half, so "the highest card" of a razz hand A-2-3-4-7 is its seven.

Everything here reads the state; the deal itself is :func:`server.engine.dealing.start_hand`.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

from protocol.commands import Act, Deal
from protocol.events import Prompt
from server.engine import hands, stub, words
from server.engine.errors import Illegal
from server.engine.games import ACE_TO_FIVE, STUD, STUD_STREETS, streets
from server.engine.state import Seat, TableState

RANKS = hands.RANK_ORDER
LOW_RANKS = hands.LOW_ORDER
"""Ranks from lowest to highest with the ace low: razz, and the low half of stud/8."""
SUITS = "cdhs"
"""Suits from lowest to highest, for the bring-in and for ties (RP-10-D, 21-B)."""
HIGH_KEYS = {r + s: (RANKS.index(r), SUITS.index(s)) for r in RANKS for s in SUITS}
LOW_KEYS = {r + s: (LOW_RANKS.index(r), SUITS.index(s)) for r in LOW_RANKS for s in SUITS}
"""Each card's place (:func:`card_key`), ace high and ace low, looked up once: the boards are
compared on every street."""
WEIGHTS = {r + s: 5**i for i, r in enumerate(RANKS) for s in SUITS}
"""Each card's rank as a digit in base 5: summed over a board, they name its ranks in any order
(no rank shows five times), the key of :func:`_made` without sorting the cards on every
street."""


def is_stud(t: TableState) -> bool:
    return t.game in STUD


def is_razz(game: str) -> bool:
    return game in ACE_TO_FIVE


def card_key(card: str, ace_low: bool = False) -> tuple[int, int]:
    """A card's place by rank (ace high, or low), then by suit."""
    return (LOW_KEYS if ace_low else HIGH_KEYS)[card]


def showing(
    up: tuple[str, ...] | list[str], razz: bool = False
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """How good the up-cards are, larger is better, compared as a poker hand of up to four
    cards; equal ones by :func:`top_card` (RP-10-D).

    Stud: quads over trips over two pair over a pair over high cards, the ranks compared in
    order. Razz: the reverse, every pair counting against the hand and lower ranks better
    (A-2 is the best two cards, K-K the worst), aces low.
    """
    return _made(sum(map(WEIGHTS.__getitem__, up)), razz)


def top_card(up: tuple[str, ...] | list[str], razz: bool = False) -> tuple[int, int]:
    """The highest up-card by rank, then suit (RP-10-D's tie-break)."""
    return max(map((LOW_KEYS if razz else HIGH_KEYS).__getitem__, up))


@cache
def _made(weight: int, razz: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the up-cards' ranks (their :data:`WEIGHTS` summed) make: a table of at most 2,379
    sets of up to four ranks, each worked out once."""
    ranks = "".join(r * (weight // 5**i % 5) for i, r in enumerate(RANKS))
    order = LOW_RANKS if razz else RANKS
    counts = Counter(ranks)
    ranked = sorted(counts, key=lambda r: (counts[r], order.index(r)), reverse=True)
    pattern = tuple(sorted(counts.values(), reverse=True))
    places = tuple(order.index(r) for r in ranked)
    if razz:
        return tuple(-n for n in pattern), tuple(-r for r in places)
    return _kind(pattern), places


def _kind(pattern: tuple[int, ...]) -> tuple[int, ...]:
    """Quads, trips, two pair, a pair or high cards, as one comparable number."""
    if pattern[0] >= 3:
        return (pattern[0] + 1,)
    return (3,) if pattern[:2] == (2, 2) else (pattern[0],)


def bring_in_seat(t: TableState) -> int:
    """The seat that brings it in (RP-10): the lowest up-card, ties by suit; in razz the
    highest up-card, aces low, the higher suit of two."""
    dealt = [s for s in t.seats if s.dealt and s.up]
    return bringer(t.game, {s.number: s.up[0] for s in dealt})


def bringer(game: str, up: dict[int, str]) -> int:
    """Of the third-street up-cards by seat, the one that brings it in (RP-10)."""
    if is_razz(game):
        return max(up, key=lambda n: LOW_KEYS[up[n]])
    return min(up, key=lambda n: HIGH_KEYS[up[n]])


def best_board(t: TableState) -> int:
    """The live seat whose up-cards show the best hand (razz: the lowest): it acts first
    (RP-10-D) and, with no bet on seventh street, shows first (18-A)."""
    razz = is_razz(t.game)
    best: Seat | None = None
    value: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    for s in t.seats:
        if s.up and s.dealt and not s.folded and not s.mucked:
            shows = showing(s.up, razz)
            if (
                best is None
                or shows > value
                # the top card only between equal boards (rare); of equals, the first
                or (shows == value and top_card(s.up, razz) > top_card(best.up, razz))
            ):
                best, value = s, shows
    if best is None:
        raise ValueError("no live hand shows a card")
    return best.number


def bringing_in(t: TableState) -> bool:
    """Third street before anyone has put a chip in: the bring-in is owed. (Asked at every
    prompt and read, in every game: the cheapest test first.)"""
    return t.current_bet == 0 and t.street == STUD_STREETS[0] and t.game in STUD


def before(seat: int) -> int:
    """A number just before ``seat`` clockwise, so the action resumes with ``seat`` itself."""
    return seat - 1


def first_to_act(t: TableState) -> int:
    """The seat after which a new street's action resumes: the best board acts first; if it
    has no chips left, the next seat with chips does."""
    return before(best_board(t))


def bring_in_prompt(t: TableState, s: Seat) -> Prompt:
    """Bring it in or complete; a seat left of an all-in bring-in may also fold (RP-10-E)."""
    level = t.level
    top = s.bet + s.stack
    bring = min(level.bring_in, top)
    complete = min(level.min_bet, top)
    options = ["bring_in"] if s.number == bring_in_seat(t) else ["fold", "bring_in"]
    if top > level.bring_in:
        options.append("complete")
    text = f"Seat {s.number}: bring in {words.chips(bring)}"
    if "complete" in options:
        text += f" or complete to {words.chips(complete)}"
    return Prompt(
        seat=s.number,
        to_call=0,
        can_raise="complete" in options,
        min_raise_to=complete if "complete" in options else None,
        max_raise_to=complete if "complete" in options else None,
        all_in_to=top,
        options=options,
        text=text + " (RP-10)",
        bring_in=bring,
    )


def brings_in(t: TableState, s: Seat, act: Act) -> bool:
    """Whether the act is the bring-in itself rather than a completion (RP-10).

    Anything short of the completion is refused unless it is the bring-in or all the seat
    has; a check, a call and (for the bring-in itself) a fold are no answer to the bring-in.
    """
    level, top = t.level, s.bet + s.stack
    amount = act.amount if act.amount is not None else (sum(act.chips) if act.chips else None)
    if act.declare == "bring_in":
        return True
    if act.declare == "fold" and s.number != bring_in_seat(t):
        return False
    if act.declare in ("check", "call", "fold"):
        raise Illegal(
            "RP-10",
            f"seat {s.number} brings it in ({words.chips(level.bring_in)}) or completes to"
            f" {words.chips(level.min_bet)}: '{act.declare}' is neither",
        )
    if amount is not None and amount == top <= level.bring_in:
        return True  # all the seat has, no more than the bring-in: it brings it in all-in
    if amount is None or amount >= min(level.min_bet, top):
        return False
    if amount == min(level.bring_in, top):
        return True
    raise Illegal(
        "RP-10",
        f"seat {s.number} brings it in for {words.chips(level.bring_in)} or completes to"
        f" {words.chips(level.min_bet)}, not {words.chips(amount)}",
    )


def check_street(t: TableState, cmd: Deal) -> None:
    """A stud street deals one card to every live hand, and to no other (RP-10-C): face up
    on fourth to sixth street, face down (entered or not) on seventh."""
    rounds = streets(t.game)
    street = rounds[rounds.index(t.street) + 1] if t.street in rounds[:-1] else ""
    if cmd.street != street:
        raise Illegal("", f"the next street is {street or 'none'}, not {cmd.street}")
    if street == rounds[-1]:
        _check_seventh(t, cmd)
        if cmd.cards:
            return
    elif cmd.cards:
        raise Illegal("", "stud deals each hand its own card: give them by seat")
    live = {s.number for s in t.seats if s.dealt and not s.folded and not s.mucked}
    given = cmd.down if street == rounds[-1] else cmd.up
    other = cmd.up if street == rounds[-1] else cmd.down
    if other:
        face = "up" if street == rounds[-1] else "down"
        raise Illegal("", f"no card is dealt face {face} on {street} street")
    for seat, cards in given.items():
        if seat not in live:
            raise Illegal("RP-10-C", f"seat {seat} has no live hand and is dealt no card")
        if len(cards) != 1:
            raise Illegal("", f"seat {seat}: one card a hand on {street} street")
    if street != rounds[-1]:
        missing = sorted(live - {n for n, cards in given.items() if "??" not in cards})
        if missing:
            raise Illegal(
                "RP-10-D",
                f"give seat {missing[0]}'s up-card: the best board acts first",
                code="up_cards_needed",
            )


def _check_seventh(t: TableState, cmd: Deal) -> None:
    """Seventh street: a card to each hand, or one community card when the stub is too short
    even with the burns (RP-10-H B and C; ``??`` when the cards are not entered)."""
    deal = stub.seventh(t)
    if deal.community and (cmd.down or len(cmd.cards) != 1):
        raise Illegal(
            "RP-10-H", f"{deal.text()}: give it as the street's one card", code="community"
        )
    if not deal.community and cmd.cards:
        enough = f"the stub has {deal.stub} cards for {deal.hands} hands"
        why = deal.text() if deal.procedure else enough
        raise Illegal("RP-10-H", f"{why}: no community card, each hand gets its own")


def hand_of(s: Seat, board: list[str]) -> list[str]:
    """All the cards the seat plays: down-cards, up-cards and a community card (RP-10-H)."""
    return [*s.cards, *s.up, *board]


def complete_hand(s: Seat, board: list[str]) -> bool:
    """Seven cards known: the hand can be read."""
    cards = hand_of(s, board)
    return len(cards) == 7 and "??" not in cards


def odd_chip_order(t: TableState, winners: list[int], low: bool = False) -> list[int]:
    """21-B: odd chips go first to the winner whose five cards hold the highest card by suit
    (``low``: the five of stud/8's low half; in a low an ace counts low). A hand whose cards
    are not known comes after those that are, by seat."""
    ace_low = low or is_razz(t.game)

    def top(n: int) -> tuple[int, int]:
        s = t.seat(n)
        if s is None or not complete_hand(s, t.board):
            return -1, -1
        cards = hand_of(s, t.board)
        five = hands.winning_five(t.game, cards, [], low)
        best = max(card_key(c, ace_low) for c in five)
        if not ace_low and len({c[1] for c in five}) == 1:
            return best  # a flush: its suit is its own
        # Any card of the five's top rank plays the same five: the hand is read at its highest.
        return max(k for k in (card_key(c, ace_low) for c in cards) if k[0] == best[0])

    return sorted(winners, key=lambda n: (tuple(-k for k in top(n)), n))
