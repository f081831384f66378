"""The stud hands of ``benchmarks/engine.py --game 7S|RAZZ``: seven-card stud and razz, played
in PokerKit and Tablewire in lockstep, every card entered.

The hands are made by the differential test's lockstep (``tests/stud_lockstep.py``): dealt from
a seeded shuffled deck (a burn before each street after the third, as in PokerKit), random legal
actions (bring in or complete, fold, check or call, complete, bet or raise) declared by the
dealer, and at every decision both must name the same seat, the same amount to call, the same
bring-in and the same raise, and at the end the TDA's final stacks. The stacks are deep, so no
seat is all-in on its ante (RP-10-E). A hand where PokerKit departs from the TDA in the play is
not kept (:class:`Diverged`): on equal boards PokerKit opens with the lowest player index, the
TDA with the highest card by suit (RP-10-D); after an all-in short of half a bet PokerKit raises
a full bet over it, the table completes the bet (49-B). One where only the award differs (odd
chips by player index, 21-B; pots merged, 23) is the same work and is kept. Every hand is kept
twice as pre-built inputs, Tablewire's commands and PokerKit's operations, so the timed replays
do the same work: the whole hand, dealing and showdown included.

PokerKit's players are indexed from 0; here index ``i`` sits on Tablewire's seat ``i + 1``. Six
players: seven can need 53 cards with PokerKit's four burns, the stub short (RP-10-H).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgspec
from pokerkit import State

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from protocol import TableConfig
from protocol.commands import Command
from server.engine import TableState
from tests.stud_lockstep import (
    PK_OPS,
    Diverged,
    Lockstep,
    Stud,
    Style,
    pokerkit_state,
)

ANTE, BRING_IN, SMALL_BET = 25, 50, 100
ABANDON = frozenset({"RP-10-D", "RP-10-E", "49-B", "50", "RP-10-H"})
"""PokerKit's departures in the play: a hand that meets one is not kept."""


@dataclass
class StudHand:
    config: TableConfig
    commands: list[Command]
    stacks: tuple[int, ...]
    pk_ops: list[tuple[Callable[..., Any], tuple[Any, ...]]]
    """PokerKit's operations, each a method of ``State`` and its arguments."""
    actions: int
    final: list[int]


def create(game: str, stacks: tuple[int, ...]) -> State:
    return pokerkit_state(game, ANTE, BRING_IN, SMALL_BET, stacks)


def generate_stud(
    game: str, count: int, seed: int, players: int = 6
) -> tuple[list[StudHand], int, int]:
    """``count`` hands of ``game``; the largest msgpack state seen (Tablewire's); the hands
    dropped (equal boards, RP-10-D; a raise after a short all-in, 49-B)."""
    rng = random.Random(seed)
    hands: list[StudHand] = []
    dropped = biggest = 0

    def measure(state: TableState) -> None:
        nonlocal biggest
        biggest = max(biggest, len(msgspec.msgpack.encode(state)))

    while len(hands) < count:
        stacks = tuple(rng.randint(30, 200) * SMALL_BET // 4 for _ in range(players))
        seats = tuple(range(1, players + 1))
        table = Stud(game, seats, stacks, ANTE, BRING_IN, SMALL_BET, chips=(1,))
        style = Style(rng.uniform(0.05, 0.2), rng.uniform(0.05, 0.3), declared_only=True)
        lockstep = Lockstep(
            table,
            rng,
            style,
            label=f"{game} benchmark hand {len(hands) + dropped}",
            abandon=ABANDON,
            checked=False,
            observe=measure,
        )
        try:
            hand = lockstep.play()
        except Diverged:
            dropped += 1
            continue
        ops = [(PK_OPS[op], () if arg is None else (arg,)) for op, arg in hand.pk_ops]
        hands.append(StudHand(table.config(), hand.commands, stacks, ops, hand.actions, hand.final))
    return hands, biggest, dropped


def replay_pokerkit_stud(game: str, hands: list[StudHand]) -> None:
    for hand in hands:
        pk = create(game, hand.stacks)
        for op, args in hand.pk_ops:
            op(pk, *args)
