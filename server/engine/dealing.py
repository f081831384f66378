"""Dealing: the start of a hand (button, blinds and posts) and the streets' cards.

Rules 34-36 place the button and blinds (through :mod:`buttons`), RP-11 orders the big-blind
ante after the big blind, 25 keeps a level announced during a hand for the next one, and 37-C
re-deals a misdealt hand exactly as it was.
"""

from __future__ import annotations

import dataclasses

from protocol.commands import Deal, StartHand
from protocol.config import MOST_HANDS, Level
from protocol.events import Dealt, HandStart, Irregular, Post
from server.engine import (
    buttons,
    draw,
    mixed,
    penalties,
    presence,
    stub,
    stud,
    stud_exposed,
    words,
)
from server.engine.errors import Illegal
from server.engine.games import DRAW, STUD, hole_count, streets
from server.engine.moves import Emit, Move, ResumeAfter, StreetDealt
from server.engine.state import TableState
from server.engine.unseen import check_deal


def start_hand(
    t: TableState,
    cmd: StartHand,
    emit: Emit,
    redeal: bool = False,
    level: Level | None = None,
    game: str | None = None,
) -> Move:
    """Deal a hand: button and blinds (34-36), posts (RP-11), the penalised seats' kills (74-C).

    A re-deal after a misdeal is the same hand at the same level and game (37-C), whatever a
    level announced during it. A mixed event's game announced for this hand is dealt from it
    (25)."""
    nxt = mixed.next_game(t)
    if game is not None:
        nxt = dataclasses.replace(nxt, game=game)
    game = nxt.game
    if game in STUD:
        return _start_stud(t, cmd, emit, nxt, redeal, level)
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
    level = level or nxt.level or t.next_level or t.level
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
    dead_small_blind = where.small_blind is None and not level.ante_only
    if where.button not in where.dealt or dead_small_blind:
        rules.append("34")
    if t.started and where.button != t.sb_pos and len(where.dealt) > 2:
        rules.append("36-B")
    if len(where.dealt) == 2:
        rules.append("36-C")
    for seat in cmd.cards:
        if seat not in where.dealt:
            raise Illegal("", f"cards given for seat {seat}, which is not dealt in")
    if game in DRAW:
        draw.check_hands(game, len(where.dealt))
    check_hand_sizes(game, cmd.cards)
    check_deal(cmd.cards)
    presence.check_absent(cmd.absent, list(where.dealt))
    stud_exposed.check_first_deal(game, cmd.exposed, list(where.dealt))
    penalised = [n for n in where.dealt if t.penalties.get(n, 0) > 0]
    if where.button != correct:
        rules.append("36-A")
    small = (
        f"small blind seat {where.small_blind}"
        if where.small_blind is not None
        else "dead small blind"
    )
    blinds = (
        "no blinds (ante only)" if level.ante_only else f"{small}, big blind seat {where.big_blind}"
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
            min_bet=level.min_bet,
            dealt=list(where.dealt),
            posts=posts,
            cards={k: list(v) for k, v in cmd.cards.items()},
            redeal=redeal,
            rules=rules,
            text=f"Hand {t.hand + 1}: button {where.button}, {blinds}" + mixed.announcement(nxt),
            game=game if game != t.game else "",
            turn=nxt.turn,
            orbit=nxt.orbit,
            absent=[] if redeal else list(cmd.absent),
            exposed=list(cmd.exposed),
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
    presence.kill_absent(t, [] if redeal else cmd.absent, emit)
    # With no blinds the first player left of the button acts first, as on later streets.
    return ResumeAfter(where.button if level.ante_only else where.big_blind)


def check_hand_sizes(game: str, cards: dict[int, list[str]]) -> None:
    """The hands entered at the deal are whole: the game's cards each (unknown ones as
    ``??``). A seat dealt too few or too many is not entered so: the dealer reports it
    (``irregularity``), and the rules for it decide (37-A-5, 39, 40)."""
    want = hole_count(game)
    for seat, hand in cards.items():
        if len(hand) != want:
            raise Illegal(
                "",
                f"seat {seat}: {game} deals {want} cards, not {len(hand)}; a seat dealt too "
                "few or too many is reported as an irregularity (37-A-5, 39, 40)",
                code="hand_size",
            )


def _start_stud(
    t: TableState,
    cmd: StartHand,
    emit: Emit,
    nxt: mixed.NextGame,
    redeal: bool = False,
    level: Level | None = None,
) -> Move:
    """Antes from every seat with chips, two down-cards and one up-card each; the action
    starts with the bring-in (RP-10), or left of it when the ante put it all-in (RP-10-E)."""
    game = nxt.game
    dealt = [s.number for s in t.seats if s.stack > 0]
    if len(dealt) < 2:
        raise Illegal("", "fewer than two players can be dealt in", code="short_table")
    if len(dealt) > MOST_HANDS[game]:
        raise Illegal(
            "",
            f"stud deals at most {MOST_HANDS[game]} hands: {len(dealt)} would run the deck out"
            " before seventh street, where the short stub's procedures start (RP-10-H)",
            code="too_many_hands",
        )
    level = level or nxt.level or t.next_level or t.level
    missing = [n for n in dealt if len(cmd.up.get(n, ())) != 1 or "??" in cmd.up[n]]
    if missing:
        raise Illegal(
            "RP-10",
            f"every seat dealt in shows one up-card on third street: give seat {missing[0]}'s;"
            " the up-cards decide who brings it in",
            code="up_cards_needed",
        )
    for seat in [*cmd.cards, *cmd.up]:
        if seat not in dealt:
            raise Illegal("", f"cards given for seat {seat}, which is not dealt in")
    presence.check_absent(cmd.absent, dealt)
    stud_exposed.check_first_deal(game, cmd.exposed, dealt)
    for seat, down in cmd.cards.items():
        if len(down) != 2:
            raise Illegal(
                "",
                f"seat {seat}: stud deals two down-cards on third street, not {len(down)}; a seat"
                " dealt too few or too many is reported as an irregularity (37-A-5, 39, 40)",
                code="hand_size",
            )
    check_deal(cmd.cards, cmd.up)
    posts: list[Post] = []
    for n in dealt:
        s = t.seat(n)
        assert s is not None
        paid = min(level.ante, s.stack)
        if paid:
            posts.append(Post(n, "ante", paid, paid == s.stack))
    penalised = [n for n in dealt if t.penalties.get(n, 0) > 0]
    up = {n: list(cmd.up[n]) for n in dealt}
    opener = stud.bringer(game, {n: up[n][0] for n in dealt})
    which = "highest" if stud.is_razz(game) else "lowest"
    text = (
        f"Hand {t.hand + 1}: seat {opener} has the {which} up-card ({up[opener][0]}) and brings"
        f" it in, {words.chips(level.bring_in)} (RP-10)"
    )
    rules = ["37-C"] if redeal else []
    if cmd.exposed:
        text += "; " + stud_exposed.first_deal_text(cmd.exposed, up, opener)
        rules.append("RP-10-A")
    button = t.button
    if t.started and (where := buttons.next_positions(t)) is not None:
        # 12-B: after a flop game the button stays where the next flop hand has it.
        button = where.button
        text += f"; the button stays on seat {button} while stud is dealt (12-B)"
        rules.append("12-B")
    emit(
        HandStart(
            hand=t.hand + 1,
            button=button,
            small_blind=None,
            big_blind=0,
            blinds=level.blinds,
            ante=level.ante,
            min_bet=level.min_bet,
            dealt=dealt,
            posts=posts,
            cards={k: list(v) for k, v in cmd.cards.items()},
            redeal=redeal,
            rules=rules,
            text=text + mixed.announcement(nxt),
            up=up,
            bring_in=level.bring_in,
            game=game if game != t.game else "",
            turn=nxt.turn,
            orbit=nxt.orbit,
            absent=[] if redeal else list(cmd.absent),
            exposed=list(cmd.exposed),
        )
    )
    penalties.kill_penalised(t, penalised, emit)
    presence.kill_absent(t, [] if redeal else cmd.absent, emit)
    return ResumeAfter(stud.before(opener))


def dealt(t: TableState, cmd: Deal, emit: Emit) -> Move:
    """A street's cards are on the board (stud: in front of each live hand; on seventh street
    from a short stub, RP-10-H, the procedure is said, and a community card is the board)."""
    rules: list[str] = []
    text = ""
    if stud.is_stud(t) and cmd.street == streets(t.game)[-1]:
        deal = stub.seventh(t)
        if deal.procedure:
            rules = ["RP-10-H"]
            text = f"Seventh street: {deal.text()}"
            if deal.community:
                text += "; the first to act on sixth street acts first (RP-10-H D)"
    emit(
        Dealt(
            street=cmd.street,
            cards=list(cmd.cards),
            board=[*t.board, *cmd.cards],
            up={k: list(v) for k, v in cmd.up.items()},
            down={k: list(v) for k, v in cmd.down.items()},
            rules=rules,
            text=text,
        )
    )
    return StreetDealt()
