"""Commands in, events out: what each command means for the table.

Each handler reads the working state, raises :class:`Illegal` before emitting anything if the
command cannot be accepted, and otherwise emits events; every emitted event is applied to the
working state at once by :func:`evolve`, so later decisions see its effect.
"""

from __future__ import annotations

from collections.abc import Callable

from protocol.commands import (
    Act,
    AddPlayer,
    Award,
    Command,
    Deal,
    Muck,
    RemovePlayer,
    Ruling,
    SetLevel,
    Show,
    StartHand,
)
from protocol.events import (
    ActionEvent,
    CardsShown,
    Dealt,
    Event,
    FloorCall,
    HandStart,
    LevelSet,
    PlayerAdded,
    PlayerRemoved,
    Post,
    RulingMade,
)
from server.engine import betting, buttons, flow, words
from server.engine.errors import Illegal
from server.engine.reading import FloorNeeded, read
from server.engine.state import Seat, TableState

Emit = Callable[[Event], None]

STREET_CARDS = {"flop": 3, "turn": 1, "river": 1}


def decide(t: TableState, command: Command, emit: Emit) -> None:
    match command:
        case Act():
            _act(t, command, emit)
        case StartHand():
            _start_hand(t, command, emit)
        case Deal():
            _deal(t, command, emit)
        case Show():
            _show(t, command, emit)
        case Muck():
            _muck(t, command, emit)
        case Award():
            flow.award(t, command.pot, command.winners, emit)
        case Ruling():
            _ruling(t, command, emit)
        case AddPlayer():
            _add_player(t, command, emit)
        case RemovePlayer():
            _remove_player(t, command, emit)
        case SetLevel():
            emit(LevelSet(command.blinds, command.ante, command.bba))


def _live_seat(t: TableState, number: int) -> Seat:
    s = t.seat(number)
    if s is None:
        raise Illegal("", f"there is no player in seat {number}", code="unknown_seat")
    if not s.live:
        raise Illegal("", f"seat {number} has no live hand")
    return s


def _start_hand(t: TableState, cmd: StartHand, emit: Emit) -> None:
    if t.phase not in ("idle",):
        raise Illegal("", f"hand {t.hand} is still in play", code="hand_in_play")
    where = buttons.next_positions(t)
    if where is None:
        raise Illegal("", "fewer than two players can be dealt in", code="short_table")
    level = t.next_level or t.level
    sb_amount, bb_amount = level.blinds
    stacks = {s.number: s.stack for s in t.seats}
    posts: list[Post] = []

    def post(seat: int, kind: str, amount: int) -> None:
        paid = min(amount, stacks[seat])
        if paid <= 0:
            return
        stacks[seat] -= paid
        posts.append(Post(seat, kind, paid, stacks[seat] == 0))  # type: ignore[arg-type]

    rules: list[str] = []
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
    if (
        t.started
        and where.button != t.sb_pos
        and where.button != t.big_blind
        and len(where.dealt) > 2
    ):
        rules.append("36-B")
    if len(where.dealt) == 2:
        rules.append("36-C")
    for seat in cmd.cards:
        if seat not in where.dealt:
            raise Illegal("", f"cards given for seat {seat}, which is not dealt in")
    text = (
        f"Hand {t.hand + 1}: button {where.button}, "
        + (
            f"small blind seat {where.small_blind}, "
            if where.small_blind is not None
            else "dead small blind, "
        )
        + f"big blind seat {where.big_blind}"
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
            rules=rules,
            text=text,
        )
    )
    flow.progress(t, emit, where.big_blind)


def _act(t: TableState, cmd: Act, emit: Emit) -> None:
    if t.phase == "floor":
        raise Illegal("1", "the hand is waiting on the floor's ruling", code="awaiting_floor")
    if t.phase != "betting":
        raise Illegal("", "no betting round is open", code="no_betting")
    s = _live_seat(t, cmd.seat)
    if cmd.seat != t.to_act:
        raise Illegal(
            "55",
            f"seat {cmd.seat} acted out of turn: the action is on seat {t.to_act}",
            code="out_of_turn",
        )
    reading = read(t, s, cmd)
    if isinstance(reading, FloorNeeded):
        emit(
            FloorCall(
                seat=s.number,
                rule=reading.rule,
                options=reading.options,
                call=t.calls + 1,
                forfeit=reading.forfeit,
                pushed=reading.pushed,
                text=f"Floor, seat {s.number}: {reading.why} ({reading.rule})",
            )
        )
        return
    action = reading.action
    if action == "raise" and t.current_bet == 0:
        action = "bet"
    all_in = action != "fold" and reading.total == betting.all_in_to(s)
    emit(
        ActionEvent(
            seat=s.number,
            action=action,  # type: ignore[arg-type]
            total=reading.total,
            all_in=all_in,
            returned=reading.returned,
            rules=reading.rules,
            text=words.action_text(
                s.number,
                action,
                reading.total,
                all_in,
                reading.returned,
                reading.rules,
                reading.why,
            ),
        )
    )
    flow.progress(t, emit, s.number)


def _ruling(t: TableState, cmd: Ruling, emit: Emit) -> None:
    call = t.floor
    if call is None or cmd.call != call.call:
        raise Illegal("1", f"there is no open floor call {cmd.call}", code="no_floor_call")
    if cmd.option not in call.options:
        raise Illegal(
            call.rule,
            f"'{cmd.option}' is not an option of floor call {call.call}: {', '.join(call.options)}",
        )
    s = _live_seat(t, call.seat)
    emit(
        RulingMade(
            call=call.call,
            seat=call.seat,
            rule=call.rule,
            option=cmd.option,
            text=f"Floor ruling on call {call.call}: seat {call.seat} {cmd.option} ({call.rule})",
        )
    )
    if cmd.option == "call":
        total = min(t.current_bet, betting.all_in_to(s))
        returned = max(0, call.pushed - (total - s.bet))
        action, why = "call", ["the floor ruled a full call"]
    else:
        total = s.bet + call.forfeit
        returned = call.pushed - call.forfeit
        action, why = "fold", [f"the floor ruled a fold; {words.chips(call.forfeit)} forfeited"]
    all_in = action == "call" and total == betting.all_in_to(s)
    emit(
        ActionEvent(
            seat=s.number,
            action=action,  # type: ignore[arg-type]
            total=total,
            all_in=all_in,
            returned=returned,
            rules=[call.rule],
            text=words.action_text(s.number, action, total, all_in, returned, [call.rule], why),
        )
    )
    flow.progress(t, emit, s.number)


def _deal(t: TableState, cmd: Deal, emit: Emit) -> None:
    if t.phase != "deal" or cmd.street != t.next_street:
        due = t.next_street or "nothing"
        raise Illegal(
            "RP-5",
            f"the {cmd.street} is not due: {due} is next and the action must be complete",
            code="not_due",
        )
    if cmd.cards and len(cmd.cards) != STREET_CARDS[cmd.street]:
        raise Illegal(
            "41", f"the {cmd.street} is {STREET_CARDS[cmd.street]} card(s), not {len(cmd.cards)}"
        )
    _check_unseen(t, cmd.cards)
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
    if t.phase not in ("deal", "showdown", "over") or t.phase == "over":
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
