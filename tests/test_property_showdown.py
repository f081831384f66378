"""Property test of the showdown (2026 TDA rules 13, 14-A, 16-A, 17, 18-B, 20, 21).

Random hands on random tables are bet to a showdown (all-ins included), where the dealer then
does random things: tables a hand (naming its cards or not), shows one card, mucks, awards a pot
to random seats. The engine refuses what the rules forbid; the test never tells it what is
right. Whatever happened, at the end of every hand:

- no pot goes to a hand that was not tabled while a tabled hand contested it (14-A, 20; an
  untabled hand wins only as the last live hand, 18-B), and no pot goes to a hand over a tabled
  hand the engine could read that beats it (13);
- after an all-in's exposure no hand in the pots was mucked (17);
- every share is a whole number of the smallest chip in play, and a split gives its odd chips
  to the first winners left of the button (21-A); no chip is lost or made.

Every table is built so that its smallest chip in play is known: the small blind is one such
chip, every stack and bet a whole number of them, and smaller denominations on the config's
list are not needed by anything (they have been raced off, 26-A).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import (
    Act,
    Award,
    Awarded,
    Command,
    Deal,
    Event,
    ExposeAll,
    HandEnd,
    Muck,
    Prompt,
    Show,
    StartHand,
    TableConfig,
)
from server.engine import TableState, apply, evolve, rebuild
from server.engine.games import HI_LO as HI_LO_GAMES
from server.engine.games import hole_count
from server.engine.hands import best_high, best_low
from server.engine.pots import layered, seats_from_button

GAMES = ["NLHE", "PLO", "PLO8"]
CHIP_SETS = [(25, 100, 500, 1000), (100, 500, 1000, 5000), (1, 5, 25, 100), (5, 25, 100, 500)]
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
RANDOM_SHOWDOWN_STEPS = 12
"""Random dealer commands at a showdown before an honest dealer settles the hand."""


@st.composite
def tables(draw: st.DrawFn) -> tuple[TableConfig, int]:
    """A table and its smallest chip in play (the small blind)."""
    chips = draw(st.sampled_from(CHIP_SETS))
    unit = chips[draw(st.integers(0, len(chips) - 2))]
    big = unit * draw(st.sampled_from([2, 4]))
    numbers = draw(st.lists(st.integers(1, 10), min_size=2, max_size=6, unique=True))
    stacks = {n: unit * draw(st.integers(big // unit + 1, 100 * big // unit)) for n in numbers}
    config = TableConfig(
        game=draw(st.sampled_from(GAMES)),
        blinds=(unit, big),
        seats=stacks,
        button=draw(st.sampled_from(sorted(numbers))),
        chips=chips,
    )
    return config, unit


def step(state: TableState, command: Command, log: list[Event]) -> tuple[TableState, list[Event]]:
    """Apply a command the engine may refuse (a refusal changes nothing)."""
    after, events = apply(state, command)
    log.extend(e for e in events if e.__class__.__name__ != "ErrorEvent")
    return after, events


def bet(data: st.DataObject, prompt: Prompt, unit: int) -> Act:
    """A betting action, leaning to calls and all-ins so that hands reach the showdown."""
    if "fold" in prompt.options and data.draw(st.integers(0, 7)) == 0:
        return Act(seat=prompt.seat, declare="fold")
    passive = "call" if "call" in prompt.options else "check"
    aggressive = [o for o in prompt.options if o in ("bet", "raise")]
    choice = data.draw(st.sampled_from([*[passive] * 6, *aggressive, "all_in"]))
    if choice in ("bet", "raise"):
        assert prompt.min_raise_to is not None and prompt.max_raise_to is not None
        low, high = prompt.min_raise_to // unit, prompt.max_raise_to // unit
        units = data.draw(st.integers(low, min(high, 3 * low)))
        return Act(seat=prompt.seat, declare="raise", amount=units * unit)
    return Act(seat=prompt.seat, declare=choice)  # type: ignore[arg-type]


def random_dealer(data: st.DataObject, state: TableState, hole: dict[int, list[str]]) -> Command:
    """Anything a dealer might record at a showdown, right or wrong."""
    seat = data.draw(st.sampled_from([s for s in state.live()]))
    kind = data.draw(st.sampled_from(["show", "show_named", "show_one", "muck", "award"]))
    if kind == "show":
        return Show(seat=seat.number)
    if kind == "show_named":
        return Show(seat=seat.number, cards=hole[seat.number])
    if kind == "show_one":
        return Show(seat=seat.number, cards=[data.draw(st.sampled_from(hole[seat.number]))])
    if kind == "muck":
        return Muck(seat=seat.number)
    pots = layered(state)
    index = data.draw(st.integers(0, len(pots) - 1))
    eligible = list(pots[index].eligible)
    winners = data.draw(st.lists(st.sampled_from(eligible), min_size=1, unique=True))
    return Award(pot=index, winners=winners)


def honest_dealer(state: TableState, hole: dict[int, list[str]]) -> Command:
    """Table every hand still untabled with its cards, then award what the engine cannot read."""
    for s in state.live():
        if not (s.shown or state.exposed):
            return Show(seat=s.number, cards=hole[s.number])
    index = next(i for i in range(len(layered(state))) if i not in state.awards)
    eligible = {n: hole[n] for n in layered(state)[index].eligible}
    winners = set(best_high(state.game, eligible, state.board))
    if state.game in HI_LO_GAMES:
        winners |= set(best_low(state.game, eligible, state.board))
    return Award(pot=index, winners=sorted(winners))


def justified(game: str, board: list[str], winner: int, rivals: dict[int, list[str]]) -> bool:
    """The winner's hand is not beaten by the rivals' (hi/lo: it has the best high or low)."""
    if game in HI_LO_GAMES:
        return winner in best_high(game, rivals, board) + best_low(game, rivals, board)
    return winner in best_high(game, rivals, board)


def check_winners(t: TableState, index: int, winners: list[int]) -> None:
    """14-A, 18-B, 13: on the table as the engine knew it when pot ``index`` was awarded."""
    contenders = [s for n in layered(t)[index].eligible if (s := t.seat(n)) is not None]
    tabled = [s for s in contenders if s.shown or t.exposed]
    for w in winners:
        s = t.seat(w)
        assert s is not None
        if not (s.shown or t.exposed):
            assert len(contenders) == 1, f"14-A: untabled seat {w} won pot {index} over {tabled}"
        if s.cards and len(t.board) == 5:
            rivals = {r.number: list(r.cards) for r in tabled if r.cards}
            rivals[w] = list(s.cards)
            assert justified(t.game, t.board, w, rivals), f"13: seat {w} won pot {index}"


def check_hand_end(t: TableState, e: HandEnd, log: list[Event], unit: int) -> None:
    """17 and 21 on the table as it was when the hand ended; 13 and 14-A for the pots the
    engine read itself (the dealer's awards are checked as they are made)."""
    exposed = [n for x in log if isinstance(x, ExposeAll) for n in x.seats]
    for seat in exposed:
        s = t.seat(seat)
        assert s is not None and not s.mucked, f"17: seat {seat} was mucked after the exposure"
    for pot in e.pots:
        assert sum(pot.shares.values()) == pot.amount
        assert all(c % unit == 0 for c in pot.shares.values()), (unit, pot)
        if pot.pot not in t.awards:
            check_winners(t, pot.pot, pot.winners)
        if len(pot.shares) > 1 and t.game not in HI_LO_GAMES:
            order = seats_from_button(t, list(pot.shares))
            amounts = [pot.shares[n] for n in order]
            assert amounts == sorted(amounts, reverse=True), f"21-A: {pot}"
            assert amounts[0] - amounts[-1] <= unit, f"21-A: {pot}"


def check_events(was: TableState, events: list[Event], log: list[Event], unit: int) -> None:
    """Each award and the hand's end, checked on the table just before it (``was`` is the
    table before the command, brought forward through the command's events)."""
    view = was.clone()
    for e in events:
        if isinstance(e, Awarded):
            check_winners(view, e.pot, e.winners)
        elif isinstance(e, HandEnd):
            check_hand_end(view, e, log, unit)
        evolve(view, e)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), data=st.data())
def test_13_14_17_21_showdowns_award_tabled_hands_in_whole_chips(
    table: tuple[TableConfig, int], data: st.DataObject
) -> None:
    config, unit = table
    deck = list(data.draw(st.permutations(DECK)))
    state = rebuild(config, [])
    log: list[Event] = []
    seats = [s.number for s in state.seats]
    hole = {n: [deck.pop() for _ in range(hole_count(config.game))] for n in seats}
    entered = data.draw(st.booleans())
    before = sum(s.stack for s in state.seats)
    state, _ = step(state, StartHand(cards=hole if entered else {}), log)
    random_steps = 0
    for _ in range(400):
        if state.phase == "idle":
            break
        prompt = next((e for e in reversed(log) if isinstance(e, Prompt)), None)
        showdown = state.phase == "showdown" or (state.phase == "deal" and state.exposed)
        if showdown and random_steps < RANDOM_SHOWDOWN_STEPS and data.draw(st.integers(0, 3)):
            random_steps += 1
            command = random_dealer(data, state, hole)
        elif state.phase == "showdown":
            command = honest_dealer(state, hole)
        elif state.phase == "deal":
            n = 3 if state.next_street == "flop" else 1
            command = Deal(street=state.next_street, cards=[deck.pop() for _ in range(n)])  # type: ignore[arg-type]
        else:
            assert state.phase == "betting" and prompt is not None
            command = bet(data, prompt, unit)
        was = state
        state, events = step(state, command, log)
        if any(isinstance(e, Awarded | HandEnd) for e in events):
            check_events(was, events, log, unit)
    assert state.phase == "idle", f"the hand is stuck waiting on {state.waiting_on()}"
    assert sum(s.stack for s in state.seats) + state.removed == before
