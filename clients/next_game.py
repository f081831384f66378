"""The game the next hand deals, as a station works it out from a table's view and events.

A mixed event changes game between hands (12-B, 25, RP-18): a level announces the next game,
or a table by orbit deals each game of its rotation for an orbit. The dealer must know the
next game before the hand starts — two cards or four, hole cards or up-cards — and a client
that picked the table up from a view has no engine state to ask. This is the same reading as
the dealer station's (``nextGame`` in ``clients/web/js/table.js``): from the view, kept up to
date by ``hand_start`` and ``level`` events.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from protocol.events import HandStart, LevelSet
from protocol.views import TableView


@dataclass
class GameInPlay:
    """The table's game and where its rotation stands."""

    game: str
    rotation: list[str] = field(default_factory=list)
    turn: int = 0
    orbit: int = 0
    played: int = 0
    announced: str = ""
    """The game a level announced for the next hand ("" when none)."""

    @classmethod
    def of(cls, view: TableView) -> GameInPlay:
        announced = view.next_level.game if view.next_level is not None else ""
        return cls(view.game, list(view.rotation), view.turn, view.orbit, view.played, announced)

    def next(self) -> str:
        """The game the next hand deals: the rotation's next game once the game in play has
        dealt its orbit, the game a level announced, else the game in play."""
        if self.rotation:
            if not self.played:
                return self.rotation[0]
            if self.played < self.orbit:
                return self.game
            return self.rotation[(self.turn + 1) % len(self.rotation)]
        return self.announced or self.game

    def hand_start(self, e: HandStart) -> None:
        self.game = e.game or self.game
        if not e.redeal:
            self.announced = ""
        if e.orbit:
            self.turn, self.orbit = e.turn, e.orbit
            self.played = self.played if e.redeal else 1
        elif self.rotation and not e.redeal:
            self.played += 1

    def level(self, e: LevelSet) -> None:
        self.announced = e.game or self.announced  # a level naming no game keeps the last one
        if e.rotation:
            self.rotation = [g.game for g in e.rotation]
