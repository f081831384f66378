"""The stud, draw and mixed tables the bot-dealer and fuzz tests play: deep stacks, eight-handed
stud (seventh street often finds the stub short, RP-10-H), six-handed draw (the stub runs out,
RP-25), and a table dealing every game in turn, three hands each (12-B, RP-18)."""

from __future__ import annotations

from clients.bots import Style
from protocol import TableConfig
from protocol.config import GameLevel

CHIPS = (25, 100, 500, 1_000, 5_000, 25_000)


def stud(game: str, players: int = 8) -> TableConfig:
    """Eight-handed stud, deep stacks: seventh street often finds the stub short."""
    return TableConfig(
        game=game,  # type: ignore[arg-type]
        blinds=(0, 0),
        ante=25,
        bring_in=25,
        min_bet=100,
        seats={n: 200_000 for n in range(1, players + 1)},
        button=1,
        chips=CHIPS,
    )


def draw_table(game: str, players: int = 6) -> TableConfig:
    return TableConfig(
        game=game,  # type: ignore[arg-type]
        blinds=(50, 100),
        min_bet=100,
        seats={n: 200_000 for n in range(1, players + 1)},
        button=1,
        chips=CHIPS,
    )


HORSE = [
    GameLevel(blinds=(50, 100), game="LHE"),
    GameLevel(blinds=(50, 100), game="PLO8"),
    GameLevel(blinds=(0, 0), ante=25, bring_in=25, min_bet=100, game="RAZZ"),
    GameLevel(blinds=(0, 0), ante=25, bring_in=25, min_bet=100, game="7S"),
    GameLevel(blinds=(0, 0), ante=25, bring_in=25, min_bet=100, game="7S8"),
    GameLevel(blinds=(50, 100), min_bet=100, game="27TD"),
    GameLevel(blinds=(50, 100), game="27SD"),
    GameLevel(blinds=(50, 100), min_bet=100, game="BADUGI"),
]
MIXED = TableConfig(
    game="LHE",
    blinds=(50, 100),
    seats={n: 200_000 for n in range(1, 7)},
    button=1,
    chips=CHIPS,
    rotation=HORSE,
    orbit=3,
)
TABLES = {
    **{game: stud(game) for game in ("7S", "7S8", "RAZZ")},
    **{game: draw_table(game) for game in ("27TD", "27SD", "BADUGI")},
    "mixed": MIXED,
}
CALLING = Style(bet=0.25, fold=0.05, raise_=0.15)
"""Few folds: hands go to seventh street and through the draws, where the stub runs short."""
