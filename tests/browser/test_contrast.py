"""Every text of every station is at least 4.5:1 against what is painted under it (issue 11,
acceptance 3).

Each station is measured in its states: a hand in play with folded seats, an all-in and empty
seats; a floor call open; the exposure banner (17); offline. For every visible text element
the computed colour (with the opacity of its ancestors) is composited over the layers under
the text's centre down to the first opaque background (a gradient: its worst colour stop),
and the WCAG ratio taken (tests/browser/measure.py). A static pass checks every rule of the
stylesheets that declares a colour and a background together. The lowest ratio per station
and state is printed. Text of disabled controls is exempt (WCAG 1.4.3, inactive components).
"""

from __future__ import annotations

from typing import Any

import pytest

from protocol import TableConfig
from protocol.commands import Act, Ruling, StartHand
from tests.browser.conftest import Stations, create_table, send_commands
from tests.browser.measure import contrast, screenshot, static_contrast

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect

LEAST = 4.5
SIX = TableConfig(
    game="NLHE",
    blinds=(100, 200),
    seats={1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000, 5: 5_000, 6: 20_000},
    button=1,
    names={1: "Ana", 2: "Bruno", 3: "Chen", 4: "Dara", 5: "Eve", 6: "Femi"},
)
HOLE = {1: ["2c", "3d"], 2: ["Qs", "Jd"], 3: ["7h", "2d"], 4: ["As", "Ah"], 5: ["Kc", "Kd"],
        6: ["9c", "4h"]}  # fmt: skip
STATIONS = [
    ("dealer", "dealer", "1", (1024, 768)),
    ("floor", "floor", None, (1920, 1080)),
    ("display", "display", "1", (1920, 1080)),
]


def open_all(stations: Stations) -> list[tuple[str, Any]]:
    pages = []
    for page, role, table, size in STATIONS:
        tab = stations.open(page, role, table=table, viewport=size)
        tab.emulate_media(reduced_motion="reduce")
        pages.append((page, tab))
    return pages


def settled(name: str, page: Any, seq: int) -> None:
    if name == "floor":
        expect(page.locator('.tile[data-table="1"]')).to_have_attribute("data-seq", str(seq))
    else:
        expect(page.locator("body")).to_have_attribute("data-seq", str(seq))


def check(pages: list[tuple[str, Any]], state: str, lowest: dict[str, Any]) -> list[str]:
    failures = []
    for name, page in pages:
        screenshot(page, f"contrast-{name}-{state}")
        found = contrast(page)
        low = [f for f in found if f["ratio"] < LEAST]
        worst = found[0] if found else None
        if worst and (name not in lowest or worst["ratio"] < lowest[name]["ratio"]):
            lowest[name] = {**worst, "state": state}
        print(f"{name} / {state}: {len(found)} texts, lowest {worst}")
        failures += [f"{name} / {state}: {f}" for f in low]
    return failures


def test_every_text_is_at_least_4_5_to_1_in_every_state(stations: Stations) -> None:
    server = stations.server
    create_table(server, SIX)
    pages = open_all(stations)
    for _, page in pages:
        expect(page.get_by_role("status")).to_have_text("Online")
    lowest: dict[str, Any] = {}
    failures: list[str] = []

    # A hand in play: seats 1 and 6 folded, seat 5 all-in, seats 7-10 empty, seat 2 to act.
    seq = send_commands(
        server,
        "1",
        StartHand(cards=HOLE),
        Act(seat=4, declare="raise", amount=1_200),
        Act(seat=5, declare="all_in"),
        Act(seat=6, declare="fold"),
        Act(seat=1, declare="fold"),
    )
    for name, page in pages:
        settled(name, page, seq)
    failures += check(pages, "hand", lowest)

    # Seat 2 silently puts two 100s against the all-in: an under-call for the floor (53-B).
    seq = send_commands(server, "1", Act(seat=2, chips=[100, 100]))
    for name, page in pages:
        settled(name, page, seq)
    expect(pages[1][1].locator(".call")).to_have_count(1)
    failures += check(pages, "floor-call", lowest)

    # The floor rules a call; 3 and 4 fold: seat 2 against the all-in, hands face up (17).
    seq = send_commands(
        server,
        "1",
        Ruling(call=1, option="call"),
        Act(seat=3, declare="fold"),
        Act(seat=4, declare="fold"),
    )
    for name, page in pages:
        settled(name, page, seq)
    expect(pages[2][1].locator("#exposed")).to_be_visible()
    failures += check(pages, "exposed", lowest)

    server.kill()
    for _, page in pages:
        expect(page.get_by_role("status")).to_have_text("Offline — reconnecting…")
    failures += check(pages, "offline", lowest)

    for name, page in pages:
        pairs = static_contrast(page)
        print(f"{name}: {len(pairs)} declared colour pairs, lowest {pairs[0] if pairs else None}")
        failures += [f"{name} stylesheet: {p}" for p in pairs if p["ratio"] < LEAST]
    for name, worst in lowest.items():
        print(f"lowest on the {name} station: {worst}")
    assert failures == [], "\n".join(failures)
