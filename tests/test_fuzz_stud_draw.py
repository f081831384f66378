"""Fuzzing the stud, razz, draw and mixed tables with the dealer station's mistakes.

The dealer station records what happened at the table, mistakes included: a wrong seat number
tapped, a card typed twice, a street dealt that is not due, a draw keyed for a seat that
already drew, a hand shown with cards it does not hold. Each such command reaches the engine
exactly as sent, so the engine must answer every one it cannot take with a typed error naming
why (a message, and a rule or a code) and change nothing; and any command it does take must
keep the table whole: the event log still rebuilds the state, and no chip appears or vanishes.

For 7S, 7S8, RAZZ, 27TD, 27SD, BADUGI and a mixed rotation (the tables of
``tests/test_bots_games.py``), Hypothesis lets the bot dealer play a drawn number of commands
(now and then on to its next deal, draw, show, action or new hand, or just past it), then sends
one to three hostile or mistaken commands, the bot playing a few commands between them. Half
are the bot's own next command with a twist (a seat, a card, a count, a street, an amount
changed: the mistakes a person at the station makes), the rest commands of every kind built
from what is at the table (folded seats, cards in play, ``??``, seats nobody sits in, a draw
when none is under way, pots that do not exist, a stud level without its bring-in, a community
card on seventh street when each hand is due its own and the other way round). Every command
goes through the wire's decoder first, as it would in the service: what the decoder refuses
(seat 0 or 11, a negative amount, a draw whose cards do not match its count) never reaches the
engine. Then, for each command the engine sees:

- ``apply`` raises nothing and leaves the state it was given as it was;
- refused: a single ``error`` with a message and a rule or a code, and the same state back;
- accepted: the whole event log rebuilds the new state; the chips on the table (stacks, bets,
  pots, chips taken out of play) are the same but for the chips the command's events bring in
  or take off (a player seated or removed, a rebuy, a color-up); the table waits on someone;
  its staff and public views can be built;
- then the bot plays 50 more commands from there, fed the events, every one checked the same
  way (the log rebuilt at the end), the floor answering its calls with their first option; a
  bot that lost its picture of the table (its command refused after a mistake it did not
  make) picks it up again from the staff view. The bot itself never raises, whatever the
  table was given (a hand corrected, cards not entered): it is the demo's dealer.

The engine bugs this found are pinned at the end of the module by regression tests (they
raised ``KeyError`` before their fix): a stud street dealt before the betting on the street
before it was over (RP-5-D), and a flop game's board card not entered (``??``).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any, get_args

import msgspec
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from clients.bots import DealerBot
from clients.demo import LIVELY
from protocol import ErrorEvent, FloorCall, TableConfig
from protocol.codec import ProtocolError, decode_command
from protocol.commands import (
    Act,
    Award,
    Command,
    Deal,
    Draw,
    IrregularityKind,
    ReleaseCards,
    ReleaseHands,
    Ruling,
    Show,
    StartHand,
)
from protocol.events import (
    ChipsAdded,
    ColoredUp,
    Event,
    HandEnd,
    Irregular,
    PlayerAdded,
    PlayerRemoved,
)
from server.engine import TableState, apply, new_table, rebuild
from server.views import public_view, staff_view
from tests.game_tables import CALLING, HORSE, TABLES, stud

STYLES = (CALLING, LIVELY)
AFTER = 50
"""Commands the bot plays on after an accepted mistake."""

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
MALFORMED = ["1x", "AS", "", "10h", "Ah "]
"""Cards the decoder refuses: they never reach the engine."""
STREETS = ["flop", "turn", "river", "fourth", "fifth", "sixth", "seventh", "preflop", "third"]
DECLARATIONS = [
    "fold",
    "check",
    "call",
    "bet",
    "raise",
    "all_in",
    "complete",
    "pot",
    "bring_in",
    None,
]
IRREGULARITIES = list(get_args(IrregularityKind))
GAMES = ["7S", "7S8", "RAZZ", "27TD", "27SD", "BADUGI", "LHE", "NLHE", "PLO8", "XX"]

Raw = dict[str, Any]
Played = list[Event]


# --- the invariants --------------------------------------------------------------------------


def encoded(state: TableState) -> bytes:
    return msgspec.json.encode(state)


def chips_on_table(state: TableState) -> int:
    """Stacks (players seated during the hand too), bets and pots, and chips taken out of play:
    ``tests.test_properties.chips_on_table`` with the seats waiting for the next hand."""
    stacks = sum(s.stack for s in [*state.seats, *state.arrived])
    return stacks + state.pot_total() + state.removed


def chips_brought(events: list[Event]) -> int:
    """Chips the events rightly bring to the table or take off it: a player seated (9) or
    removed, a rebuy or add-on (29), a color-up's leftover chips and the race's (26)."""
    total = 0
    for e in events:
        if isinstance(e, PlayerAdded):
            total += e.stack
        elif isinstance(e, PlayerRemoved):
            total -= e.stack
        elif isinstance(e, ChipsAdded):
            total += e.chips
        elif isinstance(e, ColoredUp):
            total += sum(e.won.values()) - sum(e.removed.values())
    return total


def refusal(events: list[Event]) -> ErrorEvent | None:
    if len(events) == 1 and isinstance(events[0], ErrorEvent):
        return events[0]
    return None


def checked(
    config: TableConfig, state: TableState, command: Command, log: Played, replay: bool = True
) -> tuple[TableState, list[Event]]:
    """Apply ``command`` and check every invariant; the log grows by what it made. ``replay``:
    rebuild the state from the log now (else the caller does, once, at the end)."""
    before = encoded(state)
    after, events = apply(state, command)  # any exception is an engine bug: let it out
    assert encoded(state) == before, f"{command!r} changed the state it was given"
    error = refusal(events)
    if error is not None:
        assert after is state or encoded(after) == before, f"{command!r} refused, state changed"
        assert error.message, f"{command!r} refused without a message: {error!r}"
        assert error.rule or error.code, f"{command!r} refused naming no rule or code"
        return state, events
    assert not any(isinstance(e, ErrorEvent) for e in events), (command, events)
    brought = chips_brought(events)
    assert chips_on_table(after) == chips_on_table(state) + brought, (
        f"{command!r}: {chips_on_table(state):,} + {brought:,} chips became "
        f"{chips_on_table(after):,}"
    )
    assert all(s.stack >= 0 and s.paid >= 0 for s in after.seats), command
    assert after.waiting_on(), f"{command!r}: nobody to wait on ({after.phase})"
    log.extend(events)
    if replay:
        assert encoded(rebuild(config, log)) == encoded(after), f"{command!r}: replay differs"
    return after, events


def unblock(state: TableState) -> Command | None:
    """What the floor does when the table waits on it: a call answered with its first option,
    an all-in held for hand-for-hand released (RP-8-F), a hold on the table lifted."""
    if state.floor:
        return Ruling(call=state.floor[0].call, option=state.floor[0].options[0])
    if state.cards_held:
        return ReleaseCards()
    if state.phase == "idle" and state.holds:
        return ReleaseHands(hold=next(iter(state.holds)))
    return None


def play(state: TableState, bot: DealerBot, commands: int) -> tuple[TableState, Played]:
    """The bot's commands, the floor answering each blocking call with its first option (as
    ``tests/test_bots_games.play``); the events they made."""
    played: Played = []
    for _ in range(commands):
        command = bot.pending
        assert command is not None, f"the bot stalled after {played[-3:]}"
        while command is not None:
            state, events = apply(state, command)
            assert refusal(events) is None, (command, events[0])
            played.extend(events)
            for e in events:
                bot.see(e)
            calls = [e for e in events if isinstance(e, FloorCall) and e.blocking]
            command = Ruling(call=calls[0].call, option=calls[0].options[0]) if calls else None
    return state, played


def follow(bot: DealerBot, events: list[Event]) -> None:
    """Feed the bot the events (it must take any: an exception is a bug of the bot)."""
    for e in events:
        bot.see(e)


def picked_up(config: TableConfig, state: TableState, seed: int) -> DealerBot:
    """A new bot taking the table up from the staff view."""
    view = staff_view(state)  # a view that cannot be built is a bug: let it out
    bot = DealerBot(config, seed, CALLING)
    bot.resume(view)
    return bot


def play_on(
    config: TableConfig,
    state: TableState,
    bot: DealerBot | None,
    log: Played,
    seed: int,
    commands: int,
) -> tuple[TableState, DealerBot | None]:
    """The bot plays on, each command checked; a bot whose command is refused or that cannot
    follow the table takes it up again from the staff view, three times at most. At the end
    the whole log rebuilds the state."""
    lost = 0
    for _ in range(commands):
        command = unblock(state) or (bot.pending if bot is not None else None)
        if command is None and lost < 3:
            lost += 1
            bot = picked_up(config, state, seed + 1_000 * lost)
            command = bot.pending
        if command is None:
            event("bot: stopped (the table waits, or the bot cannot deal it)")
            break
        state, events = checked(config, state, command, log, replay=False)
        if refusal(events) is not None or bot is None:
            bot = None
        else:
            follow(bot, events)  # picked up again at the next command
    else:
        if commands == AFTER:
            event("bot: played on 50 commands")
    assert encoded(rebuild(config, log)) == encoded(state), "the log after a mistake differs"
    return state, bot


# --- what a dealer station gets wrong --------------------------------------------------------


class Table:
    """What is at the table at the moment of the mistake: the seats and the cards in play."""

    def __init__(self, state: TableState, pending: Command | None) -> None:
        self.state = state
        self.pending = pending
        self.numbers = [s.number for s in state.seats]
        self.live = [s.number for s in state.live()]
        self.folded = [s.number for s in state.seats if s.dealt and (s.folded or s.mucked)]
        self.empty = [n for n in range(1, 11) if n not in self.numbers]
        held = [c for s in state.seats for c in (*s.cards, *s.up, *s.face_up)]
        self.in_play = sorted({c for c in (*held, *state.board, *state.muck) if c != "??"})
        # The stub's cards; with every card in play (the muck counted), any card.
        self.unseen = [c for c in DECK if c not in set(self.in_play)] or DECK
        level = state.level
        self.bring_in, self.min_bet = level.bring_in, level.min_bet
        self.denominations = list(state.chips)

    def held(self, seat: int) -> list[str]:
        s = self.state.seat(seat)
        return [] if s is None else [*s.cards, *s.up]


def among(values: list[Any]) -> st.SearchStrategy[Any]:
    return st.sampled_from(values) if values else st.nothing()


def seats(t: Table) -> st.SearchStrategy[int]:
    """A seat as a station mistypes it: 0 to 11, a folded seat, a live one, the one to act, the
    one next to it, an empty seat."""
    to_act = t.state.to_act
    near = [] if to_act is None else [to_act - 1, to_act + 1]
    return st.one_of(
        st.integers(0, 11),
        among(t.folded),
        among(t.live),
        among([to_act] if to_act is not None else []),
        among(near),
        among(t.empty),
    )


def cards(t: Table) -> st.SearchStrategy[str]:
    """A card: one already in play, ``??``, one still in the stub, now and then a typo."""
    return st.one_of(
        among(t.in_play), st.just("??"), among(t.unseen), st.sampled_from(MALFORMED[:2])
    )


def card_lists(t: Table, most: int = 8) -> st.SearchStrategy[list[str]]:
    return st.lists(cards(t), max_size=most)


def amounts(t: Table) -> st.SearchStrategy[int]:
    """Amounts: negative, nothing, between the bring-in and the completion, a chip short of a
    bet, a stack and a chip more, beyond any table."""
    s = t.state.seat(t.state.to_act or 0)
    stack = 0 if s is None else s.stack + s.bet
    bet = t.state.current_bet
    special = {-100, -1, 0, 1, t.bring_in - 1, t.bring_in, t.bring_in + 1, t.min_bet - 1}
    special |= {(t.bring_in + t.min_bet) // 2, t.min_bet, 2 * t.min_bet, 3 * t.min_bet}
    special |= {bet, bet + 1, 2 * bet, stack, stack + 1, 10**15, 10**15 + 1, 2**53}
    return st.one_of(st.sampled_from(sorted(special)), st.integers(-10, 10**6))


def chip_lists(t: Table) -> st.SearchStrategy[list[int]]:
    denomination = st.sampled_from(t.denominations)
    odd = st.sampled_from([-25, 0, 1, 3, 10**15])
    return st.lists(st.one_of(denomination, denomination, denomination, odd), max_size=6)


def seat_cards(t: Table) -> st.SearchStrategy[dict[int, list[str]]]:
    """Cards by seat: every live seat, or folded and empty seats too, or some left out; a card
    each, or none, or two."""
    keys = st.one_of(
        st.just(t.live),
        st.lists(seats(t), max_size=9, unique=True),
        st.just([*t.live, *t.folded]),
        st.just(t.live[1:]),
    )
    return keys.flatmap(
        lambda ns: st.fixed_dictionaries(
            {n: st.one_of(st.lists(cards(t), min_size=1, max_size=1), card_lists(t, 3)) for n in ns}
        )
    )


@st.composite
def twisted_cards(draw: st.DrawFn, t: Table, given: list[str]) -> list[str]:
    """A list of cards as a station gets it wrong: one replaced, one left out, one too many,
    all unknown, or other cards altogether."""
    how = draw(st.sampled_from(["replace", "drop", "extra", "unknown", "other", "empty"]))
    out = list(given)
    if how == "replace" and out:
        out[draw(st.integers(0, len(out) - 1))] = draw(cards(t))
    elif how == "drop" and out:
        out.pop(draw(st.integers(0, len(out) - 1)))
    elif how == "extra":
        out.append(draw(cards(t)))
    elif how == "unknown":
        out = ["??"] * len(out)
    elif how == "other":
        out = draw(st.lists(cards(t), min_size=len(out), max_size=len(out)))
    else:
        out = []
    return out


@st.composite
def twisted_seat_cards(
    draw: st.DrawFn, t: Table, given: dict[int, list[str]]
) -> dict[int, list[str]]:
    """Cards by seat gone wrong: a seat left out, a seat added (folded, empty, any), a seat's
    cards given to another, one seat's cards twisted."""
    out = dict(given)
    how = draw(st.sampled_from(["drop", "add", "move", "twist", "empty"]))
    keys = sorted(out)
    if how == "drop" and keys:
        del out[draw(st.sampled_from(keys))]
    elif how == "add":
        out[draw(seats(t))] = draw(card_lists(t, 2))
    elif how == "move" and keys:
        out[draw(seats(t))] = out.pop(draw(st.sampled_from(keys)))
    elif how == "twist" and keys:
        key = draw(st.sampled_from(keys))
        out[key] = draw(twisted_cards(t, out[key]))
    elif how == "empty":
        out = {}
    return out


@st.composite
def twisted_draw(draw: st.DrawFn, t: Table, given: Draw) -> Raw:
    """The bot's draw gone wrong, keeping ``count`` as long as the cards named (else the
    decoder refuses it): another seat's turn, a card more or fewer, a discard the seat does
    not hold, a new card already in play or just thrown, unknown cards, the cards left out."""
    count, thrown, new = given.count, list(given.thrown), list(given.cards)
    held = t.held(given.seat)
    seat = given.seat
    how = draw(
        st.sampled_from(["seat", "more", "fewer", "not_held", "in_play", "unknown", "blank"])
    )
    if how == "seat":
        seat = draw(seats(t))
    elif how == "more":
        spare = [c for c in held if c not in thrown] or t.unseen
        thrown.append(draw(st.sampled_from(spare)))
        new.append(draw(st.sampled_from(t.unseen)))
        count += 1
    elif how == "fewer" and count:
        thrown, new, count = thrown[:-1], new[:-1], count - 1
    elif how == "not_held" and thrown:
        thrown[-1] = draw(st.sampled_from([c for c in DECK if c not in held]))
    elif how == "in_play" and new:
        new[-1] = draw(st.sampled_from([*t.in_play, *thrown] or t.unseen))
    elif how == "unknown":
        which = draw(st.sampled_from(["thrown", "cards"]))
        thrown, new = (["??"] * count, new) if which == "thrown" else (thrown, ["??"] * count)
    elif how == "blank":
        thrown, new = [], []
        count = draw(st.integers(0, 5))
    return {"type": "draw", "seat": seat, "count": count, "thrown": thrown, "cards": new}


@st.composite
def draws(draw: st.DrawFn, t: Table) -> Raw:
    """A draw built from the table, whether a draw is under way or not: a seat, its count of
    discards from its hand (or not), as many new cards from the stub, in play or unknown."""
    seat = draw(seats(t))
    held = t.held(seat)
    count = draw(st.integers(0, 5))
    own = st.permutations(held).map(lambda h: list(h[:count]))
    thrown = draw(
        st.one_of(
            own if count <= len(held) else st.nothing(),
            st.lists(cards(t), min_size=count, max_size=count),
            st.just([]),
        )
    )
    new = draw(st.one_of(st.lists(cards(t), min_size=count, max_size=count), st.just([])))
    return {"type": "draw", "seat": seat, "count": count, "thrown": thrown, "cards": new}


@st.composite
def irregularities(draw: st.DrawFn, t: Table) -> Raw:
    """An irregularity as the dealer reports it: a seat (the one to act, another, one that
    folded) and cards: its own, one more or fewer, one card of its hand or of the stub."""
    seat = draw(st.one_of(st.none(), seats(t)))
    held = t.held(seat or 0)
    options = [[], held, held[:-1], ["??"] * len(held)]
    options += [[c] for c in held[-2:]]
    picked = draw(
        st.one_of(
            st.sampled_from(options),
            st.sampled_from(t.unseen).map(lambda c: [*held, c]),
            st.sampled_from(t.unseen).map(lambda c: [c]),
            card_lists(t),
        )
    )
    kind = draw(st.sampled_from([*IRREGULARITIES, "dealer_asleep"]))
    return {"type": "irregularity", "kind": kind, "seat": seat, "cards": picked}


def builtins_of(command: Command) -> Raw:
    """A command as the station sends it: every field, its ``type`` tag."""
    raw: Raw = {"type": type(command).__struct_config__.tag}
    for name in type(command).__struct_fields__:
        raw[name] = msgspec.to_builtins(getattr(command, name))
    return raw


@st.composite
def twisted(draw: st.DrawFn, t: Table) -> Raw:
    """The bot's next command, right but for one or two things a person at the station got
    wrong: a seat, a card, a count, a street, a declaration, an amount; seventh street's cards
    as one community card or as a card each, the other way round from what was due."""
    assert t.pending is not None
    if isinstance(t.pending, Draw) and draw(st.booleans()):
        return draw(twisted_draw(t, t.pending))
    raw = builtins_of(t.pending)
    fields = sorted(k for k in raw if k != "type")
    for _ in range(draw(st.integers(1, 2)) if fields else 0):
        key = draw(st.sampled_from(fields))
        value = raw[key]
        if key in ("seat", "about", "of"):
            raw[key] = draw(seats(t))
        elif key == "button":
            raw[key] = draw(st.one_of(st.none(), seats(t)))
        elif key in ("absent", "exposed"):
            raw[key] = draw(st.lists(seats(t), max_size=3))
        elif key in ("cards", "thrown") and isinstance(value, list):
            raw[key] = draw(twisted_cards(t, value))
        elif key in ("cards", "up", "down") and isinstance(value, dict):
            raw[key] = draw(twisted_seat_cards(t, value))
        elif key == "street":
            raw[key] = draw(st.sampled_from(STREETS))
        elif key in ("count", "pot", "call"):
            raw[key] = draw(st.sampled_from(sorted({value - 1, value + 1, 0, 1, 5, 6, -1})))
        elif key == "declare":
            raw[key] = draw(st.sampled_from(DECLARATIONS))
        elif key in ("amount", "told"):
            raw[key] = draw(amounts(t))
        elif key == "chips" and isinstance(value, list):
            raw[key] = draw(chip_lists(t))
        elif key == "winners":
            raw[key] = draw(st.lists(seats(t), min_size=1, max_size=3))
        elif key == "option":
            raw[key] = draw(st.sampled_from(["call", "fold", "yes", "", "raise"]))
        elif isinstance(value, bool):
            raw[key] = not value
    if raw["type"] == "deal" and raw.get("street") == "seventh" and draw(st.booleans()):
        # RP-10-H: a community card when each hand was due its own, or the other way round.
        down = raw.get("down") or {}
        if down:
            raw["down"], raw["cards"] = {}, [draw(cards(t))]
        else:
            raw["cards"], raw["down"] = [], {n: [draw(cards(t))] for n in t.live}
    return raw


def spoken_with_amount(raw: Raw) -> Raw:
    """The words of an amount come with the amount (else the decoder refuses the act)."""
    if "amount" not in raw:
        raw.pop("spoken", None)
    return raw


def command_kinds(t: Table) -> dict[str, Callable[[], st.SearchStrategy[Raw]]]:
    """Every kind of command, built from what is at the table."""
    seat, some_cards = seats(t), card_lists(t)
    text = st.sampled_from(["", "dealer error", "x" * 201])
    optional = st.one_of(st.none(), seat)

    def fixed(
        kind: str, required: Raw, optional_fields: Raw | None = None
    ) -> st.SearchStrategy[Raw]:
        return st.fixed_dictionaries(
            {"type": st.just(kind), **required}, optional=optional_fields or {}
        )

    def held_or_not() -> st.SearchStrategy[list[str]]:
        """A seat's own cards, part of them, another seat's, or any."""
        hands = [t.held(n) for n in t.numbers if t.held(n)]
        return st.one_of(
            among(hands),
            among(hands).map(lambda h: h[:-1]),
            among(hands).map(lambda h: ["??"] * len(h)),
            some_cards,
        )

    def levels() -> st.SearchStrategy[Raw]:
        """A level: a stud game without its bring-in, a draw game with one, limits no table
        deals, a rotation in another order."""
        rotation = st.one_of(
            st.just([]),
            st.permutations([msgspec.to_builtins(g) for g in HORSE]).map(list),
            st.just([msgspec.to_builtins(HORSE[3])]),
        )
        return fixed(
            "level",
            {"blinds": st.sampled_from([[0, 0], [50, 100], [100, 200], [100, 50], [-1, 2]])},
            {
                "ante": st.sampled_from([0, 25, -5]),
                "bba": st.booleans(),
                "min_bet": st.sampled_from([0, 100, 200, 99]),
                "bring_in": st.sampled_from([0, 25, 50, 150]),
                "game": st.sampled_from(GAMES),
                "rotation": rotation,
            },
        )

    return {
        "act": lambda: fixed(
            "act",
            {"seat": seat},
            {
                "declare": st.sampled_from(DECLARATIONS),
                "amount": amounts(t),
                "chips": chip_lists(t),
                "first": st.sampled_from(["verbal", "chips", "together"]),
                "prior": st.sampled_from(["left", "pulled", "partly_pulled"]),
                "as_played": st.booleans(),
                "spoken": st.sampled_from(["five", "a hundred", "", "two and a half"]),
                "at": st.integers(0, 10**12),
            },
        ).map(spoken_with_amount),
        "deal": lambda: fixed(
            "deal",
            {"street": st.sampled_from([t.state.next_street or "fourth", *STREETS])},
            {
                "cards": some_cards,
                "burned": st.booleans(),
                "up": seat_cards(t),
                "down": seat_cards(t),
            },
        ),
        "draw": lambda: draws(t),
        "show": lambda: fixed("show", {"seat": seat}, {"cards": held_or_not()}),
        "muck": lambda: fixed("muck", {"seat": seat}),
        "award": lambda: fixed(
            "award",
            {"winners": st.lists(seat, min_size=0, max_size=11)},
            {"pot": st.sampled_from([0, 1, 2, 5, -1, 10**6])},
        ),
        "level": levels,
        "irregularity": lambda: irregularities(t),
        "misdeal": lambda: fixed(
            "misdeal", {}, {"reason": text, "cards": seat_cards(t), "up": seat_cards(t)}
        ),
        "fouled_deck": lambda: fixed("fouled_deck", {}, {"reason": text}),
        "correction": lambda: fixed(
            "correction",
            {"reason": st.sampled_from(["dealer error", ""])},
            {"count": st.sampled_from([0, 1, 2, 3, 50, 10**6, -1]), "by": text},
        ),
        "ruling": lambda: fixed(
            "ruling",
            {
                "call": st.integers(-1, t.state.calls + 2),
                "option": st.sampled_from(["call", "fold", "", "burn", "misdeal", "raise"]),
            },
        ),
        "clock": lambda: fixed(
            "clock",
            {"at": st.integers(-1, 10**9)},
            {"seat": optional, "seconds": st.sampled_from([0, 1, 30, 3600, 3601])},
        ),
        "time": lambda: fixed("time", {"at": st.integers(-1, 10**12)}),
        "penalty": lambda: fixed(
            "penalty",
            {
                "seat": seat,
                "kind": st.sampled_from(["warning", "hands", "rounds", "chips", "disqualify"]),
            },
            {"count": st.integers(-1, 5), "chips": amounts(t), "reason": text},
        ),
        "ask": lambda: fixed(
            "ask",
            {"seat": seat, "question": st.sampled_from(["call_amount", "can_raise_if_call"])},
            {"about": optional},
        ),
        "count": lambda: fixed("count", {"seat": seat, "of": seat}, {"told": amounts(t)}),
        "call_floor": lambda: fixed("call_floor", {}, {"seat": optional, "reason": text}),
        "add_chips": lambda: fixed(
            "add_chips",
            {"seat": seat, "chips": amounts(t)},
            {"kind": st.sampled_from(["rebuy", "add_on", "gift"])},
        ),
        "add_player": lambda: fixed(
            "add_player", {"seat": seat, "stack": amounts(t)}, {"name": text}
        ),
        "remove_player": lambda: fixed("remove_player", {"seat": seat}),
        "color_up": lambda: fixed(
            "color_up",
            {"chips": st.sampled_from([[], [100, 500], [500, 100], [0, 100], [25], [1]])},
            {
                "removed": st.dictionaries(seat, amounts(t), max_size=3),
                "won": st.dictionaries(seat, amounts(t), max_size=3),
            },
        ),
        "hold_hands": lambda: fixed(
            "hold_hands", {"hold": st.sampled_from(["h4h", "", "break"])}, {"reason": text}
        ),
        "release_hands": lambda: fixed(
            "release_hands", {"hold": st.sampled_from(["h4h", "nothing"])}
        ),
        "hand_for_hand": lambda: fixed("hand_for_hand", {}, {"on": st.booleans()}),
        "release_cards": lambda: fixed("release_cards", {}),
        "set_button": lambda: fixed("set_button", {"seat": seat}),
        "start_hand": lambda: fixed(
            "start_hand",
            {},
            {
                "cards": seat_cards(t),
                "up": seat_cards(t),
                "button": optional,
                "absent": st.lists(seat, max_size=3),
                "exposed": st.lists(seat, max_size=3),
            },
        ),
    }


COMMON = [
    *("act", "deal", "draw", "show", "muck", "award", "level", "irregularity") * 2,
    *("correction", "misdeal", "irregularity", "draw"),
]
"""The commands a dealer station sends most, so most often sent wrong (irregularities and
draws more still), and corrections and misdeals, which play the hand again or undo it."""


@st.composite
def mistakes(draw: st.DrawFn, t: Table) -> Raw:
    """A hostile or mistaken command: half the time the bot's next command twisted, else one
    of every kind, the everyday ones (``COMMON``) five times as often as the rest."""
    if t.pending is not None and draw(st.booleans()):
        return draw(twisted(t))
    kinds = command_kinds(t)
    weighted = [*COMMON * 2, *kinds]
    return draw(kinds[draw(st.sampled_from(weighted))]())


# --- the test --------------------------------------------------------------------------------


def decoded(raw: Raw) -> Command | None:
    """The command the wire's decoder makes of ``raw``, or None where it refuses it."""
    try:
        return decode_command(msgspec.json.encode(raw))
    except ProtocolError:
        return None


EVERY = 50
"""Commands between two checkpoints of a bot's game."""
MOST = {"mixed": 3_000}
"""Commands the bot may play before the mistake: about 60 a hand, so 1,000 are some 16 hands,
and 3,000 take the mixed table through its rotation of eight games, three hands each."""


Checkpoint = tuple[TableState, int, DealerBot]


@functools.cache
def checkpoints(name: str, seed: int, style: int) -> tuple[list[Checkpoint], Played]:
    """The bot's game at one table, played once: the table, the length of the log and the bot
    every ``EVERY`` commands, and the whole log."""
    config = TABLES[name]
    bot, state = DealerBot(config, seed, STYLES[style]), new_table(config)
    log: Played = []
    saved: list[Checkpoint] = []
    for _ in range(MOST.get(name, 1_000) // EVERY):
        saved.append((state, len(log), copy.deepcopy(bot)))
        state, played = play(state, bot, EVERY)
        log += played
    return saved, log


PENDING: dict[str, tuple[type[Any], ...]] = {
    "any": (),
    "deal": (Deal,),
    "draw": (Draw,),
    "show": (Show,),
    "start": (StartHand,),
    "act": (Act,),
}
"""Where the mistake comes: after the drawn number of commands, or from there at the next
command of a kind (a deal, a draw, a show, a new hand, an action), where its mistakes are;
or just after that command (``then``): a street just dealt, a hand just started (before any
substantial action: a misdeal is still open), a seat that just drew."""


def played_to(name: str, data: st.DataObject) -> tuple[TableState, Played, DealerBot, int]:
    """The table after a drawn number of the bot's commands, the log and the bot."""
    seed = data.draw(st.integers(0, 7), label="seed")
    style = data.draw(st.integers(0, len(STYLES) - 1), label="style")
    commands = data.draw(st.integers(0, MOST.get(name, 1_000) - 1), label="commands")
    wanted = PENDING[data.draw(st.sampled_from(list(PENDING)), label="up to")]
    then = bool(wanted) and data.draw(st.booleans(), label="and past it")
    saved, full = checkpoints(name, seed, style)
    state, length, bot = saved[commands // EVERY]
    bot = copy.deepcopy(bot)
    state, played = play(state, bot, commands % EVERY)
    log = [*full[:length], *played]
    for _ in range(200):
        if not wanted or isinstance(bot.pending, wanted):
            break
        state, played = play(state, bot, 1)
        log += played
    if then:
        state, played = play(state, bot, 1)
        log += played
    return state, log, bot, seed


def fuzz(name: str, data: st.DataObject) -> None:
    """The bot plays to a drawn point; one to three mistakes follow, the bot playing a few
    commands between them; then the bot plays on."""
    config = TABLES[name]
    state, log, first, seed = played_to(name, data)
    bot: DealerBot | None = first
    for mistake in range(data.draw(st.integers(1, 3), label="mistakes")):
        if mistake:
            between = data.draw(st.integers(0, 5), label="bot commands between")
            state, bot = play_on(config, state, bot, log, seed, between)
        event(f"at: {state.game} {state.phase}")
        pending = bot.pending if bot is not None else None
        raw = data.draw(mistakes(Table(state, pending)), label="mistake")
        command = decoded(raw)
        if command is None:
            event(f"refused by the decoder: {raw['type']}")
            continue
        state, events = checked(config, state, command, log)
        error = refusal(events)
        if error is not None:
            event(f"refused: {type(command).__name__} ({error.code})")
            continue
        event(f"accepted: {type(command).__name__}")
        staff_view(state)  # the table the mistake left still shows: a view that raises is a bug
        public_view(state)
        if bot is not None:
            follow(bot, events)
    play_on(config, state, bot, log, seed, AFTER)


FUZZ = settings(
    max_examples=200,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


@pytest.mark.parametrize("name", list(TABLES))
@FUZZ
@given(data=st.data())
def test_a_mistaken_command_is_refused_unchanged_or_keeps_the_table_whole(
    name: str, data: st.DataObject
) -> None:
    """Whatever the station sends, the engine raises nothing; it refuses with a typed error and
    no change, or takes it and the table stays whole: replayable, every chip accounted for."""
    fuzz(name, data)


# --- what the fuzzing found: engine bugs, each with its test (KeyError before the fix) -------


@pytest.mark.parametrize("street", ["fourth", "fifth"])
def test_rp_5_d_a_stud_street_dealt_before_the_betting_ends_goes_back_into_the_stub(
    street: str,
) -> None:
    """The dealer deals the next stud street while the betting on this one is still open:
    RP-5-D (RP-10-G) — the cards go back into the stub, which is reshuffled, and the street
    is dealt again after the action with no extra burn. The up-cards are named (everyone saw
    them); nothing changes in the hand: the seat to act still acts. Before the fix: KeyError
    in ``irregular.early_cards``, which knew the flop, turn and river only."""
    config = stud("7S", players=2)
    state = new_table(config)
    log: Played = []
    start = StartHand(cards={1: ["As", "Kd"], 2: ["2c", "3d"]}, up={1: ["9h"], 2: ["4s"]})
    state, _ = checked(config, state, start, log)
    if street == "fifth":
        for command in (
            Act(seat=2, declare="bring_in"),
            Act(seat=1, declare="call"),
            Deal(street="fourth", up={1: ["Qh"], 2: ["5d"]}),
        ):
            state, _ = checked(config, state, command, log)
    before = (state.phase, state.street, state.to_act)
    early = Deal(street=street, up={1: ["Jc"], 2: ["6h"]})  # type: ignore[arg-type]
    state, events = checked(config, state, early, log)
    ruled = next(e for e in events if isinstance(e, Irregular))
    assert (ruled.kind, ruled.rules, ruled.reshuffle) == ("early_cards", ["RP-5-D"], ["Jc", "6h"])
    assert ruled.text.startswith(f"{street.capitalize()} street came before the")
    assert "no extra burn (RP-5-D)" in ruled.text
    assert (state.phase, state.street, state.to_act) == before


def test_rp_5_d_a_seventh_street_down_card_dealt_early_is_counted_never_named() -> None:
    """Seventh street's down-cards dealt while sixth street is bet: back into the stub
    (RP-5-D), named only by their count — a down-card is never shown."""
    config = stud("7S", players=2)
    state = new_table(config)
    log: Played = []
    commands: list[Command] = [
        StartHand(cards={1: ["As", "Kd"], 2: ["2c", "3d"]}, up={1: ["9h"], 2: ["4s"]}),
        Act(seat=2, declare="bring_in"),
        Act(seat=1, declare="call"),
    ]
    for street, up in (("fourth", ["Qh", "5d"]), ("fifth", ["Jc", "6h"]), ("sixth", ["Tc", "7h"])):
        commands += [Deal(street=street, up={1: [up[0]], 2: [up[1]]})]  # type: ignore[arg-type]
        if street != "sixth":
            commands += [Act(seat=1, declare="check"), Act(seat=2, declare="check")]
    for command in commands:
        state, events = checked(config, state, command, log)
        assert refusal(events) is None, (command, events)
    early = Deal(street="seventh", down={1: ["8s"], 2: ["8d"]})
    state, events = checked(config, state, early, log)
    ruled = next(e for e in events if isinstance(e, Irregular))
    assert (ruled.kind, ruled.rules, ruled.reshuffle) == ("early_cards", ["RP-5-D"], [])
    assert "2 down-cards go back into the stub" in ruled.text
    assert "8s" not in ruled.text and "8d" not in ruled.text


def board_hand(turn: list[str], river: list[str]) -> tuple[TableConfig, TableState, Played]:
    """Limit hold'em heads-up checked down to the river with the given turn and river."""
    config = TableConfig(game="LHE", blinds=(50, 100), seats={1: 10_000, 2: 10_000}, button=1)
    state = new_table(config)
    log: Played = []
    commands: list[Command] = [
        StartHand(cards={1: ["Ah", "Kh"], 2: ["2c", "7d"]}),
        Act(seat=1, declare="call"),
        Act(seat=2, declare="check"),
    ]
    for street, board in (("flop", ["3s", "9d", "Tc"]), ("turn", turn), ("river", river)):
        commands += [
            Deal(street=street, cards=board),  # type: ignore[arg-type]
            Act(seat=2, declare="check"),
            Act(seat=1, declare="check"),
        ]
    for command in commands:
        state, events = checked(config, state, command, log)
        assert refusal(events) is None, (command, events)
    return config, state, log


def test_a_board_card_not_entered_leaves_the_pot_to_the_dealer_s_award() -> None:
    """A flop game's turn given as ``??`` (not entered): every hand tabled, the board cannot be
    read, so the hand waits for the dealer's award — as for a hand not entered. Before the
    fix the showdown read ``??`` as a card and raised KeyError."""
    config, state, log = board_hand(["??"], ["Qs"])
    assert state.board == ["3s", "9d", "Tc", "??", "Qs"]
    for seat in (2, 1):
        state, events = checked(config, state, Show(seat=seat), log)
        assert refusal(events) is None, events
    assert state.phase == "showdown" and "award" in state.waiting_on()
    state, events = checked(config, state, Award(winners=[1]), log)
    assert any(isinstance(e, HandEnd) for e in events)


def test_cards_not_entered_on_the_board_are_no_duplicates_of_each_other() -> None:
    """``??`` is no card: a flop of three, a turn and a river not entered are all taken (37-E
    looks at the cards entered only); a card entered twice is still a fouled deck."""
    _, state, _ = board_hand(["??"], ["??"])
    assert state.board == ["3s", "9d", "Tc", "??", "??"]
    flop = TableConfig(game="NLHE", blinds=(50, 100), seats={1: 10_000, 2: 10_000}, button=1)
    state = new_table(flop)
    log: Played = []
    for command in (
        StartHand(cards={1: ["Ah", "Kh"], 2: ["2c", "7d"]}),
        Act(seat=1, declare="call"),
        Act(seat=2, declare="check"),
        Deal(street="flop", cards=["??", "??", "??"]),
    ):
        state, events = checked(flop, state, command, log)
        assert refusal(events) is None, (command, events)
    for seat in (2, 1):
        state, events = checked(flop, state, Act(seat=seat, declare="check"), log)
    assert state.phase == "deal"
    _, events = apply(state, Deal(street="turn", cards=["Ah"]))
    error = refusal(events)
    assert error is not None and error.rule == "37-E"
