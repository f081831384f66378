"""The games a table deals, and the facts of each that the rules turn on: the betting structure
(no limit, pot limit, fixed limit), the cards of a hand, high only or high-low, the streets.

The rule modules ask here instead of keeping lists of game names of their own, so that a game
is described in one place (the stud and draw games of issue 15 are added here first).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from protocol.config import Game

Structure = Literal["no_limit", "pot_limit", "fixed_limit"]
Ranking = Literal["high", "ace_to_five"]
"""What wins the pot: the best high hand, or (razz) the lowest hand, aces low, straights and
flushes not counted."""
FLOP_STREETS = ("preflop", "flop", "turn", "river")
"""The betting rounds of a flop game, in order."""
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
"""The betting rounds of seven-card stud, named by the cards each seat then holds."""


@dataclass(frozen=True)
class GameRules:
    structure: Structure
    hole_cards: int
    """The cards of a hand (all of them shown when it is tabled, 14-A)."""
    hi_lo: bool = False
    """The pot is split between the best high and the best 8-or-better low (rule 21)."""
    streets: tuple[str, ...] = FLOP_STREETS
    big_bet_streets: tuple[str, ...] = ("turn", "river")
    """In fixed limit, the streets bet in the big bet (twice the small one)."""
    stud: bool = False
    """No button or blinds: antes, a bring-in by the up-cards, the best board first."""
    ranking: Ranking = "high"


def _stud(hi_lo: bool = False, ranking: Ranking = "high") -> GameRules:
    """Fixed-limit seven-card stud and its variants: five streets, the big bet from fifth."""
    return GameRules(
        "fixed_limit",
        7,
        hi_lo=hi_lo,
        streets=STUD_STREETS,
        big_bet_streets=("fifth", "sixth", "seventh"),
        stud=True,
        ranking=ranking,
    )


GAMES: dict[Game, GameRules] = {
    "NLHE": GameRules("no_limit", 2),
    "PLHE": GameRules("pot_limit", 2),
    "LHE": GameRules("fixed_limit", 2),
    "NLO": GameRules("no_limit", 4),
    "PLO": GameRules("pot_limit", 4),
    "PLO8": GameRules("pot_limit", 4, hi_lo=True),
    "LO8": GameRules("fixed_limit", 4, hi_lo=True),
    "7S": _stud(),
    "7S8": _stud(hi_lo=True),
    "RAZZ": _stud(ranking="ace_to_five"),
}

FIXED_LIMIT = frozenset(g for g, r in GAMES.items() if r.structure == "fixed_limit")
POT_LIMIT = frozenset(g for g, r in GAMES.items() if r.structure == "pot_limit")
HI_LO = frozenset(g for g, r in GAMES.items() if r.hi_lo)
STUD = frozenset(g for g, r in GAMES.items() if r.stud)
ACE_TO_FIVE = frozenset(g for g, r in GAMES.items() if r.ranking == "ace_to_five")
"""Razz: the lowest hand wins, the highest up-card brings it in, the lowest board acts first."""
OMAHA = frozenset(g for g, r in GAMES.items() if r.hole_cards == 4)
"""Omaha games: a hand plays exactly two of its four cards with three of the board."""


def hole_count(game: str) -> int:
    """The cards of a hand: four in Omaha, two in hold'em, seven in stud."""
    return GAMES[game].hole_cards  # type: ignore[index]


def streets(game: str) -> tuple[str, ...]:
    return GAMES[game].streets  # type: ignore[index]


def big_bet(game: str, street: str) -> bool:
    """Fixed limit: the street is bet in the big bet."""
    return street in GAMES[game].big_bet_streets  # type: ignore[index]
