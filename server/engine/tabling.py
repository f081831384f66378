"""Tabling and killing hands at the showdown (rules 14-17).

A hand is tabled when every one of its hole cards is face up (14-A); only a tabled hand is read
(13, 20). A show of fewer cards leaves the hand face up in part: the dealer asks for the rest
(16-A), and the hand waits. Where mucking is allowed, a hand never tabled may be mucked, and so
gives up its claim to the pot (14-B). A tabled hand cannot be killed (14-C; a losing one stays
until the pot is awarded, 16-C), and once an all-in leaves no betting possible every hand in the
pots is face up and live (17): a muck there is refused.
"""

from __future__ import annotations

from protocol.commands import Muck, Show
from protocol.events import CardsShown
from server.engine import games
from server.engine.actions import live_seat
from server.engine.errors import Illegal
from server.engine.moves import Emit, Move, TryShowdown
from server.engine.state import Seat, TableState
from server.engine.unseen import check_unseen


def tabled(t: TableState, s: Seat) -> bool:
    """Every hole card face up: shown in full, or turned up with the all-in's exposure (17)."""
    return s.shown or t.exposed


def show(t: TableState, cmd: Show, emit: Emit) -> Move:
    """The seat shows ``cmd.cards`` (all of them when none are named)."""
    if t.phase not in ("deal", "showdown"):
        raise Illegal("", "hands are shown once the betting is over", code="no_showdown")
    s = live_seat(t, cmd.seat)
    if s.shown:
        raise Illegal("14-A", f"seat {s.number}'s hand is already tabled", code="tabled")
    # Stud: the up-cards are face up already; showing them again shows nothing new.
    shown = [c for c in cmd.cards if c not in s.up]
    if not shown:
        emit(_tabled(s, list(s.cards)))
        return TryShowdown()
    new = [c for c in shown if c not in s.face_up]
    face_up = [*s.face_up, *new]
    _check_cards(t, s, shown, new)
    if len(face_up) < _held(t, s):
        emit(_partly(t, s, face_up))
    else:
        emit(_tabled(s, list(s.cards) if _all_known(t, s) else face_up))
    return TryShowdown()


def muck(t: TableState, cmd: Muck, emit: Emit) -> Move:
    """The hand is mucked (pushed into the muck: killed, 15) where the rules allow it."""
    s = live_seat(t, cmd.seat)
    if t.exposed:
        raise Illegal(
            "17",
            f"seat {s.number} is in an all-in with no more betting: every hand in the pots is "
            "tabled and stays live; show it or award the pot",
            code="must_table",
        )
    if t.phase != "showdown":
        raise Illegal("", "a hand is mucked at the showdown", code="no_showdown")
    if s.shown:
        raise Illegal(
            "14-C",
            f"seat {s.number}'s hand is tabled: cards speak and the dealer cannot kill it; a "
            "losing hand stays face up until the pot is awarded (16-C)",
            code="tabled",
        )
    if s.face_up:
        emit(
            CardsShown(
                seat=s.number,
                mucked=True,
                rules=["14-B"],
                text=f"Seat {s.number} mucks after showing {' '.join(s.face_up)}: never tabled, "
                "no claim to the pot (14-B)",
            )
        )
    else:
        emit(CardsShown(seat=s.number, mucked=True, text=f"Seat {s.number} mucks"))
    return TryShowdown()


def _check_cards(t: TableState, s: Seat, shown: list[str], new: list[str]) -> None:
    """The cards shown are the seat's: none twice, no more than it holds, none seen elsewhere."""
    if not new:
        raise Illegal("14-A", f"seat {s.number} already shows {' '.join(shown)}")
    if len(set(shown)) != len(shown):
        raise Illegal("14-A", f"seat {s.number} shows a card twice: {' '.join(shown)}")
    held = _held(t, s)
    if len(s.face_up) + len(new) > held:
        raise Illegal(
            "14-A", f"seat {s.number}'s hand is {held} cards, not {len(s.face_up) + len(new)}"
        )
    if _all_known(t, s):
        if any(c not in s.cards for c in shown):
            raise Illegal(
                "", f"seat {s.number} was dealt {' '.join(s.cards)}, not {' '.join(shown)}"
            )
        return
    known = _known(s)
    others = [c for c in new if c not in known]
    if len([c for c in shown if c not in known]) > held - len(known):
        raise Illegal(
            "", f"seat {s.number} was dealt {' '.join(known)}: {' '.join(shown)} leaves them out"
        )
    check_unseen(t, others)
    for other in t.seats:
        for c in others:
            if c in other.face_up:
                raise Illegal(
                    "37-E", f"{c} is already in play: a duplicate card means a fouled deck"
                )


def _held(t: TableState, s: Seat) -> int:
    """The cards the seat holds face down by the end of the hand: its hole cards (stud: two
    and seventh street's, unless that came as a community card, RP-10-H)."""
    if t.game in games.STUD:
        return 2 + (not t.board)
    return len(s.cards) or games.hole_count(t.game)


def _known(s: Seat) -> list[str]:
    return [c for c in s.cards if c != "??"]


def _all_known(t: TableState, s: Seat) -> bool:
    """Every card the seat holds face down was entered: what it shows must be those."""
    return bool(s.cards) and len(_known(s)) >= _held(t, s)


def _tabled(s: Seat, cards: list[str]) -> CardsShown:
    what = " ".join(cards) if cards else "its hand (cards not entered)"
    return CardsShown(
        seat=s.number, cards=cards, rules=["14-A"], text=f"Seat {s.number} tables {what}"
    )


def _partly(t: TableState, s: Seat, face_up: list[str]) -> CardsShown:
    held = _held(t, s)
    return CardsShown(
        seat=s.number,
        cards=face_up,
        partial=True,
        rules=["14-A", "16-A"],
        text=f"Seat {s.number} shows {' '.join(face_up)}, {len(face_up)} of {held} cards: not "
        "tabled; the dealer asks for the rest (14-A, 16-A)",
    )
