"""Every station at its sizes with the table at its widest (issue 11, acceptance 2).

Ten seats, nine-digit stacks, 50-character names and a hand in play (blinds, a raise, an
all-in, folds, the seat to act): measured from the DOM (tests/browser/measure.py), no text
box intersects another or is covered, nothing is clipped, every touch target of the dealer
and floor stations is at least 44 px, and the smallest font of each station is reported.
The display is read at five metres: nothing under 32 px at 1080 lines (in proportion at
720). Screenshots of each station at each size go to ``screenshots/`` (git-ignored).
"""

from __future__ import annotations

from typing import Any

import pytest

from protocol import TableConfig
from protocol.commands import Act, StartHand
from tests.browser.conftest import Stations, create_table, send_commands
from tests.browser.measure import layout_report, measure, screenshot, small_targets

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect

FIRST = (
    "Alexandra Wilhelmina Konstantinopoulou-Vanderbilt-Smythe",
    "Bartholomew Maximilian Oyelaran-Castellanos de la Fuente",
    "Christabel Evangeline Featherstonehaugh-Nakamura",
    "Dimitrios Athanasios Papadopoulos-Christodoulou",
    "Evangelina Josephine Montgomery-Wolfeschlegelstein",
    "Fitzgerald Alasdair Mackintosh-Rutherford-Drummond",
    "Gwendolyn Anastasia Szczepanska-Wisniewska-Kowalczyk",
    "Hieronymus Leopold Vasquez-Santiago-Rodriguez-Ortega",
    "Isambard Kingdom Brunel-Throckmorton-Worthington",
    "Jacqueline Marguerite Delacroix-Beaumont-Fontaine",
)
NAMES = {n: name.ljust(50, "x")[:50] for n, name in enumerate(FIRST, 1)}
WIDEST = TableConfig(
    game="NLHE",
    blinds=(500_000, 1_000_000),
    seats={n: 100_000_000 + 12_345_600 * n for n in range(1, 11)},
    button=1,
    names=NAMES,
    chips=(100_000, 500_000, 1_000_000, 5_000_000, 25_000_000),
)
SIZES = [
    ("dealer", (1024, 768)),
    ("floor", (1920, 1080)),
    ("display", (1920, 1080)),
    ("display", (1280, 720)),
]


def widest_hand(stations: Stations) -> int:
    """The widest table with a hand in play: blinds on 2 and 3, a raise on 4, seat 5 all-in
    for nine digits, 6 and 7 folded, seat 8 to act."""
    assert all(len(name) == 50 for name in NAMES.values())
    create_table(stations.server, WIDEST)
    return send_commands(
        stations.server,
        "1",
        StartHand(),
        Act(seat=4, declare="raise", amount=2_500_000),
        Act(seat=5, declare="all_in"),
        Act(seat=6, declare="fold"),
        Act(seat=7, declare="fold"),
    )


def open_station(stations: Stations, station: str, size: tuple[int, int], seq: int) -> Any:
    role, table = {"dealer": ("dealer", "1"), "floor": ("floor", None)}.get(
        station, ("display", "1")
    )
    page = stations.open(station, role, table=table, viewport=size)
    expect(page.get_by_role("status")).to_have_text("Online")
    if station == "floor":
        expect(page.locator('.tile[data-table="1"]')).to_have_attribute("data-seq", str(seq))
    else:
        expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
        expect(page.locator('.seat[data-seat="8"]').first).to_be_visible()
    # Web fonts and layout settle before the page is measured.
    page.evaluate("() => document.fonts.ready.then(() => true)")
    return page


@pytest.mark.parametrize(("station", "size"), SIZES, ids=[f"{s}-{w}x{h}" for s, (w, h) in SIZES])
def test_nothing_overlaps_or_clips_with_ten_seats_nine_digit_stacks_and_long_names(
    stations: Stations, station: str, size: tuple[int, int]
) -> None:
    seq = widest_hand(stations)
    page = open_station(stations, station, size, seq)
    screenshot(page, f"layout-{station}-{size[0]}x{size[1]}")
    figures = measure(page)
    print("\n" + layout_report(station, figures))

    problems = [f"the page scrolls: {figures['scroll']}"] if figures["scroll"] != list(size) else []
    problems += [f"{len(figures[k])} {k}" for k in ("overlaps", "covered", "clipped") if figures[k]]
    if station in ("dealer", "floor"):
        problems += [f"{len(small_targets(figures))} touch targets under 44 px"] * bool(
            small_targets(figures)
        )
    else:
        least = 32 * size[1] / 1080
        small = [f for f in figures["fonts"] if f["px"] < least - 0.5]
        problems += [f"{len(small)} texts under {least:.1f} px"] * bool(small)
    problems += page.page_errors
    assert problems == [], layout_report(station, figures)
