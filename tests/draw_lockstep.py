"""2-7 triple draw, badugi and no-limit 2-7 single draw played in PokerKit and Tablewire in
lockstep, one hand.

Shared by the differential test (``tests/test_differential_draw.py``, whose docstring says what
is compared and names PokerKit's departures from the TDA) and the draw benchmark
(``benchmarks/engine_draw.py``, which keeps each hand's inputs to replay them timed). It is the
stud lockstep (``tests/stud_lockstep.py``) with the draw games' deal: the plumbing, the limit
betting's checks (49-B, 50) and the showdown (the TDA's final stacks) are the stud lockstep's;
here are the blinds, the draws, the stub (RP-25) and no-limit single draw's betting (49-A).

PokerKit's player ``i`` is the ``i``-th seat clockwise from the left of the button (the small
blind, then the big blind; heads-up the big blind, then the button, which posts the small blind,
36-C), as in the hold'em test.

A hand is dealt from a deck its RNG shuffles (or one given), by the TDA's procedure, worked out
by the test's own dealer (``tests.test_properties_draw.Dealer``): the hands; at each draw, in
turn from the left of the button, the seat's discards and its new cards, a burn before the
draw's first card; when a draw needs more than the stub holds, RP-25 A-C. Tablewire is given
each seat's draw as the dealer enters it (``Draw`` with ``thrown`` and ``cards``), and must
name the same seat to draw (``draw_prompt``) and the same procedure, stub and burns
(``drawn``). PokerKit takes every seat's discards first (``stand_pat_or_discard``, asked of the
same seat), then a burn, then deals each seat its cards (``deal_hole``): the same cards, so the
same hands.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from pokerkit import (
    FixedLimitBadugi,
    FixedLimitDeuceToSevenLowballTripleDraw,
    NoLimitDeuceToSevenLowballSingleDraw,
    State,
)

from protocol import Act, Draw, Drawn, DrawPrompt, HandStart, Prompt, StartHand, TableConfig
from protocol.events import ErrorEvent
from tests.stud_lockstep import PK_OPS, Lockstep, Style
from tests.stud_tda import CAP, LOW_RANKS, RANKS, Book
from tests.test_differential_pokerkit import (
    AUTOMATIONS,
    CHIPS,
    TdaBook,
    _as_recorded,
    _structural_raise,
)
from tests.test_properties_draw import Dealer

PK_GAMES: dict[str, Any] = {
    "27TD": FixedLimitDeuceToSevenLowballTripleDraw,
    "27SD": NoLimitDeuceToSevenLowballSingleDraw,
    "BADUGI": FixedLimitBadugi,
}
HOLE = {"27TD": 5, "27SD": 5, "BADUGI": 4}
STREETS = {
    "27TD": ("predraw", "first_draw", "second_draw", "third_draw"),
    "BADUGI": ("predraw", "first_draw", "second_draw", "third_draw"),
    "27SD": ("predraw", "draw"),
}
BIG_BET = ("second_draw", "third_draw")
"""The limit games' streets at the big bet (twice the small one)."""
BLIND_CAP = "50 (the big blind)"
"""PokerKit's departure from Tablewire's cap before the draw: its fixed-limit cap (four) counts
the bets and raises made, not the big blind, so it allows the big blind and four raises; the
table's cap of four (``TableConfig.cap``, the house's under rule 50) counts the big blind as the
first bet."""
NO_ONE_TO_BET = "an option with no one to bet against"
"""Not a TDA rule: every other live seat is all-in for the big blind or less and the big blind
has not acted. PokerKit asks it to act (to check: it offers no raise); Tablewire waits for
nothing, no bet being possible (a raise no one could call, the hold'em test's fixed
discrepancy), and opens the draw. The test checks for the seat in PokerKit and counts it."""
DRAW_OPS = {**PK_OPS, "discard": State.stand_pat_or_discard}
"""The PokerKit operations the lockstep records: the stud lockstep's and the discard."""


def pokerkit_draw(game: str, ante: int, blinds: tuple[int, int], stacks: tuple[int, ...]) -> State:
    """PokerKit's hand: antes not trimmed; limit at the big blind and twice it."""
    create = PK_GAMES[game].create_state
    bb = blinds[1]
    if game == "27SD":
        return create(AUTOMATIONS, False, ante, blinds, bb, stacks, len(stacks))  # type: ignore[no-any-return]
    return create(AUTOMATIONS, False, ante, blinds, bb, 2 * bb, stacks, len(stacks))  # type: ignore[no-any-return]


@dataclass(frozen=True)
class DrawTable:
    """A draw table: ``seats`` in PokerKit's index order, clockwise from the left of the
    ``button``; the small bet is the big blind."""

    game: str
    seats: tuple[int, ...]
    stacks: tuple[int, ...]
    button: int
    blinds: tuple[int, int]
    ante: int = 0
    heads_up_event: bool = False
    chips: tuple[int, ...] = CHIPS

    @property
    def small_bet(self) -> int:
        return self.blinds[1]

    def config(self) -> TableConfig:
        return TableConfig(
            game=self.game,  # type: ignore[arg-type]
            blinds=self.blinds,
            ante=self.ante,
            min_bet=self.blinds[1],
            seats=dict(zip(self.seats, self.stacks, strict=True)),
            button=self.button,
            chips=self.chips,
            heads_up_event=self.heads_up_event,
        )

    def pokerkit(self) -> State:
        return pokerkit_draw(self.game, self.ante, self.blinds, self.stacks)


class NoLimitBook(TdaBook):
    """The no-limit round's record for 49-A (the hold'em test's), keeping the bet faced."""

    def __init__(self, bb: int, current: int) -> None:
        super().__init__(bb)
        self.current = current

    def record(self, i: int, kind: str, total: int, before: int | None = None) -> None:
        super().record(i, kind, total, self.current if before is None else before)
        self.current = max(self.current, total)


def card_text(card: Any) -> str:
    return f"{card.rank.value}{card.suit.value}"


class DrawLockstep(Lockstep):
    """One draw hand of ``table`` in both (see :class:`~tests.stud_lockstep.Lockstep` for the
    arguments); ``heavy`` is the chance a seat throws most of its hand whatever it holds (the
    stub then runs short, RP-25), else it keeps its lowest cards of different ranks (badugi:
    and suits) up to a rank it picks."""

    ODD_CHIPS = "21-A"

    def __init__(
        self,
        table: DrawTable,
        rng: random.Random,
        style: Style,
        *,
        heavy: float = 0.1,
        **kwargs: Any,
    ) -> None:
        super().__init__(table, rng, style, **kwargs)  # type: ignore[arg-type]
        self.table: DrawTable = table  # type: ignore[assignment]
        self.heavy = heavy
        self.opening = False  # (no bring-in, no board to open a street)
        self.street = "predraw"
        self.book = self.new_book("predraw")  # type: ignore[assignment]
        self.dealer = Dealer(rng, [])
        self.mucked: set[int] = set()
        self.low_full: int | None = None
        self.reshuffled = ""
        """The hand's first RP-25 procedure that mixed cards back into the stub (B, C)."""

    def new_book(self, street: str) -> Book | NoLimitBook:
        """The TDA's record of a betting round: before the draw the big blind is its bet (the
        first of the capped bets, 50)."""
        t = self.table
        bb = t.blinds[1]
        if t.game == "27SD":
            return NoLimitBook(bb, bb if street == "predraw" else 0)
        book = Book(bb * (2 if street in BIG_BET else 1), t.heads_up_event)
        if street == "predraw":
            book.current = book.full = bb
            book.count = 1
        return book

    def pk_do(self, op: str, arg: Any = None) -> None:
        """One PokerKit operation (:data:`DRAW_OPS`), kept for the benchmark's replay."""
        DRAW_OPS[op](self.pk, *(() if arg is None else (arg,)))
        self.hand.pk_ops.append((op, arg))

    # -- the hand

    def start(self) -> None:
        """Shuffle, deal the hands (the test's dealer) and start the hand in both."""
        t, pk = self.table, self.pk
        if self.shuffled:
            self.rng.shuffle(self.deck)
        self.dealer = Dealer(self.rng, self.deck)
        n = len(t.seats)
        self.dealer.deal(list(range(n)), HOLE[t.game])
        self.cards = self.dealer.hands
        while (who := pk.hole_dealee_index) is not None:
            self.pk_do("hole", "".join(self.cards[who]))
        self.log(f"{self.label}: {t}\n  hands {[' '.join(self.cards[i]) for i in range(n)]}")
        events = self.send(StartHand(cards={t.seats[i]: list(c) for i, c in self.cards.items()}))
        start = next((e for e in events if isinstance(e, HandStart)), None)
        blinds = (t.seats[1], t.seats[0]) if n == 2 else (t.seats[0], t.seats[1])
        if start is None or (start.button, start.small_blind, start.big_blind) != (
            t.button,
            *blinds,
        ):
            self.fail("positions", f"button {t.button}, blinds {blinds}: {start}")

    def step(self) -> None:
        """A draw, or (the stud lockstep's) a decision."""
        if self.pk.stand_patter_or_discarder_index is not None:
            self.draw()
        else:
            super().step()

    def throw(self, i: int) -> list[str]:
        """The cards seat ``i`` throws (RNG)."""
        hand, rng = self.cards[i], self.rng
        most = len(hand)
        if rng.random() < self.heavy:
            return rng.sample(hand, rng.randint(max(0, most - 2), most))
        badugi = self.table.game == "BADUGI"
        order = LOW_RANKS if badugi else RANKS
        limit = order.index(rng.choice("6789TJ"))
        kept: list[str] = []
        for card in sorted(hand, key=lambda c: order.index(c[0])):
            ranks, suits = {c[0] for c in kept}, {c[1] for c in kept}
            low = order.index(card[0]) <= limit and card[0] not in ranks
            if low and not (badugi and card[1] in suits):
                kept.append(card)
        return [c for c in hand if c not in kept]

    def draw(self) -> None:
        """A draw: each live seat in turn, asked of both; then PokerKit's burn and deals."""
        t, pk, dealer = self.table, self.pk, self.dealer
        streets = STREETS[t.game]
        street = streets[streets.index(self.street) + 1]
        size = HOLE[t.game]
        first, burn, dealt = True, "??", {}
        while (i := pk.stand_patter_or_discarder_index) is not None:
            seat = t.seats[i]
            asked = next((e for e in reversed(self.last) if isinstance(e, DrawPrompt)), None)
            if asked is None or self.state.phase != "draw" or asked.seat != seat:
                why = f"PokerKit: seat {seat}; Tablewire {self.state.waiting_on()}, {asked}"
                self.fail("seat to draw", why)
            assert asked is not None
            for j in sorted(self.folded - self.mucked):
                dealer.fold(j)  # the folded hands are in the muck (RP-25-C)
                self.mucked.add(j)
            if (asked.street, asked.most, asked.stub) != (street, size, len(dealer.stub)):
                why = f"{street}, {size} at most, stub {len(dealer.stub)}: {asked}"
                self.fail("draw prompt", why)
            hand = self.cards[i]
            thrown = self.throw(i)
            count = len(thrown)
            procedure, cards = dealer.serve(count, first) if count else ("", [])
            if count and first:
                burn = dealer.burns[-1] if dealer.burns else "??"
            first = first and not count
            self.pk_do("discard", "".join(thrown))
            dealt[i] = cards
            events = self.send(Draw(seat=seat, count=count, thrown=thrown, cards=cards))
            self.hand.cases["seat draws"] += 1
            self.cards[i] = [*(c for c in hand if c not in thrown), *cards]
            dealer.muck += thrown
            said = next((e for e in events if isinstance(e, Drawn)), None)
            want = ([procedure] if procedure else [], len(dealer.stub), len(dealer.burns))
            if said is None or (said.rules, said.stub, said.burns) != want:
                self.fail("RP-25", f"seat {seat} draws {count}: TDA {want}, Tablewire {said}")
            self.log(f"  seat {seat} ({i}) {street}: throws {thrown}, dealt {cards} {procedure}")
            if procedure in ("RP-25-B", "RP-25-C"):
                self.reshuffled = self.reshuffled or procedure
            if procedure:
                self.hand.cases[procedure] += 1
        self.hand.cases["draw rounds"] += 1
        self.pk_do("burn", burn)  # PokerKit burns before every draw, all pat or not
        while (who := pk.hole_dealee_index) is not None:
            if not set(dealt[who]) <= {card_text(c) for c in pk.deck_cards}:
                self.short_stub(who, dealt[who])
            self.pk_do("hole", "".join(dealt[who]))
        for j, cards in self.cards.items():
            if pk.statuses[j] and [card_text(c) for c in pk.hole_cards[j]] != cards:
                self.fail("hands", f"player {j}: TDA {cards}, PokerKit {pk.hole_cards[j]}")
        self.street, self.book = street, self.new_book(street)  # type: ignore[assignment]

    def short_stub(self, i: int, cards: list[str]) -> None:
        """The TDA deals player ``i`` a card PokerKit's deck no longer holds: the stub ran
        short (RP-25 B or C, in this draw or an earlier one) and the TDA's new stub is not
        PokerKit's. Counted once a hand, under the hand's first such procedure."""
        if not self.reshuffled:
            self.fail("unclassified PokerKit divergence", f"player {i} is dealt {cards}")
        if self.reshuffled not in self.hand.divergences:
            why = f"player {i} is dealt {cards}: PokerKit mixes its burns and muck at once"
            self.depart(self.reshuffled, why)

    def decide(self) -> None:
        pk = self.pk
        i = pk.actor_index
        assert i is not None
        others = [j for j in range(len(self.table.seats)) if j != i and pk.statuses[j]]
        if (
            self.state.phase == "draw"
            and not pk.checking_or_calling_amount
            and not any(pk.stacks[j] for j in others)
        ):
            raise_ = pk.can_complete_bet_or_raise_to()
            why = f"PokerKit asks player {i} to act (may raise: {raise_}); Tablewire draws"
            self.depart(NO_ONE_TO_BET, why)
            self.pk_do("call")
            return
        super().decide()

    # -- no-limit single draw's betting (the limit games': the stud lockstep's)

    def betting_decision(self, i: int, prompt: Prompt, top: int) -> tuple[str, int]:
        """In no-limit: the amount to call, whether the seat may raise (49-A: PokerKit
        re-opens the betting after a short all-in, counted) and the raise-to range."""
        if self.table.game != "27SD":
            return super().betting_decision(i, prompt, top)
        pk, book = self.pk, self.book
        assert isinstance(book, NoLimitBook)
        seat, call = self.table.seats[i], pk.checking_or_calling_amount
        if prompt.to_call != call:
            self.fail("to call", f"seat {seat}: PokerKit {call}, Tablewire {prompt.to_call}")
        may = _structural_raise(pk, i) and book.reopened(i, pk.bets)
        low = pk.min_completion_betting_or_raising_to_amount
        high = pk.max_completion_betting_or_raising_to_amount
        if pk.can_complete_bet_or_raise_to() != may:
            if may or book.reopened(i, pk.bets):
                why = f"seat {seat}: TDA may raise {may}, PokerKit {low}"
                self.fail("unclassified PokerKit divergence", why)
            faced = max(pk.bets) - pk.bets[i]
            self.depart("49-A", f"seat {seat} acted and faces {faced} < {book.last_full}")
            refused = self.probe(Act(seat=seat, declare="raise", amount=low))
            if not (len(refused) == 1 and isinstance(refused[0], ErrorEvent)):
                self.fail("may raise", f"seat {seat}: a raise to {low} gives {refused}")
            if refused[0].rule != "49-A":
                self.fail("may raise", f"seat {seat}: the raise is refused {refused}")
        offered = (prompt.can_raise, prompt.min_raise_to, prompt.max_raise_to)
        if offered != ((True, low, high) if may else (False, None, None)):
            self.fail("may raise", f"seat {seat}: TDA {may}, {low} to {high}; {prompt}")
        self.low_full = low if may else None
        choice = self.choose(i, ["fold"] * bool(call) + ["raise"] * may)
        if choice == "fold":
            return "fold", pk.bets[i]
        if choice == "raise":
            assert low is not None and high is not None
            pick = self.rng.random()
            if pick < 0.25:
                return "raise", high
            if pick < 0.6:
                return "raise", low
            return "raise", self.rng.randint(low, max(low, min(high, 3 * low)))
        return ("call", min(max(pk.bets), top)) if call else ("check", pk.bets[i])

    def record_as(
        self, seat: int, kind: str, total: int, mine: int, before: int, top: int
    ) -> tuple[Act, str]:
        if self.table.game != "27SD":
            return super().record_as(seat, kind, total, mine, before, top)
        bb = self.table.blinds[1]
        return _as_recorded(self.rng, seat, kind, total, mine, before, top, bb, self.low_full)

    def departure(self, may: bool, pk_to: int | None) -> str:
        """Before the draw PokerKit caps the big blind and four raises (:data:`BLIND_CAP`);
        else the stud lockstep's reading (49-B, 50)."""
        pk, book = self.pk, self.book
        assert isinstance(book, Book)
        if (
            not may
            and pk_to is not None
            and self.street == "predraw"
            and book.capped()
            and pk.completion_betting_or_raising_count == book.count - 1 < CAP
        ):
            return BLIND_CAP
        return super().departure(may, pk_to)
