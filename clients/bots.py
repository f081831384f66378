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
and the service tests' play down to a winner. Given its :class:`Duties` it does the floor's
work across the tables (issue 13; its picture of them: :class:`Across`): it confirms the
balancing moves, breaks the tables the tournament proposes, brings the final table together,
races the chips off at a color-up, runs hand-for-hand at the bubble and waives a stoppage
nobody resolves.

The bot's choices depend only on its seed and the events it was fed: two bots with one seed
fed one table make the same decisions.
"""

from __future__ import annotations

import contextlib
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import anyio
import msgspec
from websockets.exceptions import ConnectionClosed

from clients.deck import STREET_CARDS, Deck
from clients.next_game import GameInPlay
from clients.python import Client, CommandRefused
from protocol.commands import (
    Act,
    AddPlayer,
    Command,
    Deal,
    Declaration,
    Draw,
    Ruling,
    Show,
    StartHand,
)
from protocol.config import DEFAULT_CHIPS, TableConfig
from protocol.events import (
    ActionEvent,
    CardsHeld,
    CardsReleased,
    CardsShown,
    ChipsAdded,
    ColoredUp,
    DrawPrompt,
    ErrorEvent,
    Event,
    FloorCall,
    HandEnd,
    HandStart,
    LevelSet,
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
from protocol.tournament import (
    BreakTable,
    ColorUp,
    ConfirmMove,
    FinalTable,
    MovePlayer,
    NextLevel,
    ReleaseAllIn,
    ReleaseTables,
    StartHandForHand,
    TournamentCommand,
    WaiveStoppage,
)
from protocol.tournament.views import TournamentView
from protocol.views import TableView
from protocol.wire import Events, ServerMessage, Snapshot, TournamentEvents, TournamentSnapshot
from server.engine import TableState, apply, evolve, new_table
from server.engine.buttons import next_positions
from server.engine.games import STUD, STUD_STREETS, streets

DEALT_STREETS = frozenset({*STREET_CARDS, *STUD_STREETS})
"""The streets the dealer deals after a betting round: the flop games' and stud's."""
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
        self.playing = GameInPlay(config.game, [g.game for g in config.rotation])
        """The table's game, and the next hand's."""
        self.stacks = dict(config.seats)
        self.live: set[int] = set()
        self.bets: dict[int, int] = {}
        self.all_in: set[int] = set()
        self.ahead: set[int] = set()
        """Seats whose action out of turn waits for the action to reach them."""
        self.cards = Deck(self.rng)
        self.started: StartHand | None = None
        """The cards the bot dealt the hand in play."""
        self.drawing = ""
        """The draw under way (its street), in a draw game."""
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
            DrawPrompt: self._draw_prompt,
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
            LevelSet: self._level,
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
        self.playing = GameInPlay.of(view)
        hands = {s.seat: [*s.cards, *s.up] for s in view.seats if s.dealt}
        seen = {*view.board, *view.muck, *(card for hand in hands.values() for card in hand)}
        self.cards = Deck(self.rng, seen, stub=view.stub)
        self.cards.muck = [*view.muck, *(c for s in view.seats if s.folded for c in s.cards)]
        self.cards.hands = {s.seat: hands[s.seat] for s in view.seats if s.in_hand}
        self.started = None
        self.drawing = ""
        if view.draw_prompt is not None:
            self.drawing = view.draw_prompt.street
            # A card dealt in this draw already was burnt for: the next one is not (RP-25).
            done = streets(view.game).index(self.drawing) - 1
            self.cards.first_draw = not any(
                len(s.draws) > done and s.draws[done] for s in view.seats
            )
        self.between_hands = view.phase == "idle"
        self.to_show = sorted(s.seat for s in view.seats if s.in_hand and not s.shown)
        if self.between_hands:
            self.pending = self._next_hand()
        elif view.prompt is not None:
            self.pending = self._answer(view.prompt)
        elif view.draw_prompt is not None:
            self.pending = self._draw(view.draw_prompt)
        elif view.phase == "deal" and view.next_street:
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
            self.cards.fold(e.seat)
        self.ahead.discard(e.seat)
        if e.all_in:
            self.all_in.add(e.seat)

    def _out_of_turn(self, e: OutOfTurn | OutOfTurnReleased) -> None:
        (self.ahead.add if isinstance(e, OutOfTurn) else self.ahead.discard)(e.seat)

    def _round_end(self, e: RoundEnd) -> None:
        self.bets = {}
        self.ahead = set()
        # Else a draw, the showdown order, an exposure or the end of the hand follows.
        self.pending = self._deal(e.next) if e.next in DEALT_STREETS else None

    def _hand_start(self, e: HandStart) -> None:
        self.between_hands = False
        self.blinds = (e.button, e.big_blind)
        self.live = set(e.dealt)
        self.bets = {p.seat: p.amount for p in e.posts if p.kind != "ante"}
        self.all_in = {p.seat for p in e.posts if p.all_in}
        self.ahead = set()
        self.to_show = []
        self.waiting -= set(e.dealt)
        self.playing.hand_start(e)
        self.drawing = ""
        started = self.started
        if started is None or (e.cards, e.up) != (started.cards, started.up):
            # Someone else dealt this hand: deal on from what is left.
            seen = [card for cards in (*e.cards.values(), *e.up.values()) for card in cards]
            self.cards = Deck(self.rng, seen)
            self.cards.hands = {n: [*e.cards.get(n, []), *e.up.get(n, [])] for n in e.dealt}
        self.pending = None

    def _draw_prompt(self, e: DrawPrompt) -> None:
        self.pending = self._draw(e)

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

    def _level(self, e: LevelSet) -> None:
        self.playing.level(e)

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
        self.cards = Deck(self.rng)
        game = self.playing.next()
        self.started = self.cards.start(game, self._dealt_seats(seats, game))
        return self.started

    def _dealt_seats(self, seats: list[int], game: str) -> list[int]:
        """Of the seats with chips, those the next hand is dealt to: the engine's answer from
        the bot's picture of the table; after a resume, every one in stud (no button to wait
        for, RP-10), else all but new players who may have to wait for the button."""
        if self.table is not None:
            where = next_positions(self.table)
            return list(where.dealt) if where is not None else seats
        if game in STUD:
            return seats
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
        return self.cards.street(self.playing.game, street, self.live)

    def _draw(self, p: DrawPrompt) -> Draw:
        if p.street != self.drawing:
            self.drawing = p.street
            self.cards.new_draw()
        return self.cards.draw(self.playing.game, p.seat, p.most)

    def _answer(self, p: Prompt) -> Act:
        style, seat = self.style, p.seat
        if "bring_in" in p.options:  # stud's third street (RP-10)
            complete = "complete" in p.options and self.rng.random() < style.raise_
            return Act(seat=seat, declare="complete" if complete else "bring_in")
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


@dataclass(frozen=True, slots=True)
class Duties:
    """What the floor bot does across the tables, besides answering floor calls: the floor's
    work of a tournament with balancing (issue 13). Each is off by default."""

    balance: bool = False
    """Confirm every balancing proposal as proposed (12-A), break the table the tournament
    proposes next (11-B, 12-C: the proposal is staff only) and bring the final table together
    when it is proposed (RP-9)."""
    race: bool = False
    """Color up by the chip race the tournament runs (``color_up`` with a ``draw``, 26-A)
    rather than by taking each seat's leftovers off (26-C)."""
    end_breaks: bool = False
    """End a break (``next_level``) once every table has colored up: the TD's call in a sped-up
    tournament, where the shortest break is a minute."""
    bubble: int = 0
    """Announce hand-for-hand once registration has closed and this many players or fewer are
    left above the places paid, and end it when the bubble bursts (RP-8); 0: never. With the
    structure's ``hand_for_hand_release`` ``floor`` the bot releases each next hand, and it
    releases every hand-for-hand all-in the tables hold (RP-8-F)."""
    waive_after: float = 5.0
    """Seconds a stopped table (12-D) waits for players before the floor waives its stoppage."""


class FloorBot:
    """The floor: answers open floor calls after ``patience`` seconds with the first option
    offered, so a person at the floor monitor has time to answer them first.

    With ``moves``, in a tournament with a structure, it also keeps the field playing down to a
    winner without balancing: a player left alone at a table is moved to the fullest table with
    a free seat once that table is between hands (8); and at a break that colors chips up (26)
    each table's leftover chips — what a stack holds below the new smallest chip — come off
    once the table's last hand has ended (26-C). ``chips`` are the denominations the tables
    open with (the structure's ``chips``).

    With ``duties`` it does the floor's work across the tables (:class:`Duties`): balancing
    moves confirmed, tables broken, the final table, hand-for-hand at the bubble, the color-up
    by a race; the random inputs it sends come from ``seed`` (the service draws its own
    anyway). ``did`` counts what it did, by kind, and the refusals it got (``refused:<code>``).

    ``run`` returns when the tournament has a winner."""

    def __init__(
        self,
        client: Client,
        tournament: str,
        patience: float = 8.0,
        *,
        moves: bool = False,
        chips: tuple[int, ...] = DEFAULT_CHIPS,
        duties: Duties = Duties(),
        seed: int = 0,
    ) -> None:
        self.client, self.tournament, self.patience = client, tournament, patience
        self.moves = moves
        self.duties = duties
        self.rng = random.Random(seed)
        self.open: dict[tuple[str, int], tuple[float, str]] = {}
        self.seating = Seating(chips)
        self.across = Across()
        self.changed = anyio.Event()
        self.moved = 0
        """Players moved so far (lone players, with ``moves``)."""
        self.did: Counter[str] = Counter()
        self.heard = 0.0
        """When the last message of the tournament came (``anyio.current_time()``)."""
        self.refusals: list[tuple[str, str, str]] = []
        """The latest refusals: what (``type:table``), the code and the message."""
        self.backoff: dict[str, float] = {}

    async def run(self) -> None:
        """Until the winner, cancelled or the client closes; the client is read by nobody
        else."""
        self.heard = anyio.current_time()
        await self.client.subscribe(self.tournament)
        async with anyio.create_task_group() as group:
            group.start_soon(self._answer)
            if self.moves or self.duties != Duties():
                group.start_soon(self._tables)
            async for message in self.client.messages():
                self._take(message)
                if self.seating.won:
                    break
            group.cancel_scope.cancel()

    def _take(self, message: ServerMessage) -> None:
        seating, across = self.seating, self.across
        if isinstance(message, Events) and message.tournament == self.tournament:
            for raw in message.events:
                event = event_of(raw)
                if isinstance(event, FloorCall):
                    due = anyio.current_time() + self.patience
                    self.open[(message.table, event.call)] = (due, event.options[0])
                elif isinstance(event, RulingMade):
                    self.open.pop((message.table, event.call), None)
                seating.table_event(message.table, event)
                across.table_event(message.table, event)
        elif isinstance(message, Snapshot) and message.tournament == self.tournament:
            if isinstance(message.state, TableView):
                seating.table_view(message.table, message.state)
                across.table_view(message.table, message.state)
        elif isinstance(message, TournamentSnapshot) and message.tournament == self.tournament:
            seating.view(message.state)
            across.view(message.state)
        elif isinstance(message, TournamentEvents) and message.tournament == self.tournament:
            for event in message.events:
                seating.tournament_event(event)
                across.tournament_event(event, anyio.current_time())
        else:
            return
        self.heard = anyio.current_time()
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
        for the next change (a table's hand ending, a player seated or gone). A stoppage
        waits for its time, so the bot also looks twice a second."""
        while True:
            with anyio.move_on_after(0.5):
                await self.changed.wait()
            self.changed = anyio.Event()
            while await self._step():
                pass

    def _due(self) -> TournamentCommand | None:
        """The next command the floor owes the tournament, or None: the first of them in order
        of urgency that was not refused in the last ``BACKOFF`` seconds (one refused, the
        table it waits for not there yet, leaves the others their turn)."""
        now = anyio.current_time()
        for command in self._owed():
            if self.backoff.get(_key(command), 0.0) <= now:
                return command
        return None

    def _owed(self) -> Iterator[TournamentCommand]:
        seating, duties = self.seating, self.duties
        if self.moves and (move := seating.lone_move()) is not None:
            yield move
        if self.moves or duties.race or duties.end_breaks:
            colored = seating.color_up(self.rng.randrange(2**62) if duties.race else None)
            if colored is not None:
                yield colored
            elif duties.end_breaks and seating.on_break and not seating.to_color - seating.broken:
                yield NextLevel()
        yield from self.across.owed(duties, self.rng, players=len(seating.where), seating=seating)

    async def _step(self) -> bool:
        """Send the next command due; True if one was sent (made or refused)."""
        command = self._due()
        if command is None:
            return False
        try:
            await self.client.tournament_command(self.tournament, command)
        except CommandRefused as refused:
            code = refused.error.code
            self.did[f"refused:{code}"] += 1
            self.refusals.append((_key(command), code, refused.error.message))
            del self.refusals[:-REFUSALS]
            self.backoff[_key(command)] = anyio.current_time() + BACKOFF
            if isinstance(command, ColorUp) and code not in ("hand_in_play", "busy"):
                self.seating.to_color.discard(command.table)  # refused for good: it keeps its chips
            elif isinstance(command, NextLevel) and code != "busy":
                self.seating.on_break = False
            self.across.refused(command, code)
            return True  # what else is owed meanwhile
        except (TimeoutError, ConnectionError, ConnectionClosed):
            return False
        if isinstance(command, MovePlayer):
            self.seating.where[command.player] = (command.table, command.seat)
            self.moved += 1
        elif isinstance(command, ColorUp):
            self.seating.to_color.discard(command.table)
        elif isinstance(command, NextLevel):
            self.seating.on_break = False  # the level it started ends the break
        self.across.done(command)
        self.did[msgspec.to_builtins(command)["type"]] += 1
        return True


BACKOFF = 0.5
"""Seconds the floor bot leaves a refused command before sending it again."""
REFUSALS = 50
"""Refusals :attr:`FloorBot.refusals` keeps (the latest)."""


def _key(command: TournamentCommand) -> str:
    """What a command is about, its random inputs aside: its kind and its table or proposal."""
    fields = msgspec.to_builtins(command)
    return f"{fields['type']}:{fields.get('table', fields.get('proposal', ''))}"


class Across:
    """The tournament across its tables as the floor sees it (issue 13): the balancing proposals
    to confirm, the table to break next (staff only, 12-C), the final table, hand-for-hand, the
    tables' held all-ins and stopped tables — what :class:`FloorBot`'s duties answer."""

    def __init__(self) -> None:
        self.proposals: dict[int, dict[str, Any]] = {}
        """Proposals not yet confirmed, by number (the latest revision)."""
        self.confirmed: set[int] = set()
        self.break_next = ""
        """The table the tournament proposes to break next (12-C)."""
        self.break_refused = False
        """The last break was refused: tried again after the next hand end."""
        self.final: list[str] = []
        """The tables the final table is proposed from (RP-9), until it is drawn."""
        self.closed = False
        self.paid = 0
        self.h4h = False
        self.h4h_over = False
        """Hand-for-hand was on and is over: the bubble burst."""
        self.h4h_ready = False
        """Every table finished the hand-for-hand hand: the floor releases the next one."""
        self.held: set[str] = set()
        """Tables whose hand-for-hand all-in waits for the floor (RP-8-F)."""
        self.stopped: dict[str, float] = {}
        """Stopped tables (12-D) and since when."""

    def view(self, view: TournamentView) -> None:
        self.closed = not view.registration_open
        self.paid = len(view.payouts) if self.closed else 0
        # A view names the moves and hand-for-hand where the service has them.
        moves = getattr(view, "moves", [])
        self.proposals = {m.proposal: {"proposal": m.proposal} for m in moves if not m.confirmed}
        self.confirmed = {m.proposal for m in moves if m.confirmed}
        h = getattr(view, "hand_for_hand", None)
        self.h4h, self.h4h_ready = h is not None, h is not None and h.ready
        self.stopped = {t.table: 0.0 for t in view.tables if getattr(t, "stopped", False)}

    def tournament_event(self, e: dict[str, Any], now: float) -> None:
        kind = e.get("type")
        if kind == "move_proposed" and e["proposal"] not in self.confirmed:
            self.proposals[e["proposal"]] = e
        elif kind == "move_confirmed":
            self.proposals.pop(e["proposal"], None)
            self.confirmed.add(e["proposal"])
        elif kind == "move_dismissed" or (kind == "moved" and e.get("proposal")):
            self.proposals.pop(e["proposal"], None)
            self.confirmed.discard(e["proposal"])
        elif kind == "break_proposed":
            self.break_next, self.break_refused = e["table"], False
        elif kind in ("break_announced", "table_broken") and e["table"] == self.break_next:
            self.break_next = ""
        elif kind == "final_table_proposed":
            self.final = list(e["tables"])
        elif kind in ("final_table_announced", "final_table"):
            self.final = []
        elif kind == "registration_closed":
            self.closed, self.paid = True, len(e.get("prizes") or ())
        elif kind == "hand_for_hand":
            self.h4h, self.h4h_ready = True, False
        elif kind == "hand_for_hand_hand":
            self.h4h_ready = not e.get("released", True)
        elif kind == "tables_released" and e.get("hold") == "h4h":
            self.h4h_ready = False
        elif kind == "hand_for_hand_ended":
            self.h4h, self.h4h_ready, self.h4h_over = False, False, True
        elif kind == "play_stopped":
            self.stopped[e["table"]] = now
        elif kind in ("stoppage_waived", "stoppage_ended"):
            self.stopped.pop(e["table"], None)
        elif kind == "hand_counted":
            self.break_refused = False

    def table_event(self, table: str, e: Event) -> None:
        if isinstance(e, CardsHeld):
            self.held.add(table)
        elif isinstance(e, CardsReleased | HandEnd | Misdealt):
            self.held.discard(table)

    def table_view(self, table: str, view: TableView) -> None:
        held = "release the all-in" in view.waiting_on
        (self.held.add if held else self.held.discard)(table)

    def owed(
        self, duties: Duties, rng: random.Random, *, players: int, seating: Seating
    ) -> Iterator[TournamentCommand]:
        """What the floor owes the tournament now, most urgent first."""
        if duties.bubble and self.closed and self.paid:
            if self.h4h and players <= self.paid:
                yield StartHandForHand(on=False)
            if (
                not self.h4h
                and not self.h4h_over
                and self.paid < players <= self.paid + duties.bubble
            ):
                yield StartHandForHand()
        if duties.balance:
            if self.final:
                here = {t: 0 for t in self.final}
                for table, _ in seating.where.values():
                    if table in here:
                        here[table] += 1
                table = max(sorted(here), key=lambda t: here[t])
                draw, button = rng.randrange(2**62), rng.randrange(2**62)
                yield FinalTable(table=table, draw=draw, button_draw=button)
            for proposal in sorted(self.proposals):
                yield ConfirmMove(proposal=proposal)
            if self.break_next and not self.break_refused:
                draws = rng.randrange(2**62), rng.randrange(2**62)
                yield BreakTable(
                    table=self.break_next, shuffle=draws[0], deal=draws[1], staff="floor bot"
                )
        if self.h4h_ready:
            yield ReleaseTables()
        for table in sorted(self.held):
            yield ReleaseAllIn(table=table)
        now = anyio.current_time()
        for table, since in sorted(self.stopped.items()):
            if now - since >= duties.waive_after:
                yield WaiveStoppage(table=table, by="floor bot", reason="no move came in time")

    def done(self, command: TournamentCommand) -> None:
        """``command`` was applied: what it settled (its events say the rest)."""
        match command:
            case ConfirmMove():
                self.proposals.pop(command.proposal, None)
                self.confirmed.add(command.proposal)
            case BreakTable():
                self.break_next = ""
            case FinalTable():
                self.final = []
            case StartHandForHand():
                self.h4h = command.on
                self.h4h_over = not command.on
            case ReleaseTables():
                self.h4h_ready = False
            case ReleaseAllIn():
                self.held.discard(command.table)
            case WaiveStoppage():
                self.stopped.pop(command.table, None)

    def refused(self, command: TournamentCommand, code: str) -> None:
        """``command`` was refused: drop what is settled for good, try the rest later."""
        match command:
            case ConfirmMove() if code != "busy":
                self.proposals.pop(command.proposal, None)
            case BreakTable():
                self.break_refused = True
            case FinalTable() if code != "busy":
                self.final = []
            case StartHandForHand() if code == "hand_for_hand":
                self.h4h = True
            case StartHandForHand() if code == "not_hand_for_hand":
                self.h4h, self.h4h_over = False, True
            case ReleaseTables() if code != "busy":
                self.h4h_ready = False
            case WaiveStoppage() if code != "busy":
                self.stopped.pop(command.table, None)


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
        self.on_break = False
        """A break that colors up is on (until the next level starts)."""
        self.busted: list[str] = []
        """Players eliminated, in order (each entry once)."""
        self.broken: set[str] = set()
        """Tables broken or merged into the final table: no hands, no color-up (11-B, RP-9)."""
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
            if kind == "eliminated":
                self.busted.append(e["player"])
        elif kind == "winner":
            self.won = True
        elif kind == "break_started":
            self.race = set(e.get("color_up") or ())
            self.to_color = set(self.seats) - self.broken if self.race else set()
            self.on_break = bool(self.race)
        elif kind == "level_started":
            self.race, self.to_color, self.on_break = set(), set(), False
        elif kind == "table_broken":
            self.broken.add(e["table"])
            self.to_color.discard(e["table"])
        elif kind == "final_table":
            for table, _ in e["came_from"].values():
                if table != e["table"]:
                    self.broken.add(table)
                    self.to_color.discard(table)

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

    def color_up(self, draw: int | None = None) -> ColorUp | None:
        """The color-up of a table between hands whose chips the break races off: each seat's
        leftover below the new smallest chip comes off (26-C); with ``draw``, the tournament
        races them off from each seat's remainder, the random input dealing the cards (26-A)."""
        for table in sorted(self.to_color - self.playing):
            chips = self.chips.get(table, self.opening_chips)
            kept = [c for c in chips if c not in self.race]
            if not kept or kept == list(chips):
                self.to_color.discard(table)
                continue
            if draw is not None:
                return ColorUp(table=table, draw=draw)
            unit = min(kept)
            stacks = self.stacks.get(table, {})
            removed = {n: stack % unit for n, stack in sorted(stacks.items()) if stack % unit}
            return ColorUp(table=table, removed=removed)
        return None
