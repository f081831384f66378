"""Property tests over random 2-7 triple draw, no-limit 2-7 single draw and badugi hands.

As for the flop and stud games (``tests.test_properties``, ``tests.test_properties_stud``):
every command keeps the chips to the chip and leaves the state it was given untouched, every
prompt offers exactly the legal options, and the event log rebuilds the same state. The draws
add their own checks, each stated here apart from the engine:

- every ``draw_prompt`` names the first live hand left of the button that has not drawn in
  this draw, all-in hands included (RP-25-D), and a draw by any other live seat is refused
  without a change;
- the test deals from its own shuffled deck: the hands, a burn before each draw's first card,
  the cards drawn. When a draw needs more than its stub holds it follows RP-25 itself: the
  stub's last card used (A); the stub and the burns mixed, burning one unless every card is
  needed (B); the stub, the burns and the muck (folded hands, discards taken) shuffled, one
  burnt (C). Every ``drawn`` event's procedure, stub and burns must be the test's;
- a hand entered in full (dealt, thrown, drawn) is the hand the engine holds; any draw not
  entered in full leaves it unknown, to be tabled with its cards.

After C the muck's cards (folded hands, discards) come back: the test's shuffle may deal them
again, entered, and the engine must take them (37-E only before the shuffle).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from protocol import (
    Act,
    Deal,
    Draw,
    Drawn,
    DrawPrompt,
    ErrorEvent,
    Event,
    ExposeAll,
    HandStart,
    Muck,
    Prompt,
    Show,
    StartHand,
    TableConfig,
)
from server.engine import TableState, apply, rebuild
from tests.test_properties import DECK, chips_on_table, drawn_action, probe_prompt

GAMES = ["27TD", "27SD", "BADUGI"]
HOLE = {"27TD": 5, "27SD": 5, "BADUGI": 4}


def encoded(state: TableState) -> bytes:
    return msgspec.json.encode(state)


def step(state: TableState, command: object, log: list[Event]) -> TableState:
    """An accepted command: the chips stay, the state given is untouched, someone is waited on."""
    before = encoded(state)
    after, events = apply(state, command)  # type: ignore[arg-type]
    assert encoded(state) == before, f"{command} changed the state it was given"
    assert not any(isinstance(e, ErrorEvent) for e in events), (command, events)
    assert chips_on_table(after) == chips_on_table(state)
    assert all(s.stack >= 0 and s.paid >= 0 for s in after.seats)
    assert after.waiting_on(), f"nobody to wait on after {command}"
    log.extend(events)
    return after


def refused(state: TableState, command: object) -> ErrorEvent:
    """A refused command: one error event, the very state given back, unchanged."""
    before = encoded(state)
    after, events = apply(state, command)  # type: ignore[arg-type]
    assert after is state and encoded(state) == before, command
    assert len(events) == 1 and isinstance(events[0], ErrorEvent), (command, events)
    return events[0]


@st.composite
def draw_tables(draw: st.DrawFn) -> TableConfig:
    """2-6 seats among 1-10, stacks from a fraction of the big blind to 150 of them."""
    n = draw(st.integers(2, 6))
    seats = sorted(draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True)))
    bb = draw(st.sampled_from([2, 100, 200, 400]))
    stacks = {seat: draw(st.integers(1, 300)) * bb // 2 + 1 for seat in seats}
    return TableConfig(
        game=draw(st.sampled_from(GAMES)),
        blinds=(bb // 2, bb),
        ante=draw(st.sampled_from([0, 0, bb // 4])),
        seats=stacks,
        button=draw(st.sampled_from(seats)),
        chips=(1,),
    )


@dataclass
class Dealer:
    """The test's own deck: the stub (its top card last), the burns, the muck, each hand."""

    rng: random.Random
    stub: list[str]
    hands: dict[int, list[str]] = field(default_factory=dict)
    burns: list[str] = field(default_factory=list)
    muck: list[str] = field(default_factory=list)

    def deal(self, seats: list[int], size: int) -> None:
        self.hands = {n: [self.stub.pop() for _ in range(size)] for n in seats}

    def fold(self, seat: int) -> None:
        self.muck += self.hands[seat]

    def serve(self, count: int, first: bool) -> tuple[str, list[str]]:
        """RP-25 for a draw of ``count`` (``first``: no card drawn yet in this draw, so one is
        burnt): the procedure and the cards dealt."""
        burn = 1 if first else 0
        if len(self.stub) >= count + burn:
            procedure = "RP-25-A" if len(self.stub) == count + burn else ""
            self.burns += [self.stub.pop() for _ in range(burn)]
        elif len(self.stub) + len(self.burns) >= count:
            procedure = "RP-25-B"
            pool = self.stub + self.burns
            self.rng.shuffle(pool)
            self.stub, self.burns = pool, []
            if len(pool) > count:  # every card needed: no burn
                self.burns.append(self.stub.pop())
        else:
            procedure = "RP-25-C"
            pool = self.stub + self.burns + self.muck
            self.rng.shuffle(pool)
            self.stub, self.burns, self.muck = pool, [], []
            self.burns.append(self.stub.pop())
        return procedure, [self.stub.pop() for _ in range(count)]


Choose = Callable[[TableState, Prompt], Act]


def first_to_draw(state: TableState, button: int, drawn: set[int]) -> int:
    """RP-25-D: the first live hand clockwise from the button that has not drawn yet."""
    live = sorted(s.number for s in state.live() if s.number not in drawn)
    return next((n for n in live if n > button), live[0])


def play_hands(
    config: TableConfig,
    data: st.DataObject,
    hands: int,
    choose: Choose,
    counts: st.SearchStrategy[int] | None = None,
) -> None:
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    state = rebuild(config, [])
    log: list[Event] = []
    size = HOLE[config.game]
    for _ in range(hands):
        dealt = [s.number for s in state.seats if s.stack > 0]
        if len(dealt) < 2:
            break
        dealer = Dealer(rng, rng.sample(DECK, len(DECK)))
        dealer.deal(dealt, size)
        entered = data.draw(st.booleans(), label="hands entered")
        known = dict.fromkeys(dealt, entered)
        start = len(log)
        state = step(state, StartHand(cards=dealer.hands if entered else {}), log)
        button = next(e for e in reversed(log) if isinstance(e, HandStart)).button
        drawn_now: set[int] = set()
        street, first = "", True
        guard = 0
        while state.phase != "idle":
            guard += 1
            assert guard < 500, "hand is stuck"
            if state.phase == "betting":
                prompt = next(e for e in reversed(log) if isinstance(e, Prompt))
                assert prompt.seat == state.to_act
                probe_prompt(state, prompt)
                state = step(state, choose(state, prompt), log)
                after = state.seat(prompt.seat)  # None: busted when the hand ended
                if after is not None and after.folded:
                    dealer.fold(prompt.seat)
            elif state.phase == "draw":
                asked = next(e for e in reversed(log) if isinstance(e, DrawPrompt))
                if asked.street != street:
                    street, drawn_now, first = asked.street, set(), True
                seat = first_to_draw(state, button, drawn_now)
                assert asked.seat == seat == state.to_act, (asked, drawn_now, button)
                assert asked.most == size and asked.stub == len(dealer.stub)
                for other in state.live():
                    if other.number != seat:
                        assert refused(state, Draw(seat=other.number)).code == "out_of_turn"
                assert refused(state, Deal(street="flop")).code == "not_due"
                count = data.draw(st.integers(0, size) if counts is None else counts, label="count")
                hand = dealer.hands[seat]
                thrown = rng.sample(hand, count)
                procedure, cards = dealer.serve(count, first) if count else ("", [])
                first = first and not count
                how = data.draw(st.sampled_from(["full", "full", "count", "thrown", "cards"]))
                command = Draw(
                    seat=seat,
                    count=count,
                    thrown=thrown if how in ("full", "thrown") else [],
                    cards=cards if how in ("full", "cards") else [],
                )
                if known[seat] and count:
                    stranger = next(c for c in DECK if c not in hand)
                    bad = Draw(seat=seat, count=1, thrown=[stranger])
                    assert refused(state, bad).message.endswith(f"cannot throw {stranger}")
                state = step(state, command, log)
                dealer.hands[seat] = [*(c for c in hand if c not in thrown), *cards]
                dealer.muck += thrown
                drawn_now.add(seat)
                if count and how != "full":
                    known[seat] = False
                said = next(e for e in reversed(log) if isinstance(e, Drawn))
                assert said.rules == ([procedure] if procedure else []), (said, procedure)
                assert (said.stub, said.burns) == (len(dealer.stub), len(dealer.burns)), said
                if procedure:
                    event(procedure)
                if state.phase != "idle":  # else the hand is over, its cards put away
                    held = state.seat(seat).cards  # type: ignore[union-attr]
                    assert held == (tuple(dealer.hands[seat]) if known[seat] else ()), held
            elif state.phase == "showdown":
                waiting = [s for s in state.live() if not s.shown]
                s = waiting[0]
                if (
                    state.exposed
                    or data.draw(st.booleans())
                    or (len(waiting) == 1 and all(not x.shown for x in state.live()))
                ):
                    state = step(state, Show(seat=s.number, cards=dealer.hands[s.number]), log)
                else:
                    state = step(state, Muck(seat=s.number), log)
            else:
                raise AssertionError(f"unexpected phase {state.phase}")
        if any(isinstance(e, ExposeAll) for e in log[start:]):
            event("an all-in turned up after the last draw")
        event(f"last draw reached: {street or 'none'}")
    rebuilt = rebuild(config, log)
    assert encoded(rebuilt) == encoded(state)


def random_choice(data: st.DataObject) -> Choose:
    def choose(state: TableState, prompt: Prompt) -> Act:
        return drawn_action(data, prompt, largest=data.draw(st.booleans()))

    return choose


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=draw_tables(), data=st.data())
def test_random_draw_hands_keep_every_invariant(config: TableConfig, data: st.DataObject) -> None:
    play_hands(config, data, data.draw(st.integers(1, 3)), random_choice(data))


@st.composite
def full_draw_tables(draw: st.DrawFn) -> TableConfig:
    """Five or six players with deep stacks: the hands that run the stub short."""
    n = draw(st.integers(5, 6))
    seats = sorted(draw(st.lists(st.integers(1, 10), min_size=n, max_size=n, unique=True)))
    return TableConfig(
        game=draw(st.sampled_from(GAMES)),
        blinds=(50, 100),
        seats=dict.fromkeys(seats, 100_000),
        button=draw(st.sampled_from(seats)),
        chips=(1,),
    )


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=full_draw_tables(), data=st.data())
def test_random_draws_run_the_stub_short(config: TableConfig, data: st.DataObject) -> None:
    """Everyone calls or checks (a seat may fold on the round drawn for it) and draws many
    cards: the stub runs short and every line of RP-25 is met (the statistics name how often
    each procedure came)."""
    streets = ["predraw", "first_draw", "second_draw", "third_draw", "draw", ""]
    folds = {n: data.draw(st.sampled_from(streets)) for n in config.seats}

    def choose(state: TableState, prompt: Prompt) -> Act:
        if folds[prompt.seat] == state.street and "fold" in prompt.options:
            return Act(seat=prompt.seat, declare="fold")
        if "check" in prompt.options:
            return Act(seat=prompt.seat, declare="check")
        return Act(seat=prompt.seat, declare="call")

    size = HOLE[config.game]
    counts = st.sampled_from([size, size, size, size - 1, size - 2, 1, 0])
    play_hands(config, data, 1, choose, counts)
