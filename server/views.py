"""What each role may see. A display never sees a hole card before the rules expose it.

Dealers and the floor see every event as it is. For displays, hole cards are taken out of
``hand_start`` and of the raw records of ``start_hand`` and ``misdeal``, also where a
``correction`` carries them among the re-derived hand's events; cards become public
when a hand is shown (``shown``) or all hands are turned up (17). Snapshots are filtered the
same way.
"""

from __future__ import annotations

from typing import Any

import msgspec

from server.engine import TableState
from server.engine.flow import prompt_for
from server.engine.pots import layered

_json = msgspec.json.Encoder()
_decode = msgspec.json.Decoder()
PUBLIC_CARDS = frozenset({"deal", "show"})
"""Commands whose cards everyone may see: the board, and hands shown at the showdown."""


def public_event(event: dict[str, Any]) -> dict[str, Any]:
    kind = event.get("type")
    if kind == "correction" and event.get("events"):
        # A correction carries the re-derived hand's events: they are filtered the same way.
        return {**event, "events": [public_event(e) for e in event["events"]]}
    if kind == "hand_start" and event.get("cards"):
        return {**event, "cards": {}}
    if kind == "recorded":
        command = event.get("command") or {}
        if command.get("type") not in PUBLIC_CARDS and command.get("cards"):
            return {**event, "command": {**command, "cards": type(command["cards"])()}}
    return event


def public_events(raw_events: list[bytes]) -> list[Any]:
    """The events as a display may see them (decoded only where cards may hide)."""
    out: list[Any] = []
    for raw in raw_events:
        if b'"cards"' in raw and (
            b'"hand_start"' in raw or b'"recorded"' in raw or b'"correction"' in raw
        ):
            out.append(public_event(_decode.decode(raw)))
        else:
            out.append(msgspec.Raw(raw))
    return out


def _prompt(state: TableState) -> dict[str, Any] | None:
    seat = state.seat(state.to_act) if state.phase == "betting" and state.to_act else None
    return msgspec.to_builtins(prompt_for(state, seat)) if seat is not None else None


def table_view(state: TableState, public: bool) -> dict[str, Any]:
    """The table as a station shows it; for the public, unexposed hole cards are left out."""
    in_front = {s.number: s.bet for s in state.seats if s.bet}
    pots = [p.amount for p in layered(state, in_front) if p.amount] if state.phase != "idle" else []
    seats = []
    for s in state.seats:
        hidden = public and not (s.shown or state.exposed)
        seats.append(
            {
                "seat": s.number,
                "name": s.name,
                "stack": s.stack,
                "bet": s.bet,
                "in_hand": s.live,
                "all_in": s.all_in,
                "folded": s.folded,
                "waiting": s.waiting,
                "cards": [] if hidden else list(s.cards),
                "shown": s.shown,
                "mucked": s.mucked,
                "penalty": state.penalties.get(s.number, 0),
            }
        )
    return {
        "game": state.game,
        "hand": state.hand,
        "phase": state.phase,
        "street": state.street,
        "blinds": list(state.level.blinds),
        "ante": state.level.ante,
        "bba": state.level.bba,
        "chips": list(state.chips),
        "next_level": msgspec.to_builtins(state.next_level) if state.next_level else None,
        "button": state.button,
        "small_blind": state.small_blind,
        "big_blind": state.big_blind,
        "board": list(state.board),
        "to_act": state.to_act,
        "current_bet": state.current_bet,
        "pots": pots,
        "pot_total": state.pot_total() - sum(in_front.values()),
        "seats": seats,
        "waiting_on": state.waiting_on(),
        "prompt": _prompt(state),
        "floor": [
            {**msgspec.to_builtins(c), "blocking": blocking}
            for calls, blocking in ((state.floor, True), (state.notices, False))
            for c in calls
        ],
        "substantial_action": state.sa,
        "clock": msgspec.to_builtins(state.clock) if state.clock else None,
        "exposed": state.exposed,
    }
