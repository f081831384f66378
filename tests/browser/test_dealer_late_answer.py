"""The server's answer to an action can come after the events it caused: the dealer station
already shows the next seat to act, and the dealer is tapping that seat's chips. The answer
must not clear them (it did: CI, under load, saw the chip buttons relabelled under the test's
finger; a dealer on a slow network would see a push half-entered vanish).

The station's websocket is routed through the test (Playwright's ``route_web_socket``) to the
real server: every frame passes unchanged, except that the answers (``ack``) are held until the
test lets them go.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.browser.conftest import Stations, create_table
from tests.browser.test_dealer_taps import REFERENCE, Taps, to_act

TIMES = "\u00d7"  # the multiplication sign the chip total is written with
expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect


class HeldAnswers:
    """Frames from the server to the page, with the ``ack`` frames held while ``holding``."""

    def __init__(self) -> None:
        self.holding = False
        self.held: list[str | bytes] = []
        self.page_side: Any = None

    def route(self, page_side: Any) -> None:
        self.page_side = page_side
        server = page_side.connect_to_server()
        server.on_message(self.from_server)

    def from_server(self, message: str | bytes) -> None:
        if self.holding and json.loads(message).get("type") == "ack":
            self.held.append(message)
        else:
            self.page_side.send(message)

    def release(self) -> None:
        self.holding = False
        for message in self.held:
            self.page_side.send(message)
        self.held.clear()


def test_a_late_answer_keeps_the_chips_entered_for_the_next_seat(stations: Stations) -> None:
    create_table(stations.server, REFERENCE)
    answers = HeldAnswers()
    page = stations.open(
        "dealer", "dealer", before=lambda tab: tab.route_web_socket(re.compile(".*"), answers.route)
    )
    expect(page.get_by_role("status")).to_have_text("Online")
    t = Taps(page)
    t.tap("Start the first hand")
    to_act(page, "Seat 4 · Dara to act")
    expect(page.locator("body")).to_have_attribute("data-unanswered", "0")

    answers.holding = True
    t.tap("Call 500,000")
    to_act(page, "Seat 5 · Eve to act")  # the events came; the answer is held
    expect(page.locator("body")).to_have_attribute("data-unanswered", "1")
    t.tap("Times 10: the next chip tapped counts 10 times")
    t.tap("Add 10 100,000 chips")
    total = page.locator("#push-total")
    expect(total).to_have_text(f"10 {TIMES} 100,000 = 1,000,000")

    answers.release()
    expect(page.locator("body")).to_have_attribute("data-unanswered", "0")  # handled
    expect(total).to_have_text(f"10 {TIMES} 100,000 = 1,000,000")
    t.tap("Add a 100,000 chip")
    expect(total).to_have_text(f"11 {TIMES} 100,000 = 1,100,000")
    assert page.page_errors == []
