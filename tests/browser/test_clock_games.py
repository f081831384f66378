"""The tournament clock and the TD station in a stud event and a mixed one (issue 15): the
clock says the level's game when it is not no-limit hold'em, a stud level's limits (its small
bet and twice it) instead of blinds, its ante and bring-in (RP-10), and the next level's game
when it changes (a mixed event, 12-B). Measured at 1920 x 1080 with seven-figure limits and
with the longest game name: nothing under 40 px, overlapping or clipped, every text >= 4.5:1.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol.tournament import NextLevel
from tests.browser.conftest import Stations
from tests.browser.measure import contrast
from tests.browser.test_clock_display import TV, clean, shot
from tests.browser.tournaments import create_tournament, tournament_command

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect


def stud(small_bet: int, bring_in: int, ante: int, game: str | None = None) -> dict[str, object]:
    level: dict[str, object] = {
        "blinds": [0, 0],
        "ante": ante,
        "bring_in": bring_in,
        "min_bet": small_bet,
        "minutes": 30,
    }
    return {**level, "game": game} if game else level


def test_a_stud_clock_shows_limits_ante_and_bring_in(stations: Stations, screenshots: Path) -> None:
    """Stud hi-lo at a championship's last limits, 1,000,000/2,000,000: "Limits", the
    ante and the bring-in, the game by the level; the next level's limits without repeating
    the game. The TD station's level line says the same."""
    create_tournament(
        stations.server,
        names=[f"Player {n}" for n in range(1, 17)],
        tables=(("1", 8), ("2", 8)),
        payouts={"curve": "standard"},
        game="7S8",
        table_size=8,
        starting_stack=50_000_000,
        levels=[stud(1_000_000, 300_000, 150_000), stud(1_200_000, 400_000, 200_000)],
    )
    page = stations.open("clock", "display", table=None, viewport=TV)
    page.emulate_media(reduced_motion="reduce")
    expect(page.locator("#level")).to_have_text("Level 1 · Stud hi-lo")
    expect(page.locator("#blinds")).to_have_text("Limits 1,000,000/2,000,000")
    expect(page.locator("#ante")).to_have_text("Ante 150,000 · Bring-in 300,000")
    expect(page.locator("#next")).to_have_text("1,200,000/2,400,000")
    expect(page.locator("#next-ante")).to_have_text("Ante 200,000 · Bring-in 400,000")
    clean(page, "clock-stud")
    worst = contrast(page)
    assert [c for c in worst if c["ratio"] < 4.5] == [], worst[:5]
    shot(page, screenshots, "clock-stud")
    td = stations.open("td", "admin", table=None, viewport=(1280, 800))
    expect(td.locator(".td-level")).to_have_text(
        "Level 1 · Stud hi-lo · 1,000,000/2,000,000 · Ante 150,000 · Bring-in 300,000"
    )
    for opened in (page, td):
        assert opened.page_errors == []


def test_a_mixed_clock_names_each_level_s_game_and_the_next(stations: Stations) -> None:
    """A mixed event: no-limit 2-7 single draw (the longest game name), then razz. The draw
    level says its game and blinds, the next level razz and its limits; at the next level the
    clock says razz, its limits, ante and bring-in."""
    create_tournament(
        stations.server,
        names=[f"Player {n}" for n in range(1, 9)],
        tables=(("1", 8),),
        payouts={"curve": "standard"},
        table_size=8,
        levels=[
            {"blinds": [100, 200], "minutes": 30, "game": "27SD"},
            stud(200, 50, 25, game="RAZZ"),
        ],
    )
    page = stations.open("clock", "display", table=None, viewport=TV)
    expect(page.locator("#level")).to_have_text("Level 1 · No-limit 2-7 Single Draw")
    expect(page.locator("#blinds")).to_have_text("Blinds 100/200")
    clean(page, "clock-mixed-draw")
    expect(page.locator("#next")).to_have_text("Razz 200/400")
    expect(page.locator("#next-ante")).to_have_text("Ante 25 · Bring-in 50")
    tournament_command(stations.server, NextLevel())
    expect(page.locator("#level")).to_have_text("Level 2 · Razz")
    expect(page.locator("#blinds")).to_have_text("Limits 200/400")
    expect(page.locator("#ante")).to_have_text("Ante 25 · Bring-in 50")
    clean(page, "clock-mixed")
    assert page.page_errors == []
