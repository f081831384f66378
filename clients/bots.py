"""Bot dealers for the demo: they deal, record plausible actions and run hands end to end.

A bot follows its table's events like a dealer station does and sends what a dealer would:
start a hand with dealt cards, an action for the seat prompted (now and then as chips, out of
turn or an under-call, so the rulings show), the next street when a round ends, the hands at
the showdown, and new players when the table runs short. A floor bot answers open floor calls
after a pause, so a person at the floor monitor has time to answer them first.
"""

from __future__ import annotations

import contextlib
import json
import random
from typing import Any

import anyio

from clients.python import Client, CommandRefused
from protocol.commands import Act, AddPlayer, Command, Deal, Ruling, Show, StartHand
from protocol.views import AnyTableView
from protocol.wire import Events, Snapshot

RANKS = "23456789TJQKA"
SUITS = "cdhs"
CHIPS = (25, 100, 500, 1000, 5000, 25000)
NAMES = [
    "Ana",
    "Bo",
    "Chen",
    "Dee",
    "Eli",
    "Fay",
    "Gus",
    "Hana",
    "Ivo",
    "Jun",
    "Kai",
    "Lea",
    "Mo",
    "Noa",
]


def decode(event: Any) -> dict[str, Any]:
    if isinstance(event, dict):
        return event
    return dict(json.loads(bytes(event)))


def chips_for(amount: int) -> list[int]:
    """Chips a player might push for ``amount``, largest first."""
    out: list[int] = []
    for chip in sorted(CHIPS, reverse=True):
        while amount >= chip and len(out) < 12:
            out.append(chip)
            amount -= chip
    return out or [CHIPS[0]]


class TableBot:
    """Deals one table continuously through a client allowed to send its commands."""

    def __init__(
        self,
        client: Client,
        tournament: str,
        table: str,
        seed: int,
        pace: float = 0.6,
        seats: dict[int, int] | None = None,
    ) -> None:
        self.client, self.tournament, self.table = client, tournament, table
        self.rng = random.Random(seed)
        self.pace = pace
        self.seq = 0
        self.phase = "idle"
        self.prompt: dict[str, Any] | None = None
        self.next_street = ""
        self.live: set[int] = set()
        self.shown: set[int] = set()
        self.hole: dict[int, list[str]] = {}
        self.deck: list[str] = []
        self.stacks: dict[int, int] = dict(seats or {})
        self.bets: dict[int, int] = {}
        self.hands = 0

    def see(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind == "hand_start":
            self.phase, self.live, self.shown = "betting", set(event["dealt"]), set()
            self.bets = {}
            for post in event["posts"]:
                if post["kind"] != "ante":
                    self.bets[post["seat"]] = self.bets.get(post["seat"], 0) + post["amount"]
        elif kind == "prompt":
            self.prompt, self.phase = event, "betting"
        elif kind == "action":
            self.bets[event["seat"]] = event["total"]
            if event["action"] == "fold":
                self.live.discard(event["seat"])
        elif kind == "round_end":
            self.prompt = None
            self.next_street = event["next"]
            self.phase = (
                "showdown" if event["next"] == "showdown" else ("deal" if event["next"] else "over")
            )
        elif kind == "dealt":
            self.phase, self.bets = "betting", {}
        elif kind == "shown":
            (self.live.discard if event.get("mucked") else self.shown.add)(event["seat"])
        elif kind == "floor_call" and event.get("blocking", True):
            self.phase, self.prompt = "floor", None
        elif kind == "hand_end":
            self.phase, self.prompt = "idle", None
            self.stacks = {int(k): v for k, v in event["stacks"].items()}
            self.hands += 1
        elif kind == "player_added":
            self.stacks[event["seat"]] = event["stack"]
        elif kind == "misdeal":
            self.phase = "idle"

    def see_snapshot(self, state: AnyTableView) -> None:
        self.phase = state.phase
        self.stacks = {s.seat: s.stack for s in state.seats}
        self.live = {s.seat for s in state.seats if s.in_hand}

    def choose(self) -> Command | None:
        """The dealer's next command, or None while someone else (the floor) must act."""
        if self.phase == "idle":
            short = [n for n in range(1, 10) if self.stacks.get(n, 0) == 0]
            if len([n for n, s in self.stacks.items() if s > 0]) < 4 and short:
                seat = self.rng.choice(short)
                return AddPlayer(seat=seat, stack=20_000, name=self.rng.choice(NAMES))
            self.deck = [r + s for r in RANKS for s in SUITS]
            self.rng.shuffle(self.deck)
            seats = [n for n, s in self.stacks.items() if s > 0]
            self.hole = {n: [self.deck.pop(), self.deck.pop()] for n in seats}
            return StartHand(cards=self.hole)
        if self.phase == "deal" and self.next_street in ("flop", "turn", "river"):
            self.deck.pop()  # the burn
            count = 3 if self.next_street == "flop" else 1
            return Deal(street=self.next_street, cards=[self.deck.pop() for _ in range(count)])  # type: ignore[arg-type]
        if self.phase == "showdown":
            waiting = sorted(self.live - self.shown)
            return Show(seat=waiting[0], cards=self.hole.get(waiting[0], [])) if waiting else None
        if self.phase == "betting" and self.prompt is not None:
            return self._action(self.prompt)
        return None

    def _action(self, p: dict[str, Any]) -> Act:
        seat, options, to_call = p["seat"], p["options"], p["to_call"]
        roll = self.rng.random()
        others = sorted(self.live - {seat})
        if roll < 0.02 and len(others) > 1:
            # Now and then a player acts out of turn (55).
            return Act(seat=self.rng.choice(others), declare="call" if to_call else "check")
        if roll < 0.04 and to_call >= 2 * CHIPS[0] and len(self.live) > 2:
            # ... or under-calls: a full call or a floor call (53-B).
            return Act(seat=seat, chips=chips_for(to_call // 2))
        roll = self.rng.random()
        if "raise" in options or "bet" in options:
            if roll < 0.12:
                total = p["min_raise_to"]
                if self.rng.random() < 0.5:
                    # Push chips silently: the 50% rule and the multiple-chip rule apply.
                    return Act(seat=seat, chips=chips_for(total - self.bets.get(seat, 0)))
                return Act(seat=seat, declare="raise", amount=total)
            if roll < 0.14:
                return Act(seat=seat, declare="all_in")
        if to_call and roll < 0.30:
            return Act(seat=seat, declare="fold")
        if to_call and roll < 0.36:
            return Act(seat=seat, chips=chips_for(to_call))
        return Act(seat=seat, declare="call" if to_call else "check")

    async def run(self, stop: anyio.Event) -> None:
        await self.client.subscribe(self.tournament, self.table)
        if self.seq == 0:
            await self._step()
        async for message in self.client.messages():
            if stop.is_set():
                return
            if isinstance(message, Snapshot):
                self.seq = message.seq
                self.see_snapshot(message.state)
            elif isinstance(message, Events):
                for event in message.events:
                    self.see(decode(event))
                self.seq = message.seq + len(message.events) - 1
            else:
                continue
            await self._step()

    async def _step(self) -> None:
        command = self.choose()
        if command is None:
            return
        await anyio.sleep(self.pace * (0.5 + self.rng.random()))
        command_id = self.client.next_id()
        for _ in range(20):
            try:
                await self.client.command(
                    self.tournament, self.table, command, command_id, after=self.seq
                )
                return
            except CommandRefused as refused:
                if refused.error.code not in ("disconnected", "busy", "internal"):
                    return
            except (TimeoutError, ConnectionError):
                pass
            await anyio.sleep(0.25)


class FloorBot:
    """Answers open floor calls after ``patience`` seconds with the first option offered."""

    def __init__(self, client: Client, tournament: str, patience: float = 8.0) -> None:
        self.client, self.tournament, self.patience = client, tournament, patience
        self.open: dict[tuple[str, int], float] = {}
        self.options: dict[tuple[str, int], list[str]] = {}

    async def run(self, stop: anyio.Event) -> None:
        await self.client.subscribe(self.tournament)
        async with anyio.create_task_group() as group:
            group.start_soon(self._answer, stop)
            async for message in self.client.messages():
                if stop.is_set():
                    group.cancel_scope.cancel()
                    return
                if not isinstance(message, Events):
                    continue
                for raw in message.events:
                    event = decode(raw)
                    key = (message.table, event.get("call", 0))
                    if event["type"] == "floor_call":
                        self.open[key] = anyio.current_time() + self.patience
                        self.options[key] = event["options"]
                    elif event["type"] == "ruling":
                        self.open.pop(key, None)

    async def _answer(self, stop: anyio.Event) -> None:
        while not stop.is_set():
            await anyio.sleep(0.5)
            now = anyio.current_time()
            for (table, call), due in list(self.open.items()):
                if due <= now:
                    self.open.pop((table, call), None)
                    option = self.options[(table, call)][0]
                    with contextlib.suppress(CommandRefused, TimeoutError, ConnectionError):
                        await self.client.command(
                            self.tournament, table, Ruling(call=call, option=option)
                        )
