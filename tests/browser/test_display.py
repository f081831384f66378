"""The table display through an all-in, its run-out and the next hand (issue 11, acceptance 1).

Card backs for the live hands; the all-in called turns every hand face up under a banner that
sits above the table, never under a seat; the run-out ends the hand: the banner goes, and the
hands, the winner of the pot with the hand's name (from the engine's ``hands`` of the pot
award) and the player who is out stay on screen until the next hand — also on a display
loaded between hands. The next hand is drawn at once, its dead button (34) on the empty
seat, with the result in a strip above the table until the hold (``hold=15`` s) runs out.
The held result is measured like every layout (no overlaps, nothing clipped, nothing under
32 px at 1080 lines), at 1920 x 1080 and 1280 x 720.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from protocol import TableConfig
from protocol.commands import Act, Deal, StartHand
from tests.browser.conftest import Stations, create_table, send_commands
from tests.browser.measure import layout_report, measure, screenshot

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect

FOUR = TableConfig(
    game="NLHE",
    blinds=(100, 200),
    seats={1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000},
    button=1,
    names={1: "Ana", 2: "Bruno", 3: "Chen", 4: "Dara"},
)
HOLE = {1: ["2c", "3d"], 2: ["Qs", "Qd"], 3: ["Ah", "Kh"], 4: ["9c", "4d"]}
WON = "Seat 3 wins the main pot, 40,000 — flush, ace high"


def seat(page: Any, n: int) -> Any:
    return page.locator(f'.seat[data-seat="{n}"]')


def settled(page: Any, seq: int) -> None:
    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))


def intersects(page: Any, a: str, b: str) -> bool:
    return bool(
        page.evaluate(
            """([a, b]) => {
              const r = document.querySelector(a).getBoundingClientRect();
              return [...document.querySelectorAll(b)].some((e) => {
                const s = e.getBoundingClientRect();
                return r.left < s.right && s.left < r.right && r.top < s.bottom && s.top < r.bottom;
              });
            }""",
            [a, b],
        )
    )


def held_layout_is_clean(page: Any, size: tuple[int, int]) -> None:
    figures = measure(page)
    print("\n" + layout_report(f"display, result held, {size}", figures))
    least = 32 * size[1] / 1080 - 0.5
    assert figures["overlaps"] == figures["covered"] == figures["clipped"] == []
    assert [f for f in figures["fonts"] if f["px"] < least] == [], layout_report("display", figures)


def test_the_showdown_result_is_held_with_the_winning_hand_and_who_is_out(
    stations: Stations,
) -> None:
    server = stations.server
    create_table(server, FOUR)
    big = stations.open("display", "display", viewport=(1920, 1080), extra="&hold=15")
    small = stations.open("display", "display", viewport=(1280, 720), extra="&hold=15")
    pages = (big, small)
    seq = send_commands(server, "1", StartHand(cards=HOLE))
    for page in pages:
        settled(page, seq)
        # The display gets no hole cards: each live hand shows two card backs.
        for n in (1, 2, 3, 4):
            expect(seat(page, n).locator(".card.back")).to_have_count(2)
        expect(seat(page, 1).locator(".marker.button")).to_have_text("D")
        expect(seat(page, 2).locator(".marker.sb")).to_have_text("SB")
        expect(seat(page, 3).locator(".marker.bb")).to_have_text("BB")
    screenshot(big, "display-card-backs")

    # Seat 2 all-in, seat 3 calls: every hand face up (17), the banner above the table.
    seq = send_commands(
        server,
        "1",
        Act(seat=4, declare="fold"),
        Act(seat=1, declare="fold"),
        Act(seat=2, declare="all_in"),
        Act(seat=3, declare="call"),
    )
    for page in pages:
        settled(page, seq)
        expect(page.locator("#exposed")).to_have_text("All hands face up · Rule 17")
        expect(seat(page, 2)).to_have_attribute("aria-label", re.compile("Queen of spades"))
        expect(seat(page, 3).locator(".card:not(.back)")).to_have_count(2)
        expect(seat(page, 2).locator(".state")).to_have_text("All-in")
        expect(seat(page, 4).locator(".state")).to_have_text("Folded")
        assert not intersects(page, "#exposed", ".seat, .bet, .centre")
    screenshot(big, "display-exposed")

    # The run-out ends the hand: the result stays up, the banner goes.
    seq = send_commands(
        server,
        "1",
        Deal(street="flop", cards=["Jh", "7h", "2h"]),
        Deal(street="turn", cards=["9d"]),
        Deal(street="river", cards=["4c"]),
    )
    for page in pages:
        settled(page, seq)
        expect(page.locator("body")).to_have_attribute("data-result", "1")
        expect(page.locator(".result .won")).to_have_text([WON])
        expect(page.locator(".result .out-line")).to_have_text(["Seat 2, Bruno, is out"])
        expect(page.locator("#exposed")).to_be_hidden()
        expect(seat(page, 3)).to_have_class(re.compile(r"\bwinner\b"))
        expect(seat(page, 3).locator(".state")).to_have_text("Winner")
        expect(seat(page, 3).locator(".stack")).to_have_text("40,000")
        expect(seat(page, 3).locator(".card")).to_have_count(2)
        gone = page.locator('.gone[data-place="2"]')
        expect(gone.locator(".state")).to_have_text("Out")
        expect(gone.locator(".card:not(.back)")).to_have_count(2)
        expect(page.locator("#board .card")).to_have_count(5)
    # A display loaded between hands recalls the ended hand from the history.
    fresh = stations.open("display", "display", viewport=(1920, 1080))
    settled(fresh, seq)
    expect(fresh.locator(".result .won")).to_have_text([WON])
    expect(fresh.locator(".result .out-line")).to_have_text(["Seat 2 is out"])
    expect(fresh.locator("#board")).to_have_attribute("aria-label", re.compile(r"^Board: Jack of"))
    expect(seat(fresh, 3).locator(".card")).to_have_count(2)
    for page, size in ((big, (1920, 1080)), (small, (1280, 720))):
        screenshot(page, f"display-result-{size[0]}x{size[1]}")
        held_layout_is_clean(page, size)

    # The next hand starts at once: it is drawn, the button dead on seat 2's empty place,
    # and the result stays in a strip above the table for the rest of its hold.
    seq = send_commands(server, "1", StartHand())
    for page in pages:
        settled(page, seq)
        expect(page.locator("#title")).to_have_text("Table 1 · Hand 2 · Pre-flop")
        expect(page.locator("body")).to_have_attribute("data-result", "1 strip")
        expect(page.locator("#last-result .won")).to_have_text([WON])
        expect(page.locator(".result")).to_have_count(0)
        assert not intersects(page, "#last-result", ".seat, .bet, .centre")
    screenshot(big, "display-next-hand-strip")
    for page in pages:
        expect(page.locator("body")).to_have_attribute("data-result", "", timeout=20_000)
        expect(page.locator("#last-result")).to_be_hidden()
        dead = page.get_by_role("img", name="Dead button on seat 2")
        expect(dead).to_contain_text("Dead button")
        expect(seat(page, 2)).to_have_count(0)
        expect(seat(page, 3).locator(".marker.sb")).to_have_text("SB")
        expect(seat(page, 4).locator(".marker.bb")).to_have_text("BB")
        for n in (1, 3, 4):
            expect(seat(page, n).locator(".card.back")).to_have_count(2)
        assert not intersects(page, ".dead-button", ".seat, .bet, .centre")
    screenshot(big, "display-dead-button")
    for page in pages:
        assert page.page_errors == []
