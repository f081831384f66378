"""Differential test: 2-7 triple draw, badugi and no-limit 2-7 single draw played in PokerKit and
Tablewire in lockstep.

Every hand comes from its own seeded ``random.Random("GAME:SEED")``, so a failure names a game
and a seed that replay exactly: ``python tests/test_differential_draw.py --game 27TD --seed N``
prints the hand action by action and draw by draw; with no argument the script prints the
summary of the whole sample. The lockstep is ``tests/draw_lockstep.py`` (the stud lockstep's
plumbing, limit betting and showdown, ``tests/stud_lockstep.py``, with the draws), the TDA's
answers it asserts ``tests/stud_tda.py``'s and the hold'em test's (49-A).

The sample: ``HANDS`` single hands of each game (1,000 27TD, 500 BADUGI, 500 27SD against
PokerKit's ``FixedLimitDeuceToSevenLowballTripleDraw``, ``FixedLimitBadugi`` and
``NoLimitDeuceToSevenLowballSingleDraw``), each on a fresh table: 2-6 players on random seat
numbers (1-10) and a random button; a random level (big blind 20 to 2,000, the small blind a
half or a quarter of it, antes none to a fifth of it; the limit games' small bet is the big
blind, the big bet twice it); random stacks, some all-in on the big blind, some short of a few
bets, the rest deep (odd, so the 1 chip stays in play, 21); one of four styles of play, and a
way of drawing: a seat keeps its low cards of different ranks (badugi: and suits) up to a rank
it picks and throws the rest, or now and then throws most of its hand whatever it holds, so the
stub runs short. Half the heads-up tables are the event's last two (``heads_up_event``: the
cap is lifted, 50).

Cards are dealt from a deck the hand's RNG shuffles: the hands, then at each draw, seat by seat
from the left of the button, the cards thrown and as many new ones, a burn before the draw's
first card, and RP-25 A-C when the stub runs short, worked out by the test's own dealer
(``tests.test_properties_draw.Dealer``); the same cards go to both (``start_hand.cards``,
``draw.thrown`` and ``draw.cards``; PokerKit's ``deal_hole``, ``stand_pat_or_discard``,
``burn_card``). The actions are chosen at random among those legal in both and given to
Tablewire as a dealer station records them: declarations (``bet`` or ``raise`` with or without
the amount, ``call``, ``check``, ``fold``, ``all_in``), and silent pushes of
exact chips (calls 46, 47-A; bets and raises), of chips over a call by less than half a bet or
raise (a call, 45-A) and of chips short of a raise by less than half (made the full raise,
45-A); in no-limit also a declared raise short of the minimum (made up, 45-A). Each must be
read as the action meant.

Seat mapping: PokerKit's player ``i`` is the ``i``-th seat clockwise from the left of the
button (the small blind first; heads-up the big blind, the button posting the small blind,
36-C), as in the hold'em test; PokerKit also draws in that order.

At every decision the two must agree on the seat to act, every seat's stack and bet, the amount
to call, the seat's all-in total, whether it may bet or raise and to what (the minimum and
maximum raise-to: one amount in limit); at every draw on the seat to draw (Tablewire's
``draw_prompt``; PokerKit's stand-patter or discarder), and Tablewire's prompt and ``drawn``
event on the stub, the burns and the RP-25 procedure the test's dealer applied; after every
draw PokerKit must hold the hands the TDA dealt; at the end the final stacks, worked out by
the test (pots layered by what each seat paid, PokerKit's 2-7 and badugi hand values, odd chips
one each to the first winners left of the button). Each command must leave the state it was
given untouched, and ``rebuild(config, events)`` must give back the state.

Where PokerKit departs from the TDA, the rule is named, the TDA's answer is asserted of
Tablewire, the point is counted and the hand goes on with an action both allow:

- **50 (the big blind)** (the cap before the draw). PokerKit's fixed-limit cap is four bets and
  raises made: before the draw it allows the big blind and four raises. The table's cap of four
  (``TableConfig.cap``, the house's cap under rule 50) counts the big blind as the first bet:
  the big blind and three raises. Tablewire's prompt offers no raise; both call or fold.
- **49-B** (short all-ins in limit). As in stud: PokerKit measures an all-in short of a full
  bet as a raise of its own size (raises a full bet over it, counts it toward the cap, forbids a
  raise to a seat facing less than it); the TDA: half a bet or more is a full bet, a seat that
  has acted may raise again facing at least half a bet. Tablewire's raise is tried on the side.
- **50** (the cap heads-up). PokerKit caps a street heads-up too; once the event is down to two
  players (``heads_up_event``) the TDA lifts the cap.
- **49-A** (no-limit single draw: re-opening). As in hold'em: PokerKit lets a seat that has
  acted raise again facing an all-in short of a full raise; Tablewire refuses the raise (49-A).
- **RP-25-B**, **RP-25-C** (the stub short, hands). The TDA mixes the stub with the burns (B),
  or, not enough, with the burns and the muck, the drawing seat's own discards not in it, one
  burnt (C), at the draw it cannot serve; PokerKit, when its deck runs out, mixes every card it
  holds in reserve at once (burns, folded hands and every discard of the draw, a later seat's
  included: it takes all the discards before dealing any), burning none. The TDA's cards are
  given to PokerKit (it warns that they are not its own recommendation, and takes them); the
  hand is counted under its first procedure when PokerKit is first given a card its deck no
  longer holds. PokerKit also burns a card before a draw all stand pat for (Tablewire and the
  dealer burn none when no card is dealt): it is given an unknown card ``??``.
- **an option with no one to bet against** (no TDA rule). Every other live seat is all-in for
  the big blind or less and the big blind has its option: PokerKit asks it to act (to check:
  it offers no raise); Tablewire, no bet being possible, opens the draw. PokerKit's seat is
  checked, it checks, and the point is counted.
- **21-A** (odd chips). Split three or more ways with two or more odd chips, PokerKit gives
  them all to the first winner; 21-A one each to the first winners left of the button.
- **23** (side pots apart). PokerKit reads the pots after killing the losing hands, so pots
  whose contenders differ only by a killed hand are merged and split once.

Ties are rare in random hands: 21-A and 23 are reached by dealt examples (``test_21_a_...``,
``test_23_...``), the option by one too; the random sample reaches the others.

Not dealt: a blind all-in short of the blind (every stack covers the ante and the big blind).
There the two part at once: Tablewire asks the others to call the level's big blind (for it the
big blind is the opening bet however much was posted), PokerKit only the chips posted, so a
seat that has them in is asked nothing more and PokerKit goes to the draw.

No Tablewire discrepancy was found (``TOLERATED`` is empty). Any disagreement fails the test
with the seed and the point where it happened.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.draw_lockstep import BLIND_CAP, HOLE, NO_ONE_TO_BET, DrawLockstep, DrawTable
from tests.stud_lockstep import DECK, Hand, Sample, Style
from tests.test_differential_pokerkit import Mismatch
from tests.test_differential_stud import STYLES

GAMES = ("27TD", "BADUGI", "27SD")
HANDS = {"27TD": 1000, "BADUGI": 500, "27SD": 500}
BATCHES = 4
TOLERATED: frozenset[str] = frozenset()
BIG_BLINDS = (20, 40, 100, 200, 400, 1000, 2000)
DEPARTURES = {
    "27TD": (BLIND_CAP, "49-B", "50", "RP-25-B", "RP-25-C"),
    "BADUGI": (BLIND_CAP, "49-B", "RP-25-B", "RP-25-C"),
    "27SD": ("49-A",),
}
"""PokerKit's departures the random sample must reach, by game (21-A, 23: by dealt examples)."""


def clockwise(numbers: list[int], button: int) -> tuple[int, ...]:
    """The seats clockwise from the left of the button: PokerKit's index order."""
    return tuple([n for n in numbers if n > button] + [n for n in numbers if n <= button])


def random_table(rng: random.Random, game: str) -> tuple[DrawTable, Style, float, str]:
    """A table, a style of play, a chance to throw most of a hand, and the style's name, all
    drawn from ``rng``."""
    n = rng.randint(2, 6)
    numbers = sorted(rng.sample(range(1, 11), n))
    button = rng.choice(numbers)
    bb = rng.choice(BIG_BLINDS)
    sb = rng.choice((bb // 2, bb // 2, bb // 4))
    ante = rng.choice((0, 0, bb // 10, bb // 5))
    stacks = []
    for _ in numbers:
        r = rng.random()
        if r < 0.06:
            stacks.append(ante + bb)  # all-in on the big blind, if it posts it
        elif r < 0.2:
            stacks.append(ante + bb + rng.randint(1, 3 * bb))
        elif r < 0.4:
            stacks.append(ante + bb + rng.randint(bb, 12 * bb))
        else:
            stacks.append(rng.randint(10 * bb, 60 * bb) * 2 + 1)  # odd: the 1 in play (21)
    event = n == 2 and rng.random() < 0.5
    name = "loose" if event else rng.choice(list(STYLES))
    folds, raises = STYLES[name]
    style = Style(rng.uniform(*folds), rng.uniform(*raises))
    heavy = rng.choice((0.0, 0.1, 0.3, 0.6))
    seats = clockwise(numbers, button)
    table = DrawTable(game, seats, tuple(stacks), button, (sb, bb), ante, heads_up_event=event)
    return table, style, heavy, name


def play(game: str, seed: int, tracing: bool = False, tolerate: frozenset[str] = TOLERATED) -> Hand:
    """Hand ``seed`` of ``game``; raises :class:`Mismatch` at the first disagreement."""
    rng = random.Random(f"{game}:{seed}")
    table, style, heavy, name = random_table(rng, game)
    label = f"{game} seed {seed} ({name}, heavy {heavy})"
    lockstep = DrawLockstep(
        table, rng, style, heavy=heavy, label=label, tolerate=tolerate, tracing=tracing
    )
    return lockstep.play_rebuilt()


SAMPLE = Sample(play, HANDS, "tests/test_differential_draw.py")
"""The sample's hands, each played once (``SAMPLE.hand(game, seed)``)."""


# --- tests --------------------------------------------------------------------------------------


@pytest.mark.parametrize("batch", range(BATCHES))
@pytest.mark.parametrize("game", GAMES)
def test_random_hands_agree_with_pokerkit_and_the_tda(game: str, batch: int) -> None:
    """The sample, in batches (seeds ``batch::BATCHES``)."""
    SAMPLE.check(game, batch, BATCHES)


@pytest.mark.parametrize("game", GAMES)
def test_the_sample_reaches_the_named_divergences(game: str) -> None:
    """Every departure the docstring names for the game happens in its sample (21-A, 23 and
    the option: in dealt examples), and so does every way of recording an action and, in the
    triple draws, each short-stub procedure."""
    divergences, cases, played, showdowns = SAMPLE.totals((game,))
    assert played == HANDS[game] and showdowns > played // 3
    missing = [rule for rule in DEPARTURES[game] if not divergences[rule]]
    assert not missing, f"the sample reaches no {missing}: {divergences}"
    if game == "27SD":
        ways = ["raise: chips over 50% made full (45-A)", "raise: declared short (45-A)"]
        ways += ["call: chips under 50% of a raise (45-A)", "all-in declared"]
    else:
        ways = ["call: chips under half a bet over it (45-A)", "raise: exact chips"]
        ways += ["raise: chips over half a bet, made full (45-A)", "raise all-in: declared all-in"]
        assert all(cases[f"RP-25-{p}"] for p in "ABC"), cases
    assert all(cases[way] for way in ways), cases


def test_each_command_leaves_its_state_and_the_log_rebuilds_the_state() -> None:
    """A tenth of the sample replayed command by command (every hand of the sample checks the
    first at each command and the second at its end)."""
    SAMPLE.replay_step_by_step(
        GAMES, lambda game, seed: random_table(random.Random(f"{game}:{seed}"), game)[0].config()
    )


class Scripted(DrawLockstep):
    """A dealt hand: the hands in seat order (PokerKit's), the cards thrown at each draw, the
    pick of each decision in turn; no draw deals a card."""

    def __init__(self, table: DrawTable, hands: list[str], picks: list[str]) -> None:
        size = HOLE[table.game]
        dealt = [hand[k : k + 2] for hand in hands for k in range(0, 2 * size, 2)]
        deck = [c for c in DECK if c not in dealt] + dealt[::-1]
        super().__init__(table, random.Random(0), Style(0, 0), deck=deck, tracing=True)
        self.picks = picks

    def choose(self, i: int, options: list[str]) -> str:
        pick = self.picks.pop(0)
        assert pick == "call" or pick in options, (pick, options)
        return pick

    def throw(self, i: int) -> list[str]:
        return []


def test_21_a_pokerkit_gives_every_odd_chip_to_the_first_winner() -> None:
    """2-7 triple draw, seats 1-4, the button on 4, blinds 50-100: the small blind (seat 1)
    folds, the others call 100 and check it down standing pat, each with 7-5-4-3-2 of
    different suits. 350 split three ways leaves two odd chips: one each to seats 2 and 3, the
    first winners left of the button (21-A); PokerKit gives both to seat 2."""
    table = DrawTable("27TD", (1, 2, 3, 4), (1001, 1001, 1001, 1001), 4, (50, 100))
    hands = ["KhQhJh9s8s", "7c5d4h3s2c", "7d5h4s3c2d", "7h5s4c3d2h"]
    picks = ["call", "call", "fold", "call"] + ["call"] * 9
    hand = Scripted(table, hands, picks).play()
    assert hand.final == [951, 1001 - 100 + 117, 1001 - 100 + 117, 1001 - 100 + 116], hand.trace
    assert hand.divergences == Counter({"21-A": 1}), hand.trace


def test_23_pokerkit_merges_the_pots_of_the_same_two_winners() -> None:
    """2-7 triple draw, five seats, the button on 5, blinds 50-100, antes 5: seat 3 is all-in
    for 180 before the draw, seat 5 folds to a bet after the first draw; seats 2 and 4 tie with
    7-5-4-3-2 and seat 3 loses with 8-6. The main pot of 775 and the side pot of 275 are split
    apart (23): 388 + 138 to seat 2, the first winner left of the button, 387 + 137 to seat 4.
    PokerKit kills seat 3's hand, so both pots are contested by seats 2 and 4 alone: it splits
    1,050 once, 525 each."""
    stacks = (5001, 5001, 180, 5001, 5001)
    table = DrawTable("27TD", (1, 2, 3, 4, 5), stacks, 5, (50, 100), 5)
    hands = ["KhQhJh9s8s", "7c5d4h3s2c", "8c6d4c3h2s", "7d5h4s3c2d", "KdQdJsTd9c"]
    picks = ["call", "raise", "call", "fold", "call", "call"]  # seat 3 all-in calling 200
    picks += ["call", "raise", "fold", "call"] + ["call"] * 4  # seat 5 folds to 100
    hand = Scripted(table, hands, picks).play()
    paid = [55, 305, 180, 305, 205]
    won = [0, 388 + 138, 0, 387 + 137, 0]
    expected = [s - p + w for s, p, w in zip(stacks, paid, won, strict=True)]
    assert hand.final == expected, hand.trace
    assert hand.divergences == Counter({"23": 1}), hand.trace


def test_pokerkit_asks_the_big_blind_with_no_one_to_bet_against() -> None:
    """2-7 triple draw, seats 1-3, the button on 3 with 100 calls all-in for the big blind of
    100 and the small blind folds: PokerKit asks the big blind (seat 2) to act, Tablewire opens
    the draw; both check it down to the showdown, seat 3's 7-5 winning 250."""
    table = DrawTable("27TD", (1, 2, 3), (1001, 1001, 100), 3, (50, 100))
    hands = ["KhQhJh9s8s", "8c6d4c3h2s", "7c5d4h3s2c"]
    hand = Scripted(table, hands, ["call", "fold"]).play()
    assert hand.final == [951, 901, 250], hand.trace
    assert hand.divergences == Counter({NO_ONE_TO_BET: 1}), hand.trace


def test_a_draw_table_maps_seats_clockwise_from_the_button() -> None:
    """PokerKit's player 0 is the first seat left of the button, the small blind (seat 9 with
    the button on 6); heads-up the big blind, the button posting the small blind (36-C)."""
    table = DrawTable("27TD", clockwise([2, 6, 9], 6), (500, 500, 500), 6, (10, 20))
    assert table.seats == (9, 2, 6)
    pk = table.pokerkit()
    assert pk.bets == [10, 20, 0]
    heads_up = DrawTable("27TD", clockwise([2, 6], 6), (500, 500), 6, (10, 20))
    assert heads_up.seats == (2, 6) and heads_up.pokerkit().bets == [20, 10]


def summary() -> None:
    """The sample: per game, the hands, the decisions and draws compared and the departures
    counted."""
    for game in GAMES:
        divergences, cases, played, showdowns = SAMPLE.totals((game,))
        hands = [h for n in SAMPLE.seeds(game) if isinstance(h := SAMPLE.hand(game, n), Hand)]
        print(
            f"{game}: {played}/{HANDS[game]} hands played through, {showdowns} to a showdown,"
            f" {sum(h.actions for h in hands)} decisions and {cases['seat draws']} draws"
            f" ({cases['draw rounds']} rounds) compared"
        )
        print("  " + ", ".join(f"{rule} {count}" for rule, count in sorted(divergences.items())))
        stub = ", ".join(f"{p} {cases[p]}" for p in ("RP-25-A", "RP-25-B", "RP-25-C"))
        print(f"  the stub short (draws): {stub}")
        failed = [n for n in SAMPLE.seeds(game) if isinstance(SAMPLE.hand(game, n), Mismatch)]
        if failed:
            print(f"  FAILED: {len(failed)}, seeds {failed[:15]}")
    _, cases, _, _ = SAMPLE.totals(GAMES)
    skip = {"seat draws", "draw rounds", "RP-25-A", "RP-25-B", "RP-25-C"}
    ways = sorted((w, c) for w, c in cases.items() if w not in skip)
    print("recorded: " + ", ".join(f"{way} {count}" for way, count in ways))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--game", choices=GAMES, default="27TD")
    parser.add_argument("--seed", type=int, help="trace one hand")
    args = parser.parse_args()
    if args.seed is None:
        summary()
    else:
        try:
            print("\n".join(play(args.game, args.seed, tracing=True).trace))
        except Mismatch as exc:
            print(exc)
