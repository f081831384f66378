"""Property tests over random seven-card stud, stud/8 and razz hands (issue 15, acceptance 1).

As for the flop games (``tests.test_properties``): every command keeps the chips to the chip,
every prompt offers exactly the legal options, and the event log rebuilds the same state.
Stud adds its own prompt, the bring-in's (RP-10): bringing it in and completing are accepted
as themselves, a check or a call refused, a fold only where RP-10-E allows it; and the seat
asked to act first on each street is the one the cards showing name (RP-10-D: in razz the
lowest board, aces low), stated here apart from the engine.

Up to eight players: eight need 56 cards, so the stub can run short on seventh street. The
test burns a card before each of fourth to seventh street from its own deck and reads the
procedure from what is left, apart from the engine (RP-10-H): enough for every hand still in, a
burn and a last card: a card each; enough with the three burns put back: a card each from the
stub and the burns; else one community card. The engine must agree (it refuses the wrong one).
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from protocol import Act, Deal, Dealt, Event, Muck, Prompt, Show, StartHand, TableConfig
from server.engine import TableState, apply, rebuild, stud
from tests.test_properties import (
    DECK,
    RANKS,
    SUITS,
    drawn_action,
    probe_prompt,
    refused,
    ruling_of,
    step,
)


@st.composite
def stud_tables(draw: st.DrawFn) -> TableConfig:
    n = draw(st.integers(2, 8))
    seat_numbers = sorted(draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True)))
    small_bet = draw(st.sampled_from([4, 100, 200, 400]))
    stacks = {seat: draw(st.integers(1, 200)) * small_bet // 4 + 1 for seat in seat_numbers}
    return TableConfig(
        game=draw(st.sampled_from(["7S", "7S8", "RAZZ"])),
        blinds=(0, 0),
        ante=draw(st.sampled_from([0, small_bet // 4, small_bet // 2])),
        bring_in=draw(st.sampled_from([small_bet // 4, small_bet // 2])),
        min_bet=small_bet,
        seats=stacks,
        button=seat_numbers[0],
        chips=(1,),
    )


def probe_bring_in(state: TableState, p: Prompt) -> None:
    """RP-10: the bring-in and the completion are accepted as themselves; no check, no call;
    a fold only for a seat left of a bring-in all-in on its ante (RP-10-E)."""
    assert refused(state, Act(seat=p.seat, declare="check"))
    assert refused(state, Act(seat=p.seat, declare="call"))
    assert refused(state, Act(seat=p.seat, declare="fold")) == ("fold" not in p.options)
    _, events = apply(state, Act(seat=p.seat, declare="bring_in"))
    brought = ruling_of(events)
    assert (getattr(brought, "action", None), getattr(brought, "total", None)) == (
        "bring_in",
        p.bring_in,
    )
    if "complete" in p.options:
        assert p.min_raise_to is not None
        _, events = apply(state, Act(seat=p.seat, declare="complete"))
        assert getattr(ruling_of(events), "total", None) == p.min_raise_to


LOW_RANKS = "A23456789TJQK"


def brings_it_in(game: str, up: dict[int, str]) -> int:
    """RP-10: the lowest up-card by rank then suit (clubs lowest); razz: the highest, aces low."""
    if game == "RAZZ":
        return max(up, key=lambda n: (LOW_RANKS.index(up[n][0]), SUITS.index(up[n][1])))
    return min(up, key=lambda n: (RANKS.index(up[n][0]), SUITS.index(up[n][1])))


def best_board(game: str, up: dict[int, list[str]], live: list[int]) -> int:
    """The board that acts first, stated apart from the engine. Stud: more of a rank first
    (quads, trips, two pairs, a pair), then the ranks high to low. Razz: fewer of a rank
    first, then the ranks low to high, aces low. Equal boards: the highest card by suit."""
    order = LOW_RANKS if game == "RAZZ" else RANKS

    def strength(cards: list[str]) -> tuple[list[int], list[int], int]:
        ranks = [order.index(c[0]) for c in cards]
        groups = sorted(((ranks.count(r), r) for r in set(ranks)), reverse=True)
        top = max(cards, key=lambda c: (order.index(c[0]), SUITS.index(c[1])))
        if game == "RAZZ":
            return [-g[0] for g in groups], [-g[1] for g in groups], SUITS.index(top[1])
        return [g[0] for g in groups], [g[1] for g in groups], SUITS.index(top[1])

    return max(live, key=lambda n: strength(up[n]))


def from_seat(state: TableState, seat: int) -> int:
    """``seat``, or the first seat clockwise after it with chips to act (RP-10-E)."""
    able = sorted(s.number for s in state.live() if s.stack > 0)
    return next((n for n in able if n >= seat), able[0])


Choose = Callable[[TableState, Prompt], Act]


def drawn_choice(data: st.DataObject) -> Choose:
    """Any legal action, drawn: the bring-in's options as offered, else the drawn action."""

    def choose(state: TableState, prompt: Prompt) -> Act:
        if stud.bringing_in(state):
            choice = data.draw(st.sampled_from(prompt.options))
            return Act(seat=prompt.seat, declare=choice)  # type: ignore[arg-type]
        return drawn_action(data, prompt, largest=True)

    return choose


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=stud_tables(), data=st.data())
def test_random_stud_hands_keep_every_invariant(config: TableConfig, data: st.DataObject) -> None:
    play_hands(config, data, drawn_choice(data), data.draw(st.integers(1, 3)))


@st.composite
def full_stud_tables(draw: st.DrawFn) -> TableConfig:
    """Seven or eight players with deep stacks: the hands that can run the stub short."""
    n = draw(st.integers(7, 8))
    seats = sorted(draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True)))
    return TableConfig(
        game=draw(st.sampled_from(["7S", "7S8", "RAZZ"])),
        blinds=(0, 0),
        ante=25,
        bring_in=50,
        min_bet=100,
        seats=dict.fromkeys(seats, 10_000),
        button=seats[0],
        chips=(1,),
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=full_stud_tables(), data=st.data())
def test_random_stud_hands_to_seventh_street_with_the_stub_short(
    config: TableConfig, data: st.DataObject
) -> None:
    """Each seat folds on the street drawn for it, or never; the others bring in, check and
    call: so seventh street comes with seven or eight hands still in, or fewer, and every line
    of RP-10-H is met (the statistics name how often each procedure came)."""
    seats = sorted(config.seats)
    streets = ["third", "fourth", "fifth", "sixth", ""]
    folds = {n: data.draw(st.sampled_from(streets)) for n in seats}

    def choose(state: TableState, prompt: Prompt) -> Act:
        if folds[prompt.seat] == state.street and "fold" in prompt.options:
            return Act(seat=prompt.seat, declare="fold")
        for option in ("bring_in", "check", "call"):
            if option in prompt.options:
                return Act(seat=prompt.seat, declare=option)  # type: ignore[arg-type]
        raise AssertionError(prompt)

    play_hands(config, data, choose, 1)


def play_hands(config: TableConfig, data: st.DataObject, choose: Choose, hands: int) -> None:
    """Play ``hands`` hands from one shuffled deck, checking every invariant as they go: the
    seat that brings it in and each street's first to act by a rule stated here, every prompt
    probed, the stub's procedure on seventh street (RP-10-H) read from the test's own deck,
    and at the end the log rebuilding the state."""
    shuffled = data.draw(st.permutations(DECK))
    state = rebuild(config, [])
    log: list[Event] = []
    for _ in range(hands):
        dealt = [s.number for s in state.seats if s.stack > 0]
        if len(dealt) < 2:
            break
        deck = list(shuffled)
        down = {n: [deck.pop(), deck.pop()] for n in dealt}
        up = {n: [deck.pop()] for n in dealt}
        burns: list[str] = []
        community: list[str] = []
        procedure = ""
        state = step(state, StartHand(cards=down, up=up), log)
        opener = brings_it_in(config.game, {n: up[n][0] for n in dealt})
        if state.phase == "betting":
            first = next(e for e in reversed(log) if isinstance(e, Prompt))
            assert first.seat == from_seat(state, opener)
        guard = 0
        while state.phase != "idle":
            guard += 1
            assert guard < 400, "hand is stuck"
            prompt = next((e for e in reversed(log) if isinstance(e, Prompt)), None)
            if state.phase == "betting":
                assert prompt is not None and prompt.seat == state.to_act
                if stud.bringing_in(state):
                    probe_bring_in(state, prompt)
                else:
                    probe_prompt(state, prompt)
                state = step(state, choose(state, prompt), log)
            elif state.phase == "deal":
                street = state.next_street
                live = [s.number for s in state.live()]
                if street == "seventh" and len(deck) < len(live) + 2:
                    with_burns = len(deck) + len(burns) >= len(live) + 2  # RP-10-H A
                    mixed = with_burns or len(deck) < 3  # A and C: the burns go back in
                    if mixed:
                        deck, burns = burns + deck, []
                    burns.append(deck.pop())
                    if not with_burns:
                        community = [deck.pop()]  # B and C: one card every hand plays
                    procedure = "A" if with_burns else "C" if mixed else "B"
                    event(f"RP-10-H {procedure}")
                else:
                    burns.append(deck.pop())
                cards = {n: [deck.pop()] for n in live} if not community else {}
                deal = (
                    Deal(street="seventh", down=cards, cards=community)
                    if street == "seventh"
                    else Deal(street=street, up=cards)  # type: ignore[arg-type]
                )
                for n, card in cards.items():
                    (down if street == "seventh" else up)[n] += card
                state = step(state, deal, log)
                if street == "seventh":
                    dealt_event = next(e for e in reversed(log) if isinstance(e, Dealt))
                    said = f"(RP-10-H {procedure})" in dealt_event.text
                    assert said if procedure else not dealt_event.rules, dealt_event
                if state.phase == "betting":
                    prompt = next(e for e in reversed(log) if isinstance(e, Prompt))
                    live = [s.number for s in state.live()]
                    assert prompt.seat == from_seat(state, best_board(config.game, up, live))
            elif state.phase == "showdown":
                waiting = [s for s in state.live() if not s.shown]
                seat = waiting[0]
                if (
                    state.exposed
                    or data.draw(st.booleans())
                    or (len(waiting) == 1 and all(not s.shown for s in state.live()))
                ):
                    seven = [*down[seat.number][:2], *up[seat.number], *down[seat.number][2:]]
                    state = step(state, Show(seat=seat.number, cards=seven), log)
                else:
                    state = step(state, Muck(seat=seat.number), log)
            else:
                raise AssertionError(f"unexpected phase {state.phase}")
    rebuilt = rebuild(config, log)
    assert msgspec.json.encode(rebuilt) == msgspec.json.encode(state)
