"""What the orchestrator and the load workers agree on: the tournament, the phases, the goals."""

from __future__ import annotations

from protocol import TableConfig
from protocol.config import STUD

TOURNAMENT = "bench"
FLOORS = 10
GOAL_P99_MS = 25.0
GOAL_RATE = 2000.0
GOAL_RELAY_RATIO = 0.5
PACED, SATURATION = 0, 1
PHASE_NAMES = ("paced", "saturation")
DRAIN_GRACE = 120.0  # seconds a client process may take beyond its drain to write and exit
FLOOR_BASE = 1_000_000  # subscriber ids: a display is its table number, a floor FLOOR_BASE + i


def table_config(seats: int, game: str = "NLHE") -> TableConfig:
    """Deep stacks, nobody busts: stud at an ante and a bring-in of 25, the small bet 100; the
    other games at blinds of 50/100 (the limit games' small bet the big blind)."""
    stacks = {s: 1_000_000 for s in range(1, seats + 1)}
    if game in STUD:
        return TableConfig(
            game=game,  # type: ignore[arg-type]
            blinds=(0, 0),
            ante=25,
            bring_in=25,
            min_bet=100,
            seats=stacks,
            button=1,
        )
    return TableConfig(game=game, blinds=(50, 100), seats=stacks, button=1)  # type: ignore[arg-type]
