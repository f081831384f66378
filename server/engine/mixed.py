"""Mixed games at one table: which game the next hand deals, at which limits (12-B, 25, RP-18).

A mixed event changes game in one of two ways. By level: the tournament's ``level`` names the
next game (``SetLevel.game``), dealt from the next hand (25). By orbit: the table's
configuration lists the rotation (H.O.R.S.E.: hold'em, Omaha hi/lo, razz, stud, stud/8), each
game at its limits, and each deals an orbit — as many hands as players are dealt in at its
first hand, or the configured number — before the next one starts. A new level of a table by
orbit gives every game's limits at once (``SetLevel.rotation``); the game in play goes on at
its new limits.

Stud and stud/8 may follow each other or not (RP-18 asks nothing of the table); the button is
frozen while stud is dealt (12-B, :mod:`dealing`).
"""

from __future__ import annotations

from dataclasses import dataclass

from protocol.commands import SetLevel
from protocol.config import Level
from server.engine import games
from server.engine.errors import Illegal
from server.engine.state import TableState


@dataclass(frozen=True)
class NextGame:
    """What the next hand deals: the game, its level (None: the table's level in force), and
    for a rotation's game starting with it, its place and how many hands it deals."""

    game: str
    level: Level | None = None
    turn: int = 0
    orbit: int = 0


def next_game(t: TableState) -> NextGame:
    rotation = t.next_rotation or t.rotation
    if not rotation:
        return NextGame(t.next_game or t.game)
    if t.played and t.played < t.orbit:
        return NextGame(t.game, rotation[t.turn].level)
    turn = (t.turn + 1) % len(rotation) if t.played else 0
    entry = rotation[turn]
    orbit = t.orbit_hands or sum(1 for s in t.seats if s.stack > 0)
    return NextGame(entry.game, entry.level, turn, orbit)


def announcement(nxt: NextGame) -> str:
    """The hand-start's words for a rotation's game starting: "seven-card stud for 6 hands,
    then the next game"."""
    if not nxt.orbit:
        return ""
    return f"; {games.NAMES[nxt.game]} for {nxt.orbit} hands, then the next game"


def check_limits(t: TableState, cmd: SetLevel) -> None:
    """A table by orbit takes a new level as every game's limits, the rotation's games in the
    same order; a single game's level would leave the others' limits unsaid."""
    games = [g.game for g in t.rotation]
    if [g.game for g in cmd.rotation] != games or cmd.game:
        raise Illegal(
            "25",
            f"this table deals {', '.join(games)} in turn: a new level gives each game's limits"
            " (rotation), in that order",
        )
