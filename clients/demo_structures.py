"""The demo's tournament structure for each game it can run (``tablewire demo --game``).

One sped-up sheet for all: 2-minute levels, a 1-minute break after level 3 that colors up the
25s, late registration and re-entry through level 3, nine places paid. What changes with the
game is what a level says and how many sit at a table:

- no-limit and pot-limit flop games: blinds, a big-blind ante from level 3 (RP-11); nine-handed;
- limit games (LHE, LO8, 27TD, BADUGI): blinds, the big blind the small bet; the draw games
  six-handed, as festivals deal them;
- stud (7S, 7S8, RAZZ): no blinds; an ante and a bring-in of a quarter of the small bet (at
  least a chip), the small bet the big blind's place in the sheet (RP-10); eight-handed, the
  most a deck deals in stud (RP-10-H);
- mixed: H.O.R.S.E. (limit hold'em, Omaha hi-lo, razz, stud, stud hi-lo) or the 8-game mix
  (2-7 triple draw, limit hold'em, Omaha hi-lo, razz, stud, stud hi-lo, no-limit hold'em,
  pot-limit Omaha), a game a level, eight-handed for their stud (12-B freezes the button
  through it).
"""

from __future__ import annotations

from typing import Any

import msgspec

from protocol.config import STUD, Game
from protocol.tournament import Structure
from server.engine.games import DRAW, FIXED_LIMIT

NAME = "Tablewire demo"
SHEET = (50, 100, 150, None, 200, 400, 600, 1_000, 2_000, 3_000, 4_000, 6_000, 10_000)
"""The big blind (or the small bet) of each level; None is the break that colors up the 25s."""
LATE = (16_000, 20_000, 30_000, 50_000, 100_000, 200_000)
MIXES: dict[str, tuple[Game, ...]] = {
    "HORSE": ("LHE", "LO8", "RAZZ", "7S", "7S8"),
    "8GAME": ("27TD", "LHE", "LO8", "RAZZ", "7S", "7S8", "NLHE", "PLO"),
}
GAMES: tuple[str, ...] = (*Game.__args__, *MIXES)  # type: ignore[attr-defined]
"""Every name ``--game`` takes: a table's game, or a mix."""


def _up(amount: float, chip: int) -> int:
    """``amount`` rounded up to a whole number of the smallest chip in play."""
    return max(chip, -(-int(amount) // chip) * chip)


def _level(game: Game, big: int, number: int, chip: int, mixed: bool) -> dict[str, Any]:
    """One level of ``game`` at ``big`` (the big blind, or stud's small bet)."""
    level: dict[str, Any] = {"minutes": 2}
    if mixed:
        level["game"] = game
    if game in STUD:
        bring_in = _up(big / 4, chip)
        return {**level, "blinds": [0, 0], "ante": bring_in, "bring_in": bring_in, "min_bet": big}
    level["blinds"] = [big // 2, big]
    if game not in FIXED_LIMIT and number >= 3:
        level.update(ante=big, bba=True)
    return level


def _levels(games: tuple[Game, ...]) -> list[dict[str, Any]]:
    mixed = len(games) > 1
    levels: list[dict[str, Any]] = []
    chip, number = 25, 0
    for big in (*SHEET, *LATE):
        if big is None:
            levels.append({"break": 1, "color_up": [25]})
            chip = 100
            continue
        levels.append(_level(games[number % len(games)], big, number + 1, chip, mixed))
        number += 1
    return levels


def structure(name: str = "NLHE") -> Structure:
    """The demo's structure for ``name``: a game (``7S``) or a mix (``HORSE``)."""
    games: tuple[Game, ...] = MIXES.get(name) or (name,)  # type: ignore[assignment]
    size = 8 if any(game in STUD for game in games) else 6 if games[0] in DRAW else 9
    sheet = {
        "name": NAME if name == "NLHE" else f"{NAME}: {name}",
        "game": games[0],
        "starting_stack": 5_000,
        "buy_in": 100,
        "fee": 10,
        "table_size": size,
        "late_registration_until": 3,
        "reentry_until": 3,
        "chips": [25, 100, 500, 1_000, 5_000, 25_000, 100_000],
        "levels": _levels(games),
        "payouts": {
            "places": [
                {"place": place, "percent": percent}
                for place, percent in enumerate((30, 20, 14, 10, 8, 6.5, 4.5, 4, 3), start=1)
            ]
        },
    }
    return msgspec.convert(sheet, Structure)
