"""Differential test: seven-card stud, razz and stud/8 played in PokerKit and Tablewire in lockstep.

Every hand comes from its own seeded ``random.Random("GAME:SEED")``, so a failure names a game
and a seed that replay exactly: ``python tests/test_differential_stud.py --game RAZZ --seed N``
prints the hand action by action; with no argument the script prints the summary of the whole
sample. The lockstep itself is ``tests/stud_lockstep.py``, the TDA's answers it asserts
``tests/stud_tda.py``.

The sample: ``HANDS`` single hands of each game (500 7S, 500 RAZZ, 200 7S8; about 15 s of CPU
for the module), each on a fresh table: 2-8 players on random seat numbers (1-10); a random
level (small bet 20 to 2,000, the bring-in a quarter to a half of it, antes none to a quarter);
random stacks, some exactly the ante (all-in on it: RP-10-E when that seat has the bring-in
card), some short of the bring-in, of the completion or of a few bets, the rest deep; one of
four styles of play. Half the heads-up tables are the event's last two (``heads_up_event``: the
cap is lifted, 50).

Cards are dealt from a deck the hand's RNG shuffles: three to each hand, then a burn and a card
to each live hand on fourth to seventh street, passed explicitly to both (``start_hand.cards``
and ``up``, ``deal.up``, ``deal.down``). The actions are chosen at random among those legal in
both, and given to Tablewire as a dealer station records them: declarations (``bring_in``,
``complete``, ``bet`` or ``raise`` with or without the amount, ``call``, ``check``, ``fold``,
``all_in``), the bring-in as a bare amount (42-C), and silent pushes of exact chips (the
bring-in, calls (46, 47-A), completions, bets and raises), of chips over a call by less than
half a bet (a call, 45-A) and of chips short of a raise by less than half a bet (made the full
raise, 45-A). Each must be read as the action meant.

Seat mapping. Stud has no button or blinds: PokerKit's player ``i`` sits on the ``i``-th seat
number in ascending order, and both deal and act clockwise, in that order wrapping round.

At every decision the two must agree on the seat to act (the bring-in, RP-10, or the best board,
RP-10-D, stated by the test itself), every seat's stack and bet, the bring-in, the amount to
call, the seat's all-in total, whether it may complete, bet or raise and to what (fixed limit:
the minimum and maximum raise-to are one amount); at the end on the final stacks, worked out by
the test (pots layered by what each seat paid, PokerKit's hand values). Each command must leave
the state it was given untouched, and ``rebuild(config, events)`` must give back the state.

Where PokerKit departs from the TDA, the rule is named, the TDA's answer is asserted of
Tablewire, the point is counted and the hand goes on with an action both allow:

- **RP-10-D** (equal boards). PokerKit opens fourth to seventh street with the lowest player
  index among equal best boards; the TDA with the highest card by suit (razz: aces low). The
  test moves PokerKit's turn to the TDA's seat (its public ``actor_indices``) and plays on.
- **RP-10-E** (the bring-in all-in on the ante). The seat left of it acts first and under the
  TDA may fold; PokerKit makes it bring in or complete. Tablewire's fold is tried on the side
  (it must be accepted, citing RP-10-E) and the seat brings in or completes in both.
- **49-B** (short all-ins in limit). PokerKit measures an all-in short of a full bet as a
  raise of its own size: it raises a full bet over it (the TDA completes the bet: a bet over the
  last full one); it counts it toward the cap; it lets a seat that has acted raise again facing
  it when it is all the street's raising (an all-in bet of 9 at 400-800 after checks), and
  forbids a raise to any seat facing less than the last raise. The TDA: half a bet or more is a
  full bet; a seat that has acted (the bring-in too) may raise again facing at least half a
  bet, others always. Tablewire's raise is tried on the side; both call or fold.
- **50** (the cap). PokerKit caps a street at four bets heads-up too; once the event is down to
  two players (``heads_up_event``) the TDA lifts the cap. As for 49-B.
- **21-B** (odd chips in stud). PokerKit gives the odd chip of a split pot by player index; the
  TDA to the hand whose five cards hold the highest card by suit (razz and stud/8's low: aces
  low). Ties are rare in random hands, so a dealt example (``test_21_b_...``) reaches it.
- **23** (side pots apart). PokerKit reads the pots after mucking the losing hands, so pots whose
  contenders differ only by a mucked hand are merged and split once; in stud/8 it decides
  whether a pot has a low half by every hand shown, and splits the low half of a side pot none
  of whose contenders has a low among them all (the TDA: the high hand scoops it).
- **RP-10-H** (the stub short on seventh street). The TDA gives each hand a card from the stub
  and the three burns mixed (A) or turns one community card (B, C); PokerKit mixes the mucked
  hands in with the burns in one step and turns a community card only when even those are
  short. Where the TDA turns one and PokerKit would not, PokerKit is given the community card as
  every hand's seventh card (the same hands at the showdown).

Two Tablewire discrepancies this test found are fixed, and a dealt test shows each:
:data:`BRING_IN_AS_BET` and :data:`FIVE_BY_ORDER` (``tests/stud_lockstep.py`` says what each
was). Any disagreement fails the test with the seed and the point where it happened.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from protocol import Act, Prompt, StartHand
from protocol.events import ActionEvent
from server.engine import apply, new_table
from tests.stud_lockstep import (
    DECK,
    Hand,
    Lockstep,
    Sample,
    Stud,
    Style,
)
from tests.test_differential_pokerkit import Mismatch

GAMES = ("7S", "RAZZ", "7S8")
HANDS = {"7S": 500, "RAZZ": 500, "7S8": 200}
BATCHES = 4
TOLERATED: frozenset[str] = frozenset()
"""No engine discrepancy is tolerated: the two this test found are fixed, and one again fails
the test under its name."""
SMALL_BETS = (20, 40, 100, 200, 400, 1000, 2000)
#: How a hand is played: (fold rate range, aggression range).
STYLES = {
    "passive": ((0.0, 0.06), (0.02, 0.15)),
    "mixed": ((0.05, 0.25), (0.1, 0.35)),
    "loose": ((0.0, 0.1), (0.3, 0.6)),
    "tight": ((0.2, 0.5), (0.1, 0.4)),
}
DEPARTURES = ("RP-10-D", "RP-10-E", "49-B", "50", "23", "RP-10-H")
"""PokerKit's departures the random sample must reach (21-B: by a dealt example)."""


def random_table(rng: random.Random, game: str) -> tuple[Stud, Style, str]:
    """A table, a style of play and its name, all drawn from ``rng``."""
    n = rng.randint(2, 8)
    seats = tuple(sorted(rng.sample(range(1, 11), n)))
    small = rng.choice(SMALL_BETS)
    bring_in = rng.choice((small // 4, small * 3 // 10, small // 2))
    ante = rng.choice((0, small // 10, small // 5, small // 5, small // 4))  # a fifth most often
    stacks = []
    for _ in seats:
        r = rng.random()
        if r < 0.08 and ante:
            stacks.append(ante)  # all-in on the ante
        elif r < 0.2:
            stacks.append(ante + rng.randint(1, 2 * small))
        elif r < 0.4:
            stacks.append(ante + rng.randint(small, 8 * small))
        else:
            stacks.append(rng.randint(5 * small, 40 * small) * 2 + 1)  # odd: the 1 in play (21)
    event = n == 2 and rng.random() < 0.5
    name = "loose" if event else rng.choice(list(STYLES))
    folds, raises = STYLES[name]
    style = Style(rng.uniform(*folds), rng.uniform(*raises))
    table = Stud(game, seats, tuple(stacks), ante, bring_in, small, heads_up_event=event)
    return table, style, name


def play(game: str, seed: int, tracing: bool = False, tolerate: frozenset[str] = TOLERATED) -> Hand:
    """Hand ``seed`` of ``game``; raises :class:`Mismatch` at the first disagreement."""
    rng = random.Random(f"{game}:{seed}")
    table, style, name = random_table(rng, game)
    lockstep = Lockstep(
        table, rng, style, label=f"{game} seed {seed} ({name})", tolerate=tolerate, tracing=tracing
    )
    return lockstep.play_rebuilt()


SAMPLE = Sample(play, HANDS, "tests/test_differential_stud.py")
"""The sample's hands, each played once (``SAMPLE.hand(game, seed)``)."""


# --- tests --------------------------------------------------------------------------------------


@pytest.mark.parametrize("batch", range(BATCHES))
@pytest.mark.parametrize("game", GAMES)
def test_random_hands_agree_with_pokerkit_and_the_tda(game: str, batch: int) -> None:
    """The sample, in batches (seeds ``batch::BATCHES``)."""
    SAMPLE.check(game, batch, BATCHES)


def test_the_sample_reaches_the_named_divergences() -> None:
    """Every departure the docstring names happens in the sample (21-B: in a dealt example),
    and so does every way of recording an action and each short-stub procedure."""
    divergences, cases, played, showdowns = SAMPLE.totals(GAMES)
    assert played > 0.95 * sum(HANDS.values()) and showdowns > played // 3
    missing = [rule for rule in DEPARTURES if not divergences[rule]]
    assert not missing, f"the sample reaches no {missing}: {divergences}"
    ways = [
        "bring-in: an amount (42-C)",
        "call: chips under half a bet over it (45-A)",
        "raise: chips over half a bet, made full (45-A)",
        "raise: exact chips",
        "complete",
    ]
    assert all(cases[way] for way in ways), cases
    assert all(cases[f"RP-10-H {p}"] for p in "ABC"), cases


def test_each_command_leaves_its_state_and_the_log_rebuilds_the_state() -> None:
    """A tenth of the sample replayed command by command (every hand of the sample checks the
    first at each command and the second at its end)."""
    SAMPLE.replay_step_by_step(
        GAMES, lambda game, seed: random_table(random.Random(f"{game}:{seed}"), game)[0].config()
    )


class Scripted(Lockstep):
    """A dealt hand: the deck in dealing order, each decision's pick given in turn."""

    def __init__(self, table: Stud, dealt: list[str], picks: list[str]) -> None:
        deck = [c for c in DECK if c not in dealt] + dealt[::-1]
        super().__init__(table, random.Random(0), Style(0, 0), deck=deck, tracing=True)
        self.picks = picks

    def choose(self, i: int, options: list[str]) -> str:
        pick = self.picks.pop(0)
        assert pick == "call" or pick in options, (pick, options)
        return pick


def test_21_b_pokerkit_gives_the_odd_chip_by_player_index() -> None:
    """Razz, three players, antes 5: the third folds to the bring-in, the others call it down
    and tie with 5-4-3-2-A. 35 in the pot (odd stacks keep the 1 in play, 21): the odd chip
    goes to the five of spades (21-B, aces low: the five is each hand's highest card), on seat
    2; PokerKit gives it to seat 1, the first index."""
    table = Stud("RAZZ", (1, 2, 3), (1001, 1002, 999), 5, 10, 20)
    # Round by round: two down-cards, the up-card (seat 1's king brings it in), then a card
    # each on fourth to seventh street after a burn.
    dealt = ["Ac", "As", "Tc", "2c", "2s", "Td", "Kc", "Qd", "Th"]
    dealt += ["9s", "3d", "3h", "9d", "4d", "4h", "9h", "5h", "5s", "8s", "Qc", "Jd"]
    picks = ["call", "call", "fold"] + ["call"] * 8  # brings in, calls, folds; then checks
    hand = Scripted(table, dealt, picks).play()
    assert hand.final == [1001 - 15 + 17, 1002 - 15 + 18, 999 - 5], hand.trace
    assert hand.divergences == Counter({"21-B": 1}), hand.trace


def test_engine_an_all_in_bring_in_pushed_in_chips_is_the_bring_in() -> None:
    """Found by this test (fixed): seat 1 has 30 after its ante, less than the bring-in of 50;
    its prompt offers only to bring it in for 30, and its 30 in chips are the bring-in (RP-10),
    not a bet of 30 (which made it the street's aggressor)."""
    table = Stud("7S", (1, 2, 3), (40, 1000, 1000), 10, 50, 100)
    up = {1: ["2c"], 2: ["Kd"], 3: ["9h"]}
    state, events = apply(new_table(table.config()), StartHand(up=up))
    prompts = [(p.seat, p.options, p.bring_in) for p in events if isinstance(p, Prompt)]
    if prompts != [(1, ["bring_in"], 30)]:
        pytest.fail(f"seat 1 is to bring it in for 30, and only that: {prompts}")
    _, events = apply(state, Act(seat=1, chips=[25, 5]))
    acted = [(e.action, e.total) for e in events if isinstance(e, ActionEvent)]
    assert acted == [("bring_in", 30)]


def test_engine_21_b_reads_a_tied_hand_at_its_highest() -> None:
    """Found by this test (fixed): razz, seats 1 and 2 tie with 7-4-3-2-A; seat 1 holds the
    seven of spades and the seven of clubs, so its five can hold the seven of spades, the
    highest card of the two hands: the odd chip of 35 is seat 1's (21-B). Tablewire read seat
    1's five with the seven of clubs, the first in the order the cards were entered, and gave
    the chip to seat 2's seven of hearts."""
    table = Stud("RAZZ", (1, 2, 3), (1001, 1002, 999), 5, 10, 20)
    dealt = ["Ah", "Ad", "Tc", "2h", "2d", "Td", "Kh", "Qd", "Th"]
    dealt += ["9s", "3h", "3d", "9d", "4h", "4d", "9h", "7s", "7h", "8s", "7c", "Jd"]
    Scripted(table, dealt, ["call", "call", "fold"] + ["call"] * 8).play()


def test_a_stud_table_maps_seats_in_ascending_order() -> None:
    """No button: PokerKit's player i is the i-th seat number up, so the lowest up-card brings
    it in on the same seat in both (seat 7, PokerKit's player 1)."""
    table = Stud("7S", (3, 7, 9), (500, 500, 500), 5, 10, 20)
    up = {3: ["Kd"], 7: ["2c"], 9: ["9h"]}
    state, _ = apply(new_table(table.config()), StartHand(up=up))
    pk = table.pokerkit()
    for card in ("As", "Qs", "Ts", "Ks", "Js", "Jh", "Kd", "2c", "9h"):
        pk.deal_hole(card)
    assert state.to_act == 7 and pk.actor_index == 1


def summary() -> None:
    """The sample: per game, the hands, the decisions compared and the departures counted."""
    for game in GAMES:
        divergences, _, played, showdowns = SAMPLE.totals((game,))
        hands = [h for n in SAMPLE.seeds(game) if isinstance(h := SAMPLE.hand(game, n), Hand)]
        print(
            f"{game}: {played}/{HANDS[game]} hands played through, {showdowns} to a showdown,"
            f" {sum(h.actions for h in hands)} decisions compared"
        )
        print("  " + ", ".join(f"{rule} {count}" for rule, count in sorted(divergences.items())))
        failed = [n for n in SAMPLE.seeds(game) if isinstance(SAMPLE.hand(game, n), Mismatch)]
        if failed:
            print(f"  FAILED: {len(failed)}, seeds {failed[:15]}")
    _, cases, _, _ = SAMPLE.totals(GAMES)
    print("recorded: " + ", ".join(f"{way} {count}" for way, count in sorted(cases.items())))


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--game", choices=GAMES, default="7S")
    parser.add_argument("--seed", type=int, help="trace one hand")
    args = parser.parse_args()
    if args.seed is None:
        summary()
    else:
        try:
            print("\n".join(play(args.game, args.seed, tracing=True).trace))
        except Mismatch as exc:
            print(exc)
