"""Seven-card stud: the deal, the bring-in and who acts first by the cards showing (RP-10, 21-B,
18-A).

Stud has no button and no blinds. Every seat with chips antes and is dealt two down-cards and
one up-card; the lowest up-card (by rank, then suit: clubs, diamonds, hearts, spades) brings it
in, or completes to the small bet. From fourth street the best hand showing acts first, ties
going to the highest card by suit (RP-10-D), and an open pair on fourth street does not double
the bet (RP-10-F, :func:`server.engine.betting.bet_unit`). An odd chip goes to the winning hand
holding the highest card by suit (21-B), and at a showdown without a bet on seventh street the
best board shows first (18-A).

Everything here reads the state; the deal itself is :func:`server.engine.dealing.start_hand`.
"""

from __future__ import annotations

from collections import Counter

from protocol.commands import Act, Deal
from protocol.events import Prompt
from server.engine import hands, words
from server.engine.errors import Illegal
from server.engine.games import STUD, streets
from server.engine.state import Seat, TableState

RANKS = "23456789TJQKA"
SUITS = "cdhs"
"""Suits from lowest to highest, for the bring-in and for ties (RP-10-D, 21-B)."""


def is_stud(t: TableState) -> bool:
    return t.game in STUD


def card_key(card: str) -> tuple[int, int]:
    """A card's place by rank (ace high), then by suit."""
    return RANKS.index(card[0]), SUITS.index(card[1])


def showing(up: tuple[str, ...] | list[str]) -> tuple[int, tuple[int, ...], tuple[int, int]]:
    """How strong the up-cards are, larger is stronger: quads, trips, two pair, a pair, then
    high cards, the ranks compared in order, and last the highest card by suit (RP-10-D)."""
    counts = Counter(c[0] for c in up)
    ranked = sorted(counts, key=lambda r: (counts[r], RANKS.index(r)), reverse=True)
    pattern = sorted(counts.values(), reverse=True)
    if pattern[0] == 4:
        kind = 5
    elif pattern[0] == 3:
        kind = 4
    elif pattern[:2] == [2, 2]:
        kind = 3
    else:
        kind = 2 if pattern[0] == 2 else 1
    return kind, tuple(RANKS.index(r) for r in ranked), max(card_key(c) for c in up)


def bring_in_seat(t: TableState) -> int:
    """The seat with the lowest up-card, ties by suit (RP-10): it brings it in."""
    dealt = [s for s in t.seats if s.dealt and s.up]
    return min(dealt, key=lambda s: card_key(s.up[0])).number


def best_board(t: TableState) -> int:
    """The live seat whose up-cards show the best hand: it acts first (RP-10-D) and, with no
    bet on seventh street, shows first (18-A)."""
    live = [s for s in t.live() if s.up]
    return max(live, key=lambda s: showing(s.up)).number


def bringing_in(t: TableState) -> bool:
    """Third street before anyone has put a chip in: the bring-in is owed."""
    return is_stud(t) and t.street == streets(t.game)[0] and t.current_bet == 0


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
    if cmd.cards:
        raise Illegal("", "stud deals each hand its own card: give them by seat")
    live = {s.number for s in t.live()}
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
        missing = sorted(live - set(given))
        if missing:
            raise Illegal(
                "RP-10-D",
                f"give seat {missing[0]}'s up-card: the best board acts first",
                code="up_cards_needed",
            )


def hand_of(s: Seat) -> list[str]:
    """All the seat's known cards: down-cards, then up-cards."""
    return [*s.cards, *s.up]


def complete_hand(s: Seat) -> bool:
    """Seven cards known: the hand can be read."""
    return len(s.cards) + len(s.up) == 7 and "??" not in s.cards


def odd_chip_order(t: TableState, winners: list[int]) -> list[int]:
    """21-B: odd chips go first to the winner whose five cards hold the highest card by suit
    (a hand whose cards are not known comes after those that are, by seat)."""

    def top(n: int) -> tuple[int, int]:
        s = t.seat(n)
        if s is None or not complete_hand(s):
            return -1, -1
        five = hands.best_five(t.game, hand_of(s), [])
        return max(card_key(c) for c in five)

    return sorted(winners, key=lambda n: (tuple(-k for k in top(n)), n))
