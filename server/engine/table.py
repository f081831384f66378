"""Commands in, events out: what each command means for the table.

Each handler reads the working state, raises :class:`Illegal` before the command takes effect
if it cannot be accepted, and otherwise emits events; every emitted event is applied to the
working state at once by :func:`evolve`, so later decisions see its effect. During a hand each
command is first emitted as recorded, so that a correction can play the hand again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from protocol.commands import (
    Act,
    AddPlayer,
    Ask,
    Award,
    Clock,
    Command,
    Correction,
    Count,
    Deal,
    FouledDeck,
    Irregularity,
    Misdeal,
    Muck,
    Penalty,
    RemovePlayer,
    Ruling,
    SetLevel,
    Show,
    StartHand,
    Time,
)
from protocol.config import Level
from protocol.events import (
    CardsShown,
    Dealt,
    Event,
    FloorCall,
    HandStart,
    Irregular,
    LevelSet,
    PlayerAdded,
    PlayerRemoved,
    Post,
    Recorded,
    RulingMade,
)
from server.engine import (
    betting,
    buttons,
    clock,
    corrections,
    flow,
    irregular,
    out_of_turn,
    penalties,
    requests,
)
from server.engine.errors import Illegal
from server.engine.reading import FloorNeeded, Reading, read
from server.engine.state import Seat, TableState

Emit = Callable[[Event], None]

STREET_CARDS = {"flop": 3, "turn": 1, "river": 1}
RECORDED = (Act, Deal, Show, Muck, Award, Ruling, Irregularity, Clock, Time)


def decide(t: TableState, command: Command, emit: Emit) -> None:
    if t.base is not None and isinstance(command, RECORDED):
        emit(Recorded(command))
    HANDLERS[type(command)](t, command, emit)


def _start(t: TableState, cmd: StartHand, emit: Emit) -> None:
    if t.phase != "idle":
        raise Illegal("", f"hand {t.hand} is still in play", code="hand_in_play")
    start_hand(t, cmd, emit)


def _award(t: TableState, cmd: Award, emit: Emit) -> None:
    flow.award(t, cmd.pot, cmd.winners, emit)


def _level(t: TableState, cmd: SetLevel, emit: Emit) -> None:
    emit(LevelSet(cmd.blinds, cmd.ante, cmd.bba))


def _live_seat(t: TableState, number: int) -> Seat:
    s = t.seat(number)
    if s is None:
        raise Illegal("", f"there is no player in seat {number}", code="unknown_seat")
    if not s.live:
        raise Illegal("", f"seat {number} has no live hand")
    return s


def start_hand(
    t: TableState, cmd: StartHand, emit: Emit, redeal: bool = False, level: Level | None = None
) -> None:
    where = buttons.next_positions(t)
    if where is None:
        raise Illegal("", "fewer than two players can be dealt in", code="short_table")
    correct = where.button
    if cmd.button is not None and cmd.button != where.button:
        if t.seat(cmd.button) is None and cmd.button not in range(1, 11):
            raise Illegal("36-A", f"seat {cmd.button} is not a seat")
        where = buttons.placed_at(t, where, cmd.button)
    # 25: a level announced during a hand applies from the next one; a re-deal is the same
    # hand, at the same level (37-C).
    level = level or t.next_level or t.level
    sb_amount, bb_amount = level.blinds
    stacks = {s.number: s.stack for s in t.seats}
    posts: list[Post] = []

    def post(seat: int, kind: str, amount: int) -> None:
        paid = min(amount, stacks[seat])
        if paid <= 0:
            return
        stacks[seat] -= paid
        posts.append(Post(seat, kind, paid, stacks[seat] == 0))  # type: ignore[arg-type]

    rules: list[str] = ["37-C"] if redeal else []
    if level.ante and not level.bba:
        for n in where.dealt:
            post(n, "ante", level.ante)
    if where.small_blind is not None:
        post(where.small_blind, "small_blind", sb_amount)
    post(where.big_blind, "big_blind", bb_amount)
    if level.ante and level.bba:
        # RP-11: big blind first, then the big-blind ante from what is left.
        post(where.big_blind, "ante", level.ante)
        rules.append("RP-11")
    if where.button not in where.dealt:
        rules.append("34")
    if t.started and where.button != t.sb_pos and len(where.dealt) > 2:
        rules.append("36-B")
    if len(where.dealt) == 2:
        rules.append("36-C")
    for seat in cmd.cards:
        if seat not in where.dealt:
            raise Illegal("", f"cards given for seat {seat}, which is not dealt in")
    penalised = [n for n in where.dealt if t.penalties.get(n, 0) > 0]
    if where.button != correct:
        rules.append("36-A")
    small = (
        f"small blind seat {where.small_blind}"
        if where.small_blind is not None
        else "dead small blind"
    )
    emit(
        HandStart(
            hand=t.hand + 1,
            button=where.button,
            small_blind=where.small_blind,
            big_blind=where.big_blind,
            blinds=level.blinds,
            ante=level.ante,
            bba=level.bba,
            dealt=list(where.dealt),
            posts=posts,
            cards={k: list(v) for k, v in cmd.cards.items()},
            redeal=redeal,
            rules=rules,
            text=f"Hand {t.hand + 1}: button {where.button}, {small}, "
            f"big blind seat {where.big_blind}",
        )
    )
    if where.button != correct:
        emit(
            Irregular(
                kind="wrong_button",
                seat=correct,
                total=where.button,
                correct=correct,
                rules=["36-A"],
                text=f"The button is on seat {where.button} but belongs on seat {correct}:"
                " corrected if found before substantial action, kept after (36-A)",
            )
        )
    penalties.kill_penalised(t, penalised, emit)
    flow.progress(t, emit, where.big_blind)


def _act(t: TableState, cmd: Act, emit: Emit) -> None:
    if t.phase == "floor":
        _act_while_floor(t, cmd, emit)
        return
    if t.phase != "betting":
        raise Illegal("", "no betting round is open", code="no_betting")
    s = _live_seat(t, cmd.seat)
    if cmd.seat != t.to_act:
        if s.stack == 0:
            raise Illegal("", f"seat {cmd.seat} is all-in and has no action")
        if out_of_turn.pending_for(t, cmd.seat) is not None:
            raise Illegal(
                "55", f"seat {cmd.seat} has already acted out of turn", code="out_of_turn"
            )
        out_of_turn.record(t, s, cmd, emit)
        return
    if clock.expired(t, cmd.at):
        raise Illegal(
            "31", f"the clock on seat {cmd.seat} ran out before this action", code="clock_expired"
        )
    if cmd.as_played:
        irregular.as_played(t, s, cmd, emit)
        return
    reading = read(t, s, cmd)
    if isinstance(reading, FloorNeeded):
        _floor_call(t, s, reading, reading.rule, emit)
        return
    emit(out_of_turn.action_event(t, s, reading, [], []))
    if "60" in reading.rules:
        penalties.consider(t, s.number, "60", "folded with no bet to face", emit)
    flow.progress(t, emit, s.number)


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
    s = _live_seat(t, cmd.seat)
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


def _ruling(t: TableState, cmd: Ruling, emit: Emit) -> None:
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
    emit(
        RulingMade(
            call=call.call,
            seat=call.seat,
            rule=call.rule,
            option=cmd.option,
            text=f"Floor ruling on call {call.call}: {who}{cmd.option.replace('_', ' ')} "
            f"({call.rule})",
        )
    )
    if call in t.notices:
        return
    if call.rule in ("41-A", "41-B"):
        irregular.burn_chosen(t, call.rule, cmd.option, call.options, emit)
        return
    if call.rule in ("53-B", "53-C"):
        s = _live_seat(t, call.seat)
        if cmd.option == "call":
            total = min(t.current_bet, betting.all_in_to(s))
            returned = max(0, call.pushed - (total - s.bet))
            reading = Reading("call", total, returned, [call.rule], ["the floor ruled a full call"])
        else:
            reading = Reading("fold", s.bet + call.forfeit, call.pushed - call.forfeit, [call.rule])
            reading.why = [f"the floor ruled a fold; {call.forfeit:,} forfeited"]
        emit(out_of_turn.action_event(t, s, reading, [], []))
    elif call.rule == "55-A-2":
        out_of_turn.rule_on_skipped(t, call.seat, cmd.option, emit)
    if not t.floor and t.phase == "betting":
        flow.progress(t, emit, _before(t, call.seat))


def _before(t: TableState, seat: int) -> int:
    """Resume from just before ``seat``: it is prompted if it still has to act."""
    return seat - 1 if seat > 1 else 0


def _deal(t: TableState, cmd: Deal, emit: Emit) -> None:
    if t.phase == "betting" and cmd.street == irregular.next_street(t):
        irregular.early_cards(t, cmd, emit)
        return
    if t.phase != "deal" or cmd.street != t.next_street:
        due = t.next_street or "nothing"
        raise Illegal("RP-5", f"the {cmd.street} is not due: {due} is next", code="not_due")
    wanted = 3 - len(t.board) if cmd.street == "flop" else STREET_CARDS[cmd.street]
    if (
        cmd.street == "flop"
        and cmd.cards
        and (len(cmd.cards) == 4 or not cmd.burned)
        and not t.board
    ):
        irregular.irregular_flop(t, cmd, emit)
        return
    if cmd.cards and len(cmd.cards) != wanted:
        raise Illegal("41", f"the {cmd.street} needs {wanted} card(s), not {len(cmd.cards)}")
    _check_unseen(t, cmd.cards)
    dealt(t, cmd, emit)


def dealt(t: TableState, cmd: Deal, emit: Emit) -> None:
    emit(Dealt(street=cmd.street, cards=list(cmd.cards), board=[*t.board, *cmd.cards]))
    flow.after_deal(t, emit)


def _check_unseen(t: TableState, cards: list[str]) -> None:
    seen = set(t.board)
    for s in t.seats:
        seen.update(s.cards)
    for c in cards:
        if c in seen or cards.count(c) > 1:
            raise Illegal("37-E", f"{c} is already in play: a duplicate card means a fouled deck")


def _show(t: TableState, cmd: Show, emit: Emit) -> None:
    if t.phase not in ("deal", "showdown"):
        raise Illegal("", "hands are shown once the betting is over", code="no_showdown")
    s = _live_seat(t, cmd.seat)
    if cmd.cards and s.cards and sorted(cmd.cards) != sorted(s.cards):
        raise Illegal(
            "", f"seat {s.number} was dealt {' '.join(s.cards)}, not {' '.join(cmd.cards)}"
        )
    if cmd.cards and not s.cards:
        _check_unseen(t, cmd.cards)
    emit(CardsShown(seat=s.number, cards=list(cmd.cards or s.cards)))
    flow.try_resolve(t, emit)


def _muck(t: TableState, cmd: Muck, emit: Emit) -> None:
    if t.phase != "showdown":
        raise Illegal("", "a hand is mucked at the showdown", code="no_showdown")
    s = _live_seat(t, cmd.seat)
    emit(CardsShown(seat=s.number, mucked=True))
    flow.try_resolve(t, emit)


def _add_player(t: TableState, cmd: AddPlayer, emit: Emit) -> None:
    if t.phase != "idle":
        raise Illegal("9", "players are seated between hands", code="hand_in_play")
    if not 1 <= cmd.seat <= 10 or t.seat(cmd.seat) is not None:
        raise Illegal("", f"seat {cmd.seat} is not free")
    if cmd.stack <= 0:
        raise Illegal("9", "a new player brings chips")
    emit(PlayerAdded(seat=cmd.seat, stack=cmd.stack, name=cmd.name, rules=["9", "11-A"]))


def _remove_player(t: TableState, cmd: RemovePlayer, emit: Emit) -> None:
    if t.phase != "idle":
        raise Illegal("", "players leave the table between hands", code="hand_in_play")
    s = t.seat(cmd.seat)
    if s is None:
        raise Illegal("", f"there is no player in seat {cmd.seat}", code="unknown_seat")
    emit(PlayerRemoved(seat=cmd.seat, stack=s.stack))


#: What each command means, by its type: one handler each, here or in the module of its rule.
HANDLERS: dict[type, Callable[[TableState, Any, Emit], None]] = {
    Act: _act,
    StartHand: _start,
    Deal: _deal,
    Show: _show,
    Muck: _muck,
    Award: _award,
    Ruling: _ruling,
    Misdeal: irregular.misdeal,
    FouledDeck: irregular.fouled_deck,
    Irregularity: irregular.report,
    Clock: clock.start,
    Time: clock.tick,
    Penalty: penalties.give,
    Correction: corrections.correct,
    Ask: requests.ask,
    Count: requests.count,
    AddPlayer: _add_player,
    RemovePlayer: _remove_player,
    SetLevel: _level,
}
