"""At the seat for the deal (32, RP-10-C): a player not at the seat when the last card of the
first deal is dealt has no live hand.

The dealer says which seats were empty then (``start_hand.absent``). Their hands are killed
at once; the blinds and antes they posted stay in the pot, and in stud a player dealt the
bring-in card while away posts the bring-in too, so the next player faces it (32). A dead
hand is dealt no more cards (RP-10-C). The re-deal after a misdeal deals the absent player in
again, who may play it (37-C): it kills nobody for being away.
"""

from __future__ import annotations

from server.engine import stud, words
from server.engine.actions import action_event, live_seat
from server.engine.errors import Illegal
from server.engine.moves import Emit
from server.engine.reading import Reading
from server.engine.state import TableState


def check_absent(absent: list[int], dealt: list[int]) -> None:
    """The seats said to be away are seats dealt in, and not every one of them."""
    for seat in absent:
        if seat not in dealt:
            raise Illegal("32", f"seat {seat} is not dealt in: it cannot be away from it")
    if absent and set(dealt) <= set(absent):
        raise Illegal("32", "every seat dealt in is away: there is no hand to play")


def kill_absent(t: TableState, absent: list[int], emit: Emit) -> None:
    """Kill the hands of the seats away at the deal, once the hand's posts are in (32)."""
    for n in sorted(set(absent)):
        s = t.seat(n)
        if s is None or not s.live:
            continue
        if stud.bringing_in(t) and n == stud.bring_in_seat(t) and s.stack > 0:
            amount = min(t.level.bring_in, s.stack)
            why = [f"away at the deal: dealt the bring-in card, it posts {words.chips(amount)}"]
            emit(action_event(t, s, Reading("bring_in", amount, 0, ["RP-10", "32"]), [], why, True))
            s = live_seat(t, n)  # as the bring-in left it: an event replaces the seat it changes
        emit(
            action_event(
                t,
                s,
                Reading("fold", s.bet, 0, ["32"]),
                [],
                ["not at the seat when the deal ended: the hand is killed"],
                forced=True,
            )
        )
