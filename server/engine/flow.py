"""How a hand moves on after each change: next prompt, end of a round, exposure, showdown.

Only the dispatcher (:mod:`table`) calls in here, with the move a rule module decided
(:mod:`moves`). Out-of-turn actions waiting on a seat bind or are released as the action
reaches it (55). Rule 17: once an all-in leaves no further betting possible, every hand is
turned face up — during hand-for-hand only once the floor releases it (RP-8-F, :mod:`holds`);
the showdown itself is :mod:`showdown`.
"""

from __future__ import annotations

from protocol.events import CardsHeld, Prompt, RoundEnd, ShowdownOrder
from server.engine import betting, draw, holds, out_of_turn, pots, showdown, stub, stud, words
from server.engine.actions import check_substantial
from server.engine.games import streets
from server.engine.moves import Emit, Move, PromptAgain, ResumeAfter, StreetDealt, TryShowdown
from server.engine.state import Seat, TableState


def prompt_for(t: TableState, s: Seat) -> Prompt:
    if stud.bringing_in(t):
        return stud.bring_in_prompt(t, s)
    to_call = betting.owed(t, s)
    top = betting.all_in_to(s)
    options = ["fold", "call"] if to_call else ["check"]
    if to_call and s.number in t.no_fold:
        options = ["call"]  # 48-B: chips pulled back facing a raise: call or raise
    low = high = None
    if betting.can_raise(t, s):
        low, high = betting.raise_bounds(t, s)
        options.append("raise" if t.current_bet else "bet")
    word = "raise" if t.current_bet else "bet"
    return Prompt(
        seat=s.number,
        to_call=to_call,
        can_raise=low is not None,
        min_raise_to=low,
        max_raise_to=high,
        all_in_to=top,
        options=options,
        text=words.prompt_text(s.number, to_call, low, high, word),
    )


def progress(t: TableState, emit: Emit, after: int) -> None:
    """After an action: bind or release an out-of-turn action, prompt the next seat, close
    the round, or end the hand."""
    while True:
        check_substantial(t, emit)
        if t.live_count() == 1:
            _uncontested(t, emit)
            return
        if t.floor:
            return
        nxt = betting.next_to_act(t, after)
        if nxt is None:
            end_round(t, emit)
            return
        if not out_of_turn.on_turn(t, nxt, emit):
            emit(prompt_for(t, nxt))
            return
        after = nxt.number


def _uncalled(t: TableState) -> dict[int, int]:
    """The part of the largest bet nobody matched goes back to its owner, if the owner is still
    in the hand: a killed hand's posts stay in the pot (32, 74-C)."""
    bets = sorted((s.bet for s in t.seats), reverse=True)
    if len(bets) < 2 or bets[0] == bets[1]:
        return {}
    top = next(s for s in t.seats if s.bet == bets[0])
    if top.folded:
        return {}
    return {top.number: bets[0] - bets[1]}


def _pots_after(t: TableState, returned: dict[int, int]) -> list[int]:
    return [p.amount for p in pots.layered(t, returned)]


def end_round(t: TableState, emit: Emit) -> None:
    returned = _uncalled(t)
    rounds = streets(t.game)
    street_no = rounds.index(t.street)
    nxt = "showdown" if street_no == len(rounds) - 1 else rounds[street_no + 1]
    text = f"End of the {draw.round_name(t.street) if draw.is_draw(t) else t.street}"
    rules: list[str] = []
    if returned:
        text += "; " + ", ".join(
            f"seat {n}: {words.chips(a)} uncalled, returned" for n, a in returned.items()
        )
    if stud.is_stud(t) and nxt == rounds[-1] and (deal := stub.seventh(t)).procedure:
        text += f"; {deal.text()}"
        rules = ["RP-10-H"]
    emit(
        RoundEnd(
            street=t.street,
            pots=_pots_after(t, returned),
            returned=returned,
            next=nxt,
            rules=rules,
            text=text,
        )
    )
    anyone_all_in = any(s.all_in for s in t.live())
    betting_over = nxt == "showdown" or not betting.betting_possible(t)
    if anyone_all_in and not t.exposed and betting_over:
        if t.h4h and not t.released:
            # RP-8-F: during hand-for-hand the cards stay face down, and no further card is
            # dealt, until the floor releases them; then they are turned up (17).
            what = "the showdown" if nxt == "showdown" else f"the {nxt}"
            emit(
                CardsHeld(
                    seats=[s.number for s in t.live()],
                    next=nxt,
                    text=f"Hand-for-hand all-in: the cards stay face down and {what} waits for "
                    "the floor (RP-8-F)",
                )
            )
            return
        if nxt == "showdown" or not draw.is_draw(t):
            # In a draw game the hands still draw: turned up once the draws are done (17).
            emit(holds.exposure(t))
    if nxt == "showdown":
        if not t.exposed:
            order = showdown.showdown_order(t)
            emit(ShowdownOrder(order=order, text=f"Showdown: seat {order[0]} shows first (18)"))
        showdown.try_resolve(t, emit)
    elif draw.is_draw(t):
        draw.open_draw(t, emit)


def after_deal(t: TableState, emit: Emit) -> None:
    if betting.betting_possible(t):
        opener = stud.first_to_act(t) if stud.is_stud(t) else t.button
        first = betting.next_to_act(t, opener)
        if first is not None:
            emit(prompt_for(t, first))
            return
    end_round(t, emit)


def _uncontested(t: TableState, emit: Emit) -> None:
    returned = _uncalled(t)
    emit(
        RoundEnd(
            street=t.street,
            pots=_pots_after(t, returned),
            returned=returned,
            next="",
            text=f"Seat {t.live()[0].number} wins uncontested",
        )
    )
    showdown.win_uncontested(t, emit)


def carry_out(t: TableState, move: Move, emit: Emit) -> None:
    """Move the hand on as a rule module decided (the one place that does, :mod:`moves`)."""
    match move:
        case ResumeAfter(seat=seat) if t.phase == "betting":
            progress(t, emit, seat)
        case ResumeAfter() if t.phase == "deal" and t.live_count() == 1:
            # A hand killed between streets (39, 40) left one hand: it wins at once.
            _uncontested(t, emit)
        case PromptAgain() if t.phase == "betting" and t.to_act is not None:
            s = t.seat(t.to_act)
            if s is not None:
                emit(prompt_for(t, s))
        case StreetDealt():
            after_deal(t, emit)
        case TryShowdown():
            showdown.try_resolve(t, emit)
        case _:
            pass
