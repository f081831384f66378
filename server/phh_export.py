"""An archived no-limit hold'em hand as a PHH hand history (the PokerKit group's TOML format).

The history says what happened at the table in PHH's words: the players dealt in, from the
first seat left of the button (heads-up the big blind first, as PHH and PokerKit read it), their
stacks before the hand, the blinds and antes of the level, the hole cards as the dealer entered
them (``????`` when not entered or never seen), every action as ruled, the board, and at the
showdown who tabled and who mucked.

A hand PHH has no words for is refused with :class:`Inexpressible` naming why - a misdeal, a
correction, a ruling that killed a hand, a penalty, chips taken out of play - rather than
written as a history that would say something else happened. ``server.phh`` reads PHH the
other way (a history into a replay scenario).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from protocol import events as kinds
from protocol.events import ActionEvent, CardsShown, Dealt, Event, ExposeAll, HandEnd, HandStart
from server.engine import TableState

UNKNOWN = "????"


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


def to_phh(base: TableState, events: list[Event], tournament: str = "", table: str = "") -> str:
    """The PHH text of one hand: ``base`` is the table before it, ``events`` the hand's, from
    its ``hand_start`` through its ``hand_end``."""
    if base.game != "NLHE":
        raise Inexpressible(f"PHH export is written for no-limit hold'em; this hand is {base.game}")
    start, end = _bounds(events)
    order = _order(start)
    stacks = {s.number: s.stack for s in base.seats}
    player = {seat: f"p{i}" for i, seat in enumerate(order, 1)}
    fields: dict[str, object] = {
        "variant": "NT",
        "antes": _antes(start, order, stacks),
        "blinds_or_straddles": _blinds(start, order),
        "min_bet": start.min_bet or start.blinds[1],
        "starting_stacks": [stacks[seat] for seat in order],
        "actions": list(_actions(start, events, order, player)),
        "hand": start.hand,
        "seats": order,
        "players": [_name(base, seat) for seat in order],
        "finishing_stacks": [end.stacks.get(seat, 0) for seat in order],
    }
    if tournament:
        fields["event"] = tournament
    if table:
        fields["table"] = table
    return "".join(f"{key} = {_toml(value)}\n" for key, value in fields.items())


def _bounds(events: list[Event]) -> tuple[HandStart, HandEnd]:
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


def _order(start: HandStart) -> list[int]:
    """The seats dealt in, in PHH's order: from the first seat left of the button; heads-up
    the big blind first, the button (the small blind) second."""
    dealt = sorted(start.dealt)
    after = [n for n in dealt if n > start.button] + [n for n in dealt if n <= start.button]
    if len(after) < 2:
        raise Inexpressible("fewer than two players were dealt in")
    if len(after) == 2:
        if after != [start.big_blind, start.small_blind]:
            raise Inexpressible("heads-up, the button does not post the small blind (36-C)")
        return after
    if start.small_blind is not None and after[:2] != [start.small_blind, start.big_blind]:
        raise Inexpressible("the blinds are not the first two seats left of the button")
    if start.small_blind is None and after[0] != start.big_blind and any(start.blinds):
        raise Inexpressible("a dead small blind with the big blind not left of the button")
    return after


def _blinds(start: HandStart, order: list[int]) -> list[int]:
    small, big = start.blinds
    blinds = [0] * len(order)
    if not big:
        return blinds
    if len(order) == 2:
        return [small, big]
    if start.small_blind is None:
        blinds[0] = big
        return blinds
    blinds[0], blinds[1] = small, big
    return blinds


def _antes(start: HandStart, order: list[int], stacks: dict[int, int]) -> list[int]:
    if not start.ante:
        return [0] * len(order)
    if not start.bba:
        return [start.ante] * len(order)
    if stacks[start.big_blind] < start.blinds[1] + start.ante:
        raise Inexpressible(
            "a big blind short of the blind and its ante: RP-11 posts the blind first, PHH the ante"
        )
    return [start.ante if seat == start.big_blind else 0 for seat in order]


def _actions(
    start: HandStart, events: list[Event], order: list[int], player: dict[int, str]
) -> Iterable[str]:
    _check_posts(start.posts, order)
    dealt = {seat: list(cards) for seat, cards in start.cards.items()}
    shown: set[int] = set()
    for e in events:
        match e:
            case CardsShown() if not e.partial and not e.mucked:
                dealt[e.seat] = list(e.cards) or dealt.get(e.seat, [])
            case ExposeAll():
                for seat, cards in e.cards.items():
                    dealt[seat] = list(cards)
    for seat in order:
        yield f"d dh {player[seat]} {_cards(dealt.get(seat))}"
    folded: set[int] = set()
    for e in events:
        match e:
            case ActionEvent():
                if e.action == "fold":
                    folded.add(e.seat)
                    yield f"{player[e.seat]} f"
                elif e.action in ("check", "call"):
                    yield f"{player[e.seat]} cc"
                else:
                    yield f"{player[e.seat]} cbr {e.total}"
            case Dealt():
                yield f"d db {''.join(e.cards)}"
            case ExposeAll():
                for seat in order:
                    if seat not in folded and seat not in shown:
                        shown.add(seat)
                        yield f"{player[seat]} sm {_cards(dealt.get(seat))}"
            case CardsShown() if _at_showdown(e, order, folded, shown):
                shown.add(e.seat)
                tabled = "" if e.mucked else f" {_cards(dealt.get(e.seat))}"
                yield f"{player[e.seat]} sm{tabled}"


def _at_showdown(e: CardsShown, order: list[int], folded: set[int], shown: set[int]) -> bool:
    """A hand tabled or mucked at a showdown PHH knows: two or more players reached it (a
    winner showing after everyone folded is no showdown) and it was not shown already."""
    contested = len(order) - len(folded) >= 2
    return contested and not e.partial and e.seat not in folded and e.seat not in shown


def _check_posts(posts: list[kinds.Post], order: list[int]) -> None:
    for post in posts:
        if post.seat not in order:
            raise Inexpressible(f"seat {post.seat} posted without being dealt in")


def _cards(cards: list[str] | None) -> str:
    if not cards or any("?" in c for c in cards):
        return UNKNOWN
    return "".join(cards)


def _name(base: TableState, seat: int) -> str:
    found = base.seat(seat)
    return found.name if found is not None and found.name else f"seat {seat}"


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
