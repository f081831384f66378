"""The showdown: who shows first, when the pots are settled, awards and the end of the hand.

Rule 18: at a showdown without all-in, the last aggressor of the last street shows first,
otherwise the first live seat left of the button. Rules 13, 21 and 23: cards speak, pots split
separately, odd chips by position, hi/lo halves with the odd chip high.
"""

from __future__ import annotations

from protocol.events import Awarded, HandEnd, PotAward
from server.engine import hands, penalties, pots, words
from server.engine.errors import Illegal
from server.engine.moves import Emit
from server.engine.state import Seat, TableState


def showdown_order(t: TableState) -> list[int]:
    live = [s.number for s in t.live()]
    start = t.aggressor if t.aggressor in live else None
    if start is None:
        start = pots.seats_from_button(t, live)[0]
    i = live.index(start)
    return live[i:] + live[:i]


def _revealed(t: TableState, s: Seat) -> bool:
    return s.shown or (t.exposed and bool(s.cards))


def try_resolve(t: TableState, emit: Emit) -> None:
    """At a showdown, award the pots once every live hand is shown or mucked and the cards
    are known; otherwise wait for the dealer to show, muck or award."""
    if t.phase != "showdown":
        return
    live = t.live()
    if len(live) == 1:
        _finish(t, emit, {i: [live[0].number] for i in range(len(pots.layered(t)))})
        return
    if not all(_revealed(t, s) for s in live):
        return
    if len(t.board) != 5 or not all(s.cards for s in live):
        return
    _finish_by_cards(t, emit)


def _finish_by_cards(t: TableState, emit: Emit) -> None:
    board = t.board
    awards: list[PotAward] = []
    stacks_add: dict[int, int] = {}
    for index, pot in enumerate(pots.layered(t)):
        contenders = {n: _cards(t, n) for n in pot.eligible}
        high = hands.best_high(t.game, contenders, board)
        rules = ["23"] if index else []
        if t.game in hands.HI_LO_GAMES:
            low = hands.best_low(t.game, contenders, board)
            shares = pots.split_hi_lo(t, pot.amount, high, low)
            rules += ["21-C"] if low else []
        else:
            shares = pots.split(t, pot.amount, high)
        if len(shares) > 1:
            rules.append("21-A")
        for n, c in shares.items():
            stacks_add[n] = stacks_add.get(n, 0) + c
        awards.append(
            PotAward(pot.amount, sorted(shares), index, shares, list(pot.eligible), rules)
        )
    _hand_end(t, emit, awards, stacks_add)


def _cards(t: TableState, seat: int) -> list[str]:
    s = t.seat(seat)
    return list(s.cards) if s else []


def _finish(t: TableState, emit: Emit, winners: dict[int, list[int]]) -> None:
    awards: list[PotAward] = []
    stacks_add: dict[int, int] = {}
    for index, pot in enumerate(pots.layered(t)):
        shares = pots.split(t, pot.amount, winners[index])
        for n, c in shares.items():
            stacks_add[n] = stacks_add.get(n, 0) + c
        awards.append(
            PotAward(pot.amount, sorted(winners[index]), index, shares, list(pot.eligible))
        )
    _hand_end(t, emit, awards, stacks_add)


def win_uncontested(t: TableState, emit: Emit) -> None:
    """Every pot to the one live hand left."""
    winner = t.live()[0].number
    _finish(t, emit, {i: [winner] for i in range(len(pots.layered(t)))})


def award(t: TableState, index: int, winners: list[int], emit: Emit) -> None:
    """The dealer awards pot ``index``; when every pot is awarded the hand ends."""
    if t.phase != "showdown":
        raise Illegal("", "pots are awarded at the showdown", code="no_showdown")
    layered = pots.layered(t)
    if not 0 <= index < len(layered):
        raise Illegal("23", f"there is no pot {index}: the hand has {len(layered)}")
    if index in t.awards:
        raise Illegal("23", f"pot {index} is already awarded")
    pot = layered[index]
    if (
        not winners
        or any(w not in pot.eligible for w in winners)
        or len(set(winners)) != len(winners)
    ):
        raise Illegal("23", f"pot {index} can go only to seats {', '.join(map(str, pot.eligible))}")
    shares = pots.split(t, pot.amount, winners)
    emit(
        Awarded(
            pot=index,
            amount=pot.amount,
            winners=sorted(winners),
            shares=shares,
            rules=["23"] if index else [],
        )
    )
    if len(t.awards) == len(layered):
        awards = [
            PotAward(
                p.amount,
                sorted(t.awards[i]),
                i,
                pots.split(t, p.amount, t.awards[i]),
                list(p.eligible),
            )
            for i, p in enumerate(layered)
        ]
        _hand_end(t, emit, awards, dict(t.shares))


def _hand_end(t: TableState, emit: Emit, awards: list[PotAward], won: dict[int, int]) -> None:
    stacks = {s.number: s.stack + won.get(s.number, 0) for s in t.seats}
    busted = [n for n, chips in stacks.items() if chips == 0]
    # Side pots are awarded before the main pot (17, examples 2 and 3).
    ordered = sorted(awards, key=lambda a: -a.pot)
    text = "; ".join(
        f"pot {a.pot} ({words.chips(a.amount)}) to seat {', '.join(map(str, a.winners))}"
        for a in ordered
    )
    emit(HandEnd(hand=t.hand, stacks=stacks, pots=ordered, busted=busted, text=text))
    penalties.end_served(t, emit)
