"""The tournament director's station (issue 12, acceptance 3), admin token, real service.

1. From nothing: the TD creates the tournament from a structure file, opens two tables,
   registers a player and is shown the seat the service drew — table and seat in large type,
   the same the service holds and the players list shows; the seat prints on its own. A name
   typed again finds the player. The clock starts from the station; a player registered then is
   a late registration; pause and resume; closing registration fixes the payouts.
2. A tournament from the form: the levels typed in (a first level of 15 minutes), percent
   payouts; the clock shows the level as typed.
3. A player busted in a hand re-enters (9-A): found by name, "Re-enter", a new seat drawn and
   shown as entry 2.
4. Measured from the DOM at 1920 x 1080 and 1280 x 800, the set-up form included: every touch
   target at least 44 px, every text at least 4.5:1 on what is under it, nothing overlapping or
   clipped.

Screenshots: ``artifacts/screenshots/td-*.png``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from protocol.commands import Act, Deal, StartHand
from tests.browser.conftest import Stations
from tests.browser.measure import contrast, layout_report, measure, small_targets
from tests.browser.tournaments import (
    STRUCTURE,
    create_tournament,
    table_command,
    table_view,
    tournament_view,
)

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect

DESK = (1920, 1080)
LAPTOP = (1280, 800)


def shot(page: Any, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"))


def checked(page: Any, name: str) -> None:
    """44 px targets, 4.5:1 contrast, no overlap, nothing clipped."""
    figures = measure(page)
    report = layout_report(name, figures)
    worst = contrast(page)
    low = worst[0]
    print(f"\n{report}\n  lowest contrast {low['ratio']}:1 ({low['el']} {low['text']!r})")
    assert small_targets(figures) == [], report
    assert figures["overlaps"] == figures["covered"] == figures["clipped"] == [], report
    assert [c for c in worst if c["ratio"] < 4.5] == [], worst[:5]


def register(page: Any, name: str) -> None:
    page.locator("#player-name").fill(name)
    page.locator("#register").click()
    expect(page.locator("#ticket-name")).to_have_text(name)


def test_the_td_creates_the_tournament_registers_a_player_and_shows_the_seat(
    stations: Stations, screenshots: Path, tmp_path: Path
) -> None:
    server = stations.server
    td = stations.open("td", "admin", table=None, viewport=DESK)
    td.on("dialog", lambda dialog: dialog.accept())
    expect(td.get_by_role("status")).to_have_text("Online")
    expect(td.locator("#setup-note")).to_have_text(
        "There is no tournament “main” with a structure yet. Create it:"
    )
    checked(td, "TD, set-up form, 1920x1080")
    shot(td, screenshots, "td-setup")

    # The structure file; two tables of nine.
    structure = tmp_path / "structure.json"
    structure.write_text(json.dumps(STRUCTURE))
    td.locator("#structure-file").set_input_files(str(structure))
    expect(td.locator("#file-note")).to_have_text(
        "4 levels, 1 break · 20,000 chips · buy-in 100 + 10 · late registration to level 2"
    )
    td.locator("#create-from-file").click()
    expect(td.locator("#tournament-name")).to_have_text("Sunday Main Event")
    expect(td.locator("#tables")).to_have_text(
        "No tables open: open the first ones to seat players."
    )
    td.locator("#open-count").fill("2")
    td.locator("#open-tables-button").click()
    expect(td.locator("#tables")).to_have_text("Tables 1: 0/9 · 2: 0/9")

    # A player registers: the seat the service drew, in large type.
    register(td, "Ann Lee")
    ann = next(p for p in tournament_view(server).players if p.name == "Ann Lee")
    assert ann.status == "seated" and ann.table is not None and ann.seat is not None
    expect(td.locator("#ticket-table")).to_have_text(ann.table)
    expect(td.locator("#ticket-seat")).to_have_text(str(ann.seat))
    expect(td.locator(".ticket-meta")).to_have_text("Entry 1 · 20,000 chips")
    for box in ("#ticket-table", "#ticket-seat"):
        size = float(td.locator(box).evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)"))
        assert size >= 80, size
    row = td.locator(f'#players tr[data-player="{ann.player}"]')
    expect(row.locator(".col-table")).to_have_text(ann.table)
    expect(row.locator(".col-seat")).to_have_text(str(ann.seat))
    expect(row.locator(".col-status")).to_have_text("Playing")
    expect(td.locator("#tables")).to_contain_text("/9")
    shot(td, screenshots, "td-seat")
    checked(td, "TD, a seat drawn, 1920x1080")

    # The seat prints on its own.
    td.evaluate("() => { window.printed = 0; window.print = () => { window.printed += 1; }; }")
    td.locator("#print-seat").click()
    assert td.evaluate("() => window.printed") == 1
    td.emulate_media(media="print")
    shot(td, screenshots, "td-seat-print")
    td.emulate_media(media="screen")

    # The name typed again finds her, with her seat.
    td.locator("#player-name").fill("ann")
    match = td.locator(f'.match[data-player="{ann.player}"]')
    expect(match.locator(".match-where")).to_have_text(f"Table {ann.table}, seat {ann.seat}")
    expect(match.get_by_role("button", name="Show Ann Lee's seat")).to_be_visible()
    td.locator("#player-name").fill("")

    # The clock from the station; a registration now is late (9-A).
    td.locator("#start-clock").click()
    expect(td.locator(".td-state .state")).to_have_text("Running")
    expect(td.locator("#td-time")).to_have_text(re.compile(r"^(10:00|9:5\d)$"))
    register(td, "Bo Diaz")
    expect(td.locator(".ticket-meta")).to_have_text("Entry 1 · 20,000 chips · Late registration")
    register(td, "Cy Park")
    expect(td.locator("#field-line")).to_contain_text("3 left of 3 entries")
    td.locator("#pause-clock").click()
    expect(td.locator(".td-state .state")).to_have_text("Paused")
    td.locator("#resume-clock").click()
    expect(td.locator(".td-state .state")).to_have_text("Running")

    # Closing registration fixes the payout table: 3 entries x 100, 65 % / 35 %.
    td.locator("#close-registration").click()
    expect(td.locator("#field-line")).to_have_text(
        "3 left of 3 entries · 3 seated · average 20,000 · prize pool 300 · 2 paid (1st 195)"
        " · registration closed"
    )
    view = tournament_view(server)
    assert not view.registration_open and view.payouts == [195, 105]
    for p in view.players:
        row = td.locator(f'#players tr[data-player="{p.player}"]')
        expect(row.locator(".col-table")).to_have_text(str(p.table))
        expect(row.locator(".col-seat")).to_have_text(str(p.seat))
    shot(td, screenshots, "td-running")
    checked(td, "TD, clock running, 1920x1080")
    td.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
    checked(td, "TD, 1280x800")
    shot(td, screenshots, "td-1280x800")
    assert td.page_errors == []


def test_a_tournament_from_the_form(stations: Stations, screenshots: Path) -> None:
    td = stations.open("td", "admin", table=None, viewport=LAPTOP)
    expect(td.locator("#setup")).to_be_visible()
    td.locator("#setup-name").fill("Thursday Turbo")
    td.get_by_label("Level 1: minutes").fill("15")
    td.get_by_role("button", name="Add a level").click()
    expect(td.get_by_label("Level 7: big blind")).to_have_value("2400")
    td.get_by_label("Payouts").select_option("percent")
    td.locator("#setup-percents").fill("60, 40")
    checked(td, "TD, set-up form, 1280x800")
    td.locator("#create-from-form").click()
    expect(td.locator("#tournament-name")).to_have_text("Thursday Turbo")
    expect(td.locator(".td-level")).to_have_text("Level 1 · 100/200")
    expect(td.locator("#td-time")).to_have_text("15:00")
    expect(td.locator(".td-state")).to_contain_text("Next: 200/400 · BB ante 400")
    clock = tournament_view(stations.server).clock
    assert clock.level is not None and clock.level.minutes == 15
    shot(td, screenshots, "td-created-from-form")
    assert td.page_errors == []


def test_a_busted_player_re_enters(stations: Stations, screenshots: Path) -> None:
    server = stations.server
    create_tournament(server, names=["Ann Lee", "Bo Diaz"], reentry_until=2)
    seats = {p.name: p.seat for p in tournament_view(server).players}
    td = stations.open("td", "admin", table=None, viewport=LAPTOP)
    expect(td.locator("#field-line")).to_contain_text("2 left of 2 entries")

    # Bo all-in with seven-deuce against Ann's aces, called; the board runs out.
    ann, bo = seats["Ann Lee"], seats["Bo Diaz"]
    table_command(server, "1", StartHand(cards={ann: ["As", "Ah"], bo: ["7c", "2d"]}))
    for declare in ("all_in", "call"):
        view = table_view(server, "1")
        assert view.to_act is not None
        table_command(server, "1", Act(seat=view.to_act, declare=declare))
    table_command(
        server,
        "1",
        Deal(street="flop", cards=["Kd", "9s", "4h"]),
        Deal(street="turn", cards=["Jc"]),
        Deal(street="river", cards=["3s"]),
    )
    busted = next(p for p in tournament_view(server).players if p.name == "Bo Diaz")
    assert busted.status == "eliminated"

    td.locator("#player-name").fill("bo")
    match = td.locator(f'.match[data-player="{busted.player}"]')
    expect(match.locator(".match-where")).to_have_text("Out")
    match.get_by_role("button", name="Re-enter Bo Diaz").click()
    expect(td.locator("#ticket-name")).to_have_text("Bo Diaz")
    expect(td.locator(".ticket-meta")).to_have_text("Entry 2 · 20,000 chips · Re-entry")
    again = next(p for p in tournament_view(server).players if p.name == "Bo Diaz")
    assert again.status == "seated" and again.entry == 2
    expect(td.locator("#ticket-seat")).to_have_text(str(again.seat))
    expect(td.locator("#field-line")).to_contain_text("2 left of 3 entries")
    shot(td, screenshots, "td-reentry")
    assert td.page_errors == []
