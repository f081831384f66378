"""Commands in, events out: what each command means for the table (the dispatcher).

Each handler reads the working state, raises :class:`Illegal` before the command takes effect
if it cannot be accepted, and otherwise emits events; every emitted event is applied to the
working state at once by :func:`evolve`, so later decisions see its effect. A handler returns
the :data:`~server.engine.moves.Move` it decided, and :func:`decide` alone hands it to
:mod:`flow` to move the hand on. During a hand each command is first emitted as recorded, so
that a correction can play the hand again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from protocol.commands import (
    Act,
    AddChips,
    AddPlayer,
    Ask,
    Award,
    CallFloor,
    Clock,
    ColorUp,
    Command,
    Correction,
    Count,
    Deal,
    Draw,
    FouledDeck,
    HandForHand,
    HoldHands,
    Irregularity,
    Misdeal,
    Muck,
    Penalty,
    ReleaseCards,
    ReleaseHands,
    RemovePlayer,
    Ruling,
    SetButton,
    SetLevel,
    Show,
    StartHand,
    Time,
)
from protocol.events import (
    Event,
    FloorCall,
    LevelSet,
    PlayerAdded,
    PlayerRemoved,
    Recorded,
    RulingMade,
)
from server.engine import (
    betting,
    chips,
    clock,
    corrections,
    draw,
    flow,
    holds,
    irregular,
    mixed,
    out_of_turn,
    penalties,
    requests,
    showdown,
    stud,
    tabling,
)
from server.engine.actions import action_event, live_seat
from server.engine.buttons import next_positions
from server.engine.dealing import dealt, start_hand
from server.engine.errors import Illegal
from server.engine.evolve import evolve
from server.engine.games import STUD
from server.engine.moves import Emit, Move, PromptAgain, ResumeAfter
from server.engine.reading import FloorNeeded, Reading, floor_ruled_raise, read
from server.engine.state import Seat, TableState
from server.engine.unseen import check_unseen

STREET_CARDS = {"flop": 3, "turn": 1, "river": 1}
RECORDED = (Act, Deal, Draw, Show, Muck, Award, Ruling, Irregularity, Clock, Time, ReleaseCards)


def decide(t: TableState, command: Command, emit: Emit) -> None:
    """Rule on one command and move the hand on as the ruling decided."""
    holds.check_cards(t, command)
    if t.base is not None and isinstance(command, RECORDED):
        emit(Recorded(command))
    move = HANDLERS[type(command)](t, command, emit)
    flow.carry_out(t, move, emit)


def attempt(state: TableState, command: Command) -> tuple[TableState, list[Event]]:
    """The new state and events of one command; raises :class:`Illegal`, ``state`` untouched."""
    work = state.clone()
    events: list[Event] = []

    def emit(event: Event) -> None:
        evolve(work, event)
        events.append(event)

    decide(work, command, emit)
    return work, events


def _start(t: TableState, cmd: StartHand, emit: Emit) -> Move:
    if t.phase != "idle":
        raise Illegal("", f"hand {t.hand} is still in play", code="hand_in_play")
    holds.check_start(t)
    return start_hand(t, cmd, emit)


def _award(t: TableState, cmd: Award, emit: Emit) -> Move:
    showdown.award(t, cmd.pot, cmd.winners, emit)
    return None


def _level(t: TableState, cmd: SetLevel, emit: Emit) -> Move:
    if t.rotation:
        mixed.check_limits(t, cmd)
    game = cmd.game or t.next_game or t.game
    if not t.rotation and (game in STUD) != bool(cmd.bring_in):
        raise Illegal("RP-10", f"{game}: a stud level has a bring-in, the other games none")
    emit(
        LevelSet(
            cmd.blinds,
            cmd.ante,
            cmd.bba,
            cmd.min_bet,
            bring_in=cmd.bring_in,
            game=cmd.game or "",
            rotation=list(cmd.rotation),
        )
    )
    return None


def _act(t: TableState, cmd: Act, emit: Emit) -> Move:
    if t.phase == "floor":
        _act_while_floor(t, cmd, emit)
        return None
    if t.phase != "betting":
        raise Illegal("", "no betting round is open", code="no_betting")
    s = live_seat(t, cmd.seat)
    if cmd.seat != t.to_act:
        if s.stack == 0:
            raise Illegal("", f"seat {cmd.seat} is all-in and has no action")
        if out_of_turn.pending_for(t, cmd.seat) is not None:
            raise Illegal(
                "55", f"seat {cmd.seat} has already acted out of turn", code="out_of_turn"
            )
        return out_of_turn.record(t, s, cmd, emit)
    if clock.expired(t, cmd.at):
        raise Illegal(
            "31", f"the clock on seat {cmd.seat} ran out before this action", code="clock_expired"
        )
    if cmd.as_played:
        return irregular.as_played(t, s, cmd, emit)
    reading = read(t, s, cmd)
    if not isinstance(reading, Reading):  # the usual case: one test that hits, not two misses
        if isinstance(reading, FloorNeeded):
            _floor_call(t, s, reading, reading.rule, emit)
            return None
        emit(reading.event(s.number))
        return PromptAgain()
    emit(action_event(t, s, reading, [], []))
    if "60" in reading.rules:
        penalties.consider(t, s.number, "60", "folded with no bet to face", emit)
    return ResumeAfter(s.number)


def _floor_call(t: TableState, s: Seat, reading: FloorNeeded, rule: str, emit: Emit) -> None:
    emit(
        FloorCall(
            seat=s.number,
            rule=rule,
            options=reading.options,
            call=t.calls + 1,
            forfeit=reading.forfeit,
            pushed=reading.pushed,
            text=f"Floor, seat {s.number}: {reading.why} ({rule})",
        )
    )


def _act_while_floor(t: TableState, cmd: Act, emit: Emit) -> None:
    """53-C: under-calls in a row queue up behind the first one for the floor."""
    last = t.floor[-1]
    if last.rule not in ("53-B", "53-C"):
        raise Illegal("1", "the hand is waiting on the floor's ruling", code="awaiting_floor")
    nxt = betting.next_to_act(t, last.seat)
    s = live_seat(t, cmd.seat)
    if nxt is None or nxt.number != s.number:
        raise Illegal("1", "the hand is waiting on the floor's ruling", code="awaiting_floor")
    reading = read(t, s, cmd)
    if not isinstance(reading, FloorNeeded):
        raise Illegal(
            "53-C",
            "the hand is waiting on the floor's ruling on the under-call",
            code="awaiting_floor",
        )
    _floor_call(t, s, reading, "53-C", emit)


def _ruling(t: TableState, cmd: Ruling, emit: Emit) -> Move:
    call = next((c for c in [*t.floor, *t.notices] if c.call == cmd.call), None)
    if call is None:
        raise Illegal("1", f"there is no open floor call {cmd.call}", code="no_floor_call")
    if call.rule == "53-C" and call is not t.floor[0]:
        raise Illegal("53-C", f"the first under-call (floor call {t.floor[0].call}) is ruled first")
    if cmd.option not in call.options:
        raise Illegal(
            call.rule,
            f"'{cmd.option}' is not an option of floor call {call.call}: {', '.join(call.options)}",
        )
    who = f"seat {call.seat} " if call.seat else ""
    by = f", ruled by {cmd.by}" if cmd.by else ""
    emit(
        RulingMade(
            call=call.call,
            seat=call.seat,
            rule=call.rule,
            option=cmd.option,
            text=f"Floor ruling on call {call.call}: {who}{cmd.option.replace('_', ' ')} "
            f"({call.rule}){by}",
            by=cmd.by,
        )
    )
    if call in t.notices:
        return None
    if call.rule in ("41-A", "41-B"):
        return irregular.burn_chosen(t, call.rule, cmd.option, call.options, emit)
    if call.rule in ("53-B", "53-C"):
        s = live_seat(t, call.seat)
        if cmd.option == "call":
            total = min(t.current_bet, betting.all_in_to(s))
            returned = max(0, call.pushed - (total - s.bet))
            reading = Reading("call", total, returned, [call.rule], ["the floor ruled a full call"])
        else:
            reading = Reading("fold", s.bet + call.forfeit, call.pushed - call.forfeit, [call.rule])
            reading.why = [f"the floor ruled a fold; {call.forfeit:,} forfeited"]
        emit(action_event(t, s, reading, [], []))
    elif call.rule == "42-A":
        s = live_seat(t, call.seat)
        emit(action_event(t, s, floor_ruled_raise(t, s, cmd.option), [], []))
    elif call.rule == "55-A-2":
        out_of_turn.rule_on_skipped(t, call.seat, cmd.option, emit)
    if t.floor:
        return None
    return ResumeAfter(_before(t, call.seat))


def _before(t: TableState, seat: int) -> int:
    """Resume from just before ``seat``: it is prompted if it still has to act."""
    return seat - 1 if seat > 1 else 0


def _deal(t: TableState, cmd: Deal, emit: Emit) -> Move:
    if t.phase == "betting" and cmd.street == irregular.next_street(t):
        irregular.early_cards(t, cmd, emit)
        return None
    if t.phase != "deal" or cmd.street != t.next_street:
        due = t.next_street or "nothing"
        raise Illegal("RP-5", f"the {cmd.street} is not due: {due} is next", code="not_due")
    if draw.is_draw(t):
        raise Illegal("RP-25", "a draw game deals no street: record each draw", code="not_due")
    if stud.is_stud(t):
        stud.check_street(t, cmd)
        given = [
            *cmd.cards,
            *(c for cards in (*cmd.up.values(), *cmd.down.values()) for c in cards),
        ]
        check_unseen(t, [c for c in given if c != "??"])
        return dealt(t, cmd, emit)
    if cmd.up or cmd.down:
        raise Illegal("", "up- and down-cards by seat are dealt in stud only")
    wanted = 3 - len(t.board) if cmd.street == "flop" else STREET_CARDS[cmd.street]
    if (
        cmd.street == "flop"
        and cmd.cards
        and (len(cmd.cards) == 4 or not cmd.burned)
        and not t.board
    ):
        irregular.irregular_flop(t, cmd, emit)
        return None
    if cmd.cards and len(cmd.cards) != wanted:
        raise Illegal("41", f"the {cmd.street} needs {wanted} card(s), not {len(cmd.cards)}")
    check_unseen(t, [c for c in cmd.cards if c != "??"])
    return dealt(t, cmd, emit)


def _add_player(t: TableState, cmd: AddPlayer, emit: Emit) -> Move:
    """A new player sits down, between hands or during one: out of a hand in play, dealt in
    from the next hand unless between the small blind and the button (9-A, 11-A)."""
    taken = t.seat(cmd.seat) is not None or any(s.number == cmd.seat for s in t.arrived)
    if not 1 <= cmd.seat <= 10 or taken:
        raise Illegal("", f"seat {cmd.seat} is not free")
    if cmd.stack <= 0:
        raise Illegal("9", "a new player brings chips")
    waits = t.phase != "idle" or _waits(t, cmd)
    text = (
        "out of the hand in play: dealt in from the next"
        if t.phase != "idle"
        else "between the small blind and the button: dealt in once the button passes"
        if waits
        else ""
    )
    emit(
        PlayerAdded(
            seat=cmd.seat,
            stack=cmd.stack,
            name=cmd.name,
            rules=["9", "11-A"],
            text=text,
            waits=waits,
        )
    )
    return None


def _waits(t: TableState, cmd: AddPlayer) -> bool:
    """Between hands: whether the next hand would leave the newcomer out (11-A), read from the
    table with the newcomer seated."""
    newcomer = Seat(number=cmd.seat, stack=cmd.stack, name=cmd.name, waiting=True)
    seated = msgspec.structs.replace(t, seats=sorted([*t.seats, newcomer], key=lambda s: s.number))
    found = next_positions(seated)
    return found is not None and cmd.seat not in found.dealt


def _remove_player(t: TableState, cmd: RemovePlayer, emit: Emit) -> Move:
    arrived = next((s for s in t.arrived if s.number == cmd.seat), None)
    if arrived is not None:
        # Sat down during this hand and is not in it: may leave at once (unregistering, 8).
        emit(PlayerRemoved(seat=cmd.seat, stack=arrived.stack))
        return None
    if t.phase != "idle":
        raise Illegal("", "players leave the table between hands", code="hand_in_play")
    s = t.seat(cmd.seat)
    if s is None:
        raise Illegal("", f"there is no player in seat {cmd.seat}", code="unknown_seat")
    emit(PlayerRemoved(seat=cmd.seat, stack=s.stack))
    return None


def _correct(t: TableState, cmd: Correction, emit: Emit) -> Move:
    return corrections.correct(t, cmd, emit, attempt)


def _ask(t: TableState, cmd: Ask, emit: Emit) -> Move:
    requests.ask(t, cmd, emit, attempt)
    return None


def _call_floor(t: TableState, cmd: CallFloor, emit: Emit) -> Move:
    """A floor person is wanted at the table; play goes on until the floor says otherwise (1)."""
    if cmd.seat is not None and t.seat(cmd.seat) is None:
        raise Illegal("1", f"there is no player in seat {cmd.seat}", code="unknown_seat")
    who = f", seat {cmd.seat}" if cmd.seat is not None else ""
    why = f": {cmd.reason}" if cmd.reason else ""
    emit(
        FloorCall(
            seat=cmd.seat or 0,
            rule="1",
            options=["attended"],
            call=t.calls + 1,
            blocking=False,
            text=f"Floor wanted at the table{who}{why} (1)",
        )
    )
    return None


#: What each command means, by its type: one handler each, here or in the module of its rule.
HANDLERS: dict[type, Callable[[TableState, Any, Emit], Move]] = {
    Act: _act,
    StartHand: _start,
    Deal: _deal,
    Draw: draw.draw,
    Show: tabling.show,
    Muck: tabling.muck,
    Award: _award,
    Ruling: _ruling,
    Misdeal: irregular.misdeal,
    FouledDeck: irregular.fouled_deck,
    Irregularity: irregular.report,
    Clock: clock.start,
    Time: clock.tick,
    Penalty: penalties.give,
    Correction: _correct,
    Ask: _ask,
    Count: requests.count,
    CallFloor: _call_floor,
    AddPlayer: _add_player,
    RemovePlayer: _remove_player,
    SetLevel: _level,
    AddChips: chips.add,
    ColorUp: chips.color_up,
    HoldHands: holds.hold,
    ReleaseHands: holds.release,
    HandForHand: holds.hand_for_hand,
    ReleaseCards: holds.release_cards,
    SetButton: holds.set_button,
}
