"""Irregularities at the table and the procedures that resolve them.

Misdeals and fouled decks (37), wrong card counts (the button short a card, 39; any other
wrong count, 37-A-5 before substantial action and 40 after), cards dealt before the action was
complete (RP-5) and irregular flops (41), bets found wrong after the fact (54), conditional
statements and premature calls (61).
"""

from __future__ import annotations

from protocol.commands import Act, Deal, FouledDeck, Irregularity, Misdeal, StartHand
from protocol.events import FloorCall, HandEnd, Irregular, Misdealt
from server.engine import betting, games, stud_dead, stud_exposed, words
from server.engine.actions import action_event, is_substantial
from server.engine.dealing import dealt, start_hand
from server.engine.errors import Illegal
from server.engine.moves import Emit, Move, PromptAgain, ResumeAfter, TryShowdown
from server.engine.reading import Reading
from server.engine.state import Seat, TableState

EARLY_RULE = {"flop": "RP-5-A", "turn": "RP-5-B", "river": "RP-5-C"}
"""A flop game's street dealt early; a stud street is RP-5-D (RP-10-G)."""


def _in_hand(t: TableState) -> None:
    if t.base is None or t.phase == "idle":
        raise Illegal("", "no hand is in play", code="no_hand")


def misdeal(
    t: TableState, cmd: Misdeal, emit: Emit, reason_rules: tuple[str, ...] = ("37-A",)
) -> Move:
    """37: before substantial action the hand is dealt again exactly as it was (37-C)."""
    _in_hand(t)
    if t.sa:
        raise Illegal(
            "37-D",
            "substantial action has happened: no misdeal; the hand continues",
            code="after_sa",
        )
    level, game = t.level, t.game
    emit(
        Misdealt(
            hand=t.hand,
            reason=cmd.reason,
            rules=[*reason_rules, "37-C"],
            text=f"Misdeal ({cmd.reason or reason_rules[-1]}): every chip goes back; hand "
            f"{t.hand} is dealt again"
            " with the same button, level and players (37-C)",
        )
    )
    # 37-C: the re-deal keeps the hand's own level and game, whatever was announced since (25).
    again = StartHand(cards=cmd.cards, up=cmd.up)
    return start_hand(t, again, emit, redeal=True, level=level, game=game)


def fouled_deck(t: TableState, cmd: FouledDeck, emit: Emit) -> None:
    """37-E: a fouled deck stops play and every bet goes back, substantial action or not."""
    _in_hand(t)
    assert t.base is not None
    stacks = {s.number: s.stack for s in t.base.seats}
    emit(
        HandEnd(
            hand=t.hand,
            stacks=stacks,
            void=True,
            text=f"Fouled deck{': ' + cmd.reason if cmd.reason else ''}: hand {t.hand} is "
            f"void, every bet returned (37-E)",
        )
    )


def early_cards(t: TableState, cmd: Deal, emit: Emit) -> None:
    """RP-5: a street dealt before the action was complete goes back into the stub, which is
    reshuffled, and is dealt again after the action with no extra burn. In stud (RP-5-D,
    RP-10-G) the cards are each hand's; a seventh-street down-card dealt early is named only by
    its count, never shown."""
    rule = EARLY_RULE.get(cmd.street, "RP-5-D")
    shown = [*cmd.cards, *(card for cards in cmd.up.values() for card in cards)]
    down = sum(len(cards) for cards in cmd.down.values())
    named = " ".join(shown) or (f"{down} down-card{'' if down == 1 else 's'}" if down else "")
    came, street, before = f"The {cmd.street}", str(cmd.street), t.street
    if rule == "RP-5-D":
        street, before = f"{cmd.street} street", f"{t.street}-street"
        came = street.capitalize()
    emit(
        Irregular(
            kind="early_cards",
            street=cmd.street,
            reshuffle=shown,
            board=list(t.board),
            rules=[rule],
            text=f"{came} came before the {before} action was complete: its burn stays;"
            f" {named or 'the cards'} go back into the stub, which is reshuffled;"
            f" after the action the {street} is dealt again with no extra burn ({rule})",
        )
    )


def irregular_flop(t: TableState, cmd: Deal, emit: Emit) -> None:
    """41-A (four cards) and 41-B (no burn): the floor picks the card that becomes the burn."""
    rule = "41-A" if len(cmd.cards) == 4 else "41-B"
    why = "a four-card flop" if rule == "41-A" else "a flop without a burn"
    emit(
        FloorCall(
            seat=0,
            rule=rule,
            options=list(cmd.cards),
            call=t.calls + 1,
            text=f"Floor: {why}; the cards are mixed face down and one, picked at random, "
            f"becomes the burn ({rule})",
        )
    )


def burn_chosen(t: TableState, rule: str, option: str, options: list[str], emit: Emit) -> Move:
    rest = [c for c in options if c != option]
    if rule == "41-A":
        emit(
            Irregular(
                kind="four_card_flop",
                burn=option,
                board=rest,
                rules=["41-A"],
                text=f"Four-card flop: {option} is the burn; the flop is {' '.join(rest)} (41-A)",
            )
        )
        return dealt(t, Deal(street="flop", cards=rest), emit)
    emit(
        Irregular(
            kind="flop_not_burned",
            burn=option,
            board=[*t.board, *rest],
            street="flop",
            rules=["41-B"],
            text=f"Flop without a burn: {option} is the burn; {' '.join(rest)} stay and the "
            f"next card"
            " from the stub completes the flop (41-B)",
        )
    )
    return None


def report(t: TableState, cmd: Irregularity, emit: Emit) -> Move:
    """The dealer or floor reports an irregularity found during the hand."""
    _in_hand(t)
    match cmd.kind:
        case "short_card" | "wrong_card_count":
            return _card_count(t, _seat(t, cmd.seat), cmd, emit)
        case "flop_not_burned":
            _flop_not_burned(t, emit)
        case "under_raise" | "pot_miscount":
            return found_bet(t, _seat(t, cmd.seat), cmd.kind, emit)
        case "wrong_button":
            return _wrong_button(t, emit)
        case "premature_call":
            s = _seat(t, cmd.seat)
            _floor(
                t,
                s.number,
                "61-B",
                ["call_any_amount", "not_binding"],
                "called before the bet's amount was known",
                emit,
            )
        case "seventh_exposed":
            return stud_exposed.seventh_exposed(t, cmd, emit)
        case "up_cards_taken":
            return stud_dead.up_cards_taken(t, cmd, emit)
        case "conditional":
            s = _seat(t, cmd.seat)
            _floor(
                t,
                s.number,
                "61-A",
                ["binding", "not_binding"],
                "a conditional statement about future action",
                emit,
            )
    return None


def _seat(t: TableState, number: int | None) -> Seat:
    s = t.seat(number) if number is not None else None
    if s is None or not s.live:
        raise Illegal("", f"seat {number} has no live hand", code="unknown_seat")
    return s


def _floor(t: TableState, seat: int, rule: str, options: list[str], why: str, emit: Emit) -> None:
    emit(
        FloorCall(
            seat=seat,
            rule=rule,
            options=options,
            call=t.calls + 1,
            blocking=rule != "61-A",
            text=f"Floor, seat {seat}: {why} ({rule})",
        )
    )


def _acted(t: TableState, seat: int) -> bool:
    return any(isinstance(c, Act) and c.seat == seat for c in t.history)


def _kill(t: TableState, s: Seat, rule: str, why: str, emit: Emit) -> Move:
    """A dead hand: the seat is folded, its chips stay in the pot; the hand goes on without it."""
    emit(action_event(t, s, Reading("fold", s.bet, 0, [rule]), [], [why], forced=True))
    if t.phase == "showdown":
        return TryShowdown()
    to_act = t.to_act if t.to_act is not None and t.to_act != s.number else s.number + 1
    return ResumeAfter(to_act - 1)


def _wrong_button(t: TableState, emit: Emit) -> Move:
    """36-A: a button error found before substantial action is corrected; after, it stands."""
    if t.button_error is None:
        raise Illegal("36-A", "the button is where it belongs")
    if not t.sa:
        return misdeal(t, Misdeal(reason="the button was misplaced"), emit, ("36-A",))
    emit(
        Irregular(
            kind="wrong_button",
            seat=t.button_error,
            total=t.button,
            correct=t.button,
            found=True,
            rules=["36-A"],
            text=f"The button on seat {t.button} should have been on seat {t.button_error}, but"
            " substantial action has happened: play goes on and the button moves on from "
            "here (36-A)",
        )
    )
    return None


def _card_count(t: TableState, s: Seat, cmd: Irregularity, emit: Emit) -> Move:
    """39 for the button short a card; any other wrong count is 37-A-5 or 40 (38 decides)."""
    short = _is_short(t, s, cmd)
    held = _held(t, cmd, short)
    if short and s.number == t.button:
        return _short_button(t, s, cmd, emit)
    if not t.sa:
        return misdeal(
            t, Misdeal(reason=f"37-A-5: seat {s.number} {held}"), emit, ("37-A", "37-A-5")
        )
    emit(
        Irregular(
            kind="wrong_card_count",
            seat=s.number,
            rules=["40"],
            text=f"Seat {s.number} {held} after substantial action: its hand is dead, its cards"
            " go to the muck and its chips stay in the pot; burn exactly one card for the next"
            " street, never an extra one and never a misdealt card (40)",
        )
    )
    return _kill(t, s, "40", "wrong number of cards after substantial action: dead hand", emit)


def _is_short(t: TableState, s: Seat, cmd: Irregularity) -> bool:
    """Short or extra: the cards the seat holds tell, when the report gives them; else its kind.

    The button's wrong count without its cards is refused: short it gets the card (39), with
    an extra card it is a misdeal or a dead hand.
    """
    want = games.hole_count(t.game)
    if not cmd.cards:
        if cmd.kind == "wrong_card_count" and s.number == t.button:
            raise Illegal(
                "39",
                f"seat {s.number} has the button: report it short a card, or enter the cards "
                "it holds (a card short, the button gets the card)",
            )
        return cmd.kind == "short_card"
    held = len(cmd.cards)
    if held == want:
        raise Illegal("37-A-5", f"seat {s.number} holds {held} cards, the right number in {t.game}")
    if cmd.kind == "short_card" and held > want:
        raise Illegal("39", f"seat {s.number} holds {held} cards: more than {want}, not short")
    return held < want


def _held(t: TableState, cmd: Irregularity, short: bool) -> str:
    """What the seat holds, in the words of the ruling."""
    want = games.hole_count(t.game)
    if cmd.cards:
        n = len(cmd.cards)
        return f"holds {n} card{'' if n == 1 else 's'} instead of {want}"
    return "is a card short" if short else "holds the wrong number of cards"


def _short_button(t: TableState, s: Seat, cmd: Irregularity, emit: Emit) -> Move:
    """39: the button short a card gets it, even after substantial action, unless it acted."""
    if _acted(t, s.number):
        return _kill(t, s, "39", "the button acted a card short: dead hand", emit)
    missing = games.hole_count(t.game) - len(cmd.cards) if cmd.cards else 1
    cards = "the missing card" if missing == 1 else f"the {missing} missing cards"
    emit(
        Irregular(
            kind="short_card",
            seat=s.number,
            rules=["39"],
            text=f"Seat {s.number} has the button and is short: deal it {cards}, substantial"
            " action or not, as long as it has not acted (39)",
        )
    )
    return None


def _flop_not_burned(t: TableState, emit: Emit) -> None:
    """41-B, found after the flop is out: with action on the flop, play goes on."""
    if t.street != "flop":
        raise Illegal("41-B", "the flop is not the current street")
    if t.actions_on_street() == 0:
        if len(t.board) != 3:
            raise Illegal("41-B", "enter the flop's cards to pick the burn")
        irregular_flop(t, Deal(street="flop", cards=list(t.board), burned=False), emit)
        return
    emit(
        Irregular(
            kind="flop_not_burned",
            street="flop",
            rules=["41-B"],
            text="The flop was not burned, but there was action on it: play goes on with "
            "these cards;"
            " one burn only before the turn (41-B)",
        )
    )


def as_played(t: TableState, s: Seat, cmd: Act, emit: Emit) -> Move:
    """Record a bet exactly as it went in, flagging what rule 54 would correct."""
    if cmd.amount is None:
        raise Illegal("54", "a bet recorded as played needs its amount")
    top = betting.all_in_to(s)
    total = min(cmd.amount if cmd.amount > t.current_bet else s.bet + cmd.amount, top)
    if total <= t.current_bet or not betting.can_raise(t, s):
        raise Illegal("54", "only a bet or raise is recorded as played")
    low, high = betting.raise_bounds(t, s)
    pot_limit = t.game in games.POT_LIMIT
    kind = ""
    correct = total
    if cmd.declare == "pot" and pot_limit:
        kind, correct = ("pot_low", high) if total < high else ("pot_high", high)
    elif total < low and total < top:
        kind, correct = "under_raise", low
    elif pot_limit and total > high:
        kind, correct = "pot_high", high
    rule = "54-A" if kind == "under_raise" else "54-B"
    level = t.current_bet
    emit(
        action_event(
            t,
            s,
            Reading("raise", total, 0, [rule] if kind and correct != total else []),
            [],
            ["as played"],
        )
    )
    if kind and correct != total:
        what = {
            "under_raise": "short of the minimum",
            "pot_low": "less than the pot",
            "pot_high": "more than the pot",
        }[kind]
        emit(
            Irregular(
                kind="under_raise" if kind == "under_raise" else "pot_miscount",
                seat=s.number,
                street=t.street,
                total=total,
                correct=correct,
                level=level,
                rules=[rule],
                text=f"Seat {s.number}: {words.chips(total)} as played is {what} "
                f"({words.chips(correct)});"
                f" correctable under {rule}",
            )
        )
    return ResumeAfter(s.number)


def found_bet(t: TableState, s: Seat, kind: str, emit: Emit) -> Move:
    """54: the floor acts on a wrong bet recorded as played."""
    wanted = ("under_raise",) if kind == "under_raise" else ("pot_low", "pot_high")
    flag = next((f for f in t.flagged if f.seat == s.number and f.kind in wanted), None)
    if flag is None:
        raise Illegal("54", f"seat {s.number} has no wrong bet on record to correct")
    rule = "54-A" if flag.kind == "under_raise" else "54-B"
    # The street lasts until its next card is dealt; on the river, until the showdown.
    open_street = flag.street == t.street and t.phase in ("betting", "deal")
    since = (t.actions - flag.actions, t.chip_actions - flag.chip_actions)
    if flag.kind == "pot_low":
        fixable = open_street and not is_substantial(*since)
        stands = "substantial action followed the bet: it stands"
    else:
        fixable = open_street
        stands = "the street is over: the error stands"
    correct = flag.correct if fixable else flag.total
    verb = "corrected to" if fixable else "stays at"
    bettors = [b for b in t.seats if b.live and b.bet == flag.total]
    emit(
        Irregular(
            kind=kind,
            seat=s.number,
            street=flag.street,
            total=flag.total,
            correct=correct,
            level=flag.level,
            found=True,
            rules=[rule],
            text=f"Seat {s.number}'s {words.chips(flag.total)} {verb} {words.chips(correct)}"
            + ("" if fixable else f": {stands}")
            + f" ({rule})",
        )
    )
    if not fixable:
        return None
    for b in bettors:
        new = min(correct, betting.all_in_to(b))
        action = "call"
        if b.number == s.number:
            action = "bet" if flag.level == 0 else "raise"
        how = "raised" if new > b.bet else "reduced"
        reading = Reading(
            action, new, max(0, b.bet - new), [rule], [f"{how} to the correct amount"]
        )
        emit(action_event(t, b, reading, [], [], forced=True))
    return PromptAgain()


def next_street(t: TableState) -> str:
    order = games.streets(t.game)
    i = order.index(t.street)
    return order[i + 1] if i + 1 < len(order) else ""
