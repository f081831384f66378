"""How a hand moves on after each change: next prompt, end of a round, exposure, showdown.

Rule 17: once an all-in leaves no further betting possible, every hand is turned face up.
Rule 18: at a showdown without all-in, the last aggressor of the last street shows first,
otherwise the first live seat left of the button. Rules 21 and 23: pots split separately, odd
chips by position, hi/lo halves with the odd chip high.
"""

from __future__ import annotations

from collections.abc import Callable

from protocol.events import (
    Awarded,
    Event,
    ExposeAll,
    HandEnd,
    PotAward,
    Prompt,
    RoundEnd,
    ShowdownOrder,
)
from server.engine import betting, hands, out_of_turn, pots, words
from server.engine.errors import Illegal
from server.engine.state import STREETS, Seat, TableState

Emit = Callable[[Event], None]


def prompt_for(t: TableState, s: Seat) -> Prompt:
    to_call = betting.owed(t, s)
    top = betting.all_in_to(s)
    options = ["fold", "call"] if to_call else ["check"]
    low = high = None
    if betting.can_raise(t, s):
        low, high = betting.raise_bounds(t, s)
        options.append("raise" if t.current_bet else "bet")
    word = "raise" if t.current_bet else "bet"
    return Prompt(
        seat=s.number,
        to_call=to_call,
        can_raise=low is not None,
        min_raise_to=low,
        max_raise_to=high,
        all_in_to=top,
        options=options,
        text=words.prompt_text(s.number, to_call, low, high, word),
    )


def progress(t: TableState, emit: Emit, after: int) -> None:
    """After an action: bind or release an out-of-turn action, prompt the next seat, close
    the round, or end the hand."""
    while True:
        out_of_turn.check_substantial(t, emit)
        if t.live_count() == 1:
            _uncontested(t, emit)
            return
        if t.floor:
            return
        nxt = betting.next_to_act(t, after)
        if nxt is None:
            end_round(t, emit)
            return
        if not out_of_turn.on_turn(t, nxt, emit):
            emit(prompt_for(t, nxt))
            return
        after = nxt.number


def _uncalled(t: TableState) -> dict[int, int]:
    """The part of the largest bet nobody matched goes back to its owner."""
    bets = sorted((s.bet for s in t.seats), reverse=True)
    if len(bets) < 2 or bets[0] == bets[1]:
        return {}
    top = next(s for s in t.seats if s.bet == bets[0])
    return {top.number: bets[0] - bets[1]}


def _pots_after(t: TableState, returned: dict[int, int]) -> list[int]:
    return [p.amount for p in pots.layered(t, returned)]


def end_round(t: TableState, emit: Emit) -> None:
    returned = _uncalled(t)
    street_no = STREETS.index(t.street)
    nxt = "showdown" if street_no == len(STREETS) - 1 else STREETS[street_no + 1]
    text = f"End of the {t.street}"
    if returned:
        text += "; " + ", ".join(
            f"seat {n}: {words.chips(a)} uncalled, returned" for n, a in returned.items()
        )
    emit(
        RoundEnd(
            street=t.street, pots=_pots_after(t, returned), returned=returned, next=nxt, text=text
        )
    )
    anyone_all_in = any(s.all_in for s in t.live())
    if anyone_all_in and not t.exposed and (nxt == "showdown" or not betting.betting_possible(t)):
        emit(
            ExposeAll(
                seats=[s.number for s in t.live()],
                cards={s.number: list(s.cards) for s in t.live() if s.cards},
                text="All-in and no further betting possible: all hands face up (17)",
            )
        )
    if nxt == "showdown":
        if not t.exposed:
            order = _showdown_order(t)
            emit(ShowdownOrder(order=order, text=f"Showdown: seat {order[0]} shows first (18)"))
        try_resolve(t, emit)


def after_deal(t: TableState, emit: Emit) -> None:
    if betting.betting_possible(t):
        first = betting.next_to_act(t, t.button)
        if first is not None:
            emit(prompt_for(t, first))
            return
    end_round(t, emit)


def _showdown_order(t: TableState) -> list[int]:
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


def _uncontested(t: TableState, emit: Emit) -> None:
    returned = _uncalled(t)
    winner = t.live()[0]
    emit(
        RoundEnd(
            street=t.street,
            pots=_pots_after(t, returned),
            returned=returned,
            next="",
            text=f"Seat {winner.number} wins uncontested",
        )
    )
    _finish(t, emit, {i: [winner.number] for i in range(len(pots.layered(t)))})


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
    from server.engine import penalties

    penalties.end_served(t, emit)
