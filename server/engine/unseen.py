"""Cards already in play (37-E): a card given twice — on the board, in a hand, face up — means
a fouled deck, whichever command brings it (a deal, a tabled hand, an exposed card)."""

from __future__ import annotations

from server.engine.errors import Illegal
from server.engine.state import TableState


def check_unseen(t: TableState, cards: list[str], live_only: bool = False) -> None:
    """``live_only``: the muck was shuffled back into the stub (RP-25-C), so only the cards of
    the hands still live (and the board) are in play."""
    seen = set(t.board)
    for s in t.seats:
        if live_only and not s.live:
            continue
        seen.update(s.cards)
        seen.update(s.up)
    if not live_only:
        seen.update(t.muck)
    for c in cards:
        if c in seen or cards.count(c) > 1:
            raise Illegal("37-E", f"{c} is already in play: a duplicate card means a fouled deck")


def check_deal(hands: dict[int, list[str]], *more: dict[int, list[str]]) -> None:
    """The cards of a new deal, every seat's: none twice (37-E). The table's cards are not
    looked at: the last hand's are back in the deck."""
    cards = [c for given in (hands, *more) for cs in given.values() for c in cs if c != "??"]
    if len(set(cards)) == len(cards):
        return  # every deal: none twice, said without counting each card among all the others
    for c in cards:
        if cards.count(c) > 1:
            raise Illegal("37-E", f"{c} is dealt twice: a duplicate card means a fouled deck")
