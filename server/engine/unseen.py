"""Cards already in play (37-E): a card given twice — on the board, in a hand, face up — means
a fouled deck, whichever command brings it (a deal, a tabled hand, an exposed card)."""

from __future__ import annotations

from server.engine.errors import Illegal
from server.engine.state import TableState


def check_unseen(t: TableState, cards: list[str]) -> None:
    seen = set(t.board)
    for s in t.seats:
        seen.update(s.cards)
        seen.update(s.up)
    for c in cards:
        if c in seen or cards.count(c) > 1:
            raise Illegal("37-E", f"{c} is already in play: a duplicate card means a fouled deck")
