"""An archived hand as a PHH hand history (the PokerKit group's TOML format).

The history says what happened at the table in PHH's words: the players dealt in, their stacks
before the hand, the level (blinds and antes, or stud's antes and bring-in), the cards as the
dealer entered them (``??`` for each card not entered or never seen), every action as ruled,
the board or the draws, and at the showdown who tabled and who mucked.

Every game the engine deals that PHH has a variant for is written (:data:`VARIANTS`: the
variants ``server.phh`` reads, so a written hand replays through the engine again); the flop
games here, stud in ``server.phh_export_stud``, the draw games in ``server.phh_export_draw``.
A hand PHH has no words for is refused with :class:`Inexpressible` naming why - a game PHH has
no variant for, a misdeal, a correction, a ruling that killed a hand, a penalty, chips taken
out of play, a fixed-limit street past PHH's cap - rather than written as a history that would
say something else happened.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.events import ActionEvent, CardsShown, Dealt, Event, ExposeAll, HandStart
from server import phh_blinds, phh_export_draw, phh_export_stud
from server.engine import TableState
from server.engine.games import DRAW, FIXED_LIMIT, NAMES, STUD
from server.phh import GAMES
from server.phh_history import (
    Inexpressible,
    act,
    at_showdown,
    bounds,
    card_text,
    check_cap,
    document,
    known,
    labels,
    last_in,
)

__all__ = ["VARIANTS", "Inexpressible", "to_phh"]

VARIANTS: dict[str, str] = {game: variant for variant, game in GAMES.items()}
"""The PHH variant code of each game written: those the PHH reader plays back."""


def to_phh(base: TableState, events: list[Event], tournament: str = "", table: str = "") -> str:
    """The PHH text of one hand: ``base`` is the table before it, ``events`` the hand's, from
    its ``hand_start`` through its ``hand_end``."""
    game = next((e.game for e in events if isinstance(e, HandStart) and e.game), base.game)
    variant = VARIANTS.get(game)
    if variant is None:
        raise Inexpressible(f"PHH has no variant for {NAMES.get(game, game)} ({game})")
    start, end = bounds(events)
    if game in FIXED_LIMIT:
        check_cap(events)
    if game in STUD:
        fields = phh_export_stud.fields(variant, game, base, start, end, events)
    elif game in DRAW:
        fields = phh_export_draw.fields(variant, game, base, start, end, events)
    else:
        fields = phh_blinds.fields(variant, game, base, events, (start, end), _actions)
    return document(fields, tournament, table)


def _actions(start: HandStart, events: list[Event], seats: list[int], count: int) -> Iterable[str]:
    """The deal (each hand as entered, or as tabled later), the actions and boards in order,
    and the showdown."""
    player = labels(seats)
    dealt = {seat: list(cards) for seat, cards in start.cards.items()}
    shown: set[int] = set()
    for e in events:
        match e:
            case CardsShown() if not e.partial and not e.mucked:
                dealt[e.seat] = list(e.cards) or dealt.get(e.seat, [])
            case ExposeAll():
                for seat, cards in e.cards.items():
                    dealt[seat] = list(cards)
    for seat in seats:
        yield f"d dh {player[seat]} {card_text(dealt.get(seat), count)}"
    folded: set[int] = set()
    for e in events:
        match e:
            case ActionEvent():
                if e.action == "fold":
                    folded.add(e.seat)
                yield act(e, player[e.seat])
            case Dealt():
                yield f"d db {''.join(e.cards)}"
            case ExposeAll():
                for seat in seats:
                    if seat not in folded and seat not in shown:
                        shown.add(seat)
                        yield f"{player[seat]} sm {card_text(dealt.get(seat), count)}"
            case CardsShown() if at_showdown(e, len(seats) - len(folded), folded, shown):
                shown.add(e.seat)
                tabled = "" if e.mucked else f" {card_text(dealt.get(e.seat), count)}"
                yield f"{player[e.seat]} sm{tabled}"
    winner = last_in(seats, folded, shown)
    if winner is not None and known(dealt.get(winner)):
        yield f"{player[winner]} sm {card_text(dealt.get(winner), count)}"
