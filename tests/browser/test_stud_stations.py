"""Seven-card stud at the three stations (RP-10), in a real browser against a real server.

1. A stud hand dealt through the dealer station, every tap counted: eight seats with nine-digit
   stacks and 50-character names; third street's up-cards (and, counted apart as optional, each
   seat's two down-cards) from the street picker that moves seat to seat by itself; the
   bring-in prompt ("Bring in 2,000,000" / "Complete to 5,000,000"); fourth to sixth street's
   up-cards of the hands still in; sixth street's short stub (RP-10-H A) said; seventh street's
   down-cards (optional); six hands tabled at the showdown. At every street the table display
   and the floor monitor show each live seat's up-cards in order, the street named and who
   brings it in, and the display holds no down-card anywhere — in its DOM or its stored model
   — until the hands are shown. At seventh street (six hands of seven cards, two folded) and at
   the showdown (six hands of seven cards face up) every station is measured: no overlaps,
   nothing covered or clipped, touch targets of the dealer and floor at least 44 px, the
   display's text at least 32 px at 1080 lines, and every text at least 4.5:1.
2. Eight hands to seventh street: the stub is short (RP-10-H C), the dealer turns one community
   card from the station, and every station shows it in the middle, named; eight seats of six
   cards and the community card are measured the same way.
3. The seat left of a bring-in all-in on its ante (RP-10-E) is offered Fold, Bring in and
   Complete.

Screenshots go to ``screenshots/`` (git-ignored), as the layout tests' do.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from protocol import TableConfig
from protocol.commands import Act, Command, Deal, Show, StartHand, Street
from server.engine import apply, new_table
from server.engine.flow import prompt_for
from tests.browser.conftest import Stations, create_table, send_commands
from tests.browser.measure import (
    contrast,
    layout_report,
    measure,
    screenshot,
    small_targets,
    smallest_target,
)
from tests.browser.test_dealer_taps import Taps
from tests.browser.test_layout import NAMES

expect = pytest.importorskip(
    "playwright.sync_api", reason="Playwright for Python is not installed (pip install playwright)"
).expect

STACKS = {n: 100_000_000 + 12_345_678 * n for n in range(1, 9)}
STUD8 = TableConfig(
    game="7S",
    blinds=(0, 0),
    ante=1_000_000,
    bring_in=2_000_000,
    min_bet=5_000_000,
    seats=STACKS,
    button=1,
    names={n: NAMES[n] for n in range(1, 9)},
    chips=(100_000, 500_000, 1_000_000, 5_000_000, 25_000_000),
)
UP3 = {1: "Kd", 2: "2c", 3: "9h", 4: "Qc", 5: "7s", 6: "Jd", 7: "4h", 8: "Th"}
"""Seat 2's deuce of clubs is the lowest up-card: seat 2 brings it in (RP-10)."""
DOWN3 = {
    1: ["Qs", "Js"], 2: ["8c", "7d"], 3: ["Qh", "Jh"], 4: ["6c", "6d"],
    5: ["5c", "5d"], 6: ["3d", "3h"], 7: ["8d", "8h"], 8: ["9c", "9d"],
}  # fmt: skip
UP = {
    "fourth": {1: "Kh", 2: "3c", 3: "9s", 4: "Ts", 6: "Jc", 8: "4c"},  # seat 1's kings first
    "fifth": {1: "2d", 2: "4d", 3: "2h", 4: "As", 6: "7c", 8: "5h"},
    "sixth": {1: "5s", 2: "6h", 3: "3s", 4: "Ac", 6: "Tc", 8: "4s"},  # seat 4's aces first
}
FIRST = {"fourth": 1, "fifth": 1, "sixth": 4, "seventh": 4}
"""The best board acts first (RP-10-D)."""
DOWN7 = {1: "Ah", 2: "2s", 3: "Ad", 4: "Kc", 6: "Ks", 8: "Qd"}
LIVE = [1, 2, 3, 4, 6, 8]
DOWN = [c for cards in DOWN3.values() for c in cards] + list(DOWN7.values())
RANKS = {"A": "Ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "Ten", "9": "Nine",
         "8": "Eight", "7": "Seven", "6": "Six", "5": "Five", "4": "Four", "3": "Three",
         "2": "Two"}  # fmt: skip
SUITS = {"s": ("spades", "\u2660"), "h": ("hearts", "\u2665"), "d": ("diamonds", "\u2666"),
         "c": ("clubs", "\u2663")}  # fmt: skip
DEALER, FLOOR, BIG, SMALL = (1024, 768), (1920, 1080), (1920, 1080), (1280, 720)
LEAST_CONTRAST = 4.5


def name(code: str) -> str:
    return f"{RANKS[code[0]]} of {SUITS[code[1]][0]}"


def showing(cards: list[str]) -> str:
    return "showing " + ", ".join(name(c) for c in cards)


class StudTaps(Taps):
    """The dealer's taps, those that enter optional down-cards counted apart."""

    def __init__(self, page: Any) -> None:
        super().__init__(page)
        self.optional = 0
        self.cards = 0  # card taps the hand needs (the optional ones apart)
        self.actions = 0  # the players' actions and shows

    def card(self, code: str, optional: bool = False) -> None:
        super().card(code)
        if optional:
            self.optional += 1
        else:
            self.cards += 1

    def button(self, label: str, optional: bool = False) -> None:
        self.tap(label)
        if optional:
            self.optional += 1


# --- what the stations show -------------------------------------------------------------------


def open_stations(stations: Stations) -> dict[str, Any]:
    pages = {
        "dealer": stations.open("dealer", "dealer", viewport=DEALER),
        "floor": stations.open("floor", "floor", table=None, viewport=FLOOR),
        "display": stations.open("display", "display", viewport=BIG),
        "display-720": stations.open("display", "display", viewport=SMALL),
    }
    for page in pages.values():
        page.emulate_media(reduced_motion="reduce")
        expect(page.get_by_role("status")).to_have_text("Online")
    return pages


def settled(pages: dict[str, Any]) -> None:
    """Every station has applied every event the dealer's station has."""
    seq = pages["dealer"].locator("body").get_attribute("data-seq")
    for key, page in pages.items():
        if key == "floor":
            expect(page.locator('.tile[data-table="1"]')).to_have_attribute("data-seq", seq)
        else:
            expect(page.locator("body")).to_have_attribute("data-seq", seq)


def dealer_settles(page: Any, after: str) -> None:
    """Wait until the dealer's station has moved past event ``after``."""
    expect(page.locator("body")).not_to_have_attribute("data-seq", re.compile(rf"^({after})?$"))


def seat_hand(page: Any, station: str, seat: int) -> Any:
    if station == "floor":
        return page.locator(f'#seats li[data-seat="{seat}"] .stud-hand')
    return page.locator(f'.seat[data-seat="{seat}"] .stud-hand')


def up_cards_shown(pages: dict[str, Any], up: dict[int, list[str]], backs: int) -> None:
    """Each live seat's up-cards in order, its down-cards as ``backs`` card backs."""
    for station in ("display", "display-720", "floor"):
        page = pages[station]
        for seat, cards in up.items():
            hand = seat_hand(page, station, seat)
            expect(hand).to_have_attribute(
                "aria-label", f"{showing(cards)}; {backs} cards face down"
            )
            expect(hand.locator(".card.back")).to_have_count(backs)
            faces = hand.locator(".card:not(.back)")
            expect(faces).to_have_count(len(cards))
            expect(faces).to_have_text([c[0].replace("T", "10") + SUITS[c[1]][1] for c in cards])


def down_cards_nowhere(page: Any, hidden: list[str]) -> None:
    """No down-card in the display's DOM (text, attributes) or in the model it keeps."""
    everything = page.evaluate(
        "() => document.documentElement.outerHTML + JSON.stringify({...sessionStorage})"
    )
    found = []
    for code in hidden:
        rank, symbol = code[0].replace("T", "10"), SUITS[code[1]][1]
        patterns = [
            rf"(?<![A-Za-z0-9]){code}(?![A-Za-z0-9])",
            re.escape(name(code)),
            re.escape(f'<span class="rank">{rank}</span><span class="suit">{symbol}</span>'),
        ]
        found += [code for p in patterns if re.search(p, everything)]
    assert found == [], f"down-cards on the display: {found}"


def street_named(pages: dict[str, Any], words: str) -> None:
    for key in ("display", "display-720"):
        expect(pages[key].locator("#title")).to_contain_text(words)
    expect(pages["floor"].locator('.tile[data-table="1"]')).to_contain_text(words)
    expect(pages["floor"].locator("#seats h2")).to_contain_text(words)
    expect(pages["dealer"].locator("#summary")).to_contain_text(words)


# --- measuring ------------------------------------------------------------------------------


SCROLLED_OUT = """(hide) => {
  // The ruling logs and the floor's list of what a correction voids scroll: an entry partly
  // scrolled out of its list's view is left out of the measures while they are taken.
  for (const log of document.querySelectorAll('.log, .voids')) {
    const box = log.getBoundingClientRect();
    for (const li of log.children) {
      const r = li.getBoundingClientRect();
      const out = r.top < box.top - 1 || r.bottom > box.bottom + 1;
      li.style.visibility = hide && out ? 'hidden' : '';
    }
  }
}"""

CONTAINED = """() => {
  // Cards inside their seat's box, and no two seats' boxes intersecting.
  const problems = [];
  const r = (e) => e.getBoundingClientRect();
  const seats = [...document.querySelectorAll('.seat[data-seat], .seat-row[data-seat]')];
  for (const s of seats) {
    const a = r(s);
    for (const c of s.querySelectorAll('.card, .stud-hand')) {
      const b = r(c);
      const out = b.left < a.left - 1 || b.right > a.right + 1
        || b.top < a.top - 1 || b.bottom > a.bottom + 1;
      if (out) problems.push(`seat ${s.dataset.seat}: ${c.className} outside its box`);
    }
  }
  for (let i = 0; i < seats.length; i += 1) {
    for (let j = i + 1; j < seats.length; j += 1) {
      const a = r(seats[i]), b = r(seats[j]);
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      const pair = `${seats[i].dataset.seat} and ${seats[j].dataset.seat}`;
      if (w > 1 && h > 1) problems.push(`seats ${pair} overlap`);
    }
  }
  return problems;
}"""


def measured(
    pages: dict[str, Any], state: str, numbers: dict[str, Any], game: str = "stud"
) -> list[str]:
    """Layout and contrast of every station now; the problems found, the figures kept (the
    screenshots named ``{game}-{state}-{station}``)."""
    problems: list[str] = []
    for key, page in pages.items():
        page.evaluate("() => document.fonts.ready.then(() => true)")
        screenshot(page, f"{game}-{state}-{key}")
        page.evaluate(SCROLLED_OUT, True)
        figures = measure(page)
        boxes = page.evaluate(CONTAINED)
        numbers["overlaps"] += len(boxes)
        problems += [f"{key} / {state}: {p}" for p in boxes]
        size = figures["viewport"]
        print("\n" + layout_report(f"{key} / {state}", figures))
        if figures["scroll"] != size:
            problems.append(f"{key} / {state}: the page scrolls {figures['scroll']}")
        for kind in ("overlaps", "covered", "clipped"):
            problems += [f"{key} / {state}: {kind} {x}" for x in figures[kind]]
            numbers["overlaps"] += len(figures[kind]) if kind == "overlaps" else 0
        if key in ("dealer", "floor"):
            problems += [f"{key} / {state}: small target {t}" for t in small_targets(figures)]
            target = smallest_target(figures)
            if target and min(target["width"], target["height"]) < numbers["target"][0]:
                numbers["target"] = (min(target["width"], target["height"]), key, target["text"])
        else:
            least = 32 * size[1] / 1080
            problems += [
                f"{key} / {state}: text {f['px']} px under {least:.1f}: {f['text']!r}"
                for f in figures["fonts"]
                if f["px"] < least - 0.5
            ]
            if figures["fonts"]:
                px = figures["fonts"][0]["px"]
                numbers["font"][key] = min(numbers["font"].get(key, px), px)
        ratios = contrast(page)
        if ratios and ratios[0]["ratio"] < numbers["contrast"][0]:
            numbers["contrast"] = (ratios[0]["ratio"], key, ratios[0]["text"])
        problems += [
            f"{key} / {state}: contrast {r}" for r in ratios if r["ratio"] < LEAST_CONTRAST
        ]
        page.evaluate(SCROLLED_OUT, False)
        problems += [f"{key} / {state}: {e}" for e in page.page_errors]
    return problems


ONLY_THE_DIALOG = """(alone) => {
  // With a modal dialog open only the dialog is measured: the page under it is inert.
  for (const e of document.querySelectorAll('body > header, body > main')) {
    e.style.visibility = alone ? 'hidden' : '';
  }
}"""


def picker_measured(page: Any, numbers: dict[str, Any]) -> list[str]:
    """The dealer's street picker, open: its targets, texts and contrast."""
    page.evaluate(ONLY_THE_DIALOG, True)
    figures = measure(page)
    ratios = contrast(page)
    page.evaluate(ONLY_THE_DIALOG, False)
    print("\n" + layout_report("dealer / street picker", figures))
    problems = [
        f"picker: {kind} {x}" for kind in ("overlaps", "covered", "clipped") for x in figures[kind]
    ]
    problems += [f"picker: small target {t}" for t in small_targets(figures)]
    problems += [f"picker: contrast {r}" for r in ratios if r["ratio"] < LEAST_CONTRAST]
    numbers["overlaps"] += len(figures["overlaps"])
    target = smallest_target(figures)
    if target and min(target["width"], target["height"]) < numbers["target"][0]:
        numbers["target"] = (
            min(target["width"], target["height"]),
            "dealer's picker",
            target["text"],
        )
    if ratios and ratios[0]["ratio"] < numbers["contrast"][0]:
        numbers["contrast"] = (ratios[0]["ratio"], "dealer's picker", ratios[0]["text"])
    return problems


def fresh_numbers() -> dict[str, Any]:
    return {"overlaps": 0, "target": (1e9, "", ""), "contrast": (1e9, "", ""), "font": {}}


def report(numbers: dict[str, Any]) -> str:
    target, ratio = numbers["target"], numbers["contrast"]
    fonts = ", ".join(f"{k} {v:g} px" for k, v in numbers["font"].items())
    return (
        f"smallest touch target {target[0]:g} px ({target[1]} {target[2]!r}); "
        f"lowest contrast {ratio[0]:g}:1 ({ratio[1]} {ratio[2]!r}); "
        f"smallest display text {fonts}; overlapping text pairs {numbers['overlaps']}"
    )


# --- 1. a hand through the dealer station --------------------------------------------------


def act(t: StudTaps, label: str, seat: int) -> None:
    expect(t.page.locator("#to-act")).to_contain_text(f"Seat {seat} ")
    t.tap(label)
    t.actions += 1


def deal_street(t: StudTaps, street: str, up: dict[int, str]) -> None:
    t.tap(f"Choose the {street} street up-cards")
    for seat in sorted(up):
        expect(t.page.locator("#picked")).to_contain_text(f"Seat {seat}: tap its up-card")
        t.card(up[seat])
    t.tap(f"Deal {street} street")


def test_a_stud_hand_through_the_dealer_station_with_every_tap_counted(
    stations: Stations,
) -> None:
    create_table(stations.server, STUD8)
    pages = open_stations(stations)
    dealer = pages["dealer"]
    t = StudTaps(dealer)
    numbers = fresh_numbers()
    problems: list[str] = []

    # Third street: the picker goes seat to seat; each seat's two down-cards too (optional).
    t.tap("Start the first hand")
    expect(dealer.locator("#picked")).to_have_text("Seat 1: tap its up-card · 8 cards to go")
    t.button("Down-cards too", optional=True)
    for seat in range(1, 9):
        t.card(UP3[seat])
        for code in DOWN3[seat]:
            t.card(code, optional=True)
    # The down-cards entered are backs on the picker's seats, never their faces.
    slots = dealer.locator(".stud-slots")
    expect(slots.locator(".card.back")).to_have_count(16)
    assert all(code not in slots.inner_text() for code in DOWN)
    screenshot(dealer, "stud-dealer-third-street-picker")
    problems += picker_measured(dealer, numbers)
    t.tap("Deal third street")
    expect(dealer.locator("#to-act")).to_have_text(f"Seat 2 · {NAMES[2]} to act")
    expect(dealer.get_by_role("button", name="Complete to 5,000,000")).to_be_visible()
    settled(pages)
    up = {seat: [UP3[seat]] for seat in range(1, 9)}
    up_cards_shown(pages, up, backs=2)
    street_named(pages, "Third street")
    for key in ("display", "display-720"):
        expect(pages[key].locator('.seat[data-seat="2"] .act-flag')).to_have_text("Bring in 2M")
        down_cards_nowhere(pages[key], DOWN)
    expect(pages["floor"].locator('#seats li[data-seat="2"] .seat-flags')).to_have_text(
        "To bring in 2,000,000"
    )
    expect(pages["floor"].locator('.tile[data-table="1"] .act')).to_contain_text("to bring it in")
    screenshot(pages["display"], "stud-third-street-display")
    screenshot(pages["floor"], "stud-third-street-floor")
    screenshot(dealer, "stud-third-street-dealer")
    # On the dealer's tablet the down-cards are backs: only a press and hold shows them.
    assert all(code not in dealer.locator("#table").inner_text() for code in DOWN)
    seat1 = dealer.locator('.seat[data-seat="1"]')
    expect(seat1.locator(".down-row .card.back")).to_have_count(2)
    box = seat1.bounding_box()
    dealer.mouse.move(box["x"] + box["width"] / 2, box["y"] + 10)
    dealer.mouse.down()
    expect(seat1.locator(".down-row .card:not(.back)")).to_have_text(["Q\u2660", "J\u2660"])
    dealer.mouse.up()
    expect(seat1.locator(".down-row .card:not(.back)")).to_have_count(0)

    act(t, "Bring in 2,000,000", 2)
    for seat, label in (
        (3, "Call 2,000,000"),
        (4, "Complete to 5,000,000"),
        (5, "Fold"),
        (6, "Call 5,000,000"),
        (7, "Fold"),
        (8, "Call 5,000,000"),
        (1, "Call 5,000,000"),
        (2, "Call 3,000,000"),
        (3, "Call 3,000,000"),
    ):
        act(t, label, seat)

    for street in ("fourth", "fifth", "sixth"):
        expect(
            dealer.get_by_role("button", name=f"Choose the {street} street up-cards")
        ).to_be_visible()
        settled(pages)
        if street == "fourth":
            # Who brought it in stays marked until fourth street is dealt.
            for key in ("display", "display-720"):
                expect(pages[key].locator('.seat[data-seat="2"] .marker.bring-in')).to_have_text(
                    "Bring-in"
                )
            expect(pages["floor"].locator('#seats li[data-seat="2"] .seat-flags')).to_have_text(
                "Bring-in"
            )
        deal_street(t, street, UP[street])
        for seat in LIVE:
            up[seat].append(UP[street][seat])
        expect(dealer.locator("#to-act")).to_contain_text(f"Seat {FIRST[street]} ")
        settled(pages)
        up_cards_shown(pages, {s: up[s] for s in LIVE}, backs=2)
        street_named(pages, f"{street.capitalize()} street")
        for key in ("display", "display-720"):
            expect(pages[key].locator(".marker.bring-in")).to_have_count(0)
        for key in ("display", "display-720"):
            down_cards_nowhere(pages[key], DOWN)
        first = FIRST[street]
        for seat in LIVE[LIVE.index(first) :] + LIVE[: LIVE.index(first)]:
            act(t, "Check", seat)

    # Sixth street's round end says the stub is short but the burns make it enough (RP-10-H A).
    expect(dealer.locator(".stub-note")).to_contain_text("RP-10-H A")
    t.button("Enter the down-cards…", optional=True)
    for seat in LIVE:
        t.card(DOWN7[seat], optional=True)
    # The plain deal is one tap ("Deal seventh street face down"): this one counts as it.
    t.tap("Deal seventh street with these down-cards")
    expect(dealer.locator("#to-act")).to_contain_text(f"Seat {FIRST['seventh']} ")
    settled(pages)
    up_cards_shown(pages, {s: up[s] for s in LIVE}, backs=3)
    street_named(pages, "Seventh street")
    for key in ("display", "display-720"):
        down_cards_nowhere(pages[key], DOWN)
    problems += measured(pages, "seventh-street", numbers)

    first = FIRST["seventh"]
    for seat in LIVE[LIVE.index(first) :] + LIVE[: LIVE.index(first)]:
        act(t, "Check", seat)
    expect(dealer.get_by_role("heading", name="Showdown")).to_be_visible()
    for seat in LIVE:
        t.tap(f"Show seat {seat}")
        t.actions += 1
    expect(dealer.get_by_role("button", name="Start hand 2")).to_be_visible()
    expect(dealer.locator("#push-list")).to_contain_text("seat 4")
    settled(pages)
    for key in ("display", "display-720"):
        page = pages[key]
        expect(page.locator(".result .won")).to_contain_text("Seat 4 wins the main pot")
        for seat in LIVE:
            expect(
                page.locator(f'.seat[data-seat="{seat}"] .stud-hand .card:not(.back)')
            ).to_have_count(7)
    problems += measured(pages, "showdown", numbers)
    # A display loaded between hands recalls the hands shown from the history.
    fresh = stations.open("display", "display", viewport=BIG)
    expect(fresh.locator("body")).to_have_attribute(
        "data-seq", dealer.locator("body").get_attribute("data-seq") or ""
    )
    expect(fresh.locator(".result .won")).to_contain_text("Seat 4 wins the main pot")
    for seat in LIVE:
        hand = fresh.locator(f'.seat[data-seat="{seat}"] .stud-hand .card:not(.back)')
        expect(hand).to_have_count(7)
    assert fresh.page_errors == []

    required = t.taps - t.optional
    print(
        f"\nStud hand, eight seats to a six-way showdown: {t.taps} taps with every down-card"
        f" entered, {required} without the {t.optional} optional ones ({t.actions} actions and"
        f" shows, {t.cards} up-cards, {required - t.actions - t.cards} to open and deal the"
        f" streets); {t.typed} typed characters.\n{report(numbers)}"
    )
    assert t.typed == 0
    assert problems == [], "\n".join(problems)


# --- 2. eight hands to seventh street: one community card (RP-10-H) -------------------------


def checked_through(config: TableConfig, deals: list[Command]) -> list[Command]:
    """Each deal followed by the betting the engine prompts, every seat bringing it in, checking
    or calling: the commands a dealer would record, worked out with the engine itself."""
    state = new_table(config)
    out: list[Command] = []
    for deal in deals:
        commands: list[Command] = [deal]
        while commands:
            command = commands.pop()
            out.append(command)
            state, _ = apply(state, command)
            if state.phase == "betting" and state.to_act is not None:
                seat = state.seat(state.to_act)
                assert seat is not None
                options = prompt_for(state, seat).options
                declare = next(o for o in ("bring_in", "check", "call") if o in options)
                commands.append(Act(seat=seat.number, declare=declare))
    return out


DECK = [r + s for r in "AKQJT98765432" for s in "shdc"]
THIRD_DOWN = [c for cards in DOWN3.values() for c in cards]
UNDEALT = [c for c in DECK if c not in {*UP3.values(), *THIRD_DOWN}]
"""What third street leaves in the deck."""
STREETS: tuple[Street, ...] = ("fourth", "fifth", "sixth")
EIGHT_UP: dict[Street, dict[int, str]] = {
    street: {seat: UNDEALT[8 * i + seat - 1] for seat in range(1, 9)}
    for i, street in enumerate(STREETS)
}
COMMUNITY = UNDEALT[24]


def test_eight_hands_to_seventh_street_share_one_community_card(stations: Stations) -> None:
    deals: list[Command] = [
        StartHand(
            up={s: [c] for s, c in UP3.items()}, cards={s: list(c) for s, c in DOWN3.items()}
        ),
        *(
            Deal(street=street, up={s: [c] for s, c in up.items()})
            for street, up in EIGHT_UP.items()
        ),
    ]
    create_table(stations.server, STUD8)
    send_commands(stations.server, "1", *checked_through(STUD8, deals))
    pages = open_stations(stations)
    dealer = pages["dealer"]
    numbers = fresh_numbers()
    # The stub: 52 less six cards to each of eight hands and three burns leaves one card (C).
    expect(dealer.get_by_role("heading", name="Seventh street: one community card")).to_be_visible()
    expect(dealer.locator(".stub-note")).to_contain_text("RP-10-H C")
    t = StudTaps(dealer)
    t.tap("Choose the community card")
    t.card(COMMUNITY)
    t.tap(f"Turn the community card: {COMMUNITY.replace('T', '10')}")
    expect(dealer.locator("#to-act")).to_contain_text(" to act")
    settled(pages)
    label = f"Community card: {name(COMMUNITY)}"
    for key in ("display", "display-720", "dealer"):
        expect(pages[key].locator("#board")).to_have_attribute("aria-label", label)
        expect(pages[key].locator(".community-label")).to_have_text("Community card")
    expect(pages["floor"].locator("#seats .community")).to_have_attribute("aria-label", label)
    up = {s: [UP3[s], *(EIGHT_UP[street][s] for street in EIGHT_UP)] for s in range(1, 9)}
    up_cards_shown(pages, up, backs=2)
    street_named(pages, "Seventh street")
    for key in ("display", "display-720"):
        down_cards_nowhere(pages[key], THIRD_DOWN)
    problems = measured(pages, "community-card", numbers)

    # Checked down and every hand tabled as dealt: eight hands of six cards face up.
    first = int(dealer.locator("#to-act").inner_text().split()[1])
    order = [*range(first, 9), *range(1, first)]
    send_commands(stations.server, "1", *(Act(seat=s, declare="check") for s in order))
    expect(dealer.get_by_role("heading", name="Showdown")).to_be_visible()
    send_commands(stations.server, "1", *(Show(seat=s) for s in range(1, 9)))
    expect(dealer.get_by_role("button", name="Start hand 2")).to_be_visible()
    settled(pages)
    for key in ("display", "display-720"):
        page = pages[key]
        expect(page.locator("#board")).to_have_attribute("aria-label", label)
        for seat in range(1, 9):
            faces = page.locator(f'.seat[data-seat="{seat}"] .stud-hand .card:not(.back)')
            expect(faces).to_have_count(6)
    problems += measured(pages, "community-showdown", numbers)
    print(f"\nEight hands and a community card: {report(numbers)}")
    assert problems == [], "\n".join(problems)


# --- 3. the bring-in all-in on its ante (RP-10-E) ---------------------------------------------


SHORT = TableConfig(
    game="7S",
    blinds=(0, 0),
    ante=10,
    bring_in=20,
    min_bet=50,
    seats={1: 1_000, 2: 10, 3: 1_000, 4: 1_000},
    button=1,
    names={1: "Ana", 2: "Bruno", 3: "Chen", 4: "Dara"},
)


def test_the_seat_left_of_a_bring_in_all_in_on_its_ante_may_fold(stations: Stations) -> None:
    create_table(stations.server, SHORT)
    dealer = stations.open("dealer", "dealer", viewport=DEALER)
    display = stations.open("display", "display", viewport=BIG)
    expect(dealer.get_by_role("status")).to_have_text("Online")
    t = StudTaps(dealer)
    # A first deal is a misdeal (a card exposed): the re-deal's up-cards from the same picker.
    t.tap("Start the first hand")
    for code in ("Kd", "3c", "9h", "2d"):
        t.card(code)
    t.tap("Deal third street")
    expect(dealer.locator("#to-act")).to_have_text("Seat 4 · Dara to act")
    expect(dealer.locator("#prompt button")).to_have_text(["Bring in 20", "Complete to 50"])
    t.tap("Irregularities…")
    t.tap("Misdeal…")
    t.tap("A card exposed in the deal")
    expect(dealer.locator("#picker-title")).to_have_text("Misdeal: the re-deal's third street")
    for code in ("Kd", "2c", "9h", "Qs"):
        t.card(code)
    t.tap("Re-deal third street")
    expect(dealer.get_by_role("log")).to_contain_text("37")
    expect(dealer.locator("#to-act")).to_have_text("Seat 3 · Chen to act")
    buttons = dealer.locator("#prompt button")
    expect(buttons).to_have_text(["Fold", "Bring in 20", "Complete to 50"])
    expect(display.locator('.seat[data-seat="3"] .act-flag')).to_have_text("Bring in 20")
    expect(display.locator('.seat[data-seat="2"] .state')).to_have_text("All-in")
    screenshot(dealer, "stud-dealer-rp-10-e")
    t.tap("Fold")
    expect(dealer.locator("#to-act")).to_have_text("Seat 4 · Dara to act")
    expect(buttons).to_have_text(["Fold", "Bring in 20", "Complete to 50"])
    expect(dealer.get_by_role("log")).to_contain_text("RP-10-E")
    assert dealer.page_errors == [] and display.page_errors == []
