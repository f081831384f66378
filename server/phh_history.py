"""What every PHH hand history the service writes shares, whatever the game: the rulings that
refuse a hand, the cards as PHH spells them, the players' names and the TOML the history is.

The writers by game family (``server.phh_export`` for the flop games and the entry point,
``server.phh_export_stud``, ``server.phh_export_draw``) build on these, so that a hand is
refused for the same reasons in the same words whichever game it is.
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from protocol import events as kinds
from protocol.events import ActionEvent, CardsShown, Event, HandEnd, HandStart, RoundEnd
from server.engine import TableState

UNKNOWN_CARD = "??"

LIMIT_CAP = 4
"""PHH's fixed-limit games (as PokerKit, the format's reference, reads them) allow four bets,
completions and raises a street, blinds and bring-in not counted."""


class Inexpressible(ValueError):
    """The hand cannot be written in PHH; the message says why, for the hand's record."""


_REFUSED: dict[type, str] = {
    kinds.Misdealt: "a misdeal and its re-deal (37-C)",
    kinds.Corrected: "a correction of the hand (24)",
    kinds.Irregular: "an irregularity and its procedure",
    kinds.PenaltyGiven: "a penalty",
    kinds.OutOfTurn: "an action out of turn (55)",
    kinds.FloorCall: "a floor call",
}
"""Events of rulings PHH has no words for."""


def bounds(events: list[Event]) -> tuple[HandStart, HandEnd]:
    """The hand's one ``hand_start`` and ``hand_end``, once no ruling PHH cannot say is among
    its events."""
    for e in events:
        why = _REFUSED.get(type(e))
        if why is not None:
            raise Inexpressible(f"the hand has {why}, which PHH has no words for")
        if isinstance(e, ActionEvent) and e.forced:
            raise Inexpressible("a ruling on a hand (a kill), which PHH has no words for")
    starts = [e for e in events if isinstance(e, HandStart)]
    ends = [e for e in events if isinstance(e, HandEnd)]
    if len(starts) != 1 or len(ends) != 1:
        raise Inexpressible("the hand was dealt more than once (a void deal before it)")
    end = ends[0]
    if end.void:
        raise Inexpressible("a void hand: every chip went back")
    if end.removed:
        raise Inexpressible(f"{end.removed} chips left play during the hand")
    return starts[0], end


def check_cap(events: list[Event]) -> None:
    """A fixed-limit street with more bets and raises than PHH's cap (the cap lifted heads-up
    or a house cap over four, 50) would not replay: refused rather than written."""
    made = 0
    for e in events:
        if isinstance(e, RoundEnd):
            made = 0
        elif isinstance(e, ActionEvent) and e.action in ("bet", "raise"):
            made += 1
            if made > LIMIT_CAP:
                raise Inexpressible(
                    f"more than {LIMIT_CAP} bets and raises on a street (50); "
                    "PHH's fixed limit stops at four"
                )


def at_showdown(e: CardsShown, live: int, folded: set[int], shown: set[int]) -> bool:
    """A hand tabled or mucked at a showdown PHH knows: two or more players reached it (a
    winner showing after everyone folded is no showdown; ``live`` is how many did not fold)
    and it was not shown already."""
    return live >= 2 and not e.partial and e.seat not in folded and e.seat not in shown


def last_in(seats: list[int], folded: set[int], shown: set[int]) -> int | None:
    """The seat left alone at a showdown the others mucked at (it wins unseen, 18-B): PHH
    settles a showdown pot by the hands shown, so its cards are written as the hand's last
    action (as PHH's data sets do) where they are known."""
    rest = [seat for seat in seats if seat not in folded and seat not in shown]
    return rest[0] if shown and len(rest) == 1 else None


def known(cards: list[str] | None) -> bool:
    return bool(cards) and not any("?" in c for c in cards or [])


def card_text(cards: list[str] | None, count: int) -> str:
    """The cards as PHH writes them: ``"AsKd"``, or ``count`` unknown cards when any is not
    known (a card not entered, or never seen)."""
    if cards is not None and known(cards):
        return "".join(cards)
    return UNKNOWN_CARD * count


def players(base: TableState, order: Iterable[int]) -> list[str]:
    """The players' names in PHH's order (``seat N`` for a seat without one)."""
    return [_name(base, seat) for seat in order]


def _name(base: TableState, seat: int) -> str:
    found = base.seat(seat)
    return found.name if found is not None and found.name else f"seat {seat}"


def document(fields: dict[str, object], tournament: str, table: str) -> str:
    """The history: ``fields`` in order, then the event (the tournament) and the table."""
    if tournament:
        fields["event"] = tournament
    if table:
        fields["table"] = table
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields.items())


def _toml(value: object) -> str:
    """A TOML value: integers, strings (JSON's escapes are TOML's basic-string escapes) and
    arrays of them - all a PHH history needs."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def labels(seats: list[int]) -> dict[int, str]:
    """PHH's player of each seat: ``p1`` the first in the history's order."""
    return {seat: f"p{i}" for i, seat in enumerate(seats, 1)}


def act(e: ActionEvent, player: str) -> str:
    """A player's action as ruled, in PHH's words: fold, check or call, complete/bet/raise to
    the street's total, bring in."""
    if e.action == "fold":
        return f"{player} f"
    if e.action in ("check", "call"):
        return f"{player} cc"
    if e.action == "bring_in":
        return f"{player} pb"
    return f"{player} cbr {e.total}"
