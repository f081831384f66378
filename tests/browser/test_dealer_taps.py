"""A whole hand dealt through the dealer station, every tap counted (issue 11).

The reference hand: start, a call, a raise by chips (twenty 100,000 chips), a call out of
turn, a spoken raise with chips, folds (those with chips in front confirmed), the flop with
its cards, a bet, an all-in and a call, the turn, the river, two hands shown. The test prints
the taps and the typed characters it took; before issue 11 the same hand took 50 taps and
34 typed characters (a select counts as two taps: open, choose; a text field as one tap and
its characters).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from protocol import TableConfig
from tests.browser.conftest import Stations, create_table
from tests.browser.measure import screenshot

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect
REFERENCE = TableConfig(
    game="NLHE",
    blinds=(250_000, 500_000),
    seats={n: 40_000_000 for n in range(1, 7)},
    button=1,
    names={1: "Ana", 2: "Bruno", 3: "Chen", 4: "Dara", 5: "Eve", 6: "Femi"},
    chips=(25_000, 100_000, 500_000, 1_000_000, 5_000_000),
)
BEFORE = (50, 34)


class Taps:
    """The dealer's page, counting each tap and each typed character."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.taps = 0
        self.typed = 0

    def tap(self, name: str, exact: bool = True) -> None:
        self.page.get_by_role("button", name=name, exact=exact).tap()
        self.taps += 1

    def on(self, locator: Any) -> None:
        locator.tap()
        self.taps += 1

    def select(self, locator: Any, value: str) -> None:
        locator.select_option(value)
        self.taps += 2

    def keys(self, *keys: str) -> None:
        for key in keys:
            self.tap(key)

    def card(self, code: str) -> None:
        self.on(self.page.locator(f'#picker button[data-card="{code}"]'))


def to_act(page: Any, text: str) -> None:
    expect(page.locator("#to-act")).to_have_text(text)


def test_the_reference_hand_in_taps(stations: Stations) -> None:
    create_table(stations.server, REFERENCE)
    page = stations.open("dealer", "dealer")
    expect(page.get_by_role("status")).to_have_text("Online")
    t = Taps(page)
    t.tap("Start the first hand")
    to_act(page, "Seat 4 · Dara to act")
    t.tap("Call 500,000")
    # Seat 5 pushes twenty 100,000 chips: x10, 100,000, x10, 100,000.
    for _ in range(2):
        t.tap("Times 10: the next chip tapped counts 10 times")
        t.tap("Add 10 100,000 chips")
    expect(page.locator("#push-total")).to_have_text("20 \u00d7 100,000 = 2,000,000")
    t.tap("Record 2,000,000")
    to_act(page, "Seat 6 · Femi to act")
    # Seat 1 calls out of turn: tap its seat, then Call.
    t.on(page.locator('.seat[data-seat="1"]'))
    to_act(page, "Seat 1 · Ana — out of turn")
    t.tap("Call")
    expect(page.locator('.seat[data-seat="1"]')).to_have_class(re.compile(r"\bpending-oot\b"))
    # Seat 6 says "raise, five million" and pushes a 5,000,000 chip.
    t.select(page.locator("#declare"), "raise")
    t.on(page.locator("#spoken"))
    t.keys("5", "Million", "Said 5,000,000")
    t.tap("Add a 5,000,000 chip")
    t.tap("Record 5,000,000")
    to_act(page, "Seat 1 · Ana to act")
    t.tap("Fold")
    for seat, front in ((2, "250,000"), (3, "500,000"), (4, "500,000")):
        expect(page.locator("#to-act")).to_contain_text(f"Seat {seat} ")
        t.tap("Fold")
        t.tap(f"Fold — {front} stays in")
    t.tap("Call 3,000,000")
    # The flop from the picker.
    t.tap("Choose the flop cards")
    for code in ("Ah", "Kd", "7c"):
        t.card(code)
    t.tap("Deal the flop: Ah Kd 7c")
    to_act(page, "Seat 5 · Eve to act")
    t.on(page.locator("#raise-to"))
    t.keys("5", "Million", "Bet 5,000,000")
    t.tap("All-in 35,000,000")
    t.tap("Call 30,000,000")
    for street, code in (("turn", "2s"), ("river", "9h")):
        t.tap(f"Choose the {street} card")
        t.card(code)
        t.tap(f"Deal the {street}: {code}")
    for seat, cards in ((5, ("Qs", "Qd")), (6, ("As", "Ac"))):
        t.tap(f"Show seat {seat}")
        for code in cards:
            t.card(code)
        page.locator("#picker-ok").tap()
        t.taps += 1
    expect(page.get_by_role("button", name="Start hand 2")).to_be_visible()
    expect(page.locator("#push-list")).to_contain_text("Main pot 81,250,000: seat 6")
    expect(page.locator("#push-list")).to_contain_text("Out: seat 5 · Eve")
    screenshot(page, "dealer-after-the-reference-hand")
    print(
        f"\nReference hand: {t.taps} taps, {t.typed} typed characters"
        f" (before issue 11: {BEFORE[0]} taps, {BEFORE[1]} typed characters)"
    )
    # No typing at all, and no more taps than before (three of them confirm folds with chips
    # in front, which nothing confirmed before).
    assert t.typed == 0 and t.taps <= BEFORE[0]
    assert page.page_errors == [], page.page_errors
