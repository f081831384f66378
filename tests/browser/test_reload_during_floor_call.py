"""Stations opened or reloaded while their table waits for the floor (issue 10).

A station that knows nothing of a table starts from the server's snapshot. While a floor call
was open that snapshot could not be built: the server closed the subscription, the page
reconnected many times a second, the floor monitor said "No floor calls open." and the display
stayed empty. Here the table waits on an under-call (53-B) before any page is open; every
station opens, shows the table and the open call, stays connected, and still does after a
reload; the floor's ruling then moves the hand on for all of them.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from protocol import TableConfig
from protocol.commands import Act, StartHand
from tests.browser.conftest import Stations, create_table, send_commands

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect
CHIP_SET = (25, 100, 500, 1000, 5000, 25000)
FOUR = TableConfig(
    game="NLHE",
    blinds=(100, 200),
    seats={1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000},
    button=1,
    names={1: "Ana", 2: "Bruno", 3: "Chen", 4: "Dara"},
    chips=CHIP_SET,
)
QUIET_MS = 1_500
"""Long enough to see a reconnection loop: the broken snapshot brought ~13 a second."""


def shows_the_waiting_table(dealer: Any, display: Any, floor: Any) -> None:
    for page in (dealer, display, floor):
        expect(page.get_by_role("status")).to_have_text("Online")
    call = floor.locator(".call")
    expect(call).to_have_count(1)
    expect(call).to_contain_text("Table 1 · Seat 1 · Rule 53-B · the hand waits")
    expect(floor.locator(".tile.has-call")).to_contain_text("Floor call")
    expect(dealer.locator("#action")).to_contain_text("Waiting for the floor")
    for page in (dealer, display):
        for seat, label in ((4, "Dara, stack 18,800, bet 1,200"), (1, "Ana, stack 20,000, dealer")):
            expect(page.locator(f'.seat[data-seat="{seat}"]')).to_have_attribute(
                "aria-label", re.compile(rf"^Seat {seat}, {label}")
            )
        expect(page.locator('.bet[data-seat="4"]')).to_have_text("1,200")


def stays_connected(*pages: Any) -> None:
    """No page reconnects: each keeps the one websocket it has."""
    opened: list[str] = []

    def count(ws: Any) -> None:
        opened.append(ws.url)

    for page in pages:
        page.on("websocket", count)
    pages[0].wait_for_timeout(QUIET_MS)
    for page in pages:
        page.remove_listener("websocket", count)
        expect(page.get_by_role("status")).to_have_text("Online")
    assert opened == [], f"{len(opened)} reconnections in {QUIET_MS} ms"


FORGET_TABLES = """() => {
    for (const key of Object.keys(sessionStorage)) {
        if (key !== "tablewire:token") sessionStorage.removeItem(key);
    }
}"""


def test_stations_opened_and_reloaded_while_the_table_waits_for_the_floor_show_the_call(
    stations: Stations,
) -> None:
    server = stations.server
    create_table(server, FOUR)
    # Seat 4 raises to 1,200 by chips; seat 1 silently pushes 200: the floor decides what it
    # is (53-B), and until then seat 1's chips are not a bet.
    send_commands(
        server,
        "1",
        StartHand(),
        Act(seat=4, chips=[1000, 100, 100]),
        Act(seat=1, chips=[100, 100]),
    )
    dealer = stations.open("dealer", "dealer")
    display = stations.open("display", "display")
    floor = stations.open("floor", "floor", table=None)
    shows_the_waiting_table(dealer, display, floor)
    stays_connected(dealer, display, floor)

    for page in (dealer, display, floor):
        page.reload()
    shows_the_waiting_table(dealer, display, floor)
    stays_connected(dealer, display, floor)

    # A reload that forgets the session's copy of the tables (not its sign-in) starts from a
    # fresh snapshot again.
    for page in (dealer, display, floor):
        page.evaluate(FORGET_TABLES)
        page.reload()
    shows_the_waiting_table(dealer, display, floor)

    floor.get_by_role("button", name="Rule call on table 1, seat 1").click()
    expect(floor.locator("#calls")).to_have_text("No floor calls open.")
    expect(dealer.locator("#to-act")).to_have_text("Seat 2 · Bruno to act")
    expect(display.locator('.seat[data-seat="2"]')).to_have_class(re.compile(r"\bto-act\b"))
    for page in (dealer, display, floor):
        assert page.page_errors == [], page.page_errors
