"""The betting round: who acts, what it owes, and how far it may raise (rules 45, 49, 50, 56).

Everything here reads the state; nothing changes it. Every prompt and every action asks
these several times, so the hot ones test the structure in place (``t.game in FIXED_LIMIT``)
rather than through :func:`is_limit`.
"""

from __future__ import annotations

from server.engine.games import FIXED_LIMIT, POT_LIMIT, big_bet
from server.engine.state import Seat, TableState


def is_limit(t: TableState) -> bool:
    return t.game in FIXED_LIMIT


def bet_unit(t: TableState) -> int:
    """Fixed-limit bet size: the small bet (the level's minimum bet: the big blind, if any)
    early, the big bet (twice it) on turn and river (stud: fifth to seventh street; an open
    pair on fourth street does not double it, RP-10-F)."""
    small = t.level.min_bet
    return small * 2 if big_bet(t.game, t.street) else small


def owed(t: TableState, s: Seat) -> int:
    """What the seat must add to call (never more than it has)."""
    short = t.current_bet - s.bet
    if short <= 0:
        return 0
    return short if short < s.stack else s.stack


def all_in_to(s: Seat) -> int:
    return s.bet + s.stack


def others_with_chips(t: TableState, s: Seat) -> bool:
    me = s.number  # by number: ``s`` may be the seat as it was before an event replaced it
    for o in t.seats:
        if o.number != me and o.stack > 0 and o.dealt and not o.folded and not o.mucked:
            return True
    return False


def raise_can_be_called(t: TableState, s: Seat) -> bool:
    """A raise means something only if another live seat could put in more than the bet now."""
    bet, me = t.current_bet, s.number
    for o in t.seats:
        if o.number != me and o.bet + o.stack > bet and o.dealt and not o.folded and not o.mucked:
            return True
    return False


def reopened(t: TableState, s: Seat) -> bool:
    """49: a seat that has acted may raise again only facing at least a full bet or raise.

    Short all-ins add up (seed 003 example 1); in limit half a bet is enough (49-B).
    """
    if not s.acted:
        return True
    faced = t.current_bet - s.bet
    if t.game in FIXED_LIMIT:
        return faced * 2 >= bet_unit(t)
    return faced >= t.last_full


def cap_reached(t: TableState) -> bool:
    """50: in limit the bets and raises on a street are capped until the event is heads-up."""
    return t.game in FIXED_LIMIT and not t.heads_up_event and t.bets >= t.cap


def can_raise(t: TableState, s: Seat) -> bool:
    """Asked at every prompt: the look at every other seat comes last."""
    return (
        s.bet + s.stack > t.current_bet
        and s.number not in t.no_raise
        and not cap_reached(t)
        and reopened(t, s)
        and raise_can_be_called(t, s)
    )


def full_min_raise_to(t: TableState) -> int:
    """45-A: the current bet plus the largest full bet or raise increment of the street.

    In limit the raise is the fixed unit on top of the last full bet, so a short all-in of
    less than half a bet is completed rather than raised over (49-B).
    """
    if t.game in FIXED_LIMIT:
        return t.full_bet + bet_unit(t)
    if t.current_bet == 0:
        return max(t.last_full, t.level.min_bet)
    return t.current_bet + t.last_full


def pot_limit_max_to(t: TableState, s: Seat) -> int:
    """56: a pot-sized raise is the pot after calling, on top of the call.

    Pre-flop the blinds count as fully posted even when dead or short (56-B).
    """
    pot = t.pot_total()
    if t.street == "preflop":
        sb_amount, bb_amount = t.level.blinds
        sb = t.seat(t.small_blind) if t.small_blind is not None else None
        bb = t.seat(t.big_blind)
        pot += max(0, sb_amount - (sb.bet if sb else 0))
        pot += max(0, bb_amount - (bb.bet if bb else 0))
    call = t.current_bet - s.bet
    return t.current_bet + pot + call


def raise_bounds(t: TableState, s: Seat) -> tuple[int, int]:
    """The minimum and maximum raise-to totals for a seat allowed to raise."""
    top = s.bet + s.stack
    low = min(full_min_raise_to(t), top)
    if t.game in FIXED_LIMIT:
        return low, low
    if t.game in POT_LIMIT:
        return low, max(low, min(pot_limit_max_to(t, s), top))
    return low, top


def needs_to_act(t: TableState, s: Seat) -> bool:
    if s.stack == 0 or not s.dealt or s.folded or s.mucked:
        return False
    if s.bet < t.current_bet:
        return True
    return not s.acted and others_with_chips(t, s)


def next_to_act(t: TableState, after: int) -> Seat | None:
    """The first seat clockwise after seat ``after`` that still has to act (the seats are
    kept in seat order)."""
    seats = t.seats
    for s in seats:
        if s.number > after and needs_to_act(t, s):
            return s
    for s in seats:  # round past the highest seat number
        if s.number > after:
            break
        if needs_to_act(t, s):
            return s
    return None


def betting_possible(t: TableState) -> bool:
    """Two or more live seats still have chips behind."""
    found = 0
    for s in t.seats:
        if s.stack > 0 and s.dealt and not s.folded and not s.mucked:
            found += 1
            if found == 2:
                return True
    return False
