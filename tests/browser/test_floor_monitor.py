"""The floor monitor (issue 11): floor calls with their context, waiting times that turn loud,
rulings signed with the floor's name, corrections previewed and struck through, the penalty
form, and the monitor at its widest (1920 x 1080, ten seats, nine-digit stacks, 50-character
names). A real server, real Chromium; time is driven with Playwright's clock, never slept.

Figures are printed (``-s``) and screenshots go to ``screenshots/`` (git-ignored).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest

from protocol import TableConfig
from protocol.commands import Act, StartHand
from server.tokens import Claims, issue
from tests.browser.conftest import Stations, create_table, run_admin, send_commands
from tests.browser.measure import layout_report, measure, screenshot, small_targets
from tests.browser.test_layout import WIDEST
from tests.service.conftest import SECRET

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect
BIG = (1920, 1080)
CHIP_SET = (25, 100, 500, 1000, 5000, 25000)
FOUR = TableConfig(
    game="NLHE",
    blinds=(100, 200),
    seats={1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000},
    button=1,
    names={1: "Ana Ferreira", 2: "Bruno", 3: "Chen", 4: "Dara"},
    chips=CHIP_SET,
)
UNDER_CALL = (
    StartHand(),
    Act(seat=4, chips=[1000, 100, 100]),  # a raise to 1,200 by chips (47-B)
    Act(seat=1, chips=[100, 100]),  # an under-call, multi-way: the floor decides (53-B)
)
FLOOR_NAME = "Mia Okafor"

CONTRAST_JS = r"""() => {
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number);
    return { r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1 };
  };
  const lum = ({ r, g, b }) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const mix = (top, under) => ({ r: top.r * top.a + under.r * (1 - top.a),
    g: top.g * top.a + under.g * (1 - top.a), b: top.b * top.a + under.b * (1 - top.a), a: 1 });
  const background = (e) => {
    const layers = [];
    for (let a = e; a; a = a.parentElement) {
      const c = parse(getComputedStyle(a).backgroundColor);
      if (c && c.a > 0) { layers.push(c); if (c.a >= 1) break; }
    }
    let bg = parse(getComputedStyle(document.documentElement).backgroundColor);
    for (const layer of layers.reverse()) bg = mix(layer, bg);
    return bg;
  };
  const opacity = (e) => {
    let o = 1;
    for (let a = e; a; a = a.parentElement) o *= Number(getComputedStyle(a).opacity);
    return o;
  };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  for (let e = walker.currentNode; e; e = walker.nextNode()) {
    if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = e.getBoundingClientRect();
    const s = getComputedStyle(e);
    if (!r.width || !r.height || s.visibility === 'hidden') continue;
    if (e.closest('[hidden], button:disabled')) continue;
    const bg = background(e);
    const fg = parse(s.color);
    const ink = mix({ ...fg, a: fg.a * opacity(e) }, bg);
    const [hi, lo] = [lum(ink), lum(bg)].sort((x, y) => y - x);
    out.push({ el: e.tagName.toLowerCase() + '.' + [...e.classList].join('.'),
               text: e.textContent.trim().slice(0, 40),
               ratio: Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100 });
  }
  return out.sort((a, b) => a.ratio - b.ratio);
}"""


def floor_token(name: str = FLOOR_NAME) -> str:
    return issue(SECRET.encode(), Claims("floor", "main", int(time.time()) + 3600, name=name))


def open_floor(stations: Stations, *, clock: bool = False, extra: str = "") -> Any:
    """The floor monitor at 1920 x 1080 signed in with a named floor token; with ``clock``
    the page's time is Playwright's, moved on by the test."""
    context = stations.browser.new_context(viewport={"width": BIG[0], "height": BIG[1]})
    stations.contexts.append(context)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.page_errors = errors
    if clock:
        page.clock.install()
    port = stations.server.port
    page.goto(f"http://127.0.0.1:{port}/floor.html?tournament=main{extra}#token={floor_token()}")
    expect(page.get_by_role("status")).to_have_text("Online")
    return page


def add_tables(stations: Stations, config: TableConfig, *tables: str) -> None:
    async def work(client: Any) -> None:
        for table in tables:
            await client.create_table("main", table, config)

    run_admin(stations.server, work)


def settled(page: Any, table: str, seq: int) -> None:
    expect(page.locator(f'.tile[data-table="{table}"]')).to_have_attribute("data-seq", str(seq))


def test_a_floor_call_shows_its_context_waits_turns_loud_opens_its_table_and_is_signed(
    stations: Stations,
) -> None:
    create_table(stations.server, FOUR)
    add_tables(stations, FOUR, "2")
    two = send_commands(stations.server, "2", StartHand())
    floor = open_floor(stations, clock=True)
    settled(floor, "2", two)
    expect(floor.locator("#signed-as")).to_have_text(f"Rulings signed: {FLOOR_NAME}")
    floor.locator('.tile[data-table="2"]').click()  # the floor touched the page: chimes may play
    expect(floor.locator("#detail-title")).to_have_text("Table 2")

    seq = send_commands(stations.server, "1", *UNDER_CALL)
    settled(floor, "1", seq)
    call = floor.locator(".call")
    expect(call).to_have_count(1)
    expect(call.locator(".call-head")).to_have_text("Table 1 · Seat 1 · Rule 53-B · the hand waits")
    context = call.locator(".call-context li")
    expect(context).to_have_text(
        [
            "Seat 1 · Ana Ferreira · stack 20,000",
            "Facing 1,200 · pushed 200 · a fold forfeits 200",
            "Seat 1 pushed 2 \u00d7 100 = 200 without a word",
        ]
    )
    expect(call.locator(".waited")).to_have_text(re.compile(r"^waiting 0:0\d$"))
    expect(call).not_to_have_class(re.compile(r"\bloud\b"))
    screenshot(floor, "floor-call-context")

    # Clicking the call opens its table.
    call.locator(".call-text").click()
    expect(floor.locator("#detail-title")).to_have_text("Table 1")
    floor.locator('.tile[data-table="2"]').click()
    expect(floor.locator("#detail-title")).to_have_text("Table 2")
    call.get_by_role("button", name="Open table 1").click()
    expect(floor.locator("#detail-title")).to_have_text("Table 1")

    # A minute later the call is louder: red, pulsing, and a chime (once).
    floor.clock.fast_forward(61_000)
    expect(call).to_have_class(re.compile(r"\bloud\b"))
    expect(call.locator(".waited")).to_have_text(re.compile(r"^waiting 1:0\d$"))
    expect(call).to_have_attribute("data-chimed", re.compile(r"^(played|muted)$"))
    print(f"\nchime on a loud call: {call.get_attribute('data-chimed')}")
    screenshot(floor, "floor-call-loud")

    # One tap rules; the ruling says who ruled, by the name in the floor's token.
    floor.get_by_role("button", name="Rule call on table 1, seat 1").click()
    expect(floor.locator("#calls")).to_have_text("No floor calls open.")
    expect(floor.get_by_role("log")).to_contain_text(
        f"Floor ruling on call 1: seat 1 call (53-B), ruled by {FLOOR_NAME}"
    )
    assert floor.page_errors == []


def test_a_correction_lists_what_it_voids_and_the_log_strikes_it_through(
    stations: Stations,
) -> None:
    create_table(stations.server, FOUR)
    seq = send_commands(
        stations.server,
        "1",
        StartHand(),
        Act(seat=4, declare="call"),
        Act(seat=1, declare="raise", amount=800),
        Act(seat=2, declare="fold"),
    )
    floor = open_floor(stations)
    settled(floor, "1", seq)
    preview = floor.locator("#fix-preview li")
    expect(preview).to_have_text(["Seat 2: fold"])
    count = floor.get_by_label("Correction: actions to void")
    count.fill("2")
    everything = ["Seat 1: raise 800 (45-B)", "Substantial action: no misdeal from here on (38)"]
    expect(preview).to_have_text([*everything, "Seat 2: fold"])
    count.fill("9")
    fix = floor.locator("#fix-preview")
    expect(fix).to_have_text("This hand has fewer than 9 actions to void.")
    count.fill("2")
    expect(preview).to_have_count(3)
    floor.get_by_label("Correction: reason").fill("seat 1 said call, not raise")
    screenshot(floor, "floor-correction-preview")
    floor.get_by_role("button", name="Correct the last 2 actions").click()

    log = floor.get_by_role("log")
    expect(log.locator("li").first).to_contain_text("Correction by the floor")
    voided = log.locator("li.voided")
    expect(voided).to_have_count(3)
    expect(voided.nth(0)).to_contain_text("Seat 2: fold")
    expect(voided.nth(2)).to_contain_text("Seat 1: raise 800 (45-B)")
    expect(voided.first.locator(".void-tag")).to_have_text("Voided")
    line = voided.first.locator(".text").evaluate("e => getComputedStyle(e).textDecorationLine")
    assert line == "line-through"
    expect(log.locator("li:not(.voided)", has_text="Seat 4: call 200")).to_have_count(1)
    # After the correction seat 1 acts again: the hand has seat 4's call left to void.
    expect(fix).to_have_text("This hand has fewer than 2 actions to void.")
    count.fill("1")
    expect(preview).to_have_text(["Seat 4: call 200"])
    screenshot(floor, "floor-correction-voided")

    # A reload shows the same log struck through (the history after the snapshot tells it).
    floor.reload()
    expect(floor.get_by_role("status")).to_have_text("Online")
    # The history comes after the catch-up; on a loaded machine that can take some seconds.
    expect(floor.get_by_role("log").locator("li.voided")).to_have_count(3, timeout=20_000)
    assert floor.page_errors == []


def test_the_penalty_form_shows_only_its_kinds_fields_and_resets_for_another_table(
    stations: Stations,
) -> None:
    create_table(stations.server, FOUR)
    add_tables(stations, FOUR, "2")
    one = send_commands(stations.server, "1", StartHand())
    two = send_commands(stations.server, "2", StartHand())
    floor = open_floor(stations)
    settled(floor, "1", one)
    settled(floor, "2", two)
    floor.locator('.tile[data-table="1"]').click()
    form = floor.locator("fieldset.penalty")

    def fields() -> list[str]:
        return list(form.locator(".field > span").all_inner_texts())

    expect(form).to_have_attribute("data-kind", "warning")
    assert fields() == ["Seat", "Kind", "Reason"]
    kind = floor.get_by_label("Penalty: kind")
    kind.select_option("hands")
    expect(form).to_have_attribute("data-kind", "hands")
    assert fields() == ["Seat", "Kind", "Hands", "Reason"]
    kind.select_option("rounds")
    expect(form.locator(".field > span")).to_have_text(["Seat", "Kind", "Rounds", "Reason"])
    kind.select_option("chips")
    expect(form.locator(".field > span")).to_have_text(["Seat", "Kind", "Chips", "Reason"])
    kind.select_option("disqualify")
    expect(form.locator(".field > span")).to_have_text(["Seat", "Kind", "Reason"])

    kind.select_option("chips")
    floor.get_by_label("Penalty: seat").select_option("3")
    floor.get_by_label("Penalty: chips out of play").fill("500")
    floor.get_by_label("Penalty: reason").fill("slow roll")
    screenshot(floor, "floor-penalty-chips")
    floor.locator('.tile[data-table="2"]').click()
    expect(floor.locator("#detail-title")).to_have_text("Table 2")
    expect(form).to_have_attribute("data-kind", "warning")
    expect(floor.get_by_label("Penalty: seat")).to_have_value("1")
    expect(floor.get_by_label("Penalty: reason")).to_have_value("")
    # Back on table 1 the form starts over too: nothing half-filled carries to another table.
    floor.locator('.tile[data-table="1"]').click()
    expect(floor.locator("#detail-title")).to_have_text("Table 1")
    expect(form).to_have_attribute("data-kind", "warning")

    kind.select_option("hands")
    floor.get_by_label("Penalty: hands or rounds").fill("2")
    floor.get_by_label("Penalty: reason").fill("abusive language")
    floor.get_by_role("button", name="Give the penalty").click()
    expect(floor.get_by_role("log").locator("li").first).to_contain_text("Seat 1")
    expect(floor.locator('.tile[data-table="1"] .penalties')).to_contain_text("Seat 1: 2 hands")
    assert floor.page_errors == []


def test_the_floor_monitor_at_its_widest_has_no_overlaps_and_big_enough_targets(
    stations: Stations,
) -> None:
    """1920 x 1080, three tables of ten seats with nine-digit stacks and 50-character names,
    a floor call open on an under-call: nothing overlaps, is covered or clipped, every touch
    target is at least 44 px, no text under 16 px, and every text has a contrast of 4.5:1."""
    create_table(stations.server, WIDEST)
    add_tables(stations, WIDEST, "2", "3")
    for table in ("2", "3"):
        send_commands(stations.server, table, StartHand())
    seq = send_commands(
        stations.server,
        "1",
        StartHand(),
        Act(seat=4, declare="raise", amount=2_500_000),
        Act(seat=5, chips=[1_000_000]),
    )
    floor = open_floor(stations)
    settled(floor, "1", seq)
    expect(floor.locator(".call")).to_have_count(1)
    expect(floor.locator(".call-context li").first).to_contain_text(WIDEST.names[5])
    floor.locator('.tile[data-table="1"]').click()
    floor.evaluate("() => document.fonts.ready.then(() => true)")
    screenshot(floor, "floor-widest")
    figures = measure(floor)
    contrast = floor.evaluate(CONTRAST_JS)
    report = layout_report("floor", figures)
    print(f"\n{report}\n  lowest contrast {contrast[0]['ratio']}:1 ({contrast[0]['el']})")
    assert figures["scroll"] == list(BIG), "the page scrolls"
    assert figures["overlaps"] == [], report
    assert figures["covered"] == [], report
    assert figures["clipped"] == [], report
    assert small_targets(figures) == [], report
    assert figures["fonts"][0]["px"] >= 16, report
    assert [c for c in contrast if c["ratio"] < 4.5] == []
    assert floor.page_errors == []
