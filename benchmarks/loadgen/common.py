"""What the orchestrator and the load workers agree on: the tournament, the phases, the goals."""

from __future__ import annotations

from protocol import TableConfig

TOURNAMENT = "bench"
FLOORS = 10
GOAL_P99_MS = 25.0
GOAL_RATE = 2000.0
GOAL_RELAY_RATIO = 0.5
PACED, SATURATION = 0, 1
PHASE_NAMES = ("paced", "saturation")
DRAIN_GRACE = 120.0  # seconds a client process may take beyond its drain to write and exit
FLOOR_BASE = 1_000_000  # subscriber ids: a display is its table number, a floor FLOOR_BASE + i


def table_config(seats: int) -> TableConfig:
    return TableConfig(
        game="NLHE",
        blinds=(50, 100),
        seats={s: 1_000_000 for s in range(1, seats + 1)},
        button=1,
    )
