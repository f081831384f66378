"""Seven-card stud, stud/8 and razz played in PokerKit and Tablewire in lockstep, one hand.

Shared by the differential test (``tests/test_differential_stud.py``, whose docstring says what
is compared and names PokerKit's departures from the TDA) and the stud benchmark
(``benchmarks/engine_stud.py``, which keeps each hand's inputs to replay them timed). The draw
games' lockstep (``tests/draw_lockstep.py``) is this one with their deal (:meth:`Lockstep.start`,
:meth:`Lockstep.step`), and a differential test's sample of hands is :class:`Sample`.

A hand is dealt from a deck its RNG shuffles (or one given): three cards to every hand, then a
burn and a card to every live hand on fourth to seventh street, given explicitly to both. At
each decision both are checked (:meth:`Lockstep.decide`) and the same action is taken in both,
given to Tablewire as a dealer station records it (:func:`recorded`). Where PokerKit departs
from the TDA the point is counted in ``Hand.divergences`` under the rule's number and the hand
goes on with an action both allow; ``abandon`` names departures at which the hand is given up
instead (:class:`Diverged`: the benchmark needs the same work on both sides). Anything else is
a :class:`Mismatch`.

The TDA's answers, worked out apart from both, are ``tests/stud_tda.py``'s: who brings it in and
which board acts first (RP-10, RP-10-D), the limit betting of a street (49-B, 50), the final
stacks (21-B, 21-C, 23) and the ways a dealer may record an action (42-47).
"""

from __future__ import annotations

import random
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec
from pokerkit import (
    Automation,
    BetCollection,
    ChipsPushing,
    FixedLimitRazz,
    FixedLimitSevenCardStud,
    FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    State,
)

from protocol import (
    Act,
    Deal,
    Dealt,
    ErrorEvent,
    Event,
    HandEnd,
    HandStart,
    Muck,
    Prompt,
    Show,
    StartHand,
    TableConfig,
)
from protocol.commands import Command, Street
from protocol.events import ActionEvent, FloorCall
from server.engine import TableState, apply, new_table, rebuild
from tests.stud_tda import (
    CAP,
    RANKS,
    SUITS,
    Book,
    best_board,
    bringer,
    declared,
    equal_boards,
    hand_values,
    recorded,
    tda_result,
    value,
)
from tests.test_differential_pokerkit import CHIPS, Mismatch

DECK = [r + s for r in RANKS for s in SUITS]
LATER: tuple[Street, ...] = ("fourth", "fifth", "sixth", "seventh")
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
PK_GAMES: dict[str, Any] = {
    "7S": FixedLimitSevenCardStud,
    "7S8": FixedLimitSevenCardStudHighLowSplitEightOrBetter,
    "RAZZ": FixedLimitRazz,
}
BRING_IN_AS_BET = "an all-in bring-in read as a bet"
"""Engine discrepancy: a seat whose chips are at most the bring-in pushes them all (or says
the amount): Tablewire reads a bet, not the bring-in its prompt offers (the chips are the same;
the seat becomes the street's aggressor)."""
FIVE_BY_ORDER = "21-B by the first five in card order"
"""Engine discrepancy: of two fives of a tied hand's value (a seven of clubs or of spades in
7-4-3-2-A), Tablewire reads the odd chip's highest card from the first five in the order the
cards were entered, not the hand's highest reading."""
READ_AS = {"complete": ("bet", "raise"), "raise": ("bet", "raise")}
"""Tablewire's action names for a completion and a raise (a first one is announced a bet)."""


class Diverged(Exception):
    """PokerKit departed from the TDA by a rule the caller gives the hand up at."""

    def __init__(self, rule: str) -> None:
        super().__init__(rule)
        self.rule = rule


@dataclass(frozen=True)
class Stud:
    """A stud table: PokerKit's player ``i`` sits on Tablewire's seat ``seats[i]`` (ascending
    numbers: both deal and act clockwise, the index order wrapping round)."""

    game: str
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    ante: int
    bring_in: int
    small_bet: int
    heads_up_event: bool = False
    chips: tuple[int, ...] = CHIPS

    def config(self) -> TableConfig:
        return TableConfig(
            game=self.game,  # type: ignore[arg-type]
            blinds=(0, 0),
            ante=self.ante,
            bring_in=self.bring_in,
            min_bet=self.small_bet,
            seats=dict(zip(self.seats, self.stacks, strict=True)),
            button=self.seats[0],
            chips=self.chips,
            heads_up_event=self.heads_up_event,
        )

    def pokerkit(self) -> State:
        return pokerkit_state(self.game, self.ante, self.bring_in, self.small_bet, self.stacks)


def pokerkit_state(game: str, ante: int, bring: int, small: int, stacks: tuple[int, ...]) -> State:
    """PokerKit's hand: antes not trimmed, the big bet twice the small one."""
    create = PK_GAMES[game].create_state
    return create(AUTOMATIONS, False, ante, bring, small, 2 * small, stacks, len(stacks))  # type: ignore[no-any-return]


@dataclass(frozen=True)
class Style:
    """How a hand is played: the chance to fold facing a bet, to complete, bet or raise, and
    whether the dealer records only declarations or also amounts and silent chip pushes."""

    fold: float
    aggression: float
    declared_only: bool = False


@dataclass
class Hand:
    """What a hand did: its inputs to replay, what was compared and what PokerKit departed by."""

    commands: list[Command] = field(default_factory=list)
    pk_ops: list[tuple[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    actions: int = 0
    final: list[int] = field(default_factory=list)
    showdown: bool = False
    """More than one hand was left at the end (shown, or all-in and exposed)."""
    divergences: Counter[str] = field(default_factory=Counter)
    """Rule -> decision points (hands for 21-B, 23 and RP-10-H)."""
    cases: Counter[str] = field(default_factory=Counter)
    """Situations met and the ways actions were recorded."""
    trace: list[str] = field(default_factory=list)


# --- the lockstep ---------------------------------------------------------------------------


class Lockstep:
    """One hand of ``table`` in both, dealt and played by ``rng``; :meth:`play` returns it.

    ``deck``: the stub to deal from its end instead of ``rng``'s shuffle (a dealt example, with
    :meth:`choose` overridden to pick each action). ``tolerate``: known engine discrepancies to
    count instead of failing. ``checked``: each command must leave the state it was given
    untouched. ``observe`` sees the state after each command (the benchmark's state size).
    """

    ODD_CHIPS = "21-B"
    """The rule PokerKit's odd chips depart from (stud: by suit; the draw games: 21-A)."""

    def __init__(
        self,
        table: Stud,
        rng: random.Random,
        style: Style,
        *,
        label: str = "",
        abandon: frozenset[str] = frozenset(),
        tolerate: frozenset[str] = frozenset(),
        checked: bool = True,
        tracing: bool = False,
        observe: Callable[[TableState], None] | None = None,
        deck: list[str] | None = None,
    ) -> None:
        self.table, self.rng, self.style, self.label = table, rng, style, label
        self.abandon, self.checked, self.tracing, self.observe = abandon, checked, tracing, observe
        self.tolerate = tolerate
        self.state = new_table(table.config())
        self.pk = table.pokerkit()
        self.hand = Hand()
        self.last: list[Event] = []
        self.cards: dict[int, list[str]] = {i: [] for i in range(len(table.seats))}
        self.folded: set[int] = set()
        self.book = Book(table.small_bet, table.heads_up_event)
        self.street, self.opening = "third", True
        self.deck = list(deck or DECK)
        """The stub, dealt from its end: shuffled by ``rng`` unless given."""
        self.shuffled = deck is None
        self.burns: list[str] = []
        self.community = ""

    # -- plumbing

    def log(self, line: str) -> None:
        if self.tracing:
            self.hand.trace.append(line)

    def fail(self, kind: str, message: str) -> None:
        trace = "\n".join(self.hand.trace)
        raise Mismatch(kind, f"{self.label}: [{kind}] {message}\n{trace}")

    def known(self, kind: str, message: str) -> None:
        """A known engine discrepancy: counted as ``engine: kind`` where tolerated."""
        if kind not in self.tolerate:
            self.fail(kind, message)
        self.log(f"  [engine: {kind}] {message}")
        self.hand.divergences[f"engine: {kind}"] += 1

    def depart(self, rule: str, why: str) -> None:
        """PokerKit departs from the TDA by ``rule`` here: count it, or give the hand up."""
        self.log(f"  [{rule}] {why}")
        if rule in self.abandon:
            raise Diverged(rule)
        self.hand.divergences[rule] += 1

    def send(self, command: Command) -> list[Event]:
        """Apply a command in Tablewire: accepted, and the given state left untouched."""
        before = msgspec.msgpack.encode(self.state) if self.checked else b""
        new, events = apply(self.state, command)
        if self.checked and msgspec.msgpack.encode(self.state) != before:
            self.fail("purity", f"apply changed the state it was given ({command})")
        self.state = new
        for e in events:
            if isinstance(e, ErrorEvent | FloorCall):
                self.fail("refused", f"Tablewire answered {command} with {e}")
        self.last = events
        self.hand.commands.append(command)
        self.hand.events.extend(events)
        if self.observe is not None:
            self.observe(self.state)
        return events

    def probe(self, command: Command) -> list[Event]:
        """What Tablewire answers to ``command``; the state it is given must not change."""
        before = msgspec.msgpack.encode(self.state)
        _, events = apply(self.state, command)
        if msgspec.msgpack.encode(self.state) != before:
            self.fail("purity", f"apply changed the state it was given ({command})")
        return events

    def pk_do(self, op: str, arg: Any = None) -> None:
        """One PokerKit operation, kept for the benchmark's replay."""
        pk_apply(self.pk, op, arg)
        self.hand.pk_ops.append((op, arg))

    # -- the hand

    def play(self) -> Hand:
        with warnings.catch_warnings():
            # Past the stub PokerKit warns that it deals from its burns and mucked cards
            # (RP-10-H); the cards it is given are the TDA's.
            warnings.simplefilter("ignore")
            return self._play()

    def play_rebuilt(self) -> Hand:
        """The hand played out, and ``rebuild(config, events)`` gives back the table's state
        (what every differential test asks of each hand of its sample)."""
        hand = self.play()
        rebuilt = rebuild(self.table.config(), hand.events)
        if msgspec.msgpack.encode(rebuilt) != msgspec.msgpack.encode(self.state):
            self.fail("rebuild", "rebuild(config, events) does not give back the table's state")
        return hand

    def _play(self) -> Hand:
        self.start()
        while self.pk.status:
            self.step()
        self.finish()
        return self.hand

    def start(self) -> None:
        """Shuffle, deal every hand its first cards and start the hand in both."""
        t, pk = self.table, self.pk
        if self.shuffled:
            self.rng.shuffle(self.deck)
        while (who := pk.hole_dealee_index) is not None:
            self.cards[who].append(self.deck.pop())
            self.pk_do("hole", self.cards[who][-1])
        down = {t.seats[i]: c[:2] for i, c in self.cards.items()}
        up = {t.seats[i]: c[2:] for i, c in self.cards.items()}
        self.log(f"{self.label}: {t}\n  down {down}, up {up}")
        events = self.send(StartHand(cards=down, up=up))
        start = next((e for e in events if isinstance(e, HandStart)), None)
        if start is None or start.dealt != list(t.seats):
            self.fail("flow", f"hand_start {start} does not deal every seat {t.seats}")

    def step(self) -> None:
        """What PokerKit waits for next: a street to deal, or a decision."""
        pk = self.pk
        if pk.card_burning_status:
            self.deal(LATER[LATER.index(self.street) + 1 if self.street in LATER else 0])
        elif pk.actor_index is not None:
            self.decide()
        else:
            self.fail("flow", "PokerKit waits for something the test does not do")

    def deal(self, name: Street) -> None:
        """Burn and deal a street; before seventh street the stub is counted (RP-10-H)."""
        t, pk, deck = self.table, self.pk, self.deck
        live = sum(pk.statuses)
        if self.state.phase != "deal" or self.state.next_street != name:
            self.fail("flow", f"PokerKit deals {name} street; Tablewire: {self.state.waiting_on()}")
        procedure = ""
        if name == "seventh" and len(deck) < live + 2:
            # RP-10-H: a card each from the stub and the burns mixed (A); else a community
            # card, burned for from the stub (B) or from the stub and the burns mixed (C).
            procedure = "A" if len(deck) + len(self.burns) >= live + 2 else "BC"[len(deck) < 3]
            if procedure != "B":
                deck += self.burns
                self.rng.shuffle(deck)
        self.burns.append(deck.pop())
        self.pk_do("burn", self.burns[-1])
        community = self.community = deck.pop() if procedure in ("B", "C") else ""
        if any(pk.board_dealing_counts):
            # PokerKit's own community card: its stub, the burns and the mucked cards together
            # are short of a card each.
            if not community:
                self.fail("unclassified PokerKit divergence", "PokerKit turns a community card")
            for j in (j for j in range(len(t.seats)) if pk.statuses[j]):
                self.cards[j].append(community)
            self.pk_do("board", community)
        elif community:
            why = f"{procedure}: community card {community}; PokerKit deals from its mucked cards"
            self.depart("RP-10-H", why)
        dealt: dict[int, list[str]] = {}
        while (who := pk.hole_dealee_index) is not None:
            self.cards[who].append(community or deck.pop())
            self.pk_do("hole", self.cards[who][-1])
            dealt[t.seats[who]] = self.cards[who][-1:]
        if community:
            command = Deal(street=name, cards=[community])
        elif name == "seventh":
            command = Deal(street=name, down=dealt)
        else:
            command = Deal(street=name, up=dealt)
        events = self.send(command)
        self.log(f"  {name}: {command.cards or dealt} {procedure}")
        if procedure:
            self.hand.cases[f"RP-10-H {procedure}"] += 1
            said = " ".join(e.text for e in events if isinstance(e, Dealt))
            if f"RP-10-H {procedure}" not in said:
                self.fail("RP-10-H", f"the stub calls for procedure {procedure}; dealt: {said}")
        self.book = Book(t.small_bet * (1 if name == "fourth" else 2), t.heads_up_event)
        self.street, self.opening = name, True

    def first_to_act(self) -> tuple[int, int]:
        """The TDA's opener (index) of the street and the seat that then acts: the bring-in
        (RP-10) or the best board (RP-10-D); if it has no chips, the next with some (RP-10-E)."""
        pk, n = self.pk, len(self.table.seats)
        if self.street == "third":
            opener = bringer(self.table.game, [self.cards[i][2] for i in range(n)])
        else:
            boards = {i: self.up(i) for i in range(n) if i not in self.folded}
            opener = best_board(self.table.game, boards)
        able = [(opener + k) % n for k in range(n)]
        return opener, next(j for j in able if pk.stacks[j] and j not in self.folded)

    def entered(self, i: int) -> list[str]:
        """The seat's cards in Tablewire's order: down-cards, up-cards, a community card."""
        cards = self.cards[i]
        return cards[:2] + cards[6:] + cards[2:6] if not self.community else cards

    def up(self, i: int) -> list[str]:
        """The seat's up-cards: the third card, and fourth to sixth street's."""
        return self.cards[i][2:6]

    def decide(self) -> None:
        t, pk = self.table, self.pk
        i = pk.actor_index
        assert i is not None
        if self.opening:
            self.opening = False
            opener, first = self.first_to_act()
            theirs = pk.opener_index
            if first != i:
                if theirs is None or not equal_boards(self.up(theirs), self.up(opener)):
                    self.fail(
                        "unclassified PokerKit divergence", f"PokerKit opens {i}, TDA {first}"
                    )
                self.depart("RP-10-D", f"equal boards: PokerKit opens {theirs}, the TDA {opener}")
                while pk.actor_indices[0] != first:
                    pk.actor_indices.rotate(-1)  # PokerKit's turn where the TDA puts it
                pk.opener_index, i = opener, first
        seat = t.seats[i]
        prompt = next((e for e in reversed(self.last) if isinstance(e, Prompt)), None)
        if prompt is None or self.state.phase != "betting" or prompt.seat != seat:
            self.fail("seat to act", f"seat {seat}; Tablewire: {self.state.waiting_on()}, {prompt}")
        assert prompt is not None
        for j, n in enumerate(t.seats):
            s = self.state.seat(n)
            if s is None or (s.stack, s.bet) != (pk.stacks[j], pk.bets[j]):
                self.fail("stacks", f"seat {n}: {(pk.stacks[j], pk.bets[j])}, Tablewire {s}")
        top = pk.stacks[i] + pk.bets[i]
        if prompt.all_in_to != top:
            self.fail("all-in total", f"seat {seat}: {top}, Tablewire {prompt.all_in_to}")
        if pk.can_post_bring_in():
            kind, total = self.bring_in_decision(i, prompt, top)
        else:
            kind, total = self.betting_decision(i, prompt, top)
        mine, before = pk.bets[i], max(pk.bets)
        command, how = self.record_as(seat, kind, total, mine, before, top)
        if self.style.declared_only:
            command, how = declared(seat, kind, total, before), kind
        self.hand.cases[how] += 1
        self.hand.actions += 1
        self.log(f"  seat {seat} ({i}): {kind} {total} as {command}  [{prompt.text}]")
        op = {"complete": "raise", "check": "call"}.get(kind, kind)
        self.pk_do(op, total if op == "raise" else None)
        self.folded |= {i} if kind == "fold" else set()
        self.book.record(i, "raise" if kind == "complete" else kind, total)
        events = self.send(command)
        acts = [e for e in events if isinstance(e, ActionEvent) and e.seat == seat and not e.forced]
        why = f"seat {seat}: {kind} to {total} as {command} is read {acts}"
        if not acts or acts[0].total != total:
            self.fail("reading", why)
        elif kind == "bring_in" and total == top and acts[0].action == "bet":
            self.known(BRING_IN_AS_BET, why)
        elif acts[0].action not in READ_AS.get(kind, (kind,)):
            self.fail("reading", why)

    def record_as(
        self, seat: int, kind: str, total: int, mine: int, before: int, top: int
    ) -> tuple[Act, str]:
        """The action as the dealer records it (:func:`~tests.stud_tda.recorded`: limit
        amounts, half a bet measured against the street's bet)."""
        return recorded(self.rng, seat, kind, total, mine, before, top, self.book.unit)

    def bring_in_decision(self, i: int, prompt: Prompt, top: int) -> tuple[str, int]:
        """RP-10: bring it in or complete; left of a bring-in all-in on its ante, fold too."""
        t, pk = self.table, self.pk
        seat, bring = t.seats[i], min(t.bring_in, top)
        if prompt.bring_in != bring or pk.effective_bring_in_amount != bring:
            why = f"PokerKit {pk.effective_bring_in_amount}, Tablewire {prompt}"
            self.fail("bring-in", f"seat {seat} brings in {bring}: {why}")
        may_fold = self.first_to_act()[0] != i
        if ("fold" in prompt.options) != may_fold:
            self.fail("RP-10-E", f"seat {seat} may fold: {may_fold}; Tablewire {prompt.options}")
        if may_fold:
            self.depart(
                "RP-10-E", f"seat {seat} may fold (bring-in all-in on the ante): not in PokerKit"
            )
            folded = [
                e for e in self.probe(Act(seat=seat, declare="fold")) if isinstance(e, ActionEvent)
            ]
            if not folded or folded[0].action != "fold" or "RP-10-E" not in folded[0].rules:
                self.fail("RP-10-E", f"seat {seat}'s fold is read {folded}")
        others = any(pk.statuses[j] and pk.stacks[j] for j in range(len(t.seats)) if j != i)
        complete, to = top > t.bring_in and others, min(t.small_bet, top)
        offered = (
            (prompt.min_raise_to, prompt.max_raise_to) if "complete" in prompt.options else None
        )
        if offered != ((to, to) if complete else None):
            self.fail("completion", f"seat {seat}: TDA {complete} to {to}, Tablewire {prompt}")
        pk_to = pk.min_completion_betting_or_raising_to_amount
        if pk_to != (to if complete else pk_to if top <= t.bring_in else None):
            # (All a seat has up to the bring-in is the bring-in; PokerKit calls it either.)
            self.fail(
                "unclassified PokerKit divergence", f"seat {seat} completes: PokerKit {pk_to}"
            )
        if self.choose(i, ["raise"] if complete else []) == "raise":
            return "complete", to
        return "bring_in", bring

    def betting_decision(self, i: int, prompt: Prompt, top: int) -> tuple[str, int]:
        """To call, whether to raise and to what: the TDA's answers (:class:`Book`) asserted of
        Tablewire; PokerKit's, where they differ, classified (49-B, 50) and not played."""
        t, pk, book = self.table, self.pk, self.book
        seat, call = t.seats[i], pk.checking_or_calling_amount
        if max(pk.bets) != book.current or prompt.to_call != call:
            why = f"PokerKit {call} (bet {max(pk.bets)}), Tablewire {prompt.to_call}"
            self.fail("to call", f"seat {seat}, TDA bet {book.current}: {why}")
        rivals = [j for j in range(len(t.seats)) if j != i and pk.statuses[j]]
        others = any(pk.stacks[j] + pk.bets[j] > book.current for j in rivals)
        may = top > book.current and others and not book.capped() and book.reopened(i, pk.bets[i])
        to = min(book.raise_to(), top)
        pk_to = pk.min_completion_betting_or_raising_to_amount
        agree = pk_to == (to if may else None)
        if not agree:
            self.depart(
                self.departure(may, pk_to), f"seat {seat}: TDA {may} to {to}, PokerKit {pk_to}"
            )
            if may:
                raised = [
                    e
                    for e in self.probe(Act(seat=seat, declare="raise"))
                    if isinstance(e, ActionEvent)
                ]
                if not raised or raised[0].total != to:
                    self.fail("raise to", f"seat {seat}: a raise goes to {to}; Tablewire {raised}")
        offered = (prompt.can_raise, prompt.min_raise_to, prompt.max_raise_to)
        if offered != ((True, to, to) if may else (False, None, None)):
            self.fail("may raise", f"seat {seat}: TDA {may} to {to} (PokerKit {pk_to}); {prompt}")
        choice = self.choose(i, ["fold"] * bool(call) + ["raise"] * (may and agree))
        if choice == "fold":
            return "fold", pk.bets[i]
        if choice == "raise":
            return "raise", to
        return ("call", min(book.current, top)) if call else ("check", pk.bets[i])

    def choose(self, i: int, options: list[str]) -> str:
        """The style's pick for player ``i``: fold or raise (complete) if among ``options``
        (legal in both), else call (check, or bring it in)."""
        if "fold" in options and self.rng.random() < self.style.fold:
            return "fold"
        if "raise" in options and self.rng.random() < self.style.aggression:
            return "raise"
        return "call"

    def departure(self, may: bool, pk_to: int | None) -> str:
        """The rule by which PokerKit's raise answers depart from the TDA's here."""
        pk, book = self.pk, self.book
        if may and pk_to is None and pk.completion_betting_or_raising_count >= CAP:
            return "50" if book.count >= CAP else "49-B"
        if not book.short:
            self.fail("unclassified PokerKit divergence", f"raise to: TDA {may}, PokerKit {pk_to}")
        return "49-B"

    def finish(self) -> None:
        """The showdown: every live hand shown (a loser may muck); the stacks by the TDA."""
        t, pk, hand = self.table, self.pk, self.hand
        n = len(t.seats)
        paid = [0] * n
        for op in pk.operations:
            if isinstance(op, BetCollection):
                paid = [p + b for p, b in zip(paid, op.bets, strict=True)]
        live = [j for j in range(n) if j not in self.folded]
        expected, pots = tda_result(t.game, list(t.stacks), paid, live, self.cards)
        winners = {j for _, ws in pots for j in ws}
        ended = next((e for e in self.last if isinstance(e, HandEnd)), None)
        hand.showdown = len(live) > 1
        for j in live if ended is None else []:
            s = self.state.seat(t.seats[j])
            if s is None or s.shown or not s.live:
                continue
            muck = j not in winners and self.rng.random() < 0.3
            events = self.send(Muck(seat=s.number) if muck else Show(seat=s.number))
            ended = next((e for e in events if isinstance(e, HandEnd)), None)
            if ended is not None:
                break
        if ended is None:
            self.fail("flow", f"PokerKit is done; Tablewire: {self.state.waiting_on()}")
        assert ended is not None
        hand.final = [ended.stacks[s] for s in t.seats]
        self.log(f"  end: TDA {expected}, PokerKit {pk.stacks}, Tablewire {hand.final}: {pots}")
        if sum(expected) != sum(t.stacks):
            self.fail("final stacks", "the TDA reference made or lost chips")
        if hand.final != expected:
            why = f"TDA {expected}, Tablewire {hand.final}: {ended.pots}"
            order = {j: self.entered(j) for j in live}
            if hand.final != tda_result(t.game, list(t.stacks), paid, live, order, True)[0]:
                self.fail("final stacks", why)
            self.known(FIVE_BY_ORDER, why)
        if list(pk.stacks) != expected:
            self.classify_award(expected, pots)

    def classify_award(self, expected: list[int], pots: list[tuple[int, list[int]]]) -> None:
        """PokerKit's award departs from the TDA's: odd chips by player index (21-B), or pots
        merged, or a half burned, because it reads them after mucking the losers (23)."""
        pk = self.pk
        off = [j for j in range(len(expected)) if pk.stacks[j] != expected[j]]
        split = {j for _, ws in pots if len(ws) > 1 for j in ws}
        pushes = [op for op in pk.operations if isinstance(op, ChipsPushing)]
        low = hand_values(self.table.game)[1]
        no_low = [
            op
            for op in pushes
            if op.hand_type_index == 1
            and any(won and value(low, self.cards[j]) is None for j, won in enumerate(op.amounts))
        ]
        odd = sum(abs(pk.stacks[j] - expected[j]) for j in off) <= 2 * len(pots) * len(split)
        if no_low or len({op.pot_index for op in pushes}) < len(pots):
            self.depart("23", f"PokerKit {pk.stacks}, pushed {pushes}; TDA pots {pots}")
        elif set(off) <= split and odd:
            self.depart(self.ODD_CHIPS, f"odd chips: PokerKit {pk.stacks}, TDA {expected}")
        else:
            self.fail("unclassified PokerKit divergence", f"PokerKit {pk.stacks}, TDA {expected}")


PK_OPS: dict[str, Callable[..., Any]] = {
    "hole": State.deal_hole,
    "burn": State.burn_card,
    "board": State.deal_board,
    "call": State.check_or_call,
    "raise": State.complete_bet_or_raise_to,
    "bring_in": State.post_bring_in,
    "fold": State.fold,
}
"""The PokerKit operation of each name the lockstep records (``arg``: its card or total)."""


def pk_apply(pk: State, op: str, arg: Any) -> None:
    """A recorded PokerKit operation, as the lockstep makes it."""
    PK_OPS[op](pk, *(() if arg is None else (arg,)))


# --- a differential test's sample ----------------------------------------------------------


class Sample:
    """A differential test's random sample: each game's hands ``0 .. hands[game] - 1``, each
    played once by ``play(game, seed)`` and kept (the module's tests read the same hands; a
    hand that disagrees is kept as its :class:`Mismatch`). ``script`` replays one seed."""

    def __init__(
        self, play: Callable[[str, int], Hand], hands: dict[str, int], script: str
    ) -> None:
        self.play, self.hands, self.script = play, hands, script
        self.kept: dict[tuple[str, int], Hand | Mismatch] = {}

    def seeds(self, game: str) -> range:
        return range(self.hands[game])

    def hand(self, game: str, seed: int) -> Hand | Mismatch:
        if (game, seed) not in self.kept:
            try:
                self.kept[game, seed] = self.play(game, seed)
            except Mismatch as exc:
                self.kept[game, seed] = exc
        return self.kept[game, seed]

    def check(self, game: str, batch: int, batches: int) -> None:
        """Every hand of the batch (seeds ``batch::batches``) agrees; else the failures by
        kind, their seeds and the first one's trace."""
        failures: dict[str, list[str]] = {}
        first = ""
        for seed in self.seeds(game)[batch::batches]:
            hand = self.hand(game, seed)
            if isinstance(hand, Mismatch):
                failures.setdefault(hand.kind, []).append(str(seed))
                first = first or str(hand)
        assert not failures, (
            f"{game}: Tablewire disagrees with the TDA answer in "
            + "; ".join(f"{len(s)} [{k}] (seeds {', '.join(s[:8])})" for k, s in failures.items())
            + f"\nReplay one with: python {self.script} --game {game} --seed N"
            + "\nFirst failure:\n"
            + first
        )

    def totals(self, games: tuple[str, ...]) -> tuple[Counter[str], Counter[str], int, int]:
        """Divergences and situations over the games' hands; hands played through, and
        showdowns."""
        divergences: Counter[str] = Counter()
        cases: Counter[str] = Counter()
        played = showdowns = 0
        for game in games:
            for seed in self.seeds(game):
                hand = self.hand(game, seed)
                if isinstance(hand, Hand):
                    played += 1
                    showdowns += hand.showdown
                    divergences.update(hand.divergences)
                    cases.update(hand.cases)
        return divergences, cases, played, showdowns

    def replay_step_by_step(
        self, games: tuple[str, ...], config_of: Callable[[str, int], TableConfig]
    ) -> None:
        """A tenth of each game's hands (their table's config from ``config_of(game, seed)``)
        applied command by command: each command leaves the state it was given as it was, and
        ``rebuild`` of the events so far gives back the state at every step. (A Mismatch is
        reported by ``check``.)"""
        for game in games:
            for seed in self.seeds(game)[::10]:
                hand = self.hand(game, seed)
                if isinstance(hand, Hand):
                    _step_by_step(config_of(game, seed), hand)


def _step_by_step(config: TableConfig, hand: Hand) -> None:
    state, events = new_table(config), []
    for command in hand.commands:
        given, before = state, msgspec.msgpack.encode(state)
        state, new = apply(given, command)
        assert msgspec.msgpack.encode(given) == before, command
        events += new
        assert msgspec.msgpack.encode(rebuild(config, events)) == msgspec.msgpack.encode(state), (
            command
        )
    assert events == hand.events
