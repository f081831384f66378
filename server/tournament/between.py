"""Between a table's hands: what the tournament does once it has counted a hand end.

A hand end is the moment a table is known to be between hands, so it is when everything that
waited for that table happens, in this order: hand-for-hand (the table waits for the others, or
it was the last and the next hand starts, RP-8); the moves, breaks and the final table that
waited for this table's hand (12-A, 11-B, RP-9), now made in the same step as the hand end;
the stoppage of a table too short (12-D); then what the floor is told next: the final table
(RP-9), else the next table to break (12-C, staff only), and the balancing moves while the
tables are unbalanced (12-A). Nothing here may refuse: a hand end is a fact.
"""

from __future__ import annotations

from server.tournament import balancing, breaks, handforhand
from server.tournament.moves import Emit
from server.tournament.state import TournamentState


def after_hand(t: TournamentState, table: str, was_waiting: bool, at: int, emit: Emit) -> None:
    handforhand.after_hand(t, table, was_waiting, at, emit)
    for number, p in sorted(t.proposals.items()):
        if p.confirmed and not p.waiting and number in t.proposals:
            balancing.make(t, number, emit)
    for pending in list(t.breaks):
        if not pending.waiting:
            breaks.execute(t, pending, emit)
    if t.final is not None and not t.final.waiting:
        breaks.execute_final(t, t.final, emit)
    handforhand.settle(t, at, emit)
    balancing.check_stop(t, table, emit)
    balancing.review_stoppages(t, emit)
    if t.finished or breaks.propose_final(t, emit):
        return
    balancing.revise(t, table, emit)
    if breaks.propose_break(t, emit):
        return
    balancing.propose(t, table, emit)
