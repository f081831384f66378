"""Benchmark: Tablewire's engine against PokerKit on the same hands.

    python benchmarks/engine.py            # 2,000 hands, 5 repetitions
    python benchmarks/engine.py --quick    # 300 hands, 3 repetitions
    python benchmarks/engine.py --profile  # and a cProfile of Tablewire's replay
    python benchmarks/engine.py --game 7S  # seven-card stud (or RAZZ), 6 players (--profile too)
    python benchmarks/engine.py --game 27TD  # 2-7 triple draw, 6 players

The stud and triple draw hands are made in :mod:`engine_stud` and :mod:`engine_draw` the same
way (there every card is entered and the hands are checked against PokerKit at each decision).

A fixed, seeded set of 6-max no-limit hold'em hands that all reach a showdown (known cards) is
generated once, by playing random legal actions in PokerKit and Tablewire in lockstep (the final
stacks must agree). Each hand is then stored twice as pre-built inputs: Tablewire command objects
(``StartHand``, ``Act``, ``Deal``, ``Show``; no JSON anywhere) and PokerKit operations (hole
dealing, the same actions, burn + board dealing; showing, killing, pushing and pulling are
automated). Each repetition replays every hand from a fresh table in both: ``new_table`` +
``apply`` per command, against ``NoLimitTexasHoldem.create_state`` + one method call per
operation. The timed work is the whole hand, dealing and showdown included.

"Actions" are the betting actions (fold, check, call, bet/raise), the same count on both sides,
so actions/s compare time per hand. The serialized state size is the largest msgpack snapshot
(``msgspec.msgpack.encode(state)``, the form the server keeps per table) after every command of
every hand (so at every decision point), plus the same measure, not timed, at ten-handed
tables; the JSON size is printed beside it for reference.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgspec
from pokerkit import Automation, NoLimitTexasHoldem

from protocol import Act, Deal, HandEnd, Prompt, Show, StartHand, TableConfig
from protocol.commands import Command, Street
from server.engine import TableState, apply, new_table

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
STREETS: tuple[Street, ...] = ("flop", "turn", "river")
BLINDS = (50, 100)
AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.BLIND_OR_STRADDLE_POSTING,
    Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
TARGET_RATIO = 10.0
ODD_CHIPS = [0]  # hands where PokerKit's odd chips differ from the TDA's
TARGET_STATE = 4096


@dataclass
class Hand:
    config: TableConfig
    commands: list[Command]
    stacks: tuple[int, ...]  # PokerKit's starting stacks, index order
    pk_ops: list[tuple]  # type: ignore[type-arg]
    actions: int
    final: list[int]


def generate(count: int, seed: int, players: int = 6) -> tuple[list[Hand], int, int]:
    """``count`` hands reaching a showdown; also the largest JSON and msgpack state seen."""
    rng = random.Random(seed)
    hands: list[Hand] = []
    max_json = max_pack = 0
    while len(hands) < count:
        made = _one(rng, players)
        if made is None:
            continue
        hand, js, mp = made
        hands.append(hand)
        max_json, max_pack = max(max_json, js), max(max_pack, mp)
    return hands, max_json, max_pack


def _one(rng: random.Random, players: int) -> tuple[Hand, int, int] | None:
    numbers = list(range(1, players + 1))
    button = rng.choice(numbers)
    seats = numbers[button:] + numbers[:button]  # clockwise from the left of the button
    bb = BLINDS[1]
    stacks = [rng.randint(20 * bb, 150 * bb) for _ in seats]
    deck = list(DECK)
    rng.shuffle(deck)
    holes = [deck[2 * i] + deck[2 * i + 1] for i in range(players)]
    at = 2 * players  # burn, flop, burn, turn, burn, river
    board_at = {"flop": (at, at + 1, at + 4), "turn": (at + 4, at + 5, at + 6)}
    board_at["river"] = (at + 6, at + 7, at + 8)
    config = TableConfig(
        game="NLHE",
        blinds=BLINDS,
        seats=dict(zip(seats, stacks, strict=True)),
        button=button,
        chips=(1,),
    )
    pk = NoLimitTexasHoldem.create_state(AUTOMATIONS, False, 0, BLINDS, bb, stacks, players)
    pk_ops: list[tuple] = []  # type: ignore[type-arg]
    for h in holes:
        pk.deal_hole(h)
        pk_ops.append(("hole", h))
    commands: list[Command] = [
        StartHand(cards={s: [h[:2], h[2:]] for s, h in zip(seats, holes, strict=True)})
    ]
    state = new_table(config)
    state, events = apply(state, commands[0])
    max_json, max_pack = _sizes(state)
    dealt = actions = folds = 0
    fold_rate, raise_rate = rng.uniform(0.02, 0.12), rng.uniform(0.05, 0.25)
    while pk.status:
        i = pk.actor_index
        if i is None:
            street = STREETS[dealt]
            dealt += 1
            b, lo, hi = board_at[street]
            burn, cards = deck[b], deck[lo:hi]
            pk.burn_card(burn)
            pk.deal_board("".join(cards))
            pk_ops.append(("board", burn, "".join(cards)))
            cmd: Command = Deal(street=street, cards=cards)
        else:
            actions += 1
            prompt = next(e for e in reversed(events) if isinstance(e, Prompt))
            assert prompt.seat == seats[i] and prompt.to_call == pk.checking_or_calling_amount
            facing = max(pk.bets) > pk.bets[i]
            if facing and rng.random() < fold_rate:
                pk.fold()
                folds += 1
                pk_ops.append(("fold",))
                cmd = Act(seat=seats[i], declare="fold")
            elif (
                prompt.can_raise and pk.can_complete_bet_or_raise_to() and rng.random() < raise_rate
            ):
                low = pk.min_completion_betting_or_raising_to_amount
                high = pk.max_completion_betting_or_raising_to_amount
                assert low is not None and high is not None
                total = min(high, rng.randint(low, low * 2))
                pk.complete_bet_or_raise_to(total)
                pk_ops.append(("raise", total))
                cmd = Act(seat=seats[i], declare="raise" if facing else "bet", amount=total)
            else:
                pk.check_or_call()
                pk_ops.append(("call",))
                cmd = Act(seat=seats[i], declare="call" if facing else "check")
        commands.append(cmd)
        state, events = apply(state, cmd)
        js, mp = _sizes(state)
        max_json, max_pack = max(max_json, js), max(max_pack, mp)
    if folds == players - 1:
        return None  # won uncontested: not a showdown
    ended = next((e for e in events if isinstance(e, HandEnd)), None)
    if ended is None:
        for s in [s for s in state.seats if s.live]:
            cmd = Show(seat=s.number)
            commands.append(cmd)
            state, events = apply(state, cmd)
            js, mp = _sizes(state)
            max_json, max_pack = max(max_json, js), max(max_pack, mp)
            ended = next((e for e in events if isinstance(e, HandEnd)), None)
            if ended is not None:
                break
    assert ended is not None, "the showdown did not end the hand"
    final = [ended.stacks[s] for s in seats]
    if final != list(pk.stacks):
        # Only odd chips may differ: PokerKit splits pots merged after killing the losing hands
        # and gives every odd chip to one winner; the TDA splits pot by pot (21-A, 23).
        assert sum(abs(a - b) for a, b in zip(final, pk.stacks, strict=True)) <= 12, (
            final,
            pk.stacks,
        )
        ODD_CHIPS[0] += 1
    return Hand(config, commands, tuple(stacks), pk_ops, actions, final), max_json, max_pack


def _sizes(state: TableState) -> tuple[int, int]:
    return len(msgspec.json.encode(state)), len(msgspec.msgpack.encode(state))


def replay_tablewire(hands: list[Hand]) -> None:
    for hand in hands:
        state = new_table(hand.config)
        for cmd in hand.commands:
            state, _ = apply(state, cmd)


def replay_pokerkit(hands: list[Hand]) -> None:
    create = NoLimitTexasHoldem.create_state
    for hand in hands:
        pk = create(AUTOMATIONS, False, 0, BLINDS, BLINDS[1], hand.stacks, len(hand.stacks))
        for op in hand.pk_ops:
            kind = op[0]
            if kind == "call":
                pk.check_or_call()
            elif kind == "raise":
                pk.complete_bet_or_raise_to(op[1])
            elif kind == "fold":
                pk.fold()
            elif kind == "hole":
                pk.deal_hole(op[1])
            else:
                pk.burn_card(op[1])
                pk.deal_board(op[2])


def check_replays(hands: list[Hand]) -> None:
    """The replays end where the generation did (outside the timing)."""
    for hand in hands[:50]:
        state = new_table(hand.config)
        for cmd in hand.commands:
            state, events = apply(state, cmd)
        ended = next(e for e in events if isinstance(e, HandEnd))
        button = hand.config.button
        numbers = sorted(hand.config.seats)
        seats = [n for n in numbers if n > button] + [n for n in numbers if n <= button]
        assert [ended.stacks[n] for n in seats] == hand.final


def timed(fn, hands: list[Hand]) -> float:  # type: ignore[no-untyped-def]
    gc.collect()
    start = time.perf_counter()
    fn(hands)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Tablewire vs PokerKit: actions per second and state size"
    )
    parser.add_argument("--quick", action="store_true", help="300 hands, 3 repetitions")
    parser.add_argument("--hands", type=int, help="number of hands (default 2000, quick 300)")
    parser.add_argument("--reps", type=int, help="repetitions (default 5, quick 3)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--profile", action="store_true", help="cProfile one Tablewire replay pass")
    parser.add_argument("--game", choices=["NLHE", "7S", "RAZZ", "27TD"], default="NLHE")
    args = parser.parse_args()
    count = args.hands or (300 if args.quick else 2000)
    reps = args.reps or (3 if args.quick else 5)
    if args.game == "27TD":
        from engine_draw import main as draw_main

        draw_main(count, reps, args.seed, args.profile)
        return
    if args.game != "NLHE":
        stud_main(args.game, count, reps, args.seed, args.profile)
        return

    t0 = time.perf_counter()
    hands, max_json, max_pack = generate(count, args.seed)
    check_replays(hands)
    actions = sum(h.actions for h in hands)
    commands = sum(len(h.commands) for h in hands)
    print(
        f"{len(hands)} 6-max NLHE hands with showdowns (seed {args.seed}), generated in"
        f" {time.perf_counter() - t0:.1f} s"
    )
    print(
        f"  {actions} betting actions ({actions / len(hands):.1f} a hand), {commands} Tablewire"
        f" commands"
    )
    print(
        f"  {ODD_CHIPS[0]} hands where PokerKit splits odd chips against TDA 21-A/23 (kept: same"
        f" work)"
    )

    race(
        len(hands),
        actions,
        lambda: timed(replay_tablewire, hands),
        lambda: timed(replay_pokerkit, hands),
        reps,
        max_pack,
        f" ({max_json:,} as JSON), max over every decision point",
    )
    # Not timed: the same measure at a full ten-seat table, where the state is largest.
    _, full_json, full_pack = generate(max(50, count // 10), args.seed + 1, players=10)
    verdict = "meets" if full_pack <= TARGET_STATE else "MISSES"
    print(
        f"            {full_pack:,} bytes msgpack ({full_json:,} as JSON) at 10-handed tables"
        f" ({max(50, count // 10)} hands, not timed; {verdict} the goal)"
    )

    if args.profile:
        profile(lambda: replay_tablewire(hands))


def race(
    hands: int,
    actions: int,
    tablewire: Callable[[], float],
    pokerkit: Callable[[], float],
    reps: int,
    max_pack: int,
    where: str,
) -> None:
    """Time the two replays of the same hands ``reps`` times, alternately, and print each rep,
    the medians, the ratio and the largest state against the goals (every game's report)."""
    tw_times, pk_times = [], []
    for rep in range(reps):
        tw, pk = tablewire(), pokerkit()
        tw_times.append(tw)
        pk_times.append(pk)
        print(
            f"  rep {rep + 1}: Tablewire {actions / tw:10,.0f} actions/s   PokerKit"
            f" {actions / pk:10,.0f} actions/s"
        )
    tw_median, pk_median = statistics.median(tw_times), statistics.median(pk_times)
    ratio = (actions / tw_median) / (actions / pk_median)
    print()
    for name, median in (("Tablewire", tw_median), ("PokerKit ", pk_median)):
        print(
            f"{name} : {actions / median:12,.0f} actions/s "
            f" ({hands / median:,.0f} hands/s, median of {reps})"
        )
    verdict = "meets" if ratio >= TARGET_RATIO else "MISSES"
    print(f"ratio     : {ratio:.2f}x PokerKit  ({verdict} the {TARGET_RATIO:.0f}x goal)")
    verdict = "meets" if max_pack <= TARGET_STATE else "MISSES"
    print(
        f"state     : {max_pack:,} bytes msgpack snapshot{where}"
        f" ({verdict} the {TARGET_STATE:,}-byte goal)"
    )


def race_recorded(
    hands: list[Any],
    actions: int,
    pokerkit: Callable[[list[Any]], None],
    reps: int,
    max_pack: int,
    profiled: bool,
) -> None:
    """:func:`race` of recorded hands (stud, draw: each a config and its commands) replayed by
    the engine and by ``pokerkit``; then the engine's profile when asked."""
    race(
        len(hands),
        actions,
        lambda: timed(replay_tablewire, hands),
        lambda: timed(pokerkit, hands),
        reps,
        max_pack,
        ", max over every command of every hand",
    )
    if profiled:
        profile(lambda: replay_tablewire(hands))


def profile(replay: Callable[[], None]) -> None:
    """A cProfile of one Tablewire replay pass, by own and by cumulative time."""
    profiler = cProfile.Profile()
    profiler.enable()
    replay()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
    print()
    print("cProfile of one Tablewire replay pass, by own time:")
    print(out.getvalue())
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
    print("... by cumulative time:")
    print(out.getvalue())


def stud_main(game: str, count: int, reps: int, seed: int, profiled: bool = False) -> None:
    """The same measures on stud hands (:mod:`engine_stud`)."""
    from engine_stud import generate_stud, replay_pokerkit_stud

    t0 = time.perf_counter()
    hands, max_pack, dropped = generate_stud(game, count, seed)
    for hand in hands[:50]:
        state = new_table(hand.config)
        for cmd in hand.commands:
            state, events = apply(state, cmd)
        ended = next(e for e in events if isinstance(e, HandEnd))
        assert [ended.stacks[n] for n in sorted(hand.config.seats)] == hand.final
    actions = sum(h.actions for h in hands)
    print(
        f"{len(hands)} 6-handed {game} hands (seed {seed}), generated in"
        f" {time.perf_counter() - t0:.1f} s; {dropped} dropped where the two ask different"
        f" things (equal boards, RP-10-D; a raise over a short all-in, 49-B)"
    )
    print(f"  {actions} actions ({actions / len(hands):.1f} a hand, the bring-in included)")
    race_recorded(hands, actions, lambda h: replay_pokerkit_stud(game, h), reps, max_pack, profiled)


if __name__ == "__main__":
    main()
