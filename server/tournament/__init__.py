"""The Tablewire tournament engine: one tournament under the 2026 Poker TDA rules.

Theory of operation
-------------------
The same shape as the table engine (:mod:`server.engine`): sans-IO, never reading a clock, a
socket, Redis or a random source. A time (``at``, ms) or a random draw (``draw``) is part of
the command that needs it and is recorded in its event. Its whole surface is

    state, events = apply(state, command)

``apply`` never changes the state it is given: it copies it, the dispatcher rules on the
command, and each event is applied (:mod:`evolve`) the moment it is decided. A command the
rules refuse raises :class:`TournamentIllegal` (naming the rule or the field) before any event
is emitted; ``apply`` returns the original state and one ``tournament_error`` event. Because
the state only changes through events, :func:`rebuild` gives back the same state from the log.

The tournament never imports the table engine. It learns table facts from the commands it is
given (``hand_ended``: stacks, busted seats, starting stacks after antes, and where the next
hand puts the button and the blinds; ``playing`` on the commands that must wait for tables
between hands) and says what tables must do in its events (``seated`` -> the table's
``add_player``, ``level_started`` -> ``level`` at every table, ``moved``, ``chips_added``,
``chips_removed``, ``disqualified``, ``tables_held``/``tables_released`` -> the table's hold,
``hand_for_hand``, ``final_table``, ``chip_race``). A move or a break is made between hands of
every table it touches: when one of them is in a hand, its tables are held and it is made in
the step of the last of those hands' end (:mod:`between`), so the tournament's and the
tables' events of a move are always one step. The service,
and the replay driver (:mod:`server.tournament_replay`), turn those into table commands and
commit the tournament's and the tables' events together. Before a table starts a hand they ask
:func:`may_start_hand` (breaks stop new hands; the level in force is what the hand uses), and
before any command at time ``at`` they bring the clock there with a ``time`` command.

The modules, by chapter (top of the import graph first):

- :mod:`dispatch` — the dispatcher: one handler per command, the tournament id check;
- :mod:`eliminations` — a table's hand end: eliminations, bounties, the winner (22);
- :mod:`between` — what waits for a table to be between hands: hand-for-hand, moves, breaks and
  the final table made, the stoppage, the next proposals to the floor;
- :mod:`handforhand` — hand-for-hand: tables held after each hand and released together, shared
  places of entries out in one hand-for-hand hand, the clock by hands (RP-8);
- :mod:`breaks` — table breaks by the two-step random draw, the staff-only break order, absent
  players' chips (11-B, 12-C, RP-16); the final table's seat draw and button (RP-9);
- :mod:`balancing` — balancing moves: the next big blind to the worst position, proposed,
  confirmed and made between hands (12-A); the mixed games' frozen button (12-B); stopping a
  short table and the waiver (12-D);
- :mod:`positions` — the button and blinds as each table's hand end reported them: the next big
  blind, the worst seat, blinds that fall on an empty seat (12-A, 12-D);
- :mod:`chips` — chips in play; rebuys and add-ons (29), chip penalties (74-A, RP-26),
  disqualification (74-D, RP-23-A), color-up leftovers (26-C);
- :mod:`race` — the chip race of a color-up, run from each seat's odd chips and a random input
  (26-A, 26-C);
- :mod:`draws` — random inputs read as shuffled seat cards and cards dealt face up, the high card
  with suits (addendum 11, 26-A, RP-9);
- :mod:`floor` — absent players (RP-23), the shot clock and time banks (RP-28);
- :mod:`registration` — registration, late registration, alternates, re-entry (9-A, 9-B), the
  seat pool and the random draw (8, 11-A), unregistering, moving to the right seat (8);
- :mod:`clock` — the structure and the clock: levels start when the clock reaches them and
  apply from each table's next hand (25-A, 25-B), breaks; closing registration;
- :mod:`places` — places of entries out in the same hand by their starting stacks (22);
- :mod:`payouts` — the prize pool, the payout table, shares of tied places;
- :mod:`evolve` — applying an event to the state: the only place a tournament changes;
- :mod:`moves` — the ``Emit`` type a rule module is handed;
- :mod:`state` — the tournament's state; :mod:`errors` — :class:`TournamentIllegal`;
  :mod:`words` — the wording of chips, levels, times and places.
"""

from __future__ import annotations

from collections.abc import Iterable

from protocol.tournament import Structure, TournamentCommand, TournamentError, TournamentEvent
from server.tournament.chips import chips_in_play
from server.tournament.clock import hold, level_in_force, may_start_hand
from server.tournament.dispatch import attempt, rule
from server.tournament.errors import TournamentIllegal
from server.tournament.evolve import evolve
from server.tournament.floor import action_seconds
from server.tournament.payouts import payout_table, prize_pool
from server.tournament.registration import drawn_seat, has_seat, pool
from server.tournament.state import Player, TournamentState, new_state

__all__ = [
    "Player",
    "TournamentIllegal",
    "TournamentState",
    "action_seconds",
    "apply",
    "apply_to",
    "chips_in_play",
    "drawn_seat",
    "evolve",
    "has_seat",
    "hold",
    "level_in_force",
    "may_start_hand",
    "new_tournament",
    "payout_table",
    "pool",
    "prize_pool",
    "rebuild",
]


def new_tournament(structure: Structure, tournament: str = "T") -> TournamentState:
    """The tournament before anyone registers."""
    return new_state(tournament, structure)


def apply(
    state: TournamentState, command: TournamentCommand
) -> tuple[TournamentState, list[TournamentEvent]]:
    """The new state and the events of one command; ``state`` itself is left untouched."""
    try:
        return attempt(state, command)
    except TournamentIllegal as refused:
        return state, [
            TournamentError(
                message=refused.message, code=refused.code, rule=refused.rule, field=refused.field
            )
        ]


def apply_to(
    work: TournamentState, command: TournamentCommand, applied: list[TournamentEvent]
) -> list[TournamentEvent]:
    """The events of one command, applied to ``work`` itself and added to ``applied`` as they
    are (:func:`~server.tournament.dispatch.rule`). A refusal is one ``TournamentError``; if
    ``applied`` grew, ``work`` is half-changed and the caller drops it."""
    try:
        return rule(work, command, applied)
    except TournamentIllegal as refused:
        return [
            TournamentError(
                message=refused.message, code=refused.code, rule=refused.rule, field=refused.field
            )
        ]


def rebuild(
    structure: Structure, events: Iterable[TournamentEvent], tournament: str = "T"
) -> TournamentState:
    """The state a tournament's event log describes."""
    state = new_tournament(structure, tournament)
    for event in events:
        evolve(state, event)
    return state
