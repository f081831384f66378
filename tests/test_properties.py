"""Property tests over random legal hands (issue 2, acceptance 2).

For every command of every random hand: chips are conserved to the chip, no stack goes
negative, the prompt offers exactly the legal options (each offered option is accepted, each
withheld one is refused), and replaying the event log rebuilds an identical state.
"""

from __future__ import annotations

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import (
    Act,
    ActionLimited,
    Award,
    Correction,
    Deal,
    ErrorEvent,
    Event,
    Muck,
    Prompt,
    Recorded,
    Ruling,
    Show,
    StartHand,
    TableConfig,
)
from server.engine import TableState, apply, rebuild
from server.engine.pots import layered

GAMES = ["NLHE", "PLO", "LHE", "PLHE", "NLO", "PLO8", "LO8"]
RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]


def chips_on_table(state: TableState) -> int:
    """Stacks, pots and chips taken out of play: constant to the chip."""
    return sum(s.stack for s in state.seats) + state.pot_total() + state.removed


def ruling_of(events: list[Event]) -> Event:
    """The first event after the record of the command itself."""
    return next(e for e in events if not isinstance(e, Recorded))


@st.composite
def tables(draw: st.DrawFn) -> TableConfig:
    n = draw(st.integers(2, 9))
    seat_numbers = sorted(draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True)))
    bb = draw(st.sampled_from([2, 100, 200, 400]))
    stacks = {seat: draw(st.integers(1, 300)) * bb // 2 + 1 for seat in seat_numbers}
    ante = draw(st.sampled_from([0, 0, bb // 4]))
    bba = ante > 0 and draw(st.booleans())
    return TableConfig(
        game=draw(st.sampled_from(GAMES)),
        blinds=(bb // 2, bb),
        ante=bb if bba else ante,
        bba=bba,
        seats=stacks,
        button=draw(st.sampled_from(seat_numbers)),
        chips=(1,),
    )


def check(before: TableState, after: TableState, events: list[Event]) -> None:
    assert chips_on_table(after) == chips_on_table(before)
    assert all(s.stack >= 0 for s in after.seats)
    assert all(s.paid >= 0 for s in after.seats)


def step(state: TableState, command: object, log: list[Event]) -> TableState:
    after, events = apply(state, command)  # type: ignore[arg-type]
    assert not any(isinstance(e, ErrorEvent) for e in events), (command, events)
    check(state, after, events)
    assert after.waiting_on(), f"nobody to wait on after {command}"
    log.extend(events)
    return after


def attempt(state: TableState, command: object, log: list[Event]) -> TableState:
    """A command that the rules may refuse; a refusal changes nothing."""
    after, events = apply(state, command)  # type: ignore[arg-type]
    if len(events) == 1 and isinstance(events[0], ErrorEvent):
        assert after is state
        return state
    check(state, after, events)
    assert after.waiting_on(), f"nobody to wait on after {command}"
    log.extend(events)
    return after


def refused(state: TableState, command: Act) -> bool:
    after, events = apply(state, command)
    refusal = len(events) == 1 and isinstance(events[0], ErrorEvent)
    if refusal:
        assert after is state
    return refusal


def probe_prompt(state: TableState, p: Prompt) -> None:
    """Every offered option is accepted as itself; every withheld one is refused."""
    seat = p.seat
    legal = {
        "fold": Act(seat=seat, declare="fold"),
        "check": Act(seat=seat, declare="check"),
        "call": Act(seat=seat, declare="call"),
    }
    for option, command in legal.items():
        if option == "fold" and "fold" not in p.options:
            continue  # folding with nothing to call is binding (60), not refused
        if option == "call" and p.to_call == 0:
            _, events = apply(state, command)
            first = ruling_of(events)
            assert getattr(first, "action", None) == "check" and "57-A" in first.rules  # type: ignore[union-attr]
            continue
        if option == "check" and p.to_call:
            # 57: "check" facing a bet is recorded; the seat stays to act, call or fold only.
            _, events = apply(state, command)
            limited = [e for e in events if isinstance(e, ActionLimited)]
            assert limited and limited[0].rules == ["57"], events
            again = events[-1]
            assert isinstance(again, Prompt) and again.seat == seat and not again.can_raise
            continue
        assert refused(state, command) == (option not in p.options), (option, p)
    raise_cmd = Act(seat=seat, declare="raise", amount=p.all_in_to)
    assert refused(state, raise_cmd) == (not p.can_raise) or p.all_in_to <= p.to_call, p
    if p.can_raise:
        assert p.min_raise_to is not None and p.max_raise_to is not None
        for total in {p.min_raise_to, p.max_raise_to}:
            _, events = apply(state, Act(seat=seat, declare="raise", amount=total))
            action = ruling_of(events)
            assert getattr(action, "total", None) == total, (total, action)


def drawn_action(data: st.DataObject, prompt: Prompt, *, largest: bool) -> Act:
    """A prompted action or all-in; a bet or raise goes to the smallest or the largest size."""
    choice = data.draw(st.sampled_from([*prompt.options, "all_in"]))
    if choice not in ("bet", "raise"):
        return Act(seat=prompt.seat, declare=choice)  # type: ignore[arg-type]
    amount = prompt.max_raise_to if largest else prompt.min_raise_to
    assert amount is not None
    return Act(seat=prompt.seat, declare="raise", amount=amount)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=tables(), data=st.data())
def test_random_hands_keep_every_invariant(config: TableConfig, data: st.DataObject) -> None:
    rng_deck = data.draw(st.permutations(DECK))
    state = rebuild(config, [])
    log: list[Event] = []
    for _ in range(data.draw(st.integers(1, 3))):
        if len([s for s in state.seats if s.stack > 0]) < 2:
            break
        deck = list(rng_deck)
        state = step(state, StartHand(cards={}), log)
        hole = (
            4
            if ("O" in config.game and config.game != "LHE") or config.game in ("PLO8", "LO8")
            else 2
        )
        cards = {s.number: [deck.pop() for _ in range(hole)] for s in state.seats if s.dealt}
        guard = 0
        while state.phase != "idle":
            guard += 1
            assert guard < 400, "hand is stuck"
            prompt = next((e for e in reversed(log) if isinstance(e, Prompt)), None)
            if state.phase == "betting":
                assert prompt is not None and prompt.seat == state.to_act
                probe_prompt(state, prompt)
                choice = data.draw(st.sampled_from([*prompt.options, "all_in"]))
                if choice in ("bet", "raise"):
                    assert prompt.min_raise_to is not None and prompt.max_raise_to is not None
                    total = data.draw(st.integers(prompt.min_raise_to, prompt.max_raise_to))
                    command = Act(seat=prompt.seat, declare="raise", amount=total)
                elif choice == "all_in":
                    command = Act(seat=prompt.seat, declare="all_in")
                else:
                    command = Act(seat=prompt.seat, declare=choice)  # type: ignore[arg-type]
                state = step(state, command, log)
            elif state.phase == "deal":
                street = state.next_street
                n = 3 if street == "flop" else 1
                state = step(state, Deal(street=street, cards=[deck.pop() for _ in range(n)]), log)  # type: ignore[arg-type]
            elif state.phase == "showdown":
                waiting = [s for s in state.live() if not s.shown]
                seat = waiting[0]
                # After an all-in's exposure every hand stays live (17): it is shown.
                if (
                    state.exposed
                    or data.draw(st.booleans())
                    or (len(waiting) == 1 and all(not s.shown for s in state.live()))
                ):
                    state = step(state, Show(seat=seat.number, cards=cards[seat.number]), log)
                else:
                    state = step(state, Muck(seat=seat.number), log)
            else:
                raise AssertionError(f"unexpected phase {state.phase}")
    rebuilt = rebuild(config, log)
    assert msgspec.json.encode(rebuilt) == msgspec.json.encode(state)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=tables(), data=st.data())
def test_out_of_turn_under_calls_and_corrections_never_lose_a_chip(
    config: TableConfig, data: st.DataObject
) -> None:
    """Issue 3, acceptance 3: with out-of-turn actions, under-calls and corrections injected at
    random, no chip is lost or created and the hand always waits on someone until it ends."""
    deck = list(data.draw(st.permutations(DECK)))
    state = rebuild(config, [])
    log: list[Event] = []
    state = step(state, StartHand(cards={}), log)
    guard = 0
    while state.phase != "idle":
        guard += 1
        assert guard < 500, f"hand is stuck waiting on {state.waiting_on()}"
        live = [s.number for s in state.live() if s.stack > 0]
        mischief = data.draw(st.sampled_from(["none", "none", "none", "oot", "under", "correct"]))
        if state.phase == "betting" and mischief == "oot" and len(live) > 1:
            seat = data.draw(st.sampled_from(live))
            declare = data.draw(st.sampled_from(["fold", "check", "call", "raise", "all_in"]))
            amount = state.current_bet * 2 or 2
            act = Act(seat=seat, declare=declare, amount=amount)  # type: ignore[arg-type]
            state = attempt(state, act, log)
            continue
        if state.phase == "betting" and mischief == "under" and state.to_act is not None:
            owed = state.current_bet - (state.seat(state.to_act).bet)  # type: ignore[union-attr]
            if owed > 1:
                state = attempt(state, Act(seat=state.to_act, amount=owed // 2), log)
                continue
        if mischief == "correct" and state.base is not None:
            state = attempt(
                state, Correction(reason="test", count=data.draw(st.integers(1, 2))), log
            )
            continue
        if state.phase == "floor":
            call = state.floor[0]
            state = step(
                state, Ruling(call=call.call, option=data.draw(st.sampled_from(call.options))), log
            )
        elif state.phase == "betting":
            prompt = next(e for e in reversed(log) if isinstance(e, Prompt))
            assert prompt.seat == state.to_act, (prompt, state.waiting_on())
            state = step(state, drawn_action(data, prompt, largest=False), log)
        elif state.phase == "deal":
            street = state.next_street
            n = 3 - len(state.board) if street == "flop" else 1
            # The stub: a street voided by a correction puts its cards back.
            stub = [c for c in deck if c not in state.board]
            state = step(state, Deal(street=street, cards=stub[:n]), log)  # type: ignore[arg-type]
        elif state.phase == "showdown":
            waiting = [s for s in state.live() if not s.shown]
            # After an all-in's exposure every hand stays live (17): it is shown, not mucked.
            muck = len(waiting) > 1 and not state.exposed
            state = step(
                state,
                Muck(seat=waiting[0].number) if muck else Show(seat=waiting[0].number),
                log,
            )
            if state.phase == "showdown" and all(
                s.shown or s.mucked for s in state.seats if s.dealt and not s.folded
            ):
                for index, pot in enumerate(layered(state)):
                    state = attempt(state, Award(pot=index, winners=[pot.eligible[0]]), log)
        else:
            raise AssertionError(f"unexpected phase {state.phase}")
    rebuilt = rebuild(config, log)
    assert msgspec.json.encode(rebuilt) == msgspec.json.encode(state)
