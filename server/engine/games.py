"""The games a table deals, and the facts of each that the rules turn on: the betting structure
(no limit, pot limit, fixed limit), the cards of a hand, high only or high-low, the streets,
the draws.

The rule modules ask here instead of keeping lists of game names of their own, so that a game
is described in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from protocol.config import Game

Structure = Literal["no_limit", "pot_limit", "fixed_limit"]
Ranking = Literal["high", "ace_to_five", "deuce_to_seven", "badugi"]
"""What wins the pot: the best high hand; (razz) the lowest hand, aces low, straights and
flushes not counted; (2-7) the lowest hand, aces high, straights and flushes counting against
it; (badugi) the most cards of different ranks and suits, then the lowest, aces low."""
DECK = 52
"""The cards of a deck: the stud and draw games count what is left of it (RP-10-H, RP-25)."""
FLOP_STREETS = ("preflop", "flop", "turn", "river")
"""The betting rounds of a flop game, in order."""
STUD_STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
"""The betting rounds of seven-card stud, named by the cards each seat then holds."""
TRIPLE_DRAW_STREETS = ("predraw", "first_draw", "second_draw", "third_draw")
"""The betting rounds of a triple draw game: before the draws, then after each draw (named by
the draw that opens it)."""
SINGLE_DRAW_STREETS = ("predraw", "draw")


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
    draws: int = 0
    """Draw games: each street after the first opens with a draw (RP-25); no board."""


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


def _triple_draw(hole_cards: int, ranking: Ranking) -> GameRules:
    """Fixed-limit triple draw: four rounds, the big bet after the second draw."""
    return GameRules(
        "fixed_limit",
        hole_cards,
        streets=TRIPLE_DRAW_STREETS,
        big_bet_streets=TRIPLE_DRAW_STREETS[2:],
        ranking=ranking,
        draws=3,
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
    "27TD": _triple_draw(5, "deuce_to_seven"),
    "27SD": GameRules(
        "no_limit", 5, streets=SINGLE_DRAW_STREETS, ranking="deuce_to_seven", draws=1
    ),
    "BADUGI": _triple_draw(4, "badugi"),
}

NAMES: dict[str, str] = {
    "NLHE": "no-limit hold'em",
    "PLHE": "pot-limit hold'em",
    "LHE": "limit hold'em",
    "NLO": "no-limit Omaha",
    "PLO": "pot-limit Omaha",
    "PLO8": "pot-limit Omaha hi-lo",
    "LO8": "limit Omaha hi-lo",
    "7S": "seven-card stud",
    "7S8": "stud hi-lo",
    "RAZZ": "razz",
    "27TD": "2-7 triple draw",
    "27SD": "no-limit 2-7 single draw",
    "BADUGI": "badugi",
}
"""The games as a floor names them."""
FIXED_LIMIT = frozenset(g for g, r in GAMES.items() if r.structure == "fixed_limit")
POT_LIMIT = frozenset(g for g, r in GAMES.items() if r.structure == "pot_limit")
HI_LO = frozenset(g for g, r in GAMES.items() if r.hi_lo)
STUD = frozenset(g for g, r in GAMES.items() if r.stud)
ACE_TO_FIVE = frozenset(g for g, r in GAMES.items() if r.ranking == "ace_to_five")
"""Razz: the lowest hand wins, the highest up-card brings it in, the lowest board acts first."""
DRAW = frozenset(g for g, r in GAMES.items() if r.draws)
"""The draw games: a button and blinds, no board; each hand draws in turn (RP-17, RP-25)."""
OMAHA = frozenset(g for g, r in GAMES.items() if r.hole_cards == 4 and r.streets == FLOP_STREETS)
"""Omaha games: a hand plays exactly two of its four cards with three of the board."""


def hole_count(game: str) -> int:
    """The cards of a hand: four in Omaha and badugi, two in hold'em, five in 2-7, seven in
    stud."""
    return GAMES[game].hole_cards  # type: ignore[index]


def streets(game: str) -> tuple[str, ...]:
    return GAMES[game].streets  # type: ignore[index]


def big_bet(game: str, street: str) -> bool:
    """Fixed limit: the street is bet in the big bet."""
    return street in GAMES[game].big_bet_streets  # type: ignore[index]


def ranking(game: str) -> Ranking:
    return GAMES[game].ranking  # type: ignore[index]
