"""The three stations in a real browser against a real server (issue 5, acceptance 1-3).

1. A dealer records a raise by chips; the display shows the bet and the ruling; the floor
   answers the floor call an under-call raises, and the dealer's prompt comes back.
2. The server is killed and restarted: every station reconnects by itself and shows what a
   freshly loaded page shows.
3. The dealer station works from the keyboard, is labelled for screen readers, and fits a
   1024 x 768 tablet with ten seats.
4. Stations that followed a messy hand event by event (misdeal, clock, correction, penalty,
   all-in, award, the next hand) show what freshly loaded pages show at every step.

Screenshots of every station go to ``artifacts/screenshots/`` (git-ignored) on every run.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from protocol import TableConfig
from protocol.commands import Act, Deal
from tests.browser.conftest import Stations, create_table, send_commands

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect
CHIP_SET = (25, 100, 500, 1000, 5000, 25000)
CHIPS = "&chips=" + ",".join(map(str, CHIP_SET))
FOUR = TableConfig(
    game="NLHE",
    blinds=(100, 200),
    seats={1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000},
    button=1,
    names={1: "Ana", 2: "Bruno", 3: "Chen", 4: "Dara"},
    chips=CHIP_SET,
)
TEN = TableConfig(
    game="NLHE",
    blinds=(100, 200),
    seats={n: 20_000 + 1_000 * n for n in range(1, 11)},
    button=1,
    names={
        1: "Ana Ferreira",
        2: "Bruno Keller",
        3: "Chen Wei",
        4: "Dara O'Neill",
        5: "Eve Martin",
        6: "Femi Adeyemi",
        7: "Gus Lindqvist",
        8: "Hana Sato",
        9: "Ivo Petrov",
        10: "Jo Maximilian",
    },
    chips=CHIP_SET,
)
BIG = (1920, 1080)


def shot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"))


def open_stations(stations: Stations) -> list[Any]:
    """The dealer station (raise by chips), the table display and the floor monitor."""
    return [
        stations.open("dealer", "dealer", extra=CHIPS),
        stations.open("display", "display", viewport=BIG),
        stations.open("floor", "floor", table=None, viewport=BIG),
    ]


def online(*pages: Any) -> None:
    for page in pages:
        expect(page.get_by_role("status")).to_have_text("Online")


def tap_chips(dealer: Any, *chips: int) -> None:
    for chip in chips:
        dealer.get_by_role("button", name=f"Add a {chip:,} chip").click()


def no_page_errors(*pages: Any) -> None:
    for page in pages:
        assert page.page_errors == [], page.page_errors


KEY_TEXTS = r"""() => {
  // A running clock counts down on every page: its seconds are not compared.
  const clean = (t) => t.replace(/Clock: (countdown )?\d+( s)?/g, 'Clock').trim();
  const text = (sel) => [...document.querySelectorAll(sel)].map((e) => clean(e.textContent));
  const label = (sel) => document.querySelector(sel)?.getAttribute('aria-label') ?? null;
  return {
    seats: [...document.querySelectorAll('.seat[data-seat]')]
      .map((e) => e.getAttribute('aria-label')),
    stacks: text('.seat .stack'),
    bets: text('.bet'),
    pot: text('#pot'),
    board: label('#board'),
    toAct: text('.seat.to-act').concat(text('#to-act')),
    prompt: text('#prompt button'),
    tiles: text('.tile'),
    calls: text('.call'),
    ruling: text('#ruling'),
  };
}"""


def key_texts(page: Any) -> dict[str, Any]:
    return dict(page.evaluate(KEY_TEXTS))


def settled(page: Any, seq: int) -> None:
    """The page's view is complete up to event ``seq`` (its ``data-seq``)."""
    if "floor.html" in page.url:
        expect(page.locator('.tile[data-table="1"]')).to_have_attribute("data-seq", str(seq))
    else:
        expect(page.locator("body")).to_have_attribute("data-seq", str(seq))


def matches_fresh_pages(stations: Stations, following: list[Any], seq: int) -> None:
    """Pages that followed the events show what freshly loaded pages show."""
    opened = open_stations(stations)
    try:
        for old, new in zip(following, opened, strict=True):
            settled(old, seq)
            settled(new, seq)
            assert key_texts(old) == key_texts(new)
            no_page_errors(new)
    finally:
        for page in opened:
            page.context.close()
            stations.contexts.remove(page.context)


def last_seq(page: Any) -> int:
    return int(page.locator("body").get_attribute("data-seq") or 0)


# --- 1 -------------------------------------------------------------------------------------


def test_a_raise_by_chips_reaches_the_display_and_the_floor_rules_on_an_under_call(
    stations: Stations, screenshots: Path
) -> None:
    create_table(stations.server, FOUR)
    dealer, display, floor = open_stations(stations)
    online(dealer, display, floor)

    dealer.get_by_role("button", name="Start the first hand").click()
    expect(dealer.locator("#to-act")).to_have_text("Seat 4 · Dara to act")
    expect(dealer.get_by_role("button", name="Call 200")).to_be_visible()

    # Seat 4 silently pushes a 1,000 and two 100s: a raise to 1,200 (47-B).
    tap_chips(dealer, 1000, 100, 100)
    expect(dealer.locator("#push-total")).to_have_text("1 \u00d7 1,000 + 2 \u00d7 100 = 1,200")
    dealer.get_by_role("button", name="Record 1,200").click()
    expect(dealer.get_by_role("log").locator("li").first).to_have_text(
        re.compile(r"Seat 4: raise 1,200 \(47-B, 45-A\)")
    )
    expect(dealer.locator("#to-act")).to_have_text("Seat 1 · Ana to act")

    # The display, in another browser context, shows the bet, the ruling and who acts next.
    expect(display.locator('.bet[data-seat="4"]')).to_have_text("1,200")
    expect(display.locator("#ruling")).to_contain_text("Seat 4: raise 1,200 (47-B, 45-A)")
    expect(display.locator('.seat[data-seat="1"]')).to_have_class(re.compile(r"\bto-act\b"))
    expect(display.locator("#pot")).to_have_text("1,500")
    shot(display, screenshots, "display-raise")

    # Seat 1 silently puts two 100s against the raise: an under-call the floor decides (53-B).
    tap_chips(dealer, 100, 100)
    dealer.get_by_role("button", name="Record 200").click()
    expect(dealer.locator("#action")).to_contain_text("Waiting for the floor")
    expect(dealer.get_by_role("button", name=re.compile(r"^Call"))).to_have_count(0)
    call = floor.locator(".call")
    expect(call).to_have_count(1)
    expect(call).to_contain_text("Table 1 · Seat 1 · Rule 53-B")
    expect(call).to_contain_text("under-call of 1,200")
    expect(floor.locator(".tile.has-call")).to_contain_text("Floor call")
    expect(display.locator("#ruling")).to_contain_text("53-B")
    shot(dealer, screenshots, "dealer-floor-call")
    shot(floor, screenshots, "floor-call")

    # The floor rules a full call; the hand goes on and the dealer's prompt comes back.
    floor.get_by_role("button", name="Rule call on table 1, seat 1").click()
    expect(floor.locator("#calls")).to_have_text("No floor calls open.")
    expect(floor.get_by_role("log")).to_contain_text("Floor ruling on call 1: seat 1 call (53-B)")
    expect(dealer.locator("#to-act")).to_have_text("Seat 2 · Bruno to act")
    expect(dealer.get_by_role("button", name="Call 1,100")).to_be_visible()
    expect(dealer.get_by_role("log")).to_contain_text("Seat 1: call 1,200 (53-B")
    expect(display.locator('.bet[data-seat="1"]')).to_have_text("1,200")
    expect(display.locator("#pot")).to_have_text("2,700")
    shot(dealer, screenshots, "dealer")
    shot(display, screenshots, "display")
    shot(floor, screenshots, "floor")
    no_page_errors(dealer, display, floor)


# --- 2 -------------------------------------------------------------------------------------


def test_stations_reconnect_after_a_server_restart_and_match_a_fresh_page(
    stations: Stations, screenshots: Path
) -> None:
    server = stations.server
    create_table(server, FOUR)
    dealer, display, floor = open_stations(stations)
    online(dealer, display, floor)
    dealer.get_by_role("button", name="Start the first hand").click()
    dealer.get_by_role("button", name="Call 200").click()
    expect(dealer.locator("#to-act")).to_have_text("Seat 1 · Ana to act")
    dealer.locator("#raise-to").fill("700")
    dealer.get_by_role("button", name="Raise to 700").click()
    expect(display.locator('.bet[data-seat="1"]')).to_have_text("700")
    expect(floor.locator(".tile")).to_contain_text("Seat 2 (Bruno) to act")

    server.kill()
    for page in (dealer, display, floor):
        expect(page.get_by_role("status")).to_have_text("Offline — reconnecting…")
    shot(dealer, screenshots, "dealer-offline")

    server.start()
    # While the stations find their way back, the hand goes on from another station.
    seq = send_commands(
        server,
        "1",
        Act(seat=2, declare="call"),
        Act(seat=3, declare="call"),
        Act(seat=4, declare="call"),
        Deal(street="flop", cards=["Ah", "Kd", "7c"]),
        Act(seat=2, declare="bet", amount=1000),
    )
    online(dealer, display, floor)
    for page in (dealer, display):
        expect(page.locator("#pot")).to_have_text("3,800")
        expect(page.locator("#board")).to_have_attribute(
            "aria-label", "Board: Ace of hearts, King of diamonds, Seven of clubs"
        )
        expect(page.locator(".seat.to-act")).to_have_attribute("data-seat", "3")
    expect(dealer.get_by_role("button", name="Call 1,000")).to_be_visible()
    expect(floor.locator(".tile")).to_contain_text("Seat 3 (Chen) to act")
    # The same as freshly loaded pages: stacks, bets, pot, board, seat to act, prompt, tiles.
    matches_fresh_pages(stations, [dealer, display, floor], seq)

    # A reload resumes from the session's copy of the table and still matches.
    before = key_texts(dealer)
    dealer.reload()
    online(dealer)
    settled(dealer, seq)
    expect(dealer.get_by_role("button", name="Call 1,000")).to_be_visible()
    assert key_texts(dealer) == before
    shot(dealer, screenshots, "dealer-reconnected")
    no_page_errors(dealer, display, floor)


# --- 3 -------------------------------------------------------------------------------------


def tab_to(page: Any, name: str | re.Pattern[str], limit: int = 60) -> None:
    """Press Tab until the focused element's accessible text matches ``name``."""
    pattern = name if isinstance(name, re.Pattern) else re.compile(re.escape(name))
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(
            "() => { const e = document.activeElement;"
            " return e ? (e.getAttribute('aria-label') || e.textContent || '').trim() : ''; }"
        )
        if pattern.fullmatch(focused):
            return
    raise AssertionError(f"Tab never reached {name!r}")


def fits(page: Any) -> dict[str, int]:
    return dict(
        page.evaluate(
            """() => {
              const s = document.scrollingElement;
              const c = document.querySelector('.controls');
              return {scrollHeight: s.scrollHeight, innerHeight: innerHeight,
                      scrollWidth: s.scrollWidth, innerWidth: innerWidth,
                      controlsScroll: c.scrollHeight, controlsHeight: c.clientHeight};
            }"""
        )
    )


def test_the_dealer_station_works_by_keyboard_is_labelled_and_fits_a_tablet(
    stations: Stations, screenshots: Path
) -> None:
    create_table(stations.server, TEN)
    dealer, display, floor = open_stations(stations)
    online(dealer, display, floor)

    # Keyboard only: start the hand, then Tab to "Call 200" and press Enter.
    tab_to(dealer, "Start the first hand")
    dealer.keyboard.press("Enter")
    expect(dealer.locator("#to-act")).to_have_text("Seat 4 · Dara O'Neill to act")
    tab_to(dealer, "Call 200")
    dealer.keyboard.press("Enter")
    expect(dealer.get_by_role("log").locator("li").first).to_have_text("Seat 4: call 200")
    expect(dealer.locator("#to-act")).to_have_text("Seat 5 · Eve Martin to act")
    # A raise typed into the amount field and recorded with Enter.
    tab_to(dealer, re.compile(r"Raise to amount.*"))
    dealer.keyboard.press("Control+A")
    dealer.keyboard.type("600")
    dealer.keyboard.press("Enter")
    expect(dealer.get_by_role("log").locator("li").nth(1)).to_have_text(
        re.compile(r"Seat 5: raise 600")
    )
    expect(dealer.locator("#to-act")).to_have_text("Seat 6 · Femi Adeyemi to act")
    focus = dealer.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert focus != "none"

    # Labelled for screen readers: seats, prompt buttons, the log, the connection state.
    seats = dealer.get_by_role("group", name=re.compile(r"^Seat \d+, "))
    expect(seats).to_have_count(10)
    to_act = re.compile(r"^Seat 6, Femi Adeyemi, .*to act$")
    expect(dealer.get_by_role("group", name=to_act)).to_have_count(1)
    expect(
        dealer.get_by_role("group", name=re.compile(r"^Seat 5, Eve Martin, stack 24,400, bet 600"))
    ).to_have_count(1)
    for name in ("Fold", "Call 600", "Raise to 1,000", re.compile(r"^All-in 26,000$")):
        expect(dealer.get_by_role("button", name=name)).to_be_visible()
    expect(dealer.get_by_role("spinbutton", name=re.compile(r"^Raise to amount"))).to_have_value(
        "1000"
    )
    expect(dealer.get_by_role("button", name="Add a 25,000 chip")).to_be_visible()
    expect(dealer.get_by_role("radiogroup", name="Which came first")).to_be_visible()
    log = dealer.get_by_role("log")
    expect(log).to_have_attribute("aria-live", "polite")
    expect(log).to_have_accessible_name(re.compile(r"^Rulings"))
    for page in (dealer, display, floor):
        expect(page.get_by_role("status")).to_have_text("Online")
    expect(floor.get_by_role("log")).to_have_count(1)
    expect(floor.get_by_role("button", name=re.compile(r"^Table 1, Hand 1"))).to_be_visible()
    expect(display.get_by_role("group", name=re.compile(r"^Seat 6, Femi Adeyemi"))).to_be_visible()

    # Ten seats on a 1024 x 768 tablet: no scrolling, not even inside the controls.
    size = fits(dealer)
    assert size["scrollHeight"] <= size["innerHeight"], size
    assert size["scrollWidth"] <= size["innerWidth"], size
    assert size["controlsScroll"] <= size["controlsHeight"], size
    for n in range(1, 11):
        box = dealer.locator(f'.seat[data-seat="{n}"]').bounding_box()
        assert box is not None
        assert box["x"] >= 0 and box["y"] >= 0, (n, box)
        assert box["x"] + box["width"] <= 1024 and box["y"] + box["height"] <= 768, (n, box)
    shot(dealer, screenshots, "dealer-10-seats")
    shot(display, screenshots, "display-10-seats")

    # The fullest form: an action out of turn from the big blind, who has chips in front
    # (rule 48 asks what became of them). Still no scrolling.
    dealer.locator('.seat[data-seat="3"]').click()
    expect(dealer.locator("#to-act")).to_have_text("Seat 3 · Chen Wei — out of turn")
    expect(dealer.get_by_role("combobox", name="Chips already in front (rule 48)")).to_be_visible()
    tap_chips(dealer, 500, 100)
    expect(dealer.get_by_role("button", name="Record 600")).to_be_enabled()
    size = fits(dealer)
    assert size["scrollHeight"] <= size["innerHeight"], size
    assert size["controlsScroll"] <= size["controlsHeight"], size
    shot(dealer, screenshots, "dealer-out-of-turn")
    dealer.get_by_role("button", name="Clear the chips").click()
    dealer.get_by_role("button", name="Back to seat 6").click()
    expect(dealer.locator("#to-act")).to_have_text("Seat 6 · Femi Adeyemi to act")

    # The irregularities menu opens from the keyboard and closes with Escape.
    tab_to(dealer, "Irregularities…")
    dealer.keyboard.press("Enter")
    dialog = dealer.get_by_role("dialog", name="Irregularities")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Call the floor: premature call")).to_be_visible()
    shot(dealer, screenshots, "dealer-irregularities")
    dealer.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    # The landing page links the three stations, keeping the table; the token stays in the
    # tab's session storage, out of every address.
    index = stations.open("index", "floor", table="1")
    for name, page in (("Dealer station", "dealer"), ("Floor monitor", "floor")):
        link = index.get_by_role("link", name=re.compile(name))
        href = re.compile(rf"/{page}\.html\?tournament=main&table=1$")
        expect(link).to_have_attribute("href", href)
    no_page_errors(dealer, display, floor, index)


# --- the whole table, event by event, against fresh pages ---------------------------------


def test_stations_following_a_messy_hand_show_what_a_fresh_page_shows(
    stations: Stations, screenshots: Path
) -> None:
    server = stations.server
    create_table(server, FOUR)
    dealer, display, floor = open_stations(stations)
    following = [dealer, display, floor]
    online(*following)

    dealer.get_by_role("button", name="Start the first hand").click()
    expect(dealer.locator("#to-act")).to_have_text("Seat 4 · Dara to act")
    # A misdeal from the irregularities menu: the hand is dealt again (37-A, 37-C).
    dealer.get_by_role("button", name="Irregularities…").click()
    dealer.get_by_role("button", name="Misdeal…").click()
    dealer.get_by_role("button", name="A card exposed in the deal").click()
    expect(dealer.get_by_role("log")).to_contain_text("Misdeal (card exposed)")
    expect(dealer.get_by_role("button", name="Call 200")).to_be_visible()

    seq = send_commands(
        server,
        "1",
        Act(seat=4, declare="call"),
        Act(seat=1, declare="call"),
        Act(seat=2, declare="call"),
        Act(seat=3, declare="check"),
    )
    settled(dealer, seq)
    dealer.get_by_role("button", name="Choose the flop cards").click()
    for code in ("2c", "7d", "9h"):
        dealer.locator(f'#picker button[data-card="{code}"]').click()
    dealer.get_by_role("button", name="Deal the flop: 2c 7d 9h").click()
    expect(display.locator("#board")).to_have_attribute(
        "aria-label", "Board: Two of clubs, Seven of diamonds, Nine of hearts"
    )
    # The floor puts the clock on seat 2.
    floor.get_by_role("button", name="Call the clock on seat 2").click()
    expect(floor.locator(".tile")).to_contain_text(re.compile(r"Clock: \d+ s"))
    expect(dealer.locator('.seat[data-seat="2"] .act-flag')).to_contain_text("Clock")
    matches_fresh_pages(stations, following, last_seq(dealer))

    # Seat 2 bets, seat 3 calls; the floor voids the call: the stations take a fresh snapshot.
    seq = send_commands(
        server, "1", Act(seat=2, declare="bet", amount=500), Act(seat=3, declare="call")
    )
    settled(floor, seq)  # the floor has the call it is to void (CI once clicked before it came)
    floor.get_by_label("Correction: actions to void").fill("1")
    floor.get_by_label("Correction: reason").fill("seat 3 had not acted")
    floor.get_by_role("button", name="Correct the last action").click()
    expect(dealer.get_by_role("log")).to_contain_text("Correction by the floor")
    expect(dealer.locator("#to-act")).to_have_text("Seat 3 · Chen to act")
    expect(dealer.get_by_role("button", name="Call 500")).to_be_visible()
    # A penalty from the floor.
    floor.get_by_label("Penalty: seat").select_option(label="Seat 4 · Dara")
    floor.get_by_label("Penalty: kind").select_option("hands")
    floor.get_by_label("Penalty: hands or rounds").fill("1")
    floor.get_by_role("button", name="Give the penalty").click()
    expect(floor.get_by_role("log")).to_contain_text("Seat 4: 1 hand penalty")
    matches_fresh_pages(stations, following, last_seq(dealer))

    # All-in and called: hands face up, the board is run out and the dealer awards the pot.
    seq = send_commands(
        server,
        "1",
        Act(seat=3, declare="all_in"),
        Act(seat=4, declare="fold"),
        Act(seat=1, declare="call"),
        Act(seat=2, declare="fold"),
        Deal(street="turn", cards=["Kc"]),
        Deal(street="river", cards=["3s"]),
    )
    settled(dealer, seq)
    expect(display.locator("#exposed")).to_be_visible()
    expect(display.locator('.seat[data-seat="3"] .state')).to_have_text("All-in")
    matches_fresh_pages(stations, following, seq)
    dealer.get_by_role("button", name="Seat 1 wins the main pot").click()
    shot(dealer, screenshots, "dealer-showdown")
    dealer.get_by_role("button", name="Award").click()
    expect(dealer.get_by_role("button", name="Start hand 2")).to_be_visible()
    expect(display.locator('.seat[data-seat="1"] .stack')).to_have_text("40,900")
    matches_fresh_pages(stations, following, last_seq(dealer))

    # The next hand: seat 4's penalty hand is dealt in and killed (74-C).
    dealer.get_by_role("button", name="Start hand 2").click()
    expect(dealer.get_by_role("log")).to_contain_text("Hand 2")
    matches_fresh_pages(stations, following, last_seq(dealer))
    shot(floor, screenshots, "floor-after-hand")
    no_page_errors(*following)
