"""The bot dealer: legal poker from a table's prompts, for the demo, the service tests and the
load benchmark alike, so that all three exercise the same play.

A :class:`DealerBot` is fed one table's events in order and always knows the dealer's next
command (``pending``, or None while the table waits on someone else — the floor): it starts
a hand with hole cards from a shuffled deck, answers each ``prompt`` with one of its
``options`` as its :class:`Style` says, deals the street a ``round_end`` names (burn, then the
cards), shows hands in the showdown order, and starts the next hand after ``hand_end``. It
reads no socket and no clock; how its commands travel is its driver's business:

- :class:`Mirror` keeps a copy of the table through the pure engine (``server.engine.apply``)
  and feeds the bot the events each command makes, so the caller knows the table's event
  numbers before the server answers (the load benchmark keeps several commands in flight);
- :func:`deal_tables` plays tables through a :class:`~clients.python.Client`, following the
  events the server sends, so whoever else acts at a table (a person at the dealer station,
  the floor) just moves the bot's picture of it on (the demo);
- the service tests send its commands one by one and check every answer
  (``tests/service/bots.py``).

Beside the dealers, :class:`FloorBot` is the floor: it answers the floor calls nobody else
does and, in a tournament with a structure, moves a player left alone at a table and colors the
chips up at a break (its picture of the seating: :class:`Seating`), so the demo's tournament
and the service tests' play down to a winner.

The bot's choices depend only on its seed and the events it was fed: two bots with one seed
fed one table make the same decisions.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import msgspec
from websockets.exceptions import ConnectionClosed

from clients.python import Client, CommandRefused
from protocol.commands import Act, AddPlayer, Command, Deal, Declaration, Ruling, Show, StartHand
from protocol.config import DEFAULT_CHIPS, TableConfig
from protocol.events import (
    ActionEvent,
    CardsShown,
    ChipsAdded,
    ColoredUp,
    ErrorEvent,
    Event,
    FloorCall,
    HandEnd,
    HandStart,
    Misdealt,
    OutOfTurn,
    OutOfTurnReleased,
    PlayerAdded,
    PlayerRemoved,
    Prompt,
    RoundEnd,
    RulingMade,
    ShowdownOrder,
)
from protocol.tournament import ColorUp, MovePlayer
from protocol.tournament.views import TournamentView
from protocol.views import TableView
from protocol.wire import Events, ServerMessage, Snapshot, TournamentEvents, TournamentSnapshot
from server.engine import TableState, apply, evolve, new_table
from server.engine.buttons import next_positions

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]
STREET_CARDS = {"flop": 3, "turn": 1, "river": 1}
SEATS = range(1, 10)
"""Where new players sit down: a nine-handed table."""
NAMES = ("Ana", "Bo", "Chen", "Dee", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea")


@dataclass(frozen=True, slots=True)
class Style:
    """How the bot's players play: the chance of each move at a prompt, where the move is open.

    Facing a bet, the chances are taken in the order fold, raise, all in, chips for the call;
    where checking is open, bet (a raise on the big blind's option), all in; what is left is a
    call or a check. The defaults play legal poker that never needs the floor."""

    bet: float = 0.15
    """A minimum bet where checking is open."""
    fold: float = 0.30
    raise_: float = 0.06
    """A minimum raise facing a bet."""
    all_in: float = 0.0
    chips: float = 0.0
    """The share of bets and raises pushed silently as chips instead of declared: the 50% and
    the multiple-chip rules read them (43-48)."""
    call_chips: float = 0.0
    """A call pushed as chips, without a word."""
    out_of_turn: float = 0.0
    """Another live seat acts first (55)."""
    under_call: float = 0.0
    """Chips short of the call pushed (53-B: a full call or a floor call)."""
    players: int = 0
    """Below this many seats with chips, a new player sits down between hands (an
    ``add_player``: the driver's token must allow it)."""


def chips_for(amount: int, denominations: tuple[int, ...]) -> list[int]:
    """The chips a player might push for ``amount``, largest first (at most twelve)."""
    out: list[int] = []
    for chip in sorted(denominations, reverse=True):
        while amount >= chip and len(out) < 12:
            out.append(chip)
            amount -= chip
    return out or [min(denominations)]


def event_of(raw: Any) -> Event:
    """A table event as the client hands it (decoded JSON: seat keys are strings) -> typed."""
    event: Event = msgspec.convert(raw, Event, strict=False)
    return event


class DealerBot:
    """One table's dealer: what to send next, from the table's events."""

    def __init__(self, config: TableConfig, seed: int, style: Style = Style()) -> None:
        self.rng = random.Random(seed)
        self.style = style
        self.denominations = tuple(config.chips)
        self.hole = 4 if "O" in config.game else 2
        self.stacks = dict(config.seats)
        self.live: set[int] = set()
        self.bets: dict[int, int] = {}
        self.all_in: set[int] = set()
        self.ahead: set[int] = set()
        """Seats whose action out of turn waits for the action to reach them."""
        self.deck: list[str] = []
        self.dealt: dict[int, list[str]] = {}
        self.to_show: list[int] = []
        self.blinds: tuple[int, int] | None = None
        """The last hand's button and big blind."""
        self.between_hands = True
        self.hands = 0
        """Hands ended so far."""
        self.table: TableState | None = new_table(config)
        """The table as its events describe it (the engine's own picture of it), so that a hand
        is dealt to exactly the seats the engine deals in: a player the tournament seats between
        the small blind and the button waits for the button (9-A, 11-A), and cards given to
        that seat would be refused. None once the bot picked the table up from a view."""
        self.waiting: set[int] = set()
        """Seats taken since the last hand, not dealt in yet (what a view says, after a resume)."""
        self.irregular = style.out_of_turn > 0 or style.under_call > 0
        self.pending: Command | None = self._next_hand()
        self._handlers: dict[type, Callable[[Any], None]] = {
            Prompt: self._prompt,
            ActionEvent: self._action,
            RoundEnd: self._round_end,
            HandStart: self._hand_start,
            ShowdownOrder: self._showdown,
            CardsShown: self._shown,
            FloorCall: self._floor_call,
            HandEnd: self._hand_end,
            Misdealt: self._misdealt,
            PlayerAdded: self._seat_changed,
            PlayerRemoved: self._seat_changed,
            ChipsAdded: self._seat_changed,
            ColoredUp: self._colored_up,
            OutOfTurn: self._out_of_turn,
            OutOfTurnReleased: self._out_of_turn,
        }

    def see(self, event: Event) -> None:
        """Take the table's next event; ``pending`` follows it."""
        if self.table is not None:
            try:
                evolve(self.table, event)
            except (AssertionError, KeyError, ValueError):
                self.table = None  # the events are not of the table the bot was given
        handle = self._handlers.get(type(event))
        if handle is not None:
            handle(event)

    def resume(self, view: TableView) -> None:
        """Start over from a table view: a snapshot replaced events the bot did not see."""
        self.table = None
        self.stacks = {s.seat: s.stack for s in view.seats}
        self.waiting = {s.seat for s in view.seats if s.waiting}
        self.live = {s.seat for s in view.seats if s.in_hand}
        self.bets = {s.seat: s.bet for s in view.seats}
        self.all_in = {s.seat for s in view.seats if s.all_in}
        self.ahead = {o.seat for o in view.out_of_turn}
        seen = set(view.board).union(*(s.cards for s in view.seats))
        self.deck = [card for card in DECK if card not in seen]
        self.rng.shuffle(self.deck)
        self.between_hands = view.phase == "idle"
        self.to_show = sorted(s.seat for s in view.seats if s.in_hand and not s.shown)
        if self.between_hands:
            self.pending = self._next_hand()
        elif view.prompt is not None:
            self.pending = self._answer(view.prompt)
        elif view.next_street in STREET_CARDS:
            self.pending = self._deal(view.next_street)
        elif view.phase == "showdown" and self.to_show:
            self.pending = Show(seat=self.to_show[0])
        else:
            self.pending = None

    # --- the events -----------------------------------------------------------------------

    def _prompt(self, e: Prompt) -> None:
        self.pending = self._answer(e)

    def _action(self, e: ActionEvent) -> None:
        self.bets[e.seat] = e.total
        if e.action == "fold":
            self.live.discard(e.seat)
        self.ahead.discard(e.seat)
        if e.all_in:
            self.all_in.add(e.seat)

    def _out_of_turn(self, e: OutOfTurn | OutOfTurnReleased) -> None:
        (self.ahead.add if isinstance(e, OutOfTurn) else self.ahead.discard)(e.seat)

    def _round_end(self, e: RoundEnd) -> None:
        self.bets = {}
        self.ahead = set()
        # Else the showdown order, an exposure or the end of the hand follows.
        self.pending = self._deal(e.next) if e.next in STREET_CARDS else None

    def _hand_start(self, e: HandStart) -> None:
        self.between_hands = False
        self.blinds = (e.button, e.big_blind)
        self.live = set(e.dealt)
        self.bets = {p.seat: p.amount for p in e.posts if p.kind != "ante"}
        self.all_in = {p.seat for p in e.posts if p.all_in}
        self.ahead = set()
        self.to_show = []
        self.waiting -= set(e.dealt)
        if e.cards != self.dealt:  # someone else dealt this hand: deal on from what is left
            seen = {card for cards in e.cards.values() for card in cards}
            self.deck = [card for card in DECK if card not in seen]
            self.rng.shuffle(self.deck)
        self.pending = None

    def _showdown(self, e: ShowdownOrder) -> None:
        self.to_show = list(e.order)
        self.pending = Show(seat=self.to_show[0]) if self.to_show else None

    def _shown(self, e: CardsShown) -> None:
        if self.to_show and self.to_show[0] == e.seat:
            self.to_show.pop(0)
        self.pending = Show(seat=self.to_show[0]) if self.to_show else None

    def _floor_call(self, e: FloorCall) -> None:
        if e.blocking:
            self.pending = None  # the hand waits on the floor's ruling

    def _hand_end(self, e: HandEnd) -> None:
        self.hands += 0 if e.void else 1
        self.stacks = dict(e.stacks)
        self.between_hands = True
        self.pending = self._next_hand()

    def _misdealt(self, e: Misdealt) -> None:
        self.between_hands = True
        self.pending = self._next_hand()

    def _seat_changed(self, e: PlayerAdded | PlayerRemoved | ChipsAdded) -> None:
        if isinstance(e, PlayerRemoved):
            self.stacks.pop(e.seat, None)
            self.waiting.discard(e.seat)
        else:
            self.stacks[e.seat] = e.stack
            if isinstance(e, PlayerAdded):
                self.waiting.add(e.seat)
        if self.between_hands:  # who is dealt in changed
            self.pending = self._next_hand()

    def _colored_up(self, e: ColoredUp) -> None:
        self.stacks = dict(e.stacks)
        self.denominations = tuple(e.chips)

    # --- the commands ---------------------------------------------------------------------

    def _next_hand(self) -> Command:
        seats = sorted(n for n, chips in self.stacks.items() if chips > 0)
        if len(seats) < self.style.players:
            empty = [n for n in SEATS if self.stacks.get(n, 0) == 0 and self._dealt_in(n)]
            if empty:
                seat = self.rng.choice(empty)
                return AddPlayer(seat=seat, stack=20_000, name=self.rng.choice(NAMES))
        self.deck = DECK[:]
        self.rng.shuffle(self.deck)
        deck = self.deck
        self.dealt = {n: [deck.pop() for _ in range(self.hole)] for n in self._dealt_seats(seats)}
        return StartHand(cards=self.dealt)

    def _dealt_seats(self, seats: list[int]) -> list[int]:
        """Of the seats with chips, those the next hand is dealt to: the engine's answer from
        the bot's picture of the table; after a resume, all but new players who may have to wait
        for the button."""
        if self.table is not None:
            where = next_positions(self.table)
            return list(where.dealt) if where is not None else seats
        return [n for n in seats if n not in self.waiting or self._dealt_in(n)]

    def _dealt_in(self, seat: int) -> bool:
        """Whether a player seated at ``seat`` now is dealt the next hand, so its cards may be
        given: not one seated between the small blind and the button, who waits for the button
        to pass (9-A, 11-A). The next button is at or after the last one and before the last
        big blind, so a seat clockwise strictly between those two may have to wait."""
        if self.blinds is None:
            return True
        button, big_blind = self.blinds
        if button < big_blind:
            return not button < seat < big_blind
        return not (seat > button or seat < big_blind)

    def _deal(self, street: str) -> Deal:
        self.deck.pop()  # the burn
        cards = [self.deck.pop() for _ in range(STREET_CARDS[street])]
        return Deal(street=street, cards=cards)  # type: ignore[arg-type]

    def _answer(self, p: Prompt) -> Act:
        style, seat = self.style, p.seat
        if self.irregular:
            odd = self._irregular(p)
            if odd is not None:
                return odd
        roll = self.rng.random()
        can_raise = p.can_raise and p.min_raise_to is not None
        if p.to_call == 0:
            if can_raise and roll < style.bet:
                return self._raise(p, "bet" if "bet" in p.options else "raise")
            if can_raise and roll < style.bet + style.all_in:
                return Act(seat=seat, declare="all_in")
            return Act(seat=seat, declare="check")
        if roll < style.fold:
            return Act(seat=seat, declare="fold")
        roll -= style.fold
        if can_raise and roll < style.raise_:
            return self._raise(p, "raise")
        roll -= style.raise_
        if can_raise and roll < style.all_in:
            return Act(seat=seat, declare="all_in")
        roll -= style.all_in
        if roll < style.call_chips:
            return Act(seat=seat, chips=chips_for(p.to_call, self.denominations))
        return Act(seat=seat, declare="call")

    def _raise(self, p: Prompt, declare: Declaration) -> Act:
        total = p.min_raise_to or 0
        if self.style.chips and self.rng.random() < self.style.chips:
            pushed = total - self.bets.get(p.seat, 0)
            return Act(seat=p.seat, chips=chips_for(pushed, self.denominations))
        return Act(seat=p.seat, declare=declare, amount=total)

    def _irregular(self, p: Prompt) -> Act | None:
        roll, style = self.rng.random(), self.style
        others = sorted(self.live - self.all_in - self.ahead - {p.seat})
        if roll < style.out_of_turn and len(others) > 1:
            return Act(seat=self.rng.choice(others), declare="call" if p.to_call else "check")
        roll -= style.out_of_turn
        smallest = min(self.denominations)
        if roll < style.under_call and p.to_call >= 2 * smallest and len(self.live) > 2:
            return Act(seat=p.seat, chips=chips_for(p.to_call // 2, self.denominations))
        return None


class Mirror:
    """A bot dealer that keeps its own copy of the table (the pure engine), so it knows the
    events, hence the event numbers, each of its commands makes before the server answers."""

    def __init__(self, config: TableConfig, seed: int, style: Style = Style()) -> None:
        self.state: TableState = new_table(config)
        self.bot = DealerBot(config, seed, style)

    def step(self) -> tuple[Command, int]:
        """The next command and how many events it makes; the mirror moves on."""
        command = self.bot.pending
        if command is None:
            raise RuntimeError("the bot has nothing to send: the table waits on the floor")
        state, events = apply(self.state, command)
        if len(events) == 1 and isinstance(events[0], ErrorEvent):
            raise RuntimeError(f"the bot made an illegal move {command}: {events[0].message}")
        self.state = state
        see = self.bot.see
        for event in events:
            see(event)
        return command, len(events)


# --- through a client: the demo ---------------------------------------------------------------


async def deal_tables(
    client: Client,
    tournament: str,
    tables: Mapping[str, TableConfig],
    *,
    seed: int,
    pace: float,
    style: Style = Style(),
) -> None:
    """Deal ``tables`` through ``client`` until cancelled or the client closes.

    Each table's bot sends its next command about ``pace`` seconds after the table last
    moved, conditional on the event it decided from (``after``): a command decided from a
    picture of the table someone else has changed since is refused (``stale``), not applied,
    and the bot decides again from the events that changed it. The client must be running
    (``client.run``), allowed to send the tables' commands, and read by nobody else."""
    dealers = {
        table: _Table(client, tournament, table, DealerBot(config, seed + n, style), seed + n)
        for n, (table, config) in enumerate(tables.items())
    }
    for table in dealers:
        await client.subscribe(tournament, table)
    async with anyio.create_task_group() as group:
        for dealer in dealers.values():
            group.start_soon(dealer.run, pace)
        async for message in client.messages():
            if isinstance(message, Events | Snapshot) and message.tournament == tournament:
                found = dealers.get(message.table)
                if found is not None:
                    found.take(message)
        group.cancel_scope.cancel()


class _Table:
    """One table of :func:`deal_tables`: its bot and the last event number it saw."""

    def __init__(
        self, client: Client, tournament: str, table: str, bot: DealerBot, seed: int
    ) -> None:
        self.client, self.tournament, self.table, self.bot = client, tournament, table, bot
        self.rng = random.Random(seed)
        self.seq = 0
        self.moved = anyio.Event()

    def take(self, message: Events | Snapshot) -> None:
        if isinstance(message, Snapshot):
            if isinstance(message.state, TableView):
                self.bot.resume(message.state)
            self.seq = message.seq
        else:
            for raw in message.events:
                self.bot.see(event_of(raw))
            self.seq = message.seq + len(message.events) - 1
        self.moved.set()
        self.moved = anyio.Event()

    async def run(self, pace: float) -> None:
        while True:
            seq, command = self.seq, self.bot.pending
            if command is not None:
                await anyio.sleep(pace * (0.5 + self.rng.random()))
                if seq == self.seq and await self._send(command, seq):
                    continue  # nothing changed (the server was busy): send it again
            if self.seq == seq:
                await self.moved.wait()

    async def _send(self, command: Command, seq: int) -> bool:
        """Send ``command`` after event ``seq``; True if it should be sent again."""
        try:
            await self.client.command(self.tournament, self.table, command, after=seq)
        except CommandRefused as refused:
            # Stale: the events that moved the table are on their way. Anything else: the
            # bot waits for the table to move (the floor, or a person at the station).
            return refused.error.code == "busy"
        except (TimeoutError, ConnectionError, ConnectionClosed):
            return True  # the client gave up on an unknown outcome: the same move again
        return False


class FloorBot:
    """The floor: answers open floor calls after ``patience`` seconds with the first option
    offered, so a person at the floor monitor has time to answer them first.

    With ``moves``, in a tournament with a structure, it also keeps the field playing down to a
    winner without balancing (the next issue): a player left alone at a table is moved to the
    fullest table with a free seat once that table is between hands (8); and at a break that
    colors chips up (26) each table's leftover chips — what a stack holds below the new
    smallest chip — come off once the table's last hand has ended (26-C). ``chips`` are the
    denominations the tables open with (the structure's ``chips``).

    ``run`` returns when the tournament has a winner."""

    def __init__(
        self,
        client: Client,
        tournament: str,
        patience: float = 8.0,
        *,
        moves: bool = False,
        chips: tuple[int, ...] = DEFAULT_CHIPS,
    ) -> None:
        self.client, self.tournament, self.patience = client, tournament, patience
        self.moves = moves
        self.open: dict[tuple[str, int], tuple[float, str]] = {}
        self.seating = Seating(chips)
        self.changed = anyio.Event()
        self.moved = 0
        """Players moved so far."""

    async def run(self) -> None:
        """Until the winner, cancelled or the client closes; the client is read by nobody
        else."""
        await self.client.subscribe(self.tournament)
        async with anyio.create_task_group() as group:
            group.start_soon(self._answer)
            if self.moves:
                group.start_soon(self._tables)
            async for message in self.client.messages():
                self._take(message)
                if self.seating.won:
                    break
            group.cancel_scope.cancel()

    def _take(self, message: ServerMessage) -> None:
        seating = self.seating
        if isinstance(message, Events) and message.tournament == self.tournament:
            for raw in message.events:
                event = event_of(raw)
                if isinstance(event, FloorCall):
                    due = anyio.current_time() + self.patience
                    self.open[(message.table, event.call)] = (due, event.options[0])
                elif isinstance(event, RulingMade):
                    self.open.pop((message.table, event.call), None)
                seating.table_event(message.table, event)
        elif isinstance(message, Snapshot) and message.tournament == self.tournament:
            if isinstance(message.state, TableView):
                seating.table_view(message.table, message.state)
        elif isinstance(message, TournamentSnapshot) and message.tournament == self.tournament:
            seating.view(message.state)
        elif isinstance(message, TournamentEvents) and message.tournament == self.tournament:
            for event in message.events:
                seating.tournament_event(event)
        else:
            return
        self.changed.set()

    async def _answer(self) -> None:
        while True:
            await anyio.sleep(0.5)
            now = anyio.current_time()
            for (table, call), (due, option) in list(self.open.items()):
                if due <= now:
                    self.open.pop((table, call), None)
                    with contextlib.suppress(
                        CommandRefused, TimeoutError, ConnectionError, ConnectionClosed
                    ):
                        await self.client.command(
                            self.tournament, table, Ruling(call=call, option=option)
                        )

    async def _tables(self) -> None:
        """After every change: the moves and color-ups due, one at a time; one refused waits
        for the next change (a table's hand ending, a player seated or gone)."""
        while True:
            await self.changed.wait()
            self.changed = anyio.Event()
            while await self._step():
                pass

    async def _step(self) -> bool:
        """Send the next move or color-up due; True if one was made."""
        seating = self.seating
        command: MovePlayer | ColorUp | None = seating.lone_move() or seating.color_up()
        if command is None:
            return False
        try:
            await self.client.tournament_command(self.tournament, command)
        except CommandRefused as refused:
            if isinstance(command, ColorUp) and refused.error.code not in ("hand_in_play", "busy"):
                seating.to_color.discard(command.table)  # refused for good: it keeps its chips
            return False
        except (TimeoutError, ConnectionError, ConnectionClosed):
            return False
        if isinstance(command, MovePlayer):
            seating.where[command.player] = (command.table, command.seat)
            self.moved += 1
        else:
            seating.to_color.discard(command.table)
        return True


class Seating:
    """A tournament's seating as a whole-tournament subscription tells it: who sits where
    (``tournament_snapshot``, then ``seated``, ``moved``, ``eliminated`` ...), each table's seats,
    and from the tables' own events which of them has a hand in play and its stacks and chips —
    what the floor bot decides its moves and color-ups from."""

    def __init__(self, chips: tuple[int, ...] = DEFAULT_CHIPS) -> None:
        self.seats: dict[str, int] = {}
        """Open tables and their seats."""
        self.where: dict[str, tuple[str, int]] = {}
        """Seated players: table and seat."""
        self.playing: set[str] = set()
        """Tables with a hand in play."""
        self.stacks: dict[str, dict[int, int]] = {}
        self.chips: dict[str, tuple[int, ...]] = {}
        self.opening_chips = tuple(chips)
        self.race: set[int] = set()
        """The denominations the break in progress colors up."""
        self.to_color: set[str] = set()
        """The tables whose color-up at this break is still to be done."""
        self.won = False

    def view(self, view: TournamentView) -> None:
        self.seats = {t.table: t.seats for t in view.tables}
        self.where = {
            p.player: (p.table, p.seat)
            for p in view.players
            if p.status == "seated" and p.table is not None and p.seat is not None
        }
        self.won = view.finished

    def tournament_event(self, e: dict[str, Any]) -> None:
        kind = e.get("type")
        if kind == "table_opened":
            self.seats[e["table"]] = e["seats"]
        elif kind == "table_closed":
            self.seats.pop(e["table"], None)
        elif kind in ("seated", "moved"):
            self.where[e["player"]] = (e["table"], e["seat"])
        elif kind in ("eliminated", "disqualified", "unregistered"):
            self.where.pop(e["player"], None)
        elif kind == "winner":
            self.won = True
        elif kind == "break_started":
            self.race = set(e.get("color_up") or ())
            self.to_color = set(self.seats) if self.race else set()
        elif kind == "level_started":
            self.race, self.to_color = set(), set()

    def table_event(self, table: str, e: Event) -> None:
        stacks = self.stacks.setdefault(table, {})
        if isinstance(e, HandStart):
            self.playing.add(table)
        elif isinstance(e, HandEnd):
            self.playing.discard(table)
            if not e.void:
                busted = set(e.busted)
                self.stacks[table] = {n: c for n, c in e.stacks.items() if n not in busted}
        elif isinstance(e, Misdealt):
            self.playing.discard(table)
        elif isinstance(e, PlayerAdded | ChipsAdded):
            stacks[e.seat] = e.stack
        elif isinstance(e, PlayerRemoved):
            stacks.pop(e.seat, None)
        elif isinstance(e, ColoredUp):
            self.stacks[table] = dict(e.stacks)
            self.chips[table] = tuple(e.chips)

    def table_view(self, table: str, view: TableView) -> None:
        (self.playing.add if view.phase != "idle" else self.playing.discard)(table)
        self.stacks[table] = {s.seat: s.stack for s in view.seats if s.stack > 0}
        self.chips[table] = tuple(view.chips)

    def lone_move(self) -> MovePlayer | None:
        """A player alone at a table to the fullest other table with a free seat, when both are
        between hands (the player's is: one player deals no hand)."""
        by_table: dict[str, dict[int, str]] = {}
        for player, (table, seat) in sorted(self.where.items()):
            by_table.setdefault(table, {})[seat] = player
        if len(by_table) < 2:
            return None
        for table, here in sorted(by_table.items()):
            if len(here) != 1 or table in self.playing:
                continue
            others = [
                t
                for t in sorted(by_table)
                if t != table and len(by_table[t]) < self.seats.get(t, 0)
            ]
            if not others:
                continue
            to = max(others, key=lambda t: len(by_table[t]))
            if to in self.playing:
                continue  # the move is made between that table's hands
            free = min(s for s in range(1, self.seats[to] + 1) if s not in by_table[to])
            (player,) = here.values()
            return MovePlayer(player=player, table=to, seat=free)
        return None

    def color_up(self) -> ColorUp | None:
        """The color-up of a table between hands whose chips the break races off: each seat's
        leftover below the new smallest chip comes off (26-C)."""
        for table in sorted(self.to_color - self.playing):
            chips = self.chips.get(table, self.opening_chips)
            kept = [c for c in chips if c not in self.race]
            if not kept or kept == list(chips):
                self.to_color.discard(table)
                continue
            unit = min(kept)
            stacks = self.stacks.get(table, {})
            removed = {n: stack % unit for n, stack in sorted(stacks.items()) if stack % unit}
            return ColorUp(table=table, removed=removed)
        return None
