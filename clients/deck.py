"""The bot dealer's deck: the cards it deals in each game, handled as a dealer handles them.

A hand is dealt from one shuffled deck, kept as the dealer sees it: the **stub** (its top card
last), the **burns** and the **muck** (folded hands and thrown cards). The engine counts the
same piles from the cards it was given, so a stub the bot finds short is the one the engine
finds short, and the procedure the bot follows is the one the engine checks:

- the flop games: the hole cards, then a burn and each street's board cards;
- stud (RP-10): two down-cards and an up-card, an up-card each on fourth to sixth street and a
  down-card on seventh, each street burnt for. Seventh street needs a card for every hand still
  in, a burn and a last card never dealt; when the stub is short the dealer mixes it with the
  burns (RP-10-H A), or turns a **community card** every hand plays, burnt for from the stub
  (B) or from the stub and the burns mixed (C);
- the draw games (RP-25): each seat keeps the low cards of different ranks (badugi: of
  different suits too) up to a rank it picks and throws the rest, or now and then throws most
  of its hand; the first card a draw deals is burnt for. When the stub cannot serve a seat the
  dealer deals its last card (A), mixes the stub with the burns (B) or, short even then, with
  the muck too (C).

It reads no clock; its draws follow its random generator alone.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from protocol.commands import Deal, Draw, StartHand, Street
from server.engine.games import STUD, hole_count, ranking

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
STREET_CARDS = {"flop": 3, "turn": 1, "river": 1}
"""The board cards of each street of a flop game."""
HIGH_ORDER = "23456789TJQKA"
"""Ranks from the lowest, aces high (2-7 lowball)."""
LOW_ORDER = "A23456789TJQK"
"""Ranks from the lowest, aces low (badugi)."""
HEAVY = 0.1
"""The share of draws that throw most of the hand: they run a six-handed stub short."""


class Deck:
    """One hand's cards: the stub, the burns, the muck and what each seat holds."""

    def __init__(self, rng: random.Random, seen: Iterable[str] = (), stub: int = 0) -> None:
        """A shuffled deck without the cards already ``seen``.

        A hand picked up in play: the cards nobody saw are the stub and the burns. In a draw
        game ``stub`` says how many are the stub (the view's count, the engine's), so the bot
        finds the stub short at the draw the engine does. Elsewhere which are burnt changes
        nothing the engine checks: it knows no burnt card, and a short stud stub calls for a
        community card by the stub and the burns together (RP-10-H)."""
        self.rng = rng
        gone = set(seen)
        self.stub = [card for card in DECK if card not in gone]
        rng.shuffle(self.stub)
        self.burns: list[str] = []
        if 0 < stub < len(self.stub):
            self.burns, self.stub = self.stub[stub:], self.stub[:stub]
        self.muck: list[str] = []
        self.hands: dict[int, list[str]] = {}
        self.first_draw = True
        """No card has been dealt yet in the draw under way: the next one is burnt for."""

    def start(self, game: str, seats: Iterable[int]) -> StartHand:
        """Every seat's first cards: stud's two down and one up, the others' whole hand."""
        pop = self.stub.pop
        if game in STUD:
            self.hands = {n: [pop(), pop(), pop()] for n in seats}
            return StartHand(
                cards={n: h[:2] for n, h in self.hands.items()},
                up={n: h[2:] for n, h in self.hands.items()},
            )
        count = hole_count(game)
        self.hands = {n: [pop() for _ in range(count)] for n in seats}
        return StartHand(cards={n: list(h) for n, h in self.hands.items()})

    def fold(self, seat: int) -> None:
        """A hand folded: its cards go to the muck."""
        self.muck += self.hands.pop(seat, [])

    def street(self, game: str, street: str, live: Iterable[int]) -> Deal:
        """Burn and deal ``street``: board cards, or (stud) a card to each hand still in."""
        if game in STUD:
            return self._stud_street(street, sorted(live))
        self.burns.append(self.take())
        cards = [self.take() for _ in range(STREET_CARDS[street])]
        return Deal(street=street, cards=cards)  # type: ignore[arg-type]

    def _stud_street(self, street: str, live: list[int]) -> Deal:
        name: Street = street  # type: ignore[assignment]
        needed = len(live) + 2
        community = False
        if street == "seventh" and len(self.stub) < needed:
            if len(self.stub) + len(self.burns) >= needed:
                self._mix(self.burns)  # RP-10-H A
            else:
                community = True
                if len(self.stub) < 3:
                    self._mix(self.burns)  # RP-10-H C; else B: burnt for from the stub
        self.burns.append(self.take())
        if community:
            card = self.take()
            for seat in live:
                self.hands.setdefault(seat, []).append(card)
            return Deal(street=name, cards=[card])
        dealt = {seat: [self.take()] for seat in live}
        for seat, cards in dealt.items():
            self.hands.setdefault(seat, []).extend(cards)
        if street == "seventh":
            return Deal(street=name, down=dealt)
        return Deal(street=name, up=dealt)

    def take(self) -> str:
        """The stub's top card. A bot whose picture of the deck went wrong (a hand corrected
        by the floor, cards not entered) may find the stub empty where the engine does not:
        it deals ``??``, a card not entered, rather than stop the table."""
        return self.stub.pop() if self.stub else "??"

    def _mix(self, *piles: list[str]) -> None:
        """Mix ``piles`` into the stub, shuffle and cut: they are no longer apart."""
        self.stub += [card for pile in piles for card in pile]
        for pile in piles:
            pile.clear()
        self.rng.shuffle(self.stub)

    def new_draw(self) -> None:
        """A draw begins: its first card dealt is burnt for."""
        self.first_draw = True

    def draw(self, game: str, seat: int, most: int) -> Draw:
        """The seat throws what its hand does not keep and is dealt as many (RP-25)."""
        hand = self.hands.get(seat, [])
        thrown = self._throw(game, hand)[:most]
        count = len(thrown)
        cards = self._serve(count) if count else []
        self.hands[seat] = [*(c for c in hand if c not in thrown), *cards]
        self.muck += thrown
        return Draw(seat=seat, count=count, thrown=thrown, cards=cards)

    def _throw(self, game: str, hand: list[str]) -> list[str]:
        rng = self.rng
        if rng.random() < HEAVY:
            return rng.sample(hand, rng.randint(max(0, len(hand) - 2), len(hand)))
        badugi = ranking(game) == "badugi"
        order = LOW_ORDER if badugi else HIGH_ORDER
        limit = order.index(rng.choice("6789TJ"))
        kept: list[str] = []
        known = [c for c in hand if c[0] in order]  # a card not entered (??) is thrown
        for card in sorted(known, key=lambda c: order.index(c[0])):
            low = order.index(card[0]) <= limit and all(card[0] != k[0] for k in kept)
            if low and not (badugi and any(card[1] == k[1] for k in kept)):
                kept.append(card)
        return [c for c in hand if c not in kept]

    def _serve(self, count: int) -> list[str]:
        """``count`` cards for a draw, the stub run short or not (RP-25 A-C)."""
        burn = 1 if self.first_draw else 0
        self.first_draw = False
        if len(self.stub) >= count + burn:
            self.burns += [self.take() for _ in range(burn)]
        elif len(self.stub) + len(self.burns) >= count:
            self._mix(self.burns)  # B
            if len(self.stub) > count:  # a card to spare: burnt for
                self.burns.append(self.take())
        else:
            self._mix(self.burns, self.muck)  # C
            self.burns.append(self.take())
        return [self.take() for _ in range(count)]
