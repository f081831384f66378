"""What each role may see. A display never sees a hole card before the rules expose it.

Dealers and the floor see every event as it is. For displays, hole cards are taken out of
``hand_start`` and of the raw records of ``start_hand`` and ``misdeal``, and stud's
seventh-street down-cards out of ``dealt`` and the record of its ``deal``, a draw's discards
and new cards out of ``drawn`` and the record of its ``draw``, also where a
``correction`` carries them among the re-derived hand's events; cards become public
when a hand is shown (``shown``) or all hands are turned up (17). A snapshot carries the typed
view of :mod:`protocol.views`: the public one holds a seat's cards only when the rules exposed
that seat's hand.
"""

from __future__ import annotations

from typing import Any, TypeVar

import msgspec

from protocol.config import Level
from protocol.events import Prompt
from protocol.views import (
    ClockView,
    FloorCallView,
    LevelView,
    OutOfTurnView,
    PublicTableView,
    SeatView,
    TableView,
)
from protocol.wire import Snapshot, encoder
from server.engine import Seat, TableState, draw, stub
from server.engine.buttons import next_positions
from server.engine.flow import prompt_for
from server.engine.games import streets
from server.engine.pots import layered
from server.engine.state import PendingCall
from server.engine.stud import is_stud

_decode = msgspec.json.Decoder()
SNAPSHOTS_KEPT = 64
"""Snapshot frames kept for stations asking for the same table at the same event."""
_snapshots: dict[tuple[str, str, int, bool], bytes] = {}
V = TypeVar("V", TableView, PublicTableView)
PUBLIC_CARDS = frozenset({"deal", "show"})
"""Commands whose cards everyone may see: the board, and hands shown at the showdown."""


def public_event(event: dict[str, Any]) -> dict[str, Any]:
    kind = event.get("type")
    if kind == "correction" and event.get("events"):
        # A correction carries the re-derived hand's events: they are filtered the same way.
        return {**event, "events": [public_event(e) for e in event["events"]]}
    if kind == "hand_start" and event.get("cards"):
        return {**event, "cards": {}}
    if kind == "dealt" and event.get("down"):
        return {**event, "down": {}}
    if kind == "drawn" and (event.get("thrown") or event.get("cards")):
        return {**event, "thrown": [], "cards": []}
    if kind == "recorded":
        command = event.get("command") or {}
        if command.get("type") not in PUBLIC_CARDS and command.get("cards"):
            command = {**command, "cards": type(command["cards"])()}
        if command.get("down"):
            command = {**command, "down": {}}
        if command.get("thrown"):
            command = {**command, "thrown": []}
        return {**event, "command": command}
    return event


def public_events(raw_events: list[bytes]) -> list[Any]:
    """The events as a display may see them (decoded only where cards may hide)."""
    out: list[Any] = []
    for raw in raw_events:
        if (b'"cards"' in raw or b'"down"' in raw or b'"thrown"' in raw) and (
            b'"hand_start"' in raw
            or b'"recorded"' in raw
            or b'"correction"' in raw
            or b'"dealt"' in raw
            or b'"drawn"' in raw
        ):
            out.append(public_event(_decode.decode(raw)))
        else:
            out.append(msgspec.Raw(raw))
    return out


def snapshot_message(
    tournament: str, table: str, seq: int, state: TableState, public: bool
) -> bytes:
    """The ``snapshot`` frame of a table at event ``seq``, encoded once per view.

    Stations that open at once (a room of displays after a restart) ask for the same table at
    the same event: a table's log only grows, so one ``seq`` names one state and the frame is
    shared.
    """
    key = (tournament, table, seq, public)
    frame = _snapshots.pop(key, None)
    if frame is None:
        view = public_view(state) if public else staff_view(state)
        frame = encoder.encode(Snapshot(tournament, table, seq, view))
    _snapshots[key] = frame
    while len(_snapshots) > SNAPSHOTS_KEPT:
        del _snapshots[next(iter(_snapshots))]
    return frame


def staff_view(state: TableState) -> TableView:
    """The table as dealers and the floor see it: every hole card entered."""
    return _table(TableView, state, public=False)


def public_view(state: TableState) -> PublicTableView:
    """The table as a display sees it: a seat's cards only once the rules exposed them."""
    return _table(PublicTableView, state, public=True)


def exposed(state: TableState, seat: Seat) -> bool:
    """Whether the seat's whole hand is face up for everyone: tabled at the showdown (14-A), or
    a live hand turned up because an all-in left no more betting (17). Exposure is decided per
    seat: a folded or mucked hand is not turned up with the others."""
    return seat.shown or (state.exposed and seat.live)


def _public_cards(state: TableState, seat: Seat) -> list[str]:
    """The seat's cards a display may see: all of an exposed hand, else those shown so far."""
    return list(seat.cards) if exposed(state, seat) else list(seat.face_up)


def _dealt_next(state: TableState) -> set[int]:
    """Between hands, the seats the next hand deals in (11-A decides a newcomer's)."""
    if state.phase != "idle":
        return set()
    found = next_positions(state)
    return set(found.dealt) if found is not None else set()


def _seat(state: TableState, seat: Seat, public: bool, dealt_next: set[int]) -> SeatView:
    return SeatView(
        seat=seat.number,
        name=seat.name,
        stack=seat.stack,
        bet=seat.bet,
        in_hand=seat.live,
        all_in=seat.all_in,
        folded=seat.folded,
        # A newcomer waits for the button only if the next hand does not deal it in (11-A):
        # one moved to the big blind's seat (12-A) plays the next hand.
        waiting=seat.waiting and seat.number not in dealt_next,
        cards=_public_cards(state, seat) if public else list(seat.cards),
        up=list(seat.up),
        shown=seat.shown,
        mucked=seat.mucked,
        penalty=state.penalties.get(seat.number, 0),
        dealt=seat.dealt,
        exposed=exposed(state, seat),
        face_up=list(seat.face_up),
        no_raise=state.no_raise.get(seat.number, ""),
        no_fold=state.no_fold.get(seat.number, ""),
        draws=list(seat.draws),
    )


def _call(call: PendingCall, blocking: bool) -> FloorCallView:
    return FloorCallView(
        call=call.call,
        seat=call.seat,
        rule=call.rule,
        options=list(call.options),
        pushed=call.pushed,
        forfeit=call.forfeit,
        blocking=blocking,
    )


def _level(level: Level, game: str = "") -> LevelView:
    return LevelView(
        blinds=level.blinds,
        ante=level.ante,
        bba=level.bba,
        min_bet=level.min_bet,
        bring_in=level.bring_in,
        game=game,
    )


def _prompt(state: TableState) -> Prompt | None:
    """The options of the seat to act, while a betting round waits on it."""
    if state.phase != "betting" or state.to_act is None:
        return None
    seat = state.seat(state.to_act)
    return prompt_for(state, seat) if seat is not None else None


def _seventh(state: TableState) -> str:
    """The short stub's procedure for the seventh street the dealer deals next (RP-10-H)."""
    if not is_stud(state) or state.phase != "deal" or state.next_street != streets(state.game)[-1]:
        return ""
    return stub.seventh(state).procedure


def _table(kind: type[V], state: TableState, public: bool) -> V:
    """Every field of the view, read from the engine state one by one."""
    in_front = {s.number: s.bet for s in state.seats if s.bet}
    pots = [p.amount for p in layered(state, in_front) if p.amount] if state.phase != "idle" else []
    dealt_next = _dealt_next(state)
    staff_only: dict[str, Any] = {} if public else {"muck": list(state.muck)}
    return kind(
        **staff_only,
        game=state.game,
        hand=state.hand,
        phase=state.phase,
        street=state.street,
        blinds=state.level.blinds,
        ante=state.level.ante,
        bba=state.level.bba,
        chips=list(state.chips),
        next_level=_level(state.next_level, state.next_game) if state.next_level else None,
        button=state.button,
        small_blind=state.small_blind,
        big_blind=state.big_blind,
        board=list(state.board),
        to_act=state.to_act,
        current_bet=state.current_bet,
        pots=pots,
        pot_total=state.pot_total() - sum(in_front.values()),
        seats=[
            _seat(state, s, public, dealt_next)
            for s in sorted([*state.seats, *state.arrived], key=lambda seat: seat.number)
        ],
        waiting_on=state.waiting_on(),
        prompt=_prompt(state),
        floor=[_call(c, True) for c in state.floor] + [_call(c, False) for c in state.notices],
        substantial_action=state.sa,
        clock=ClockView(seat=state.clock.seat, expires=state.clock.expires)
        if state.clock
        else None,
        exposed=state.exposed,
        next_street=state.next_street,
        min_bet=state.level.min_bet,
        bring_in=state.level.bring_in,
        seventh=_seventh(state),
        stub=state.stub if draw.is_draw(state) else 0,
        draw_prompt=draw.prompt_for(state),
        rotation=[g.game for g in state.rotation],
        turn=state.turn,
        orbit=state.orbit,
        played=state.played,
        out_of_turn=[
            OutOfTurnView(seat=p.seat, act=p.act, rule=p.rule, skipped=list(p.skipped))
            for p in state.pending
        ],
    )
