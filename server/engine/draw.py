"""The draw games' draws: each seat draws in turn, and the stub running short (RP-17, RP-25).

2-7 triple draw, no-limit 2-7 single draw and badugi are dealt like hold'em (a button, blinds,
the first seat left of the big blind opens; limping is allowed in single draw, RP-17) but have
no board: every street after the first opens with a draw. The draw goes in turn from the first
live seat left of the button, all-in hands included (they still play their cards): each seat
stands pat or throws cards and is dealt as many, the dealer pushing the new cards and taking
the discards together (RP-25-D). When every live hand has drawn, the street's betting opens as
after a flop game's deal (the draw's :class:`~protocol.events.Dealt`).

The stub. Of the 52 cards, the hands are dealt, one card is burnt before each draw's first
card, and the draws are dealt from what is left. When a seat's draw needs more than the stub
holds, RP-25 says what the dealer does:

- A: the stub's last card completes the draw: it is used;
- B: the stub alone is short, the stub and the burns are enough: they are mixed into a new
  stub; if every one of those cards is needed no card is burnt, otherwise the top one is;
- C: not even so: the stub, the burns and the muck (the folded hands and the discards already
  taken) are shuffled into a new stub, the top card is burnt, and the draw is dealt.

RP-25 speaks of the cards "to complete the round"; at the table the counts of the seats still
to draw are not known until they throw, so Tablewire applies the procedure at the draw the
stub cannot serve, for that draw. The seats after it draw from the new stub, and the procedure
applies again if that runs short. A seat's own discards are not in the muck it is dealt from:
the dealer takes them as the new cards are pushed (RP-25-D).

A card dealt that is already in play is a duplicate (37-E): one in a hand, a folded hand or a
discard entered, until C shuffles the muck back into the stub.
"""

from __future__ import annotations

from protocol.commands import Draw
from protocol.config import MOST_HANDS
from protocol.events import Dealt, Drawn, DrawPrompt
from server.engine import games
from server.engine.actions import live_seat
from server.engine.errors import Illegal
from server.engine.moves import Emit, Move, StreetDealt
from server.engine.state import Seat, TableState
from server.engine.unseen import check_unseen

ORDINALS = {"first_draw": "first draw", "second_draw": "second draw", "third_draw": "third draw"}


def is_draw(t: TableState) -> bool:
    return t.game in games.DRAW


def street_name(street: str) -> str:
    """How a dealer says the draw: "first draw", "draw" (single draw)."""
    return ORDINALS.get(street, street)


def round_name(street: str) -> str:
    """The betting round a street names: "betting before the draw", "... after the first
    draw"."""
    if street == "predraw":
        return "betting before the draw"
    return f"betting after the {street_name(street)}"


def open_draw(t: TableState, emit: Emit) -> None:
    """The betting round is over and a draw is next: the first live hand left of the button
    draws first."""
    first = _next_drawer(t, t.button)
    assert first is not None, "a draw opens with live hands"
    emit(_prompt(t, first))


def _next_drawer(t: TableState, after: int) -> Seat | None:
    """The first live hand clockwise after seat ``after`` that has not drawn in this draw."""
    done = _draw_index(t) + 1
    later = [s for s in t.seats if s.number > after]
    for s in (*later, *t.seats[: len(t.seats) - len(later)]):
        if s.live and len(s.draws) < done:
            return s
    return None


def _draw_index(t: TableState) -> int:
    """Which draw of the hand is under way: 0 for the first."""
    return games.streets(t.game).index(t.next_street) - 1


def _in_stub(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'} in the stub"


def prompt_for(t: TableState) -> DrawPrompt | None:
    """The draw waiting on a seat, as its ``draw_prompt`` said it (a station's snapshot)."""
    s = t.seat(t.to_act) if t.phase == "draw" and t.to_act is not None else None
    return _prompt(t, s) if s is not None else None


def _prompt(t: TableState, s: Seat) -> DrawPrompt:
    most = games.hole_count(t.game)
    return DrawPrompt(
        seat=s.number,
        street=t.next_street,
        most=most,
        stub=t.stub,
        text=f"Seat {s.number} to draw ({street_name(t.next_street)}): stand pat or throw"
        f" 1 to {most}; {_in_stub(t.stub)}",
    )


def draw(t: TableState, cmd: Draw, emit: Emit) -> Move:
    """A seat's draw, in turn; the next seat is prompted, or the street's betting opens."""
    if t.phase != "draw":
        raise Illegal("", "no draw is under way", code="no_draw")
    s = live_seat(t, cmd.seat)
    if cmd.seat != t.to_act:
        raise Illegal(
            "RP-25-D",
            f"seat {t.to_act} draws before seat {cmd.seat}: the draw goes in turn from the left"
            " of the button",
            code="out_of_turn",
        )
    most = games.hole_count(t.game)
    if cmd.count > most:
        raise Illegal("", f"a hand of {most} cards throws at most {most}")
    if cmd.thrown and s.cards and any(c not in s.cards for c in cmd.thrown):
        held = " ".join(s.cards)
        raise Illegal("", f"seat {s.number} holds {held}: it cannot throw {' '.join(cmd.thrown)}")
    if len(set(cmd.thrown)) != len(cmd.thrown) and "??" not in cmd.thrown:
        raise Illegal("", "a card is thrown twice")
    drawn = _drawn(t, s, cmd)
    # Before RP-25-C the folded hands and the discards are in the muck; after it, in the stub.
    check_unseen(t, [c for c in cmd.cards if c != "??"], live_only="RP-25-C" in drawn.rules)
    emit(drawn)
    nxt = _next_drawer(t, s.number)
    if nxt is not None:
        emit(_prompt(t, nxt))
        return None
    emit(_done(t))
    return StreetDealt()


def _drawn(t: TableState, s: Seat, cmd: Draw) -> Drawn:
    """The draw and what the stub does to serve it (RP-25)."""
    what = "stands pat" if cmd.count == 0 else f"draws {cmd.count}"
    text = f"Seat {s.number} {what} ({street_name(t.next_street)})"
    stub, burns, rule, how = serve(t, cmd.count) if cmd.count else (t.stub, t.burns, "", "")
    return Drawn(
        seat=s.number,
        street=t.next_street,
        count=cmd.count,
        thrown=list(cmd.thrown),
        cards=list(cmd.cards),
        stub=stub,
        burns=burns,
        rules=[rule] if rule else [],
        text=f"{text}; {how}" if how else text,
    )


def serve(t: TableState, count: int) -> tuple[int, int, str, str]:
    """The stub and the burns after dealing ``count`` cards to the seat to draw, and the
    procedure that served them (RP-25 A-C, or "" when the stub simply had them)."""
    burn = 0 if _burnt(t) else 1
    if t.stub > count + burn:
        return t.stub - count - burn, t.burns + burn, "", ""
    if t.stub == count + burn:
        return 0, t.burns + burn, "RP-25-A", "the stub's last card is used (RP-25-A)"
    pool = t.stub + t.burns
    if pool == count:
        how = "the stub and the burns are mixed and dealt, every card needed: no burn"
        if not t.burns:
            how = "the stub holds just the cards drawn: no burn, its last card used"
        return 0, 0, "RP-25-B", f"{how} (RP-25-B)"
    if pool > count:
        how = "the stub and the burns are mixed into a new stub, one burnt"
        return pool - count - 1, 1, "RP-25-B", f"{how} (RP-25-B)"
    pool += games.DECK - t.stub - t.burns - games.hole_count(t.game) * t.live_count()
    if pool <= count:
        raise Illegal(
            "RP-25-C",
            f"the stub, the burns and the muck hold {pool} cards: not enough to burn one and"
            f" deal {count}",
        )
    how = "the stub, the burns and the muck are shuffled into a new stub, one burnt"
    return pool - count - 1, 1, "RP-25-C", f"{how} (RP-25-C)"


def _burnt(t: TableState) -> bool:
    """A card was burnt for this draw already: some seat has drawn a card in it."""
    index = _draw_index(t)
    return any(len(s.draws) > index and s.draws[index] for s in t.seats)


def _done(t: TableState) -> Dealt:
    """Every live hand has drawn: the street opens (its betting, or the next round's close)."""
    index = _draw_index(t)
    counts = [
        f"seat {s.number} {f'drew {s.draws[index]}' if s.draws[index] else 'stood pat'}"
        for s in t.seats
        if s.live
    ]
    return Dealt(
        street=t.next_street,
        text=f"{street_name(t.next_street).capitalize()} complete: {', '.join(counts)};"
        f" {_in_stub(t.stub)}",
    )


def check_hands(game: str, dealt: int) -> None:
    """The deck serves the first draw of a whole hand, with its burn, from the stub: ten hands
    of 2-7 would leave two cards, and even the muck of RP-25-C would be empty at the first
    draw."""
    most = MOST_HANDS.get(game, games.DECK)
    if dealt > most:
        raise Illegal(
            "RP-25",
            f"{game} deals at most {most} hands: {dealt} would leave the stub too short for the"
            " first draw, with nothing in the muck to shuffle in",
            code="too_many_hands",
        )
