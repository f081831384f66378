"""The draw games and mixed tables at the three stations (RP-17, RP-25), in a real browser
against a real server and Redis.

1. A 2-7 triple draw hand dealt through the dealer station, every tap counted: six seats with
   nine-digit stacks and 50-character names; each draw one tap ("Pat", "1" ... "5"), one of
   them entered with its card ("Enter cards…", counted apart as optional); the limit bets; the
   stub running short on the third draw (RP-25 A, then B) said on the dealer's panel and in the
   floor's log; two hands tabled at the showdown. After each draw the display and the floor
   monitor show each seat's draws ("drew 3 · drew 3"), the street named ("After the first
   draw"), the level ("Limit 1M/2M"), and the display holds no drawn card anywhere — in its DOM
   or its stored model — until the showdown. Every station is measured during the third draw
   and at the showdown: no overlaps, cards inside their seat, touch targets of the dealer and
   floor at least 44 px, the display's text at least 32 px at 1080 lines, every text at least
   4.5:1.
2. Six entered hands: the dealer enters a draw's discards from the hand and the cards dealt;
   the stub runs short (B, then C); a dealer station loaded mid-draw knows whose draw it is
   (the snapshot's ``draw_prompt``); the display sees none of the entered cards.
3. Ten seats of no-limit 2-7 single draw, measured mid-draw.
4. Mixed tables: a table by orbit names its game at every station ("Razz", then "2-7 Triple
   Draw", on the display in the middle of the table), and a level that changes the game says so
   ("Next: Seven-card stud").
5. Stud's irregularities through the dealer's Irregularities dialog: a player away at the deal
   (32), a down-card exposed at the deal (RP-10-A), a seventh-street card exposed (RP-10-B),
   up-cards taken up (68).

Screenshots go to ``screenshots/`` (git-ignored), as the stud test's do.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest

from clients.python import Client
from protocol import TableConfig
from protocol.commands import Act, AddPlayer, Command, Deal, Draw, SetLevel, StartHand
from protocol.config import GameLevel
from tests.browser.conftest import Stations, create_table, run_admin, send_commands
from tests.browser.measure import (
    screenshot,
)
from tests.browser.test_layout import NAMES
from tests.browser.test_stud_stations import (
    STUD8,
    StudTaps,
    checked_through,
    down_cards_nowhere,
    fresh_numbers,
    open_stations,
    picker_measured,
    report,
    settled,
)
from tests.browser.test_stud_stations import measured as stud_measured

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect

CHIPS = (100_000, 500_000, 1_000_000, 5_000_000, 25_000_000)
SIX = TableConfig(
    game="27TD",
    blinds=(500_000, 1_000_000),
    seats={n: 100_000_000 + 12_345_678 * n for n in range(1, 7)},
    button=1,
    names={n: NAMES[n] for n in range(1, 7)},
    chips=CHIPS,
)
TEN = TableConfig(
    game="27SD",
    blinds=(500_000, 1_000_000),
    seats={n: 100_000_000 + 12_345_678 * n for n in range(1, 11)},
    button=1,
    names=NAMES,
    chips=CHIPS,
)
SHOWN = {2: "7c 5d 4h 3s 2c", 3: "8d 6c 4d 3h 2d"}
"""The two hands tabled: seat 2's seven-five low wins."""
ENTERED = ["Kd"]
"""The one card the dealer enters for a draw (seat 4's): never on the display."""


def draws_shown(pages: dict[str, Any], draws: dict[int, str], backs: int = 5) -> None:
    """Each live seat's draws in words and its hand as ``backs`` card backs, on the display (both
    sizes), the floor monitor and the dealer's oval."""
    for key in ("display", "display-720", "floor", "dealer"):
        page = pages[key]
        for seat, words in draws.items():
            box = page.locator(
                f'#seats li[data-seat="{seat}"]' if key == "floor" else f'.seat[data-seat="{seat}"]'
            )
            if words and key == "dealer":
                # The dealer's narrow seats: "Draws 2·pat·1", the words in the seat's label.
                short = "·".join(w.removeprefix("drew ") for w in words.split(" · "))
                expect(box.locator(".draws")).to_have_text(f"Draws {short}")
                expect(box).to_have_attribute(
                    "aria-label", re.compile(re.escape(words.replace(" · ", ", ")))
                )
            elif words:
                expect(box.locator(".draws")).to_have_text(words)
            else:
                expect(box.locator(".draws")).to_have_count(0)
            if key != "dealer":
                expect(box.locator(".card.back")).to_have_count(backs)


def street_named(pages: dict[str, Any], words: str) -> None:
    for key in ("display", "display-720"):
        expect(pages[key].locator("#title")).to_contain_text(words)
    expect(pages["floor"].locator('.tile[data-table="1"]')).to_contain_text(words)
    expect(pages["floor"].locator("#seats h2")).to_contain_text(words)
    expect(pages["dealer"].locator("#summary")).to_contain_text(words)


def measured(pages: dict[str, Any], state: str, numbers: dict[str, Any]) -> list[str]:
    """Layout and contrast of every station now, as the stud test measures them."""
    return stud_measured(pages, state, numbers, game="draw")


class DrawTaps(StudTaps):
    """The dealer's taps; the draws counted apart."""

    def __init__(self, page: Any) -> None:
        super().__init__(page)
        self.draws = 0

    def draw(self, seat: int, count: int) -> None:
        expect(self.page.locator("#to-act")).to_contain_text(f"Seat {seat} ")
        self.tap(f"Seat {seat} draws {count}" if count else f"Seat {seat} stands pat")
        self.draws += 1

    def ok(self) -> None:
        self.on(self.page.locator("#picker-ok"))


def act(t: DrawTaps, label: str, seat: int) -> None:
    expect(t.page.locator("#to-act")).to_contain_text(f"Seat {seat} ")
    t.tap(label)
    t.actions += 1


def bet_round(t: DrawTaps, *moves: tuple[int, str]) -> None:
    for seat, label in moves:
        act(t, label, seat)


# --- 1. a triple draw hand through the dealer station ---------------------------------------


def test_a_triple_draw_hand_through_the_dealer_station_with_every_tap_counted(
    stations: Stations,
) -> None:
    create_table(stations.server, SIX)
    pages = open_stations(stations)
    dealer = pages["dealer"]
    t = DrawTaps(dealer)
    numbers = fresh_numbers()
    problems: list[str] = []
    hidden = [*ENTERED, *(c for hand in SHOWN.values() for c in hand.split())]

    t.tap("Start the first hand")
    expect(dealer.locator("#to-act")).to_have_text(f"Seat 4 · {NAMES[4]} to act")
    settled(pages)
    street_named(pages, "Before the draw")
    for key in ("display", "display-720"):
        expect(pages[key].locator("#game")).to_have_text("2-7 Triple Draw")
        expect(pages[key].locator("#level")).to_contain_text("Limit 1M/2M")
    expect(pages["floor"].locator('.tile[data-table="1"] .game')).to_have_text("2-7 Triple Draw")
    expect(dealer.locator("#table #game")).to_have_text("2-7 Triple Draw")
    draws_shown(pages, {n: "" for n in range(1, 7)})
    bet_round(
        t,
        (4, "Call 1,000,000"),
        (5, "Call 1,000,000"),
        (6, "Fold"),
        (1, "Call 1,000,000"),
        (2, "Call 500,000"),
        (3, "Check"),
    )

    # The first draw: one tap a seat; seat 4's card entered (optional taps apart).
    expect(dealer.locator("#stub")).to_have_text("Stub: 22 cards")
    settled(pages)
    street_named(pages, "First draw")
    for key in ("display", "display-720"):
        expect(pages[key].locator('.seat[data-seat="2"] .act-flag')).to_have_text("To draw")
    expect(pages["floor"].locator('.tile[data-table="1"] .act')).to_contain_text("to draw")
    t.draw(2, 3)
    t.draw(3, 2)
    expect(dealer.locator("#to-act")).to_contain_text("Seat 4 ")
    t.button("Enter cards…", optional=True)
    expect(dealer.locator("#picker .note")).to_contain_text("hand was not entered")
    t.card("Kd", optional=True)
    screenshot(dealer, "draw-dealer-enter-cards")
    problems += picker_measured(dealer, numbers)
    t.ok()  # the plain draw is one tap ("1"): this one counts as it
    t.draws += 1
    t.draw(5, 0)
    t.draw(1, 2)
    expect(dealer.locator("#to-act")).to_contain_text("Seat 2 ")
    settled(pages)
    street_named(pages, "After the first draw")
    first = {1: "drew 2", 2: "drew 3", 3: "drew 2", 4: "drew 1", 5: "pat"}
    draws_shown(pages, first)
    for key in ("display", "display-720"):
        down_cards_nowhere(pages[key], hidden)
    expect(pages["floor"].locator("#log")).to_contain_text("First draw complete")
    bet_round(
        t,
        (2, "Bet 1,000,000"),
        (3, "Call 1,000,000"),
        (4, "Fold"),
        (5, "Call 1,000,000"),
        (1, "Call 1,000,000"),
    )

    for seat, count in ((2, 3), (3, 2), (5, 1), (1, 3)):
        t.draw(seat, count)
    expect(dealer.locator("#to-act")).to_contain_text("Seat 2 ")
    settled(pages)
    street_named(pages, "After the second draw")
    second = {1: "drew 2 · drew 3", 2: "drew 3 · drew 3", 3: "drew 2 · drew 2", 5: "pat · drew 1"}
    draws_shown(pages, second)
    for key in ("display", "display-720"):
        expect(pages[key].locator("#level")).to_contain_text("Limit 1M/2M")
        down_cards_nowhere(pages[key], hidden)
    bet_round(
        t,
        (2, "Check"),
        (3, "Bet 2,000,000"),
        (5, "Fold"),
        (1, "Call 2,000,000"),
        (2, "Call 2,000,000"),
    )

    # The third draw: three cards in the stub. Seat 2's two take its last card (RP-25-A);
    # seat 3's one comes from the burns mixed into a new stub (RP-25-B).
    expect(dealer.locator("#stub")).to_contain_text("Stub: 3 cards · a draw of 2 or more")
    t.draw(2, 2)
    expect(dealer.locator("#draw-note")).to_contain_text("RP-25-A")
    t.draw(3, 1)
    expect(dealer.locator("#draw-note")).to_contain_text("RP-25-B")
    expect(dealer.locator("#to-act")).to_contain_text("Seat 1 ")
    settled(pages)
    for needle in ("(RP-25-A)", "(RP-25-B)"):
        expect(pages["floor"].locator("#log")).to_contain_text(needle.strip("()"))
    expect(pages["floor"].locator("#log")).to_contain_text("the stub's last card is used")
    for key in ("display", "display-720"):
        down_cards_nowhere(pages[key], hidden)
    problems += measured(pages, "third-draw", numbers)
    t.draw(1, 0)
    expect(dealer.locator("#to-act")).to_contain_text("Seat 2 ")
    settled(pages)
    street_named(pages, "After the third draw")
    third = {
        1: "drew 2 · drew 3 · pat",
        2: "drew 3 · drew 3 · drew 2",
        3: "drew 2 · drew 2 · drew 1",
    }
    draws_shown(pages, third)
    bet_round(t, (2, "Bet 2,000,000"), (3, "Call 2,000,000"), (1, "Fold"))

    expect(dealer.get_by_role("heading", name="Showdown")).to_be_visible()
    for key in ("display", "display-720"):
        down_cards_nowhere(pages[key], hidden)
    for seat, hand in SHOWN.items():
        t.tap(f"Show seat {seat}")
        for code in hand.split():
            t.card(code)
        t.ok()
        t.actions += 1
    expect(dealer.get_by_role("button", name="Start hand 2")).to_be_visible()
    expect(dealer.locator("#push-list")).to_contain_text("seat 2")
    settled(pages)
    for key in ("display", "display-720"):
        page = pages[key]
        expect(page.locator(".result .won")).to_contain_text("Seat 2 wins the main pot")
        expect(page.locator(".result .won")).to_contain_text("seven-five low")
        expect(page.locator('.seat[data-seat="2"] .hole .card:not(.back)')).to_have_count(5)
        # The card entered for seat 4's draw, a folded hand, is never shown.
        down_cards_nowhere(page, ENTERED)
    problems += measured(pages, "showdown", numbers)

    required = t.taps - t.optional
    print(
        f"\n2-7 triple draw, six seats to a two-way showdown: {required} taps"
        f" ({t.actions} actions and shows, {t.draws} draws, {t.cards} cards of the hands shown,"
        f" {required - t.actions - t.draws - t.cards} to start and confirm), {t.taps} with the"
        f" {t.optional} optional taps of a draw entered with its card; {t.typed} typed"
        f" characters.\n{report(numbers)}"
    )
    assert t.typed == 0
    assert problems == [], "\n".join(problems)


# --- 2. entered hands: the discards from the hand, B then C ----------------------------------


HANDS = {
    1: "Ac Ad Ah As Kc",
    2: "2c 3d 4h 8s 8c",
    3: "Kd Kh Ks Qc Qd",
    4: "Qh Qs Jc Jd Jh",
    5: "Js Tc Td Th Ts",
    6: "9c 9d 9h 9s 7c",
}
THROWN, DEALT = ["8s", "8c"], ["5c", "7d"]


def limped(config: TableConfig, seats: list[int]) -> list[Command]:
    """The deal and every seat limping in (the small blind completes, the big blind checks)."""
    order = [*seats[3:], *seats[:3]]
    return [
        StartHand(cards={n: HANDS[n].split() for n in seats} if len(seats) == 6 else {}),
        *(Act(seat=n, declare="call") for n in order[:-1]),
        Act(seat=order[-1], declare="check"),
    ]


def test_a_draw_entered_from_the_hand_and_a_short_stub_b_then_c(stations: Stations) -> None:
    create_table(stations.server, SIX)
    send_commands(stations.server, "1", *limped(SIX, list(range(1, 7))))
    pages = open_stations(stations)
    dealer = pages["dealer"]
    numbers = fresh_numbers()
    t = DrawTaps(dealer)
    expect(dealer.locator("#to-act")).to_have_text(f"Seat 2 · {NAMES[2]} to draw")
    t.tap("Enter cards…")
    for code in THROWN:
        t.on(dealer.locator(f'#picker button[data-thrown="{code}"]'))
    expect(dealer.locator("#picked")).to_have_text("Thrown: 8s 8c · Tap the cards dealt")
    # The hands in play are taken on the grid; the cards dealt are picked there.
    expect(dealer.locator('#picker button[data-card="Ac"]')).to_be_disabled()
    for code in DEALT:
        t.card(code)
    expect(dealer.locator("#picker-ok")).to_have_text("Seat 2 draws 2")
    screenshot(dealer, "draw-dealer-discards-from-the-hand")
    problems = picker_measured(dealer, numbers)
    t.ok()
    # Seat 2's hand is known: held to see, it shows the new cards in place of the discards.
    for seat in (3, 4, 5, 6):
        t.draw(seat, 5)
    # Seat 6's five took the stub and the burns, every card needed (RP-25-B).
    expect(dealer.locator("#draw-note")).to_contain_text("RP-25-B")
    expect(dealer.locator("#stub")).to_contain_text("Stub: 0 cards · any draw follows RP-25")
    settled(pages)
    # A station loaded mid-draw knows whose draw it is (the snapshot's draw_prompt).
    fresh = stations.open("dealer", "dealer", viewport=(1024, 768))
    expect(fresh.locator("#to-act")).to_have_text(f"Seat 1 · {NAMES[1]} to draw")
    expect(fresh.locator("#stub")).to_contain_text("Stub: 0 cards")
    expect(fresh.get_by_role("button", name="Seat 1 draws 5")).to_be_visible()
    assert fresh.page_errors == []
    for key in ("display", "display-720"):
        down_cards_nowhere(pages[key], [*THROWN, *DEALT, "Ac", "Kd", "Qh", "Js", "9c"])
        expect(pages[key].locator('.seat[data-seat="1"] .act-flag')).to_have_text("To draw")
    t.draw(1, 5)
    expect(dealer.locator("#to-act")).to_contain_text("Seat 2 ")
    settled(pages)
    expect(pages["floor"].locator("#log")).to_contain_text("RP-25-C")
    expect(pages["floor"].locator("#log")).to_contain_text(
        "the stub, the burns and the muck are shuffled into a new stub"
    )
    draws_shown(pages, {1: "drew 5", 2: "drew 2", 3: "drew 5", 6: "drew 5"})
    for key in ("display", "display-720"):
        down_cards_nowhere(pages[key], [*THROWN, *DEALT, "Ac", "Kd", "Qh", "Js", "9c"])
    print(f"\nDiscards from the hand: {report(numbers)}")
    assert problems == [], "\n".join(problems)


# --- 3. ten seats of single draw ------------------------------------------------------------


def test_ten_seats_of_single_draw_mid_draw(stations: Stations) -> None:
    """Single draw deals at most nine hands (the engine: ten would leave the stub too short for
    the draw): nine are dealt, and a tenth player sits down in seat 10 during the hand."""
    nine = msgspec.structs.replace(
        TEN,
        seats={n: s for n, s in TEN.seats.items() if n < 10},
        names={n: s for n, s in TEN.names.items() if n < 10},
    )
    create_table(stations.server, nine)
    seats = list(range(1, 10))
    draws = {2: 2, 3: 1, 4: 0, 5: 3, 6: 5, 7: 1, 8: 2, 9: 4}
    send_commands(
        stations.server,
        "1",
        *limped(TEN, seats),
        AddPlayer(seat=10, stack=TEN.seats[10], name=NAMES[10]),
        *(Draw(seat=n, count=k) for n, k in draws.items()),
    )
    pages = open_stations(stations)
    numbers = fresh_numbers()
    expect(pages["dealer"].locator("#to-act")).to_have_text(f"Seat 1 · {NAMES[1]} to draw")
    settled(pages)
    street_named(pages, "Draw")
    for key in ("display", "display-720"):
        expect(pages[key].locator("#game")).to_have_text("No-limit 2-7 Single Draw")
        expect(pages[key].locator("#level")).to_contain_text("Blinds 500,000/1M")
    draws_shown(pages, {n: "pat" if k == 0 else f"drew {k}" for n, k in draws.items()})
    problems = measured(pages, "ten-seats", numbers)
    print(f"\nTen seats of single draw: {report(numbers)}")
    assert problems == [], "\n".join(problems)


# --- 4. mixed tables ------------------------------------------------------------------------


MIXED = TableConfig(
    game="RAZZ",
    blinds=(0, 0),
    ante=100,
    bring_in=200,
    min_bet=500,
    seats={1: 50_000, 2: 50_000, 3: 50_000},
    button=1,
    names={1: "Ana", 2: "Bruno", 3: "Chen"},
    rotation=[
        GameLevel(game="RAZZ", blinds=(0, 0), ante=100, bring_in=200, min_bet=500),
        GameLevel(game="27TD", blinds=(250, 500)),
    ],
    orbit=1,
)
HOLDEM = TableConfig(
    game="NLHE", blinds=(100, 200), seats={1: 50_000, 2: 50_000, 3: 50_000}, button=1
)


def test_a_mixed_table_names_its_game_and_a_level_names_the_next(stations: Stations) -> None:
    async def work(client: Client) -> None:
        await client.create_tournament("main", "Main Event")
        await client.create_table("main", "1", MIXED)
        await client.create_table("main", "2", HOLDEM)

    run_admin(stations.server, work)
    # Razz: the highest up-card brings it in (seat 1's king); the others fold to it.
    send_commands(
        stations.server,
        "1",
        StartHand(up={1: ["Kd"], 2: ["2c"], 3: ["3h"]}),
        Act(seat=1, declare="bring_in"),
        Act(seat=2, declare="fold"),
        Act(seat=3, declare="fold"),
    )
    dealer = stations.open("dealer", "dealer", viewport=(1024, 768))
    display = stations.open("display", "display", viewport=(1920, 1080))
    floor = stations.open("floor", "floor", table=None, viewport=(1920, 1080))
    for page in (dealer, display, floor):
        expect(page.get_by_role("status")).to_have_text("Online")
    expect(display.locator("#game")).to_have_text("Razz")
    expect(dealer.locator("#table #game")).to_have_text("Razz")
    expect(floor.locator('.tile[data-table="1"] .game')).to_have_text("Razz")
    # The next hand deals the rotation's next game: every station names it.
    dealer.get_by_role("button", name="Start hand 2").tap()
    expect(dealer.locator("#to-act")).to_contain_text("to act")
    expect(display.locator("#game")).to_have_text("2-7 Triple Draw")
    expect(display.locator("#level")).to_contain_text("Limit 500/1,000")
    expect(display.locator("#title")).to_contain_text("Before the draw")
    expect(dealer.locator("#table #game")).to_have_text("2-7 Triple Draw")
    expect(floor.locator('.tile[data-table="1"] .game')).to_have_text("2-7 Triple Draw")
    expect(display.locator(".seat .hole .card.back")).to_have_count(15)
    screenshot(display, "draw-mixed-display")

    # Table 2 deals hold'em; a level names the next game (12-B, 25).
    send_commands(
        stations.server,
        "2",
        SetLevel(blinds=(0, 0), ante=100, bring_in=200, min_bet=500, game="7S"),
    )
    display2 = stations.open("display", "display", table="2", viewport=(1920, 1080))
    dealer2 = stations.open("dealer", "dealer", table="2", viewport=(1024, 768))
    expect(display2.locator("#game")).to_have_text("No-limit Hold'em")
    expect(display2.locator("#level .next")).to_have_text(
        " · Next: Seven-card stud · Ante 100 · Bring-in 200 · 500/1,000"
    )
    expect(dealer2.locator("#next-level")).to_have_text(
        "Next level: Seven-card stud, ante 100, bring-in 200, limit 500/1,000"
    )
    floor.locator('.tile[data-table="2"]').click()
    expect(floor.locator("#log")).to_contain_text("Next hand: Seven-card stud")
    screenshot(display2, "draw-mixed-next-game-display")
    for page in (dealer, display, floor, display2, dealer2):
        assert page.page_errors == []


# --- 5. stud's irregularities through the dialog ---------------------------------------------


STUD4 = TableConfig(
    game="7S",
    blinds=(0, 0),
    ante=100,
    bring_in=200,
    min_bet=500,
    seats={1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000},
    button=1,
    names={1: "Ana", 2: "Bruno", 3: "Chen", 4: "Dara"},
)
UP4 = {1: "Kd", 2: "2c", 3: "9h", 4: "Qs"}


def irregularities(t: StudTaps, seat: int | None, button: str) -> None:
    t.tap("Irregularities…")
    if seat is not None:
        t.select(t.page.locator("#irr-seat"), str(seat))
    t.tap(button)


def deal_third(t: StudTaps, up: dict[int, str]) -> None:
    for seat in sorted(up):
        t.card(up[seat])
    t.tap("Deal third street")


def test_32_a_player_away_at_the_deal_through_the_dialog(stations: Stations) -> None:
    create_table(stations.server, STUD4)
    dealer = stations.open("dealer", "dealer", viewport=(1024, 768))
    expect(dealer.get_by_role("status")).to_have_text("Online")
    t = StudTaps(dealer)
    irregularities(t, 4, "Player away at the deal (32)")
    expect(dealer.locator("#deal-marks")).to_have_text(
        re.compile("Seat 4 away at the deal \\(32\\)")
    )
    screenshot(dealer, "draw-stud-32-marked")
    t.tap("Start the first hand")
    deal_third(t, UP4)
    expect(dealer.locator("#log")).to_contain_text("32")
    expect(dealer.locator('.seat[data-seat="4"]')).to_have_class(re.compile(r"\bout\b"))
    expect(dealer.locator("#to-act")).to_contain_text("Seat 2 ")
    assert dealer.page_errors == []


def test_rp_10_a_a_down_card_exposed_at_the_deal_through_the_dialog(stations: Stations) -> None:
    create_table(stations.server, STUD4)
    dealer = stations.open("dealer", "dealer", viewport=(1024, 768))
    expect(dealer.get_by_role("status")).to_have_text("Online")
    t = StudTaps(dealer)
    irregularities(t, 3, "Down-card exposed at the deal (RP-10-A)")
    expect(dealer.locator("#deal-marks")).to_contain_text("Seat 3: down-card exposed (RP-10-A)")
    t.tap("Start the first hand")
    expect(dealer.locator("#picker-title")).to_contain_text(
        "seat 3: the exposed card is the up-card"
    )
    deal_third(t, {**UP4, 3: "2d", 2: "Kc"})
    expect(dealer.locator("#log")).to_contain_text("RP-10-A")
    expect(dealer.locator("#log")).to_contain_text("2d was exposed in the deal")
    expect(dealer.locator("#to-act")).to_contain_text("Seat 3 ")
    expect(dealer.locator("#deal-marks")).to_have_count(0)
    assert dealer.page_errors == []


def test_rp_10_b_a_seventh_street_card_exposed_through_the_dialog(stations: Stations) -> None:
    up3 = {1: "Kd", 2: "2c", 3: "9h", 4: "Qc"}
    deals: list[Command] = [
        StartHand(up={s: [up3[s]] for s in (1, 2, 3, 4)}),
        Deal(street="fourth", up={1: ["Kh"], 2: ["3c"], 3: ["9s"], 4: ["Ts"]}),
        Deal(street="fifth", up={1: ["2d"], 2: ["4d"], 3: ["2h"], 4: ["As"]}),
        Deal(street="sixth", up={1: ["5s"], 2: ["6h"], 3: ["3s"], 4: ["Ac"]}),
        Deal(street="seventh"),
    ]
    four = (1, 2, 3, 4)
    config = msgspec.structs.replace(
        STUD8, seats={n: STUD8.seats[n] for n in four}, names={n: STUD8.names[n] for n in four}
    )
    create = checked_through(config, deals)
    # The hand stops at seventh street's first prompt: its action has not begun.
    seventh = next(i for i, c in enumerate(create) if isinstance(c, Deal) and c.street == "seventh")
    create_table(stations.server, config)
    send_commands(stations.server, "1", *create[: seventh + 1])
    dealer = stations.open("dealer", "dealer", viewport=(1024, 768))
    expect(dealer.get_by_role("status")).to_have_text("Online")
    expect(dealer.locator("#summary")).to_contain_text("Seventh street")
    t = StudTaps(dealer)
    irregularities(t, 2, "Seventh-street card exposed… (RP-10-B)")
    expect(dealer.locator("#picker-title")).to_have_text(
        "Seat 2's seventh-street card, exposed (RP-10-B)"
    )
    t.card("7h")
    t.tap("Exposed: 7h — record it")
    expect(dealer.locator("#log")).to_contain_text("RP-10-B")
    assert dealer.page_errors == []


def test_68_up_cards_taken_up_through_the_dialog(stations: Stations) -> None:
    create_table(stations.server, STUD4)
    send_commands(
        stations.server,
        "1",
        StartHand(up={s: [c] for s, c in UP4.items()}),
        Act(seat=2, declare="bring_in"),
    )
    dealer = stations.open("dealer", "dealer", viewport=(1024, 768))
    expect(dealer.get_by_role("status")).to_have_text("Online")
    expect(dealer.locator("#to-act")).to_contain_text("Seat 3 ")
    t = StudTaps(dealer)
    irregularities(t, None, "Up-cards taken up: dead hand… (68)")
    expect(dealer.locator("#confirm-title")).to_have_text("Seat 3 took up its up-cards?")
    t.tap("Seat 3's hand is dead (68)")
    expect(dealer.locator("#log")).to_contain_text("68")
    expect(dealer.locator('.seat[data-seat="3"]')).to_have_class(re.compile(r"\bout\b"))
    expect(dealer.locator("#to-act")).to_contain_text("Seat 4 ")
    print(f"\nStud irregularities through the dialog: {t.taps} taps for 68")
    assert dealer.page_errors == []
