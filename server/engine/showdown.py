"""The showdown: who shows first, when the pots are settled, awards and the end of the hand.

Rule 18: at a showdown without all-in, the last aggressor of the last street shows first,
otherwise the first live seat left of the button; the last live hand wins unshown (18-B).
Rule 13: cards speak — the engine reads the tabled hands (:mod:`tabling`, 14-A, 20) once all
are tabled and their cards known, and a dealer's award may not go against tabled cards.
Rules 21 and 23: pots split separately, in units of the smallest chip in play, odd chips by
position (in stud by suit), hi/lo halves with the odd chip high.
"""

from __future__ import annotations

from protocol.events import Awarded, HandEnd, PotAward
from server.engine import games, hands, lowball, penalties, pots, stud, words
from server.engine.errors import Illegal
from server.engine.moves import Emit
from server.engine.state import TableState
from server.engine.tabling import tabled


def showdown_order(t: TableState) -> list[int]:
    """18-A: the last aggressor of the last street first; without a bet, the seat first to act
    on it: left of the button in a flop game, the best board in stud (razz: the lowest)."""
    live = [s.number for s in t.live()]
    start = t.aggressor if t.aggressor in live else None
    if start is None and stud.is_stud(t):
        start = stud.best_board(t)
    if start is None:
        start = pots.seats_from_button(t, live)[0]
    i = live.index(start)
    return live[i:] + live[:i]


def try_resolve(t: TableState, emit: Emit) -> None:
    """At a showdown, award the pots once every live hand is tabled or mucked and the cards
    are known; otherwise wait for the dealer to show, muck or award."""
    if t.phase != "showdown":
        return
    live = t.live()
    if len(live) == 1:
        rules = [] if live[0].shown else ["18-B"]
        _finish(t, emit, {i: [live[0].number] for i in range(len(pots.layered(t)))}, rules)
        return
    if not all(tabled(t, s) for s in live):
        return
    if not all(_readable(t, s.number) for s in live):
        return
    _finish_by_cards(t, emit)


def _readable(t: TableState, seat: int) -> bool:
    """The seat's whole hand is known: its hole cards and a full board, every card entered
    (stud: seven cards). A card not entered (``??``) leaves the pot to the dealer's award."""
    s = t.seat(seat)
    if s is None:
        return False
    if stud.is_stud(t):
        return stud.complete_hand(s, t.board)
    board = 0 if t.game in games.DRAW else 5
    return (
        len(t.board) == board
        and "??" not in t.board
        and len(s.cards) == games.hole_count(t.game)
        and "??" not in s.cards
    )


def _best(t: TableState, contenders: dict[int, list[str]]) -> list[int]:
    """The winning seats by the game's ranking: the draw games' lows (2-7, badugi), or high."""
    if t.game in games.DRAW:
        return lowball.best(games.ranking(t.game), contenders)
    return hands.best_hand(t.game, contenders, t.board)


def _name(t: TableState, cards: list[str]) -> str:
    if t.game in games.DRAW:
        return lowball.name(games.ranking(t.game), cards)
    return hands.hand_name(t.game, cards, t.board)


def _finish_by_cards(t: TableState, emit: Emit) -> None:
    board = t.board
    awards: list[PotAward] = []
    stacks_add: dict[int, int] = {}
    for index, pot in enumerate(pots.layered(t)):
        contenders = {n: _cards(t, n) for n in pot.eligible}
        high = _best(t, contenders)
        low: list[int] = []
        rules = ["13", "23"] if index else ["13"]
        if t.game in games.HI_LO:
            low = hands.best_low(t.game, contenders, board)
            shares = pots.split_hi_lo(t, pot.amount, high, low)
            rules += ["21-C"] if low else []
        else:
            shares = pots.split(t, pot.amount, high)
        if len(high) > 1 or len(low) > 1:
            rules.append(pots.odd_chip_rule(t))
        for n, c in shares.items():
            stacks_add[n] = stacks_add.get(n, 0) + c
        named = hand_names(t, sorted(shares), high, low)
        awards.append(
            PotAward(pot.amount, sorted(shares), index, shares, list(pot.eligible), rules, named)
        )
    _hand_end(t, emit, awards, stacks_add)


def _cards(t: TableState, seat: int) -> list[str]:
    """The seat's cards as the evaluator reads them with the board (stud: all seven)."""
    s = t.seat(seat)
    return stud.hand_of(s, []) if s else []


def hand_names(
    t: TableState, winners: list[int], high: list[int] | None = None, low: list[int] | None = None
) -> dict[int, str]:
    """What each winner's known cards make, in words; in hi/lo a seat that won the low half
    names its low too (``high``/``low``: the seats that won each half, when the engine read
    them). Nothing for a hand whose cards (or board) are not all known."""
    names: dict[int, str] = {}
    for n in winners:
        if not _readable(t, n):
            continue
        cards = _cards(t, n)
        parts = [_name(t, cards)] if high is None or n in high else []
        if t.game in games.HI_LO and (low is None or n in low):
            parts += [low for low in [hands.low_name(t.game, cards, t.board)] if low]
        names[n] = "; ".join(parts)
    return {n: name for n, name in names.items() if name}


def _finish(
    t: TableState, emit: Emit, winners: dict[int, list[int]], rules: list[str] | None = None
) -> None:
    awards: list[PotAward] = []
    stacks_add: dict[int, int] = {}
    for index, pot in enumerate(pots.layered(t)):
        shares = pots.split(t, pot.amount, winners[index])
        for n, c in shares.items():
            stacks_add[n] = stacks_add.get(n, 0) + c
        awards.append(
            PotAward(
                pot.amount,
                sorted(winners[index]),
                index,
                shares,
                list(pot.eligible),
                [*(rules or []), *(["23"] if index else [])],
            )
        )
    _hand_end(t, emit, awards, stacks_add)


def win_uncontested(t: TableState, emit: Emit) -> None:
    """Every pot to the one live hand left."""
    winner = t.live()[0].number
    _finish(t, emit, {i: [winner] for i in range(len(pots.layered(t)))})


def pot_name(index: int) -> str:
    return "the main pot" if index == 0 else f"side pot {index}"


def award(t: TableState, index: int, winners: list[int], emit: Emit) -> None:
    """The dealer awards pot ``index``; when every pot is awarded the hand ends."""
    if t.phase != "showdown":
        raise Illegal("", "pots are awarded at the showdown", code="no_showdown")
    layered = pots.layered(t)
    if not 0 <= index < len(layered):
        names = ", ".join(pot_name(i) for i in range(len(layered)))
        raise Illegal("23", f"there is no pot {index}: the hand has {names}")
    if index in t.awards:
        raise Illegal("23", f"{pot_name(index)} is already awarded")
    pot = layered[index]
    if (
        not winners
        or any(w not in pot.eligible for w in winners)
        or len(set(winners)) != len(winners)
    ):
        seats = ", ".join(map(str, pot.eligible))
        raise Illegal("23", f"{pot_name(index)} can go only to seats {seats}")
    if len(pot.eligible) > 1:
        _check_contest(t, index, pot.eligible, winners)
    shares = pots.split(t, pot.amount, winners)
    rules = ["23"] if index else []
    emit(
        Awarded(
            pot=index,
            amount=pot.amount,
            winners=sorted(winners),
            shares=shares,
            rules=[*rules, pots.odd_chip_rule(t)] if len(winners) > 1 else rules,
            hands=hand_names(t, sorted(winners)),
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
                hands=hand_names(t, sorted(t.awards[i])),
            )
            for i, p in enumerate(layered)
        ]
        _hand_end(t, emit, awards, dict(t.shares))


def _check_contest(
    t: TableState, index: int, eligible: tuple[int, ...], winners: list[int]
) -> None:
    """A contested pot goes only to tabled hands (14-A, 20), once every hand in it is tabled
    or mucked (16-A, 18), and never against what the tabled cards say (13)."""
    seats = [s for s in t.seats if s.number in eligible]
    for s in seats:
        if s.number in winners and not tabled(t, s):
            raise Illegal(
                "14-A",
                f"seat {s.number} has not tabled its hand: {pot_name(index)} is won only with "
                "every hole card face up (14-A, 20)",
            )
    for s in seats:
        if s.face_up and not tabled(t, s):
            raise Illegal(
                "16-A",
                f"seat {s.number} shows {' '.join(s.face_up)} only: the rest is shown, or the "
                f"hand mucked, before {pot_name(index)} is awarded",
            )
        if not tabled(t, s):
            raise Illegal(
                "18",
                f"seat {s.number} still holds a live hand: it is tabled or mucked before "
                f"{pot_name(index)} is awarded",
            )
    known = {s.number: _cards(t, s.number) for s in seats if _readable(t, s.number)}
    if known:
        _cards_speak(t, known, [w for w in winners if w in known], winners)


def _cards_speak(
    t: TableState, known: dict[int, list[str]], read: list[int], winners: list[int]
) -> None:
    """13: a winner whose cards the engine knows is not beaten, nor tied by one left out, by
    another tabled hand it knows. (Hi/lo: the winner has the best high or the best low.)"""
    if not read:
        return
    high = _best(t, known)
    if t.game in games.HI_LO:
        best = high + hands.best_low(t.game, known, t.board)
        beaten = [w for w in read if w not in best]
        if beaten:
            raise Illegal(
                "13",
                f"cards speak: seat {beaten[0]}'s hand wins neither half against the tabled "
                f"hands of seats {', '.join(str(n) for n in known if n != beaten[0])}",
            )
        return
    for w in read:
        if w not in high:
            raise Illegal("13", f"cards speak: seat {high[0]}'s tabled hand beats seat {w}'s")
    left_out = [n for n in high if n not in winners]
    if left_out:
        raise Illegal(
            "13",
            f"cards speak: seat {left_out[0]}'s tabled hand ties seat {read[0]}'s; the pot "
            "is split (21-A)",
        )


def _hand_end(t: TableState, emit: Emit, awards: list[PotAward], won: dict[int, int]) -> None:
    stacks = {s.number: s.stack + won.get(s.number, 0) for s in t.seats}
    busted = [n for n, chips in stacks.items() if chips == 0]
    # Side pots are awarded before the main pot (17, examples 2 and 3).
    ordered = sorted(awards, key=lambda a: -a.pot)
    text = "; ".join(_award_text(a) for a in ordered)
    emit(HandEnd(hand=t.hand, stacks=stacks, pots=ordered, busted=busted, text=text))
    penalties.end_served(t, emit)


def _award_text(a: PotAward) -> str:
    """'Side pot 1 (8,000) to seat 3', 'the main pot (1,100) split: seat 2 600, seat 3 500'."""
    head = f"{pot_name(a.pot)} ({words.chips(a.amount)})"
    if len(a.shares) > 1:
        parts = ", ".join(f"seat {n} {words.chips(c)}" for n, c in sorted(a.shares.items()))
        head = f"{head} split: {parts}"
    else:
        head = f"{head} to seat {', '.join(map(str, a.winners))}"
    rules = [r for r in a.rules if r != "13"]
    return f"{head} ({', '.join(rules)})" if rules else head
