"""Cards exposed by the dealer in a stud deal (RP-10-A, RP-10-B).

In a flop game a down-card exposed on the first deal is a misdeal (37-A-6); in stud it is not.
A down-card exposed on third street becomes that player's up-card and the third-street card is
dealt down instead — the player may then bring it in (RP-10-A). The dealer records the hand as
it lies (``start_hand.up`` holds the exposed card) and names the seat in ``start_hand.exposed``.

A seventh-street down-card exposed by the dealer is replaced while the hand has betting left:
it goes back into the stub, the stub is shuffled and the deal completed without a burn; the
player may not keep it and move all-in (RP-10-B). With no betting left the card stands, and the
players not at risk of elimination turn their cards first. The replacement is a down-card,
never in an event: the seat's seventh card is unknown until the hand is tabled.
"""

from __future__ import annotations

from protocol.commands import Irregularity
from protocol.events import Irregular
from server.engine import betting, stud
from server.engine.errors import Illegal
from server.engine.games import STUD, streets
from server.engine.moves import Emit, Move
from server.engine.state import TableState
from server.engine.unseen import check_unseen


def check_first_deal(game: str, exposed: list[int], dealt: list[int]) -> None:
    """``start_hand.exposed`` is for stud's first deal, and names seats dealt in."""
    if exposed and game not in STUD:
        raise Illegal(
            "37-A",
            "a down-card exposed on the first deal of a flop game is a misdeal (37-A-6): "
            "declare the misdeal",
        )
    for seat in exposed:
        if seat not in dealt:
            raise Illegal("RP-10-A", f"seat {seat} is not dealt in: no card of its was exposed")


def first_deal_text(exposed: list[int], up: dict[int, list[str]], opener: int) -> str:
    """What the floor reads of each exposed down-card (RP-10-A)."""
    parts = []
    for seat in sorted(set(exposed)):
        card = up[seat][0]
        part = (
            f"seat {seat}'s down-card {card} was exposed in the deal: it is the up-card and its "
            "third-street card was dealt down"
        )
        if seat == opener:
            part += ", and it brings it in"
        parts.append(part + " (RP-10-A)")
    return "; ".join(parts)


def seventh_exposed(t: TableState, cmd: Irregularity, emit: Emit) -> Move:
    """RP-10-B: a seventh-street card the dealer exposed, reported before the street's action."""
    s = t.seat(cmd.seat) if cmd.seat is not None else None
    if not stud.is_stud(t) or t.street != streets(t.game)[-1]:
        raise Illegal("RP-10-B", "an exposed seventh-street card is reported on seventh street")
    if s is None or not s.live:
        raise Illegal("", f"seat {cmd.seat} has no live hand", code="unknown_seat")
    if len(cmd.cards) != 1 or "??" in cmd.cards:
        raise Illegal("RP-10-B", "give the one card that was exposed")
    if t.street_actions:
        raise Illegal(
            "RP-10-B",
            "seventh street's action has begun: the exposed card is reported as it is dealt",
        )
    card = cmd.cards[0]
    if len(s.cards) == 3 and card != s.cards[2]:
        raise Illegal(
            "RP-10-B", f"seat {s.number}'s seventh-street card is {s.cards[2]}, not {card}"
        )
    if len(s.cards) != 3:
        check_unseen(t, [card])
    if betting.betting_possible(t):
        emit(
            Irregular(
                kind="seventh_exposed",
                seat=s.number,
                street=t.street,
                reshuffle=[card],
                rules=["RP-10-B"],
                text=f"Seat {s.number}'s seventh-street card {card} was exposed: it goes back "
                "into the stub, the stub is shuffled and the seat dealt another, no burn; it "
                "may not keep the card and move all-in (RP-10-B)",
            )
        )
        return None
    emit(
        Irregular(
            kind="seventh_exposed",
            seat=s.number,
            street=t.street,
            rules=["RP-10-B"],
            text=f"Seat {s.number}'s seventh-street card {card} was exposed with no betting "
            "left: it stands; the players not at risk of elimination turn their cards first "
            "(RP-10-B)",
        )
    )
    return None
