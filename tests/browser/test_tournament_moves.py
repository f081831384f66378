"""Play across the tables on the stations (issue 13, acceptance 4): real service, real Redis,
headless Chromium; the tournament's commands from the floor monitor's own buttons.

1. Two tables of nine, 7 and 4 players. A hand at table 2 ends: the tournament proposes a
   balancing move (12-A) and stops table 2 — 3 short of table 1, its big blind would fall on an
   empty seat (12-D). The floor monitor shows the proposal with who, from where to where and
   why; table 2's dealer station shows why it stopped, and the floor waives it (a monitor
   reloaded then has both from the tournament snapshot). The floor taps
   Confirm: both tables' dealer stations and both table displays show the move (the player
   leaving seat a at table 1, joining seat b at table 2, with the stack) — the time from the
   tap until all four show it is printed. Hand-for-hand is announced while table 2 is in a
   hand: table 1's dealer station shows "waiting for the other tables" (no new hand), table
   2's "finish this hand, then wait", the floor monitor lists table 2 as still in its hand;
   when it ends, the next hand-for-hand hand is released at both tables. An all-in and call
   then at table 2 stays face down, nothing dealt, until the floor releases it from the
   monitor (RP-8-F): only then does table 2's display show the two hands.
2. Three tables, 5, 5 and 2 players: after table 3's hand the tournament names table 3 as the
   next to break (12-C). The floor monitor shows it; the clock display and table 3's display
   never receive it — their websocket frames carry a ``withheld`` placeholder where the
   floor's carry ``break_proposed`` — and never show it. The floor breaks table 3 from the
   monitor: table 3's display shows its players leaving.

What is added to each station is measured in the DOM: touch targets (44 px) and contrast
(4.5:1) of the floor's cards, the dealer's note and the display's line, and the whole pages
stay free of overlaps, clipping and small targets. Screenshots: ``artifacts/screenshots/``
``moves-*.png``.
"""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest

from protocol.commands import Act, StartHand
from protocol.tournament import MovePlayer, StartClock
from tests.browser.conftest import Stations
from tests.browser.measure import contrast, layout_report, measure, small_targets
from tests.browser.tournaments import (
    create_tournament,
    table_command,
    table_view,
    tournament_command,
    tournament_view,
)
from tests.service.conftest import ServerProcess

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect

NAMES = [
    "Ana Ferreira", "Bruno Keller", "Chen Wei", "Dara O'Neill", "Eve Martin", "Femi Adeyemi",
    "Gus Lindqvist", "Hana Sato", "Ivo Petrov", "Jo Maximilian", "Kai Berg", "Lena Novak",
]  # fmt: skip
HANDS = [["As", "Ah"], ["Kd", "Kc"], ["7c", "2d"], ["8h", "3s"], ["9d", "4c"]]
FLOOR = (1920, 1080)
TABLET = (1024, 768)
DISPLAY = (1280, 720)


def arrange(server: ServerProcess, layout: dict[str, list[int]]) -> None:
    """Seat the players exactly at ``layout`` (table -> seats) by the floor's ``move`` (8): the
    registrations drew their seats at random."""
    players = [p for p in tournament_view(server).players if p.status == "seated"]
    wanted = {(table, seat) for table, seats in layout.items() for seat in seats}
    assert len(players) == len(wanted)
    staying = {(p.table, p.seat) for p in players} & wanted
    free = sorted(wanted - staying)
    movers = [p for p in players if (p.table, p.seat) not in wanted]
    commands = [
        MovePlayer(player=p.player, table=t, seat=s) for p, (t, s) in zip(movers, free, strict=True)
    ]
    if commands:
        tournament_command(server, *commands)
    seats = {(p.table, p.seat) for p in tournament_view(server).players if p.status == "seated"}
    assert seats == wanted


def play_out(server: ServerProcess, table: str) -> int:
    """Fold the seat to act until the hand at ``table`` is over; its last event number."""
    seq = 0
    for _ in range(12):
        view = table_view(server, table)
        if view.phase == "idle" or view.to_act is None:
            return seq
        seq = table_command(server, table, Act(seat=view.to_act, declare="fold"))
    raise AssertionError("the hand did not end")


def online(*pages: Any) -> None:
    for page in pages:
        expect(page.get_by_role("status")).to_have_text("Online")


def added(page: Any, scope: str, name: str, shots: Path) -> None:
    """Measure the page, and what this issue added to it (``scope``, a selector): every touch
    target at least 44 px, every text at least 4.5:1, nothing overlapping or clipped."""
    # What was added is marked by a class for the measuring scripts, which name classes.
    mark = (
        "(e, on) => [e, ...e.querySelectorAll('*')]"
        ".forEach((x) => x.classList.toggle('x-added', on))"
    )
    page.locator(scope).evaluate(mark, True)
    figures = measure(page)
    worst = contrast(page)
    page.locator(scope).evaluate(mark, False)
    report = layout_report(name, figures)
    targets = [t for t in figures["targets"] if ".x-added" in t["el"]]
    texts = [c for c in worst if ".x-added" in c["el"]]
    least = min((min(t["width"], t["height"]) for t in targets), default=None)
    low = texts[0] if texts else None
    print(
        f"\n{report}\n  added ({scope}): {len(texts)} texts, {len(targets)} touch targets"
        + (f", smallest {least:g} px" if least is not None else "")
        + (f"; lowest contrast {low['ratio']}:1 ({low['text']!r})" if low else "")
        + f"; the page's lowest contrast {worst[0]['ratio']}:1 ({worst[0]['el']})"
    )
    page.screenshot(path=str(shots / f"{name}.png"))
    assert texts, f"nothing of {scope} is drawn"
    assert least is None or least >= 44, targets
    assert small_targets(figures) == [], report
    # An entry of a scrolling log half scrolled out of its list is cut by the list, by design.
    log = page.locator("#log").inner_text() if page.locator("#log").count() else ""
    clipped = [
        c
        for c in figures["clipped"]
        if not (c["why"] == "text cut by an overflow-hidden ancestor" and c["text"] in log)
    ]
    assert figures["overlaps"] == figures["covered"] == clipped == [], report
    assert [c for c in worst if c["ratio"] < 4.5] == [], worst[:5]


def test_a_balancing_move_and_hand_for_hand_on_every_station(
    stations: Stations, screenshots: Path
) -> None:
    started = time.monotonic()
    server = stations.server
    create_tournament(server, names=NAMES[:11], tables=(("1", 9), ("2", 9)), start=False)
    arrange(server, {"1": [1, 2, 3, 4, 5, 6, 7], "2": [1, 3, 5, 7]})
    tournament_command(server, StartClock())

    floor = stations.open("floor", "floor", table=None, viewport=FLOOR)
    dealers = {t: stations.open("dealer", "dealer", table=t, viewport=TABLET) for t in "12"}
    displays = {t: stations.open("display", "display", table=t, viewport=DISPLAY) for t in "12"}
    online(floor, *dealers.values(), *displays.values())
    expect(floor.locator(".across-card.h4h.off")).to_contain_text("Hand-for-hand is off")

    # Table 2's hand ends: a move is proposed, and table 2 stops (12-A, 12-D).
    table_command(server, "2", StartHand())
    play_out(server, "2")
    card = floor.locator(".across-card.move")
    expect(card).to_have_count(1)
    move = tournament_view(server).moves[0]
    name = next(p.name for p in tournament_view(server).players if p.player == move.player)
    assert (move.from_table, move.table) == ("1", "2") and not move.confirmed
    expect(card.locator(".move-who")).to_have_text(
        f"{name}: table 1 seat {move.from_seat} → table 2 seat {move.seat}"
    )
    expect(card.locator(".move-why")).to_have_text(
        "Why: table 1 has 7 players and table 2 4: more than 1 apart."
    )
    expect(card.locator(".move-how")).to_contain_text(
        "The next big blind at table 1 goes to the seat that takes the big blind soonest,"
        " never the small blind"
    )
    expect(card.locator(".across-head")).to_contain_text("Balancing move 1 · Rule 12-A")
    stop = floor.locator('.across-card.stop[data-stopped="2"]')
    expect(stop.locator(".stop-why")).to_have_text(
        "Why: 4 players, 3 short of the fullest table (7); the big blind would fall on an"
        " empty seat."
    )
    dealer2 = dealers["2"]
    expect(dealer2.locator(".across-line.stop")).to_contain_text(
        "Play stopped: 4 players, 3 short of the fullest table (7); the big blind would fall on"
        " an empty seat"
    )
    expect(dealer2.locator(".across-line.stop")).to_contain_text("The floor may waive it.")
    expect(dealer2.locator('[data-key="start"]')).to_be_disabled()
    added(floor, "#across-area", "moves-floor-proposal", screenshots)
    added(dealer2, "#across-note", "moves-dealer-stopped", screenshots)

    # The floor waives the stoppage: logged, and table 2 may deal again.
    stop.get_by_role("button", name="Waive the stoppage at table 2").click()
    expect(stop.locator(".across-head")).to_contain_text("Table 2: stoppage waived")
    expect(dealer2.locator(".across-line.stop")).to_have_count(0)
    expect(dealer2.locator('[data-key="start"]')).to_be_enabled()

    # A floor monitor opened now (or reloaded) has the proposal and the waiver from the
    # tournament snapshot.
    floor.reload()
    online(floor)
    expect(card.locator(".move-why")).to_have_text(
        "Why: table 1 has 7 players and table 2 4: more than 1 apart."
    )
    expect(stop.locator(".across-head")).to_contain_text("Table 2: stoppage waived")

    # The floor confirms: the move is made at once (both tables between hands), on every
    # station of both tables.
    tapped = time.monotonic()
    card.get_by_role("button", name=re.compile(r"^Confirm move 1")).click()
    left = f"Seat {move.from_seat}: {name} leaves the table with 20,000"
    joined = f"Seat {move.seat}: {name} joins the table with 20,000"
    expect(dealers["1"].locator(f'.across-line[data-seat="{move.from_seat}"]')).to_have_text(left)
    expect(dealer2.locator(f'.across-line[data-seat="{move.seat}"]')).to_have_text(joined)
    expect(displays["1"].locator("#table-news")).to_have_text(left)
    expect(displays["2"].locator("#table-news")).to_have_text(joined)
    shown = time.monotonic() - tapped
    print(f"\nConfirm tapped -> both dealers and both displays show the move: {shown:.2f} s")
    expect(displays["2"].locator(f'.seat[data-seat="{move.seat}"] .name')).to_have_attribute(
        "data-full", name
    )
    expect(displays["1"].locator("#table")).not_to_contain_text(name)
    seat = dealers["1"].get_by_role("group", name=re.compile(f"^Seat {move.from_seat}, "))
    expect(seat).to_have_attribute("aria-label", f"Seat {move.from_seat}, empty")
    seat = dealer2.get_by_role("group", name=re.compile(f"^Seat {move.seat}, "))
    expect(seat).to_have_attribute(
        "aria-label", re.compile(f"^Seat {move.seat}, {name}, stack 20,000")
    )
    expect(floor.locator(".across-card.move")).to_have_count(0)
    expect(floor.locator(".latest-lines")).to_contain_text(
        f"{name} moves from table 1 seat {move.from_seat} to table 2 seat {move.seat}"
    )
    counts = {t.table: t.players for t in tournament_view(server).tables}
    assert counts == {"1": 6, "2": 5}
    added(dealers["1"], "#across-note", "moves-dealer-left", screenshots)
    added(displays["2"], "#table-news", "moves-display-joined", screenshots)

    # Hand-for-hand, announced while table 2 is in a hand (RP-8).
    table_command(server, "2", StartHand())
    floor.get_by_role("button", name=re.compile("^Announce hand-for-hand")).click()
    h4h = floor.locator(".across-card.h4h.on")
    expect(h4h.locator(".across-head")).to_contain_text("Hand-for-hand · hand 1")
    expect(h4h.locator("#h4h-playing")).to_have_text("Still in their hand: Table 2")
    expect(h4h.locator("#h4h-done")).to_have_text("Waiting for the other tables: Table 1")
    expect(dealers["1"].locator(".across-line.h4h")).to_contain_text(
        "Hand-for-hand: waiting for the other tables."
    )
    expect(dealers["1"].locator('[data-key="start"]')).to_be_disabled()
    expect(dealers["1"].locator(".held-why")).to_have_text(
        "Waiting for the other tables (hand-for-hand): no new hand yet."
    )
    expect(dealer2.locator(".across-line.h4h")).to_contain_text(
        "Hand-for-hand: finish this hand, then wait for the other tables."
    )
    expect(displays["1"].locator("#table-news")).to_contain_text(
        "Hand-for-hand: waiting for the other tables"
    )
    expect(displays["2"].locator("#table-news")).to_contain_text("Hand-for-hand")
    added(floor, "#across-area", "moves-floor-hand-for-hand", screenshots)
    added(dealers["1"], "#across-note", "moves-dealer-hand-for-hand", screenshots)

    # Table 2 finishes: the next hand-for-hand hand starts at both tables together.
    play_out(server, "2")
    expect(h4h.locator(".across-head")).to_contain_text("Hand-for-hand · hand 2")
    expect(h4h.locator("#h4h-playing")).to_have_text("Still in their hand: Table 1, Table 2")
    for dealer in dealers.values():
        expect(dealer.locator(".across-line.h4h")).to_contain_text(
            "Hand-for-hand: deal the next hand now; then wait for the other tables."
        )
        expect(dealer.locator('[data-key="start"]')).to_be_enabled()
    view = tournament_view(server)
    assert view.hand_for_hand is not None and view.hand_for_hand.waiting == ["1", "2"]

    # An all-in and call at table 2 in hand-for-hand: face down, nothing dealt, until the floor
    # releases it (RP-8-F) — and no display sees a hole card before.
    seats = [x.seat for x in table_view(server, "2").seats]
    table_command(server, "2", StartHand(cards={n: HANDS[i] for i, n in enumerate(seats)}))
    for declare in ("all_in", "call"):
        to_act = table_view(server, "2").to_act
        assert to_act is not None
        table_command(server, "2", Act(seat=to_act, declare=declare))
    play_out(server, "2")
    assert table_view(server, "2").waiting_on.startswith("floor: release the all-in")
    held = h4h.locator('.all-in-held[data-table="2"]')
    expect(held).to_contain_text("Table 2: all-in and call, the cards face down")
    expect(dealer2.locator(".across-line.h4h")).to_contain_text(
        "Hand-for-hand: all-in and call. Keep the cards face down"
    )
    expect(dealer2.locator("#action")).to_contain_text("Waiting for the floor")
    expect(displays["2"].locator(".seat .card:not(.back)")).to_have_count(0)
    added(floor, "#across-area", "moves-floor-all-in-held", screenshots)
    held.get_by_role("button", name="Release the all-in at table 2").click()
    expect(held).to_have_count(0)
    expect(displays["2"].locator(".seat .card:not(.back)")).to_have_count(4)
    expect(dealer2.locator("#action")).not_to_contain_text("Waiting for the floor")
    for page in (floor, *dealers.values(), *displays.values()):
        assert page.page_errors == []
    print(f"\nbalancing and hand-for-hand test: {time.monotonic() - started:.1f} s")


KEEP_FRAMES = """(() => {
  window.framesIn = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => window.framesIn.push(String(e.data)));
    }
  };
})();"""
"""Every frame the station's websocket receives, kept in ``window.framesIn``."""


def keeping_frames(stations: Stations, page: str, role: str, table: str | None, size: Any) -> Any:
    """A station opened as ``stations.open`` does, whose received frames are kept."""
    context = stations.browser.new_context(viewport={"width": size[0], "height": size[1]})
    stations.contexts.append(context)
    context.add_init_script(KEEP_FRAMES)
    tab = context.new_page()
    tab.set_default_timeout(10_000)
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.page_errors = errors  # type: ignore[attr-defined]
    tab.goto(stations.url(page, role, table))
    return tab


def frames(page: Any) -> list[str]:
    return list(page.evaluate("() => window.framesIn"))


def test_the_break_order_is_for_the_floor_only(stations: Stations, screenshots: Path) -> None:
    started = time.monotonic()
    server = stations.server
    create_tournament(server, names=NAMES, tables=(("1", 9), ("2", 9), ("3", 9)), start=False)
    arrange(server, {"1": [1, 2, 3, 4, 5], "2": [1, 2, 3, 4, 5], "3": [1, 5]})
    tournament_command(server, StartClock())
    floor = keeping_frames(stations, "floor", "floor", None, FLOOR)
    clock = keeping_frames(stations, "clock", "display", None, FLOOR)
    display = keeping_frames(stations, "display", "display", "3", DISPLAY)
    online(floor, clock, display)

    table_command(server, "3", StartHand())
    play_out(server, "3")
    card = floor.locator('.across-card.break[data-breaks="3"]')
    expect(card.locator(".break-next")).to_have_text(
        "Table 3 is next to break: 8 free seats at the other tables take its 2 players."
        " The order is never announced."
    )
    expect(card.locator(".across-head")).to_contain_text("Floor only: the break order · Rule 12-C")
    # The clock display's stream holds the event's place, as a placeholder (12-C).
    clock.wait_for_function("() => window.framesIn.some((f) => f.includes('\"withheld\"'))")
    assert any('"break_proposed"' in f for f in frames(floor))
    for page in (clock, display):
        assert not any("break_proposed" in f or "next to break" in f for f in frames(page))
        expect(page.locator("body")).not_to_contain_text("next to break")
    added(floor, "#across-area", "moves-floor-break-order", screenshots)
    # A floor monitor opened after the proposal has it too, from its snapshot: a floor's
    # names the table next to break; a display's never does (12-C).
    late = keeping_frames(stations, "floor", "floor", None, FLOOR)
    online(late)
    expect(late.locator('.across-card.break[data-breaks="3"] .break-next')).to_have_text(
        "Table 3 is next to break. The order is never announced."
    )
    assert any('"next_break":"3"' in f for f in frames(late))
    for page in (clock, display):
        assert not any('"next_break":"3"' in f for f in frames(page))

    # The floor breaks table 3: its players leave for seats drawn at the other tables (11-B).
    card.get_by_role("button", name=re.compile("^Break table 3")).click()
    expect(display.locator("#table-news")).to_contain_text("leaves the table")
    expect(floor.locator(".latest-lines")).to_contain_text("Table 3")
    assert {t.table: t.players for t in tournament_view(server).tables}["3"] == 0
    for page in (clock, display):
        assert not any("break_proposed" in f for f in frames(page))
    assert floor.page_errors == [] and clock.page_errors == [] and display.page_errors == []
    print(f"\nbreak order test: {time.monotonic() - started:.1f} s")
