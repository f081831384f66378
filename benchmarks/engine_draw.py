"""The 2-7 triple draw hands of ``benchmarks/engine.py --game 27TD``: played in PokerKit and
Tablewire in lockstep, every card entered, then replayed timed in both.

    python benchmarks/engine_draw.py            # 2,000 hands, 5 repetitions
    python benchmarks/engine_draw.py --quick    # 300 hands, 3 repetitions

The hands are made by the differential test's lockstep (``tests/draw_lockstep.py``): six
players with deep stacks (30 to 200 big blinds at 50-100, limit 100-200), dealt from a seeded
shuffled deck; random legal actions (fold, check or call, bet or raise) declared by the dealer;
at each draw the seat keeps its low cards of different ranks up to a rank it picks and throws
the rest, or now and then (one draw in ten) throws most of its hand, so the stub runs short as
at a real six-handed table (RP-25 A-C, worked out by the test's dealer). At every decision both
must name the same seat, the same amount to call and the same raise, at every draw the same
seat, and at the end the TDA's final stacks.

Every hand is kept twice as pre-built inputs, Tablewire's commands (``StartHand`` with the
hands, ``Act``, ``Draw`` with the cards thrown and dealt, ``Show``) and PokerKit's operations
(``deal_hole``, the same actions, ``stand_pat_or_discard``, ``burn_card``, ``deal_hole`` of the
new cards; showing, killing, pushing and pulling automated), so the timed replays do the same
work: the whole hand, dealing, draws and showdown included. "Actions" are the betting actions
and the draws (a seat standing pat or drawing), the same count on both sides.

Kept, as the same inputs replay in both: before the draw PokerKit would allow the big blind and
four raises where the table caps the big blind and three (both then call or fold); where the
stub runs short (RP-25 B, C) PokerKit is given the TDA's cards, which its deck no longer holds
(it warns, and takes them: its warnings are silenced in the replay). Dropped (none expected
with deep stacks six-handed): a hand where PokerKit asks a seat to act that Tablewire does not
(an all-in for the big blind leaving no one to bet against), or departs on a raise after a
short all-in (49-B) or the cap heads-up (50).

The state size is the largest msgpack snapshot of Tablewire's state (``msgspec.msgpack.encode``,
the form the server keeps per table) after every command of every hand.
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from pokerkit import State

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import race_recorded

from protocol import Draw, HandEnd, TableConfig
from protocol.commands import Command
from server.engine import TableState, apply, new_table
from tests.draw_lockstep import (
    DRAW_OPS,
    NO_ONE_TO_BET,
    DrawLockstep,
    DrawTable,
    Style,
    pokerkit_draw,
)
from tests.stud_lockstep import Diverged

GAME = "27TD"
BLINDS = (50, 100)
ABANDON = frozenset({NO_ONE_TO_BET, "49-B", "50"})
"""PokerKit's departures at which a hand is not kept (the inputs would differ)."""


@dataclass
class DrawHand:
    config: TableConfig
    seats: tuple[int, ...]
    """PokerKit's index order: clockwise from the left of the button."""
    commands: list[Command]
    stacks: tuple[int, ...]
    pk_ops: list[tuple[Callable[..., Any], tuple[Any, ...]]]
    """PokerKit's operations, each a method of ``State`` and its arguments."""
    actions: int
    """Betting actions and draws."""
    final: list[int]


def create(stacks: tuple[int, ...]) -> State:
    return pokerkit_draw(GAME, 0, BLINDS, stacks)


def generate_draw(count: int, seed: int, players: int = 6) -> tuple[list[DrawHand], int, int]:
    """``count`` 27TD hands; the largest msgpack state seen (Tablewire's); the hands dropped."""
    rng = random.Random(seed)
    hands: list[DrawHand] = []
    dropped = biggest = 0

    def measure(state: TableState) -> None:
        nonlocal biggest
        biggest = max(biggest, len(msgspec.msgpack.encode(state)))

    while len(hands) < count:
        stacks = tuple(rng.randint(30, 200) * BLINDS[1] for _ in range(players))
        button = rng.randint(1, players)
        seats = tuple((button + k) % players + 1 for k in range(players))
        table = DrawTable(GAME, seats, stacks, button, BLINDS, chips=(1,))
        style = Style(rng.uniform(0.05, 0.2), rng.uniform(0.05, 0.3), declared_only=True)
        lockstep = DrawLockstep(
            table,
            rng,
            style,
            heavy=0.1,
            label=f"{GAME} benchmark hand {len(hands) + dropped}",
            abandon=ABANDON,
            checked=False,
            observe=measure,
        )
        try:
            hand = lockstep.play()
        except Diverged:
            dropped += 1
            continue
        ops = [(DRAW_OPS[op], () if arg is None else (arg,)) for op, arg in hand.pk_ops]
        actions = hand.actions + hand.cases["seat draws"]
        made = DrawHand(table.config(), seats, hand.commands, stacks, ops, actions, hand.final)
        hands.append(made)
    return hands, biggest, dropped


def replay_pokerkit_draw(hands: list[DrawHand]) -> None:
    with warnings.catch_warnings():
        # The TDA's cards after the stub ran short are not PokerKit's own (RP-25 B, C).
        warnings.simplefilter("ignore")
        for hand in hands:
            pk = create(hand.stacks)
            for op, args in hand.pk_ops:
                op(pk, *args)


def check_replays(hands: list[DrawHand]) -> None:
    """The replays end where the generation did (outside the timing)."""
    for hand in hands[:50]:
        state = new_table(hand.config)
        for cmd in hand.commands:
            state, events = apply(state, cmd)
        ended = next(e for e in events if isinstance(e, HandEnd))
        assert [ended.stacks[n] for n in hand.seats] == hand.final
        pk = create(hand.stacks)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for op, args in hand.pk_ops:
                op(pk, *args)
        assert not pk.status


def main(count: int, reps: int, seed: int, profiled: bool = False) -> None:
    """The measures of ``benchmarks/engine.py`` (its ``stud_main`` report) on 27TD hands."""
    t0 = time.perf_counter()
    hands, max_pack, dropped = generate_draw(count, seed)
    check_replays(hands)
    actions = sum(h.actions for h in hands)
    draws = sum(isinstance(c, Draw) for h in hands for c in h.commands)
    print(
        f"{len(hands)} 6-handed {GAME} hands (seed {seed}), generated in"
        f" {time.perf_counter() - t0:.1f} s; {dropped} dropped where the two ask different"
        f" things (an option with no one to bet against; a raise over a short all-in, 49-B)"
    )
    print(
        f"  {actions} actions ({actions / len(hands):.1f} a hand, {draws} of them draws,"
        f" standing pat included)"
    )
    race_recorded(hands, actions, replay_pokerkit_draw, reps, max_pack, profiled)


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description="Tablewire vs PokerKit on 2-7 triple draw")
    parser.add_argument("--quick", action="store_true", help="300 hands, 3 repetitions")
    parser.add_argument("--hands", type=int, help="number of hands (default 2000, quick 300)")
    parser.add_argument("--reps", type=int, help="repetitions (default 5, quick 3)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", action="store_true", help="cProfile one Tablewire replay pass")
    args = parser.parse_args()
    main(
        args.hands or (300 if args.quick else 2000),
        args.reps or (3 if args.quick else 5),
        args.seed,
        args.profile,
    )
