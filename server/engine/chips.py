"""Chips a seat gains or loses between hands by the tournament's word: a rebuy or add-on (29)
and a color-up (26).

Both change stacks outside any hand, so both are refused while a hand is in play: a rebuy
announced before a hand is played in that hand (29), which the tournament achieves by adding
the chips before the deal. A rebuying player is not a new player: the seat keeps its place in
the deal (no wait for the button, 9, 11). A color-up removes the leftover chips the race left
(26-C) and changes the denominations in play, so the smallest chip in play — the unit of odd
chips (21) and of amounts said without one (59) — is the new one from the next hand on.
"""

from __future__ import annotations

from protocol.commands import AddChips, ColorUp
from protocol.events import ChipsAdded, ColoredUp
from server.engine import words
from server.engine.errors import Illegal
from server.engine.moves import Emit, Move
from server.engine.state import TableState

KIND_WORDS = {"rebuy": "rebuy", "add_on": "add-on"}


def add(t: TableState, cmd: AddChips, emit: Emit) -> Move:
    """29: the rebuy's or add-on's chips join the seat's stack before the next deal."""
    if t.phase != "idle":
        raise Illegal(
            "29", f"chips are added between hands: hand {t.hand} is in play", code="hand_in_play"
        )
    s = t.seat(cmd.seat)
    if s is None:
        raise Illegal("29", f"there is no player in seat {cmd.seat}", code="unknown_seat")
    unit = min(t.chips)
    if cmd.chips <= 0 or cmd.chips % unit:
        raise Illegal(
            "29",
            f"{words.chips(cmd.chips)} is not a whole number of the smallest chip in play "
            f"({words.chips(unit)})",
            code="bad_chips",
        )
    stack = s.stack + cmd.chips
    emit(
        ChipsAdded(
            seat=s.number,
            chips=cmd.chips,
            kind=cmd.kind,
            stack=stack,
            rules=["29"],
            text=f"Seat {s.number}: {KIND_WORDS[cmd.kind]} of {words.chips(cmd.chips)}; "
            f"plays the next hand with {words.chips(stack)} (29)",
        )
    )
    return None


def color_up(t: TableState, cmd: ColorUp, emit: Emit) -> Move:
    """26-C: the leftover chips come off without compensation; the new denominations are in
    play. Nobody is raced out (26-A): the one chip a player whose last chip was raced gets is the
    tournament's ruling, so a removal that would leave a seat with nothing is refused."""
    if t.phase != "idle":
        raise Illegal(
            "26-C",
            f"chips are colored up between hands: hand {t.hand} is in play",
            code="hand_in_play",
        )
    denominations = list(cmd.chips)
    if not denominations or denominations != sorted(set(denominations)) or denominations[0] <= 0:
        raise Illegal(
            "26-C",
            "the chips in play after a color-up are positive denominations, smallest first",
            code="bad_chips",
        )
    unit = denominations[0]
    for number in sorted({*cmd.removed, *cmd.won}):
        s = t.seat(number)
        if s is None:
            raise Illegal("26-C", f"there is no player in seat {number}", code="unknown_seat")
        gone, gets = cmd.removed.get(number, 0), cmd.won.get(number, 0)
        if gone > s.stack:
            raise Illegal(
                "26-C",
                f"seat {number} holds {words.chips(s.stack)}: {words.chips(gone)} cannot come off",
                code="bad_chips",
            )
        if gone == s.stack and not gets:
            raise Illegal(
                "26-A",
                f"seat {number} would be raced out of the tournament: a player who loses the "
                "last chip in the race gets one chip of the smallest denomination (26-A)",
                code="raced_out",
            )
    stacks = {
        s.number: s.stack - cmd.removed.get(s.number, 0) + cmd.won.get(s.number, 0) for s in t.seats
    }
    for number, stack in stacks.items():
        if stack % unit:
            raise Illegal(
                "26-C",
                f"seat {number}'s {words.chips(stack)} is not a whole number of the smallest "
                f"chip in play ({words.chips(unit)})",
                code="bad_chips",
            )
    removed = {n: c for n, c in sorted(cmd.removed.items()) if c}
    won = {n: c for n, c in sorted(cmd.won.items()) if c}
    off = "; ".join(f"seat {n}: {words.chips(c)}" for n, c in removed.items()) or "nothing"
    raced = "; ".join(f"seat {n}: {words.chips(c)}" for n, c in won.items())
    emit(
        ColoredUp(
            removed=removed,
            chips=denominations,
            stacks=stacks,
            rules=["26-A", "26-C"] if won else ["26-C"],
            text=f"Color-up: chips in play {', '.join(map(words.chips, denominations))}; "
            f"leftover chips removed, {off} (26-C)"
            + (f"; chips won in the race, {raced} (26-A)" if raced else ""),
            won=won,
        )
    )
    return None
