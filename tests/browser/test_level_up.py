"""The level and the clock on the dealer station and the floor monitor (issue 12, acceptance 3).

A tournament's table of ten: the dealer station has a strip under its header with the level and the
time left on the tournament clock (from the ``clock`` message), the floor monitor the same in
its header. The floor moves the clock to level 2 while a hand is in play: the table holds the
new level for its next hand (25-B), and the dealer shows "Level up after this hand: 200/400 ·
BB ante 400" (the floor's tile too) until the hand ends; the next hand is dealt at level 2.
The dealer station is measured with the strip up: 44 px targets, 4.5:1, no overlap or clipping.

Screenshots: ``artifacts/screenshots/dealer-level-up.png``, ``floor-level-up.png``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from protocol.commands import Act, StartHand
from protocol.tournament import NextLevel
from tests.browser.conftest import Stations
from tests.browser.measure import contrast, layout_report, measure, small_targets
from tests.browser.tournaments import (
    create_tournament,
    table_command,
    table_view,
    tournament_command,
)

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect

LEVEL_UP = "Level up after this hand: 200/400 · BB ante 400"
TEN = [
    "Ana Ferreira",
    "Bruno Keller",
    "Chen Wei",
    "Dara O'Neill",
    "Eve Martin",
    "Femi Adeyemi",
    "Gus Lindqvist",
    "Hana Sato",
    "Ivo Petrov",
    "Jo Maximilian",
]


def settled(page: Any, seq: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))


def fold_to_the_end(stations: Stations) -> int:
    """Fold the seat to act until the hand is over; the table's last event number."""
    seq = 0
    for _ in range(12):
        view = table_view(stations.server, "1")
        if view.phase == "idle" or view.to_act is None:
            return seq
        seq = table_command(stations.server, "1", Act(seat=view.to_act, declare="fold"))
    raise AssertionError("the hand did not end")


def test_the_dealer_shows_level_up_after_this_hand(stations: Stations, screenshots: Path) -> None:
    server = stations.server
    create_tournament(server, names=TEN, tables=(("1", 10),), table_size=10)
    dealer = stations.open("dealer", "dealer", table="1")
    floor = stations.open("floor", "floor", table=None, viewport=(1920, 1080))
    for page in (dealer, floor):
        expect(page.get_by_role("status")).to_have_text("Online")
    expect(dealer.locator("#strip-level")).to_have_text("Level 1 · 100/200")
    expect(dealer.locator("#strip-time")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    expect(floor.locator("#clock")).to_have_text(re.compile(r"^Level 1 · 100/200 · (10:00|9:5\d)$"))

    seq = table_command(server, "1", StartHand())
    settled(dealer, seq)
    expect(dealer.locator("#level-up")).to_have_text("")

    # Level 2 while the hand is in play: it applies from the next hand (25-B).
    tournament_command(server, NextLevel())
    expect(dealer.locator("#strip-level")).to_have_text("Level 2 · 200/400 · BB ante 400")
    expect(dealer.locator("#level-up")).to_have_text(LEVEL_UP)
    expect(dealer.locator("#level-up")).to_have_class(re.compile(r"\blevel-up\b"))
    expect(dealer.locator("#summary")).to_contain_text("Hand 1")
    tile = floor.locator('.tile[data-table="1"]')
    expect(tile.locator(".level-up")).to_have_text(LEVEL_UP)
    expect(floor.locator("#clock")).to_have_text(
        re.compile(r"^Level 2 · 200/400 · BB ante 400 · (10:00|9:5\d)$")
    )
    dealer.screenshot(path=str(screenshots / "dealer-level-up.png"))
    floor.screenshot(path=str(screenshots / "floor-level-up.png"))
    figures = measure(dealer)
    report = layout_report("dealer, level up after this hand", figures)
    worst = contrast(dealer)
    print(f"\n{report}\n  lowest contrast {worst[0]['ratio']}:1 ({worst[0]['el']})")
    assert small_targets(figures) == [], report
    assert figures["overlaps"] == figures["covered"] == [], report
    # The ruling log scrolls (ten players sat down, the level was announced): its last line
    # may be partly scrolled out of its box; nothing else may be cut.
    logged = " ".join(dealer.locator("#log li").all_inner_texts())
    assert [c for c in figures["clipped"] if c["text"] not in logged] == [], report
    assert [c for c in worst if c["ratio"] < 4.5] == [], worst[:5]

    # The hand ends at its level; between hands the level is the next hand's; hand 2 is
    # dealt at 200/400 and nothing is pending any more.
    seq = fold_to_the_end(stations)
    settled(dealer, seq)
    expect(dealer.locator("#level-up")).to_have_text("Next hand: 200/400 · BB ante 400")
    seq = table_command(server, "1", StartHand())
    settled(dealer, seq)
    expect(dealer.locator("#level-up")).to_have_text("")
    expect(tile.locator(".level-up")).to_have_count(0)
    view = table_view(server, "1")
    assert tuple(view.blinds) == (200, 400) and view.next_level is None
    assert dealer.page_errors == floor.page_errors == []
