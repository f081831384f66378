"""A table the tournament holds: between hands (RP-8, 12-A, 11-B, 12-D) and at an all-in
during hand-for-hand (RP-8-F); the button the tournament places (RP-9).

The tournament sees every table; a table sees only itself. So the tournament orders a table to
wait — hand-for-hand (every table finishes its hand, then waits for the others, RP-8), a move or
a break that must happen between this table's hands (12-A, 11-B), a table stopped because it is
too short (12-D) — and the table refuses to start a hand while any hold stands, naming why; a
hand in play always finishes. Holds have names, so one released (the move made) leaves the
others standing, and a release of a hold the table does not have changes nothing.

During hand-for-hand an all-in and call does not turn the hands up at once (17): the cards stay
face down and no further card is dealt until the floor says so (RP-8-F), so the room learns the
result at every table together. The exposure waits, and no display sees a hole card before it.

The final table's first button is drawn or placed by the tournament's structure (RP-9): the
next hand is then dealt as the table's first, from that button.
"""

from __future__ import annotations

from protocol.commands import (
    Award,
    Command,
    Deal,
    Draw,
    HandForHand,
    HoldHands,
    Muck,
    ReleaseCards,
    ReleaseHands,
    SetButton,
    Show,
)
from protocol.events import (
    ButtonSet,
    CardsReleased,
    ExposeAll,
    HandForHandSet,
    HandsHeld,
    HandsReleased,
)
from server.engine import draw
from server.engine.errors import Illegal
from server.engine.moves import Emit, Move, TryShowdown
from server.engine.state import TableState

WAITING_ON_CARDS = (Deal, Draw, Show, Muck, Award)
"""What a dealer may not do while a hand-for-hand all-in waits for the floor (RP-8-F)."""


def check_start(t: TableState) -> None:
    """A held table deals no new hand; the first hold's rule and reason say why."""
    if not t.holds:
        return
    rule, _, reason = next(iter(t.holds.values())).partition("|")
    raise Illegal(rule, f"the table waits: {reason}", code="held")


def check_cards(t: TableState, command: Command) -> None:
    """RP-8-F: while a hand-for-hand all-in waits, the cards stay face down and undealt."""
    if t.cards_held and isinstance(command, WAITING_ON_CARDS):
        raise Illegal(
            "RP-8-F",
            "hand-for-hand: the all-in waits for the floor; the cards stay face down and no "
            "card is dealt until the floor releases them",
            code="cards_held",
        )


def hold(t: TableState, cmd: HoldHands, emit: Emit) -> Move:
    reason = cmd.reason or "the tournament holds this table"
    rule = f" ({cmd.rule})" if cmd.rule else ""
    now = "after this hand" if t.phase != "idle" else "now"
    emit(
        HandsHeld(
            hold=cmd.hold,
            reason=reason,
            rules=[cmd.rule] if cmd.rule else [],
            text=f"No new hand {now}: {reason}{rule}",
        )
    )
    return None


def release(t: TableState, cmd: ReleaseHands, emit: Emit) -> Move:
    if cmd.hold not in t.holds:
        return None
    left = len(t.holds) - 1
    rest = f"; still held: {left} more" if left else "; the next hand may start"
    emit(HandsReleased(hold=cmd.hold, text=f"Hold released{rest}"))
    return None


def hand_for_hand(t: TableState, cmd: HandForHand, emit: Emit) -> Move:
    if cmd.on == t.h4h:
        return None
    move: Move = None
    if not cmd.on and t.cards_held:
        move = _release(t, emit)
    emit(
        HandForHandSet(
            on=cmd.on,
            text="Hand-for-hand: an all-in and call waits for the floor, cards face down (RP-8)"
            if cmd.on
            else "Hand-for-hand is over",
        )
    )
    return move


def release_cards(t: TableState, cmd: ReleaseCards, emit: Emit) -> Move:
    if not t.cards_held:
        raise Illegal("RP-8-F", "no all-in waits for the floor at this table", code="not_held")
    return _release(t, emit)


def _release(t: TableState, emit: Emit) -> Move:
    if draw.is_draw(t) and t.next_street != "showdown":
        # The hands still draw: face down until the draws are done (17).
        emit(CardsReleased(text="The floor releases the all-in: the draws go on (RP-8-F)"))
        draw.open_draw(t, emit)
        return None
    emit(CardsReleased(text="The floor releases the all-in: the hands are turned up (RP-8-F)"))
    emit(exposure(t))
    return TryShowdown()


def exposure(t: TableState) -> ExposeAll:
    """All live hands face up: an all-in and no further betting possible (17)."""
    live = t.live()
    return ExposeAll(
        seats=[s.number for s in live],
        cards={s.number: list(s.cards) for s in live if s.cards},
        text="All-in and no further betting possible: all hands face up (17)",
    )


def set_button(t: TableState, cmd: SetButton, emit: Emit) -> Move:
    if t.phase != "idle":
        raise Illegal("RP-9", "the button is placed between hands", code="hand_in_play")
    emit(
        ButtonSet(
            seat=cmd.seat,
            rules=["RP-9"],
            text=f"The button is placed on seat {cmd.seat}: the next hand is dealt from it (RP-9)",
        )
    )
    return None
