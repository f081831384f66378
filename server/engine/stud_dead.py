"""Stud's dead hand (68): a player who takes up the up-cards while it is the player's turn to
act has killed the hand — in stud the proper muck is turning every up-card face down and
pushing the cards forward. The dealer reports it (``irregularity`` ``up_cards_taken``); the
hand is folded and the action goes on. At any other moment the rule does not apply: the
report is refused and the floor judges what happened.
"""

from __future__ import annotations

from protocol.commands import Irregularity
from server.engine import stud
from server.engine.actions import action_event
from server.engine.errors import Illegal
from server.engine.moves import Emit, Move, ResumeAfter
from server.engine.reading import Reading
from server.engine.state import TableState


def up_cards_taken(t: TableState, cmd: Irregularity, emit: Emit) -> Move:
    if not stud.is_stud(t):
        raise Illegal("68", "up-cards are taken up in stud only")
    s = t.seat(cmd.seat) if cmd.seat is not None else None
    if s is None or not s.live:
        raise Illegal("", f"seat {cmd.seat} has no live hand", code="unknown_seat")
    if t.phase != "betting" or t.to_act != s.number:
        raise Illegal(
            "68",
            f"seat {s.number} is not to act: taking up the up-cards kills a hand only on the "
            "player's turn; the floor judges it",
        )
    why = ["took up the up-cards on its turn: a dead hand"]
    emit(action_event(t, s, Reading("fold", s.bet, 0, ["68"]), [], why, forced=True))
    return ResumeAfter(s.number)
