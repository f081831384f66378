"""The Tablewire rules engine: one tournament table under the 2026 Poker TDA rules.

Theory of operation
-------------------
The engine is sans-IO. It never reads a clock, a socket, Redis or a random source: a shuffle
or a time is part of the command that needs it. Its whole surface is

    state, events = apply(state, command)

``apply`` never changes the state it is given. It copies it, asks :mod:`table` what the
command means (``decide``), and applies each event the moment it is decided (:mod:`evolve`),
so that later decisions in the same command see it. The copy shares the original's seats, and
an event that changes a seat replaces it in the working state: a :class:`Seat` read before an
event that changes it is the seat as it was, so read it again after. A command the rules refuse
raises :class:`Illegal` inside ``decide`` before any event is emitted; ``apply`` then returns
the original state and a single ``error`` event naming the rule. Because the state only ever
changes through events, replaying a table's event log with :func:`rebuild` gives back exactly
the same state.

The command goes to the dispatcher, :mod:`table`, which hands it to the module of its rule.
A rule module emits the events of its ruling and returns a :data:`moves.Move` — "resume after
seat 4", "prompt again", "the street is dealt", "try the showdown" — and only the dispatcher
passes that on to :mod:`flow`, which moves the hand on. Imports therefore go one way, from the
dispatcher down to the rules and from the rules down to the state; ``tests/test_engine_imports``
fails on a cycle or an import hidden inside a function. A module that must ask "what if"
(a correction, RP-24) is handed the dispatcher's ``attempt`` instead of importing it.

The modules, by the rulebook's chapters (top of the import graph first):

- :mod:`table` — the dispatcher: one handler per command, the floor's rulings (1, 53-C);
- :mod:`flow` — prompts, binding out-of-turn actions, end of rounds, all-in exposure (17);
- :mod:`showdown` — showdown order, cards speak, awards and the end of the hand (13-23);
- :mod:`tabling` — showing and mucking at the showdown: tabled, partly shown and live
  hands (14-17);
- :mod:`dealing` — the start of a hand, posts and the streets' cards (25, 34-36, RP-11, 37-C);
- :mod:`irregular` — misdeals, fouled decks, wrong card counts, irregular flops, bets found
  wrong after the fact, conditional statements (36-A, 37, 39-41, RP-5, 54, 61);
- :mod:`out_of_turn` — action out of turn and skipped seats (55);
- :mod:`clock` — the clock on a player (31); :mod:`requests` — information requests and counts
  (RP-24, 51, 62); :mod:`corrections` — the floor voids actions and the hand is re-derived (24);
- :mod:`penalties` — warnings, hands and rounds sat out, chip penalties, disqualification (74);
- :mod:`actions` — the action event every ruling builds, and substantial action (38);
- :mod:`reading` — how bets, calls and raises are made: verbal vs chips, the 50% rule, single
  and multiple chips, prior chips, under-calls, unclear amounts (42-48, 53, 57, 59, 63);
- :mod:`betting` — the betting round: minimum raise, re-opening, caps, pot limit (45, 49, 50, 56);
- :mod:`buttons` — button and blinds, dead button, new players (9, 11, 34, 36);
- :mod:`chips` — chips a seat gains or loses between hands: rebuys and add-ons (29), the
  color-up and the denominations in play (26);
- :mod:`holds` — the tournament's holds on a table between hands (hand-for-hand RP-8, a move or
  a break waiting, 12-A, 11-B, a stoppage 12-D), the hand-for-hand all-in held face down until
  the floor releases it (RP-8-F), the final table's button (RP-9);
- :mod:`stud` — the cards of seven-card stud, stud/8 and razz: the bring-in, the board that
  acts and shows first, the streets' up- and down-cards, odd chips by suit (RP-10, 18-A, 21-B);
- :mod:`presence` — a player away from the seat at the deal has no live hand; a stud bring-in
  card dealt to one still posts the bring-in (32, RP-10-C);
- :mod:`stud_exposed` — cards the dealer exposes in a stud deal: a third-street down-card
  becomes the up-card, a seventh-street card is replaced while betting is left (RP-10-A, B);
- :mod:`stud_dead` — a stud player who takes up the up-cards on the turn to act kills the hand
  (68);
- :mod:`mixed` — a mixed game's next game and its limits: by the tournament's level, or by
  orbit from the table's rotation (12-B, 25, RP-18);
- :mod:`draw` — the draw games' draws: each seat stands pat or draws in turn from the left of
  the button, and the stub running short (RP-17, RP-25 A-D);
- :mod:`unseen` — a card already in play means a fouled deck (37-E);
- :mod:`stub` — the stub short on stud's seventh street: its three procedures and the community
  card (RP-10-H);
- :mod:`pots` — main and side pots, odd chips (21, 23); :mod:`hands` — hand values at showdown
  (high, 8-or-better low, razz's ace-to-five low); :mod:`lowball` — the draw games' hand
  values (2-7 lowball, badugi);
- :mod:`games` — the games a table deals and their facts: betting structure, the cards of a
  hand, high, high-low or razz's low, the streets (every game name lives there);
- :mod:`evolve` — applying an event to the state: the only place a table changes;
- :mod:`moves` — what a rule module hands back to the dispatcher, and the ``Emit`` type;
- :mod:`state` — the table's state; :mod:`errors` — :class:`Illegal`; :mod:`words` — the
  wording of chips, actions and prompts.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.commands import Command
from protocol.config import TableConfig
from protocol.events import ErrorEvent, Event
from server.engine.errors import Illegal
from server.engine.evolve import evolve
from server.engine.state import Seat, TableState, new_state
from server.engine.table import attempt

__all__ = ["Illegal", "Seat", "TableState", "apply", "evolve", "new_table", "rebuild"]


def new_table(config: TableConfig) -> TableState:
    """The table before its first hand."""
    return new_state(
        config.game,
        config.level,
        config.chips,
        config.seats,
        config.button,
        names=config.names,
        cap=config.cap,
        heads_up_event=config.heads_up_event,
        dead_small_blind=config.dead_small_blind,
        rotation=config.rotation,
        orbit_hands=config.orbit,
    )


def apply(state: TableState, command: Command) -> tuple[TableState, list[Event]]:
    """The new state and the events of one command; ``state`` itself is left untouched."""
    try:
        return attempt(state, command)
    except Illegal as refused:
        seat = getattr(command, "seat", None)
        return state, [
            ErrorEvent(message=refused.message, rule=refused.rule, seat=seat, code=refused.code)
        ]


def rebuild(config: TableConfig, events: Iterable[Event]) -> TableState:
    """The state a table's event log describes."""
    state = new_table(config)
    for event in events:
        evolve(state, event)
    return state
