"""The dealer's tablet (issue 11): what the players at the table can read off it, and what
a dealer's tap can and cannot take back.

- Hole cards entered (RFID) are face down; a press and hold on the seat shows them, a tap
  does not; the rules' exposure (all-in, 17) turns them up.
- Undo of the last action, logged as the dealer's correction with its rule; the server lets
  a dealer send only that, and refuses it once something else was recorded.
- A fold with chips in front, a muck, a misdeal and a fouled deck ask first: one tap on a
  reason, or Cancel.
- The card picker: cards in play disabled, never a fourth flop card; the four-card flop is
  its own control (41-A).
- Out of turn: tap the seat on the table; the pending action is marked on the seat.
- A dead button (on an empty seat) is drawn; "Floor!" calls the floor in one tap, the hand
  going on.
- At 1024 x 768, ten seats, nine-digit stacks, 50-character names: every touch target at
  least 44 px, no text under 14 px on the oval, no overlaps, nothing clipped; buttons are
  disabled while offline.
"""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from clients.python import Client, CommandRefused
from protocol import TableConfig
from protocol.commands import Act, Command, Correction, Deal, StartHand
from tests.browser.conftest import Stations, create_table, send_commands, token
from tests.browser.measure import layout_report, measure, screenshot, small_targets
from tests.browser.test_layout import open_station, widest_hand

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect
FOUR = TableConfig(
    game="NLHE",
    blinds=(100, 200),
    seats={1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000},
    button=1,
    names={1: "Ana", 2: "Bruno", 3: "Chen", 4: "Dara"},
    chips=(25, 100, 500, 1000, 5000),
)
RFID = {1: ["As", "Ah"], 2: ["Kc", "Kd"], 3: ["7s", "2d"], 4: ["Qh", "Jh"]}


def dealer(stations: Stations, config: TableConfig = FOUR) -> Any:
    create_table(stations.server, config)
    page = stations.open("dealer", "dealer")
    expect(page.get_by_role("status")).to_have_text("Online")
    return page


def cards_on(page: Any, seat: int) -> Any:
    return page.locator(f'.seat[data-seat="{seat}"] .card')


def test_hole_cards_are_face_down_until_held_or_exposed(stations: Stations) -> None:
    page = dealer(stations)
    send_commands(stations.server, "1", StartHand(cards=RFID))
    expect(page.locator("#to-act")).to_have_text("Seat 4 · Dara to act")
    for seat in RFID:
        expect(cards_on(page, seat)).to_have_count(0)
        expect(page.locator(f'.seat[data-seat="{seat}"] .back')).to_have_count(2)
    assert "Qh" not in page.locator("#table").inner_text()
    seat4 = page.locator('.seat[data-seat="4"]')
    # A tap is not a reveal: it selects nothing (seat 4 is to act) and shows nothing.
    seat4.tap()
    expect(page.locator("#to-act")).to_have_text("Seat 4 · Dara to act")
    expect(cards_on(page, 4)).to_have_count(0)
    # Press and hold: the cards show while held, and only that seat's.
    # hover() waits for the seat to be attached and still: the oval may be redrawn after the tap.
    seat4.hover(position={"x": 20, "y": 10})
    page.mouse.down()
    expect(cards_on(page, 4)).to_have_count(2)
    expect(cards_on(page, 1)).to_have_count(0)
    screenshot(page, "dealer-hold-to-see")
    page.mouse.up()
    expect(cards_on(page, 4)).to_have_count(0)
    # All-in and called: the rules turn every hand up (17).
    send_commands(stations.server, "1", Act(seat=4, declare="all_in"), Act(seat=1, declare="call"))
    send_commands(
        stations.server,
        "1",
        Act(seat=2, declare="fold"),
        Act(seat=3, declare="fold"),
    )
    expect(cards_on(page, 4)).to_have_count(2)
    expect(cards_on(page, 1)).to_have_count(2)
    assert page.page_errors == []


def as_dealer(stations: Stations, command: Command) -> Any:
    """Send ``command`` with the table's dealer token; the error it is refused with."""

    async def main() -> Any:
        client = Client(stations.server.url, token("dealer", "main", "1"), reconnect=False)
        await client.connect()
        reader = asyncio.get_running_loop().create_task(client.run())
        try:
            await client.command("main", "1", command)
        except CommandRefused as refused:
            return refused.error
        finally:
            await client.close()
            reader.cancel()
        raise AssertionError(f"{command} was not refused")

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result(timeout=30)


def test_undo_of_the_last_action_is_logged_as_the_dealers_correction(
    stations: Stations,
) -> None:
    page = dealer(stations)
    page.get_by_role("button", name="Start the first hand").click()
    expect(page.get_by_role("button", name="Undo the last action", exact=False)).to_have_count(0)
    page.get_by_role("button", name="Call 200").click()
    expect(page.locator("#to-act")).to_have_text("Seat 1 · Ana to act")
    page.get_by_role("button", name="Fold").click()
    undo = page.get_by_role("button", name="Undo the last action: seat 1 fold")
    undo.click()
    entry = page.get_by_role("log").locator("li").first
    expect(entry).to_contain_text("Undo by the dealer: voided seat 1: fold (dealer's mis-tap)")
    expect(entry.locator(".rule")).to_have_text("1")
    expect(page.locator("#to-act")).to_have_text("Seat 1 · Ana to act")
    # The undo is itself the last word: the seat to act is back, the undo offered is the call.
    expect(page.get_by_role("button", name="Undo the last action: seat 4 call")).to_be_visible()
    # Once something else is recorded (a deal), the server refuses the dealer's undo (24).
    page.get_by_role("button", name="Call 200").click()
    for seat in (2, 3):
        expect(page.locator("#to-act")).to_contain_text(f"Seat {seat} ")
        page.locator("#prompt button").first.click()
        if seat == 2:
            page.get_by_role("button", name=re.compile("^Fold — 100 stays in")).click()
    page.get_by_role("button", name="Deal the flop without entering cards").click()
    expect(page.locator("#to-act")).to_contain_text("Seat 3 ")
    expect(page.get_by_role("button", name=re.compile("^Undo the last action"))).to_have_count(0)
    # A dealer's token sends the undo anyway: the engine refuses it, naming rule 24.
    refused = as_dealer(stations, Correction(count=1, by="dealer", reason="late"))
    assert refused.code == "floor_must_correct" and refused.rule == "24", refused
    # And a dealer may not claim to be the floor.
    refused = as_dealer(stations, Correction(count=1, by="floor", reason="x"))
    assert refused.code == "forbidden", refused
    assert page.page_errors == []


def test_what_cannot_be_undone_asks_for_its_reason_in_one_tap(stations: Stations) -> None:
    page = dealer(stations)
    page.get_by_role("button", name="Start the first hand").click()
    # A misdeal from the menu, before substantial action: its reason from the list, logged.
    page.get_by_role("button", name="Irregularities…").click()
    page.get_by_role("button", name="Misdeal…").click()
    misdeal = page.get_by_role("dialog", name="Misdeal?")
    expect(misdeal.locator(".reason")).to_have_count(4)
    screenshot(page, "dealer-confirm-misdeal")
    misdeal.get_by_role("button", name="A card exposed in the deal").click()
    expect(page.get_by_role("log")).to_contain_text("Misdeal (card exposed)")
    page.get_by_role("button", name="Call 200").click()
    page.get_by_role("button", name="Call 200").click()
    # Seat 2, the small blind, folds with 100 in front: asked first; Cancel keeps the hand.
    expect(page.locator("#to-act")).to_have_text("Seat 2 · Bruno to act")
    page.get_by_role("button", name="Fold").click()
    dialog = page.get_by_role("dialog", name="Seat 2 folds?")
    expect(dialog).to_contain_text("The 100 in front of seat 2 stays in the pot")
    screenshot(page, "dealer-confirm-fold")
    dialog.get_by_role("button", name="Cancel").click()
    expect(page.locator("#to-act")).to_have_text("Seat 2 · Bruno to act")
    page.get_by_role("button", name="Fold").click()
    dialog.get_by_role("button", name="Fold — 100 stays in").click()
    expect(page.get_by_role("log").locator("li").first).to_have_text("Seat 2: fold")
    # A fouled deck asks the same way.
    page.get_by_role("button", name="Irregularities…").click()
    page.get_by_role("button", name="Fouled deck…").click()
    fouled = page.get_by_role("dialog", name="Fouled deck?")
    expect(fouled.get_by_role("button", name="Duplicate card")).to_be_visible()
    fouled.get_by_role("button", name="Cancel").click()
    expect(fouled).to_be_hidden()
    assert page.page_errors == []


def test_the_card_picker_disables_cards_in_play_and_takes_three_for_a_flop(
    stations: Stations,
) -> None:
    page = dealer(stations)
    seq = send_commands(
        stations.server,
        "1",
        StartHand(cards=RFID),
        Act(seat=4, declare="call"),
        Act(seat=1, declare="call"),
        Act(seat=2, declare="call"),
        Act(seat=3, declare="check"),
    )
    expect(page.locator("body")).to_have_attribute("data-seq", str(seq))
    page.get_by_role("button", name="Choose the flop cards").click()
    picker = page.locator("#picker")
    expect(picker).to_be_visible()
    # The hole cards entered are in play: disabled.
    for code in ("As", "Ah", "Kc", "Qh"):
        expect(picker.locator(f'button[data-card="{code}"]')).to_be_disabled()
    for code in ("2c", "7d", "9h"):
        picker.locator(f'button[data-card="{code}"]').click()
    # Three chosen: no fourth card can be added.
    expect(picker.locator('button[data-card="Tc"]')).to_be_disabled()
    screenshot(page, "dealer-card-picker")
    picker.get_by_role("button", name="Deal the flop: 2c 7d 9h").click()
    expect(page.locator("#board")).to_have_attribute(
        "aria-label", "Board: Two of clubs, Seven of diamonds, Nine of hearts"
    )
    expect(page.get_by_role("log")).not_to_contain_text("41-A")


def test_a_four_card_flop_is_its_own_control(stations: Stations) -> None:
    page = dealer(stations)
    send_commands(
        stations.server,
        "1",
        StartHand(),
        Act(seat=4, declare="call"),
        Act(seat=1, declare="call"),
        Act(seat=2, declare="call"),
        Act(seat=3, declare="check"),
    )
    expect(page.get_by_role("button", name="Choose the flop cards")).to_be_visible()
    page.get_by_role("button", name="Irregularities…").click()
    page.get_by_role("button", name="Four-card flop…").click()
    picker = page.locator("#picker")
    for code in ("2c", "7d", "9h", "Kc"):
        picker.locator(f'button[data-card="{code}"]').click()
    picker.get_by_role("button", name="Four cards turned: call the floor").click()
    expect(page.get_by_role("log")).to_contain_text("41-A")
    expect(page.locator("#action")).to_contain_text("Waiting for the floor")


def test_floor_is_one_tap_and_the_hand_goes_on(stations: Stations) -> None:
    page = dealer(stations)
    send_commands(stations.server, "1", StartHand())
    page.get_by_role("button", name="Floor! A floor person to the table (1)").click()
    expect(page.get_by_role("log")).to_contain_text("Floor wanted at the table")
    expect(page.locator("#action")).not_to_contain_text("Waiting for the floor")


def test_out_of_turn_is_a_tap_on_the_seat_and_is_marked(stations: Stations) -> None:
    page = dealer(stations)
    page.get_by_role("button", name="Start the first hand").click()
    expect(page.locator("#to-act")).to_have_text("Seat 4 · Dara to act")
    page.locator('.seat[data-seat="2"]').click()
    expect(page.locator("#to-act")).to_have_text("Seat 2 · Bruno — out of turn")
    expect(page.locator('.seat[data-seat="2"]')).to_have_class(re.compile(r"\bchosen\b"))
    page.get_by_role("button", name="Call", exact=True).click()
    expect(page.get_by_role("log")).to_contain_text("Seat 2 acted out of turn")
    expect(page.locator('.seat[data-seat="2"]')).to_have_class(re.compile(r"\bpending-oot\b"))
    expect(page.locator('.seat[data-seat="2"] .oot-flag')).to_have_text("Out of turn: call")
    expect(page.locator("#to-act")).to_have_text("Seat 4 · Dara to act")
    # Tapping a seat and then the seat to act goes back to the seat to act.
    page.locator('.seat[data-seat="3"]').click()
    page.get_by_role("button", name="Back to seat 4").click()
    expect(page.locator("#to-act")).to_have_text("Seat 4 · Dara to act")
    screenshot(page, "dealer-out-of-turn-marked")


def test_a_dead_button_is_drawn(stations: Stations) -> None:
    # Seat 2 (the small blind) is all-in and busts; the button moves onto its empty seat.
    config = TableConfig(
        game="NLHE",
        blinds=(100, 200),
        seats={1: 20_000, 2: 300, 3: 20_000, 4: 20_000},
        button=1,
        names={1: "Ana", 2: "Bruno", 3: "Chen", 4: "Dara"},
        chips=(25, 100, 500),
    )
    page = dealer(stations, config)
    send_commands(
        stations.server,
        "1",
        StartHand(cards={2: ["2c", "3d"], 3: ["As", "Ah"]}),
        Act(seat=4, declare="fold"),
        Act(seat=1, declare="fold"),
        Act(seat=2, declare="all_in"),
        Act(seat=3, declare="call"),
        Deal(street="flop", cards=["Kc", "Kd", "9s"]),
        Deal(street="turn", cards=["8h"]),
        Deal(street="river", cards=["7h"]),
    )
    expect(page.locator("#push-list")).to_contain_text("Out: seat 2 · Bruno")
    page.get_by_role("button", name="Start hand 2").click()
    seat2 = page.locator('.seat[data-seat="2"]')
    expect(seat2).to_have_attribute("aria-label", "Seat 2, empty, dead button")
    expect(seat2.locator(".marker.button")).to_have_text("D")
    screenshot(page, "dealer-dead-button")


def in_log(page: Any, text: str) -> bool:
    return bool(
        page.evaluate(
            "(t) => [...document.querySelectorAll('#log li')]"
            ".some((li) => li.textContent.includes(t))",
            text,
        )
    )


def test_the_widest_table_fits_the_tablet_with_targets_and_fonts_to_size(
    stations: Stations,
) -> None:
    seq = widest_hand(stations)
    page = open_station(stations, "dealer", (1024, 768), seq)
    figures = measure(page)
    screenshot(page, "dealer-widest-1024x768")
    print("\n" + layout_report("dealer", figures))
    oval = [f for f in figures["fonts"] if "data-seat" in f["el"] or "centre" in f["el"]]
    print("smallest on the oval:", oval[:3])
    assert small_targets(figures) == []
    assert figures["overlaps"] == [] and figures["covered"] == []
    # The log scrolls: its last line may be cut by the list's edge; nothing else is clipped.
    assert [c for c in figures["clipped"] if not in_log(page, c["text"])] == []
    assert oval and min(f["px"] for f in oval) >= 14
    # Offline: every recording control is disabled, the warning clears after recovery.
    stations.server.kill()
    expect(page.get_by_role("status")).to_have_text("Offline — reconnecting…")
    expect(page.get_by_role("button", name="Fold", exact=True)).to_be_disabled()
    expect(page.get_by_role("button", name=re.compile("^Undo the last action"))).to_be_disabled()
    stations.server.start()
    expect(page.get_by_role("status")).to_have_text("Online")
    expect(page.get_by_role("button", name="Fold", exact=True)).to_be_enabled()
    expect(page.get_by_role("alert")).to_be_empty()
